/* test_sim.c -- trace tests of the cache model (cg_sim) plus a randomised reference check.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The trace tests pick addresses that land in one set, run an access
   sequence, and check after each access the hit or miss and the set's
   contents, drawn in a comment as [way 0 (MRU), way 1, ...] with blocks
   written as block numbers (addr >> line_bits).  The reference check runs
   millions of pseudo-random accesses through cg_cache_ref and through a
   deliberately different model (timestamps instead of a shifted MRU list,
   modulo instead of masks, a loop over the lines an access covers) and
   requires identical results and identical final contents. */

#include <setjmp.h>
#include <stdlib.h>

#include "cg_sim.h"
#include "unit_check.h"

/* ---- The host's panic (cg_host.h): accesses of more than two lines -------- */

static jmp_buf panic_jump;
static int panic_calls;
static cg_addr_t panic_addr, panic_first, panic_last;
static unsigned panic_size;

void cg_host_straddle_panic(cg_addr_t addr, unsigned size,
                            cg_addr_t first_block, cg_addr_t last_block)
{
   panic_calls++;
   panic_addr = addr;
   panic_size = size;
   panic_first = first_block;
   panic_last = last_block;
   longjmp(panic_jump, 1);
}

/* ---- Helpers --------------------------------------------------------------- */

/* Sets c up with tags in storage (which must be large enough). */
static void make_cache(struct cg_cache *c, uintptr_t *storage, size_t room,
                       int32_t size, int32_t assoc, int32_t line_size)
{
   struct cg_cache_config cfg = { size, assoc, line_size };

   if (cg_cache_tag_bytes(&cfg) > room * sizeof(uintptr_t)) {
      fprintf(stderr, "test_sim: tag storage too small\n");
      exit(2);
   }
   cg_cache_init(c, &cfg, storage);
}

/* Checks that set holds exactly the blocks in want (MRU first). */
static void check_set(const struct cg_cache *c, uint32_t set,
                      const uintptr_t *want, int line)
{
   const uintptr_t *tags = c->tags + (size_t)set * (uint32_t)c->assoc;
   int32_t w;

   for (w = 0; w < c->assoc; w++) {
      if (!unit_report(tags[w] == want[w], __FILE__, line, "set contents"))
         fprintf(stderr, "    set %u way %d: got block %#jx, want %#jx\n",
                 set, (int)w, (uintmax_t)tags[w], (uintmax_t)want[w]);
   }
}
#define CHECK_SET(c, set, ...) \
   check_set((c), (set), (const uintptr_t[]){ __VA_ARGS__ }, __LINE__)

#define HIT 0
#define MISS 1

/* ---- The ways the tool uses the model --------------------------------------- */

/* One access through a first-level cache and, only if it misses there,
   the last-level cache, as the tool's helpers do it (cg_sims.c): *m1
   counts l1 misses and *mL ll misses.  The caller counts the access
   itself. */
static void ref_l1_ll(struct cg_cache *l1, struct cg_cache *ll,
                      cg_addr_t addr, uint8_t size, uint64_t *m1,
                      uint64_t *mL)
{
   if (cg_cache_ref(l1, addr, size)) {
      (*m1)++;
      if (cg_cache_ref(ll, addr, size))
         (*mL)++;
   }
}

/* The tool's inline way-0 test (cg_irgen.c), written in C on the tag
   layout of cg_sim.h's Notes: 1 if the access (addr, size) lies in one
   line and that line is in way 0 of its set, that is, if cg_cache_ref
   would return 0 and change nothing; 0 otherwise (the access may still
   hit).  A caller that gets 1 may skip cg_cache_ref (and the LL) for this
   access and count a hit, with results identical to calling it.  It reads
   the way-0 copies, which a full-width cache keeps in its tags and a
   first-level cache beside them. */
static int is_way0_hit(const struct cg_cache *c, cg_addr_t addr,
                       uint8_t size)
{
   cg_addr_t first = addr >> c->line_bits;
   cg_addr_t last = (addr + size - 1) >> c->line_bits;

   return first == last && c->way0[cg_cache_way0_offset(c, first)] == first;
}

/* Way w of set s, whichever tags c has. */
static uintptr_t cache_tag(const struct cg_cache *c, uint32_t s, uint32_t w)
{
   if (c->tags != NULL)
      return c->tags[(size_t)s * (uint32_t)c->assoc + w];
   return c->tags32[(size_t)s * c->stride32 + w];
}

/* Whether every set's way-0 copy holds its way 0 (first-level caches). */
static int way0_copies_agree(const struct cg_cache *c)
{
   uint32_t s;

   for (s = 0; s < c->sets; s++)
      if (c->way0[(size_t)s * c->way0_stride] != cache_tag(c, s, 0))
         return 0;
   return 1;
}

/* ---- Geometry -------------------------------------------------------------- */

static void test_geometry(void)
{
   static uintptr_t store[1024];
   struct cg_cache c;
   struct cg_cache_config cfg = { 24576, 6, 64 };

   CHECK_EQ(cg_cache_tag_bytes(&cfg), 384 * sizeof(uintptr_t));
   make_cache(&c, store, 1024, 24576, 6, 64);
   CHECK_EQ(c.sets, 64);
   CHECK_EQ(c.sets_min_1, 63);
   CHECK_EQ(c.line_bits, 6);
   CHECK_EQ(c.size, 24576);
   CHECK_EQ(c.assoc, 6);
   CHECK_EQ(c.line_size, 64);
   CHECK(c.tags == store);

   make_cache(&c, store, 1024, 65536, 1, 64);
   CHECK_EQ(c.sets, 1024);

   make_cache(&c, store, 1024, 4096, 64, 64);
   CHECK_EQ(c.sets, 1);
   CHECK_EQ(c.sets_min_1, 0);

   make_cache(&c, store, 1024, 16384, 2, 16);
   CHECK_EQ(c.line_bits, 4);

   /* Not allocated here: only the size of 2^26 lines. */
   cfg.size = 1073741824; cfg.assoc = 1; cfg.line_size = 16;
   CHECK_EQ(cg_cache_tag_bytes(&cfg), (size_t)67108864 * sizeof(uintptr_t));
   cfg.size = 0;
   CHECK_EQ(cg_cache_tag_bytes(&cfg), 0);
   cfg.size = 65536; cfg.line_size = -1;
   CHECK_EQ(cg_cache_tag_bytes(&cfg), 0);

   /* init zeroes the tags, whatever was there before. */
   store[0] = 77;
   store[127] = 78;
   make_cache(&c, store, 1024, 8192, 2, 64);
   CHECK_EQ(store[0], 0);
   CHECK_EQ(store[127], 0);
}

/* ---- LRU traces --------------------------------------------------------- */

/* 512 B, 2-way, 64 B lines: 4 sets.  Set 1 holds blocks 1, 5, 9, 13, ...
   A = 0x040 (block 1), B = 0x140 (block 5), C = 0x240 (block 9). */
