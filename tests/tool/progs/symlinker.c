/* symlinker.c -- make symbolic links whose names contain the process id.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage: symlinker TARGET NAME...
   Makes each NAME, with every "%p" replaced by the process id, a symbolic
   link to TARGET.  Under Valgrind the program has the tool's pid, so it
   can plant links at names the tool derives from its pid (the tests of
   the profile's temporary file).  Prints how many links it made: the pid
   itself is never printed (see cgt.h). */

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Writes name with "%p" expanded into buf; returns 0, or -1 if too long. */
static int expand(char *buf, size_t size, const char *name)
{
   size_t used = 0;

   for (const char *s = name; *s; s++) {
      int n;
      if (s[0] == '%' && s[1] == 'p') {
         n = snprintf(buf + used, size - used, "%ld", (long)getpid());
         s++;
      } else {
         n = snprintf(buf + used, size - used, "%c", *s);
      }
      if (n < 0 || (size_t)n >= size - used)
         return -1;
      used += (size_t)n;
   }
   return 0;
}

int main(int argc, char **argv)
{
   char name[4096];

   if (argc < 3) {
      fprintf(stderr, "usage: symlinker TARGET NAME...\n");
      return 2;
   }
   for (int i = 2; i < argc; i++) {
      if (expand(name, sizeof name, argv[i]) != 0) {
         fprintf(stderr, "symlinker: name too long: %s\n", argv[i]);
         return 2;
      }
      if (symlink(argv[1], name) != 0) {
         perror(name);
         return 1;
      }
   }
   printf("symlinker: %d links\n", argc - 2);
   return 0;
}
