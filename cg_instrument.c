/* cg_instrument.c -- the instrumentation pass: events, flushes, the records of a superblock.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Notes
   -----
   Counting model.  For every guest instruction the tool keeps a line cost
   centre (file, function, line) found from the debug info when the code is
   instrumented.  Events (instruction fetches, data accesses, branches) are
   queued while a superblock is instrumented and flushed exactly where the
   reference Cachegrind flushes them (a full queue of 16, every side exit, a
   load-linked, a guarded access, the end of the block).  Where a flush
   happens matters: if a guest instruction faults in the middle of a block,
   the events queued since the last flush are lost, in the reference and
   here alike.

   What a flush emits differs from the reference.  The events of one flush
   form a *group*; every event of a group happens exactly once each time the
   group's code runs.  So a group needs one execution counter, incremented
   inline, and the per-line counts (Ir, Dr, Dw, Bc, Bi) are recovered later
   by folding: each event adds the group's count to its line's counter.
   Folding happens when a translation is discarded, before a profile is
   written, and at exit.  Only what depends on run-time values (cache and
   branch simulation, guarded accesses) needs a helper call.

   Simulation.  A fetch in the same line as the previous fetch of the block
   hits the most recently used way and changes nothing: it is not
   simulated, and an instruction that starts in that line and ends in the
   next is simulated as a reference to the next line alone.  Other fetches
   and data accesses are tested inline for that same case, and the helper
   is called only when the test fails (and then, on AVX2 hosts, goes
   straight to the vector code, which is right for a way-0 hit too).  A branch
   always ends its group, and its helper (always called: the predictors
   change on every branch) also counts the group's runs.  Helpers run in
   program order at the flush point, so the simulated caches see exactly
   the reference's sequence of accesses.  In a helper, a reference that
   misses way 0 moves its set with vector code where the host has AVX2
   (cg_sim.h), without the unpredictable branch of a scan; on such hosts
   the fetch and data helpers are themselves compiled for AVX2 with that
   code inline, and keep their rare paths (L1 misses, two-line accesses)
   out of line, so that the common path makes no call and saves no
   registers.  On amd64 a data access's call passes only the address: a
   small stub per (line counter, helper) supplies the counter
   (cg_stubs.c).
   docs/performance.md tells what each of these choices gains, and what was
   tried and dropped. */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"

#include "cg_blocks.h"
#include "cg_cc.h"
#include "cg_clreq.h"
#include "cg_collect.h"
#include "cg_config.h"
#include "cg_instrument.h"
#include "cg_irgen.h"
#include "cg_parts.h"
#include "cg_sims.h"
#include "cg_stubs.h"

/*------------------------------------------------------------*/
/*--- Instrumentation                                      ---*/
/*------------------------------------------------------------*/

/* The event queue has the reference's capacity, so that flushes (and with
   them the attribution of counts when an instruction faults) happen at
   exactly the same places. */
#define N_EVENTS 16

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
   IRAtom *atom;      /* data address; Bc: 1 if taken (host word);
                         Bi: target */
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
   struct cg_irgen ir;          /* the superblock being built */
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
   UInt data_tests;             /* inline data tests emitted in the block */
   CgScratch ccs;               /* CgLineCC*: the block's distinct lines */
   CgScratch sims;              /* triples: instruction index, column,
                                   group (branches) or CG_NOT_BRANCH */
   CgScratch fixups;            /* pairs: IRConst* (IRDirty* for
                                   CG_FIX_PACKED), CG_FIX_* code */
   CgScratch group_sizes;       /* events per group */
   CgScratch fold_codes;        /* all events, group after group */
   CgScratch excluded;          /* per IMark: 1 if it lies in a request
                                   sequence of cachegrind.h (cg_clreq.h) */
   /* --toggle-collect: whether counting is on (an Ity_I1 atom) for the
      group being flushed, or NULL when counts are not gated. */
   IRAtom *collect;
   Int offset_sp;               /* of the guest stack pointer */
   UInt shape;                  /* of the next instruction's cost centre
                                   (cg_instr_shape) */
} CgState;

static void cg_scratch_push(CgScratch *s, UWord v)
{
   if (s->used == s->size) {
      s->size = s->size ? 2 * s->size : 256;
      s->w = VG_(realloc)("cg.main.scratch", s->w, s->size * sizeof(UWord));
   }
   s->w[s->used++] = v;
}

#define CG_FIX_COUNT(g)  ((UWord)(g) << 2)      /* &counts[g] */
#define CG_FIX_SIM(r)    ((UWord)(r) << 2 | 1)  /* &sims[r] */
#define CG_FIX_NC_SIM(r) ((UWord)(r) << 2 | 2)  /* &nc_sims[r] (gated) */
/* sims[r] and its last block packed (cg_fetch_pack); the fixup's first
   word is then the IRDirty of the call, whose argument is patched. */
#define CG_FIX_PACKED(r) ((UWord)(r) << 2 | 3)

/* The options; set by cg_instrument_init. */
static const struct cg_config *cfg;

/* Reused: the core instruments one superblock at a time. */
static CgState cgs_static;

/* Statistics (--stats=yes). */
static ULong stat_instrs_nox, stat_instrs_gen;
static ULong stat_shape_misses;    /* cg_inode_counter widened a cost centre */

/* Where gated counts go while counting is off (--toggle-collect): a
   group's runs, and a helper's counters (three for the guarded access
   helper, which counts its access and two misses).  Never read. */
static ULong cg_sink[3];

/* Whether counts are gated by cg_collecting (--toggle-collect). */
static Bool cg_gated(void)
{
   return cfg->n_toggle_collect > 0;
}

/* An Ity_I1 atom: whether the running thread counts now. */
static IRAtom *cg_emit_collecting(CgState *cgs)
{
   IRType ty = cgs->ir.hword_ty;
   IRAtom *c = cg_assign(&cgs->ir, ty, IRExpr_Load(Iend_LE, ty,
                                                   cg_ptr(&cgs->ir,
                                                          &cg_collecting)));
   return cg_assign(&cgs->ir, Ity_I1,
                    IRExpr_Binop(ty == Ity_I64 ? Iop_CmpNE64 : Iop_CmpNE32,
                                 c, cg_hword_const(&cgs->ir, 0, NULL)));
}

