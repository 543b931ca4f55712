/* cg_instrument.h -- the instrumentation pass: events, flushes, the records of a superblock.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef CG_INSTRUMENT_H
#define CG_INSTRUMENT_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

#include "cg_cc.h"

/* The event queue has the reference's capacity, so that flushes (and with
   them the attribution of counts when an instruction faults) happen at
   exactly the same places. */
#define N_EVENTS 16

/* An IR expression that is an atom (a temporary or a constant). */
typedef IRExpr IRAtom;

/* An instruction of the block being instrumented. */
typedef struct {
   Addr addr;
   UChar len;
   UShort cc_index;            /* into the block's distinct lines */
   CgLineCC *cc;
} CgInstr;

typedef enum { EV_IR, EV_DR, EV_DW, EV_DM, EV_BC, EV_BI } CgEventKind;

typedef struct {
   CgEventKind kind;
   const CgInstr *inode;
   Int size;          /* data events: bytes accessed */
   IRAtom *atom;      /* data address; Bc: 1 if taken (host word); Bi: target */
} CgEvent;

/* A growable array of words used while one superblock is instrumented;
   owner: CgState, reused for every superblock. */
typedef struct {
   UWord *w;
   UInt used, size;
} CgScratch;

/* Everything the instrumentation of one superblock needs.  The block's
   records (CgSBInfo) are only allocated at the end, when their sizes are
   known; until then the emitted code refers to them through constants that
   are patched in cg_finish_sb ("fixups"). */
typedef struct {
   IRSB *sb_out;
   IRType hword_ty;
   CgInstr *instrs;             /* n_instrs, owned here, reused */
   UInt instrs_size;
   UInt n_instrs;
   UInt instr_i;                /* next free entry of instrs */
   CgEvent events[N_EVENTS];
   Int events_used;
   /* The line of the last instruction fetch simulated in this block: a
      fetch within it hits the most recently used way and changes nothing,
      so it is not simulated again. */
   Bool have_last_iblock;
   Addr last_iblock;
   CgScratch ccs;               /* CgLineCC*: the block's distinct lines */
   CgScratch sims;              /* triples: instruction index, column,
                                   group (branches) or CG_NOT_BRANCH */
   CgScratch fixups;            /* pairs: IRConst*, CG_FIX_* code */
   CgScratch group_sizes;       /* events per group */
   CgScratch fold_codes;        /* all events, group after group */
} CgState;

extern ULong stat_instrs_nox, stat_instrs_gen;

/* Keeps config (read-only) for the instrumentation to come. */
void cg_instrument_init(const struct cg_config *config);

IRSB *cg_instrument(VgCallbackClosure *closure, IRSB *sb_in,
                    const VexGuestLayout *layout,
                    const VexGuestExtents *vge,
                    const VexArchInfo *archinfo_host,
                    IRType gWordTy, IRType hWordTy);

#endif /* CG_INSTRUMENT_H */
