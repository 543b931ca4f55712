/* lto-main.c -- with lto-mix.c, a program whose calls across files are inlined by -flto. */
/* Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>

unsigned mix(unsigned h, unsigned v);
unsigned finish(unsigned h, unsigned n);

int main(int argc, char **argv)
{
	unsigned h = 0, n = 100000;

	for (unsigned i = 0; i < n; i++) {
		h = mix(h, i + (unsigned)argc);
		if (i % 1000 == 0)
			h = finish(h, i);
	}
	printf("%u\n", finish(h, n));
	return 0;
}