static void test_lru_two_way(void)
{
   static uintptr_t store[8];
   struct cg_cache c;

   make_cache(&c, store, 8, 512, 2, 64);
   CHECK_SET(&c, 1, 0, 0);                       /* [0, 0] */
   CHECK_EQ(cg_cache_ref(&c, 0x040, 4), MISS);   /* [A, 0] */
   CHECK_SET(&c, 1, 1, 0);
   CHECK_EQ(cg_cache_ref(&c, 0x07c, 4), HIT);    /* [A, 0]  same line */
   CHECK_SET(&c, 1, 1, 0);
   CHECK_EQ(cg_cache_ref(&c, 0x140, 8), MISS);   /* [B, A] */
   CHECK_SET(&c, 1, 5, 1);
   CHECK_EQ(cg_cache_ref(&c, 0x048, 1), HIT);    /* [A, B]  hit in way 1 */
   CHECK_SET(&c, 1, 1, 5);
   CHECK_EQ(cg_cache_ref(&c, 0x240, 2), MISS);   /* [C, A]  B was LRU */
   CHECK_SET(&c, 1, 9, 1);
   CHECK_EQ(cg_cache_ref(&c, 0x150, 4), MISS);   /* [B, C]  A was LRU */
   CHECK_SET(&c, 1, 5, 9);
   CHECK_EQ(cg_cache_ref(&c, 0x27f, 1), HIT);    /* [C, B] */
   CHECK_SET(&c, 1, 9, 5);
   CHECK_EQ(cg_cache_ref(&c, 0x240, 1), HIT);    /* [C, B]  way 0: no change */
   CHECK_SET(&c, 1, 9, 5);
   /* The other sets were never touched. */
   CHECK_SET(&c, 0, 0, 0);
   CHECK_SET(&c, 2, 0, 0);
   CHECK_SET(&c, 3, 0, 0);
}

/* 1024 B, 4-way, 64 B lines: 4 sets.  Set 2 holds blocks 2, 6, 10, 14, 18
   (addresses 0x080, 0x180, 0x280, 0x380, 0x480).  Hits in ways 1, 2, 3
   each move the block to way 0 and push only the ways before it. */
static void test_lru_four_way(void)
{
   static uintptr_t store[16];
   struct cg_cache c;

   make_cache(&c, store, 16, 1024, 4, 64);
   CHECK_EQ(cg_cache_ref(&c, 0x080, 4), MISS);   /* [2, 0, 0, 0] */
   CHECK_EQ(cg_cache_ref(&c, 0x180, 4), MISS);   /* [6, 2, 0, 0] */
   CHECK_EQ(cg_cache_ref(&c, 0x280, 4), MISS);   /* [10, 6, 2, 0] */
   CHECK_EQ(cg_cache_ref(&c, 0x380, 4), MISS);   /* [14, 10, 6, 2] */
   CHECK_SET(&c, 2, 14, 10, 6, 2);
   CHECK_EQ(cg_cache_ref(&c, 0x090, 4), HIT);    /* [2, 14, 10, 6]  way 3 */
   CHECK_SET(&c, 2, 2, 14, 10, 6);
   CHECK_EQ(cg_cache_ref(&c, 0x2a0, 4), HIT);    /* [10, 2, 14, 6]  way 2 */
   CHECK_SET(&c, 2, 10, 2, 14, 6);
   CHECK_EQ(cg_cache_ref(&c, 0x0bf, 1), HIT);    /* [2, 10, 14, 6]  way 1 */
   CHECK_SET(&c, 2, 2, 10, 14, 6);
   CHECK_EQ(cg_cache_ref(&c, 0x480, 4), MISS);   /* [18, 2, 10, 14]  6 out */
   CHECK_SET(&c, 2, 18, 2, 10, 14);
   CHECK_EQ(cg_cache_ref(&c, 0x180, 4), MISS);   /* [6, 18, 2, 10]  14 out */
   CHECK_SET(&c, 2, 6, 18, 2, 10);
   CHECK_EQ(cg_cache_ref(&c, 0x380, 4), MISS);   /* [14, 6, 18, 2]  10 out */
   CHECK_SET(&c, 2, 14, 6, 18, 2);
}

/* All tags start at 0, so block 0 is "present" in every way of set 0
   (upstream does the same; counts depend on it).  512 B, 2-way, 64 B
   lines; set 0 holds blocks 0, 4, 8 (0x000, 0x100, 0x200). */
static void test_initial_block_zero(void)
{
   static uintptr_t store[8];
   struct cg_cache c;

   make_cache(&c, store, 8, 512, 2, 64);
   CHECK_EQ(cg_cache_ref(&c, 0x010, 4), HIT);    /* [0, 0]  never loaded */
   CHECK_EQ(cg_cache_ref(&c, 0x100, 4), MISS);   /* [4, 0] */
   CHECK_SET(&c, 0, 4, 0);
   CHECK_EQ(cg_cache_ref(&c, 0x000, 4), HIT);    /* [0, 4] */
   CHECK_SET(&c, 0, 0, 4);
   CHECK_EQ(cg_cache_ref(&c, 0x200, 4), MISS);   /* [8, 0] */
   CHECK_EQ(cg_cache_ref(&c, 0x100, 4), MISS);   /* [4, 8] */
   CHECK_EQ(cg_cache_ref(&c, 0x000, 4), MISS);   /* [0, 4]  now really gone */
   CHECK_SET(&c, 0, 0, 4);
}

/* ---- Direct-mapped and fully associative ----------------------------------- */

/* 256 B, direct-mapped, 64 B lines: 4 sets of one way.  0x000 and 0x100
   (blocks 0 and 4) fight over set 0; 0x040 (block 1) lives in set 1. */
static void test_direct_mapped(void)
{
   static uintptr_t store[4];
   struct cg_cache c;

   make_cache(&c, store, 4, 256, 1, 64);
   CHECK_EQ(cg_cache_ref(&c, 0x100, 4), MISS);   /* set 0: [4] */
   CHECK_EQ(cg_cache_ref(&c, 0x040, 4), MISS);   /* set 1: [1] */
   CHECK_EQ(cg_cache_ref(&c, 0x104, 4), HIT);    /* set 0: [4] */
   CHECK_EQ(cg_cache_ref(&c, 0x000, 4), MISS);   /* set 0: [0] */
   CHECK_SET(&c, 0, 0);
   CHECK_EQ(cg_cache_ref(&c, 0x100, 4), MISS);   /* set 0: [4] */
   CHECK_EQ(cg_cache_ref(&c, 0x000, 4), MISS);   /* set 0: [0] */
   CHECK_EQ(cg_cache_ref(&c, 0x07f, 1), HIT);    /* set 1: [1]  untouched */
   CHECK_SET(&c, 1, 1);
}

/* 256 B, 4-way, 64 B lines: one set, so any four lines fit whatever their
   addresses.  Blocks written in hex. */
