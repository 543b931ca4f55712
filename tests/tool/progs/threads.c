/* threads.c -- a deterministic prelude, then four threads doing work.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Thread scheduling changes the counts of code the threads share (libc,
   the scheduler's spin paths), even between two runs of the same tool.
   prelude() runs in the main thread before any thread exists, so its
   counts are deterministic and comparable. */

#include <pthread.h>
#include <stdio.h>
#include "cgt.h"

#define NTHREADS 4

static long results[NTHREADS];
static int table[4096];

NOINLINE static long prelude(int n)
{
   unsigned seed = 7;
   long s = 0;

   for (int i = 0; i < n; i++) {
      table[i & 4095] = (int)(cgt_rand(&seed) & 1023);
      s += table[(i * 5) & 4095];
   }
   return s;
}

static void *thread_main(void *arg)
{
   long id = (long)arg;
   long s = 0;

   for (int i = 0; i < 20000; i++)
      s += table[(i * (id + 3)) & 4095] ^ i;
   results[id] = s;
   return NULL;
}

int main(void)
{
   pthread_t tids[NTHREADS];
   long total = prelude(10000);

   for (long i = 0; i < NTHREADS; i++)
      if (pthread_create(&tids[i], NULL, thread_main, (void *)i) != 0) {
         printf("pthread_create failed\n");
         return 1;
      }
   for (int i = 0; i < NTHREADS; i++) {
      pthread_join(tids[i], NULL);
      total += results[i];
   }
   printf("threads: %ld\n", total);
   return 0;
}