/* ptr where counts are not gated; else ptr while counting is on, other
   (a host-word atom) while it is off. */
static IRExpr *cg_gate(CgState *cgs, IRExpr *ptr, IRExpr *other)
{
   if (!cgs->collect)
      return ptr;
   return cg_assign(&cgs->ir, cgs->ir.hword_ty,
                    IRExpr_ITE(cgs->collect, ptr, other));
}

/* The cost centre of inode widened to have the counters of shape too
   (cg_cc_widen), in the block's records and in inode; returns it.  The
   block's entry for inode only ever gets wider, and is at least as wide
   as inode's own cost centre (which may be an older one when the
   instruction comes twice in the block), so every fold code of the
   instruction finds its counter there; counters taken before from a
   narrower one stay in use, and the writer adds the two up. */
static CgLineCC *cg_inode_widen(CgState *cgs, const CgInstr *inode,
                                UInt shape)
{
   CgLineCC **entry = (CgLineCC **)&cgs->ccs.w[inode->cc_index];
   CgLineCC *cc = cg_cc_widen(*entry, shape);
   *entry = cc;
   cgs->instrs[inode - cgs->instrs].cc = cc;
   return cc;
}

/* The counter of column col of inode's cost centre.  cg_instr_shape gave
   that its counters; should it have missed one, the cost centre is
   widened. */
static ULong *cg_inode_counter(CgState *cgs, const CgInstr *inode,
                               CgColumnId col)
{
   ULong *c = cg_counter(inode->cc, col);
   if (c == NULL) {
      stat_shape_misses++;
      c = cg_counter(cg_inode_widen(cgs, inode, cg_columns[col].shape), col);
   }
   tl_assert(c != NULL);
   return c;
}

/* The fold code of an event (see CgSBInfo), with its counter made sure
   of. */
static UWord cg_fold_code(CgState *cgs, const CgEvent *ev)
{
   CgColumnId col = COL_IR;
   UWord what = CG_FOLD_IR;
   switch (ev->kind) {
   case EV_IR: col = COL_IR; what = CG_FOLD_IR; break;
   case EV_DR:                                /* a modify counts as one */
   case EV_DM: col = COL_DR; what = CG_FOLD_DR; break;      /* read */
   case EV_DW: col = COL_DW; what = CG_FOLD_DW; break;
   case EV_BC: col = COL_BC; what = CG_FOLD_BC; break;
   case EV_BI: col = COL_BI; what = CG_FOLD_BI; break;
   }
   cg_inode_counter(cgs, ev->inode, col);
   return (UWord)ev->inode->cc_index << CG_FOLD_BITS | what;
}

/* A pointer into the block's records, patched by cg_finish_sb. */
static IRExpr *cg_fixup_ptr(CgState *cgs, UWord fix)
{
   IRConst *c;
   IRExpr *e = cg_hword_const(&cgs->ir, 0, &c);
   cg_scratch_push(&cgs->fixups, (UWord)c);
   cg_scratch_push(&cgs->fixups, fix);
   return e;
}

/* A new CgSimInstr for inode counting its misses in column col (and, for
   a branch, the runs of the current group); returns its index. */
static UWord cg_new_sim(CgState *cgs, const CgInstr *inode, CgColumnId col,
                        UWord branch)
{
   cg_inode_counter(cgs, inode, col);    /* there for cg_fill_sims */
   UWord r = cgs->sims.used / 3;
   cg_scratch_push(&cgs->sims, (UWord)(inode - cgs->instrs));
   cg_scratch_push(&cgs->sims, (UWord)col);
   cg_scratch_push(&cgs->sims, branch);
   return r;
}

/* A new CgSimInstr (cg_new_sim); returns the (patched) constant pointing
   to it. */
static IRExpr *cg_sim_arg(CgState *cgs, const CgInstr *inode, CgColumnId col,
                          UWord branch)
{
   UWord r = cg_new_sim(cgs, inode, col, branch);
   IRExpr *sim = cg_fixup_ptr(cgs, CG_FIX_SIM(r));
   return cgs->collect ? cg_gate(cgs, sim, cg_fixup_ptr(cgs, CG_FIX_NC_SIM(r)))
                       : sim;
}

#define CG_NOT_BRANCH (~(UWord)0)

/* Emits "counts[g] += 1" for the group being flushed. */
static void cg_emit_group_count(CgState *cgs)
{
   IRExpr *count = cg_fixup_ptr(cgs, CG_FIX_COUNT(cgs->group_sizes.used));
   cg_emit_increment(&cgs->ir,
                     cg_gate(cgs, count, cg_ptr(&cgs->ir, cg_sink)));
}

/* The fetch of an instruction.  The previous fetch of this block left its
   last line in way 0 of its set (no other fetch came in between), so if
   the instruction starts in that line, that part of the fetch is a hit
   that changes nothing: an instruction within that line is not simulated
   at all, and one that goes on into the next line is simulated as a
   reference to that line alone (its miss, if any, still goes to LL as the
   whole fetch).  Every line the fetch still needs is tested inline for
   way 0, and the helper is called when the test fails. */
