/* crash.c -- example of a program killed by a signal: its profile is still written.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later
   Build: gcc -g -O0 -o crash crash.c */

#include <stdio.h>

int main(void)
{
    int *p = NULL;
    long s = 0;
    for (int i = 0; i < 1000; i++)
        s += i;
    printf("%ld\n", s);
    fflush(stdout);
    return *p;
}
