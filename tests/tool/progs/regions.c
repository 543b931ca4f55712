/* regions.c -- client requests around empty regions and around a known loop, for tests/tool/regions.test.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   "parts" (the default): zero, then parts 1 (empty), 2 (the loop and its
   call), 3 (empty, DUMP_STATS), 4 (empty, a STOP and a START between two
   dumps), 5 (empty: the work before it was zeroed), and the final part
   (the rest of the run).  "startstop" (run with --instr-at-start=no): an
   empty START/STOP region, then the loop between a START and a STOP.
   Built with -DNOREQ, every request is nothing: the same program's
   whole-run counts of the loop, for comparison.  Built with -DPLAINREQ,
   the requests are valgrind.h's plain sequence, which the tool counts:
   the test's check must then see counts in the empty regions. */

#include <stdio.h>
#include <string.h>
#include "cachegrind.h"
#include "cgt.h"

#ifdef NOREQ
#undef CACHEGRIND_ZERO_STATS
#undef CACHEGRIND_DUMP_STATS
#undef CACHEGRIND_DUMP_STATS_AT
#undef CACHEGRIND_START_INSTRUMENTATION
#undef CACHEGRIND_STOP_INSTRUMENTATION
#define CACHEGRIND_ZERO_STATS ((void)0)
#define CACHEGRIND_DUMP_STATS ((void)0)
#define CACHEGRIND_DUMP_STATS_AT(name) ((void)0)
#define CACHEGRIND_START_INSTRUMENTATION ((void)0)
#define CACHEGRIND_STOP_INSTRUMENTATION ((void)0)
#endif

#ifdef PLAINREQ
#undef CACHEGRIND_ZERO_STATS
#undef CACHEGRIND_DUMP_STATS
#undef CACHEGRIND_DUMP_STATS_AT
#undef CACHEGRIND_START_INSTRUMENTATION
#undef CACHEGRIND_STOP_INSTRUMENTATION
#define PLAIN(code, arg) VALGRIND_DO_CLIENT_REQUEST_STMT(code, arg, 0, 0, 0, 0)
#define CACHEGRIND_ZERO_STATS PLAIN(VG_USERREQ__CG_ZERO_STATS, 0)
#define CACHEGRIND_DUMP_STATS PLAIN(VG_USERREQ__CG_DUMP_STATS, 0)
#define CACHEGRIND_DUMP_STATS_AT(name) PLAIN(VG_USERREQ__CG_DUMP_STATS_AT, name)
#define CACHEGRIND_START_INSTRUMENTATION \
   PLAIN(VG_USERREQ__CG_START_INSTRUMENTATION, 0)
#define CACHEGRIND_STOP_INSTRUMENTATION \
   PLAIN(VG_USERREQ__CG_STOP_INSTRUMENTATION, 0)
#endif

static volatile long sink;
static long data[256];

NOINLINE static long loop_work(int n)
{
   long s = 0;

   for (int i = 0; i < n; i++)
      s += (i & 3) ? data[i & 255] : -i;
   return s;
}

int main(int argc, char **argv)
{
   for (int i = 0; i < 256; i++)
      data[i] = i * 7;
   if (argc > 1 && strcmp(argv[1], "startstop") == 0) {
      CACHEGRIND_START_INSTRUMENTATION;
      CACHEGRIND_STOP_INSTRUMENTATION;
      CACHEGRIND_START_INSTRUMENTATION;
      sink = loop_work(1000);   /* the startstop region */
      CACHEGRIND_STOP_INSTRUMENTATION;
   } else {
      CACHEGRIND_ZERO_STATS;
      CACHEGRIND_DUMP_STATS_AT("empty");
      sink = loop_work(1000);   /* the loop region */
      CACHEGRIND_DUMP_STATS_AT("loop");
      CACHEGRIND_DUMP_STATS;
      CACHEGRIND_STOP_INSTRUMENTATION;
      CACHEGRIND_START_INSTRUMENTATION;
      CACHEGRIND_DUMP_STATS_AT("stop and start");
      sink += loop_work(10);
      CACHEGRIND_ZERO_STATS;
      CACHEGRIND_DUMP_STATS_AT("zeroed");
   }
   printf("regions: %ld\n", sink);
   return 0;
}
