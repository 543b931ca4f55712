/* gen.c -- deterministic inputs of the tool benchmark: pseudo-English text and a SQL script.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage:
     gen text BYTES   prints exactly BYTES bytes of pseudo-English prose
     gen sql ROWS     prints a SQL script that fills an in-memory database
                      with ROWS orders (and ROWS/10 customers) inside one
                      transaction, then indexes, joins, aggregates and sorts
     gen cxx UNITS    prints a C++ translation unit of UNITS namespaces,
                      each a class template over std::vector with
                      std::sort, a switch, a lambda and a loop, instantiated
                      for int and double: work for a compiler's parser,
                      template instantiation and optimiser

   The outputs depend only on the arguments: one fixed seed, one small
   PRNG (xorshift64*), no clock, no locale.  The text is made of words built
   from syllables and drawn with a Zipf-like (1/rank) frequency, in
   sentences and wrapped paragraphs, so that bzip2 meets the statistics of
   real prose rather than those of random bytes. */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED 0x2026c0ffee5eedULL
#define VOCAB 24000          /* distinct words; rank 0 is the most common */
#define MAX_WORD 24
#define LINE_WIDTH 72

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t rng_state = SEED;

static uint64_t rng_next(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dULL;
}

/* A uniform integer in [0, n), n > 0. */
static unsigned rng_below(unsigned n)
{
    return (unsigned)((rng_next() >> 32) % n);
}

/* The vocabulary, indexed by frequency rank: the words that carry most of
   English running text first, then made-up words.  Filled once by
   vocab_build; static storage, never freed. */
static char vocab[VOCAB][MAX_WORD];

static const char *const common_words[] = {
    "the", "of", "and", "to", "a", "in", "is", "that", "it", "was",
    "for", "on", "as", "with", "he", "be", "at", "by", "this", "had",
    "not", "are", "but", "from", "or", "have", "an", "they", "which", "one",
    "you", "were", "her", "all", "she", "there", "would", "their", "we", "him",
    "been", "has", "when", "who", "will", "more", "no", "if", "out", "so",
};

static const char *const onsets[] = {
    "b", "c", "d", "f", "g", "h", "l", "m", "n", "p", "r", "s", "t", "w",
    "br", "ch", "cl", "dr", "fr", "gr", "pl", "pr", "sh", "st", "str", "th",
    "tr", "wh", "", "", "",
};
static const char *const vowels[] = {
    "a", "e", "i", "o", "u", "ea", "ou", "ai", "ee", "oo", "ie", "y",
};
static const char *const codas[] = {
    "", "", "", "n", "r", "s", "t", "l", "nd", "st", "ng", "ck", "rt", "m",
    "ld", "nt", "ss", "th",
};

/* Writes a made-up word into w (MAX_WORD bytes): one syllable half of the
   time, two or three otherwise. */
static void make_word(char *w)
{
    unsigned pick = rng_below(20);
    unsigned syllables = pick < 10 ? 1 : pick < 17 ? 2 : 3;
    size_t len = 0;

    w[0] = '\0';
    for (unsigned s = 0; s < syllables; s++) {
        const char *parts[3];

        parts[0] = onsets[rng_below(COUNT(onsets))];
        parts[1] = vowels[rng_below(COUNT(vowels))];
        parts[2] = codas[rng_below(COUNT(codas))];
        for (unsigned p = 0; p < 3; p++) {
            size_t n = strlen(parts[p]);

            if (len + n + 1 > MAX_WORD)
                return;
            memcpy(w + len, parts[p], n + 1);
            len += n;
        }
    }
}

static void vocab_build(void)
{
    size_t i;

    for (i = 0; i < COUNT(common_words); i++)
        memcpy(vocab[i], common_words[i], strlen(common_words[i]) + 1);
    for (; i < VOCAB; i++)
        make_word(vocab[i]);
}

/* A word drawn with probability close to 1/(rank+1): an octave [2^e,
   2^(e+1)) of rank+1 is chosen uniformly, then a value within it, and
   draws past the vocabulary are redrawn.  Integers only, so the text is the
   same with any libm. */
static const char *zipf_word(void)
{
    for (;;) {
        unsigned e = rng_below(15);    /* 2^15 > VOCAB */
        unsigned r = (1u << e) + rng_below(1u << e);

        if (r <= VOCAB)
            return vocab[r - 1];
    }
}

/* The text writer: words go into a line buffer that is flushed at
   LINE_WIDTH columns, and nothing is written past the byte budget. */
struct text_out {
    char line[LINE_WIDTH + MAX_WORD + 8];
    size_t len;             /* bytes in line */
    unsigned long long left;  /* bytes still to write */
};

static void text_flush_line(struct text_out *t)
{
    size_t n = t->len;

    if (n > t->left)
        n = (size_t)t->left;
    fwrite(t->line, 1, n, stdout);
    t->left -= n;
    if (t->left > 0) {
        putchar('\n');
        t->left--;
    }
    t->len = 0;
}