static void test_fully_associative(void)
{
   static uintptr_t store[4];
   struct cg_cache c;

   make_cache(&c, store, 4, 256, 4, 64);
   CHECK_EQ(c.sets, 1);
   CHECK_EQ(cg_cache_ref(&c, 0x1000, 8), MISS);  /* [40, 0, 0, 0] */
   CHECK_EQ(cg_cache_ref(&c, 0x2040, 8), MISS);  /* [81, 40, 0, 0] */
   CHECK_EQ(cg_cache_ref(&c, 0x3080, 8), MISS);  /* [c2, 81, 40, 0] */
   CHECK_EQ(cg_cache_ref(&c, 0x40c0, 8), MISS);  /* [103, c2, 81, 40] */
   CHECK_SET(&c, 0, 0x103, 0xc2, 0x81, 0x40);
   CHECK_EQ(cg_cache_ref(&c, 0x1008, 8), HIT);   /* [40, 103, c2, 81] */
   CHECK_EQ(cg_cache_ref(&c, 0x5000, 8), MISS);  /* [140, 40, 103, c2] */
   CHECK_SET(&c, 0, 0x140, 0x40, 0x103, 0xc2);
   CHECK_EQ(cg_cache_ref(&c, 0x2040, 8), MISS);  /* [81, 140, 40, 103] */
   CHECK_EQ(cg_cache_ref(&c, 0x3080, 8), MISS);  /* [c2, 81, 140, 40] */
   CHECK_SET(&c, 0, 0xc2, 0x81, 0x140, 0x40);
}

/* ---- Accesses straddling two lines -------------------------------------- */

/* 512 B, 2-way, 64 B lines, 4 sets.  An access of 8 bytes at 0x07c covers
   blocks 1 (set 1) and 2 (set 2); one at 0x0fc covers 3 and 4 (sets 3, 0). */
static void test_straddle_two_lines(void)
{
   static uintptr_t store[8];
   struct cg_cache c;

   make_cache(&c, store, 8, 512, 2, 64);
   /* Both miss: one miss, both lines loaded. */
   CHECK_EQ(cg_cache_ref(&c, 0x07c, 8), MISS);   /* set 1: [1, 0] set 2: [2, 0] */
   CHECK_SET(&c, 1, 1, 0);
   CHECK_SET(&c, 2, 2, 0);
   /* Both hit: hit. */
   CHECK_EQ(cg_cache_ref(&c, 0x07e, 4), HIT);
   CHECK_EQ(cg_cache_ref(&c, 0x040, 4), HIT);    /* block 1 alone */
   CHECK_EQ(cg_cache_ref(&c, 0x080, 4), HIT);    /* block 2 alone */
   /* Blocks 3|4: set 3 [3, 0], set 0 (block 0 twice) [4, 0]. */
   CHECK_EQ(cg_cache_ref(&c, 0x0fc, 8), MISS);
   CHECK_SET(&c, 3, 3, 0);
   CHECK_SET(&c, 0, 4, 0);
   /* Evict block 2 from set 2 (blocks 6 and 10), then straddle 1|2:
      first (block 1) hits, second misses, and is loaded all the same. */
   CHECK_EQ(cg_cache_ref(&c, 0x180, 4), MISS);   /* set 2: [6, 2] */
   CHECK_EQ(cg_cache_ref(&c, 0x280, 4), MISS);   /* set 2: [10, 6] */
   CHECK_EQ(cg_cache_ref(&c, 0x07c, 8), MISS);   /* set 1: [1, 0]  set 2: [2, 10] */
   CHECK_SET(&c, 1, 1, 0);
   CHECK_SET(&c, 2, 2, 10);
   /* First misses, second hits: miss; the hit line still moves to way 0. */
   CHECK_EQ(cg_cache_ref(&c, 0x140, 4), MISS);   /* set 1: [5, 1] */
   CHECK_EQ(cg_cache_ref(&c, 0x240, 4), MISS);   /* set 1: [9, 5]  1 out */
   CHECK_EQ(cg_cache_ref(&c, 0x280, 4), HIT);    /* set 2: [10, 2] */
   CHECK_EQ(cg_cache_ref(&c, 0x07f, 2), MISS);   /* set 1: [1, 9]  set 2: [2, 10] */
   CHECK_SET(&c, 1, 1, 9);
   CHECK_SET(&c, 2, 2, 10);
   /* The last byte of a line ends the access in that line: no straddle. */
   CHECK_EQ(cg_cache_ref(&c, 0x0f8, 8), HIT);    /* block 3 only */
   CHECK_SET(&c, 0, 4, 0);
}

/* One set (128 B, 2-way, 64 B lines): both halves of a straddle go to the
   same set, first then second, so the second ends in way 0. */
static void test_straddle_same_set(void)
{
   static uintptr_t store[2];
   struct cg_cache c;

   make_cache(&c, store, 2, 128, 2, 64);
   CHECK_EQ(cg_cache_ref(&c, 0x1038, 16), MISS); /* [41, 40] */
   CHECK_SET(&c, 0, 0x41, 0x40);
   CHECK_EQ(cg_cache_ref(&c, 0x1038, 16), HIT);  /* 40 hit in way 1: [40, 41]; then 41: [41, 40] */
   CHECK_SET(&c, 0, 0x41, 0x40);
   CHECK_EQ(cg_cache_ref(&c, 0x1040, 1), HIT);   /* [41, 40] */
   CHECK_EQ(cg_cache_ref(&c, 0x2000, 1), MISS);  /* [80, 41] */
   CHECK_EQ(cg_cache_ref(&c, 0x1038, 16), MISS); /* 40 misses: [40, 80]; 41 misses: [41, 40] */
   CHECK_SET(&c, 0, 0x41, 0x40);
}

/* More than two lines calls the hook with the address, the size and the
   first and last blocks, before touching any set.  16 B lines. */
static void test_straddle_panic(void)
{
   static uintptr_t store[64];
   struct cg_cache c;
   volatile int result = -1;

   make_cache(&c, store, 64, 1024, 1, 16);
   panic_calls = 0;
   if (setjmp(panic_jump) == 0)
      result = cg_cache_ref(&c, 0x100f, 19);     /* blocks 0x100 .. 0x102 */
   CHECK_EQ(result, -1);
   CHECK_EQ(panic_calls, 1);
   CHECK_EQ(panic_addr, 0x100f);
   CHECK_EQ(panic_size, 19);
   CHECK_EQ(panic_first, 0x100);
   CHECK_EQ(panic_last, 0x102);
   CHECK_SET(&c, 0, 0);                          /* nothing was referenced */
   CHECK_SET(&c, 1, 0);

   /* Size 0 at a line start: the last byte is addr - 1, one block below
      the first (upstream's quirk): also more than "first or first + 1". */
   result = -1;
   if (setjmp(panic_jump) == 0)
      result = cg_cache_ref(&c, 0x2000, 0);
   CHECK_EQ(result, -1);
   CHECK_EQ(panic_calls, 2);
   CHECK_EQ(panic_size, 0);
   CHECK_EQ(panic_first, 0x200);
   CHECK_EQ(panic_last, 0x1ff);

   /* Size 0 inside a line is a one-line access of that line. */
   result = -1;
   if (setjmp(panic_jump) == 0)
      result = cg_cache_ref(&c, 0x2001, 0);
   CHECK_EQ(result, MISS);
   CHECK_EQ(panic_calls, 2);
   CHECK_SET(&c, 0, 0x200);
}

