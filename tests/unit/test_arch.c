/* test_arch.c -- tests of the cache configuration (cg_arch): parsing, checks, detection, messages.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Every message is compared byte for byte with upstream Cachegrind's
   (docs/manual/running.md lists them).  Emitted lines are recorded with
   their level: "U " for user messages (==PID== in the tool), "D " for
   debug messages (--PID--), "N " for notes (debug messages that -q leaves
   out). */

#include <stdlib.h>

#include "cg_arch.h"
#include "cg_fmt.h"
#include "unit_check.h"

/* ---- The host's message function (cg_host.h): recorded ------------------------ */

#define MAX_LINES 16

struct recorder {
   int n;
   char line[MAX_LINES][200];
};

static struct recorder rec;

void cg_host_message(enum cg_msg_level level, const char *line)
{
   if (rec.n < MAX_LINES)
      snprintf(rec.line[rec.n], sizeof rec.line[0], "%s%s",
               level == CG_MSG_USER   ? "U "
               : level == CG_MSG_NOTE ? "N "
                                      : "D ", line);
   rec.n++;
}

static void rec_clear(void)
{
   rec.n = 0;
}

/* Checks that exactly the lines of want (NULL-terminated) were emitted. */
static void check_lines(const char *const *want, int line)
{
   int i;

   for (i = 0; want[i] != NULL || i < rec.n; i++) {
      const char *got = i < rec.n && i < MAX_LINES ? rec.line[i] : "(none)";
      const char *exp = want[i] != NULL ? want[i] : "(none)";

      if (!unit_report(strcmp(got, exp) == 0, __FILE__, line, "emitted line"))
         fprintf(stderr, "    line %d:\n    got  \"%s\"\n    want \"%s\"\n",
                 i + 1, got, exp);
      if (want[i] == NULL)
         break;
   }
}
#define CHECK_LINES(...) \
   check_lines((const char *const[]){ __VA_ARGS__, NULL }, __LINE__)
#define CHECK_NO_LINES() CHECK_EQ(rec.n, 0)

#define CHECK_CONFIG(c, s, a, l)                                       \
   do {                                                                \
      CHECK_EQ((c).size, (s));                                         \
      CHECK_EQ((c).assoc, (a));                                        \
      CHECK_EQ((c).line_size, (l));                                    \
   } while (0)

/* ---- Option values: syntax, overflow, validation ----------------------------- */

#define MSG_LINE_ZERO   "Cache line size is zero."
#define MSG_ASSOC_ZERO  "Cache associativity is zero."
#define MSG_SETS        "Cache set count is not a power of two."
#define MSG_LINE_POW2   "Cache line size is not a power of two."
#define MSG_LINE_SMALL  "Cache line size is too small."
#define MSG_SIZE_LINE   "Cache size <= line size."
#define MSG_ASSOC_BIG   "Cache associativity > (size / line size)."

struct parse_case {
   const char *value;
   enum cg_cache_opt_status status;
   const char *msg;                 /* for CG_CACHE_OPT_INVALID */
   int32_t size, assoc, line;       /* for CG_CACHE_OPT_OK */
};

#define OK(v, s, a, l)   { v, CG_CACHE_OPT_OK, NULL, s, a, l }
#define BAD(v)           { v, CG_CACHE_OPT_BAD_ARGUMENT, NULL, 0, 0, 0 }
#define OVERFLOW(v)      { v, CG_CACHE_OPT_OVERFLOW, NULL, 0, 0, 0 }
#define INVALID(v, m)    { v, CG_CACHE_OPT_INVALID, m, 0, 0, 0 }

