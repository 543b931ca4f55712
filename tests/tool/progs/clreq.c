/* clreq.c -- CACHEGRIND_STOP/START_INSTRUMENTATION around separate work.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Each work_* function is called at one place only, so all its lines run
   either with instrumentation on (work_inside) or off (work_outside*). */

#include <stdio.h>
#include "cachegrind.h"
#include "cgt.h"

static volatile long sink;

NOINLINE static long work_outside(int n)
{
   long s = 0;

   for (int i = 0; i < n; i++)
      s += i * i;
   return s;
}

NOINLINE static long work_inside(int n)
{
   long s = 0;

   for (int i = 0; i < n; i++)
      s += (i & 1) ? i : -i / 2;
   return s;
}

NOINLINE static long work_outside2(int n)
{
   long s = 0;

   for (int i = 0; i < n; i++)
      s ^= i << 1;
   return s;
}

int main(void)
{
   CACHEGRIND_STOP_INSTRUMENTATION;
   sink = work_outside(3000);
   CACHEGRIND_START_INSTRUMENTATION;
   sink += work_inside(4000);
   CACHEGRIND_STOP_INSTRUMENTATION;
   sink += work_outside2(5000);
   printf("clreq: %ld\n", sink);
   return 0;
}
