/* cg_sim.h -- the I1/D1/LL cache model: one struct per cache, inline lookups.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Plain C with no Valgrind or libc dependency: only compiler headers are
   included, nothing is allocated and nothing is printed.  The same code is
   compiled into the tool and into the host unit tests.  The model itself is
   described in the Notes block at the top of cg_sim.c.

   Ownership: a struct cg_cache belongs to its caller, and so does its tag
   storage, which the caller obtains (cg_cache_tag_bytes bytes) and keeps
   alive as long as the cache is used.  Nothing here frees anything.

   Notes
   -----
   The tag layout.  The tool's emitted code tests for a hit in way 0
   without calling into this module (cg_irgen.c), and its AVX2 helpers
   find a set and its way-0 copy with constants (cg_sims_avx2.c), so the
   layout of the tags is a contract, not an internal detail:

   - The set of an address is its block number (addr >> line_bits) masked
     with sets_min_1, and the tag stored is the whole block number.  So a
     block number compares directly with a tag, and two consecutive blocks
     never share a set unless sets is 1.  Way 0 of a set holds the most
     recently used block.
   - All tags start at 0 (there is no valid bit).
   - A reference that finds its block in way 0 changes nothing: skipping
     it, and counting a hit, gives exactly the same results.
   - Tags are kept in one of three ways.  Full-width (cg_cache_init,
     cg_cache_init_zeroed): c->tags, sets * assoc host words, set s at
     tags[s * assoc] (cg_cache_set_offset).  Compact (cg_cache_init32_zeroed;
     the tool's LL): c->tags32, 32-bit block numbers, set s at
     tags32[s * assoc].  First-level (cg_cache_init_l1; the tool's I1 and
     D1): compact tags in sets of CG_L1_SET_BYTES(assoc) bytes, a power of
     two, set s at tags32[s * stride32] (cg_cache_set_offset32), and in
     each set, at byte CG_L1_WAY0_AT(assoc), a host word holding a copy of
     way 0's block number: the *way-0 copy*, kept up to date by every
     reference.
   - The emitted way-0 tests read only the way-0 copies: set s's is
     c->way0[s * c->way0_stride] (cg_cache_way0_offset), a whole block
     number however the tags are kept, and compare it with a block number.
     A full-width cache's way-0 copy is its way 0 itself (way0 is tags,
     way0_stride assoc); a compact cache (the LL) has none (way0 NULL).
   - c->way0, c->way0_stride and the geometry fields (line_size,
     line_bits, assoc, sets, sets_min_1) do not change after set-up, so
     code may hold their values and the addresses of way-0 copies as
     constants.  A first-level or compact cache moves to full-width tags
     (cg_cache_widen) when a block number needs more than 32 bits; a
     first-level cache keeps its way-0 copies where they were, in its
     compact storage, which then stays in use.  c->compact_end tells
     callers that keep the tags' layout in their own code when to leave
     it to this module: the first block number the compact tags cannot
     take (2^32), or 0 once the cache is widened. */

#ifndef CG_SIM_H
#define CG_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "cg_host.h"


/* A cache geometry as given by --I1/--D1/--LL or found by auto-detection.
   All three fields -1 means "not given on the command line". */
struct cg_cache_config {
   int32_t size;        /* total bytes */
   int32_t assoc;       /* ways per set */
   int32_t line_size;   /* bytes per line */
};
#define CG_CACHE_UNSET { -1, -1, -1 }

/* One simulated cache (the layouts of its tags: the Notes above).  Within
   a set, way 0 is the most recently used.  The stored tag is the whole
   block number (addr >> line_bits), not just its part above the set
   index, so a tag never needs the set index to be rebuilt. */
struct cg_cache {
   int32_t size, assoc, line_size;   /* geometry as configured */
   uint32_t sets, sets_min_1, line_bits;
   uintptr_t *tags;                  /* full-width tags, or NULL */
   uint32_t *tags32;                 /* compact tags, or NULL */
   uint32_t stride32;                /* compact: tags from a set to the next */
   uint32_t way0_stride;             /* host words from a way-0 copy to the
                                        next */
   uintptr_t *way0;                  /* set 0's way-0 copy, or NULL */
   uint64_t compact_end;             /* 2^32 while compact, else 0 */
   /* When set, references that miss way 0 of a full-width set go here
      instead of the scalar loop: a vector version for this associativity
      (see cg_cache_use_vector).  Returns 1 on a miss, 0 on a hit. */
   int (*ref_vector)(uintptr_t *set, uintptr_t block);
   /* The same for a set of compact tags. */
   int (*ref_vector32)(uint32_t *set, uint32_t block);
};