static const struct parse_case parse_cases[] = {
   /* Accepted, including the upstream "notpower2" test's values. */
   OK("65536,2,64", 65536, 2, 64),
   OK("32768,8,64", 32768, 8, 64),
   OK("24576,6,64", 24576, 6, 64),
   OK("3145728,12,64", 3145728, 12, 64),
   OK("4096,64,64", 4096, 64, 64),
   OK("65536,1,64", 65536, 1, 64),
   OK("1073741824,16,64", 1073741824, 16, 64),
   /* strtoll10: white space before each number, a '+', leading zeros. */
   OK(" 65536, 2,\t64", 65536, 2, 64),
   OK("\n65536,\v2,\f\r64", 65536, 2, 64),
   OK("+65536,+2,+64", 65536, 2, 64),
   OK("0065536,02,064", 65536, 2, 64),

   /* Syntax: "Bad argument". */
   BAD(""),                         /* empty value */
   BAD("65536"),                    /* one number */
   BAD("65536,2"),                  /* missing comma and third number */
   BAD("65536 2,64"),               /* missing comma */
   BAD("65536,2,64,"),              /* trailing comma */
   BAD("65536,2,64,1"),             /* four numbers */
   BAD("65536,2,64x"),              /* trailing junk */
   BAD("65536,2,64 "),              /* trailing space */
   BAD("65536 ,2,64"),              /* space before a comma */
   BAD("65536;2;64"),               /* other separator */
   BAD("64k,2,64"),                 /* unit suffix */
   BAD("0x10000,2,64"),             /* hexadecimal */
   BAD("size,2,64"),                /* words */
   BAD("-,2,64"),                   /* sign without digits */
   BAD("+,2,64"),
   BAD(" ,2,64"),                   /* only white space: nothing read */
   BAD("65536,2,--64"),             /* two signs */
   BAD("65536,2,6 4"),              /* space inside a number */
   BAD("2147483648,2,64x"),         /* syntax is checked before range */

   /* Overflow of each field, both signs, and past 64 bits. */
   OVERFLOW("2147483648,2,64"),
   OVERFLOW("65536,2147483648,64"),
   OVERFLOW("65536,2,2147483648"),
   OVERFLOW("-2147483649,2,64"),
   OVERFLOW("65536,-2147483649,64"),
   OVERFLOW("65536,2,-2147483649"),
   OVERFLOW("4294967360,2,64"),     /* would be 64 if cut to 32 bits */
   OVERFLOW("9223372036854775807,2,64"),
   OVERFLOW("9223372036854775808,2,64"),
   OVERFLOW("-9223372036854775808,2,64"),
   OVERFLOW("99999999999999999999999,2,64"),
   /* 2^64 + 65536: upstream wraps around to 65536 and accepts it. */
   OVERFLOW("18446744073709617152,2,64"),

   /* Rule 1: zero line size (also first among several zeros). */
   INVALID("65536,2,0", MSG_LINE_ZERO),
   INVALID("0,0,0", MSG_LINE_ZERO),
   INVALID("65536,0,0", MSG_LINE_ZERO),
   INVALID(",,", MSG_LINE_ZERO),    /* empty numbers read as 0 */
   /* Rule 2: zero associativity. */
   INVALID("65536,0,64", MSG_ASSOC_ZERO),
   INVALID("65536,,64", MSG_ASSOC_ZERO),
   /* Rule 3: set count. */
   INVALID("32768,8,63", MSG_SETS), /* 63-byte lines: rule 3 fails first */
   INVALID("98304,2,64", MSG_SETS), /* 768 sets */
   INVALID("0,2,64", MSG_SETS),     /* 0 sets */
   INVALID("100,2,64", MSG_SETS),   /* less than one set */
   INVALID("-1,2,64", MSG_SETS),    /* negative size */
   INVALID("65536,-2,64", MSG_SETS),/* -512 sets */
   INVALID("65536,65536,65536", MSG_SETS), /* product 2^32: upstream traps */
   /* Rule 4: line size not a power of two. */
   INVALID("49152,1,48", MSG_LINE_POW2),   /* 1024 sets */
   INVALID("65536,-2,-64", MSG_LINE_POW2), /* +512 sets, negative line */
   INVALID("-2147483648,1,-1", MSG_LINE_POW2), /* upstream: INT_MIN % -1 traps */
   /* Rule 5: line too small. */
   INVALID("4096,2,8", MSG_LINE_SMALL),
   INVALID("1024,1,1", MSG_LINE_SMALL),
   /* Rule 6: size not above the line size. */
   INVALID("64,1,64", MSG_SIZE_LINE),
   INVALID("-65536,-2,64", MSG_SIZE_LINE), /* +512 sets, negative size */
   /* Rule 7 cannot be reached: see test_check_rules. */
};

static void test_parse_cases(void)
{
   size_t i;

   for (i = 0; i < sizeof parse_cases / sizeof parse_cases[0]; i++) {
      const struct parse_case *pc = &parse_cases[i];
      struct cg_cache_config out = { 11, 22, 33 };
      const char *msg = "unset";
      enum cg_cache_opt_status st = cg_arch_parse_cache_opt(pc->value, &out,
                                                            &msg);

      if (!unit_report(st == pc->status, __FILE__, __LINE__, "parse status"))
         fprintf(stderr, "    value \"%s\": got status %d, want %d\n",
                 pc->value, (int)st, (int)pc->status);
      switch (pc->status) {
      case CG_CACHE_OPT_OK:
         CHECK_STR(msg, NULL);
         CHECK_CONFIG(out, pc->size, pc->assoc, pc->line);
         break;
      case CG_CACHE_OPT_BAD_ARGUMENT:
         CHECK_STR(msg, "Bad argument '%s'");
         break;
      case CG_CACHE_OPT_OVERFLOW:
         CHECK_STR(msg,
                   "One of the cache parameters was too large and overflowed.");
         break;
      case CG_CACHE_OPT_INVALID:
         CHECK_STR(msg, pc->msg);
         break;
      }
      if (pc->status != CG_CACHE_OPT_OK)
         CHECK_CONFIG(out, 11, 22, 33);   /* untouched on failure */
   }
}

/* The check on its own, without the parser: one row per message, plus
   extremes. */
static void test_check_messages(void)
{
   static const struct {
      struct cg_cache_config c;
      const char *msg;
   } rows[] = {
      { { 65536, 2, 64 }, NULL },
      { { 65536, 2, 0 }, MSG_LINE_ZERO },
      { { 65536, 0, 64 }, MSG_ASSOC_ZERO },
      { { 32768, 8, 63 }, MSG_SETS },
      { { 49152, 1, 48 }, MSG_LINE_POW2 },
      { { 4096, 2, 8 }, MSG_LINE_SMALL },
      { { 32, 1, 32 }, MSG_SIZE_LINE },
      { { 2147483647, 1, 64 }, MSG_SETS },
      { { 1073741824, 1, 1073741824 }, MSG_SIZE_LINE },
      { { 1073741824, 1, 16 }, NULL },
   };
   size_t i;

   for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
      CHECK_STR(cg_arch_check_cache(&rows[i].c), rows[i].msg);
}

/* The seven rules written out plainly in 64-bit arithmetic (where
   nothing overflows), as the reference for a grid of awkward values. */
static const char *plain_rules(int64_t size, int64_t assoc, int64_t line)
{
   uint32_t sets32, line32 = (uint32_t)line;

   if (line == 0)
      return MSG_LINE_ZERO;
   if (assoc == 0)
      return MSG_ASSOC_ZERO;
   sets32 = (uint32_t)(size / line / assoc);
   if (size % (line * assoc) != 0 || sets32 == 0 || (sets32 & (sets32 - 1)))
      return MSG_SETS;
   if (line32 & (line32 - 1))
      return MSG_LINE_POW2;
   if (line < 16)
      return MSG_LINE_SMALL;
   if (size <= line)
      return MSG_SIZE_LINE;
   if (assoc > size / line)
      return MSG_ASSOC_BIG;
   return NULL;
}

