/* threads8.c -- eight threads doing known work, for tests/tool/threads.test.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Thread k (k = 1 to 8, created in that order, so thread number k + 1 of
   --separate-threads) runs work(k, 1000 * k) and nothing else of this
   file.  "one K": the main thread runs work(K, 1000 * K) alone, the
   reference of thread K's work. */

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "cgt.h"

static volatile long sink[9];

NOINLINE void work(int k, long n)
{
   long s = 0;

   for (long i = 0; i < n; i++)
      s += (i ^ k) & 7 ? i : -i;
   sink[k] = s;
}

static void *thread_main(void *arg)
{
   int k = (int)(long)arg;

   work(k, 1000L * k);
   return NULL;
}

int main(int argc, char **argv)
{
   pthread_t t[8];

   if (argc == 3 && strcmp(argv[1], "one") == 0) {
      int k = (int)cgt_arg(argc, argv, 2, 1);
      work(k, 1000L * k);
      printf("threads8: one %d\n", k);
      return 0;
   }
   for (long k = 1; k <= 8; k++)
      if (pthread_create(&t[k - 1], NULL, thread_main, (void *)k) != 0)
         return 1;
   for (int k = 1; k <= 8; k++)
      pthread_join(t[k - 1], NULL);
   printf("threads8: %ld\n", sink[8]);
   return 0;
}
