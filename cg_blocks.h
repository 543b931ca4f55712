/* cg_blocks.h -- the records of each translated superblock: layout, storage, folding.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef CG_BLOCKS_H
#define CG_BLOCKS_H

#include "pub_tool_basics.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_tooliface.h"

#include "cg_cc.h"
#include "cg_sims.h"

/* What one event of a group adds one to per run of the group, encoded as
   (index into the block's line cost centres << CG_FOLD_BITS) | CG_FOLD_*. */
enum { CG_FOLD_IR, CG_FOLD_DR, CG_FOLD_DW, CG_FOLD_BC, CG_FOLD_BI,
       CG_N_FOLDS };
#define CG_FOLD_BITS 3
#define CG_MAX_CCS (0xFFFF >> CG_FOLD_BITS)

/* The records of one translated superblock, in one allocation: this
   header, then
      ULong counts[n_groups]       runs of each group since the last fold
      CgLineCC *ccs[n_ccs]         the distinct lines of its instructions
      CgSimInstr sims[n_sims]      arguments of its fetch and branch helpers
      UShort events[n_events]      fold codes, group after group
      UChar group_size[n_groups]   events per group.
   The emitted code holds the addresses of counts[] and sims[].  Key: the
   guest address the code was read from (vge.base[0]); owner: sb_table, or
   retired_sbs when a second translation with the same key appeared.  Freed
   when the core discards the translation. */
typedef struct CgSBInfo {
   struct CgSBInfo *next;     /* VgHashNode header: chain (or, once retired,
                                 the retired list) ... */
   UWord key;                 /* ... and key */
   UShort n_groups, n_ccs, n_sims, n_events;
   Bool collided;             /* another live translation shares the key */
} CgSBInfo;

static inline ULong *cg_sb_counts(CgSBInfo *sbi)
{
   return (ULong *)((UChar *)sbi + ((sizeof *sbi + 7) & ~(SizeT)7));
}

static inline CgLineCC **cg_sb_ccs(CgSBInfo *sbi)
{
   return (CgLineCC **)(cg_sb_counts(sbi) + sbi->n_groups);
}

static inline CgSimInstr *cg_sb_sims(CgSBInfo *sbi)
{
   return (CgSimInstr *)(cg_sb_ccs(sbi) + sbi->n_ccs);
}

static inline UShort *cg_sb_events(CgSBInfo *sbi)
{
   return (UShort *)(cg_sb_sims(sbi) + sbi->n_sims);
}

static inline UChar *cg_sb_group_sizes(CgSBInfo *sbi)
{
   return (UChar *)(cg_sb_events(sbi) + sbi->n_events);
}

static inline SizeT cg_sb_bytes(const CgSBInfo *shape)
{
   return ((sizeof *shape + 7) & ~(SizeT)7)
          + shape->n_groups * sizeof(ULong)
          + shape->n_ccs * sizeof(CgLineCC *)
          + shape->n_sims * sizeof(CgSimInstr)
          + shape->n_events * sizeof(UShort)
          + shape->n_groups * sizeof(UChar);
}

extern Int fold_slot[CG_N_FOLDS];
extern VgHashTable *sb_table;
extern CgSBInfo *retired_sbs;

void *cg_sb_alloc(SizeT bytes);
void cg_fold_all(void);
void cg_sb_discard(Addr key, Bool has_records);

#endif /* CG_BLOCKS_H */
