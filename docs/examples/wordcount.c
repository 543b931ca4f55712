/* wordcount.c -- example program for the cachegrind-ng demo: counts words in files.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Reads the files named on the command line, counts how often each word
   occurs with a small hash table, and prints the ten most frequent. */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_SIZE 4096

struct word {
    char *text;
    unsigned count;
    struct word *next;
};

static struct word *table[TABLE_SIZE];
static unsigned n_words;

static unsigned hash(const char *s)
{
    unsigned h = 5381;
    while (*s)
        h = h * 33 + (unsigned char)*s++;
    return h % TABLE_SIZE;
}

static void add_word(const char *s)
{
    unsigned h = hash(s);
    for (struct word *w = table[h]; w; w = w->next)
        if (strcmp(w->text, s) == 0) {
            w->count++;
            return;
        }
    struct word *w = malloc(sizeof *w);
    if (!w || !(w->text = strdup(s))) {
        perror("wordcount");
        exit(1);
    }
    w->count = 1;
    w->next = table[h];
    table[h] = w;
    n_words++;
}

static void count_file(FILE *f)
{
    char buf[256];
    size_t len = 0;
    int c;
    while ((c = getc(f)) != EOF) {
        if (isalnum(c) || c == '_') {
            if (len < sizeof buf - 1)
                buf[len++] = (char)tolower(c);
        } else if (len > 0) {
            buf[len] = '\0';
            add_word(buf);
            len = 0;
        }
    }
    if (len > 0) {
        buf[len] = '\0';
        add_word(buf);
    }
}

static int by_count(const void *a, const void *b)
{
    const struct word *x = *(struct word *const *)a;
    const struct word *y = *(struct word *const *)b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->text, y->text);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            perror(argv[i]);
            return 1;
        }
        count_file(f);
        fclose(f);
    }
    struct word **all = malloc((n_words + 1) * sizeof *all);
    if (!all)
        return 1;
    unsigned n = 0;
    for (unsigned h = 0; h < TABLE_SIZE; h++)
        for (struct word *w = table[h]; w; w = w->next)
            all[n++] = w;
    qsort(all, n, sizeof *all, by_count);
    printf("%u distinct words; the most frequent:\n", n);
    for (unsigned i = 0; i < n && i < 10; i++)
        printf("%6u %s\n", all[i]->count, all[i]->text);
    return 0;
}
