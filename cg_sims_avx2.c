/* cg_sims_avx2.c -- the AVX2 variants of the fetch and data helpers (x86-64 hosts).
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The same helpers as the scalar variant (cg_sims.c), compiled for AVX2,
   one variant for each associativity that has one (W = 4, 8, 12 or 16
   ways), with the vector reference of compact tags inline
   (cg_cache_ref_l1_avx2, cg_sim.h) instead of behind the cache's function
   pointer, and the first-level layout's set size a constant.  Their common
   path (a one-line reference that hits, in any way) makes no call and
   saves no registers: the rare paths are out of line (cg_l1_missed for a
   miss; cg_l1_access for two-line accesses and block numbers beyond the
   compact tags, which also widens them).  cg_sims_init picks the variant
   of a cache's associativity only when the cache uses the AVX2 reference
   (cg_cache_vector_ways), so only hosts with AVX2 ever run them.

   A first-level miss goes on through cg_sims.l1_missed: where the LL's
   compact tags use the AVX2 reference too, the version of cg_l1_missed
   for its associativity (4 to 32 ways), which finds the LL's set with a
   constant stride and references it with the vector code inline, instead
   of cg_l1_missed's generic path (cg_ll_ref: a stack frame, the checks of
   cg_cache_ref32 again, the reference behind a function pointer).

   Only the helpers are compiled for AVX2 (function attributes), so the
   tool still runs on any x86-64 host.  Elsewhere this file is empty. */

#include "pub_tool_basics.h"

#include "cg_sim.h"
#include "cg_sims.h"

#ifdef CG_SIM_AVX2

#define CG_AVX2 __attribute__((target("avx2")))

/* The variant for W ways: an access, a fetch, a fetch whose lines before
   its last are in way 0 (see cg_emit_fetch), called only when its last
   line is not -- the reference that misses way 0 and nothing else -- and
   the data helpers of the common sizes. */
#define CG_AVX2_VARIANT(W)                                                 \
   static inline __attribute__((always_inline)) CG_AVX2                   \
   void cg_access_v##W(struct cg_cache *l1, Addr addr, UChar size,         \
                       ULong *misses)                                      \
   {                                                                       \
      Addr first = addr >> l1->line_bits;                                  \
      if (__builtin_expect(first != (addr + size - 1) >> l1->line_bits     \
                           || first >= l1->compact_end, 0)) {              \
         cg_l1_access(l1, addr, size, misses);                             \
         return;                                                           \
      }                                                                    \
      if (cg_cache_ref_l1_avx2(l1, (UInt)first, W))                        \
         cg_sims.l1_missed(misses, addr, size);                            \
   }                                                                       \
   static CG_AVX2 VG_REGPARM(1) void cg_h_fetch_v##W(const CgSimInstr *i)  \
   {                                                                       \
      cg_access_v##W(&cg_sims.I1, i->addr, i->len, i->misses);             \
   }                                                                       \
   static CG_AVX2 VG_REGPARM(1)                                            \
   void cg_h_fetch_last_v##W(const CgSimInstr *i)                          \
   {                                                                       \
      if (__builtin_expect(i->last_block >= cg_sims.I1.compact_end, 0))    \
         cg_l1_access(&cg_sims.I1, i->addr, i->len, i->misses);            \
      else if (cg_cache_ref_l1_avx2(&cg_sims.I1, i->last_block, W))        \
         cg_sims.l1_missed(i->misses, i->addr, i->len);                    \
   }                                                                       \
   static CG_AVX2 VG_REGPARM(1)                                            \
   void cg_h_fetch_packed_v##W(UWord packed)                               \
   {                                                                       \
      UInt block = (UInt)packed;                                           \
      if (__builtin_expect(block >= cg_sims.I1.compact_end, 0)) {          \
         const CgSimInstr *i = cg_fetch_unpack(packed);                    \
         cg_l1_access(&cg_sims.I1, i->addr, i->len, i->misses);            \
      } else if (cg_cache_ref_l1_avx2(&cg_sims.I1, block, W)) {            \
         const CgSimInstr *i = cg_fetch_unpack(packed);                    \
         cg_sims.l1_missed(i->misses, i->addr, i->len);                    \
      }                                                                    \
   }                                                                       \
   CG_AVX2_DATA_HELPER(W, 1)                                               \
   CG_AVX2_DATA_HELPER(W, 2)                                               \
   CG_AVX2_DATA_HELPER(W, 4)                                               \
   CG_AVX2_DATA_HELPER(W, 8)                                               \
   CG_AVX2_DATA_HELPER(W, 16)                                              \
   CG_AVX2_DATA_HELPER(W, 32)

#define CG_AVX2_DATA_HELPER(W, n)                                          \
   static CG_AVX2 VG_REGPARM(2)                                            \
   void cg_h_data##n##_v##W(Addr ea, ULong *misses)                        \
   {                                                                       \
      cg_access_v##W(&cg_sims.D1, ea, n, misses);                          \
   }

#define CG_AVX2_SET(W)                                                     \
   { cg_h_fetch_v##W, cg_h_fetch_last_v##W, cg_h_fetch_packed_v##W,        \
     { cg_h_data1_v##W, cg_h_data2_v##W, cg_h_data4_v##W,                  \
       cg_h_data8_v##W, cg_h_data16_v##W, cg_h_data32_v##W } }

CG_AVX2_VARIANT(4)
CG_AVX2_VARIANT(8)
CG_AVX2_VARIANT(12)
CG_AVX2_VARIANT(16)

/* cg_l1_missed for an LL of W ways (cg_sims.h): a one-line reference
   within the compact tags goes to the LL's set here, anything else to
   cg_ll_ref, which then does what cg_l1_missed would have done. */
#define CG_AVX2_L1_MISSED(W)                                               \
   static CG_AVX2 VG_REGPARM(3)                                            \
   void cg_l1_missed_ll##W(ULong *misses, Addr addr, UChar size)           \
   {                                                                       \
      struct cg_cache *ll = &cg_sims.LL;                                   \
      Addr first = addr >> ll->line_bits;                                  \
      misses[0]++;                                                         \
      if (__builtin_expect(first == (addr + size - 1) >> ll->line_bits     \
                           && first < ll->compact_end, 1)) {               \
         misses[1] += (ULong)cg_cache_ref_compact_avx2(ll, (UInt)first, W);\
         return;                                                           \
      }                                                                    \
      cg_ll_ref(misses, addr, size);                                       \
   }

CG_AVX2_L1_MISSED(4)
CG_AVX2_L1_MISSED(8)
CG_AVX2_L1_MISSED(12)
CG_AVX2_L1_MISSED(16)
CG_AVX2_L1_MISSED(20)
CG_AVX2_L1_MISSED(24)
CG_AVX2_L1_MISSED(28)
CG_AVX2_L1_MISSED(32)

VG_REGPARM(3) void (*const cg_l1_missed_avx2[9])(ULong *misses, Addr addr,
                                                 UChar size) = {
   0, cg_l1_missed_ll4, cg_l1_missed_ll8, cg_l1_missed_ll12,
   cg_l1_missed_ll16, cg_l1_missed_ll20, cg_l1_missed_ll24,
   cg_l1_missed_ll28, cg_l1_missed_ll32,
};

/* Read-only, indexed by the number of ways / 4 (cg_sims.h). */
const struct cg_helper_set cg_helpers_avx2[5] = {
   { 0, 0, 0, { 0 } },
   CG_AVX2_SET(4),
   CG_AVX2_SET(8),
   CG_AVX2_SET(12),
   CG_AVX2_SET(16),
};

#endif /* CG_SIM_AVX2 */
