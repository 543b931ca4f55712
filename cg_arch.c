/* cg_arch.c -- cache configuration: option parsing, detection, LL adjustment.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The --I1/--D1/--LL values and their seven checks, the minimum line
   size, auto-detection, the defaults, the LL adjustment and validation,
   as upstream Cachegrind does them (docs/manual/running.md, "Cache
   configuration").  Every message text here must match upstream byte for
   byte: the upstream test filters match some of them literally. */

#include "cg_arch.h"
#include "cg_fmt.h"

/* Per-architecture facts, indexed by enum cg_arch: the default caches used
   when auto-detection fails (upstream's, per architecture) and the number
   of always-zero instruction address bits.  Read-only, never freed. */
struct cg_arch_facts {
   unsigned branch_zero_bits;
   int has_defaults;          /* 0: detection must succeed (newest s390x) */
   struct cg_cache_config I1, D1, LL;
};

static const struct cg_arch_facts cg_arch_table[] = {
   [CG_ARCH_X86]      = { 0, 1, { 65536, 2, 64 }, { 65536, 2, 64 },
                          { 262144, 8, 64 } },
   [CG_ARCH_AMD64]    = { 0, 1, { 65536, 2, 64 }, { 65536, 2, 64 },
                          { 262144, 8, 64 } },
   [CG_ARCH_PPC32]    = { 2, 1, { 65536, 2, 64 }, { 65536, 2, 64 },
                          { 262144, 8, 64 } },
   [CG_ARCH_PPC64BE]  = { 2, 1, { 65536, 2, 64 }, { 65536, 2, 64 },
                          { 262144, 8, 64 } },
   [CG_ARCH_PPC64LE]  = { 2, 1, { 65536, 2, 64 }, { 65536, 2, 64 },
                          { 262144, 8, 64 } },
   [CG_ARCH_ARM]      = { 1, 1, { 16384, 4, 64 }, { 16384, 4, 64 },
                          { 262144, 8, 64 } },
   [CG_ARCH_ARM64]    = { 2, 1, { 16384, 4, 64 }, { 16384, 4, 64 },
                          { 262144, 8, 64 } },
   [CG_ARCH_MIPS32]   = { 2, 1, { 32768, 4, 32 }, { 32768, 4, 32 },
                          { 524288, 8, 32 } },
   [CG_ARCH_NANOMIPS] = { 2, 1, { 32768, 4, 32 }, { 32768, 4, 32 },
                          { 524288, 8, 32 } },
   [CG_ARCH_MIPS64]   = { 2, 1, { 32768, 4, 32 }, { 32768, 4, 32 },
                          { 524288, 8, 32 } },
   [CG_ARCH_RISCV64]  = { 1, 1, { 32768, 4, 64 }, { 32768, 8, 64 },
                          { 2097152, 16, 64 } },
   /* Newest upstream asserts that s390x detection (ECAG) succeeds; the
      3.19 defaults are not used. */
   [CG_ARCH_S390X]    = { 1, 0, CG_CACHE_UNSET, CG_CACHE_UNSET,
                          CG_CACHE_UNSET },
};

#define CG_ARCH_COUNT (sizeof cg_arch_table / sizeof cg_arch_table[0])

static const struct cg_arch_facts *cg_arch_facts_of(enum cg_arch arch)
{
   if ((unsigned)arch >= CG_ARCH_COUNT)
      return NULL;
   return &cg_arch_table[arch];
}

unsigned cg_arch_branch_zero_bits(enum cg_arch arch)
{
   const struct cg_arch_facts *f = cg_arch_facts_of(arch);

   return f != NULL ? f->branch_zero_bits : 0;
}

static int cg_is_pow2(uint32_t x)
{
   return x != 0 && (x & (x - 1)) == 0;
}

/* ---- Message lines -------------------------------------------------------- */

/* One message line being built.  160 bytes hold the longest line here
   (about 100); anything beyond is cut rather than overrun. */
struct cg_line {
   char text[160];
   size_t len;
};

/* Not an initialiser: zero-filling text would cost a memset per line. */
static void cg_line_init(struct cg_line *l)
{
   l->len = 0;
   l->text[0] = '\0';
}

static void cg_line_str(struct cg_line *l, const char *s)
{
   while (*s != '\0' && l->len < sizeof l->text - 1)
      l->text[l->len++] = *s++;
   l->text[l->len] = '\0';
}

