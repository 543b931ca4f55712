/* clreq2.c -- redundant START/STOP requests, with work between them.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Sequence START w1 STOP w2 START w3 START w4 STOP w5 STOP w6: with
   --instr-at-start=yes or no alike, w1, w3, w4 run instrumented and w2,
   w5, w6 do not; the first START (yes), the second START of the pair and
   the last STOP are redundant and only warn. */

#include <stdio.h>
#include "cachegrind.h"
#include "cgt.h"

static volatile long sink;

#define WORK(name, k)                        \
   NOINLINE static void name(int n)          \
   {                                         \
      for (int i = 0; i < n; i++)            \
         sink += (i * (k)) & 0xff;           \
   }

WORK(w1, 3)
WORK(w2, 5)
WORK(w3, 7)
WORK(w4, 11)
WORK(w5, 13)
WORK(w6, 17)

int main(void)
{
   CACHEGRIND_START_INSTRUMENTATION;
   w1(1000);
   CACHEGRIND_STOP_INSTRUMENTATION;
   w2(1100);
   CACHEGRIND_START_INSTRUMENTATION;
   w3(1200);
   CACHEGRIND_START_INSTRUMENTATION;
   w4(1300);
   CACHEGRIND_STOP_INSTRUMENTATION;
   w5(1400);
   CACHEGRIND_STOP_INSTRUMENTATION;
   w6(1500);
   printf("clreq2: %ld\n", sink);
   return 0;
}
