/* cg_sims.c -- the simulated caches and branch predictors, and the run-time helpers.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_libcproc.h"

#include "cg_arch.h"
#include "cg_branchpred.h"
#include "cg_sim.h"
#include "cg_config.h"
#include "cg_output.h"
#include "cg_sims.h"

/*------------------------------------------------------------*/
/*--- Simulation: run-time helpers                         ---*/
/*------------------------------------------------------------*/

/* The simulated caches and branch predictors.  Owner: this file; set up by
   cg_post_clo_init when the simulations are on, used until exit. */
struct cg_cache cache_I1, cache_D1, cache_LL;
struct cg_condpred cond_predictor;
struct cg_indpred ind_predictor;

/* The smallest of the three line sizes, the largest data access simulated:
   bigger ones (x87 state saves, fxsave) are clamped to it so that no
   access spans more than two lines. */
Int min_line_size = 0;

/* Required by cg_sim: an access that spans more than two lines. */
void cg_sim_straddle_panic(cg_addr_t addr, unsigned size,
                           cg_addr_t first_block, cg_addr_t last_block)
{
   VG_(printf)("addr: %lx  size: %u  blocks: %lu %lu", (UWord)addr, size,
               (UWord)first_block, (UWord)last_block);
   VG_(tool_panic)("item straddles more than two cache sets");
   __builtin_unreachable();
}

/* An access through a first-level cache and, on a miss there, LL:
   misses[0] counts L1 misses, misses[1] LL misses.  Accesses themselves
   are counted by the group counters. */
/* The LL may start with compact (32-bit) tags: see cg_init_ll. */
static void cg_widen_ll(void);

static inline int cg_ll_ref(Addr addr, UChar size)
{
   if (cache_LL.tags32) {
      int miss = cg_cache_ref32(&cache_LL, addr, size);
      if (__builtin_expect(miss != CG_CACHE_WIDEN, 1))
         return miss;
      cg_widen_ll();
   }
   return cg_cache_ref(&cache_LL, addr, size);
}

/* An access that missed the first-level cache: counted, then LL.  Out of
   line: it is rare, and the helpers reach it by a tail jump. */
static __attribute__((noinline)) void cg_l1_missed(ULong *misses, Addr addr,
                                                   UChar size)
{
   misses[0]++;
   if (cg_ll_ref(addr, size))
      misses[1]++;
}

/* Inlined into every helper: the call and register saves of a shared
   out-of-line copy cost as much as a typical (most-recent-way) access. */
static inline __attribute__((always_inline))
void cg_access(struct cg_cache *l1, Addr addr, UChar size, ULong *misses)
{
   if (cg_cache_ref(l1, addr, size))
      cg_l1_missed(misses, addr, size);
}

/* An instruction fetch that may be anything but a hit in way 0. */
static VG_REGPARM(1) void cg_h_fetch(const CgSimInstr *i)
{
   cg_access(&cache_I1, i->addr, i->len, i->misses);
}

/* A data read or write (misses: &D1mr or &D1mw of the line).  The address
   comes first in every data helper, so that a stub can supply misses (see
   cg_data_stub). */
VG_REGPARM(3) void cg_h_data(Addr ea, ULong *misses, UWord size)
{
   cg_access(&cache_D1, ea, (UChar)size, misses);
}

/* The same for the common sizes, one argument fewer: every emitted call
   site is a few bytes smaller, and the translation cache with it. */
#define CG_DATA_HELPER(n, SUFFIX, ATTR, ACCESS)                            \
   static ATTR VG_REGPARM(2) void cg_h_data##n##SUFFIX(Addr ea,           \
                                                        ULong *misses)     \
   {                                                                       \
      ACCESS(&cache_D1, ea, n, misses);                                    \
   }

const Int cg_data_helper_sizes[6] = { 1, 2, 4, 8, 16, 32 };
const HChar *const cg_data_helper_names[6] = {
   "cg_h_data1", "cg_h_data2", "cg_h_data4", "cg_h_data8", "cg_h_data16",
   "cg_h_data32",
};

#define CG_DATA_HELPERS(SUFFIX, ATTR, ACCESS)                              \
   CG_DATA_HELPER(1, SUFFIX, ATTR, ACCESS)                                 \
   CG_DATA_HELPER(2, SUFFIX, ATTR, ACCESS)                                 \
   CG_DATA_HELPER(4, SUFFIX, ATTR, ACCESS)                                 \
   CG_DATA_HELPER(8, SUFFIX, ATTR, ACCESS)                                 \
   CG_DATA_HELPER(16, SUFFIX, ATTR, ACCESS)                                \
   CG_DATA_HELPER(32, SUFFIX, ATTR, ACCESS)