/* Compares cg_arch_check_cache with plain_rules on every triple of a grid
   of values (small, negative, extreme, cache-like).  Rule 7 never fires:
   rule 3 leaves a positive power-of-two set count only if size, line and
   assoc are all positive (rules 5 and 6 have made line and size positive
   before rule 7, and a negative assoc gives a negative count, which is
   2^32 - q read as unsigned: a power of two only for q = 2^31, but q is
   at most size / 16 < 2^27), and then sets * assoc * line = size gives
   assoc <= size / line.  Upstream keeps the rule; so does cg_arch. */
static void test_check_rules(void)
{
   int32_t values[300];
   int n = 0, v;
   long mismatches = 0, seen[8] = { 0 };
   static const char *const msgs[8] = {
      NULL, MSG_LINE_ZERO, MSG_ASSOC_ZERO, MSG_SETS, MSG_LINE_POW2,
      MSG_LINE_SMALL, MSG_SIZE_LINE, MSG_ASSOC_BIG,
   };
   static const int32_t extra[] = {
      INT32_MIN, INT32_MIN + 1, -1073741824, -65536, -4096, 192, 256, 384,
      512, 768, 1024, 3072, 4096, 12288, 24576, 32768, 49152, 65536, 98304,
      3145728, 1073741824, INT32_MAX - 1, INT32_MAX,
   };
   int a, b, c;
   size_t k;

   for (v = -130; v <= 130; v++)
      values[n++] = v;
   for (k = 0; k < sizeof extra / sizeof extra[0]; k++)
      values[n++] = extra[k];
   for (a = 0; a < n; a++)
      for (b = 0; b < n; b++)
         for (c = 0; c < n; c++) {
            struct cg_cache_config cfg = { values[a], values[b], values[c] };
            const char *got = cg_arch_check_cache(&cfg);
            const char *want = plain_rules(values[a], values[b], values[c]);
            int m;

            if (got != want && (got == NULL || want == NULL
                                || strcmp(got, want) != 0)) {
               if (mismatches++ < 5)
                  fprintf(stderr, "    %d,%d,%d: got \"%s\", want \"%s\"\n",
                          (int)values[a], (int)values[b], (int)values[c],
                          got ? got : "(null)", want ? want : "(null)");
            }
            for (m = 0; m < 8; m++)
               if (got == msgs[m] || (got && msgs[m] && !strcmp(got, msgs[m])))
                  seen[m]++;
         }
   CHECK_EQ(mismatches, 0);
   for (k = 0; k < 7; k++)
      CHECK(seen[k] > 0);     /* every outcome but rule 7 is exercised */
   CHECK_EQ(seen[7], 0);
}

/* ---- Number formatting -------------------------------------------------------- */

/* cg_fmt_u64 (cg_fmt.h), which cg_arch's messages use, as a string. */
static const char *fmt_commas(char *buf, uint64_t n)
{
   buf[CG_FMT_U64_SIZE] = '\0';
   return cg_fmt_u64(buf + CG_FMT_U64_SIZE, n, 1);
}

static void test_fmt_commas(void)
{
   char buf[CG_FMT_U64_SIZE + 1];

   CHECK_STR(fmt_commas(buf, 0), "0");
   CHECK_STR(fmt_commas(buf, 7), "7");
   CHECK_STR(fmt_commas(buf, 999), "999");
   CHECK_STR(fmt_commas(buf, 1000), "1,000");
   CHECK_STR(fmt_commas(buf, 65536), "65,536");
   CHECK_STR(fmt_commas(buf, 999999), "999,999");
   CHECK_STR(fmt_commas(buf, 1000000), "1,000,000");
   CHECK_STR(fmt_commas(buf, 503316480), "503,316,480");
   CHECK_STR(fmt_commas(buf, 4294967295u), "4,294,967,295");
   CHECK_STR(fmt_commas(buf, UINT64_MAX),
             "18,446,744,073,709,551,615");
   CHECK(fmt_commas(buf, UINT64_MAX) == buf);
   buf[CG_FMT_U64_SIZE] = '\0';
   CHECK_STR(cg_fmt_u64(buf + CG_FMT_U64_SIZE, 12345678, 0), "12345678");
}

/* ---- LL adjustment ---------------------------------------------------------------- */

static void tweak(int32_t size, int32_t assoc, int32_t line, int changed,
                  int32_t new_size, int32_t new_assoc)
{
   struct cg_cache_config ll = { size, assoc, line };

   rec_clear();
   CHECK_EQ(cg_arch_tweak_ll(&ll), changed);
   CHECK_CONFIG(ll, new_size, new_assoc, line);
}

