/* cg_sims.c -- the run-time simulation: the caches and predictors, their set-up, the helpers.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The scalar variant of the helpers and those without variants are here;
   the AVX2 variants are in cg_sims_avx2.c (see cg_sims.h). */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"

#include "cg_arch.h"
#include "cg_branchpred.h"
#include "cg_sim.h"
#include "cg_config.h"
#include "cg_sims.h"

/* The simulation state (cg_sims.h). */
struct cg_condpred cg_cond_pred;
struct cg_indpred cg_ind_pred;
struct cg_sims cg_sims = {
   .helpers_I1 = &cg_helpers_scalar,
   .helpers_D1 = &cg_helpers_scalar,
};

/*------------------------------------------------------------*/
/*--- Compact tags                                         ---*/
/*------------------------------------------------------------*/

/* Fresh anonymous memory, all zero and committed only when touched; NULL
   if none can be had. */
static void *cg_zeroed_pages(SizeT bytes)
{
   return bytes ? VG_(am_shadow_alloc)(bytes) : NULL;
}

/* Every cache starts with compact tags, 32-bit block numbers, which hold
   every address below 2^(32 + line bits) -- all a client normally has.
   The LL's are in fresh zero pages, so that only the sets a program uses
   cost memory (the LL is often many megabytes); on a 64-bit host they
   take half the memory of full-width ones.  I1 and D1 have the
   first-level layout (cg_sim.h), whose way-0 copies the emitted code
   reads, in the tool's data segment (cg_init_l1): eight ways of compact
   tags fill one AVX2 register in their helpers.  An access beyond 32 bits
   widens a cache's tags (cg_widen): the LL's compact pages are then
   unmapped, a first-level cache's storage stays, for its way-0 copies. */
static void cg_widen(struct cg_cache *c)
{
   struct cg_cache_config cfg = { c->size, c->assoc, c->line_size };
   SizeT bytes = cg_cache_tag_bytes(&cfg);
   uintptr_t *tags = cg_zeroed_pages(bytes);
   void *compact = c->tags32;
   Bool first_level = c->way0 != NULL;

   if (!tags)
      tags = VG_(malloc)("cg.sim.wide", bytes);
   cg_cache_widen(c, tags);
   if (!first_level)
      VG_(am_munmap_valgrind)((Addr)compact, cg_cache_tag_bytes32(&cfg));
}

/* A reference to cache c with full-width tags, widening them first if
   they are compact.  Out of line: the rare path of cg_ref, whose callers
   then save no registers on their common path. */
static __attribute__((noinline, cold)) int cg_ref_wide(struct cg_cache *c,
                                                        Addr addr,
                                                        UChar size)
{
   if (c->tags32)
      cg_widen(c);
   return cg_cache_ref(c, addr, size);
}

/* A reference to cache c, with whichever tags it has. */
static inline int cg_ref(struct cg_cache *c, Addr addr, UChar size)
{
   if (__builtin_expect(c->tags32 != NULL, 1)) {
      int miss = cg_cache_ref32(c, addr, size);
      if (__builtin_expect(miss != CG_CACHE_WIDEN, 1))
         return miss;
   }
   return cg_ref_wide(c, addr, size);
}

/*------------------------------------------------------------*/
/*--- The helpers: scalar variant, and those without one   ---*/
/*------------------------------------------------------------*/

/* Also the rare path of cg_l1_missed_avx2 (cg_sims.h). */
__attribute__((noinline)) VG_REGPARM(3)
void cg_ll_ref(ULong *misses, Addr addr, UChar size)
{
   if (cg_ref(&cg_sims.LL, addr, size))
      misses[1]++;
}

/* Accesses themselves are counted by the group counters (or, guarded, by
   their helper); the helpers count misses.  The common case of an L1
   miss, a hit in the LL's way 0, is tested here first and returns without
   saving a register: the rest is a tail call. */
__attribute__((noinline)) VG_REGPARM(3)
void cg_l1_missed(ULong *misses, Addr addr, UChar size)
{
   misses[0]++;
   if (__builtin_expect(cg_sims.LL.tags32 != NULL
                        && cg_cache_way0_hit32(&cg_sims.LL, addr, size), 1))
      return;
   cg_ll_ref(misses, addr, size);
}

/* An access through a first-level cache and, on a miss there, LL. */
static inline __attribute__((always_inline))
void cg_access(struct cg_cache *l1, Addr addr, UChar size, ULong *misses)
{
   if (cg_ref(l1, addr, size))
      cg_l1_missed(misses, addr, size);
}

