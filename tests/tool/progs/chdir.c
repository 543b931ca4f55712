/* chdir.c -- the client changes its working directory before exiting.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   A relative output file name is expanded against the start-up directory,
   so the profile must not land in the parent directory. */

#include <stdio.h>
#include <unistd.h>

int main(void)
{
   if (chdir("..") != 0) {
      perror("chdir");
      return 1;
   }
   printf("chdir: done\n");
   return 0;
}
