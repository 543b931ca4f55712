/* forker.c -- example of profiles of processes: a parent that forks two children.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later
   Build: gcc -g -O2 -o forker forker.c
   Run:   valgrind --tool=cachegrind --cachegrind-out-file=cg.out ./forker */

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static long squares(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += i * i;
    return s;
}

/* A child that sums n squares, prints the sum and exits; the parent
   waits for it, so that the children run one after the other. */
static void child(int which, long n)
{
    int status;
    pid_t pid;

    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(1);
    }
    if (pid == 0) {
        printf("child %d: %ld\n", which, squares(n));
        exit(0);
    }
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "child %d failed\n", which);
        exit(1);
    }
}

int main(void)
{
    child(1, 10000);
    child(2, 20000);
    printf("parent: %ld\n", squares(5000));
    return 0;
}
