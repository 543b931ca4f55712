/* status.c -- a little work, then exit with the status given as argument.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage: status [N]   (default 0) */

#include <stdio.h>
#include "cgt.h"

int main(int argc, char **argv)
{
   long n = cgt_arg(argc, argv, 1, 0);
   long s = 0;

   for (int i = 0; i < 1000; i++)
      s += i & 5;
   printf("status: %ld, exiting with %ld\n", s, n);
   return (int)n;
}
