/* harness.c -- a benchmark harness: each candidate runs once to warm up, then once measured, as a profile part of its own.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Build: gcc -g -O2 -o harness harness.c
   Run:   valgrind --tool=cachegrind ./harness */

#include <stdio.h>
#include <string.h>
#include <valgrind/cachegrind.h>

#define N 4096

static unsigned char data[N];

/* The candidates: two ways to add up the bytes of a buffer. */
static __attribute__((noinline)) unsigned sum_bytes(const unsigned char *p, int n)
{
    unsigned s = 0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

static __attribute__((noinline)) unsigned sum_words(const unsigned char *p, int n)
{
    unsigned s = 0;
    for (int i = 0; i + 4 <= n; i += 4) {
        unsigned w;
        memcpy(&w, p + i, 4);
        s += (w & 0xff) + (w >> 8 & 0xff) + (w >> 16 & 0xff) + (w >> 24);
    }
    return s;
}

/* Runs fn once to warm up, then once measured: the part "fn". */
#define BENCH(fn)                                   \
    do {                                            \
        volatile unsigned r = fn(data, N);          \
        CACHEGRIND_ZERO_STATS;                      \
        r = fn(data, N);                            \
        CACHEGRIND_DUMP_STATS_AT(#fn);              \
        (void)r;                                    \
    } while (0)

int main(void)
{
    for (int i = 0; i < N; i++)
        data[i] = (unsigned char)(i * 37);

    CACHEGRIND_ZERO_STATS;
    CACHEGRIND_DUMP_STATS_AT("nothing");
    BENCH(sum_bytes);
    BENCH(sum_words);
    printf("%u\n", sum_bytes(data, N));
    return 0;
}