/* Bytes of tag storage that cg_cache_init needs for cfg, that is
   sets * assoc * sizeof(uintptr_t).  cfg must have passed
   cg_arch_check_cache(); for a geometry with a non-positive field the
   result is 0. */
size_t cg_cache_tag_bytes(const struct cg_cache_config *cfg);

/* Sets c up for the validated geometry cfg.  tag_storage must point to
   cg_cache_tag_bytes(cfg) bytes, suitably aligned for uintptr_t; this
   function zeroes them (so the caller need not), and c keeps a pointer to
   them. */
void cg_cache_init(struct cg_cache *c, const struct cg_cache_config *cfg,
                   uintptr_t *tag_storage);

/* Like cg_cache_init, for storage the caller knows to be all zero (fresh
   anonymous memory): it is not written, so that the memory is only
   committed for the sets actually used. */
void cg_cache_init_zeroed(struct cg_cache *c,
                          const struct cg_cache_config *cfg,
                          uintptr_t *zeroed_storage);

/* Out-of-line part of cg_cache_ref for accesses that do not fit in one
   line: two lines are both referenced and count as one access; more than
   two go to cg_host_straddle_panic.  Returns 1 on a miss, 0 on a hit. */
int cg_cache_ref_straddle(struct cg_cache *c, cg_addr_t addr, uint8_t size,
                          cg_addr_t first_block, cg_addr_t last_block);

/* Where the set of block starts in c's full-width tags (in tags, not
   bytes). */
static inline size_t cg_cache_set_offset(const struct cg_cache *c,
                                         cg_addr_t block)
{
   return (size_t)(block & c->sets_min_1) * (uint32_t)c->assoc;
}

/* Where the set of block starts in c's compact tags (in tags). */
static inline size_t cg_cache_set_offset32(const struct cg_cache *c,
                                           cg_addr_t block)
{
   return (size_t)(block & c->sets_min_1) * c->stride32;
}

/* Where the way-0 copy of block's set is, from c->way0 (in host words). */
static inline size_t cg_cache_way0_offset(const struct cg_cache *c,
                                          cg_addr_t block)
{
   return (size_t)(block & c->sets_min_1) * c->way0_stride;
}

/* The first-level layout (see the Notes): bytes per set, a power of two
   with room for assoc compact tags and a host word (8 bytes kept for it,
   whatever the host), and where in a set that word is. */
#define CG_L1_WAY0_AT(assoc) ((4u * (uint32_t)(assoc) + 7u) & ~7u)
#define CG_L1_SET_BYTES(assoc) \
   (1u << (32 - __builtin_clz(CG_L1_WAY0_AT(assoc) + 7u)))

/* References one block in its set with LRU replacement.  Returns 1 on a
   miss, 0 on a hit.  A hit in way 0 changes nothing; any other outcome
   moves the block to way 0, pushing the ways before its old place (all
   ways on a miss, dropping the last one) down by one, and writes the
   block to the set's way-0 copy if the cache keeps one apart from its
   tags.  The scalar version shifts while scanning, so each way is read
   once; where the host has one and the cache has a vector version
   (vector, a function pointer of the cache), that runs instead.  Defined
   for full-width tags (cg_cache_ref_block) and compact ones
   (cg_cache_ref_block32, below). */
#define CG_DEFINE_REF_BLOCK(name, tag_t, tag_array, set_offset, vector)    \
   static inline int name(struct cg_cache *c, tag_t block)                  \
   {                                                                        \
      uint32_t assoc = (uint32_t)c->assoc;                                  \
      tag_t *set = c->tag_array + set_offset(c, block);                     \
      int miss = 1;                                                         \
                                                                            \
      if (__builtin_expect(set[0] == block, 1))                             \
         return 0;                                                          \
      if (c->vector != 0) {                                                 \
         miss = c->vector(set, block);                                      \
      } else {                                                              \
         tag_t moving = set[0];                                             \
         uint32_t i;                                                        \
         for (i = 1; i < assoc; i++) {                                      \
            tag_t here = set[i];                                            \
            set[i] = moving;                                                \
            if (here == block) {                                            \
               miss = 0;                                                    \
               break;                                                       \
            }                                                               \
            moving = here;                                                  \
         }                                                                  \
         set[0] = block;                                                    \
      }                                                                     \
      if (c->way0 != 0 && (void *)c->way0 != (void *)c->tags)               \
         c->way0[cg_cache_way0_offset(c, block)] = block;                   \
      return miss;                                                          \
   }
