/* belowmain.c -- changes --show-below-main while it runs (argv[1], else
   "--show-below-main=yes"): glibc's start-up code that runs after the
   change is named by the new setting, in both tools.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <valgrind/valgrind.h>

int main(int argc, char **argv)
{
    VALGRIND_CLO_CHANGE(argc > 1 ? argv[1] : "--show-below-main=yes");
    printf("hi\n");
    return 0;
}