static void test_tweak_examples(void)
{
   /* 12 MiB, 16-way: 12288 sets -> 8192, factor 1.5, 24-way. */
   tweak(12582912, 16, 64, 1, 12582912, 24);
   CHECK_LINES(
      "N warning: specified LL cache: line_size 64  assoc 16  total_size 12,582,912",
      "N warning: simulated LL cache: line_size 64  assoc 24  total_size 12,582,912");
   /* 480 MiB, 16-way: 491520 sets -> 262144, factor 1.875, 30-way. */
   tweak(503316480, 16, 64, 1, 503316480, 30);
   CHECK_LINES(
      "N warning: specified LL cache: line_size 64  assoc 16  total_size 503,316,480",
      "N warning: simulated LL cache: line_size 64  assoc 30  total_size 503,316,480");
   /* 5 MiB, 48-way: 1706 sets -> 1024, factor 1.666015625, 80-way. */
   tweak(5242880, 48, 64, 1, 5242880, 80);
   CHECK_LINES(
      "N warning: specified LL cache: line_size 64  assoc 48  total_size 5,242,880",
      "N warning: simulated LL cache: line_size 64  assoc 80  total_size 5,242,880");
   /* This build machine: 384 MiB direct-mapped, 6291456 sets -> 4194304,
      factor 1.5, 2-way, and the size grows. */
   tweak(402653184, 1, 64, 1, 536870912, 2);
   CHECK_LINES(
      "N warning: specified LL cache: line_size 64  assoc 1  total_size 402,653,184",
      "N warning: simulated LL cache: line_size 64  assoc 2  total_size 536,870,912");
   /* Rounding half up: 5 sets, 2-way -> 4 sets, 2.5 + 0.5 = 3-way. */
   tweak(640, 2, 64, 1, 768, 3);
   CHECK_LINES(
      "N warning: specified LL cache: line_size 64  assoc 2  total_size 640",
      "N warning: simulated LL cache: line_size 64  assoc 3  total_size 768");
   /* A power-of-two set count but a size that is no multiple of the set
      size: the size is rounded down, with the warning. */
   tweak(65600, 2, 64, 1, 65536, 2);
   CHECK_LINES(
      "N warning: specified LL cache: line_size 64  assoc 2  total_size 65,600",
      "N warning: simulated LL cache: line_size 64  assoc 2  total_size 65,536");
}

static void test_tweak_silent(void)
{
   struct cg_cache_config ll = { 12582912, 16, 64 };

   tweak(8388608, 16, 64, 0, 8388608, 16);    /* power of two already */
   CHECK_NO_LINES();
   tweak(262144, 8, 64, 0, 262144, 8);
   CHECK_NO_LINES();
   tweak(0, 16, 64, 0, 0, 16);                /* zero fields: untouched */
   CHECK_NO_LINES();
   tweak(12582912, 0, 64, 0, 12582912, 0);
   CHECK_NO_LINES();
   tweak(12582912, 16, 0, 0, 12582912, 16);
   CHECK_NO_LINES();
   tweak(1024, 16, 64, 0, 1024, 16);          /* less than one set */
   CHECK_NO_LINES();
   tweak(65536, 65536, 65536, 0, 65536, 65536); /* assoc * line wraps to 0 */
   CHECK_NO_LINES();
   /* The adjustment happens with its warnings. */
   rec_clear();
   CHECK_EQ(cg_arch_tweak_ll(&ll), 1);
   CHECK_EQ(rec.n, 2);
   CHECK_CONFIG(ll, 12582912, 24, 64);
}

/* The double arithmetic is exact (see cg_arch.c), so it must equal
   round-half-up of nsets * assoc / new_nsets computed in integers, on
   amd64 (SSE) and, in the -m32 build of this test, on x87. */
static void test_tweak_exact(void)
{
   uint32_t nsets, assoc;
   long bad = 0;

   for (nsets = 1; nsets <= 3000; nsets++) {
      uint32_t p2 = 1;

      while (p2 * 2 <= nsets)
         p2 *= 2;
      for (assoc = 1; assoc <= 64; assoc++) {
         struct cg_cache_config ll = {
            (int32_t)(nsets * assoc * 64), (int32_t)assoc, 64 };
         uint32_t want = (uint32_t)(((uint64_t)nsets * assoc * 2 + p2)
                                    / (2 * (uint64_t)p2));

         cg_arch_tweak_ll(&ll);
         if ((uint32_t)ll.assoc != want
             || (uint32_t)ll.size != 64 * want * p2)
            bad++;
      }
   }
   CHECK_EQ(bad, 0);
}

/* ---- Auto-detection and the whole configuration -------------------------------- */

static const struct cg_cache_config unset = CG_CACHE_UNSET;

/* Runs cg_arch_configure with the recorder; returns its result. */
static int configure(enum cg_arch arch, const struct cg_hwcache *caches,
                     unsigned num_caches, unsigned num_levels,
                     const struct cg_cache_config *i1,
                     const struct cg_cache_config *d1,
                     const struct cg_cache_config *ll, int verbosity,
                     struct cg_cache_config out[3])
{
   struct cg_hwcache_info hw = { num_levels, num_caches, caches };

   rec_clear();
   out[0] = out[1] = out[2] = (struct cg_cache_config){ 0, 0, 0 };
   return cg_arch_configure(arch, &hw, i1 ? i1 : &unset, d1 ? d1 : &unset,
                            ll ? ll : &unset, verbosity,
                            &out[0], &out[1], &out[2]);
}

#define INSN(level, size, line, assoc) \
   { CG_HWCACHE_INSN, level, size, line, assoc, 0 }
#define DATA(level, size, line, assoc) \
   { CG_HWCACHE_DATA, level, size, line, assoc, 0 }
#define UNIFIED(level, size, line, assoc) \
   { CG_HWCACHE_UNIFIED, level, size, line, assoc, 0 }
#define COUNT(a) (unsigned)(sizeof(a) / sizeof((a)[0]))

/* A large server's caches: L1 64 KiB/48 KiB, L3 480 MiB 16-way. */
static const struct cg_hwcache research_host[] = {
   INSN(1, 65536, 64, 16),
   DATA(1, 49152, 64, 12),
   UNIFIED(2, 2097152, 64, 16),
   UNIFIED(3, 503316480, 64, 16),
};