static void cg_emit_fetch(CgState *cgs, const CgInstr *inode)
{
   const struct cg_cache *c = &cg_sims.I1;
   Addr first = inode->addr >> c->line_bits;
   Addr last = (inode->addr + inode->len - 1) >> c->line_bits;
   Bool first_known = cgs->have_last_iblock && first == cgs->last_iblock;

   cgs->have_last_iblock = True;
   cgs->last_iblock = last;
   if (first_known && first == last)
      return;
   IRAtom *guard = cg_emit_lines_not_way0(&cgs->ir, c, first, last,
                                          !first_known);
   /* fetch_last reads the last line's block number from the record, in 32
      bits; fetch_packed gets it in its argument, with the record (not
      gated: there the argument is chosen at run time). */
   Bool last_only = (first_known || first == last) && last == (UInt)last;
   void *packed_helper = cg_sims.helpers_I1->fetch_packed;
   if (last_only && packed_helper != NULL && cgs->collect == NULL) {
      UWord r = cg_new_sim(cgs, inode, COL_I1MR, CG_NOT_BRANCH);
      IRDirty *di = cg_emit_call(&cgs->ir, "cg_h_fetch_packed", packed_helper,
                                 1, mkIRExprVec_1(cg_hword_const(&cgs->ir, 0,
                                                                 NULL)),
                                 guard);
      cg_scratch_push(&cgs->fixups, (UWord)di);
      cg_scratch_push(&cgs->fixups, CG_FIX_PACKED(r));
      return;
   }
   cg_emit_call(&cgs->ir, "cg_h_fetch",
                last_only ? cg_sims.helpers_I1->fetch_last
                          : cg_sims.helpers_I1->fetch,
                1, mkIRExprVec_1(cg_sim_arg(cgs, inode, COL_I1MR,
                                            CG_NOT_BRANCH)), guard);
}

/* The most data accesses of a superblock that get an inline way-0 test;
   the others call their helper every time (a hit in way 0 changes nothing
   there either, so the counts are the same).  An inline test is about 40
   bytes of host code (60 for a fully associative D1, whose span test is
   apart), and VEX has room for about 60,000 bytes of one superblock's
   code: a block of hundreds of accesses (x86's pusha and popa write and
   read 8 words each, a gather reads up to 8, and --vex-guest-max-insns
   allows 100 instructions) would not fit, where the reference's, a call
   an access, does.  Real code's blocks have far fewer. */
#define CG_DATA_TESTS_MAX 128

/* A data access: the helper runs unless the inline test finds a hit in the
   most recently used way of D1. */
static void cg_emit_data_access(CgState *cgs, const CgEvent *ev)
{
   IRAtom *guard = NULL;
   if (cgs->data_tests < CG_DATA_TESTS_MAX) {
      cgs->data_tests++;
      guard = cg_emit_maybe_miss(&cgs->ir, &cg_sims.D1, ev->atom, ev->size);
   }
   ULong *misses = cg_inode_counter(cgs, ev->inode,
                                    ev->kind == EV_DW ? COL_D1MW : COL_D1MR);
   for (UInt i = 0; i < sizeof cg_data_helper_sizes
                        / sizeof cg_data_helper_sizes[0]; i++)
      if (cg_data_helper_sizes[i] == ev->size) {
         /* Gated, the counter is chosen at run time: no stub. */
         void *stub = cgs->collect ? NULL
                      : cg_data_stub(misses, cg_sims.helpers_D1->data[i]);
         if (stub)
            cg_emit_call(&cgs->ir, cg_data_helper_names[i], stub, 1,
                         mkIRExprVec_1(ev->atom), guard);
         else
            cg_emit_call(&cgs->ir, cg_data_helper_names[i],
                         cg_sims.helpers_D1->data[i],
                         2, mkIRExprVec_2(ev->atom,
                                          cg_gate(cgs,
                                                  cg_ptr(&cgs->ir, misses),
                                                  cg_ptr(&cgs->ir, cg_sink))),
                         guard);
         return;
      }
   cg_emit_call(&cgs->ir, "cg_h_data", cg_h_data, 3,
                mkIRExprVec_3(ev->atom,
                              cg_gate(cgs, cg_ptr(&cgs->ir, misses),
                                      cg_ptr(&cgs->ir, cg_sink)),
                              cg_hword_const(&cgs->ir, ev->size, NULL)),
                guard);
}

/* Emits the code for the queued events, in program order, and empties the
   queue: their simulation, then one increment of the group's counter. */
static void cg_flush_events(CgState *cgs)
{
   if (cgs->events_used == 0)
      return;
   UWord group = cgs->group_sizes.used;
   Bool counted = False;
   if (cg_gated())
      cgs->collect = cg_emit_collecting(cgs);
   for (Int i = 0; i < cgs->events_used; i++) {
      const CgEvent *ev = &cgs->events[i];
      tl_assert(!counted);
      cg_scratch_push(&cgs->fold_codes, cg_fold_code(cgs, ev));
      switch (ev->kind) {
      case EV_IR:
         if (cfg->cache_sim)
            cg_emit_fetch(cgs, ev->inode);
         break;
      case EV_DR:
      case EV_DM:
      case EV_DW:
         cg_emit_data_access(cgs, ev);
         break;
      case EV_BC:
         cg_emit_call(&cgs->ir, "cg_h_cond_branch", cg_h_cond_branch, 2,
                      mkIRExprVec_2(cg_sim_arg(cgs, ev->inode, COL_BCM,
                                               group),
                                    ev->atom), NULL);
         counted = True;
         break;
      case EV_BI:
         cg_emit_call(&cgs->ir, "cg_h_ind_branch", cg_h_ind_branch, 2,
                      mkIRExprVec_2(cg_sim_arg(cgs, ev->inode, COL_BIM,
                                               group),
                                    ev->atom), NULL);
         counted = True;
         break;
      }
   }
   /* A branch, always the group's last event, counted the runs. */
   if (!counted)
      cg_emit_group_count(cgs);
   cg_scratch_push(&cgs->group_sizes, (UWord)cgs->events_used);
   cgs->events_used = 0;
   cgs->collect = NULL;
}

static CgEvent *cg_new_event(CgState *cgs, CgEventKind kind,
                             const CgInstr *inode)
{
   if (cgs->events_used == N_EVENTS)
      cg_flush_events(cgs);
   tl_assert(cgs->events_used >= 0 && cgs->events_used < N_EVENTS);
   CgEvent *ev = &cgs->events[cgs->events_used++];
   ev->kind = kind;
   ev->inode = inode;
   ev->size = 0;
   ev->atom = NULL;
   return ev;
}

/* Whether a fetch of the instruction touches one cache line and I1 and LL
   have equal line sizes (the reference's "no-cross" class; only counted
   for --stats, the simulation does not depend on it). */