__attribute__((noinline)) VG_REGPARM(3)
void cg_l1_access(struct cg_cache *l1, Addr addr, UChar size, ULong *misses)
{
   cg_access(l1, addr, size, misses);
}

/* An instruction fetch that may be anything but a hit in way 0 (the
   scalar variant's fetch and fetch_last alike). */
static VG_REGPARM(1) void cg_h_fetch(const CgSimInstr *i)
{
   cg_access(&cg_sims.I1, i->addr, i->len, i->misses);
}

VG_REGPARM(3) void cg_h_data(Addr ea, ULong *misses, UWord size)
{
   cg_access(&cg_sims.D1, ea, (UChar)size, misses);
}

/* The data helpers of the common sizes, one argument fewer than cg_h_data:
   every emitted call site is a few bytes smaller, and the translation
   cache with it. */
#define CG_SCALAR_DATA_HELPER(n)                                           \
   static VG_REGPARM(2) void cg_h_data##n(Addr ea, ULong *misses)          \
   {                                                                       \
      cg_access(&cg_sims.D1, ea, n, misses);                               \
   }
CG_SCALAR_DATA_HELPER(1)
CG_SCALAR_DATA_HELPER(2)
CG_SCALAR_DATA_HELPER(4)
CG_SCALAR_DATA_HELPER(8)
CG_SCALAR_DATA_HELPER(16)
CG_SCALAR_DATA_HELPER(32)

/* Read-only tables (never freed): the sizes with a helper of their own,
   the names the emitted calls show in IR dumps, and the scalar variant. */
const Int cg_data_helper_sizes[CG_N_DATA_SIZES] = { 1, 2, 4, 8, 16, 32 };
const HChar *const cg_data_helper_names[CG_N_DATA_SIZES] = {
   "cg_h_data1", "cg_h_data2", "cg_h_data4", "cg_h_data8", "cg_h_data16",
   "cg_h_data32",
};

const struct cg_helper_set cg_helpers_scalar = {
   cg_h_fetch, cg_h_fetch, NULL,
   { cg_h_data1, cg_h_data2, cg_h_data4, cg_h_data8, cg_h_data16,
     cg_h_data32 },
};

#if VG_WORDSIZE == 8
Bool cg_fetch_pack(const CgSimInstr *i, UWord *packed)
{
   if (cg_sims.rec_base == NULL)
      cg_sims.rec_base = (const HChar *)i;
   Long dist = (const HChar *)i - cg_sims.rec_base;
   if (dist % 8 != 0 || dist / 8 < -0x80000000LL || dist / 8 > 0x7FFFFFFFLL)
      return False;
   *packed = (UWord)(dist / 8) << 32 | i->last_block;
   return True;
}
#endif

VG_REGPARM(3) void cg_h_data_guarded(ULong *counts, Addr ea, UWord size)
{
   counts[0]++;
   cg_access(&cg_sims.D1, ea, (UChar)size, counts + 1);
}

/* No branch on the outcome: it is data to the host (see cg_branchpred.h). */
VG_REGPARM(2) void cg_h_cond_branch(const CgSimInstr *i, UWord taken)
{
   (*cg_sim_count(i))++;
   /* taken is 1 or 0: the emitted code widens an Ity_I1. */
   *i->misses += cg_condpred_update_at(&cg_cond_pred, i->cond_index, taken);
}

VG_REGPARM(2) void cg_h_ind_branch(const CgSimInstr *i, UWord target)
{
   (*cg_sim_count(i))++;
   *i->misses += (ULong)cg_indpred_predict_and_update(&cg_ind_pred,
                                                      i->addr, target);
}

/*------------------------------------------------------------*/
/*--- Set-up                                               ---*/
/*------------------------------------------------------------*/

static enum cg_arch cg_guest_arch(void)
{
#if defined(VGA_amd64)
   return CG_ARCH_AMD64;
#elif defined(VGA_x86)
   return CG_ARCH_X86;
#else
#  error "cachegrind-ng supports amd64 and x86 guests"
#endif
}

/* Storage for I1 and D1 when it fits: in the tool's own data segment,
   whose low addresses let the emitted way-0 tests use short address forms
   (a 32-bit displacement instead of a 64-bit constant) -- smaller code in
   the translation cache.  Unused parts cost no memory. */
#define CG_STATIC_TAG_WORDS 16384
static uintptr_t static_tags_I1[CG_STATIC_TAG_WORDS];
static uintptr_t static_tags_D1[CG_STATIC_TAG_WORDS];