CG_DEFINE_REF_BLOCK(cg_cache_ref_block, uintptr_t, tags, cg_cache_set_offset,
                    ref_vector)

#if defined(__x86_64__) && defined(__GNUC__) && UINTPTR_MAX == UINT64_MAX
#include <immintrin.h>
#define CG_SIM_AVX2 1

/* The AVX2 reference to a set of 4 * groups full-width tags (the method
   is described in cg_sim.c).  Returns 1 on a miss, 0 on a hit.  Meant for
   references that missed way 0, but right for any: a block in way 0 is
   written back in place.  Only code compiled for AVX2 can inline it. */
static inline __attribute__((always_inline, target("avx2")))
int cg_ref_vector_avx2(uintptr_t *set, uintptr_t block, uint32_t groups)
{
   const __m256i b = _mm256_set1_epi64x((long long)block);
   const __m256i four = _mm256_set1_epi64x(4);
   __m256i old[4], prev, pos1, index;
   uint32_t match = 0, ways = 4 * groups, g;

   for (g = 0; g < groups; g++) {
      old[g] = _mm256_loadu_si256((const __m256i *)(set + 4 * g));
      match |= (uint32_t)_mm256_movemask_pd(
                  _mm256_castsi256_pd(_mm256_cmpeq_epi64(old[g], b)))
               << (4 * g);
   }
   /* p + 1, in every lane: way i takes its predecessor's tag iff i < p + 1. */
   pos1 = _mm256_set1_epi64x(
      (long long)__builtin_ctz(match | 1u << (ways - 1)) + 1);
   prev = b;                      /* the "predecessor" of way 0 */
   index = _mm256_setr_epi64x(0, 1, 2, 3);
   for (g = 0; g < groups; g++) {
      /* Ways 4g-1 .. 4g+2: the group moved down by one, its first lane
         from the last way of the previous group. */
      __m256i shifted = _mm256_blend_epi32(
         _mm256_permute4x64_epi64(old[g], _MM_SHUFFLE(2, 1, 0, 0)),
         _mm256_permute4x64_epi64(prev, _MM_SHUFFLE(3, 3, 3, 3)), 0x03);
      __m256i take = _mm256_cmpgt_epi64(pos1, index);
      _mm256_storeu_si256((__m256i *)(set + 4 * g),
                          _mm256_blendv_epi8(old[g], shifted, take));
      prev = old[g];
      index = _mm256_add_epi64(index, four);
   }
   return match == 0;
}

/* The AVX2 reference to a set of ways compact tags, ways a multiple of 4
   from 4 to 32, in 8 * groups lanes (groups = (ways + 7) / 8): the same
   method as cg_ref_vector_avx2, eight ways to a register.  When ways is
   not a multiple of 8, the last register also holds the 4 tags that
   follow the set, which are read and written back unchanged: the set
   must be followed by 16 readable and writable bytes.  Returns 1 on a
   miss, 0 on a hit. */
