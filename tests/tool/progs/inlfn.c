/* inlfn.c -- a function with code inlined from a header, and two static functions of one name in two files.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Build: cc -g -O2 -o inlfn inlfn.c inlfn-a.c inlfn-b.c.  main runs
   mix() of inlfn.h, inlined, most of its instructions; inlfn-a.c and
   inlfn-b.c each have a static helper() of their own
   (tests/tool/instr-functions.test, tests/tool/kcachegrind.test). */

#include <stdio.h>

#include "inlfn.h"

int run_a(int n);
int run_b(int n);

int main(void)
{
	unsigned s = 0;

	for (unsigned i = 0; i < 1000; i++)
		s += mix(i);
	printf("%u %d %d\n", s, run_a(100), run_b(200));
	return 0;
}
