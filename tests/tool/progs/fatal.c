/* fatal.c -- work, then die of a signal in the middle of straight-line code.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage: fatal segv | abort
   The profile gathered so far must be written; which instructions of the
   faulting superblock are counted depends on where the tool flushes its
   counters, so the fault sits after a loop, between plain statements. */

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "cgt.h"

/* Read through a volatile pointer so the compiler cannot see the NULL
   and replace the store by a trap instruction. */
static int *volatile null_ptr;
static volatile int sink[8];

NOINLINE static int crunch(int n)
{
   int s = 0;

   for (int i = 0; i < n; i++)
      s += (i * 3) ^ (s >> 2);
   return s;
}

NOINLINE static void fault_midway(int seed)
{
   int x = crunch(seed);

   for (int i = 0; i < 100; i++)
      sink[i & 7] += x + i;
   sink[0] = x + 1;
   sink[1] = sink[0] * 3;
   sink[2] = sink[1] - x;
   *null_ptr = sink[2];          /* SIGSEGV here */
   sink[3] = sink[2] + 7;
   sink[4] = sink[3] * 5;
}

NOINLINE static void abort_midway(int seed)
{
   int x = crunch(seed);

   sink[5] = x;
   sink[6] = sink[5] + 2;
   if (sink[6] != 0x7fffffff)
      abort();
   sink[7] = 1;
}

int main(int argc, char **argv)
{
   printf("fatal: start\n");
   fflush(stdout);
   if (argc == 2 && strcmp(argv[1], "segv") == 0)
      fault_midway(5000);
   else if (argc == 2 && strcmp(argv[1], "abort") == 0)
      abort_midway(4000);
   printf("usage: fatal segv | abort\n");
   return 2;
}
