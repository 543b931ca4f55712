/* cg_glob.h -- wildcard matching of function names (--toggle-collect), in time linear in the pattern times the name.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Plain C with no Valgrind or libc dependency, like cg_fmt.h, so that it
   is unit-tested on the host (tests/unit/test_glob.c).

   The patterns are the core's (VG_(string_match)): '*' matches any run of
   characters, '?' any one character, '\' makes the character after it
   literal (a '\' at the end of a pattern matches nothing), and the whole
   name must match.  The core's matcher backtracks recursively, once per
   '*': a pattern of a few stars against a long C++ name took minutes,
   during which the run could not be stopped but by SIGKILL.  This one
   keeps only the last star:
   when the text after it fails to match, that star takes one more
   character.  The text between two stars never needs the earlier star to
   take more, since anything it could match there the later star can
   cover, so the answer is the same in O(pattern * name) steps. */

#ifndef CG_GLOB_H
#define CG_GLOB_H

/* The length of the pattern element at p (1, or 2 for an escape), or 0
   when there is none: the end, or a '\' that ends the pattern. */
static inline int cg_glob_elem(const char *p)
{
   if (*p == '\0')
      return 0;
   if (*p == '\\')
      return p[1] == '\0' ? 0 : 2;
   return 1;
}

/* Whether the element at p (cg_glob_elem(p) > 0, not '*') matches c. */
static inline int cg_glob_one(const char *p, char c)
{
   if (*p == '\\')
      return p[1] == c;
   return *p == '?' || *p == c;
}

/* Whether name matches pattern as a whole. */
static inline int cg_glob_match(const char *pattern, const char *name)
{
   const char *p = pattern, *s = name;
   const char *star_p = 0, *star_s = 0;

   while (*s != '\0') {
      int n = cg_glob_elem(p);
      if (*p == '*') {
         while (*p == '*')
            p++;
         star_p = p;
         star_s = s;
         continue;
      }
      if (n > 0 && cg_glob_one(p, *s)) {
         p += n;
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