static void test_detect_l2_only(void)
{
   static const struct cg_hwcache caches[] = {
      UNIFIED(2, 262144, 64, 4),       /* order does not matter */
      DATA(1, 32768, 64, 8),
      INSN(1, 32768, 64, 8),
   };
   struct cg_cache_config out[3];

   CHECK_EQ(configure(CG_ARCH_AMD64, caches, COUNT(caches), 2, NULL, NULL,
                      NULL, 1, out), 0);
   CHECK_NO_LINES();
   CHECK_CONFIG(out[0], 32768, 8, 64);
   CHECK_CONFIG(out[1], 32768, 8, 64);
   CHECK_CONFIG(out[2], 262144, 4, 64);
}

static void test_detect_l3(void)
{
   struct cg_cache_config out[3];

   CHECK_EQ(configure(CG_ARCH_AMD64, research_host, COUNT(research_host), 3,
                      NULL, NULL, NULL, 1, out), 0);
   CHECK_LINES(
      "N warning: L3 cache found, using its data for the LL simulation.",
      "N warning: specified LL cache: line_size 64  assoc 16  total_size 503,316,480",
      "N warning: simulated LL cache: line_size 64  assoc 30  total_size 503,316,480");
   CHECK_CONFIG(out[0], 65536, 16, 64);
   CHECK_CONFIG(out[1], 49152, 12, 64);
   CHECK_CONFIG(out[2], 503316480, 30, 64);

   /* With -v: the "Cache configuration used:" block after the warnings. */
   CHECK_EQ(configure(CG_ARCH_AMD64, research_host, COUNT(research_host), 3,
                      NULL, NULL, NULL, 2, out), 0);
   CHECK_LINES(
      "N warning: L3 cache found, using its data for the LL simulation.",
      "N warning: specified LL cache: line_size 64  assoc 16  total_size 503,316,480",
      "N warning: simulated LL cache: line_size 64  assoc 30  total_size 503,316,480",
      "U Cache configuration used:",
      "U   I1: 65,536 B, 16-way, 64 B lines",
      "U   D1: 49,152 B, 12-way, 64 B lines",
      "U   LL: 503,316,480 B, 30-way, 64 B lines");
}

/* Four levels, the L4 direct-mapped, as reported on this build machine. */
static void test_detect_l4(void)
{
   static const struct cg_hwcache caches[] = {
      INSN(1, 32768, 64, 8),
      DATA(1, 49152, 64, 12),
      UNIFIED(2, 2097152, 64, 16),
      UNIFIED(3, 33554432, 64, 16),
      UNIFIED(4, 402653184, 64, 1),
   };
   struct cg_cache_config out[3];

   CHECK_EQ(configure(CG_ARCH_AMD64, caches, COUNT(caches), 4, NULL, NULL,
                      NULL, 1, out), 0);
   CHECK_LINES(
      "N warning: L4 cache found, using its data for the LL simulation.",
      "N warning: specified LL cache: line_size 64  assoc 1  total_size 402,653,184",
      "N warning: simulated LL cache: line_size 64  assoc 2  total_size 536,870,912");
   CHECK_CONFIG(out[2], 536870912, 2, 64);
}

/* No unified cache at the highest level: "L2 cache not installed" (it
   says L2 whatever the level), then the defaults with their warning. */
static void test_detect_no_ll(void)
{
   static const struct cg_hwcache l1_only[] = {
      INSN(1, 32768, 64, 8),
      DATA(1, 32768, 64, 8),
   };
   static const struct cg_hwcache l3_missing[] = {
      INSN(1, 32768, 64, 8),
      DATA(1, 32768, 64, 8),
      UNIFIED(2, 262144, 64, 4),
   };
   struct cg_cache_config out[3];

   CHECK_EQ(configure(CG_ARCH_X86, l1_only, COUNT(l1_only), 1, NULL, NULL,
                      NULL, 1, out), 0);
   CHECK_LINES(
      "D warning: L2 cache not installed, ignore LL results.",
      "D Warning: Cannot auto-detect cache config, using defaults.",
      "D          Run with -v to see.");
   CHECK_CONFIG(out[0], 65536, 2, 64);
   CHECK_CONFIG(out[1], 65536, 2, 64);
   CHECK_CONFIG(out[2], 262144, 8, 64);

   CHECK_EQ(configure(CG_ARCH_X86, l3_missing, COUNT(l3_missing), 3, NULL,
                      NULL, NULL, 1, out), 0);
   CHECK_LINES(
      "D warning: L2 cache not installed, ignore LL results.",
      "D Warning: Cannot auto-detect cache config, using defaults.",
      "D          Run with -v to see.");
   CHECK_CONFIG(out[2], 262144, 8, 64);
}

/* A missing L1 also means defaults, but without the L2 warning. */
static void test_detect_no_l1(void)
{
   static const struct cg_hwcache caches[] = {
      DATA(1, 32768, 64, 8),
      UNIFIED(2, 262144, 64, 4),
   };
   struct cg_cache_config out[3];

   CHECK_EQ(configure(CG_ARCH_AMD64, caches, COUNT(caches), 2, NULL, NULL,
                      NULL, 1, out), 0);
   CHECK_LINES(
      "D Warning: Cannot auto-detect cache config, using defaults.",
      "D          Run with -v to see.");
   CHECK_CONFIG(out[0], 65536, 2, 64);
}

