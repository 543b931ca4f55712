/* cg_glob.h -- wildcard matching of function names (--toggle-collect), in time linear in the pattern times the name.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Plain C with no Valgrind or libc dependency, like cg_fmt.h, so that it
   is unit-tested on the host (tests/unit/test_glob.c).

   The patterns are the core's (VG_(string_match), pub_tool_seqmatch.h):
   '*' matches any run of characters, '?' any one character, every other
   character itself (there is no escape: '\' is a character like any
   other), and the whole name must match.  The core's matcher backtracks
   recursively, once per '*': a pattern of a few stars against a long C++
   name took minutes, during which the run could not be stopped but by
   SIGKILL.  This one keeps only the last star: when the text after it
   fails to match, that star takes one more character.  The text between
   two stars never needs the earlier star to take more, since anything it
   could match there the later star can cover, so the answer is the same
   in O(pattern * name) steps. */

#ifndef CG_GLOB_H
#define CG_GLOB_H

/* Whether name matches pattern as a whole. */
static inline int cg_glob_match(const char *pattern, const char *name)
{
   const char *p = pattern, *s = name;
   const char *star_p = 0, *star_s = 0;

   while (*s != '\0') {
      if (*p == '*') {
         while (*p == '*')
            p++;
         star_p = p;
         star_s = s;
         continue;
      }
      if (*p != '\0' && (*p == '?' || *p == *s)) {
         p++;
         s++;
         continue;
      }
      if (star_p == 0)
         return 0;
      p = star_p;
      s = ++star_s;
   }
   while (*p == '*')
      p++;
   return *p == '\0';
}

#endif /* CG_GLOB_H */