static void cg_init_l1(struct cg_cache *c, const struct cg_cache_config *cfg,
                       uintptr_t *static_tags, const HChar *cost_centre)
{
   SizeT bytes = cg_cache_tag_bytes_l1(cfg);
   void *storage = bytes <= sizeof static_tags_I1
                   ? static_tags : VG_(malloc)(cost_centre, bytes);
   cg_cache_init_l1(c, cfg, storage);
}

static void cg_init_ll(const struct cg_cache_config *cfg)
{
   void *tags = cg_zeroed_pages(cg_cache_tag_bytes32(cfg));
   if (tags) {
      cg_cache_init32_zeroed(&cg_sims.LL, cfg, tags);
      return;
   }
   tags = VG_(malloc)("cg.sim.LL", cg_cache_tag_bytes(cfg));
   cg_cache_init(&cg_sims.LL, cfg, tags);
}

/* The variant of the helpers for first-level cache c. */
static const struct cg_helper_set *cg_helpers_for(const struct cg_cache *c)
{
#ifdef CG_SIM_AVX2
   UInt ways = cg_cache_vector_ways(c);
   if (ways == 4 || ways == 8 || ways == 12 || ways == 16)
      return &cg_helpers_avx2[ways / 4];
#endif
   return &cg_helpers_scalar;
}

/* Configures and creates the three caches: auto-detection from the core's
   host information, defaults, options, validation (cg_arch_configure). */
static void cg_configure_caches(const struct cg_config *cfg)
{
   VexArch arch;
   VexArchInfo vai;
   struct cg_cache_config I1, D1, LL;

   VG_(machine_get_VexArchInfo)(&arch, &vai);
   const VexCacheInfo *vci = &vai.hwcache_info;
   struct cg_hwcache *hw = VG_(malloc)("cg.main.hwcache",
                                       (vci->num_caches + 1) * sizeof *hw);
   for (UInt i = 0; i < vci->num_caches; i++) {
      const VexCache *vc = &vci->caches[i];
      hw[i].kind = vc->kind == INSN_CACHE   ? CG_HWCACHE_INSN
                 : vc->kind == DATA_CACHE   ? CG_HWCACHE_DATA
                                            : CG_HWCACHE_UNIFIED;
      hw[i].level = vc->level;
      hw[i].size = vc->sizeB;
      hw[i].line_size = vc->line_sizeB;
      hw[i].assoc = vc->assoc;
      hw[i].is_trace_cache = vc->is_trace_cache;
   }
   struct cg_hwcache_info info = { vci->num_levels, vci->num_caches, hw };

   Int ok = cg_arch_configure(cg_guest_arch(), &info, &cfg->I1, &cfg->D1,
                              &cfg->LL, VG_(clo_verbosity), &I1, &D1, &LL);
   VG_(free)(hw);
   if (ok != 0)
      VG_(exit)(1);
   cg_sims.min_line_size = cg_arch_min_line_size(&I1, &D1, &LL);
   if (cg_arch_check_min_line_size(cg_sims.min_line_size,
          VG_(machine_get_size_of_largest_guest_register)()) != 0)
      VG_(exit)(1);
   cg_init_l1(&cg_sims.I1, &I1, static_tags_I1, "cg.sim.I1");
   cg_init_l1(&cg_sims.D1, &D1, static_tags_D1, "cg.sim.D1");
   cg_init_ll(&LL);
   cg_sims.helpers_I1 = cg_helpers_for(&cg_sims.I1);
   cg_sims.helpers_D1 = cg_helpers_for(&cg_sims.D1);
   cg_sims.l1_missed = cg_l1_missed;
#ifdef CG_SIM_AVX2
   UInt ll_ways = cg_cache_vector_ways(&cg_sims.LL);
   if (cg_sims.LL.tags32 != NULL && ll_ways % 4 == 0 && ll_ways >= 4
       && ll_ways <= 32 && cg_sims.LL.stride32 == ll_ways)
      cg_sims.l1_missed = cg_l1_missed_avx2[ll_ways / 4];
#endif
}

void cg_sims_init(const struct cg_config *cfg)
{
   if (cfg->cache_sim)
      cg_configure_caches(cfg);
   if (cfg->branch_sim) {
      UInt z = cg_arch_branch_zero_bits(cg_guest_arch());
      cg_condpred_init(&cg_cond_pred, z);
      cg_indpred_init(&cg_ind_pred, z);
   }
}
