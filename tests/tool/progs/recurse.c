/* recurse.c -- deep and wide recursion: Fibonacci and Ackermann.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include "cgt.h"

NOINLINE static unsigned long fib(unsigned n)
{
   return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

NOINLINE static unsigned long ack(unsigned long m, unsigned long n)
{
   if (m == 0)
      return n + 1;
   if (n == 0)
      return ack(m - 1, 1);
   return ack(m - 1, ack(m, n - 1));
}

/* Mutual recursion, so that calls alternate between two functions. */
NOINLINE static int is_odd(unsigned n);

NOINLINE static int is_even(unsigned n)
{
   return n == 0 ? 1 : is_odd(n - 1);
}

NOINLINE static int is_odd(unsigned n)
{
   return n == 0 ? 0 : is_even(n - 1);
}

int main(int argc, char **argv)
{
   unsigned n = (unsigned)cgt_arg(argc, argv, 1, 20);

   printf("fib(%u) = %lu\n", n, fib(n));
   printf("ack(2, 100) = %lu\n", ack(2, 100));
   printf("ack(3, 4) = %lu\n", ack(3, 4));
   printf("even(5001) = %d\n", is_even(5001));
   return 0;
}
