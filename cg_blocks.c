/* cg_blocks.c -- the records of each translated superblock: layout, storage, folding.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"

#include "cg_blocks.h"
#include "cg_cc.h"

/*------------------------------------------------------------*/
/*--- Per-superblock records                               ---*/
/*------------------------------------------------------------*/

STATIC_ASSERT(CG_N_FOLDS <= CG_FOLD_MASK + 1);

/* The records of the translations alive now (key: CgSBInfo.key), and
   those retired because a newer translation with the same key appeared
   (a list through CgSBInfo.next; kept, and counted, until exit). */
static VgHashTable *sb_table;
static CgSBInfo *retired_sbs;

void cg_blocks_init(void)
{
   sb_table = VG_(HT_construct)("cg.main.sbtable");
}

/* Storage of the records.  A block's records are a few hundred bytes, and
   there is one allocation per translated block: from the core's allocator
   each would carry some 40 bytes of headers and red zones, a quarter of
   the whole.  So they are carved from the pool (no header) in multiples
   of CG_SB_GRAIN bytes, and a discarded block's storage goes on a free
   list of its size, from which the next record of that size is taken.
   Records of more than CG_SB_SMALL bytes (blocks of hundreds of
   instructions) use the core's allocator. */
#define CG_SB_GRAIN 16
#define CG_SB_SMALL 2048
static void *sb_free_lists[CG_SB_SMALL / CG_SB_GRAIN + 1];

/* The size class of a record of bytes bytes (its storage is class *
   CG_SB_GRAIN bytes), or 0 for one the core's allocator holds.  The one
   rule for both cg_sb_alloc and cg_sb_free. */
static SizeT cg_sb_class(SizeT bytes)
{
   return bytes > CG_SB_SMALL ? 0 : (bytes + CG_SB_GRAIN - 1) / CG_SB_GRAIN;
}

static void *cg_sb_alloc(SizeT bytes)
{
   SizeT class = cg_sb_class(bytes);
   if (class == 0)
      return VG_(malloc)("cg.main.sbinfo", bytes);
   void *p = sb_free_lists[class];
   if (p) {
      sb_free_lists[class] = *(void **)p;
      return p;
   }
   return cg_pool_alloc(class * CG_SB_GRAIN);
}

static void cg_sb_free(CgSBInfo *sbi)
{
   SizeT class = cg_sb_class(cg_sb_bytes(sbi));
   if (class == 0) {
      VG_(free)(sbi);
      return;
   }
   *(void **)sbi = sb_free_lists[class];
   sb_free_lists[class] = sbi;
}

CgSBInfo *cg_sb_new(UInt n_groups, UInt n_ccs, UInt n_sims, UInt n_events,
                    Bool gated, Addr key)
{
   CgSBInfo shape = { 0 };

   tl_assert(n_groups <= 0xFFFF && n_sims <= 0xFFFF && n_events <= 0xFFFF
             && n_ccs <= CG_MAX_CCS);
   shape.n_groups = (UShort)n_groups;
   shape.n_ccs = (UShort)n_ccs;
   shape.n_sims = (UShort)n_sims;
   shape.n_events = (UShort)n_events;
   shape.gated = gated;

   CgSBInfo *sbi = cg_sb_alloc(cg_sb_bytes(&shape));
   *sbi = shape;
   sbi->key = key;
   sbi->collided = False;
   return sbi;
}

void cg_sb_insert(CgSBInfo *sbi)
{
   /* Two live translations with one key (e.g. a no-redirection translation
      beside a normal one) must not share records: the older one is
      retired, still counted, and never freed. */
   CgSBInfo *old = VG_(HT_remove)(sb_table, sbi->key);
   if (old) {
      old->collided = True;
      old->next = retired_sbs;
      retired_sbs = old;
      sbi->collided = True;
   }
   VG_(HT_add_node)(sb_table, sbi);
}

UInt cg_sb_count(void)
{
   return VG_(HT_count_nodes)(sb_table);
}

/* Adds each group's count to its counters and zeroes it. */
static void cg_fold_sb(CgSBInfo *sbi)
{
   ULong *counts = cg_sb_counts(sbi);
   CgLineCC **ccs = cg_sb_ccs(sbi);
   const UShort *ev = cg_sb_events(sbi);
   const UChar *sizes = cg_sb_group_sizes(sbi);

   for (UInt g = 0; g < sbi->n_groups; ev += sizes[g], g++) {
      ULong n = counts[g];
      if (n == 0)
         continue;
      for (UInt i = 0; i < sizes[g]; i++) {
         CgLineCC *cc = ccs[ev[i] >> CG_FOLD_BITS];
         cc->c[cg_layout.shape_fold[cc->shape][ev[i] & CG_FOLD_MASK]] += n;
      }
      counts[g] = 0;
   }
}

void cg_fold_all(void)
{
   VG_(HT_ResetIter)(sb_table);
   for (CgSBInfo *sbi; (sbi = VG_(HT_Next)(sb_table)) != NULL; )
      cg_fold_sb(sbi);
   for (CgSBInfo *sbi = retired_sbs; sbi; sbi = sbi->next)
      cg_fold_sb(sbi);
}

/* The core discards the translation of key: fold its counts, then free
   its records (unless another translation with the same key may still use
   them).  has_records says whether it has any (it has none if it was
   translated while instrumentation was off). */
void cg_sb_discard(Addr key, Bool has_records)
{
   CgSBInfo *sbi = VG_(HT_remove)(sb_table, key);
   if (!has_records) {
      tl_assert(sbi == NULL);
      return;
   }
   tl_assert(sbi != NULL);
   cg_fold_sb(sbi);
   if (sbi->collided) {
      sbi->next = retired_sbs;
      retired_sbs = sbi;
   } else {
      cg_sb_free(sbi);
   }
}
