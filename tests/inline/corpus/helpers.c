/* helpers.c -- static inline helpers, nested, in loops: the C program of the inline-chain oracle (built with -O2 and -O3). */
/* Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>

#include "helpers.h"

static inline unsigned square(unsigned x)
{
	return x * x;
}

static inline unsigned sum_squares(const unsigned *a, int n)
{
	unsigned s = 0;
	for (int i = 0; i < n; i++)
		s += square(a[i]) ^ hash_step(s, a[i]);
	return s;
}

static inline void fill(unsigned *a, int n, unsigned seed)
{
	for (int i = 0; i < n; i++) {
		seed = hash_step(seed, (unsigned)i);
		a[i] = clamp(seed % 1000u, 10u, 900u);
	}
}

int main(int argc, char **argv)
{
	unsigned a[512], total = 0;
	int rounds = argc > 1 ? atoi(argv[1]) : 50;

	for (int r = 0; r < rounds; r++) {
		fill(a, 512, (unsigned)r);
		total += sum_squares(a, 512);
	}
	printf("%u\n", total);
	return 0;
}