/* An empty list: the architecture's defaults, with the two debug lines. */
static void test_defaults(void)
{
   static const struct {
      enum cg_arch arch;
      struct cg_cache_config i1, d1, ll;
   } table[] = {
      { CG_ARCH_X86,      { 65536, 2, 64 }, { 65536, 2, 64 }, { 262144, 8, 64 } },
      { CG_ARCH_AMD64,    { 65536, 2, 64 }, { 65536, 2, 64 }, { 262144, 8, 64 } },
      { CG_ARCH_PPC32,    { 65536, 2, 64 }, { 65536, 2, 64 }, { 262144, 8, 64 } },
      { CG_ARCH_PPC64BE,  { 65536, 2, 64 }, { 65536, 2, 64 }, { 262144, 8, 64 } },
      { CG_ARCH_PPC64LE,  { 65536, 2, 64 }, { 65536, 2, 64 }, { 262144, 8, 64 } },
      { CG_ARCH_ARM,      { 16384, 4, 64 }, { 16384, 4, 64 }, { 262144, 8, 64 } },
      { CG_ARCH_ARM64,    { 16384, 4, 64 }, { 16384, 4, 64 }, { 262144, 8, 64 } },
      { CG_ARCH_MIPS32,   { 32768, 4, 32 }, { 32768, 4, 32 }, { 524288, 8, 32 } },
      { CG_ARCH_NANOMIPS, { 32768, 4, 32 }, { 32768, 4, 32 }, { 524288, 8, 32 } },
      { CG_ARCH_MIPS64,   { 32768, 4, 32 }, { 32768, 4, 32 }, { 524288, 8, 32 } },
      { CG_ARCH_RISCV64,  { 32768, 4, 64 }, { 32768, 8, 64 }, { 2097152, 16, 64 } },
   };
   struct cg_cache_config out[3];
   size_t i;

   for (i = 0; i < sizeof table / sizeof table[0]; i++) {
      CHECK_EQ(configure(table[i].arch, NULL, 0, 0, NULL, NULL, NULL, 1, out),
               0);
      CHECK_LINES(
         "D Warning: Cannot auto-detect cache config, using defaults.",
         "D          Run with -v to see.");
      CHECK_CONFIG(out[0], table[i].i1.size, table[i].i1.assoc,
                   table[i].i1.line_size);
      CHECK_CONFIG(out[1], table[i].d1.size, table[i].d1.assoc,
                   table[i].d1.line_size);
      CHECK_CONFIG(out[2], table[i].ll.size, table[i].ll.assoc,
                   table[i].ll.line_size);
   }

   /* No info at all (hw == NULL) is the same as an empty list; with -v
      the configuration follows the warnings. */
   rec_clear();
   CHECK_EQ(cg_arch_configure(CG_ARCH_AMD64, NULL, &unset, &unset, &unset, 2,
                              &out[0], &out[1], &out[2]), 0);
   CHECK_LINES(
      "D Warning: Cannot auto-detect cache config, using defaults.",
      "D          Run with -v to see.",
      "U Cache configuration used:",
      "U   I1: 65,536 B, 2-way, 64 B lines",
      "U   D1: 65,536 B, 2-way, 64 B lines",
      "U   LL: 262,144 B, 8-way, 64 B lines");
}

/* The "Cannot auto-detect" warning is dropped only when all three caches
   are given. */
static void test_defaults_given(void)
{
   struct cg_cache_config i1 = { 32768, 8, 64 }, d1 = { 24576, 6, 64 },
                          ll = { 3145728, 12, 64 };
   struct cg_cache_config out[3];

   CHECK_EQ(configure(CG_ARCH_AMD64, NULL, 0, 0, &i1, &d1, &ll, 1, out), 0);
   CHECK_NO_LINES();
   CHECK_CONFIG(out[0], 32768, 8, 64);
   CHECK_CONFIG(out[1], 24576, 6, 64);
   CHECK_CONFIG(out[2], 3145728, 12, 64);

   CHECK_EQ(configure(CG_ARCH_AMD64, NULL, 0, 0, &i1, &d1, NULL, 1, out), 0);
   CHECK_LINES(
      "D Warning: Cannot auto-detect cache config, using defaults.",
      "D          Run with -v to see.");
   CHECK_CONFIG(out[0], 32768, 8, 64);
   CHECK_CONFIG(out[1], 24576, 6, 64);
   CHECK_CONFIG(out[2], 262144, 8, 64);

   /* Detection warnings are not suppressed by giving all three. */
   CHECK_EQ(configure(CG_ARCH_AMD64, research_host, COUNT(research_host), 3,
                      &i1, &d1, &ll, 2, out), 0);
   CHECK_LINES(
      "N warning: L3 cache found, using its data for the LL simulation.",
      "N warning: specified LL cache: line_size 64  assoc 16  total_size 503,316,480",
      "N warning: simulated LL cache: line_size 64  assoc 30  total_size 503,316,480",
      "U Cache configuration used:",
      "U   I1: 32,768 B, 8-way, 64 B lines",
      "U   D1: 24,576 B, 6-way, 64 B lines",
      "U   LL: 3,145,728 B, 12-way, 64 B lines");
}

/* Command-line values replace detected ones cache by cache; a cache counts
   as given when any of its fields is not -1. */
static void test_override_precedence(void)
{
   struct cg_cache_config d1 = { 32768, 8, 64 };
   struct cg_cache_config partial = { -1, -1, 64 };
   struct cg_cache_config out[3];

   CHECK(!cg_cache_config_is_set(&unset));
   CHECK(cg_cache_config_is_set(&partial));
   CHECK(cg_cache_config_is_set(&d1));

   CHECK_EQ(configure(CG_ARCH_AMD64, research_host, COUNT(research_host), 3,
                      NULL, &d1, NULL, 2, out), 0);
   CHECK_LINES(
      "N warning: L3 cache found, using its data for the LL simulation.",
      "N warning: specified LL cache: line_size 64  assoc 16  total_size 503,316,480",
      "N warning: simulated LL cache: line_size 64  assoc 30  total_size 503,316,480",
      "U Cache configuration used:",
      "U   I1: 65,536 B, 16-way, 64 B lines",
      "U   D1: 32,768 B, 8-way, 64 B lines",
      "U   LL: 503,316,480 B, 30-way, 64 B lines");
   CHECK_CONFIG(out[1], 32768, 8, 64);
}