/* Appends n in decimal, with thousands separators if commas is set. */
static void cg_line_u64(struct cg_line *l, uint64_t n, int commas)
{
   char buf[CG_FMT_U64_SIZE + 1];

   buf[CG_FMT_U64_SIZE] = '\0';
   cg_line_str(l, cg_fmt_u64(buf + CG_FMT_U64_SIZE, n, commas));
}

/* Signed values (geometries are ints): a '-' then the magnitude. */
static void cg_line_i32(struct cg_line *l, int32_t v, int commas)
{
   if (v < 0) {
      cg_line_str(l, "-");
      cg_line_u64(l, 0u - (uint64_t)(int64_t)v, commas);
   } else {
      cg_line_u64(l, (uint64_t)v, commas);
   }
}

static void cg_line_send(struct cg_line *l, enum cg_msg_level level)
{
   cg_host_message(level, l->text);
   l->len = 0;
   l->text[0] = '\0';
}

/* Sends a line made of one literal. */
static void cg_say(enum cg_msg_level level, const char *text)
{
   struct cg_line l;

   cg_line_init(&l);
   cg_line_str(&l, text);
   cg_line_send(&l, level);
}

/* "  <name>: <size,> B, <assoc>-way, <line> B lines", the geometry line of
   the "not supported" report and of "Cache configuration used:". */
static void cg_say_geometry(const char *name, const struct cg_cache_config *c)
{
   struct cg_line l;

   cg_line_init(&l);
   cg_line_str(&l, "  ");
   cg_line_str(&l, name);
   cg_line_str(&l, ": ");
   cg_line_i32(&l, c->size, 1);
   cg_line_str(&l, " B, ");
   cg_line_i32(&l, c->assoc, 0);
   cg_line_str(&l, "-way, ");
   cg_line_i32(&l, c->line_size, 0);
   cg_line_str(&l, " B lines");
   cg_line_send(&l, CG_MSG_USER);
}

/* ---- Validation ------------------------------------------------------------ */

/* |v| as an unsigned value; exact for INT32_MIN too. */
static uint32_t cg_magnitude(int32_t v)
{
   return v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
}

/* Rule 3 of the checks: size must be a multiple of line_size * assoc, and
   size / line_size / assoc, read as an unsigned 32-bit number, a power of
   two.  Upstream computes this in 32-bit ints, where the product can
   overflow (then divide by zero) and INT_MIN / -1 traps.  Here the C
   results are rebuilt from magnitudes, which gives the same answers
   wherever upstream's arithmetic is defined: for truncating division,
   |a % b| = |a| % |b| (sign of a) and |a / b| = |a| / |b| (sign of a*b).
   line_size and assoc are non-zero here (rules 1 and 2). */
static int cg_set_count_ok(const struct cg_cache_config *c)
{
   uint32_t size = cg_magnitude(c->size);
   uint32_t line = cg_magnitude(c->line_size);
   uint32_t assoc = cg_magnitude(c->assoc);
   uint64_t product = (uint64_t)line * assoc;
   uint32_t sets;
   int negative;

   if (product > size)
      return 0;   /* the remainder is size itself: non-zero, or 0 sets */
   if (size % (uint32_t)product != 0)
      return 0;
   sets = size / line / assoc;
   negative = (c->size < 0) ^ (c->line_size < 0) ^ (c->assoc < 0);
   return cg_is_pow2(negative ? 0u - sets : sets);
}

const char *cg_arch_check_cache(const struct cg_cache_config *c)
{
   if (c->line_size == 0)
      return "Cache line size is zero.";
   if (c->assoc == 0)
      return "Cache associativity is zero.";
   if (!cg_set_count_ok(c))
      return "Cache set count is not a power of two.";
   if (!cg_is_pow2((uint32_t)c->line_size))
      return "Cache line size is not a power of two.";
   if (c->line_size < 16)
      return "Cache line size is too small.";
   if (c->size <= c->line_size)
      return "Cache size <= line size.";
   /* line_size is now a positive power of two and size > line_size, so
      the division is safe. */
   if (c->assoc > c->size / c->line_size)
      return "Cache associativity > (size / line size).";
   return NULL;
}

/* ---- Option parsing -------------------------------------------------------- */

static int cg_is_space(char ch)
{
   return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f'
          || ch == '\r';
}