/* ---- L1 then LL ---------------------------------------------------------- */

/* L1: 128 B, direct-mapped, 64 B lines (2 sets).  LL: 512 B, 2-way, 64 B
   lines (4 sets).  LL is touched only when L1 misses: its MRU order shows
   whether it was. */
static void test_l1_then_ll(void)
{
   static uintptr_t s1[2], sl[8];
   struct cg_cache l1, ll;
   uint64_t m1 = 0, mL = 0;

   make_cache(&l1, s1, 2, 128, 1, 64);
   make_cache(&ll, sl, 8, 512, 2, 64);
   ref_l1_ll(&l1, &ll, 0x040, 4, &m1, &mL); /* L1 miss, LL miss */
   CHECK_EQ(m1, 1);
   CHECK_EQ(mL, 1);
   ref_l1_ll(&l1, &ll, 0x140, 4, &m1, &mL); /* L1 set 1: [5]; LL set 1: [5, 1] */
   CHECK_EQ(m1, 2);
   CHECK_EQ(mL, 2);
   CHECK_SET(&ll, 1, 5, 1);
   ref_l1_ll(&l1, &ll, 0x148, 4, &m1, &mL); /* L1 hit: LL untouched */
   CHECK_EQ(m1, 2);
   CHECK_EQ(mL, 2);
   CHECK_SET(&ll, 1, 5, 1);
   ref_l1_ll(&l1, &ll, 0x040, 4, &m1, &mL); /* L1 miss, LL hit in way 1 */
   CHECK_EQ(m1, 3);
   CHECK_EQ(mL, 2);
   CHECK_SET(&l1, 1, 1);
   CHECK_SET(&ll, 1, 1, 5);
   /* A straddle: L1 blocks 1|2 (sets 1, 0); LL blocks 1|2 (sets 1, 2). */
   ref_l1_ll(&l1, &ll, 0x07c, 8, &m1, &mL); /* L1: 1 hit, 2 miss; LL: 1 hit, 2 miss */
   CHECK_EQ(m1, 4);
   CHECK_EQ(mL, 3);
   CHECK_SET(&ll, 2, 2, 0);
   ref_l1_ll(&l1, &ll, 0x07c, 8, &m1, &mL); /* all hit */
   CHECK_EQ(m1, 4);
   CHECK_EQ(mL, 3);
}

/* Write-allocate, no dirty state: a write is the same reference as a read,
   so a write miss loads the line and the next read of it hits.  The tool
   calls the same function for Dw as for Dr; here with separate counters. */
static void test_write_allocate(void)
{
   static uintptr_t s1[8], sl[16];
   struct cg_cache d1, ll;
   uint64_t rd_m1 = 0, rd_mL = 0, wr_m1 = 0, wr_mL = 0;

   make_cache(&d1, s1, 8, 512, 2, 64);
   make_cache(&ll, sl, 16, 1024, 4, 64);
   ref_l1_ll(&d1, &ll, 0x1000, 8, &wr_m1, &wr_mL); /* write miss */
   ref_l1_ll(&d1, &ll, 0x1008, 8, &rd_m1, &rd_mL); /* read hit */
   CHECK_EQ(wr_m1, 1);
   CHECK_EQ(wr_mL, 1);
   CHECK_EQ(rd_m1, 0);
   CHECK_EQ(rd_mL, 0);
   ref_l1_ll(&d1, &ll, 0x2000, 8, &rd_m1, &rd_mL); /* read miss */
   ref_l1_ll(&d1, &ll, 0x2010, 4, &wr_m1, &wr_mL); /* write hit */
   CHECK_EQ(rd_m1, 1);
   CHECK_EQ(wr_m1, 1);
}

/* is_way0_hit: true exactly for one-line accesses whose line is in
   way 0, and it changes nothing. */
static void test_is_mru(void)
{
   static uintptr_t store[8];
   struct cg_cache c;

   make_cache(&c, store, 8, 512, 2, 64);
   CHECK(is_way0_hit(&c, 0x000, 4));      /* block 0 quirk */
   CHECK(!is_way0_hit(&c, 0x040, 4));
   CHECK_EQ(cg_cache_ref(&c, 0x040, 4), MISS);    /* set 1: [1, 0] */
   CHECK(is_way0_hit(&c, 0x07f, 1));
   CHECK(!is_way0_hit(&c, 0x07f, 2));     /* straddles */
   CHECK_EQ(cg_cache_ref(&c, 0x140, 4), MISS);    /* set 1: [5, 1] */
   CHECK(!is_way0_hit(&c, 0x040, 4));     /* hit, but in way 1 */
   CHECK(is_way0_hit(&c, 0x140, 4));
   CHECK_SET(&c, 1, 5, 1);
}

/* ---- Reference model ------------------------------------------------------- */

/* The obvious model: every way carries the time it was last used; a
   lookup takes the most recently used way holding the block (tags may
   repeat, as block 0 does at start-up), a miss replaces the least recently
   used way.  Initially all tags are 0 and way w of each set was used at
   time -w, which is the MRU order [0, 1, ..., assoc-1] of cg_cache. */
struct ref_cache {
   uintptr_t line, sets, ways;
   uintptr_t *tag;
   int64_t *used;
   int64_t now;
};

static void ref_init(struct ref_cache *r, uintptr_t size, uintptr_t ways,
                     uintptr_t line)
{
   uintptr_t i, n;

   r->line = line;
   r->ways = ways;
   r->sets = size / line / ways;
   n = r->sets * ways;
   r->tag = calloc(n, sizeof *r->tag);
   r->used = calloc(n, sizeof *r->used);
   if (r->tag == NULL || r->used == NULL) {
      fprintf(stderr, "test_sim: out of memory\n");
      exit(2);
   }
   for (i = 0; i < n; i++)
      r->used[i] = -(int64_t)(i % ways);
   r->now = 0;
}

static void ref_free(struct ref_cache *r)
{
   free(r->tag);
   free(r->used);
}

/* 1 on a hit (unlike cg_cache_ref), 0 on a miss. */
static int ref_line_hit(struct ref_cache *r, uintptr_t block)
{
   uintptr_t base = (block % r->sets) * r->ways, w;
   uintptr_t found = r->ways, oldest = 0;

   for (w = 0; w < r->ways; w++) {
      if (r->tag[base + w] == block
          && (found == r->ways || r->used[base + w] > r->used[base + found]))
         found = w;
      if (r->used[base + w] < r->used[base + oldest])
         oldest = w;
   }
   r->now++;
   if (found != r->ways) {
      r->used[base + found] = r->now;
      return 1;
   }
   r->tag[base + oldest] = block;
   r->used[base + oldest] = r->now;
   return 0;
}

/* 1 on a miss: an access misses if any line it covers misses. */
static int ref_access(struct ref_cache *r, uintptr_t addr, unsigned size)
{
   uintptr_t first = addr / r->line, last = (addr + size - 1) / r->line;
   uintptr_t b;
   int all_hit = 1;

   for (b = first; b <= last; b++)
      all_hit &= ref_line_hit(r, b);
   return !all_hit;
}