static Bool cg_instr_is_nox(Addr addr, UInt len)
{
   /* Without the cache simulation the geometry is all zeros. */
   UInt bits = cg_sims.I1.line_bits;
   return (addr >> bits) == ((addr + len - 1) >> bits)
          && cg_sims.I1.line_size == cg_sims.LL.line_size;
}

static void cg_add_event_Ir(CgState *cgs, const CgInstr *inode)
{
   cg_new_event(cgs, EV_IR, inode);
   if (cg_instr_is_nox(inode->addr, inode->len))
      stat_instrs_nox++;
   else
      stat_instrs_gen++;
}

static void cg_add_event_Dr(CgState *cgs, const CgInstr *inode, Int size,
                            IRAtom *ea)
{
   tl_assert(isIRAtom(ea));
   if (!cfg->cache_sim)
      return;
   tl_assert(size >= 1 && size <= cg_sims.min_line_size);
   CgEvent *ev = cg_new_event(cgs, EV_DR, inode);
   ev->size = size;
   ev->atom = ea;
}

static void cg_add_event_Dw(CgState *cgs, const CgInstr *inode, Int size,
                            IRAtom *ea)
{
   tl_assert(isIRAtom(ea));
   if (!cfg->cache_sim)
      return;
   tl_assert(size >= 1 && size <= cg_sims.min_line_size);
   /* A write right after a read of the same size, address atom and
      instruction is a read-modify-write: it counts as one read. */
   if (cgs->events_used > 0) {
      CgEvent *last = &cgs->events[cgs->events_used - 1];
      if (last->kind == EV_DR && last->size == size && last->inode == inode
          && eqIRAtom(last->atom, ea)) {
         last->kind = EV_DM;
         return;
      }
   }
   CgEvent *ev = cg_new_event(cgs, EV_DW, inode);
   ev->size = size;
   ev->atom = ea;
}

/* A conditional (EV_BC, atom: 1 if taken, 0 if not, as a host word) or
   indirect (EV_BI, atom: target) branch. */
static void cg_add_event_branch(CgState *cgs, CgEventKind kind,
                                const CgInstr *inode, IRAtom *atom)
{
   tl_assert(isIRAtom(atom));
   if (!cfg->branch_sim)
      return;
   CgEvent *ev = cg_new_event(cgs, kind, inode);
   ev->atom = atom;
}

/* A guarded load or store: it only counts if the guard holds. */
static void cg_add_event_D_guarded(CgState *cgs, const CgInstr *inode,
                                   Int size, IRAtom *ea, IRAtom *guard,
                                   Bool is_write)
{
   tl_assert(isIRAtom(ea) && isIRAtom(guard));
   if (!cfg->cache_sim)
      return;
   tl_assert(size >= 1 && size <= cg_sims.min_line_size);
   /* Merging guarded accesses into the queue is not worth it: flush,
      then handle this one on its own, as the reference does. */
   cg_flush_events(cgs);
   ULong *counts = cg_inode_counter(cgs, inode, is_write ? COL_DW : COL_DR);
   if (cg_gated())
      cgs->collect = cg_emit_collecting(cgs);
   cg_emit_call(&cgs->ir, "cg_h_data_guarded", cg_h_data_guarded, 3,
                mkIRExprVec_3(cg_gate(cgs, cg_ptr(&cgs->ir, counts),
                                      cg_ptr(&cgs->ir, cg_sink)),
                              ea, cg_hword_const(&cgs->ir, size, NULL)),
                guard);
   cgs->collect = NULL;
}

/* The index of cc among the block's distinct lines, adding it if new. */
static UShort cg_block_cc_index(CgState *cgs, CgLineCC *cc)
{
   for (UInt i = cgs->ccs.used; i > 0; i--)   /* recent ones first */
      if ((CgLineCC *)cgs->ccs.w[i - 1] == cc)
         return (UShort)(i - 1);
   tl_assert(cgs->ccs.used < CG_MAX_CCS);
   cg_scratch_push(&cgs->ccs, (UWord)cc);
   return (UShort)(cgs->ccs.used - 1);
}

/* The record of the next instruction of the superblock. */
static const CgInstr *cg_setup_instr(CgState *cgs, Addr addr, UInt len)
{
   tl_assert(cgs->instr_i < cgs->n_instrs);
   CgInstr *inode = &cgs->instrs[cgs->instr_i++];
   inode->addr = addr;
   inode->len = (UChar)len;
   inode->cc = cg_get_cc(addr, cgs->shape);
   inode->cc_index = cg_block_cc_index(cgs, inode->cc);
   return inode;
}

/* The stack pointer (an atom of the host word type). */
static IRAtom *cg_emit_get_sp(CgState *cgs)
{
   return cg_assign(&cgs->ir, cgs->ir.hword_ty,
                    IRExpr_Get(cgs->offset_sp, cgs->ir.hword_ty));
}

/* The limit of cg_collect.h, loaded. */
static IRAtom *cg_emit_collect_limit(CgState *cgs)
{
   IRType ty = cgs->ir.hword_ty;
   return cg_assign(&cgs->ir, ty, IRExpr_Load(Iend_LE, ty,
                                              cg_ptr(&cgs->ir,
                                                     &cg_collect_limit)));
}

/* The entry of a function that matches --toggle-collect: the events of
   the instructions before it are counted with the state before it, then,
   if no matching frame is active, this stack pointer starts one. */
static void cg_emit_collect_entry(CgState *cgs)
{
   IRType ty = cgs->ir.hword_ty;
   cg_flush_events(cgs);
   IRAtom *sp = cg_emit_get_sp(cgs);
   IRAtom *none = cg_assign(&cgs->ir, Ity_I1,
      IRExpr_Binop(ty == Ity_I64 ? Iop_CmpEQ64 : Iop_CmpEQ32,
                   cg_emit_collect_limit(cgs),
                   cg_hword_const(&cgs->ir, ~(HWord)0, NULL)));
   cg_emit_call(&cgs->ir, "cg_h_collect_enter", cg_h_collect_enter, 1,
                mkIRExprVec_1(sp), none);
}

/* At the start of a block, with --toggle-collect: a stack pointer above
   the limit means that the matching frame is gone (cg_collect.h). */
