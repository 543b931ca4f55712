/* x87.c -- x87 arithmetic and the large state saves: fsave/frstor (108 B),
   fnstenv/fldenv (28 B), fxsave/fxrstor (512 B).
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The tool clamps such accesses to the minimum line size; they must not
   trip its size assertions, and their counts must match the reference. */

#include <stdio.h>
#include "cgt.h"

static unsigned char fsave_area[108] __attribute__((aligned(16)));
static unsigned char env_area[28] __attribute__((aligned(16)));
static unsigned char fx_area[512] __attribute__((aligned(16)));

NOINLINE static double x87_poly(double v, int n)
{
   double r = 0;

   for (int i = 0; i < n; i++)
      __asm__ volatile("fldl %1\n\t"
                       "fmul %%st(0), %%st(0)\n\t"
                       "faddl %2\n\t"
                       "fstpl %0"
                       : "=m"(r) : "m"(v), "m"(r));
   return r;
}

NOINLINE static unsigned state_saves(int n)
{
   unsigned short sw = 0;
   unsigned s = 0;
   double one = 1.0;

   for (int i = 0; i < n; i++) {
      __asm__ volatile("fldl %2\n\t"
                       "fnstsw %0\n\t"
                       "fnsave %1\n\t"
                       "frstor %1\n\t"
                       "fstp %%st(0)"
                       : "=m"(sw), "+m"(fsave_area) : "m"(one) : "memory");
      __asm__ volatile("fnstenv %0\n\tfldenv %0" : "+m"(env_area) : : "memory");
      __asm__ volatile("fxsave %0\n\tfxrstor %0" : "+m"(fx_area) : : "memory");
      s += sw + fsave_area[0] + env_area[0] + fx_area[0];
   }
   return s;
}

int main(void)
{
   printf("x87: %.3f %u\n", x87_poly(1.25, 2000), state_saves(300));
   return 0;
}
