/* cg_blocks.h -- the records of each translated superblock: layout, storage, folding.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Notes
   -----
   Lifetime.  A superblock's records (CgSBInfo) live as long as its
   translation: they are folded when the core discards the translation,
   and their storage goes to a free list by size for the next block's
   records.  The line cost centres they point to, and the interned names
   of those (cg_cc.h), live until exit. */

#ifndef CG_BLOCKS_H
#define CG_BLOCKS_H

#include "pub_tool_basics.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_tooliface.h"

#include "cg_cc.h"
#include "cg_sims.h"

/* An event of a group, as its records keep it: what it adds one to per
   run of the group, encoded as
   (index into the block's line cost centres << CG_FOLD_BITS) | CgFold. */
#define CG_FOLD_BITS 3
#define CG_FOLD_MASK ((1u << CG_FOLD_BITS) - 1)
#define CG_MAX_CCS (0xFFFF >> CG_FOLD_BITS)

/* The records of one translated superblock, in one allocation: this
   header, then
      ULong counts[n_groups]       runs of each group since the last fold
      CgLineCC *ccs[n_ccs]         the distinct lines of its instructions
      CgSimInstr sims[n_sims]      arguments of its fetch and branch helpers
      UShort events[n_events]      fold codes, group after group
      UChar group_size[n_groups]   events per group
   and, when gated (--toggle-collect: cg_collect.h), 8-aligned,
      ULong nc_count               a sink for the runs of branch groups
      CgSimInstr nc_sims[n_sims]   twins of sims[] that count into sinks
   The emitted code holds the addresses of counts[] and sims[] (and, gated,
   chooses between sims[r] and nc_sims[r] at run time).  Key: the
   guest address the code was read from (vge.base[0]); owner: sb_table, or
   retired_sbs when a second translation with the same key appeared.  Freed
   when the core discards the translation. */
typedef struct CgSBInfo {
   struct CgSBInfo *next;     /* VgHashNode header: chain (or, once retired,
                                 the retired list) ... */
   UWord key;                 /* ... and key */
   UShort n_groups, n_ccs, n_sims, n_events;
   Bool collided;             /* another live translation shares the key */
   Bool gated;                /* it has the twins of --toggle-collect */
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

/* Gated records only: the sink of branch groups' runs, and the twins. */
static inline ULong *cg_sb_nc_count(CgSBInfo *sbi)
{
   return (ULong *)(((UWord)(cg_sb_group_sizes(sbi) + sbi->n_groups) + 7)
                    & ~(UWord)7);
}

static inline CgSimInstr *cg_sb_nc_sims(CgSBInfo *sbi)
{
   return (CgSimInstr *)(cg_sb_nc_count(sbi) + 1);
}

static inline SizeT cg_sb_bytes(const CgSBInfo *shape)
{
   SizeT bytes = ((sizeof *shape + 7) & ~(SizeT)7)
                 + shape->n_groups * sizeof(ULong)
                 + shape->n_ccs * sizeof(CgLineCC *)
                 + shape->n_sims * sizeof(CgSimInstr)
                 + shape->n_events * sizeof(UShort)
                 + shape->n_groups * sizeof(UChar);
   if (shape->gated)
      bytes = ((bytes + 7) & ~(SizeT)7) + sizeof(ULong)
              + shape->n_sims * sizeof(CgSimInstr);
   return bytes;
}

/* Creates the table of records (at start-up). */
void cg_blocks_init(void);

/* New records of the given shape for the translation of key, their
   arrays not yet filled (cg_sb_* above).  Storage: from the pool,
   recycled by size. */
CgSBInfo *cg_sb_new(UInt n_groups, UInt n_ccs, UInt n_sims, UInt n_events,
                    Bool gated, Addr key);

/* Enters filled records in the table; the table owns them from now on.
   Records of an older translation with the same key are retired (still
   counted). */
void cg_sb_insert(CgSBInfo *sbi);

/* Adds every group's runs since the last fold to its lines' counters, for
   all records, live and retired. */
void cg_fold_all(void);

/* The core discards the translation of key: its counts are folded, then
   its records are freed (unless another translation with the same key may
   still use them).  has_records says whether it has any (it has none if
   it was translated while instrumentation was off). */
void cg_sb_discard(Addr key, Bool has_records);

/* The number of live records, for --stats=yes. */
UInt cg_sb_count(void);

#endif /* CG_BLOCKS_H */
