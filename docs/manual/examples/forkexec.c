/* forkexec.c -- example of profiles of processes: a child that is forked, then execs.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later
   Build: gcc -g -O2 -o forkexec forkexec.c
   Run:   valgrind --tool=cachegrind --trace-children=yes ./forkexec */

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static long squares(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += i * i;
    return s;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        printf("child: %ld\n", squares(20000));
        return 0;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        execl(argv[0], argv[0], "child", (char *)NULL);
        perror("exec");
        _exit(127);
    }
    /* The child's output comes first: the parent waits before printing. */
    waitpid(pid, NULL, 0);
    printf("parent: %ld\n", squares(10000));
    return 0;
}
