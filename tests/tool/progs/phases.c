/* phases.c -- a program in phases, each dumped as a profile part, for tests/tool/parts.test and the .vgtest cases of parts.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The phases call phase_one, phase_two and phase_three, and the parts
   are named after them.  Modes (argv[1]):
      (none)     one, dump "one", two, dump "two", three
      crash      the same, but phase three dies of SIGSEGV
      fork       one, dump "before fork", fork: the child runs two and
                 dumps "child", then three; the parent waits, dumps
                 "after fork" and runs three
      exec       one, dump "before exec", then exec of this program with
                 "execd": two, dump "after exec", three
      badexec    one, dump "before exec", an exec that fails, two, dump
                 "after exec", three
      long N     phase_one N times (for --dump-every)
      names      three dumps whose names need escaping in the header */

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cachegrind.h"
#include "cgt.h"

static volatile long sink;

NOINLINE static void phase_one(void)
{
   for (int i = 0; i < 1000; i++)
      sink += i;
}

NOINLINE static void phase_two(void)
{
   for (int i = 0; i < 2000; i++)
      sink ^= i;
}

NOINLINE static void phase_three(int crash)
{
   for (int i = 0; i < 3000; i++)
      sink -= i;
   if (crash)
      *(volatile int *)16 = 0;   /* page 0 is never mapped */
}

int main(int argc, char **argv)
{
   const char *mode = argc > 1 ? argv[1] : "";

   if (strcmp(mode, "long") == 0) {
      long n = cgt_arg(argc, argv, 2, 100);
      for (long i = 0; i < n; i++)
         phase_one();
      printf("phases: long\n");
      return 0;
   }
   if (strcmp(mode, "names") == 0) {
      CACHEGRIND_DUMP_STATS_AT("50% \"done\"");
      CACHEGRIND_DUMP_STATS_AT("back\\slash");
      CACHEGRIND_DUMP_STATS_AT("new\nline\ttab");
      printf("phases: names\n");
      return 0;
   }
   if (strcmp(mode, "execd") == 0) {
      phase_two();
      CACHEGRIND_DUMP_STATS_AT("after exec");
      phase_three(0);
      printf("phases: execd\n");
      return 0;
   }
   phase_one();
   if (strcmp(mode, "fork") == 0) {
      CACHEGRIND_DUMP_STATS_AT("before fork");
      fflush(stdout);
      pid_t pid = fork();
      if (pid == 0) {
         phase_two();
         CACHEGRIND_DUMP_STATS_AT("child");
         phase_three(0);
         return 0;
      }
      waitpid(pid, NULL, 0);
      CACHEGRIND_DUMP_STATS_AT("after fork");
      phase_three(0);
      printf("phases: fork\n");
      return 0;
   }
   if (strcmp(mode, "exec") == 0 || strcmp(mode, "badexec") == 0) {
      CACHEGRIND_DUMP_STATS_AT("before exec");
      char *args[] = { argv[0], "execd", NULL };
      fflush(stdout);
      execv(mode[0] == 'b' ? "/nonexistent/phases" : argv[0], args);
      phase_two();
      CACHEGRIND_DUMP_STATS_AT("after exec");
      phase_three(0);
      printf("phases: badexec\n");
      return 0;
   }
   CACHEGRIND_DUMP_STATS_AT("one");
   phase_two();
   CACHEGRIND_DUMP_STATS_AT("two");
   printf("phases: three\n");
   fflush(stdout);
   phase_three(strcmp(mode, "crash") == 0);
   return 0;
}