#define CG_HELPER_SET(SUFFIX, FETCH_LAST)                                  \
   { cg_h_fetch##SUFFIX, FETCH_LAST,                                       \
     { cg_h_data1##SUFFIX, cg_h_data2##SUFFIX, cg_h_data4##SUFFIX,         \
       cg_h_data8##SUFFIX, cg_h_data16##SUFFIX, cg_h_data32##SUFFIX } }

CG_DATA_HELPERS(, , cg_access)
static const CgHelperSet cg_helpers_plain = CG_HELPER_SET(, cg_h_fetch);

#ifdef CG_SIM_AVX2
/* The same helpers compiled for AVX2, one set for each associativity that
   has an AVX2 reference (4 * G ways), with that reference inline instead
   of behind the cache's function pointer.  Their common path (a reference
   that hits, in any way) makes no call and saves no registers: the rare
   paths are out of line (cg_l1_missed, cg_access_straddle).  The
   instrumenter picks the set of the cache's associativity when the cache
   uses the AVX2 reference (cg_cache_vector_groups), so only hosts with
   AVX2 ever run them. */

/* An access of two lines. */
static __attribute__((noinline)) void cg_access_straddle(struct cg_cache *l1,
                                                         Addr addr, UChar size,
                                                         ULong *misses)
{
   Addr first = addr >> l1->line_bits;
   if (cg_cache_ref_straddle(l1, addr, size, first,
                             (addr + size - 1) >> l1->line_bits))
      cg_l1_missed(misses, addr, size);
}

#define CG_AVX2_HELPERS(G)                                                 \
   static inline __attribute__((always_inline, target("avx2")))           \
   void cg_access_v##G(struct cg_cache *l1, Addr addr, UChar size,         \
                       ULong *misses)                                      \
   {                                                                       \
      Addr first = addr >> l1->line_bits;                                  \
      if (__builtin_expect(first != (addr + size - 1) >> l1->line_bits,    \
                           0)) {                                           \
         cg_access_straddle(l1, addr, size, misses);                       \
         return;                                                           \
      }                                                                    \
      if (cg_cache_ref_block_avx2(l1, first, G, 0))                        \
         cg_l1_missed(misses, addr, size);                                 \
   }                                                                       \
   static __attribute__((target("avx2"))) VG_REGPARM(1)                   \
   void cg_h_fetch_v##G(const CgSimInstr *i)                               \
   {                                                                       \
      cg_access_v##G(&cache_I1, i->addr, i->len, i->misses);               \
   }                                                                       \
   /* A fetch whose lines before its last are in way 0 (see                \
      cg_emit_fetch), called only when its last line is not: the          \
      reference that misses way 0 and nothing else. */                     \
   static __attribute__((target("avx2"))) VG_REGPARM(1)                   \
   void cg_h_fetch_last_v##G(const CgSimInstr *i)                          \
   {                                                                       \
      if (cg_ref_vector_avx2(cache_I1.tags + i->set_off,                   \
                             (i->addr + i->len - 1) >> cache_I1.line_bits, \
                             G))                                           \
         cg_l1_missed(i->misses, i->addr, i->len);                         \
   }                                                                       \
   CG_DATA_HELPERS(_v##G, __attribute__((target("avx2"))), cg_access_v##G)
CG_AVX2_HELPERS(1)
CG_AVX2_HELPERS(2)
CG_AVX2_HELPERS(3)
CG_AVX2_HELPERS(4)

/* Indexed by cg_cache_vector_groups (1 to 4). */
static const CgHelperSet cg_helpers_avx2[5] = {
   { 0, 0, { 0 } },
   CG_HELPER_SET(_v1, cg_h_fetch_last_v1),
   CG_HELPER_SET(_v2, cg_h_fetch_last_v2),
   CG_HELPER_SET(_v3, cg_h_fetch_last_v3),
   CG_HELPER_SET(_v4, cg_h_fetch_last_v4),
};
#endif

/* The helper sets the emitted code calls for I1 and for D1: chosen by
   cg_configure_caches (cg_helpers_for). */
const CgHelperSet *helpers_I1 = &cg_helpers_plain;
const CgHelperSet *helpers_D1 = &cg_helpers_plain;

static const CgHelperSet *cg_helpers_for(const struct cg_cache *c)
{
#ifdef CG_SIM_AVX2
   UInt groups = cg_cache_vector_groups(c);
   if (groups >= 1 && groups <= 4)
      return &cg_helpers_avx2[groups];
#endif
   return &cg_helpers_plain;
}

/* A guarded load or store, which may not happen: it counts itself
   (counts: &Dr or &Dw of the line, followed by its two miss counters). */
VG_REGPARM(3) void cg_h_data_guarded(ULong *counts, Addr ea,
                                            UWord size)
{
   counts[0]++;
   cg_access(&cache_D1, ea, (UChar)size, counts + 1);
}

/* No branch on the outcome: it is data to the host (see cg_branchpred.h). */
VG_REGPARM(2) void cg_h_cond_branch(const CgSimInstr *i, UWord taken)
{
   (*cg_sim_count(i))++;
   *i->misses += (ULong)cg_condpred_update_at(&cond_predictor, i->cond_index,
                                              (int)taken);
}

VG_REGPARM(2) void cg_h_ind_branch(const CgSimInstr *i, UWord target)
{
   (*cg_sim_count(i))++;
   *i->misses += (ULong)cg_indpred_predict_and_update(&ind_predictor,
                                                      i->addr, target);
}

/* cg_arch's message sink: one line per call. */
static void cg_print_arch_msg(void *ctx, enum cg_msg_level level,
                              const char *line)
{
   if (level == CG_MSG_USER)
      VG_(umsg)("%s\n", line);
   else
      VG_(dmsg)("%s\n", line);
}

enum cg_arch cg_guest_arch(void)
{
#if defined(VGA_amd64)
   return CG_ARCH_AMD64;
#elif defined(VGA_x86)
   return CG_ARCH_X86;
#else
#  error "cachegrind-ng supports amd64 and x86 guests"
#endif
}

/* Tag storage for I1 and D1 when it fits: in the tool's own data segment,
   whose low addresses let the emitted way-0 tests use short address forms
   (a 32-bit displacement instead of a 64-bit constant) -- smaller code in
   the translation cache.  Unused parts cost no memory. */
#define CG_STATIC_TAG_WORDS 16384
static uintptr_t static_tags_I1[CG_STATIC_TAG_WORDS];
static uintptr_t static_tags_D1[CG_STATIC_TAG_WORDS];

static void cg_init_cache(struct cg_cache *c, const struct cg_cache_config *cfg,
                          uintptr_t *static_tags, const HChar *cost_centre)
{
   SizeT bytes = cg_cache_tag_bytes(cfg);
   uintptr_t *tags = static_tags && bytes <= sizeof static_tags_I1
                     ? static_tags : VG_(malloc)(cost_centre, bytes);
   cg_cache_init(c, cfg, tags);
}

/* Fresh anonymous memory, all zero and committed only when touched; NULL
   if none can be had. */
static void *cg_zeroed_pages(SizeT bytes)
{
   return bytes ? VG_(am_shadow_alloc)(bytes) : NULL;
}

/* The LL's tags: in fresh zero pages, so that only the sets a program
   uses cost memory (the LL is often many megabytes), and on a 64-bit host
   as 32-bit block numbers, which hold every address below 2^(32 + line
   bits) -- all a client normally has.  An access beyond widens them
   (cg_widen_ll). */
static struct cg_cache_config ll_config;
static void *ll_compact_tags;

static void cg_init_ll(const struct cg_cache_config *cfg)
{
   ll_config = *cfg;
   if (sizeof(uintptr_t) > sizeof(uint32_t)) {
      ll_compact_tags = cg_zeroed_pages(cg_cache_tag_bytes32(cfg));
      if (ll_compact_tags) {
         cg_cache_init32_zeroed(&cache_LL, cfg, ll_compact_tags);
         return;
      }
   }
   uintptr_t *tags = cg_zeroed_pages(cg_cache_tag_bytes(cfg));
   if (tags)
      cg_cache_init_zeroed(&cache_LL, cfg, tags);
   else
      cg_init_cache(&cache_LL, cfg, NULL, "cg.sim.LL");
}

static void cg_widen_ll(void)
{
   SizeT bytes = cg_cache_tag_bytes(&ll_config);
   uintptr_t *tags = cg_zeroed_pages(bytes);
   if (!tags)
      tags = VG_(malloc)("cg.sim.LL", bytes);
   cg_cache_widen(&cache_LL, tags);
   VG_(am_munmap_valgrind)((Addr)ll_compact_tags,
                           cg_cache_tag_bytes32(&ll_config));
   ll_compact_tags = NULL;
}

/* Configures and creates the three caches (spec 7): auto-detection from the
   core's host information, defaults, options, validation. */
void cg_configure_caches(const struct cg_config *cfg)
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
                              &cfg->LL, VG_(clo_verbosity), cg_print_arch_msg,
                              NULL, &I1, &D1, &LL);
   VG_(free)(hw);
   if (ok != 0
       || cg_arch_check_min_line_size(&I1, &D1, &LL,
                                      VG_(machine_get_size_of_largest_guest_register)(),
                                      cg_print_arch_msg, NULL) != 0)
      VG_(exit)(1);

   min_line_size = I1.line_size;
   if (D1.line_size < min_line_size)
      min_line_size = D1.line_size;
   if (LL.line_size < min_line_size)
      min_line_size = LL.line_size;
   cg_init_cache(&cache_I1, &I1, static_tags_I1, "cg.sim.I1");
   cg_init_cache(&cache_D1, &D1, static_tags_D1, "cg.sim.D1");
   cg_init_ll(&LL);
   helpers_I1 = cg_helpers_for(&cache_I1);
   helpers_D1 = cg_helpers_for(&cache_D1);
   desc_I1 = cache_I1.desc;
   desc_D1 = cache_D1.desc;
   desc_LL = cache_LL.desc;
}