static void text_word(struct text_out *t, const char *w, int capital, char after)
{
    size_t n = strlen(w);

    if (t->len > 0 && t->len + 1 + n + 1 > LINE_WIDTH)
        text_flush_line(t);
    if (t->len > 0)
        t->line[t->len++] = ' ';
    memcpy(t->line + t->len, w, n);
    if (capital && w[0] >= 'a' && w[0] <= 'z')
        t->line[t->len] = (char)(w[0] - 'a' + 'A');
    t->len += n;
    if (after)
        t->line[t->len++] = after;
}

static void gen_text(unsigned long long bytes)
{
    struct text_out t;

    t.len = 0;
    t.left = bytes;
    vocab_build();
    while (t.left > 0) {
        unsigned sentences = 3 + rng_below(6);

        for (unsigned s = 0; s < sentences && t.left > 0; s++) {
            unsigned words = 5 + rng_below(16);

            for (unsigned i = 0; i < words; i++) {
                char after = 0;

                if (i + 1 == words)
                    after = rng_below(10) == 0 ? '?' : '.';
                else if (rng_below(12) == 0)
                    after = ',';
                text_word(&t, zipf_word(), i == 0, after);
            }
        }
        /* A paragraph ends with an empty line. */
        text_flush_line(&t);
        if (t.left > 0) {
            putchar('\n');
            t.left--;
        }
    }
}

/* The SQL workload.  Names and items come from the same vocabulary. */
static const char *const cities[] = {
    "Aberdeen", "Bologna", "Cork", "Dresden", "Espoo", "Faro", "Ghent",
    "Hamburg", "Innsbruck", "Krakow", "Lyon", "Malmo", "Nantes", "Oslo",
    "Porto", "Riga", "Seville", "Tartu", "Utrecht", "Vienna",
};

/* What goes before row i (counted from 1) of an insert into table: rows
   are inserted ROWS_PER_INSERT to a statement, as a dump tool would. */
#define ROWS_PER_INSERT 20

static const char *insert_sep(unsigned long i, const char *table)
{
    static char head[64];

    if (i % ROWS_PER_INSERT != 1 && ROWS_PER_INSERT != 1)
        return ", ";
    snprintf(head, sizeof(head), "%sINSERT INTO %s VALUES ", i == 1 ? "" : ";\n", table);
    return head;
}

static void gen_sql(unsigned long rows)
{
    unsigned long customers = rows / 10 + 1;
    unsigned items = 500;

    vocab_build();
    /* Sorts and index builds that outgrow the page cache would spill into
       temporary files named from a PRNG seeded by /dev/urandom, and the
       length of those names changes the instruction count from run to
       run.  In memory, the workload is deterministic. */
    puts("PRAGMA temp_store = MEMORY;");
    puts("PRAGMA journal_mode = MEMORY;");
    puts("CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
         " city TEXT NOT NULL, born INTEGER NOT NULL);");
    puts("CREATE TABLE item(id INTEGER PRIMARY KEY, label TEXT NOT NULL,"
         " weight REAL NOT NULL);");
    puts("CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INTEGER NOT NULL,"
         " item INTEGER NOT NULL, qty INTEGER NOT NULL, price REAL NOT NULL,"
         " day INTEGER NOT NULL, note TEXT);");
    puts("BEGIN;");
    for (unsigned i = 1; i <= items; i++) {
        printf("%s(%u, '%s %s', %u.%02u)", insert_sep(i, "item"), i,
               vocab[50 + rng_below(2000)], vocab[50 + rng_below(VOCAB - 50)],
               rng_below(40), rng_below(100));
    }
    puts(";");
    for (unsigned long i = 1; i <= customers; i++) {
        printf("%s(%lu, '%s %s', '%s', %u)", insert_sep(i, "customer"), i,
               vocab[50 + rng_below(VOCAB - 50)], vocab[50 + rng_below(VOCAB - 50)],
               cities[rng_below(COUNT(cities))], 1940 + rng_below(65));
    }
    puts(";");
    for (unsigned long i = 1; i <= rows; i++) {
        printf("%s(%lu, %u, %u, %u, %u.%02u, %u, ", insert_sep(i, "orders"), i,
               1 + rng_below((unsigned)customers), 1 + rng_below(items),
               1 + rng_below(12), 1 + rng_below(300), rng_below(100), rng_below(3650));
        if (rng_below(4) == 0)
            printf("'%s %s %s')", zipf_word(), zipf_word(), zipf_word());
        else
            fputs("NULL)", stdout);
    }
    puts(";");
    puts("COMMIT;");
    puts("CREATE INDEX orders_customer ON orders(customer);");
    puts("CREATE INDEX orders_item_day ON orders(item, day);");
    puts("CREATE INDEX customer_city ON customer(city, born);");
    puts("ANALYZE;");
    puts("SELECT c.city, count(*), sum(o.qty), round(sum(o.qty * o.price), 2)"
         " FROM orders o JOIN customer c ON c.id = o.customer"
         " GROUP BY c.city ORDER BY 4 DESC;");
    puts("SELECT i.label, count(*) AS n, round(avg(o.price), 3)"
         " FROM orders o JOIN item i ON i.id = o.item"
         " GROUP BY i.id ORDER BY n DESC, i.label LIMIT 25;");
    puts("SELECT c.name, c.city, sum(o.qty * o.price) AS spent"
         " FROM customer c JOIN orders o ON o.customer = c.id"
         " WHERE c.born BETWEEN 1960 AND 1980"
         " GROUP BY c.id ORDER BY spent DESC, c.id LIMIT 20;");
    puts("SELECT day / 365 AS year, count(*), round(sum(price), 2)"
         " FROM orders GROUP BY year ORDER BY year;");
    puts("SELECT id, customer, price FROM orders ORDER BY price DESC, day, id LIMIT 30;");
    puts("SELECT count(DISTINCT note), count(note), max(length(note)) FROM orders;");
    puts("UPDATE orders SET price = round(price * 1.07, 2) WHERE day % 7 = 0;");
    puts("DELETE FROM orders WHERE qty = 12 AND day % 5 = 0;");
    puts("SELECT o.item, sum(o.qty) AS total,"
         " rank() OVER (ORDER BY sum(o.qty) DESC) AS r"
         " FROM orders o GROUP BY o.item ORDER BY r, o.item LIMIT 15;");
    puts("SELECT c.city, i.label, sum(o.qty) AS q"
         " FROM orders o JOIN customer c ON c.id = o.customer"
         " JOIN item i ON i.id = o.item"
         " WHERE o.day BETWEEN 1000 AND 1400"
         " GROUP BY c.city, i.id HAVING q > 20 ORDER BY q DESC, c.city, i.label LIMIT 20;");
    puts("SELECT count(*) FROM orders WHERE customer IN"
         " (SELECT id FROM customer WHERE city = 'Oslo');");
    puts("SELECT substr(note, 1, 1) AS initial, count(*) FROM orders"
         " WHERE note IS NOT NULL GROUP BY initial ORDER BY initial;");
}

