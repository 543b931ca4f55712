/* phases.c -- example of Cachegrind's client requests: count only the phase of interest.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Fills and sorts an array (set-up, not counted), then sums it (counted).
   Build: gcc -g -O2 -o phases phases.c
   Run:   valgrind --tool=cachegrind --instr-at-start=no ./phases */

#include <stdio.h>
#include <stdlib.h>
#include <valgrind/cachegrind.h>

#define N 100000

static int cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void fill(int *v, int n)
{
    srand(1);
    for (int i = 0; i < n; i++)
        v[i] = rand();
}

static __attribute__((noinline)) long sum(const int *v, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

int main(void)
{
    int *v = malloc(N * sizeof *v);
    if (!v)
        return 1;
    fill(v, N);
    qsort(v, N, sizeof *v, cmp);

    CACHEGRIND_START_INSTRUMENTATION;
    long s = sum(v, N);
    CACHEGRIND_STOP_INSTRUMENTATION;

    printf("%ld\n", s);
    free(v);
    return 0;
}
