/* cg_arch.h -- cache configuration: --I1/--D1/--LL, auto-detection, defaults.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Plain C with no Valgrind or libc dependency, like cg_sim.h.  Nothing here
   allocates or keeps pointers after a call returns.  Messages go out one
   complete line at a time through cg_host_message (cg_host.h: the tool
   prints them with the core's message functions, the unit tests record
   them); every string returned is a string literal that lives forever.
   Every message text must match upstream's byte for byte: the upstream
   test filters match some of them literally.  The user's view of all this
   is docs/manual/running.md, "Cache configuration". */

#ifndef CG_ARCH_H
#define CG_ARCH_H

#include "cg_host.h"
#include "cg_sim.h"

/* The guest architectures upstream Cachegrind supports.  The values index
   the per-architecture table in cg_arch.c. */
enum cg_arch {
   CG_ARCH_X86, CG_ARCH_AMD64,
   CG_ARCH_PPC32, CG_ARCH_PPC64BE, CG_ARCH_PPC64LE,
   CG_ARCH_ARM, CG_ARCH_ARM64,
   CG_ARCH_MIPS32, CG_ARCH_NANOMIPS, CG_ARCH_MIPS64,
   CG_ARCH_RISCV64, CG_ARCH_S390X
};

/* 1 if any field of c was set on the command line (the core's notion of
   "this cache was given"), 0 for CG_CACHE_UNSET. */
static inline int cg_cache_config_is_set(const struct cg_cache_config *c)
{
   return c->size != -1 || c->assoc != -1 || c->line_size != -1;
}

/* ---- --I1/--D1/--LL/--L2 ------------------------------------------------ */

/* The outcome of parsing one cache option value. */
enum cg_cache_opt_status {
   /* *out holds the geometry, *msg is NULL. */
   CG_CACHE_OPT_OK = 0,
   /* Not "A,B,C": *msg is CG_ARCH_ERR_BAD_ARGUMENT, a printf format whose
      %s is the option value.  The tool reports it as a bad option. */
   CG_CACHE_OPT_BAD_ARGUMENT,
   /* A number does not fit in 32 signed bits: *msg is CG_ARCH_ERR_OVERFLOW,
      reported as the bad option's specific message. */
   CG_CACHE_OPT_OVERFLOW,
   /* Well formed but rejected by cg_arch_check_cache(): *msg is its
      message.  The tool prints "valgrind: <msg>" (fatal message) first,
      then the bad option with CG_ARCH_ERR_BAD_ARGUMENT. */
   CG_CACHE_OPT_INVALID
};

#define CG_ARCH_ERR_BAD_ARGUMENT "Bad argument '%s'"
#define CG_ARCH_ERR_OVERFLOW \
   "One of the cache parameters was too large and overflowed."

/* Parses value, the text after "--I1=" (or --D1=, --LL=, --L2=), as
   "<size>,<assoc>,<line_size>".  Each number is read like the core's
   strtoll10: leading white space, an optional sign, decimal digits; a
   number with no digit reads as 0 without consuming anything, so ",,"
   reads as 0,0,0 (and then fails validation).  Each number must be
   followed by ',' (the first two) or the end of the text (the last).
   Stricter than upstream: a number too large for 64 bits counts as an
   overflow instead of wrapping around.  Returns the status and sets *msg as
   described above; *out is written only on success, and is validated. */
enum cg_cache_opt_status cg_arch_parse_cache_opt(const char *value,
                                                 struct cg_cache_config *out,
                                                 const char **msg);

/* Checks a geometry against the seven rules of docs/manual/running.md
   ("Checks of --I1, --D1 and --LL"), in order; the
   first failing rule wins.  Returns NULL if c is usable, else the message
   (without trailing newline), e.g. "Cache set count is not a power of
   two.".  The arithmetic is exact for every int32 input, so no input can
   divide by zero or trap (upstream can, for products overflowing 32
   bits; those inputs get the set-count message here). */
const char *cg_arch_check_cache(const struct cg_cache_config *c);

/* ---- Auto-detection and the whole configuration -------------------------- */

/* The host's caches, as the core reports them (VexCacheInfo).  The tool
   fills this from VexArchInfo.hwcache_info: one cg_hwcache per VexCache
   (DATA_CACHE -> CG_HWCACHE_DATA, INSN_CACHE -> CG_HWCACHE_INSN,
   UNIFIED_CACHE -> CG_HWCACHE_UNIFIED, sizeB -> size, line_sizeB ->
   line_size), num_levels and num_caches copied as they are. */
enum cg_hwcache_kind { CG_HWCACHE_INSN, CG_HWCACHE_DATA, CG_HWCACHE_UNIFIED };
struct cg_hwcache {
   enum cg_hwcache_kind kind;
   unsigned level, size, line_size, assoc;
   int is_trace_cache;               /* Pentium 4 micro-op trace cache */
};
struct cg_hwcache_info {
   unsigned num_levels;              /* highest level present */
   unsigned num_caches;
   const struct cg_hwcache *caches;  /* num_caches entries, any order */
};

/* The LL adjustment, applied to *ll in place: when the set count is not a
   power of two, the largest power of two below it is used and the
   associativity scaled up to keep about the same size.  Returns 1 if *ll
   changed (after sending the two "warning: specified/simulated LL cache"
   note lines), else 0. */
int cg_arch_tweak_ll(struct cg_cache_config *ll);

/* The whole cache configuration, at start-up:
   1. I1, D1, LL from hw (hw may be NULL: nothing detected); if that fails,
      the defaults of arch, with the "Cannot auto-detect" warning unless all
      three of clo_I1, clo_D1, clo_LL are set;
   2. the LL adjustment;
   3. validation of I1, D1, LL in that order; an invalid one is reported,
      and is fatal unless the same cache was given on the command line;
   4. the command-line values (already validated by the parser) replace
      the others, cache by cache;
   5. with verbosity >= 2, the "Cache configuration used:" block.
   Returns 0 with *I1, *D1, *LL set (valid), or -1 after sending the
   failure's lines: the tool then exits with status 1.  Upstream
   fails an assertion instead, after the same lines.  For an architecture
   without defaults (s390x) whose detection failed, the run fails with a
   user message unless all three caches were given. */
int cg_arch_configure(enum cg_arch arch, const struct cg_hwcache_info *hw,
                      const struct cg_cache_config *clo_I1,
                      const struct cg_cache_config *clo_D1,
                      const struct cg_cache_config *clo_LL,
                      int verbosity, struct cg_cache_config *I1,
                      struct cg_cache_config *D1, struct cg_cache_config *LL);

/* The smallest of the three line sizes: the largest data access the
   simulation takes as it is (bigger ones are clamped to it, so that no
   access spans more than two lines). */
int32_t cg_arch_min_line_size(const struct cg_cache_config *I1,
                              const struct cg_cache_config *D1,
                              const struct cg_cache_config *LL);

/* The start-up check that no register access can span more than two
   lines: if min (cg_arch_min_line_size) is less than max_reg_size (the
   guest's largest register, from the core), sends the three "Cachegrind:
   cannot continue" user lines and returns -1 (the tool then exits with
   status 1); else returns 0. */
int cg_arch_check_min_line_size(int32_t min, unsigned max_reg_size);

/* The number of always-zero low bits of instruction addresses on arch:
   0 on x86/amd64; 1 on s390x, arm (Thumb) and riscv64; 2 on
   ppc, mips, nanomips and arm64.  The branch predictors shift them out. */
unsigned cg_arch_branch_zero_bits(enum cg_arch arch);

#endif /* CG_ARCH_H */
