/* cg_sim.c -- the I1/D1/LL cache model: set-up and the rare paths.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

/* Notes
   -----
   The model, which every count Cachegrind prints rests on (the user's
   version: docs/manual/simulation.md):

   - Three caches, I1 and D1 (split first level) and LL (unified last
     level), each a struct cg_cache passed explicitly; nothing is global.
   - Geometry: sets = size / line_size / assoc, a power of two (validation
     in cg_arch.c guarantees it; size itself need not be one, e.g.
     24576 B / 6-way / 64 B lines = 64 sets).  A block number is
     addr >> log2(line_size); the set index is its low bits (block &
     (sets - 1)); the tag stored is the whole block number.
   - Replacement is LRU with the most recently used block in way 0.  A hit
     in way 0 changes nothing; a hit in way i moves the block to way 0 and
     ways 0 .. i-1 down by one; a miss drops the last way and puts the new
     block in way 0.
   - All tags start at 0, so block 0 is "present" in every way of set 0 at
     start-up.  Upstream behaves the same and counts must match it exactly,
     so there is no valid bit.
   - Write-allocate, no dirty state: a write is simulated exactly as a read.
   - An access (addr, size) covers the blocks from addr >> bits to
     (addr + size - 1) >> bits.  If those are two blocks, both are
     referenced (the second one even when the first missed, so both end up
     in way 0) and the access counts once: a miss if either missed.  More
     than two blocks (an access of 0 bytes at a line start, or one longer
     than a line plus one byte) is a bug or an unsupported corner and
     panics through cg_host_straddle_panic.
   - LL is consulted only on an L1 miss, with the same (addr, size); LL
     never invalidates L1 lines it evicts.

   The hot paths are static inline in cg_sim.h.  This file holds what runs
   once per cache (set-up) or rarely (accesses straddling lines), so that
   the inline single-line path stays small, and the vector versions of a
   reference that misses way 0, which need their own instruction set. */

#include "cg_sim.h"

/* ---- Vector references -------------------------------------------------

   On an x86-64 host with AVX2, a reference that misses way 0 of a set of
   4, 8, 12 or 16 full-width tags is done without a data-dependent branch:
   compare all ways at once, take the first match (or the last way on a
   miss) as the position p, and rebuild the set as
      new[0] = block,  new[i] = old[i - 1] for 1 <= i <= p,
      new[i] = old[i] for i > p,
   four ways to a register.  The scalar scan exits at a position the host
   cannot predict (on sqlite, a third of such references hit way 1, the
   rest are spread over the others), which costs more than the whole
   vector version.  The code (cg_ref_vector_avx2, in cg_sim.h so that
   helpers compiled for AVX2 can inline it) is compiled for AVX2 only
   inside these functions and chosen at run time, so the tool still runs
   on any x86-64 host.  Compact tags have their own version, eight ways to
   a register, for every multiple of 4 ways up to 32
   (cg_ref_vector32_avx2): the LL's references, one per first-level miss,
   hit deep in their set as often as not. */

#ifdef CG_SIM_AVX2
#define CG_REF_VECTOR(n)                                                    \
   static __attribute__((target("avx2")))                                  \
   int cg_ref_vector##n(uintptr_t *set, uintptr_t block)                   \
   {                                                                        \
      return cg_ref_vector_avx2(set, block, n / 4);                         \
   }
CG_REF_VECTOR(4)
CG_REF_VECTOR(8)
CG_REF_VECTOR(12)
CG_REF_VECTOR(16)

/* Compact tags, eight to a register: every multiple of 4 ways up to 32. */
#define CG_REF_VECTOR32(n)                                                  \
   static __attribute__((target("avx2")))                                  \
   int cg_ref_vector32_##n(uint32_t *set, uint32_t block)                  \
   {                                                                        \
      return cg_ref_vector32_avx2(set, block, (n + 7) / 8, n);              \
   }
CG_REF_VECTOR32(4)
CG_REF_VECTOR32(8)
CG_REF_VECTOR32(12)
CG_REF_VECTOR32(16)
CG_REF_VECTOR32(20)
CG_REF_VECTOR32(24)
CG_REF_VECTOR32(28)
CG_REF_VECTOR32(32)