static void cg_emit_collect_check(CgState *cgs)
{
   IRType ty = cgs->ir.hword_ty;
   IRAtom *sp = cg_emit_get_sp(cgs);
   IRAtom *above = cg_assign(&cgs->ir, Ity_I1,
      IRExpr_Binop(ty == Ity_I64 ? Iop_CmpLT64U : Iop_CmpLT32U,
                   cg_emit_collect_limit(cgs), sp));
   cg_emit_call(&cgs->ir, "cg_h_collect_sp", cg_h_collect_sp, 1,
                mkIRExprVec_1(sp), above);
}

/* At the start of a block of n counted instructions, with --dump-every:
   the budget (cg_parts.h) pays for them, after a part if it would not
   suffice.  Gated, only while counting is on. */
static void cg_emit_dump_budget(CgState *cgs, UInt n)
{
   IRType ty = cgs->ir.hword_ty;
   Bool w64 = ty == Ity_I64;
   IRExpr *at = cg_ptr(&cgs->ir, &cg_dump_budget);
   IRAtom *cost = cg_hword_const(&cgs->ir, n, NULL);
   if (cg_gated())
      cost = cg_assign(&cgs->ir, ty,
                       IRExpr_ITE(cg_emit_collecting(cgs), cost,
                                  cg_hword_const(&cgs->ir, 0, NULL)));
   IRAtom *budget = cg_assign(&cgs->ir, ty, IRExpr_Load(Iend_LE, ty, at));
   IRAtom *short1 = cg_assign(&cgs->ir, Ity_I1,
      IRExpr_Binop(w64 ? Iop_CmpLT64U : Iop_CmpLT32U, budget, cost));
   IRDirty *di = unsafeIRDirty_0_N(0, "cg_h_dump_tick",
                                   VG_(fnptr_to_fnentry)(cg_h_dump_tick),
                                   mkIRExprVec_0());
   di->guard = short1;
   addStmtToIRSB(cgs->ir.sb_out, IRStmt_Dirty(di));
   budget = cg_assign(&cgs->ir, ty, IRExpr_Load(Iend_LE, ty, at));
   IRAtom *short2 = cg_assign(&cgs->ir, Ity_I1,
      IRExpr_Binop(w64 ? Iop_CmpLT64U : Iop_CmpLT32U, budget, cost));
   IRAtom *left = cg_assign(&cgs->ir, ty,
      IRExpr_Binop(w64 ? Iop_Sub64 : Iop_Sub32, budget, cost));
   left = cg_assign(&cgs->ir, ty,
                    IRExpr_ITE(short2, cg_hword_const(&cgs->ir, 0, NULL),
                               left));
   addStmtToIRSB(cgs->ir.sb_out, IRStmt_Store(Iend_LE, at, left));
}

static const CgInstr *cg_do_IMark(CgState *cgs, const IRStmt *st)
{
   Addr addr = st->Ist.IMark.addr;
   UInt len = st->Ist.IMark.len;
   /* VEX gives length 0 when it failed to decode the instruction. */
   if (len == 0)
      len = VG_MIN_INSTR_SZB;
   tl_assert((VG_MIN_INSTR_SZB <= len && len <= VG_MAX_INSTR_SZB)
             || len == VG_CLREQ_SZB);
   if (cg_gated() && cg_collect_is_entry(addr))
      cg_emit_collect_entry(cgs);
   const CgInstr *inode = cg_setup_instr(cgs, addr, len);
   cg_add_event_Ir(cgs, inode);
   return inode;
}

static Int cg_clamp(Int size)
{
   return size > cg_sims.min_line_size ? cg_sims.min_line_size : size;
}

static void cg_do_Dirty(CgState *cgs, const CgInstr *inode, const IRDirty *d)
{
   if (d->mFx == Ifx_None) {
      tl_assert(d->mAddr == NULL && d->mSize == 0);
      return;
   }
   tl_assert(d->mAddr != NULL && d->mSize != 0);
   Int size = cg_clamp(d->mSize);
   if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
      cg_add_event_Dr(cgs, inode, size, d->mAddr);
   if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
      cg_add_event_Dw(cgs, inode, size, d->mAddr);
}

static void cg_do_CAS(CgState *cgs, const CgInstr *inode,
                      const IRTypeEnv *tyenv, const IRCAS *cas)
{
   tl_assert(cas->addr != NULL && cas->dataLo != NULL);
   Int size = sizeofIRType(typeOfIRExpr(tyenv, cas->dataLo));
   if (cas->dataHi != NULL)
      size *= 2;                 /* double-word CAS */
   size = cg_clamp(size);
   cg_add_event_Dr(cgs, inode, size, cas->addr);
   cg_add_event_Dw(cgs, inode, size, cas->addr);
}

static void cg_do_LLSC(CgState *cgs, const CgInstr *inode,
                       const IRTypeEnv *tyenv, const IRStmt *st)
{
   if (st->Ist.LLSC.storedata == NULL) {
      IRType ty = typeOfIRTemp(tyenv, st->Ist.LLSC.result);
      cg_add_event_Dr(cgs, inode, sizeofIRType(ty), st->Ist.LLSC.addr);
      /* Flushing before the load-linked helps the store-conditional
         succeed; the reference does it even without the cache simulation. */
      cg_flush_events(cgs);
   } else {
      IRType ty = typeOfIRExpr(tyenv, st->Ist.LLSC.storedata);
      cg_add_event_Dw(cgs, inode, sizeofIRType(ty), st->Ist.LLSC.addr);
   }
}

/* Whether a side exit of jump kind jk is a guest conditional branch. */
static Bool cg_exit_is_branch(IRJumpKind jk)
{
   return jk == Ijk_Boring || jk == Ijk_Call || jk == Ijk_Ret;
}

/* Whether the final jump of sb is an indirect branch: its target is
   computed and it is not a return (returns are assumed perfectly
   predicted). */
static Bool cg_end_is_indirect(const IRSB *sb)
{
   return (sb->jumpkind == Ijk_Boring || sb->jumpkind == Ijk_Call)
          && sb->next->tag == Iex_RdTmp;
}