/* Reads one number at s like the core's strtoll10 (see cg_arch.h) into
   *val; sets *too_big if it does not fit in 64 signed bits.  Returns the
   first character not read: s itself if there was no digit. */
static const char *cg_read_number(const char *s, int64_t *val, int *too_big)
{
   const char *p = s;
   uint64_t n = 0;
   int negative = 0, any = 0;

   while (cg_is_space(*p))
      p++;
   if (*p == '-' || *p == '+')
      negative = *p++ == '-';
   for (; *p >= '0' && *p <= '9'; p++) {
      unsigned digit = (unsigned)(*p - '0');

      any = 1;
      if (n > (UINT64_C(1) << 63) / 10)
         *too_big = 1;
      else
         n = n * 10 + digit;
   }
   *val = 0;
   if (!any)
      return s;
   if (n > (UINT64_C(1) << 63) - (negative ? 0 : 1))
      *too_big = 1;   /* 2^63 only fits negated */
   else
      *val = negative ? (int64_t)(0u - n) : (int64_t)n;
   return p;
}

enum cg_cache_opt_status cg_arch_parse_cache_opt(const char *value,
                                                 struct cg_cache_config *out,
                                                 const char **msg)
{
   int64_t field[3];
   int32_t narrow[3];
   int too_big = 0, i;
   const char *p = value;
   struct cg_cache_config parsed;

   for (i = 0; i < 3; i++) {
      p = cg_read_number(p, &field[i], &too_big);
      if (*p != (i < 2 ? ',' : '\0')) {
         *msg = CG_ARCH_ERR_BAD_ARGUMENT;
         return CG_CACHE_OPT_BAD_ARGUMENT;
      }
      p++;
   }
   for (i = 0; i < 3; i++) {
      narrow[i] = (int32_t)field[i];
      if (too_big || (int64_t)narrow[i] != field[i]) {
         *msg = CG_ARCH_ERR_OVERFLOW;
         return CG_CACHE_OPT_OVERFLOW;
      }
   }
   parsed.size = narrow[0];
   parsed.assoc = narrow[1];
   parsed.line_size = narrow[2];
   *msg = cg_arch_check_cache(&parsed);
   if (*msg != NULL)
      return CG_CACHE_OPT_INVALID;
   *out = parsed;
   return CG_CACHE_OPT_OK;
}

/* ---- Auto-detection --------------------------------------------------------- */

static void cg_config_from_hw(struct cg_cache_config *c,
                              const struct cg_hwcache *hw)
{
   c->size = (int32_t)hw->size;
   c->assoc = (int32_t)hw->assoc;
   c->line_size = (int32_t)hw->line_size;
}

/* Pentium 4 reports a micro-op trace cache instead of an I1; simulate an
   I-cache of comparable capacity with 32-byte lines, as upstream does. */
static void cg_pentium4_i1(struct cg_cache_config *I1)
{
   uint32_t reported = (uint32_t)I1->size;
   uint32_t simulated =
      reported == 12 * 1024 || reported == 16 * 1024 ? 16 * 1024 : 32 * 1024;
   struct cg_line l;

   cg_line_init(&l);
   I1->size = (int32_t)simulated;
   I1->line_size = 32;
   cg_line_str(&l, "warning: Pentium 4 with ");
   cg_line_u64(&l, reported / 1024, 0);
   cg_line_str(&l, " KB micro-op instruction trace cache");
   cg_line_send(&l, CG_MSG_NOTE);
   cg_line_str(&l, "         Simulating a ");
   cg_line_u64(&l, simulated / 1024, 0);
   cg_line_str(&l, " KB I-cache with 32 B lines");
   cg_line_send(&l, CG_MSG_NOTE);
}

/* Takes I1 (level 1, instruction), D1 (level 1, data) and LL (unified, at
   the highest level) from hw.  Returns 1 if all three were found, else 0
   with the outputs unspecified.  The warnings are debug messages, the
   notes of what was found note messages. */
static int cg_detect(const struct cg_hwcache_info *hw,
                     struct cg_cache_config *I1, struct cg_cache_config *D1,
                     struct cg_cache_config *LL)
{
   const struct cg_hwcache *i1 = NULL, *d1 = NULL, *ll = NULL;
   unsigned k;

