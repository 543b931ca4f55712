/* unit_check.h -- the check macros of every host unit test: the tool's C modules and the profile library.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Header-only on purpose: each test program is one .c file plus the
   module under test.  A failing check prints file:line and what differed,
   and the test goes on; unit_finish() prints the "N passed, N failed" line
   and gives the exit status (0 only if nothing failed). */

#ifndef UNIT_CHECK_H
#define UNIT_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int unit_passed, unit_failed, unit_tests;

static inline int unit_report(int ok, const char *file, int line,
                              const char *what)
{
   if (ok) {
      unit_passed++;
   } else {
      unit_failed++;
      fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
   }
   return ok;
}

#define CHECK(cond) unit_report((cond) != 0, __FILE__, __LINE__, #cond)

/* A check that says more on failure: a printf-style message. */
#define CHECKF(cond, ...)                                                  \
   do {                                                                    \
      if (!unit_report((cond) != 0, __FILE__, __LINE__, #cond)) {          \
         fputs("    ", stderr);                                            \
         fprintf(stderr, __VA_ARGS__);                                     \
         fputc('\n', stderr);                                              \
      }                                                                    \
   } while (0)

/* Integer equality, printing both sides on failure. */
#define CHECK_EQ(got, want)                                                \
   do {                                                                    \
      intmax_t got_ = (intmax_t)(got), want_ = (intmax_t)(want);           \
      if (!unit_report(got_ == want_, __FILE__, __LINE__, #got " == " #want)) \
         fprintf(stderr, "    got %jd, want %jd\n", got_, want_);          \
   } while (0)

/* String equality; NULL is a distinct value. */
#define CHECK_STR(got, want)                                               \
   do {                                                                    \
      const char *got_ = (got), *want_ = (want);                           \
      int same_ = got_ == want_                                            \
                  || (got_ && want_ && strcmp(got_, want_) == 0);          \
      if (!unit_report(same_, __FILE__, __LINE__, #got " == " #want))      \
         fprintf(stderr, "    got  \"%s\"\n    want \"%s\"\n",              \
                 got_ ? got_ : "(null)", want_ ? want_ : "(null)");        \
   } while (0)

#define RUN(test)                                                          \
   do {                                                                    \
      unit_tests++;                                                        \
      test();                                                              \
   } while (0)

static inline int unit_finish(const char *program)
{
   printf("%s: %d tests, %d checks\n", program, unit_tests,
          unit_passed + unit_failed);
   printf("%d passed, %d failed\n", unit_passed, unit_failed);
   return unit_failed != 0;
}

#endif /* UNIT_CHECK_H */