/* A side exit: a conditional branch when it is a guest branch, and a flush
   point in any case since control may leave the block here. */
static void cg_do_Exit(CgState *cgs, const CgInstr *inode, const IRStmt *st)
{
   if (cg_exit_is_branch(st->Ist.Exit.jk)) {
      IRType ty = cgs->ir.hword_ty;
      Addr nia = inode->addr + inode->len;
      const IRConst *dst = st->Ist.Exit.dst;
      Addr sea;
      if (ty == Ity_I32) {
         tl_assert(dst->tag == Ico_U32);
         sea = dst->Ico.U32;
      } else {
         tl_assert(dst->tag == Ico_U64);
         sea = (Addr)dst->Ico.U64;
      }
      /* If the optimiser turned the branch around, the side exit goes to
         the next instruction and "taken" is the guard's negation, which
         costs nothing: the instruction selector inverts the condition
         code it sets. */
      IRAtom *guard1 = st->Ist.Exit.guard;
      IRAtom *taken = nia == sea
         ? cg_assign(&cgs->ir, Ity_I1, IRExpr_Unop(Iop_Not1, guard1)) : guard1;
      IRAtom *takenw = cg_assign(&cgs->ir, ty,
                                 IRExpr_Unop(ty == Ity_I32 ? Iop_1Uto32
                                                           : Iop_1Uto64,
                                             taken));
      cg_add_event_branch(cgs, EV_BC, inode, takenw);
   }
   cg_flush_events(cgs);
}

/* Whether a write of size bytes at the atom at is one read with the
   read just queued (read_at, read_size; read_at NULL if the last event
   was no plain read), as cg_add_event_Dw merges them. */
static Bool cg_same_read(const IRExpr *read_at, Int read_size,
                         const IRExpr *at, Int size)
{
   return read_at != NULL && read_size == size && eqIRAtom(read_at, at);
}

/* The shape of the cost centre of the instruction whose IMark is
   sb->stmts[first], for --dump-instr=yes: the kinds of event that
   cg_do_stmt and cg_do_block_end will find in its statements.  A write
   right after a read of the same address atom and size counts as one read
   (cg_add_event_Dw), and so do a CAS and a dirty call's Modify; a flush
   (a side exit, a load-linked, a guarded access) comes between a read and
   a write.  Should this say less than the events need, the counts are
   still right: cg_inode_widen gives the instruction a wider cost centre,
   at the cost of the narrower one's memory. */
static UInt cg_instr_shape(const IRSB *sb, Int first)
{
   UInt shape = 0;
   const IRExpr *read_at = NULL;   /* the last event, a read: its address */
   Int read_size = 0;              /* ... and size */
   Int j;

   for (j = first + 1; j < sb->stmts_used; j++) {
      const IRStmt *st = sb->stmts[j];
      const IRExpr *at = NULL;     /* a read this statement queues */
      Int size = 0;
      if (st == NULL)
         continue;
      if (st->tag == Ist_IMark)
         break;
      switch (st->tag) {
      case Ist_WrTmp: {
         const IRExpr *data = st->Ist.WrTmp.data;
         if (data->tag != Iex_Load)
            continue;
         shape |= CG_SHAPE_READ;
         at = data->Iex.Load.addr;
         size = sizeofIRType(data->Iex.Load.ty);
         break;
      }
      case Ist_Store:
         size = sizeofIRType(typeOfIRExpr(sb->tyenv, st->Ist.Store.data));
         if (!cg_same_read(read_at, read_size, st->Ist.Store.addr, size))
            shape |= CG_SHAPE_WRITE;
         break;
      case Ist_StoreG:
         shape |= CG_SHAPE_WRITE;
         break;
      case Ist_LoadG:
      case Ist_CAS:
         shape |= CG_SHAPE_READ;
         break;
      case Ist_Dirty: {
         const IRDirty *d = st->Ist.Dirty.details;
         if (d->mFx == Ifx_None)
            continue;
         if (d->mFx != Ifx_Write)
            shape |= CG_SHAPE_READ;
         else if (!cg_same_read(read_at, read_size, d->mAddr,
                                cg_clamp(d->mSize)))
            shape |= CG_SHAPE_WRITE;
         if (d->mFx == Ifx_Read) {
            at = d->mAddr;
            size = cg_clamp(d->mSize);
         }
         break;
      }
      case Ist_LLSC:
         if (st->Ist.LLSC.storedata == NULL)
            shape |= CG_SHAPE_READ;
         else if (!cg_same_read(read_at, read_size, st->Ist.LLSC.addr,
                                sizeofIRType(typeOfIRExpr(
                                   sb->tyenv, st->Ist.LLSC.storedata))))
            shape |= CG_SHAPE_WRITE;
         break;
      case Ist_Exit:
         if (cg_exit_is_branch(st->Ist.Exit.jk))
            shape |= CG_SHAPE_COND;
         break;
      default:
         continue;                 /* no event, no flush */
      }
      read_at = at;
      read_size = size;
   }
   if (j == sb->stmts_used && cg_end_is_indirect(sb))
      shape |= CG_SHAPE_IND;
   return shape;
}