/* Pentium 4: a 12 KB (or 16 KB) trace cache becomes a 16 KB I1, anything
   else 32 KB, with 32 B lines and the reported associativity. */
static void test_pentium4(void)
{
   struct cg_hwcache caches[] = {
      { CG_HWCACHE_INSN, 1, 12288, 0, 8, 1 },
      DATA(1, 8192, 64, 4),
      UNIFIED(2, 524288, 64, 8),
   };
   struct cg_cache_config out[3];

   CHECK_EQ(configure(CG_ARCH_X86, caches, COUNT(caches), 2, NULL, NULL, NULL,
                      1, out), 0);
   CHECK_LINES(
      "N warning: Pentium 4 with 12 KB micro-op instruction trace cache",
      "N          Simulating a 16 KB I-cache with 32 B lines");
   CHECK_CONFIG(out[0], 16384, 8, 32);
   CHECK_CONFIG(out[1], 8192, 4, 64);
   CHECK_CONFIG(out[2], 524288, 8, 64);

   caches[0].size = 16384;
   CHECK_EQ(configure(CG_ARCH_X86, caches, COUNT(caches), 2, NULL, NULL, NULL,
                      1, out), 0);
   CHECK_LINES(
      "N warning: Pentium 4 with 16 KB micro-op instruction trace cache",
      "N          Simulating a 16 KB I-cache with 32 B lines");
   CHECK_CONFIG(out[0], 16384, 8, 32);

   caches[0].size = 24576;
   caches[0].assoc = 4;
   CHECK_EQ(configure(CG_ARCH_X86, caches, COUNT(caches), 2, NULL, NULL, NULL,
                      1, out), 0);
   CHECK_LINES(
      "N warning: Pentium 4 with 24 KB micro-op instruction trace cache",
      "N          Simulating a 32 KB I-cache with 32 B lines");
   CHECK_CONFIG(out[0], 32768, 4, 32);
}

/* An unsupported detected cache is reported; unless the same cache was
   given, the run stops (upstream: assertion failure after the lines). */
static void test_detected_unsupported(void)
{
   static const struct cg_hwcache bad_d1[] = {
      INSN(1, 32768, 64, 8),
      DATA(1, 49152, 48, 12),
      UNIFIED(2, 262144, 64, 4),
   };
   static const struct cg_hwcache bad_ll[] = {
      INSN(1, 32768, 64, 8),
      DATA(1, 32768, 64, 8),
      UNIFIED(2, 8388608, 64, 0),
   };
   static const struct cg_hwcache bad_i1_d1[] = {
      INSN(1, 32768, 64, 0),
      DATA(1, 49152, 48, 12),
      UNIFIED(2, 262144, 64, 4),
   };
   struct cg_cache_config d1 = { 32768, 8, 64 };
   struct cg_cache_config out[3];

   CHECK_EQ(configure(CG_ARCH_AMD64, bad_d1, COUNT(bad_d1), 2, NULL, NULL,
                      NULL, 2, out), -1);
   CHECK_LINES(
      "U Auto-detected D1 cache configuration not supported: Cache set count is not a power of two.",
      "U   D1: 49,152 B, 12-way, 48 B lines",
      "U As it probably should be supported, please report a bug!",
      "U Bypass this message by using option --D1=...");

   CHECK_EQ(configure(CG_ARCH_AMD64, bad_d1, COUNT(bad_d1), 2, NULL, &d1,
                      NULL, 2, out), 0);
   CHECK_LINES(
      "U Auto-detected D1 cache configuration not supported: Cache set count is not a power of two.",
      "U   D1: 49,152 B, 12-way, 48 B lines",
      "U Cache configuration used:",
      "U   I1: 32,768 B, 8-way, 64 B lines",
      "U   D1: 32,768 B, 8-way, 64 B lines",
      "U   LL: 262,144 B, 4-way, 64 B lines");
   CHECK_CONFIG(out[1], 32768, 8, 64);

   /* LL with zero ways: the adjustment leaves it alone, the check fails. */
   CHECK_EQ(configure(CG_ARCH_AMD64, bad_ll, COUNT(bad_ll), 2, NULL, NULL,
                      NULL, 1, out), -1);
   CHECK_LINES(
      "U Auto-detected LL cache configuration not supported: Cache associativity is zero.",
      "U   LL: 8,388,608 B, 0-way, 64 B lines",
      "U As it probably should be supported, please report a bug!",
      "U Bypass this message by using option --LL=...");

   /* I1 fails first and stops the run before D1 is looked at. */
   CHECK_EQ(configure(CG_ARCH_AMD64, bad_i1_d1, COUNT(bad_i1_d1), 2, NULL,
                      NULL, NULL, 1, out), -1);
   CHECK_LINES(
      "U Auto-detected I1 cache configuration not supported: Cache associativity is zero.",
      "U   I1: 32,768 B, 0-way, 64 B lines",
      "U As it probably should be supported, please report a bug!",
      "U Bypass this message by using option --I1=...");
}

/* s390x has no defaults in the newest upstream (it asserts); here a user
   message and -1, unless all three caches are given. */
