/* cg_fmt.h -- the decimal formatter of the tool's text (messages and the profile).
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Plain C with no Valgrind or libc dependency, like cg_sim.h: the tool has
   no printf of its own for the profile writer's hot loop, and cg_arch's
   messages must build without the core.  Inline, so that the writer's
   copy (commas constant 0) is as short as a hand-written loop. */

#ifndef CG_FMT_H
#define CG_FMT_H

#include <stdint.h>

/* Room for any uint64 with thousands separators (26 characters). */
#define CG_FMT_U64_SIZE 26

/* Writes v in decimal, with ',' between groups of three digits if commas
   is set (the core's "%,u"), so that it ends just before end, and returns
   where it starts (at least end - CG_FMT_U64_SIZE).  No terminator is
   written. */
static inline char *cg_fmt_u64(char *end, uint64_t v, int commas)
{
   char *p = end;
   int digits = 0;

   do {
      if (commas && digits > 0 && digits % 3 == 0)
         *--p = ',';
      *--p = (char)('0' + v % 10);
      digits++;
      v /= 10;
   } while (v != 0);
   return p;
}

#endif /* CG_FMT_H */
