/* loops.c -- nested loops over an array: the plainest Ir workload.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage: loops [rounds]   (default 1) */

#include <stdio.h>
#include "cgt.h"

#define N 1000

static int a[N];

NOINLINE static long triangle(int n)
{
   long s = 0;

   for (int i = 0; i < n; i++)
      for (int j = 0; j <= i; j++)
         s += j;
   return s;
}

NOINLINE static void fill(int n)
{
   for (int i = 0; i < n; i++)
      a[i] = (i * 7919) % N;
}

NOINLINE static long sum_below(int n, int limit)
{
   long s = 0;

   for (int i = 0; i < n; i++) {
      if (a[i] < limit)
         s += a[i];
      else
         s -= 1;
   }
   return s;
}

int main(int argc, char **argv)
{
   long rounds = cgt_arg(argc, argv, 1, 1);
   long total = 0;

   for (long r = 0; r < rounds; r++) {
      fill(N);
      total += triangle(300);
      total += sum_below(N, 500 + (int)r);
   }
   printf("loops: %ld\n", total);
   return 0;
}