static void test_s390x(void)
{
   static const struct cg_hwcache caches[] = {
      INSN(1, 131072, 256, 8),
      DATA(1, 131072, 256, 8),
      UNIFIED(2, 4194304, 256, 8),
   };
   struct cg_cache_config i1 = { 65536, 4, 256 }, d1 = { 131072, 8, 256 },
                          ll = { 33554432, 16, 256 };
   struct cg_cache_config out[3];

   CHECK_EQ(configure(CG_ARCH_S390X, NULL, 0, 0, NULL, NULL, NULL, 1, out),
            -1);
   CHECK_LINES(
      "U Cachegrind: cannot continue: the cache configuration could not be auto-detected",
      "U   and this architecture has no default one.  Use --I1, --D1 and --LL.");
   CHECK_EQ(configure(CG_ARCH_S390X, NULL, 0, 0, &i1, &d1, NULL, 1, out), -1);
   CHECK_EQ(rec.n, 2);

   CHECK_EQ(configure(CG_ARCH_S390X, NULL, 0, 0, &i1, &d1, &ll, 1, out), 0);
   CHECK_NO_LINES();
   CHECK_CONFIG(out[0], 65536, 4, 256);
   CHECK_CONFIG(out[2], 33554432, 16, 256);

   CHECK_EQ(configure(CG_ARCH_S390X, caches, COUNT(caches), 2, NULL, NULL,
                      NULL, 1, out), 0);
   CHECK_NO_LINES();
   CHECK_CONFIG(out[0], 131072, 8, 256);
   CHECK_CONFIG(out[2], 4194304, 8, 256);

   /* An architecture value out of range behaves like s390x. */
   CHECK_EQ(configure((enum cg_arch)99, NULL, 0, 0, NULL, NULL, NULL, 1, out),
            -1);
}

/* ---- Minimum line size, branch address bits ------------------------------------ */

static void test_min_line_size(void)
{
   struct cg_cache_config i1 = { 32768, 8, 64 }, d1 = { 32768, 8, 32 },
                          ll = { 262144, 8, 64 }, small = { 4096, 2, 16 };

   CHECK_EQ(cg_arch_min_line_size(&i1, &d1, &ll), 32);
   CHECK_EQ(cg_arch_min_line_size(&small, &i1, &ll), 16);
   CHECK_EQ(cg_arch_min_line_size(&i1, &i1, &small), 16);
   CHECK_EQ(cg_arch_min_line_size(&i1, &i1, &ll), 64);
   rec_clear();
   CHECK_EQ(cg_arch_check_min_line_size(32, 32), 0);
   CHECK_EQ(cg_arch_check_min_line_size(32, 16), 0);
   CHECK_NO_LINES();
   CHECK_EQ(cg_arch_check_min_line_size(32, 64), -1);
   CHECK_LINES(
      "U Cachegrind: cannot continue: the minimum line size (32)",
      "U   must be equal to or larger than the maximum register size (64)",
      "U   but it is not.  Exiting now.");
   rec_clear();
   CHECK_EQ(cg_arch_check_min_line_size(16, 32), -1);
   CHECK_LINES(
      "U Cachegrind: cannot continue: the minimum line size (16)",
      "U   must be equal to or larger than the maximum register size (32)",
      "U   but it is not.  Exiting now.");
   rec_clear();
   CHECK_EQ(cg_arch_check_min_line_size(16, 32), -1);
   CHECK_EQ(rec.n, 3);
}

static void test_branch_zero_bits(void)
{
   CHECK_EQ(cg_arch_branch_zero_bits(CG_ARCH_X86), 0);
   CHECK_EQ(cg_arch_branch_zero_bits(CG_ARCH_AMD64), 0);
   CHECK_EQ(cg_arch_branch_zero_bits(CG_ARCH_S390X), 1);
   CHECK_EQ(cg_arch_branch_zero_bits(CG_ARCH_ARM), 1);
   CHECK_EQ(cg_arch_branch_zero_bits(CG_ARCH_RISCV64), 1);
   CHECK_EQ(cg_arch_branch_zero_bits(CG_ARCH_PPC32), 2);
   CHECK_EQ(cg_arch_branch_zero_bits(CG_ARCH_PPC64BE), 2);
   CHECK_EQ(cg_arch_branch_zero_bits(CG_ARCH_PPC64LE), 2);
   CHECK_EQ(cg_arch_branch_zero_bits(CG_ARCH_MIPS32), 2);
   CHECK_EQ(cg_arch_branch_zero_bits(CG_ARCH_NANOMIPS), 2);
   CHECK_EQ(cg_arch_branch_zero_bits(CG_ARCH_MIPS64), 2);
   CHECK_EQ(cg_arch_branch_zero_bits(CG_ARCH_ARM64), 2);
   CHECK_EQ(cg_arch_branch_zero_bits((enum cg_arch)99), 0);
}

int main(void)
{
   RUN(test_parse_cases);
   RUN(test_check_messages);
   RUN(test_check_rules);
   RUN(test_fmt_commas);
   RUN(test_tweak_examples);
   RUN(test_tweak_silent);
   RUN(test_tweak_exact);
   RUN(test_detect_l2_only);
   RUN(test_detect_l3);
   RUN(test_detect_l4);
   RUN(test_detect_no_ll);
   RUN(test_detect_no_l1);
   RUN(test_defaults);
   RUN(test_defaults_given);
   RUN(test_override_precedence);
   RUN(test_pentium4);
   RUN(test_detected_unsupported);
   RUN(test_s390x);
   RUN(test_min_line_size);
   RUN(test_branch_zero_bits);
   return unit_finish("test_arch");
}
