/* fpcmp.c -- comparisons of doubles for (in)equality, which gcc compiles
   to a compare and, where it branches (at -O2 it makes count_nonzero's
   test branch-free on amd64), two conditional jumps, "jp" (unordered)
   and "je" or "jne".  VEX may join such a pair into one exit of a
   superblock when it chases branches (--vex-guest-chase=yes, the
   default), and the reference then counts one conditional branch where
   the machine runs two: the differential cases run this program with
   chasing on and off.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include "cgt.h"

#define N 4096

static double grid[N];

/* Some cells zero, some equal to their neighbour, the rest random. */
static void fill(unsigned *seed)
{
   for (int i = 0; i < N; i++) {
      unsigned r = cgt_rand(seed);
      if (r % 5 == 0)
         grid[i] = 0.0;
      else if (r % 5 == 1 && i > 0)
         grid[i] = grid[i - 1];
      else
         grid[i] = (double)(r % 1000) / 7.0;
   }
}

NOINLINE static long count_nonzero(const double *g, int n)
{
   long c = 0;

   for (int i = 0; i < n; i++)
      if (g[i] != 0.0)
         c += i & 7;
   return c;
}

NOINLINE static long count_repeats(const double *g, int n)
{
   long c = 0;

   for (int i = 1; i < n; i++) {
      if (g[i] == g[i - 1])
         c += 3;
      else if (g[i] != 0.0 && g[i - 1] != 0.0)
         c -= 1;
   }
   return c;
}

int main(int argc, char **argv)
{
   unsigned seed = 7;
   long rounds = cgt_arg(argc, argv, 1, 20), a = 0, b = 0;

   fill(&seed);
   for (long r = 0; r < rounds; r++) {
      grid[(r * 37) % N] = (double)(r % 3);     /* a new grid each round */
      a += count_nonzero(grid, N);
      b += count_repeats(grid, N);
   }
   printf("fpcmp: %ld %ld\n", a, b);
   return 0;
}
