/* inlfn-b.c -- a static helper() of its own (inlfn.c says why).
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

int run_b(int n);

static __attribute__((noinline, noclone)) int helper(int x)
{
	return x * 5 - 2;
}

int run_b(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += helper(i);
	return s;
}