static inline __attribute__((always_inline, target("avx2")))
int cg_ref_vector32_avx2(uint32_t *set, uint32_t block, uint32_t groups,
                         uint32_t ways)
{
   const __m256i b = _mm256_set1_epi32((int)block);
   const __m256i eight = _mm256_set1_epi32(8);
   /* Lane i takes lane i - 1, lane 0 lane 7 (replaced below). */
   const __m256i up = _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6);
   __m256i old[4], rotated[4], pos1, index;
   uint32_t match = 0, g;

   for (g = 0; g < groups; g++) {
      old[g] = _mm256_loadu_si256((const __m256i *)(set + 8 * g));
      match |= (uint32_t)_mm256_movemask_ps(
                  _mm256_castsi256_ps(_mm256_cmpeq_epi32(old[g], b)))
               << (8 * g);
   }
   if (ways != 8 * groups)
      match &= (1u << ways) - 1;     /* not the tags after the set */
   /* p + 1, in every lane: way i takes its predecessor's tag iff i < p + 1. */
   pos1 = _mm256_set1_epi32(
      (int)__builtin_ctz(match | 1u << (ways - 1)) + 1);
   index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
   for (g = 0; g < groups; g++) {
      /* Ways 8g-1 .. 8g+6: the group moved down by one, its first lane
         from the last way of the previous group, or the block. */
      __m256i shifted;
      rotated[g] = _mm256_permutevar8x32_epi32(old[g], up);
      shifted = _mm256_blend_epi32(rotated[g], g == 0 ? b : rotated[g - 1],
                                   0x01);
      __m256i take = _mm256_cmpgt_epi32(pos1, index);
      _mm256_storeu_si256((__m256i *)(set + 8 * g),
                          _mm256_blendv_epi8(old[g], shifted, take));
      index = _mm256_add_epi32(index, eight);
   }
   return match == 0;
}

/* The reference of block, below c->compact_end, in a first-level cache of
   ways ways (a constant: 4, 8, 12 or 16) whose compact tags use the
   vector reference (cg_cache_vector_ways(c) == ways), with that reference
   inline and the set and its way-0 copy found with constants: for callers
   compiled for AVX2 themselves, which only run where the host has it.
   The same result and the same tags as cg_cache_ref_block32. */
static inline __attribute__((always_inline, target("avx2")))
int cg_cache_ref_l1_avx2(struct cg_cache *c, uint32_t block, uint32_t ways)
{
   uint32_t *set = c->tags32 + (size_t)(block & c->sets_min_1)
                               * (CG_L1_SET_BYTES(ways) / 4);
   int miss = cg_ref_vector32_avx2(set, block, (ways + 7) / 8, ways);

   *(uintptr_t *)((char *)set + CG_L1_WAY0_AT(ways)) = block;
   return miss;
}

/* The reference of block, below c->compact_end, in a compact cache (the
   LL: no way-0 copies) of ways ways (a constant, a multiple of 4 up to 32)
   that uses the vector reference (cg_cache_vector_ways(c) == ways): a hit
   in way 0 returns at once, anything else goes to the vector reference
   inline, with the set found by a constant stride.  The same result and
   the same tags as cg_cache_ref_block32; for callers compiled for AVX2. */
static inline __attribute__((always_inline, target("avx2")))
int cg_cache_ref_compact_avx2(struct cg_cache *c, uint32_t block,
                              uint32_t ways)
{
   uint32_t *set = c->tags32 + (size_t)(block & c->sets_min_1) * ways;

   if (__builtin_expect(set[0] == block, 1))
      return 0;
   return cg_ref_vector32_avx2(set, block, (ways + 7) / 8, ways);
}
#endif

/* c->assoc if c uses a vector reference for its kind of tags, else 0. */
uint32_t cg_cache_vector_ways(const struct cg_cache *c);

/* Whether the host can run a vector version of the reference for caches
   of assoc ways with c's kind of tags (full-width: ref_vector, compact:
   ref_vector32); if so, and if enable is non-zero, c uses it from now on
   (enable 0 goes back to the scalar loop).  Returns whether c now uses
   one.  Both versions give identical results and leave identical
   tags: the vector one only avoids the scan's unpredictable exit, which
   dominates the cost of a reference that misses way 0.  The init
   functions call this with enable 1; the unit tests compare both. */
int cg_cache_use_vector(struct cg_cache *c, int enable);

/* One access of size bytes at addr (reads and writes alike: the model is
   write-allocate).  Returns 1 on a miss, 0 on a hit.  size is a byte, as
   upstream: an access of 0 bytes covers the line of addr - 1 as its last
   line.  A single-line access pays one compare for the straddle check. */
static inline int cg_cache_ref(struct cg_cache *c, cg_addr_t addr,
                               uint8_t size)
{
   cg_addr_t first = addr >> c->line_bits;
   cg_addr_t last = (addr + size - 1) >> c->line_bits;

   if (__builtin_expect(first == last, 1))
      return cg_cache_ref_block(c, first);
   return cg_cache_ref_straddle(c, addr, size, first, last);
}