   if (hw == NULL || hw->num_caches == 0 || hw->caches == NULL)
      return 0;
   for (k = 0; k < hw->num_caches; k++) {
      const struct cg_hwcache *c = &hw->caches[k];

      if (c->level == 1 && c->kind == CG_HWCACHE_INSN && i1 == NULL)
         i1 = c;
      if (c->level == 1 && c->kind == CG_HWCACHE_DATA && d1 == NULL)
         d1 = c;
      if (c->level == hw->num_levels && c->kind == CG_HWCACHE_UNIFIED
          && ll == NULL)
         ll = c;
   }
   if (ll == NULL) {
      /* Upstream says L2 whatever the highest level is. */
      cg_say(CG_MSG_DEBUG,
             "warning: L2 cache not installed, ignore LL results.");
   } else if (hw->num_levels > 2) {
      struct cg_line l;

      cg_line_init(&l);
      cg_line_str(&l, "warning: L");
      cg_line_u64(&l, hw->num_levels, 0);
      cg_line_str(&l, " cache found, using its data for the LL simulation.");
      cg_line_send(&l, CG_MSG_NOTE);
   }
   if (i1 == NULL || d1 == NULL || ll == NULL)
      return 0;
   cg_config_from_hw(I1, i1);
   cg_config_from_hw(D1, d1);
   cg_config_from_hw(LL, ll);
   if (i1->is_trace_cache)
      cg_pentium4_i1(I1);
   return 1;
}

/* ---- LL adjustment ---------------------------------------------------------- */

/* Why: the model indexes sets by masking block numbers, so it needs a
   power-of-two set count, but real LLs often have another (e.g. 12 MiB,
   16-way = 12288 sets).  Keeping the line size and about the same capacity,
   the set count is rounded down to a power of two and the associativity
   scaled up by the same factor, rounded to nearest.

   The arithmetic is upstream's: unsigned 32-bit ints and a double factor.
   Every value in it is exact in a double (nsets < 2^32, new_nsets a power
   of two, factor * assoc = nsets * assoc / new_nsets < 2^32 with a
   power-of-two divisor), so SSE (amd64) and x87 (x86) give the same
   result, which is round-half-up of nsets * assoc / new_nsets. */
int cg_arch_tweak_ll(struct cg_cache_config *ll)
{
   uint32_t size = (uint32_t)ll->size;
   uint32_t assoc = (uint32_t)ll->assoc;
   uint32_t line = (uint32_t)ll->line_size;
   uint32_t nsets, new_nsets, new_assoc, new_size;
   struct cg_line l;

   cg_line_init(&l);
   if (size == 0 || assoc == 0 || line == 0 || assoc * line == 0)
      return 0;   /* the last test: a product wrapping to 0 (upstream traps) */
   nsets = size / (assoc * line);
   if (nsets == 0)
      return 0;
   if (cg_is_pow2(nsets)) {
      new_nsets = nsets;
      new_assoc = assoc;
   } else {
      double factor;

      new_nsets = 1;
      while (new_nsets <= nsets / 2)
         new_nsets *= 2;
      factor = (double)nsets / (double)new_nsets;
      new_assoc = (uint32_t)(0.5 + factor * (double)assoc);
   }
   new_size = line * new_assoc * new_nsets;
   if (new_size == size && new_assoc == assoc)
      return 0;

   cg_line_str(&l, "warning: specified LL cache: line_size ");
   cg_line_u64(&l, line, 0);
   cg_line_str(&l, "  assoc ");
   cg_line_u64(&l, assoc, 0);
   cg_line_str(&l, "  total_size ");
   cg_line_u64(&l, size, 1);
   cg_line_send(&l, CG_MSG_NOTE);
   cg_line_str(&l, "warning: simulated LL cache: line_size ");
   cg_line_u64(&l, line, 0);
   cg_line_str(&l, "  assoc ");
   cg_line_u64(&l, new_assoc, 0);
   cg_line_str(&l, "  total_size ");
   cg_line_u64(&l, new_size, 1);
   cg_line_send(&l, CG_MSG_NOTE);

   ll->size = (int32_t)new_size;
   ll->assoc = (int32_t)new_assoc;
   return 1;
}

/* ---- The whole configuration ------------------------------------------------ */

/* Validates the detected or default cache c.  Returns 0 if it
   is fine or was given on the command line (which then replaces it), -1 if
   the run cannot go on. */