/* Queues the events of one statement (copied afterwards by the caller). */
static void cg_do_stmt(CgState *cgs, const IRTypeEnv *tyenv, IRStmt *st,
                       const CgInstr **inode)
{
   switch (st->tag) {
   case Ist_NoOp:
   case Ist_AbiHint:
   case Ist_Put:
   case Ist_PutI:
   case Ist_MBE:
      break;
   case Ist_IMark:
      *inode = cg_do_IMark(cgs, st);
      break;
   case Ist_WrTmp: {
      const IRExpr *data = st->Ist.WrTmp.data;
      if (data->tag == Iex_Load)
         cg_add_event_Dr(cgs, *inode, sizeofIRType(data->Iex.Load.ty),
                         data->Iex.Load.addr);
      break;
   }
   case Ist_Store:
      cg_add_event_Dw(cgs, *inode,
                      sizeofIRType(typeOfIRExpr(tyenv, st->Ist.Store.data)),
                      st->Ist.Store.addr);
      break;
   case Ist_StoreG: {
      const IRStoreG *sg = st->Ist.StoreG.details;
      cg_add_event_D_guarded(cgs, *inode,
                             sizeofIRType(typeOfIRExpr(tyenv, sg->data)),
                             sg->addr, sg->guard, True);
      break;
   }
   case Ist_LoadG: {
      const IRLoadG *lg = st->Ist.LoadG.details;
      IRType ty = Ity_INVALID, ty_wide = Ity_INVALID;
      typeOfIRLoadGOp(lg->cvt, &ty_wide, &ty);   /* the pre-widening type */
      tl_assert(ty != Ity_INVALID);
      cg_add_event_D_guarded(cgs, *inode, sizeofIRType(ty), lg->addr,
                             lg->guard, False);
      break;
   }
   case Ist_Dirty:
      cg_do_Dirty(cgs, *inode, st->Ist.Dirty.details);
      break;
   case Ist_CAS:
      cg_do_CAS(cgs, *inode, tyenv, st->Ist.CAS.details);
      break;
   case Ist_LLSC:
      cg_do_LLSC(cgs, *inode, tyenv, st);
      break;
   case Ist_Exit:
      cg_do_Exit(cgs, *inode, st);
      break;
   default:
      ppIRStmt(st);
      VG_(tool_panic)("cachegrind: unexpected IR statement");
   }
}

/* The block's final jump: an indirect branch when its target is computed
   and it is not a return (returns are assumed perfectly predicted). */
static void cg_do_block_end(CgState *cgs, const IRSB *sb_in,
                            const CgInstr *inode)
{
   if (cg_end_is_indirect(sb_in))
      cg_add_event_branch(cgs, EV_BI, inode, sb_in->next);
   else if (sb_in->jumpkind == Ijk_Boring || sb_in->jumpkind == Ijk_Call)
      tl_assert(sb_in->next->tag == Iex_Const && "non-flat block end");
}

/* The records of the block's fetch and branch helpers (sims[]), from the
   triples the instrumentation collected (cg_sim_arg). */
static void cg_fill_sims(const CgState *cgs, CgSBInfo *sbi)
{
   ULong *counts = cg_sb_counts(sbi);
   CgSimInstr *sims = cg_sb_sims(sbi);
   for (UInt r = 0; r < sbi->n_sims; r++) {
      const UWord *w = &cgs->sims.w[3 * r];
      const CgInstr *inode = &cgs->instrs[w[0]];
      sims[r].addr = inode->addr;
      sims[r].len = inode->len;
      sims[r].misses = cg_counter(inode->cc, (CgColumnId)w[1]);
      tl_assert(sims[r].misses != NULL);      /* cg_new_sim */
      if (w[2] == CG_NOT_BRANCH)
         sims[r].last_block = (UInt)((inode->addr + inode->len - 1)
                                     >> cg_sims.I1.line_bits);
      else
         sims[r].count_delta =
            (Int)((HChar *)&counts[w[2]] - (HChar *)&sims[r]);
      sims[r].cond_index = (UShort)cg_condpred_addr_index(&cg_cond_pred,
                                                         inode->addr);
   }
}

/* The twins of the block's helper records, for --toggle-collect: the
   same, but counting into sinks (cg_blocks.h).  A branch's record reaches
   its group's count backwards; its twin reaches the sink, which lies
   before every twin. */
static void cg_fill_twins(const CgState *cgs, CgSBInfo *sbi)
{
   const CgSimInstr *sims = cg_sb_sims(sbi);
   CgSimInstr *twins = cg_sb_nc_sims(sbi);
   ULong *sink = cg_sb_nc_count(sbi);
   *sink = 0;
   for (UInt r = 0; r < sbi->n_sims; r++) {
      twins[r] = sims[r];
      twins[r].misses = cg_sink;
      if (cgs->sims.w[3 * r + 2] != CG_NOT_BRANCH)
         twins[r].count_delta = (Int)((HChar *)sink - (HChar *)&twins[r]);
   }
}

/* Patches the packed argument of a fetch_packed call for record rec; a
   record too far from the others for the packing gets fetch_last with
   its address instead. */
static void cg_patch_packed(IRDirty *di, const CgSimInstr *rec)
{
#if VG_WORDSIZE == 8
   IRConst *c = di->args[0]->Iex.Const.con;
   UWord packed;
   if (cg_fetch_pack(rec, &packed)) {
      c->Ico.U64 = packed;
      return;
   }
   c->Ico.U64 = (ULong)(HWord)rec;
   di->cee = mkIRCallee(1, "cg_h_fetch",
                        VG_(fnptr_to_fnentry)(cg_sims.helpers_I1->fetch_last));
#else
   tl_assert(0 && "no packed fetches on 32-bit hosts");
#endif
}

/* Patches the addresses of the block's records into the emitted code. */
static void cg_patch_fixups(const CgState *cgs, CgSBInfo *sbi)
{
   ULong *counts = cg_sb_counts(sbi);
   CgSimInstr *sims = cg_sb_sims(sbi);
   for (UInt f = 0; f < cgs->fixups.used / 2; f++) {
      UWord fix = cgs->fixups.w[2 * f + 1];
      if ((fix & 3) == 3) {
         cg_patch_packed((IRDirty *)cgs->fixups.w[2 * f], &sims[fix >> 2]);
         continue;
      }
      IRConst *c = (IRConst *)cgs->fixups.w[2 * f];
      HWord target = (fix & 3) == 1 ? (HWord)&sims[fix >> 2]
                   : (fix & 3) == 2 ? (HWord)&cg_sb_nc_sims(sbi)[fix >> 2]
                                    : (HWord)&counts[fix >> 2];
      if (c->tag == Ico_U64)
         c->Ico.U64 = (ULong)target;
      else
         c->Ico.U32 = (UInt)target;
   }
}

/* Allocates the block's records now that their sizes are known, fills
   them, patches their addresses into the emitted code and enters them in
   the table. */