/* ---- Compact tags ------------------------------------------------------

   A cache can keep its tags as 32-bit block numbers: half the memory on a
   64-bit host (the LL), and twice as many ways to a vector register (the
   first-level caches).  The model is the same as long as every block
   number fits in 32 bits, which the functions below check on every
   access: one that does not fit changes nothing and returns
   CG_CACHE_WIDEN; the caller then moves the cache to full-width tags with
   cg_cache_widen and repeats the access with cg_cache_ref.  While compact,
   c->tags is NULL; only cg_cache_ref32 may be used. */

#define CG_CACHE_WIDEN (-1)

/* Bytes of compact tag storage for cfg: sets * assoc * 4, and
   CG_TAGS32_SLACK bytes after them, which the vector reference of an
   associativity that is not a multiple of 8 reads and writes back
   unchanged (see cg_ref_vector32_avx2). */
#define CG_TAGS32_SLACK 32
size_t cg_cache_tag_bytes32(const struct cg_cache_config *cfg);

/* Sets c up with compact tags in zeroed_storage (cg_cache_tag_bytes32(cfg)
   bytes), which must already be all zero: it is not written here, so that
   fresh anonymous memory is only committed for the sets actually used. */
void cg_cache_init32_zeroed(struct cg_cache *c,
                            const struct cg_cache_config *cfg,
                            uint32_t *zeroed_storage);

/* Bytes of a first-level cache's storage (compact tags and way-0 copies,
   in sets of CG_L1_SET_BYTES(assoc) bytes) for cfg. */
size_t cg_cache_tag_bytes_l1(const struct cg_cache_config *cfg);

/* Sets c up as a first-level cache (compact tags with way-0 copies) in
   storage (cg_cache_tag_bytes_l1(cfg) bytes, aligned for a host word),
   which this function zeroes. */
void cg_cache_init_l1(struct cg_cache *c, const struct cg_cache_config *cfg,
                      void *storage);

/* Moves c from compact to full-width tags, copying them into storage
   (cg_cache_tag_bytes(cfg) bytes).  A compact cache's storage is no longer
   used (the caller frees it); a first-level cache's keeps its way-0
   copies and stays in use. */
void cg_cache_widen(struct cg_cache *c, uintptr_t *storage);

/* cg_cache_ref_block for compact tags; block fits in 32 bits. */
CG_DEFINE_REF_BLOCK(cg_cache_ref_block32, uint32_t, tags32,
                    cg_cache_set_offset32, ref_vector32)

/* Out-of-line part of cg_cache_ref32 for two-line accesses. */
int cg_cache_ref_straddle32(struct cg_cache *c, cg_addr_t addr, uint8_t size,
                            cg_addr_t first_block, cg_addr_t last_block);

/* cg_cache_ref for compact tags: 1 on a miss, 0 on a hit, or
   CG_CACHE_WIDEN (and no change) if a block number needs more than 32
   bits. */
static inline int cg_cache_ref32(struct cg_cache *c, cg_addr_t addr,
                                 uint8_t size)
{
   cg_addr_t first = addr >> c->line_bits;
   cg_addr_t last = (addr + size - 1) >> c->line_bits;

   if (__builtin_expect(first == last, 1)) {
      if (__builtin_expect(first != (uint32_t)first, 0))
         return CG_CACHE_WIDEN;
      return cg_cache_ref_block32(c, (uint32_t)first);
   }
   return cg_cache_ref_straddle32(c, addr, size, first, last);
}

/* Whether a reference to c with compact tags (c->tags32 set: the LL;
   the emitted tests of first-level caches read their way-0 copies) of
   size bytes at addr lies in one line held in way 0 of its set: then
   cg_cache_ref32 would return 0 and change nothing, and may be skipped.
   0 for anything else, including a block beyond 32 bits. */
static inline int cg_cache_way0_hit32(const struct cg_cache *c,
                                      cg_addr_t addr, uint8_t size)
{
   cg_addr_t first = addr >> c->line_bits;
   cg_addr_t last = (addr + size - 1) >> c->line_bits;

   return first == last && first == (uint32_t)first
          && c->tags32[cg_cache_set_offset32(c, first)] == (uint32_t)first;
}

#endif /* CG_SIM_H */