/* The C++ of the translation-heavy workload: the compiler runs most of
   its code once, so that the cost of translating the client's code, not
   of running it, dominates under Valgrind.  The constants vary with the
   unit's number, so that no two units are the same code. */
static void gen_cxx(unsigned long units)
{
    unsigned long u;

    puts("#include <algorithm>");
    puts("#include <vector>");
    for (u = 0; u < units; u++) {
        printf("\nnamespace m%lu {\n", u);
        puts("template <typename T> struct Acc {");
        puts("  std::vector<T> v;");
        puts("  void add(T x) { v.push_back(x); }");
        printf("  T sum() const { T s = T(); for (const T &x : v) s += x * %lu;"
               " return s; }\n", u % 5 + 1);
        puts("  T top() const { std::vector<T> w(v); std::sort(w.begin(), w.end());"
             " return w.empty() ? T() : w.back(); }");
        puts("};");
        puts("static int step(int x) {");
        printf("  switch (x %% 8) { case 0: return x * %lu + 1; case 1: return x ^ %lu;"
               " case 2: return x >> 1;\n", u + 3, u * 17);
        printf("  case 3: return x + %lu; case 4: return x - 7;"
               " case 5: return x * x %% 1009; default: return x | %lu; }\n",
               u, u % 13);
        puts("}");
        puts("double run(int n) {");
        puts("  Acc<int> a; Acc<double> b;");
        printf("  for (int k = 0; k < n; k++) { int x = step(k + %lu); a.add(x);"
               " b.add(x * 0.5); }\n", u);
        puts("  auto f = [&](int y) { return a.sum() + y; };");
        printf("  return f(%lu) + b.sum() + a.top() + b.top();\n", u);
        puts("}");
        puts("}");
    }
    puts("\ndouble all_runs(int n) {");
    puts("  double t = 0;");
    for (u = 0; u < units; u++)
        printf("  t += m%lu::run(n);\n", u);
    puts("  return t;");
    puts("}");
}

static unsigned long long parse_count(const char *s, const char *what)
{
    char *end;
    unsigned long long v;

    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v == 0) {
        fprintf(stderr, "gen: error: %s must be a positive whole number: '%s'\n", what, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "text") == 0)
        gen_text(parse_count(argv[2], "BYTES"));
    else if (argc == 3 && strcmp(argv[1], "sql") == 0)
        gen_sql((unsigned long)parse_count(argv[2], "ROWS"));
    else if (argc == 3 && strcmp(argv[1], "cxx") == 0)
        gen_cxx((unsigned long)parse_count(argv[2], "UNITS"));
    else {
        fputs("usage: gen text BYTES | gen sql ROWS | gen cxx UNITS\n", stderr);
        return 2;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("gen: error: writing the output");
        return 1;
    }
    return 0;
}
