/* cgt.h -- helpers shared by the tool-tier test programs.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Every test program must do the same work, instruction for instruction, in
   every run: random data come from a fixed-seed generator, and nothing that
   varies between runs (pids, times, addresses) is ever printed, since even
   the number of digits printed changes the instruction count. */

#ifndef CGT_H
#define CGT_H

#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

/* A 32-bit linear congruential generator (Numerical Recipes constants);
   the state is explicit so that each use has its own sequence. */
static inline unsigned cgt_rand(unsigned *state)
{
   *state = *state * 1664525u + 1013904223u;
   return *state >> 8;
}

/* The integer value of argv[i], or def when absent: strtol, not atoi,
   so that a malformed argument is an error rather than a zero. */
static inline long cgt_arg(int argc, char **argv, int i, long def)
{
   char *end;
   long v;

   if (i >= argc)
      return def;
   v = strtol(argv[i], &end, 10);
   if (*argv[i] == '\0' || *end != '\0')
      abort();
   return v;
}

#endif /* CGT_H */