static void cg_finish_sb(CgState *cgs, Addr key)
{
   CgSBInfo *sbi = cg_sb_new(cgs->group_sizes.used, cgs->ccs.used,
                             cgs->sims.used / 3, cgs->fold_codes.used,
                             cg_gated(), key);
   ULong *counts = cg_sb_counts(sbi);
   CgLineCC **ccs = cg_sb_ccs(sbi);
   UShort *events = cg_sb_events(sbi);
   UChar *sizes = cg_sb_group_sizes(sbi);

   for (UInt g = 0; g < sbi->n_groups; g++) {
      counts[g] = 0;
      sizes[g] = (UChar)cgs->group_sizes.w[g];
   }
   for (UInt i = 0; i < sbi->n_ccs; i++)
      ccs[i] = (CgLineCC *)cgs->ccs.w[i];
   for (UInt i = 0; i < sbi->n_events; i++)
      events[i] = (UShort)cgs->fold_codes.w[i];
   cg_fill_sims(cgs, sbi);
   if (sbi->gated)
      cg_fill_twins(cgs, sbi);
   cg_patch_fixups(cgs, sbi);
   cg_sb_insert(sbi);
}

/* Marks, in cgs->excluded, each instruction of sb_in (from statement
   first on) that lies in a request sequence of cachegrind.h: the
   instrumenter counts nothing for it (cg_clreq.h).  Only the first
   instruction can lie in a sequence whose start is not in the block.
   Returns the number of the others. */
static UInt cg_mark_excluded(CgState *cgs, const IRSB *sb_in, Int first)
{
   Addr seq_start = 0, seq_end = 0;
   UInt n = 0;

   cgs->excluded.used = 0;
   for (Int j = first; j < sb_in->stmts_used; j++) {
      const IRStmt *st = sb_in->stmts[j];
      if (st == NULL || st->tag != Ist_IMark)
         continue;
      Addr a = st->Ist.IMark.addr;
      if (a < seq_start || a >= seq_end) {
         seq_start = a;
         seq_end = cg_clreq_seq_end(a, st->Ist.IMark.len,
                                    cgs->excluded.used == 0);
      }
      Bool excluded = a < seq_end;
      cg_scratch_push(&cgs->excluded, excluded);
      if (!excluded)
         n++;
   }
   return n;
}

/* Empties the state for a superblock of n_instrs instructions, whose
   instrumented version is being built in sb_out. */
static void cg_start_sb(CgState *cgs, IRSB *sb_out, IRType hword_ty,
                        UInt n_instrs)
{
   if (n_instrs > cgs->instrs_size) {
      cgs->instrs_size = n_instrs + 64;
      cgs->instrs = VG_(realloc)("cg.main.instrs", cgs->instrs,
                                 cgs->instrs_size * sizeof(CgInstr));
   }
   cgs->ir.sb_out = sb_out;
   cgs->ir.hword_ty = hword_ty;
   cg_cc_start_block();
   cgs->n_instrs = n_instrs;
   cgs->instr_i = 0;
   cgs->events_used = 0;
   cgs->have_last_iblock = False;
   cgs->data_tests = 0;
   cgs->ccs.used = 0;
   cgs->sims.used = 0;
   cgs->fixups.used = 0;
   cgs->group_sizes.used = 0;
   cgs->fold_codes.used = 0;
}

IRSB *cg_instrument(VgCallbackClosure *closure, IRSB *sb_in,
                    const VexGuestLayout *layout,
                    const VexGuestExtents *vge,
                    const VexArchInfo *archinfo_host,
                    IRType gWordTy, IRType hWordTy)
{
   if (gWordTy != hWordTy)
      VG_(tool_panic)("host/guest word size mismatch");

   CgState *cgs = &cgs_static;
   Int i = 0;
   UInt n_instrs = 0;

   IRSB *sb_out = deepCopyIRSBExceptStmts(sb_in);
   /* Statements before the first IMark (e.g. the self-check) run before
      any instruction: copy them untouched. */
   for (; i < sb_in->stmts_used && sb_in->stmts[i]->tag != Ist_IMark; i++)
      addStmtToIRSB(sb_out, sb_in->stmts[i]);
   n_instrs = cg_mark_excluded(cgs, sb_in, i);

   tl_assert(closure->readdr == vge->base[0]);
   cg_start_sb(cgs, sb_out, hWordTy, n_instrs);
   cgs->offset_sp = layout->offset_SP;
   if (cg_gated())
      cg_emit_collect_check(cgs);
   if (cfg->dump_every > 0 && n_instrs > 0)
      cg_emit_dump_budget(cgs, n_instrs);

   const CgInstr *inode = NULL;
   UInt imark = 0;
   Bool skip = False;
   for (; i < sb_in->stmts_used; i++) {
      IRStmt *st = sb_in->stmts[i];
      if (st == NULL || st->tag == Ist_NoOp)
         continue;
      if (st->tag == Ist_IMark) {
         skip = cgs->excluded.w[imark++];
         cgs->shape = cfg->dump_instr && !skip ? cg_instr_shape(sb_in, i)
                                               : CG_SHAPE_ALL;
      }
      if (!skip) {
         cg_do_stmt(cgs, sb_in->tyenv, st, &inode);
      } else if (st->tag == Ist_IMark) {
         /* A function may start with a request: its entry is still one
            for --toggle-collect, though the instruction counts nothing. */
         if (cg_gated() && cg_collect_is_entry(st->Ist.IMark.addr))
            cg_emit_collect_entry(cgs);
         inode = NULL;
      } else if (st->tag == Ist_Exit) {
         cg_flush_events(cgs);     /* control may leave here */
      }
      addStmtToIRSB(sb_out, st);
   }
   if (inode != NULL)
      cg_do_block_end(cgs, sb_in, inode);
   cg_flush_events(cgs);
   tl_assert(cgs->instr_i == n_instrs);
   cg_finish_sb(cgs, vge->base[0]);
   return sb_out;
}

void cg_instrument_init(const struct cg_config *config)
{
   cfg = config;
}

void cg_instrument_stats(ULong *instrs_nox, ULong *instrs_gen,
                         ULong *shape_misses)
{
   *instrs_nox = stat_instrs_nox;
   *instrs_gen = stat_instrs_gen;
   *shape_misses = stat_shape_misses;
}
