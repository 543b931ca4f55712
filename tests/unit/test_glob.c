/* test_glob.c -- cg_glob_match (--toggle-collect's wildcards) against the core's recursive definition, and its time on patterns of many stars.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cg_glob.h"
#include "unit_check.h"

/* The definition of VG_(string_match) (pub_tool_seqmatch.h: '*' and
   '?', no escape), written out as a recursion (one level per '*', each
   trying every split): slow, and the reference. */
static int ref_match(const char *p, const char *s)
{
   for (;;) {
      switch (*p) {
      case '\0':
         return *s == '\0';
      case '*':
         do {
            if (ref_match(p + 1, s))
               return 1;
         } while (*s++ != '\0');
         return 0;
      case '?':
         if (*s++ == '\0')
            return 0;
         p++;
         break;
      default:
         if (*p++ != *s++)
            return 0;
         break;
      }
   }
}

static void test_cases(void)
{
   static const struct { const char *pat, *name; int want; } cases[] = {
      { "main", "main", 1 },
      { "main", "main2", 0 },
      { "mai", "main", 0 },
      { "", "", 1 },
      { "", "a", 0 },
      { "*", "", 1 },
      { "*", "anything at all", 1 },
      { "parse_*", "parse_expr", 1 },
      { "parse_*", "parse_", 1 },
      { "parse_*", "reparse_x", 0 },
      { "*::run*", "Parser::run(int)", 1 },
      { "Parser::run(?nt)", "Parser::run(int)", 1 },
      { "a?c", "ac", 0 },
      { "a*b*c", "axxbyyc", 1 },
      { "a*b*c", "axxbyy", 0 },
      /* '\' is a character like any other: no escape. */
      { "a\\*b", "a\\xyzb", 1 },
      { "a\\*b", "a*b", 0 },
      { "a\\?", "a\\b", 1 },
      { "a\\", "a\\", 1 },
      { "a\\", "a", 0 },
      { "*\\", "x\\", 1 },
      { "**a**", "bab", 1 },
      { "*a", "bab", 0 },
      { "*ab", "aab", 1 },
      { "*aab", "aaab", 1 },
      { "a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaac", 0 },
   };
   for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      int got = cg_glob_match(cases[i].pat, cases[i].name);
      CHECKF(got == cases[i].want, "'%s' against '%s': %d, want %d",
             cases[i].pat, cases[i].name, got, cases[i].want);
      CHECKF(ref_match(cases[i].pat, cases[i].name) == cases[i].want,
             "the reference: '%s' against '%s'", cases[i].pat, cases[i].name);
   }
}

/* Random patterns and names over a small alphabet (so that they match
   often), stars, '?' and backslashes among them: the same answer as the
   reference on every pair. */
static void test_random(void)
{
   static const char pat_chars[] = "ab*?\\*a";
   static const char name_chars[] = "ab*?\\";
   char pat[12], name[14];
   unsigned seed = 20261125, matches = 0, differ = 0;

   for (int round = 0; round < 300000; round++) {
      int np = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 11;
      int ns = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 13;
      for (int i = 0; i < np; i++)
         pat[i] = pat_chars[((seed = seed * 1103515245u + 12345u) >> 16) % 7];
      pat[np] = '\0';
      for (int i = 0; i < ns; i++)
         name[i] = name_chars[((seed = seed * 1103515245u + 12345u) >> 16) % 5];
      name[ns] = '\0';
      int want = ref_match(pat, name), got = cg_glob_match(pat, name);
      matches += (unsigned)want;
      if (got != want && differ++ < 10)
         CHECKF(0, "'%s' against '%s': %d, want %d", pat, name, got, want);
   }
   CHECK_EQ(differ, 0);
   /* The check means something only if both answers were common. */
   CHECKF(matches > 10000 && matches < 290000, "%u matches of 300000", matches);
}

/* Many stars against a long name that almost matches: the core's
   recursion takes longer than a run would live; this, well under a
   second. */
static void test_time(void)
{
   static char name[4001], pat[1002];
   for (int i = 0; i < 4000; i++)
      name[i] = 'a';
   name[4000] = '\0';
   for (int i = 0; i < 500; i++) {
      pat[2 * i] = '*';
      pat[2 * i + 1] = 'a';
   }
   pat[1000] = 'b';
   pat[1001] = '\0';
   clock_t t0 = clock();
   CHECK_EQ(cg_glob_match(pat, name), 0);
   name[3999] = 'b';
   CHECK_EQ(cg_glob_match(pat, name), 1);
   double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
   CHECKF(secs < 5.0, "500 stars against 4000 characters took %.2f s", secs);
}

int main(void)
{
   RUN(test_cases);
   RUN(test_random);
   RUN(test_time);
   return unit_finish("test_glob");
}
