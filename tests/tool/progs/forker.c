/* forker.c -- a parent and two children, each doing different work.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The children are created one after the other (the parent waits for the
   first before creating the second), so their creation order is the order
   of their pids, which is how the harness pairs them across runs. */

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cgt.h"

NOINLINE static long parent_work(int n)
{
   long s = 0;

   for (int i = 0; i < n; i++)
      s += i % 7;
   return s;
}

NOINLINE static long child_work(int n, int mult)
{
   long s = 1;

   for (int i = 1; i < n; i++)
      s = (s * mult + i) % 1000003;
   return s;
}

static void run_child(int which)
{
   pid_t pid;
   int status;

   fflush(stdout);
   pid = fork();
   if (pid < 0) {
      perror("fork");
      exit(2);
   }
   if (pid == 0) {
      printf("child %d: %ld\n", which, child_work(5000 * which, 31 + which));
      exit(0);
   }
   if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)
       || WEXITSTATUS(status) != 0) {
      printf("child %d failed\n", which);
      exit(1);
   }
}

int main(void)
{
   long before = parent_work(20000);

   run_child(1);
   run_child(2);
   printf("parent: %ld %ld\n", before, parent_work(10000));
   return 0;
}
