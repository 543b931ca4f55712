/* execer.c -- work, then exec another program (directly or in a child).
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage: execer chain N PROG   work, then exec "execer chain N-1 PROG",
                                and at N = 0 exec PROG itself; so one pid
                                execs N + 1 times.
          execer fork PROG      work, fork a child that works and execs
                                PROG, wait for it, work again. */

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cgt.h"

NOINLINE static long exec_work(int n)
{
   long s = 0;

   for (int i = 0; i < n; i++)
      s += (i ^ (i >> 3)) & 15;
   return s;
}

static void do_exec(char *prog, char **argv)
{
   fflush(stdout);
   execv(prog, argv);
   perror("execv");
   exit(2);
}

static void usage(void)
{
   fprintf(stderr, "usage: execer chain N PROG | execer fork PROG\n");
   exit(2);
}

int main(int argc, char **argv)
{
   if (argc == 4 && strcmp(argv[1], "chain") == 0) {
      long n = cgt_arg(argc, argv, 2, 0);
      char count[16];
      char *self[] = { argv[0], argv[1], count, argv[3], NULL };
      char *target[] = { argv[3], NULL };

      printf("execer chain %ld: %ld\n", n, exec_work(3000 + 1000 * (int)n));
      if (n == 0)
         do_exec(argv[3], target);
      snprintf(count, sizeof count, "%ld", n - 1);
      do_exec(argv[0], self);
   }
   if (argc == 3 && strcmp(argv[1], "fork") == 0) {
      char *target[] = { argv[2], NULL };
      pid_t pid;
      int status;

      printf("execer fork: %ld\n", exec_work(4000));
      fflush(stdout);
      pid = fork();
      if (pid < 0) {
         perror("fork");
         return 2;
      }
      if (pid == 0) {
         printf("execer child: %ld\n", exec_work(2000));
         do_exec(argv[2], target);
      }
      if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
         return 1;
      printf("execer parent: %ld, child status %d\n", exec_work(1000),
             WEXITSTATUS(status));
      return 0;
   }
   usage();
   return 2;
}
