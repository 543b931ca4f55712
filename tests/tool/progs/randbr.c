/* randbr.c -- branches that depend on random data (about half of them
   mispredicted) beside branches with a regular pattern.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include "cgt.h"

#define N 20000

static unsigned char data[N];

/* Optimisation off for the branchy functions: at -O2 gcc may turn the
   ifs into conditional moves, and then there is nothing to predict. */
__attribute__((optimize("O0"), noinline)) static long random_branches(void)
{
   long s = 0;

   for (int i = 0; i < N; i++) {
      if (data[i] < 128)
         s += data[i];
      else
         s -= 1;
      if ((data[i] & 3) == 0)
         s ^= i;
   }
   return s;
}

__attribute__((optimize("O0"), noinline)) static long pattern_branches(void)
{
   long s = 0;

   for (int i = 0; i < N; i++) {
      if (i % 4 == 0)
         s += 2;
      if (i % 3 == 1)
         s -= 1;
   }
   return s;
}

int main(void)
{
   unsigned seed = 1;

   for (int i = 0; i < N; i++)
      data[i] = (unsigned char)cgt_rand(&seed);
   printf("randbr: %ld %ld\n", random_branches(), pattern_branches());
   return 0;
}
