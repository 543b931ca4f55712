/* threadreq.c -- zero and dump requests from several threads while others are created and exit, for tests/tool/threads.test.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The dumper thread dumps five parts, the zeroer thread zeroes five times,
   each after some work; meanwhile the main thread creates and joins
   short-lived workers.  Which counts end up in which part depends on the
   scheduling; what the test checks does not: 5 dump requests make 6
   parts, every file is well formed, and the parts add up to the total.
   The threads yield the processor after each request, so that the others
   run in between. */

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include "cachegrind.h"
#include "cgt.h"

static volatile long sink;

NOINLINE static void work(long n)
{
   long s = 0;

   for (long i = 0; i < n; i++)
      s += i & 5;
   sink += s;
}

static void *dumper(void *arg)
{
   for (int i = 0; i < 5; i++) {
      work(20000);
      CACHEGRIND_DUMP_STATS_AT("dumper");
      sched_yield();
   }
   return arg;
}

static void *zeroer(void *arg)
{
   for (int i = 0; i < 5; i++) {
      work(15000);
      CACHEGRIND_ZERO_STATS;
      sched_yield();
   }
   return arg;
}

static void *worker(void *arg)
{
   sched_yield();
   work(5000);
   return arg;
}

int main(void)
{
   pthread_t d, z, w;

   if (pthread_create(&d, NULL, dumper, NULL) != 0
       || pthread_create(&z, NULL, zeroer, NULL) != 0)
      return 1;
   for (int i = 0; i < 6; i++) {
      if (pthread_create(&w, NULL, worker, NULL) != 0)
         return 1;
      pthread_join(w, NULL);
   }
   pthread_join(d, NULL);
   pthread_join(z, NULL);
   printf("threadreq: done\n");
   return 0;
}