static int cg_check_detected(const char *name, const struct cg_cache_config *c,
                             int given)
{
   const char *why = cg_arch_check_cache(c);
   struct cg_line l;

   cg_line_init(&l);
   if (why == NULL)
      return 0;
   cg_line_str(&l, "Auto-detected ");
   cg_line_str(&l, name);
   cg_line_str(&l, " cache configuration not supported: ");
   cg_line_str(&l, why);
   cg_line_send(&l, CG_MSG_USER);
   cg_say_geometry(name, c);
   if (given)
      return 0;
   cg_say(CG_MSG_USER,
          "As it probably should be supported, please report a bug!");
   cg_line_str(&l, "Bypass this message by using option --");
   cg_line_str(&l, name);
   cg_line_str(&l, "=...");
   cg_line_send(&l, CG_MSG_USER);
   return -1;
}

int cg_arch_configure(enum cg_arch arch, const struct cg_hwcache_info *hw,
                      const struct cg_cache_config *clo_I1,
                      const struct cg_cache_config *clo_D1,
                      const struct cg_cache_config *clo_LL,
                      int verbosity, struct cg_cache_config *I1,
                      struct cg_cache_config *D1, struct cg_cache_config *LL)
{
   int given_I1 = cg_cache_config_is_set(clo_I1);
   int given_D1 = cg_cache_config_is_set(clo_D1);
   int given_LL = cg_cache_config_is_set(clo_LL);
   int all_given = given_I1 && given_D1 && given_LL;

   if (!cg_detect(hw, I1, D1, LL)) {
      const struct cg_arch_facts *f = cg_arch_facts_of(arch);

      if (f != NULL && f->has_defaults) {
         *I1 = f->I1;
         *D1 = f->D1;
         *LL = f->LL;
      } else if (all_given) {
         /* Nothing to fall back on, and nothing needed: the command-line
            values replace all three below. */
         *I1 = *clo_I1;
         *D1 = *clo_D1;
         *LL = *clo_LL;
      } else {
         cg_say(CG_MSG_USER,
                "Cachegrind: cannot continue: the cache configuration could"
                " not be auto-detected");
         cg_say(CG_MSG_USER,
                "  and this architecture has no default one.  Use --I1, --D1"
                " and --LL.");
         return -1;
      }
      if (!all_given) {
         cg_say(CG_MSG_DEBUG,
                "Warning: Cannot auto-detect cache config, using defaults.");
         cg_say(CG_MSG_DEBUG, "         Run with -v to see.");
      }
   }

   cg_arch_tweak_ll(LL);

   if (cg_check_detected("I1", I1, given_I1) != 0
       || cg_check_detected("D1", D1, given_D1) != 0
       || cg_check_detected("LL", LL, given_LL) != 0)
      return -1;

   if (given_I1)
      *I1 = *clo_I1;
   if (given_D1)
      *D1 = *clo_D1;
   if (given_LL)
      *LL = *clo_LL;

   if (verbosity >= 2) {
      cg_say(CG_MSG_USER, "Cache configuration used:");
      cg_say_geometry("I1", I1);
      cg_say_geometry("D1", D1);
      cg_say_geometry("LL", LL);
   }
   return 0;
}

int32_t cg_arch_min_line_size(const struct cg_cache_config *I1,
                              const struct cg_cache_config *D1,
                              const struct cg_cache_config *LL)
{
   int32_t min = I1->line_size;

   if (D1->line_size < min)
      min = D1->line_size;
   if (LL->line_size < min)
      min = LL->line_size;
   return min;
}

int cg_arch_check_min_line_size(int32_t min, unsigned max_reg_size)
{
   struct cg_line l;

   cg_line_init(&l);
   if ((int64_t)min >= (int64_t)max_reg_size)
      return 0;
   cg_line_str(&l, "Cachegrind: cannot continue: the minimum line size (");
   cg_line_i32(&l, min, 0);
   cg_line_str(&l, ")");
   cg_line_send(&l, CG_MSG_USER);
   cg_line_str(&l, "  must be equal to or larger than the maximum register"
                   " size (");
   cg_line_u64(&l, max_reg_size, 0);
   cg_line_str(&l, ")");
   cg_line_send(&l, CG_MSG_USER);
   cg_say(CG_MSG_USER, "  but it is not.  Exiting now.");
   return -1;
}
