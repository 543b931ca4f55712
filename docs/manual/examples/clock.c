/* clock.c -- example of a program whose counts do not repeat: its work depends on the time.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later
   Build: gcc -g -O0 -o clock clock.c   (with -O2 the loop, whose sum is only tested, goes)
   Run:   cg_run --repeat=3 ./clock */

#include <stdio.h>
#include <time.h>

int main(void)
{
    struct timespec ts;
    long i, n, s = 0;

    clock_gettime(CLOCK_REALTIME, &ts);
    n = ts.tv_nsec % 100000 + 1;
    for (i = 0; i < n; i++)
        s += i;
    printf("%d\n", s >= 0);
    return 0;
}