/* 1 if the host runs AVX2 code (the CPU has it and the kernel saves its
   registers), 0 if not; asked once. */
static int cg_host_has_avx2(void)
{
   static int known = -1;

   if (known < 0) {
      __builtin_cpu_init();
      known = __builtin_cpu_supports("avx2") ? 1 : 0;
   }
   return known;
}
#endif

uint32_t cg_cache_vector_ways(const struct cg_cache *c)
{
   return c->ref_vector != 0 || c->ref_vector32 != 0 ? (uint32_t)c->assoc
                                                      : 0;
}

int cg_cache_use_vector(struct cg_cache *c, int enable)
{
   c->ref_vector = 0;
   c->ref_vector32 = 0;
#ifdef CG_SIM_AVX2
   if (enable && c->tags != 0 && cg_host_has_avx2()) {
      switch (c->assoc) {
      case 4: c->ref_vector = cg_ref_vector4; break;
      case 8: c->ref_vector = cg_ref_vector8; break;
      case 12: c->ref_vector = cg_ref_vector12; break;
      case 16: c->ref_vector = cg_ref_vector16; break;
      default: break;
      }
   }
   if (enable && c->tags32 != 0 && cg_host_has_avx2()) {
      switch (c->assoc) {
      case 4: c->ref_vector32 = cg_ref_vector32_4; break;
      case 8: c->ref_vector32 = cg_ref_vector32_8; break;
      case 12: c->ref_vector32 = cg_ref_vector32_12; break;
      case 16: c->ref_vector32 = cg_ref_vector32_16; break;
      case 20: c->ref_vector32 = cg_ref_vector32_20; break;
      case 24: c->ref_vector32 = cg_ref_vector32_24; break;
      case 28: c->ref_vector32 = cg_ref_vector32_28; break;
      case 32: c->ref_vector32 = cg_ref_vector32_32; break;
      default: break;
      }
   }
#else
   (void)enable;
#endif
   return c->ref_vector != 0 || c->ref_vector32 != 0;
}

/* log2 of a power of two. */
static uint32_t cg_log2(uint32_t x)
{
   uint32_t bits = 0;

   while (x > 1) {
      x >>= 1;
      bits++;
   }
   return bits;
}

size_t cg_cache_tag_bytes(const struct cg_cache_config *cfg)
{
   uint32_t lines;

   if (cfg->size <= 0 || cfg->assoc <= 0 || cfg->line_size <= 0)
      return 0;
   /* sets * assoc is the number of lines; with the set count exact
      (validated) that is size / line_size. */
   lines = (uint32_t)cfg->size / (uint32_t)cfg->line_size
           / (uint32_t)cfg->assoc * (uint32_t)cfg->assoc;
   return (size_t)lines * sizeof(uintptr_t);
}

/* The geometry fields, and compact tags of a plain layout (the caller
   sets the tags and changes what differs). */
static void cg_cache_set_geometry(struct cg_cache *c,
                                  const struct cg_cache_config *cfg)
{
   size_t n = cg_cache_tag_bytes(cfg) / sizeof(uintptr_t);

   c->size = cfg->size;
   c->assoc = cfg->assoc;
   c->line_size = cfg->line_size;
   c->sets = n != 0 ? (uint32_t)n / (uint32_t)cfg->assoc : 0;
   c->sets_min_1 = c->sets - 1;
   c->line_bits = cg_log2((uint32_t)cfg->line_size);
   c->stride32 = (uint32_t)cfg->assoc;
   c->way0 = 0;
   c->way0_stride = 0;
   c->compact_end = (uint64_t)1 << 32;
}

void cg_cache_init_zeroed(struct cg_cache *c,
                          const struct cg_cache_config *cfg,
                          uintptr_t *zeroed_storage)
{
   cg_cache_set_geometry(c, cfg);
   c->tags = zeroed_storage;
   c->tags32 = 0;
   c->way0 = zeroed_storage;
   c->way0_stride = (uint32_t)cfg->assoc;
   c->compact_end = 0;
   cg_cache_use_vector(c, 1);
}

