/* clreqcore.c -- client requests the tool does not own: a core query, and
   with argument "unknown" a request in Cachegrind's range that it does not
   know (code 'C','G' + 0xff), which must be declined with a warning.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include <string.h>
#include <valgrind/valgrind.h>

int main(int argc, char **argv)
{
   printf("running on valgrind: %s\n", RUNNING_ON_VALGRIND ? "yes" : "no");
   if (argc == 2 && strcmp(argv[1], "unknown") == 0) {
      unsigned long r = VALGRIND_DO_CLIENT_REQUEST_EXPR(
         42, VG_USERREQ_TOOL_BASE('C', 'G') + 0xff, 0, 0, 0, 0, 0);
      printf("unknown request returned %lu\n", r);
   }
   return 0;
}
