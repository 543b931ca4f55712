/* cg_sims_avx2.c -- the AVX2 variants of the fetch and data helpers (x86-64 hosts).
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The same helpers as the scalar variant (cg_sims.c), compiled for AVX2,
   one variant for each associativity that has an AVX2 reference (4 * G
   ways, G = 1 to 4), with that reference (cg_ref_vector_avx2, cg_sim.h)
   inline instead of behind the cache's function pointer.  Their common
   path (a reference that hits, in any way) makes no call and saves no
   registers: the rare paths are out of line (cg_l1_missed,
   cg_access_straddle).  cg_sims_init picks the variant of a cache's
   associativity only when the cache uses the AVX2 reference
   (cg_cache_vector_groups), so only hosts with AVX2 ever run them.

   Only the helpers are compiled for AVX2 (function attributes), so the
   tool still runs on any x86-64 host.  Elsewhere this file is empty. */

#include "pub_tool_basics.h"

#include "cg_sim.h"
#include "cg_sims.h"

#ifdef CG_SIM_AVX2

#define CG_AVX2 __attribute__((target("avx2")))

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

/* The variant for G groups of four ways: an access, a fetch, a fetch whose
   lines before its last are in way 0 (see cg_emit_fetch), called only when
   its last line is not -- the reference that misses way 0 and nothing
   else -- and the data helpers of the common sizes. */
#define CG_AVX2_VARIANT(G)                                                 \
   static inline __attribute__((always_inline)) CG_AVX2                   \
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
   static CG_AVX2 VG_REGPARM(1) void cg_h_fetch_v##G(const CgSimInstr *i)  \
   {                                                                       \
      cg_access_v##G(&cg_sims.I1, i->addr, i->len, i->misses);             \
   }                                                                       \
   static CG_AVX2 VG_REGPARM(1)                                            \
   void cg_h_fetch_last_v##G(const CgSimInstr *i)                          \
   {                                                                       \
      if (cg_ref_vector_avx2(cg_sims.I1.tags + i->set_off,                 \
                             (i->addr + i->len - 1)                        \
                             >> cg_sims.I1.line_bits, G))                  \
         cg_l1_missed(i->misses, i->addr, i->len);                         \
   }                                                                       \
   CG_AVX2_DATA_HELPER(G, 1)                                               \
   CG_AVX2_DATA_HELPER(G, 2)                                               \
   CG_AVX2_DATA_HELPER(G, 4)                                               \
   CG_AVX2_DATA_HELPER(G, 8)                                               \
   CG_AVX2_DATA_HELPER(G, 16)                                              \
   CG_AVX2_DATA_HELPER(G, 32)

#define CG_AVX2_DATA_HELPER(G, n)                                          \
   static CG_AVX2 VG_REGPARM(2)                                            \
   void cg_h_data##n##_v##G(Addr ea, ULong *misses)                        \
   {                                                                       \
      cg_access_v##G(&cg_sims.D1, ea, n, misses);                          \
   }

#define CG_AVX2_SET(G)                                                     \
   { cg_h_fetch_v##G, cg_h_fetch_last_v##G,                                \
     { cg_h_data1_v##G, cg_h_data2_v##G, cg_h_data4_v##G,                  \
       cg_h_data8_v##G, cg_h_data16_v##G, cg_h_data32_v##G } }

CG_AVX2_VARIANT(1)
CG_AVX2_VARIANT(2)
CG_AVX2_VARIANT(3)
CG_AVX2_VARIANT(4)

/* Read-only, indexed by the number of groups of four ways (cg_sims.h). */
const struct cg_helper_set cg_helpers_avx2[5] = {
   { 0, 0, { 0 } },
   CG_AVX2_SET(1),
   CG_AVX2_SET(2),
   CG_AVX2_SET(3),
   CG_AVX2_SET(4),
};

#endif /* CG_SIM_AVX2 */
