/* fnptr.c -- indirect calls through a table of function pointers, in an
   order that is random (mispredicted) and in one that repeats (learnt).
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include "cgt.h"

typedef long (*op_fn)(long, int);

NOINLINE static long op_add(long a, int b) { return a + b; }
NOINLINE static long op_sub(long a, int b) { return a - b; }
NOINLINE static long op_xor(long a, int b) { return a ^ b; }
NOINLINE static long op_mul(long a, int b) { return (a * (b | 1)) % 1000003; }
NOINLINE static long op_shr(long a, int b) { return a >> (b & 3); }

static op_fn const ops[] = { op_add, op_sub, op_xor, op_mul, op_shr };

NOINLINE static long random_calls(int n)
{
   unsigned seed = 77;
   long acc = 0;

   for (int i = 0; i < n; i++)
      acc = ops[cgt_rand(&seed) % 5](acc, i);
   return acc;
}

NOINLINE static long cyclic_calls(int n)
{
   long acc = 0;

   for (int i = 0; i < n; i++)
      acc = ops[i % 5](acc, i);
   return acc;
}

int main(void)
{
   printf("fnptr: %ld %ld\n", random_calls(20000), cyclic_calls(20000));
   return 0;
}
