/* myprint.c -- the shared object loaded and unloaded by dlclose.c.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>

void myprint(void);

static int spin(int n)
{
   int s = 0;

   for (int i = 0; i < n; i++)
      s += i & 3;
   return s;
}

void myprint(void)
{
   if (spin(1000) >= 0)
      puts("This is myprint!");
}