void cg_cache_init(struct cg_cache *c, const struct cg_cache_config *cfg,
                   uintptr_t *tag_storage)
{
   size_t i, n = cg_cache_tag_bytes(cfg) / sizeof(uintptr_t);

   for (i = 0; i < n; i++)
      tag_storage[i] = 0;
   cg_cache_init_zeroed(c, cfg, tag_storage);
}

size_t cg_cache_tag_bytes32(const struct cg_cache_config *cfg)
{
   size_t n = cg_cache_tag_bytes(cfg) / sizeof(uintptr_t);

   return n != 0 ? n * sizeof(uint32_t) + CG_TAGS32_SLACK : 0;
}

void cg_cache_init32_zeroed(struct cg_cache *c,
                            const struct cg_cache_config *cfg,
                            uint32_t *zeroed_storage)
{
   cg_cache_set_geometry(c, cfg);
   c->tags = 0;
   c->tags32 = zeroed_storage;
   cg_cache_use_vector(c, 1);
}

size_t cg_cache_tag_bytes_l1(const struct cg_cache_config *cfg)
{
   size_t n = cg_cache_tag_bytes(cfg) / sizeof(uintptr_t);

   return n != 0 ? n / (uint32_t)cfg->assoc * CG_L1_SET_BYTES(cfg->assoc)
                 : 0;
}

void cg_cache_init_l1(struct cg_cache *c, const struct cg_cache_config *cfg,
                      void *storage)
{
   size_t i, n = cg_cache_tag_bytes_l1(cfg) / sizeof(uintptr_t);

   for (i = 0; i < n; i++)
      ((uintptr_t *)storage)[i] = 0;
   cg_cache_set_geometry(c, cfg);
   c->tags = 0;
   c->tags32 = storage;
   c->stride32 = CG_L1_SET_BYTES(cfg->assoc) / 4;
   c->way0 = (uintptr_t *)((char *)storage + CG_L1_WAY0_AT(cfg->assoc));
   c->way0_stride = CG_L1_SET_BYTES(cfg->assoc) / sizeof(uintptr_t);
   cg_cache_use_vector(c, 1);
}

void cg_cache_widen(struct cg_cache *c, uintptr_t *storage)
{
   uint32_t s, w, assoc = (uint32_t)c->assoc;

   for (s = 0; s < c->sets; s++)
      for (w = 0; w < assoc; w++)
         storage[(size_t)s * assoc + w] = c->tags32[(size_t)s * c->stride32
                                                    + w];
   c->tags = storage;
   c->tags32 = 0;
   c->compact_end = 0;
   cg_cache_use_vector(c, 1);
}

int cg_cache_ref_straddle32(struct cg_cache *c, cg_addr_t addr, uint8_t size,
                            cg_addr_t first_block, cg_addr_t last_block)
{
   int miss_first, miss_last;

   if (last_block != first_block + 1)
      cg_host_straddle_panic(addr, size, first_block, last_block);
   /* Both must fit before either is referenced: CG_CACHE_WIDEN means
      "nothing happened". */
   if (first_block != (uint32_t)first_block
       || last_block != (uint32_t)last_block)
      return CG_CACHE_WIDEN;
   miss_first = cg_cache_ref_block32(c, (uint32_t)first_block);
   miss_last = cg_cache_ref_block32(c, (uint32_t)last_block);
   return miss_first | miss_last;
}

int cg_cache_ref_straddle(struct cg_cache *c, cg_addr_t addr, uint8_t size,
                          cg_addr_t first_block, cg_addr_t last_block)
{
   int miss_first, miss_last;

   if (last_block != first_block + 1)
      cg_host_straddle_panic(addr, size, first_block, last_block);
   /* Two separate statements: the second reference must happen even when
      the first one already decided the result. */
   miss_first = cg_cache_ref_block(c, first_block);
   miss_last = cg_cache_ref_block(c, last_block);
   return miss_first | miss_last;
}