/* Compares every set, way by way, ordering the reference's ways by time. */
static int ref_same_state(const struct ref_cache *r, const struct cg_cache *c)
{
   uintptr_t s, w, k;

   for (s = 0; s < r->sets; s++) {
      for (w = 0; w < r->ways; w++) {
         /* The way of rank w by recency: exactly w ways are newer. */
         for (k = 0; k < r->ways; k++) {
            uintptr_t newer = 0, j;

            for (j = 0; j < r->ways; j++)
               newer += r->used[s * r->ways + j] > r->used[s * r->ways + k];
            if (newer == w)
               break;
         }
         if (k == r->ways
             || cache_tag(c, (uint32_t)s, (uint32_t)w)
                != r->tag[s * r->ways + k])
            return 0;
      }
   }
   return 1;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng(void)
{
   rng_state ^= rng_state >> 12;
   rng_state ^= rng_state << 25;
   rng_state ^= rng_state >> 27;
   return rng_state * 0x2545f4914f6cdd1du;
}

/* An address in a region of four cache sizes from base, half of the time
   in a hot quarter of the cache, with sizes from 1 to the line size
   (so at most two lines) and any alignment. */
static void random_access(uintptr_t base, uintptr_t size, uintptr_t line,
                          uintptr_t *addr, unsigned *len)
{
   uint64_t x = rng();
   uintptr_t span = (x & 1) ? size / 4 : size * 4;
   unsigned max = line > 255 ? 255 : (unsigned)line;
   static const unsigned common[] = { 1, 2, 4, 8, 16 };

   *addr = base + (uintptr_t)((x >> 8) % span);
   if ((x >> 1) & 1)
      *len = common[((x >> 2) & 7) % 5];
   else
      *len = 1 + (unsigned)((x >> 40) % max);
   if (*len > max)
      *len = max;
}

struct geometry {
   int32_t size, assoc, line;
   uintptr_t base;
};

#ifdef CG_SIM_AVX2
/* A reference of a first-level cache as the tool's AVX2 helpers do it
   (cg_sims_avx2.c): the two-line case through cg_cache_ref_straddle32,
   the one-line case through cg_cache_ref_l1_avx2 with the associativity a
   constant. */
static inline __attribute__((always_inline, target("avx2")))
int ref_l1_avx2_ways(struct cg_cache *c, cg_addr_t addr, uint8_t size,
                     uint32_t ways)
{
   cg_addr_t first = addr >> c->line_bits;
   cg_addr_t last = (addr + size - 1) >> c->line_bits;

   if (__builtin_expect(first != last, 0))
      return cg_cache_ref_straddle32(c, addr, size, first, last);
   return cg_cache_ref_l1_avx2(c, (uint32_t)first, ways);
}

static __attribute__((target("avx2")))
int ref_l1_avx2(struct cg_cache *c, uintptr_t addr, uint8_t len)
{
   switch (cg_cache_vector_ways(c)) {
   case 4: return ref_l1_avx2_ways(c, addr, len, 4);
   case 8: return ref_l1_avx2_ways(c, addr, len, 8);
   case 12: return ref_l1_avx2_ways(c, addr, len, 12);
   case 16: return ref_l1_avx2_ways(c, addr, len, 16);
   }
   abort();
}

/* A reference of a compact cache as the tool's LL path after a
   first-level miss does it (cg_l1_missed_avx2, cg_sims_avx2.c): a one-line
   reference within the compact tags through cg_cache_ref_compact_avx2
   with the associativity a constant, anything else through
   cg_cache_ref32. */
static inline __attribute__((always_inline, target("avx2")))
int ref_compact_avx2_ways(struct cg_cache *c, cg_addr_t addr, uint8_t size,
                          uint32_t ways)
{
   cg_addr_t first = addr >> c->line_bits;

   if (first == (addr + size - 1) >> c->line_bits && first < c->compact_end)
      return cg_cache_ref_compact_avx2(c, (uint32_t)first, ways);
   return cg_cache_ref32(c, addr, size);
}

static __attribute__((target("avx2")))
int ref_compact_avx2(struct cg_cache *c, uintptr_t addr, uint8_t len)
{
   switch (cg_cache_vector_ways(c)) {
   case 4: return ref_compact_avx2_ways(c, addr, len, 4);
   case 8: return ref_compact_avx2_ways(c, addr, len, 8);
   case 12: return ref_compact_avx2_ways(c, addr, len, 12);
   case 16: return ref_compact_avx2_ways(c, addr, len, 16);
   case 20: return ref_compact_avx2_ways(c, addr, len, 20);
   case 24: return ref_compact_avx2_ways(c, addr, len, 24);
   case 28: return ref_compact_avx2_ways(c, addr, len, 28);
   case 32: return ref_compact_avx2_ways(c, addr, len, 32);
   }
   abort();
}
#endif

/* How check_against_reference references the cache. */
enum ref_mode {
   REF_SCALAR,       /* cg_cache_ref with the scalar loop only */
   REF_VECTOR,       /* cg_cache_ref, with the vector reference if any */
   REF_L1_SCALAR,    /* a first-level cache, cg_cache_ref32, scalar loop */
   REF_L1_VECTOR,    /* the same with the vector reference if any */
   REF_L1_AVX2,      /* a first-level cache as the tool's AVX2 helpers
                        reference it, when its associativity has them
                        (else as REF_L1_VECTOR), only where the emitted
                        way-0 test fails */
   REF_L1_AVX2_ALL   /* the same, every reference through the helpers'
                        code, way-0 hits included */
};

/* The random comparison of one way of referencing the cache. */
static void check_against_reference(enum ref_mode mode)
{
   static const struct geometry geos[] = {
      { 24576, 6, 64, 0 },
      { 65536, 16, 64, 0x30000000u },
      { 49152, 12, 64, 0x1000u },
      { 3145728, 12, 64, 0x10000000u },
      { 32768, 8, 64, 0x0804a000u },
      { 65536, 1, 64, 0 },
      { 4096, 64, 64, 0x7fff0000u },
      { 16384, 4, 32, 0x40000000u },
      { 8192, 2, 16, 0 },
      { 98304, 3, 256, 0x20000000u },
   };
   const long accesses = 500000;
   long total_skipped = 0;
   size_t g;

   for (g = 0; g < sizeof geos / sizeof geos[0]; g++) {
      const struct geometry *geo = &geos[g];
      struct cg_cache_config cfg = { geo->size, geo->assoc, geo->line };
      int l1 = mode != REF_SCALAR && mode != REF_VECTOR;
      void *store = malloc(l1 ? cg_cache_tag_bytes_l1(&cfg)
                              : cg_cache_tag_bytes(&cfg));
      struct cg_cache c;
      struct ref_cache r;
      long i, misses = 0, mismatches = 0, skipped = 0;
      int inline_avx2 = 0;

      if (store == NULL)
         exit(2);
      if (l1)
         cg_cache_init_l1(&c, &cfg, store);
      else
         cg_cache_init(&c, &cfg, store);
      if (mode == REF_SCALAR || mode == REF_L1_SCALAR)
         CHECK_EQ(cg_cache_use_vector(&c, 0), 0);
#ifdef CG_SIM_AVX2
      if (mode == REF_L1_AVX2 || mode == REF_L1_AVX2_ALL) {
         uint32_t ways = cg_cache_vector_ways(&c);
         inline_avx2 = ways == 4 || ways == 8 || ways == 12 || ways == 16;
      }
#endif
      ref_init(&r, (uintptr_t)geo->size, (uintptr_t)geo->assoc,
               (uintptr_t)geo->line);
      for (i = 0; i < accesses; i++) {
         uintptr_t addr;
         unsigned len;
         int mru, got, want;

         random_access(geo->base, (uintptr_t)geo->size, (uintptr_t)geo->line,
                       &addr, &len);
         mru = is_way0_hit(&c, addr, (uint8_t)len);
         if (mode == REF_L1_AVX2 && mru) {
            got = HIT;                  /* the emitted test skips it */
            skipped++;
         }
#ifdef CG_SIM_AVX2
         else if (inline_avx2)
            got = ref_l1_avx2(&c, addr, (uint8_t)len);
#else
         else if (inline_avx2)
            abort();
#endif
         else if (l1)
            got = cg_cache_ref32(&c, addr, (uint8_t)len);
         else
            got = cg_cache_ref(&c, addr, (uint8_t)len);
         want = ref_access(&r, addr, len);
         misses += got;
         if (got != want || (mru && got != HIT)) {
            if (mismatches++ == 0)
               fprintf(stderr, "  geometry %ld/%ld/%ld: access %ld "
                       "(%#jx, %u): got %d, want %d, mru %d\n",
                       (long)geo->size, (long)geo->assoc, (long)geo->line, i,
                       (uintmax_t)addr, len, got, want, mru);
         }
      }
      CHECK_EQ(mismatches, 0);
      CHECK(ref_same_state(&r, &c));
      CHECK(way0_copies_agree(&c));
      /* Both outcomes must be common, or the comparison proves little. */
      CHECK(misses > accesses / 50 && misses < accesses - accesses / 50);
      total_skipped += skipped;
      ref_free(&r);
      free(store);
   }
   /* The way-0 test must have had its say. */
   if (mode == REF_L1_AVX2)
      CHECK(total_skipped > accesses);
}

static void test_against_reference(void)
{
   check_against_reference(REF_VECTOR);
}

static void test_against_reference_scalar(void)
{
   check_against_reference(REF_SCALAR);
}

static void test_against_reference_l1_scalar(void)
{
   check_against_reference(REF_L1_SCALAR);
}

static void test_against_reference_l1(void)
{
   check_against_reference(REF_L1_VECTOR);
}

static void test_against_reference_l1_avx2(void)
{
   check_against_reference(REF_L1_AVX2);
}

static void test_against_reference_l1_avx2_all(void)
{
   check_against_reference(REF_L1_AVX2_ALL);
}

/* Which caches get a vector reference: only full-width tags of 4, 8, 12
   or 16 ways, and only on an x86-64 host with AVX2. */
static void test_vector_choice(void)
{
   static const int32_t assocs[] = { 1, 2, 3, 4, 6, 8, 12, 16, 20, 24, 28,
                                     32, 36 };
   int host = 0;
   size_t i;

#if defined(__x86_64__)
   __builtin_cpu_init();
   host = __builtin_cpu_supports("avx2") != 0;
#endif
   for (i = 0; i < sizeof assocs / sizeof assocs[0]; i++) {
      int32_t a = assocs[i];
      struct cg_cache_config cfg = { 64 * 16 * a, a, 64 };
      uintptr_t *store = malloc(cg_cache_tag_bytes(&cfg));
      uint32_t *store32 = calloc(1, cg_cache_tag_bytes32(&cfg));
      struct cg_cache c;
      int want = host && (a == 4 || a == 8 || a == 12 || a == 16);
      int want32 = host && a % 4 == 0 && a <= 32;

      if (store == NULL || store32 == NULL)
         exit(2);
      cg_cache_init(&c, &cfg, store);
      CHECK_EQ(c.ref_vector != 0, want);
      CHECK_EQ(cg_cache_vector_ways(&c), want ? (uint32_t)a : 0);
      CHECK_EQ(cg_cache_use_vector(&c, 0), 0);
      CHECK(c.ref_vector == 0);
      CHECK_EQ(cg_cache_vector_ways(&c), 0);
      CHECK_EQ(cg_cache_use_vector(&c, 1), want);
      CHECK(c.ref_vector32 == 0);
      /* Compact tags: the vector code of compact tags, for every multiple
         of 4 ways up to 32 ... */
      cg_cache_init32_zeroed(&c, &cfg, store32);
      CHECK(c.ref_vector == 0);
      CHECK_EQ(c.ref_vector32 != 0, want32);
      CHECK_EQ(cg_cache_vector_ways(&c), want32 ? (uint32_t)a : 0);
      CHECK_EQ(cg_cache_use_vector(&c, 0), 0);
      CHECK(c.ref_vector32 == 0);
      CHECK_EQ(cg_cache_use_vector(&c, 1), want32);
      /* ... and that of full-width ones once widened. */
      cg_cache_widen(&c, store);
      CHECK_EQ(c.ref_vector != 0, want);
      CHECK(c.ref_vector32 == 0);
      free(store);
      free(store32);
   }
}

/* L1 and LL together against two reference caches, counting as the tool
   does. */
static void test_hierarchy_against_reference(void)
{
   struct cg_cache_config c1 = { 32768, 8, 64 }, cl = { 3145728, 12, 64 };
   uintptr_t *s1 = malloc(cg_cache_tag_bytes(&c1));
   uintptr_t *sl = malloc(cg_cache_tag_bytes(&cl));
   struct cg_cache l1, ll;
   struct ref_cache r1, rl;
   uint64_t m1 = 0, mL = 0, want_m1 = 0, want_mL = 0;
   long i;

   if (s1 == NULL || sl == NULL)
      exit(2);
   cg_cache_init(&l1, &c1, s1);
   cg_cache_init(&ll, &cl, sl);
   ref_init(&r1, 32768, 8, 64);
   ref_init(&rl, 3145728, 12, 64);
   for (i = 0; i < 1000000; i++) {
      uintptr_t addr;
      unsigned len;

      /* The LL-sized region makes L1 miss often and LL both ways. */
      random_access(0x10000, 3145728 / 2, 64, &addr, &len);
      ref_l1_ll(&l1, &ll, addr, (uint8_t)len, &m1, &mL);
      if (ref_access(&r1, addr, len)) {
         want_m1++;
         want_mL += (uint64_t)ref_access(&rl, addr, len);
      }
   }
   CHECK_EQ(m1, want_m1);
   CHECK_EQ(mL, want_mL);
   CHECK(mL > 1000 && mL < m1);
   CHECK(ref_same_state(&r1, &l1));
   CHECK(ref_same_state(&rl, &ll));
   ref_free(&r1);
   ref_free(&rl);
   free(s1);
   free(sl);
}

/* Compact (32-bit) tags behave exactly like full ones: the same random
   traces, step by step, on caches of both kinds (cg_cache_init32_zeroed
   wants zeroed memory: calloc), with the vector reference of compact tags
   where the host and the associativity have one (vector) or with the
   scalar loop, or (tool_path) as the tool's LL path after a first-level
   miss references them where the vector reference is in use
   (ref_compact_avx2).  The slack after the tags must be as it was. */
static void check_compact_tags(int vector, int tool_path)
{
   static const struct geometry geos[] = {
      { 3145728, 12, 64, 0x10000000u },
      { 65536, 1, 64, 0x7ff00000u },
      { 98304, 3, 256, 0 },
      { 8388608, 16, 64, 0x20000000u },
      { 32768, 8, 64, 0x0804a000u },
      { 16384, 4, 32, 0x40000000u },
      { 1048576, 4, 64, 0 },
      { 4096, 64, 64, 0x7fff0000u },
      { 163840, 20, 64, 0x1000u },
      { 196608, 24, 64, 0x30000000u },
      { 229376, 28, 128, 0 },
      { 1048576, 32, 64, 0x10000u },
      { 2048, 32, 64, 0 },          /* one set: the slack follows it */
      { 1024, 4, 64, 0 },
   };
   size_t g;

   for (g = 0; g < sizeof geos / sizeof geos[0]; g++) {
      const struct geometry *geo = &geos[g];
      struct cg_cache_config cfg = { geo->size, geo->assoc, geo->line };
      uintptr_t *full = malloc(cg_cache_tag_bytes(&cfg));
      size_t bytes32 = cg_cache_tag_bytes32(&cfg);
      uint32_t *compact = calloc(1, bytes32);
      struct cg_cache a, b;
      long i, mismatches = 0, way0_mismatches = 0;
      size_t n, w;
      int inline_avx2 = 0;

      if (full == NULL || compact == NULL)
         exit(2);
      CHECK_EQ((bytes32 - CG_TAGS32_SLACK) / sizeof(uint32_t),
               cg_cache_tag_bytes(&cfg) / sizeof(uintptr_t));
      cg_cache_init(&a, &cfg, full);
      cg_cache_init32_zeroed(&b, &cfg, compact);
      if (!vector)
         CHECK_EQ(cg_cache_use_vector(&b, 0), 0);
#ifdef CG_SIM_AVX2
      inline_avx2 = tool_path && cg_cache_vector_ways(&b) != 0;
#else
      (void)tool_path;
#endif
      CHECK(b.tags == NULL && b.tags32 == compact);
      CHECK_EQ(b.sets, a.sets);
      CHECK_EQ(b.assoc, a.assoc);
      CHECK_EQ(b.line_bits, a.line_bits);
      for (i = 0; i < 300000; i++) {
         uintptr_t addr;
         unsigned len;

         random_access(geo->base, (uintptr_t)geo->size, (uintptr_t)geo->line,
                       &addr, &len);
         /* The compact way-0 test agrees with the full-width cache's. */
         if (cg_cache_way0_hit32(&b, addr, (uint8_t)len)
             != is_way0_hit(&a, addr, (uint8_t)len))
            way0_mismatches++;
#ifdef CG_SIM_AVX2
         if (inline_avx2) {
            if (cg_cache_ref(&a, addr, (uint8_t)len)
                != ref_compact_avx2(&b, addr, (uint8_t)len))
               mismatches++;
            continue;
         }
#endif
         if (cg_cache_ref(&a, addr, (uint8_t)len)
             != cg_cache_ref32(&b, addr, (uint8_t)len))
            mismatches++;
      }
      CHECK_EQ(mismatches, 0);
      CHECK_EQ(way0_mismatches, 0);
      n = cg_cache_tag_bytes(&cfg) / sizeof(uintptr_t);
      for (w = 0; w < n && a.tags[w] == b.tags32[w]; w++)
         ;
      CHECK_EQ(w, n);
      for (w = n; w < bytes32 / sizeof(uint32_t) && compact[w] == 0; w++)
         ;
      CHECK_EQ(w, bytes32 / sizeof(uint32_t));
      free(full);
      free(compact);
   }
}

static void test_compact_tags(void)
{
   check_compact_tags(1, 0);
}

static void test_compact_tags_scalar(void)
{
   check_compact_tags(0, 0);
}

/* The tool's AVX2 LL path (without AVX2: the same as test_compact_tags). */
static void test_compact_tags_avx2(void)
{
   check_compact_tags(1, 1);
}

/* A block number beyond 32 bits: the compact cache reports CG_CACHE_WIDEN
   and changes nothing, and its way-0 test says no; once widened it goes on
   exactly like a full-width cache that saw the same accesses.  (Only
   meaningful with 64-bit addresses.) */
static void test_compact_widen(void)
{
   struct cg_cache_config cfg = { 8192, 2, 64 };
   uintptr_t *full = malloc(cg_cache_tag_bytes(&cfg));
   uintptr_t *widened = malloc(cg_cache_tag_bytes(&cfg));
   uint32_t *compact = calloc(1, cg_cache_tag_bytes32(&cfg));
   struct cg_cache a, b;
   uint32_t before[256];
   size_t n = cg_cache_tag_bytes(&cfg) / sizeof(uintptr_t), i;

   if (full == NULL || widened == NULL || compact == NULL || n > 256)
      exit(2);
   cg_cache_init(&a, &cfg, full);
   cg_cache_init32_zeroed(&b, &cfg, compact);
   /* Set 1 (8192 B, 2-way, 64 B: 64 sets) gets blocks 1 and 65. */
   CHECK_EQ(cg_cache_ref(&a, 0x40, 1), MISS);
   CHECK_EQ(cg_cache_ref32(&b, 0x40, 1), MISS);
   CHECK_EQ(cg_cache_ref(&a, 0x1040, 4), MISS);
   CHECK_EQ(cg_cache_ref32(&b, 0x1040, 4), MISS);
   if (sizeof(cg_addr_t) > 4) {
      /* Block (2^32 + 1) maps to set 1 as well: too wide for 32 bits.
         A straddle whose second line is too wide changes nothing either. */
      cg_addr_t wide = ((cg_addr_t)1 << 38) + 0x40;
      cg_addr_t edge = ((cg_addr_t)1 << 38) - 2;
      memcpy(before, compact, n * sizeof *compact);
      /* Block 2^32 + 65, cut to 32 bits, would be block 65, which is in
         way 0 of set 1: the way-0 test must not take it for a hit. */
      CHECK(!cg_cache_way0_hit32(&b, wide + 0x1000, 1));
      CHECK(cg_cache_way0_hit32(&b, 0x1040, 1));
      CHECK_EQ(cg_cache_ref32(&b, wide, 1), CG_CACHE_WIDEN);
      CHECK_EQ(cg_cache_ref32(&b, edge, 4), CG_CACHE_WIDEN);
      CHECK(memcmp(before, compact, n * sizeof *compact) == 0);
      cg_cache_widen(&b, widened);
      CHECK(b.tags == widened && b.tags32 == NULL);
      CHECK_EQ(cg_cache_ref(&a, wide, 1), MISS);
      CHECK_EQ(cg_cache_ref(&b, wide, 1), MISS);
      CHECK_EQ(cg_cache_ref(&a, edge, 4), MISS);
      CHECK_EQ(cg_cache_ref(&b, edge, 4), MISS);
   } else {
      cg_cache_widen(&b, widened);
   }
   /* 64-bit:  set 1 of both is [2^32 + 1] [65] (block 1 was evicted), so
                0x40 misses  -> [1] [2^32 + 1], and 0x1040 misses -> [65] [1];
      32-bit:  set 1 is [65] [1], and both hit. */
   int wide = sizeof(cg_addr_t) > 4;
   CHECK_EQ(cg_cache_ref(&a, 0x40, 1), wide ? MISS : HIT);
   CHECK_EQ(cg_cache_ref(&b, 0x40, 1), wide ? MISS : HIT);
   CHECK_EQ(cg_cache_ref(&a, 0x1040, 1), wide ? MISS : HIT);
   CHECK_EQ(cg_cache_ref(&b, 0x1040, 1), wide ? MISS : HIT);
   for (i = 0; i < n; i++)
      if (a.tags[i] != b.tags[i])
         break;
   CHECK_EQ(i, n);
   free(full);
   free(widened);
   free(compact);
}

/* The first-level layout: sets of a power of two bytes with the way-0
   copy after the tags, as the tool's helpers and emitted tests assume. */
static void test_l1_layout(void)
{
   static const struct { int32_t assoc; uint32_t at, bytes; } want[] = {
      { 1, 8, 16 }, { 2, 8, 16 }, { 3, 16, 32 }, { 4, 16, 32 },
      { 6, 24, 32 }, { 8, 32, 64 }, { 12, 48, 64 }, { 16, 64, 128 },
      { 32, 128, 256 }, { 64, 256, 512 },
   };
   size_t i;

   for (i = 0; i < sizeof want / sizeof want[0]; i++) {
      struct cg_cache_config cfg = { 64 * 64 * want[i].assoc, want[i].assoc,
                                     64 };
      void *store = malloc(cg_cache_tag_bytes_l1(&cfg));
      struct cg_cache c;

      if (store == NULL)
         exit(2);
      CHECK_EQ(CG_L1_WAY0_AT(want[i].assoc), want[i].at);
      CHECK_EQ(CG_L1_SET_BYTES(want[i].assoc), want[i].bytes);
      CHECK_EQ(cg_cache_tag_bytes_l1(&cfg), 64 * want[i].bytes);
      cg_cache_init_l1(&c, &cfg, store);
      CHECK(c.tags == NULL && c.tags32 == store);
      CHECK_EQ(c.stride32, want[i].bytes / 4);
      CHECK((char *)c.way0 == (char *)store + want[i].at);
      CHECK_EQ(c.way0_stride, want[i].bytes / sizeof(uintptr_t));
      CHECK_EQ(c.compact_end, (uint64_t)1 << 32);
      /* Set 1 gets block 65, then 1: way 0 and its copy follow. */
      CHECK_EQ(cg_cache_ref32(&c, 65 * 64, 1), MISS);
      CHECK_EQ(c.way0[c.way0_stride], 65);
      CHECK_EQ(c.tags32[c.stride32], 65);
      CHECK_EQ(cg_cache_ref32(&c, 64, 1), MISS);
      CHECK_EQ(c.way0[c.way0_stride], 1);
      CHECK(way0_copies_agree(&c));
      free(store);
   }
}

/* A first-level cache widened by a block beyond 32 bits keeps its way-0
   copies where they were, and keeps them up to date. */
static void test_l1_widen(void)
{
   struct cg_cache_config cfg = { 32768, 8, 64 };
   uintptr_t *full = malloc(cg_cache_tag_bytes(&cfg));
   uintptr_t *widened = malloc(cg_cache_tag_bytes(&cfg));
   void *store = malloc(cg_cache_tag_bytes_l1(&cfg));
   struct cg_cache a, b;
   uintptr_t *way0;
   long i, mismatches = 0;

   if (full == NULL || widened == NULL || store == NULL)
      exit(2);
   cg_cache_init(&a, &cfg, full);
   cg_cache_init_l1(&b, &cfg, store);
   way0 = b.way0;
   for (i = 0; i < 100000; i++) {
      uintptr_t addr;
      unsigned len;
      int got;

      random_access(0x10000, 32768, 64, &addr, &len);
      if (i == 50000 && sizeof(cg_addr_t) > 4)
         addr += (uintptr_t)1 << (sizeof(uintptr_t) * 8 - 24);  /* 2^40:
                                                          too wide */
      got = b.tags32 ? cg_cache_ref32(&b, addr, (uint8_t)len)
                     : cg_cache_ref(&b, addr, (uint8_t)len);
      if (got == CG_CACHE_WIDEN) {
         CHECK_EQ(i, 50000);
         cg_cache_widen(&b, widened);
         CHECK(b.tags == widened && b.tags32 == NULL);
         CHECK(b.way0 == way0);
         CHECK_EQ(b.compact_end, 0);
         got = cg_cache_ref(&b, addr, (uint8_t)len);
      }
      if (got != cg_cache_ref(&a, addr, (uint8_t)len))
         mismatches++;
      if (i % 1000 == 0 && !way0_copies_agree(&b))
         mismatches++;
   }
   CHECK_EQ(mismatches, 0);
   CHECK(sizeof(cg_addr_t) == 4 || b.tags == widened);
   CHECK(way0_copies_agree(&b));
   for (i = 0; i < (long)(cg_cache_tag_bytes(&cfg) / sizeof(uintptr_t)); i++)
      if (a.tags[i] != cache_tag(&b, (uint32_t)(i / 8), (uint32_t)(i % 8)))
         break;
   CHECK_EQ(i, (long)(cg_cache_tag_bytes(&cfg) / sizeof(uintptr_t)));
   free(full);
   free(widened);
   free(store);
}

int main(void)
{
   RUN(test_geometry);
   RUN(test_compact_tags);
   RUN(test_compact_tags_scalar);
   RUN(test_compact_tags_avx2);
   RUN(test_compact_widen);
   RUN(test_l1_layout);
   RUN(test_l1_widen);
   RUN(test_lru_two_way);
   RUN(test_lru_four_way);
   RUN(test_initial_block_zero);
   RUN(test_direct_mapped);
   RUN(test_fully_associative);
   RUN(test_straddle_two_lines);
   RUN(test_straddle_same_set);
   RUN(test_straddle_panic);
   RUN(test_l1_then_ll);
   RUN(test_write_allocate);
   RUN(test_is_mru);
   RUN(test_against_reference);
   RUN(test_against_reference_scalar);
   RUN(test_against_reference_l1_scalar);
   RUN(test_against_reference_l1);
   RUN(test_against_reference_l1_avx2);
   RUN(test_against_reference_l1_avx2_all);
   RUN(test_vector_choice);
   RUN(test_hierarchy_against_reference);
   return unit_finish("test_sim");
}
