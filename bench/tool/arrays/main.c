/* main.c -- the array workload's driver: runs each phase SCALE times and prints checksums.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage: arrays SCALE    (SCALE 1 is the quick size; the benchmark uses 10) */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "arrays.h"

void *xmalloc(size_t n)
{
    void *p = malloc(n);

    if (p == NULL) {
        fprintf(stderr, "arrays: error: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    return p;
}

static long parse_scale(const char *s)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < 1 || v > 1000) {
        fprintf(stderr, "arrays: error: SCALE must be a whole number from 1 to 1000: '%s'\n", s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    struct rng r = { 2463534242u };
    long scale;

    if (argc != 2) {
        fputs("usage: arrays SCALE\n", stderr);
        return 2;
    }
    scale = parse_scale(argv[1]);
    for (long i = 0; i < scale; i++) {
        printf("round %ld\n", i);
        printf("  matrix    %.6e\n", matrix_phase(&r, 160, 1));
        printf("  particles %.6e\n", particle_phase(&r, 20000, 4));
        printf("  grid      %.6e\n", grid_phase(&r, 384, 256, 12));
        printf("  records   %.6e\n", record_phase(&r, 120000, 2));
    }
    return 0;
}
