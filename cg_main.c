/* cg_main.c -- Cachegrind tool glue: options, instrumentation, cost centres, output.
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
   is called only when the test fails (and then goes straight to the
   vector code below, which is right for a way-0 hit too).  A branch
   always ends its group, and its helper (always called: the predictors
   change on every branch) also counts the group's runs.  Helpers run in
   program order at the flush point, so the simulated caches see exactly
   the reference's sequence of accesses.  In a helper, a reference that
   misses way 0 moves its set with vector code where the host has AVX2
   (cg_sim.c), without the unpredictable branch of a scan; on such hosts
   the fetch and data helpers are themselves compiled for AVX2 with that
   code inline, and keep their rare paths (L1 misses, two-line accesses)
   out of line, so that the common path makes no call and saves no
   registers.  On amd64 a data access's call passes only the address: a
   small stub per (line counter, helper) supplies the counter (see
   cg_data_stub).
   docs/performance.md tells what each of these choices gains, and what was
   tried and dropped.

   Memory.  Line cost centres and interned strings live until exit.  A
   superblock's records (CgSBInfo) live as long as its translation: they are
   folded when the core discards the translation, and their storage goes
   to a free list by size for the next block's records. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_transtab.h"
#include "pub_tool_xarray.h"
#include "pub_tool_hashtable.h"

#include "cachegrind.h"
#include "cg_arch.h"
#include "cg_branchpred.h"
#include "cg_sim.h"
#include "cg_config.h"
#include "cg_cc.h"
#include "cg_sims.h"
#include "cg_blocks.h"
#include "cg_stubs.h"
#include "cg_output.h"

/* Set to 1 to trace instrumentation decisions on the log. */
#define CG_DEBUG 0

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

const HChar *clo_out_file = "cachegrind.out.%p";
Bool clo_cache_sim = False;
Bool clo_branch_sim = False;
Bool clo_instr_at_start = True;
struct cg_cache_config clo_I1 = CG_CACHE_UNSET;
struct cg_cache_config clo_D1 = CG_CACHE_UNSET;
struct cg_cache_config clo_LL = CG_CACHE_UNSET;

/* Whether superblocks are being instrumented now (client requests). */
Bool instr_enabled = True;

/* Parses the value of --I1/--D1/--LL/--L2 into *cfg; a bad one is fatal
   with the reference's messages. */
static void cg_parse_cache_opt(const HChar *arg, const HChar *value,
                               struct cg_cache_config *cfg)
{
   const char *msg;
   switch (cg_arch_parse_cache_opt(value, cfg, &msg)) {
   case CG_CACHE_OPT_OK:
      return;
   case CG_CACHE_OPT_BAD_ARGUMENT:
      break;
   case CG_CACHE_OPT_OVERFLOW:
      VG_(fmsg_bad_option)(arg, "%s\n", msg);
      return;
   case CG_CACHE_OPT_INVALID:
      VG_(fmsg)("%s\n", msg);
      break;
   }
   VG_(fmsg_bad_option)(arg, CG_ARCH_ERR_BAD_ARGUMENT "\n", value);
}

static Bool cg_process_cmd_line_option(const HChar *arg)
{
   const HChar *str;

   /* The cache options first, as in the reference. */
   if (VG_STR_CLO(arg, "--I1", str))
      cg_parse_cache_opt(arg, str, &clo_I1);
   else if (VG_STR_CLO(arg, "--D1", str))
      cg_parse_cache_opt(arg, str, &clo_D1);
   else if (VG_STR_CLO(arg, "--LL", str) || VG_STR_CLO(arg, "--L2", str))
      cg_parse_cache_opt(arg, str, &clo_LL);
   else if VG_STR_CLO(arg, "--cachegrind-out-file", clo_out_file) {}
   else if VG_BOOL_CLO(arg, "--cache-sim", clo_cache_sim) {}
   else if VG_BOOL_CLO(arg, "--branch-sim", clo_branch_sim) {}
   else if VG_BOOL_CLO(arg, "--instr-at-start", clo_instr_at_start) {}
   else
      return False;
   return True;
}

static void cg_print_usage(void)
{
   VG_(printf)(
"    --cachegrind-out-file=<file>     output file name [cachegrind.out.%%p]\n"
"    --cache-sim=yes|no               collect cache stats? [no]\n"
"    --branch-sim=yes|no              collect branch prediction stats? [no]\n"
"    --instr-at-start=yes|no          instrument at start? [yes]\n"
"    --I1=<size>,<assoc>,<line_size>  set I1 cache manually\n"
"    --D1=<size>,<assoc>,<line_size>  set D1 cache manually\n"
"    --LL=<size>,<assoc>,<line_size>  set LL cache manually\n"
   );
}

static void cg_print_debug_usage(void)
{
   VG_(printf)("    (none)\n");
}

/* The event queue has the reference's capacity, so that flushes (and with
   them the attribution of counts when an instruction faults) happen at
   exactly the same places. */
#define N_EVENTS 16

/*------------------------------------------------------------*/
/*--- Instrumentation                                      ---*/
/*------------------------------------------------------------*/

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

static void cg_scratch_push(CgScratch *s, UWord v)
{
   if (s->used == s->size) {
      s->size = s->size ? 2 * s->size : 256;
      s->w = VG_(realloc)("cg.main.scratch", s->w, s->size * sizeof(UWord));
   }
   s->w[s->used++] = v;
}

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

#define CG_FIX_COUNT(g) ((UWord)(g) << 1)      /* &counts[g] */
#define CG_FIX_SIM(r)   ((UWord)(r) << 1 | 1)  /* &sims[r] */

static CgState cgs_static;      /* reused; the core instruments one SB at a time */

/* Statistics (--stats=yes). */
static ULong stat_instrs_nox, stat_instrs_gen;

/* The fold code of an event (see CgSBInfo). */
static UWord cg_fold_code(const CgEvent *ev)
{
   UWord what = CG_FOLD_IR;
   switch (ev->kind) {
   case EV_IR: what = CG_FOLD_IR; break;
   case EV_DR:
   case EV_DM: what = CG_FOLD_DR; break;   /* a modify counts as one read */
   case EV_DW: what = CG_FOLD_DW; break;
   case EV_BC: what = CG_FOLD_BC; break;
   case EV_BI: what = CG_FOLD_BI; break;
   }
   return (UWord)ev->inode->cc_index << CG_FOLD_BITS | what;
}

static IRExpr *cg_hword_const(CgState *cgs, HWord v, IRConst **out)
{
   IRConst *c = cgs->hword_ty == Ity_I64 ? IRConst_U64((ULong)v)
                                         : IRConst_U32((UInt)v);
   if (out)
      *out = c;
   return IRExpr_Const(c);
}

static IRExpr *cg_ptr(CgState *cgs, const void *p)
{
   return cg_hword_const(cgs, (HWord)p, NULL);
}

/* A pointer into the block's records, patched by cg_finish_sb. */
static IRExpr *cg_fixup_ptr(CgState *cgs, UWord fix)
{
   IRConst *c;
   IRExpr *e = cg_hword_const(cgs, 0, &c);
   cg_scratch_push(&cgs->fixups, (UWord)c);
   cg_scratch_push(&cgs->fixups, fix);
   return e;
}

/* A new CgSimInstr for inode counting its misses in column col (and, for
   a branch, the runs of the current group); returns the (patched)
   constant pointing to it. */
static IRExpr *cg_sim_arg(CgState *cgs, const CgInstr *inode, CgColumnId col,
                          UWord branch)
{
   UWord r = cgs->sims.used / 3;
   cg_scratch_push(&cgs->sims, (UWord)(inode - cgs->instrs));
   cg_scratch_push(&cgs->sims, (UWord)col);
   cg_scratch_push(&cgs->sims, branch);
   return cg_fixup_ptr(cgs, CG_FIX_SIM(r));
}

#define CG_NOT_BRANCH (~(UWord)0)

static IRAtom *cg_assign(CgState *cgs, IRType ty, IRExpr *e)
{
   IRTemp t = newIRTemp(cgs->sb_out->tyenv, ty);
   addStmtToIRSB(cgs->sb_out, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

/* Emits "counts[g] += 1" for the group being flushed. */
static void cg_emit_group_count(CgState *cgs)
{
   IRAtom *addr = cg_assign(cgs, cgs->hword_ty,
                            cg_fixup_ptr(cgs,
                                         CG_FIX_COUNT(cgs->group_sizes.used)));
   IRAtom *old = cg_assign(cgs, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, addr));
   IRAtom *new = cg_assign(cgs, Ity_I64,
                           IRExpr_Binop(Iop_Add64, old,
                                        IRExpr_Const(IRConst_U64(1))));
   addStmtToIRSB(cgs->sb_out, IRStmt_Store(Iend_LE, addr, new));
}

/* Emits a call of a run-time helper; with a guard, the call only happens
   when the guard (an Ity_I1 atom) holds. */
static void cg_emit_call(CgState *cgs, const HChar *name, void *fn,
                         Int regparms, IRExpr **args, IRAtom *guard)
{
   IRDirty *di = unsafeIRDirty_0_N(regparms, name,
                                   VG_(fnptr_to_fnentry)(fn), args);
   if (guard)
      di->guard = guard;
   addStmtToIRSB(cgs->sb_out, IRStmt_Dirty(di));
}

/*--- Inline fast paths ------------------------------------------------*/

/* Most simulated accesses hit the most recently used way of their set,
   which changes nothing; the emitted code tests for that inline and calls
   the helper only when the access may be anything else.  (The branch
   predictors are called: inline they would be no faster and several times
   bigger in the translation cache.) */

/* A host-word operation: op64 on a 64-bit host, op32 on a 32-bit one. */
static IRAtom *cg_wop(CgState *cgs, IROp op64, IROp op32, IRExpr *a,
                      IRExpr *b)
{
   return cg_assign(cgs, cgs->hword_ty,
                    IRExpr_Binop(cgs->hword_ty == Ity_I64 ? op64 : op32,
                                 a, b));
}

static IRExpr *cg_shift_amount(UInt n)
{
   return IRExpr_Const(IRConst_U8((UChar)n));
}

static Int cg_log2_exact(UWord n)
{
   Int k = 0;
   if (n == 0 || (n & (n - 1)) != 0)
      return -1;
   while (n > 1) {
      n >>= 1;
      k++;
   }
   return k;
}

/* An Ity_I1 atom: 0 when the access of size bytes at ea lies in one line
   that is in way 0 of its set of c (a hit that changes nothing), 1 when it
   may be anything else. */
static IRAtom *cg_emit_maybe_miss(CgState *cgs, const struct cg_cache *c,
                                  IRAtom *ea, Int size)
{
   IRType ty = cgs->hword_ty;
   Bool w64 = ty == Ity_I64;
   IRAtom *block = cg_wop(cgs, Iop_Shr64, Iop_Shr32, ea,
                          cg_shift_amount(c->line_bits));
   UWord stride = (UWord)c->assoc * sizeof(UWord);
   Int shift = cg_log2_exact(stride);
   IRAtom *offset;
   if (shift >= 0 && (UInt)shift <= c->line_bits) {
      /* (set index << shift) is a field of ea itself: one mask. */
      offset = cg_wop(cgs, Iop_And64, Iop_And32, ea,
                      cg_hword_const(cgs, (UWord)c->sets_min_1
                                          << c->line_bits, NULL));
      if ((UInt)shift < c->line_bits)
         offset = cg_wop(cgs, Iop_Shr64, Iop_Shr32, offset,
                         cg_shift_amount(c->line_bits - shift));
   } else {
      IRAtom *set = cg_wop(cgs, Iop_And64, Iop_And32, block,
                           cg_hword_const(cgs, c->sets_min_1, NULL));
      offset = shift >= 0
         ? cg_wop(cgs, Iop_Shl64, Iop_Shl32, set, cg_shift_amount(shift))
         : cg_wop(cgs, Iop_Mul64, Iop_Mul32, set,
                  cg_hword_const(cgs, stride, NULL));
   }
   IRAtom *slot = cg_wop(cgs, Iop_Add64, Iop_Add32, offset,
                         cg_ptr(cgs, c->tags));
   IRAtom *compare_with = block;
   if (size > 1 && c->sets > 1) {
      /* Way 0 of the first line's set can only hold the access's last line
         if that is the first line too (the next line lies in another set;
         an initial tag 0 is no line's), so one compare tests both "in way
         0" and "in one line". */
      IRAtom *end = cg_wop(cgs, Iop_Add64, Iop_Add32, ea,
                           cg_hword_const(cgs, size - 1, NULL));
      compare_with = cg_wop(cgs, Iop_Shr64, Iop_Shr32, end,
                            cg_shift_amount(c->line_bits));
   }
   /* The load as the second operand, which the instruction selector can
      take from memory directly. */
   IRAtom *tag = cg_assign(cgs, ty, IRExpr_Load(Iend_LE, ty, slot));
   IRAtom *maybe_miss = cg_assign(cgs, Ity_I1,
      IRExpr_Binop(w64 ? Iop_CmpNE64 : Iop_CmpNE32, compare_with, tag));
   if (size > 1 && c->sets == 1) {
      /* Fully associative: test the span separately.  It spans two lines
         iff its offset in the line is above line_size - size. */
      IRAtom *in_line = cg_wop(cgs, Iop_And64, Iop_And32, ea,
                               cg_hword_const(cgs, c->line_size - 1, NULL));
      IRAtom *spans = cg_assign(cgs, Ity_I1,
         IRExpr_Binop(w64 ? Iop_CmpLT64U : Iop_CmpLT32U,
                      cg_hword_const(cgs, c->line_size - size, NULL),
                      in_line));
      maybe_miss = cg_assign(cgs, Ity_I1,
                             IRExpr_Binop(Iop_Or1, maybe_miss, spans));
   }
   return maybe_miss;
}

/* An Ity_I1 atom: 1 unless the constant line block is in way 0 of its set
   of c. */
static IRAtom *cg_emit_not_way0(CgState *cgs, const struct cg_cache *c,
                                Addr block)
{
   const uintptr_t *slot = &c->tags[cg_cache_set_offset(c, block)];
   IRType ty = cgs->hword_ty;
   IRAtom *tag = cg_assign(cgs, ty, IRExpr_Load(Iend_LE, ty, cg_ptr(cgs, slot)));
   return cg_assign(cgs, Ity_I1,
                    IRExpr_Binop(ty == Ity_I64 ? Iop_CmpNE64 : Iop_CmpNE32,
                                 tag, cg_hword_const(cgs, block, NULL)));
}

static IRAtom *cg_or1(CgState *cgs, IRAtom *a, IRAtom *b)
{
   return cg_assign(cgs, Ity_I1, IRExpr_Binop(Iop_Or1, a, b));
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
   const struct cg_cache *c = &cache_I1;
   Addr first = inode->addr >> c->line_bits;
   Addr last = (inode->addr + inode->len - 1) >> c->line_bits;
   Bool first_known = cgs->have_last_iblock && first == cgs->last_iblock;
   IRAtom *guard;

   cgs->have_last_iblock = True;
   cgs->last_iblock = last;
   if (first_known && first == last)
      return;
   /* The lines are constants, and so are their sets. */
   guard = cg_emit_not_way0(cgs, c, last);
   if (!first_known && first != last) {
      if (c->sets == 1)
         guard = NULL;              /* both lines in one set: call always */
      else
         guard = cg_or1(cgs, cg_emit_not_way0(cgs, c, first), guard);
   }
   cg_emit_call(cgs, "cg_h_fetch",
                first_known || first == last ? helpers_I1->fetch_last
                                             : helpers_I1->fetch,
                1, mkIRExprVec_1(cg_sim_arg(cgs, inode, COL_I1MR,
                                            CG_NOT_BRANCH)), guard);
}

/* A data access: the helper runs unless the inline test finds a hit in the
   most recently used way of D1. */
static void cg_emit_data_access(CgState *cgs, const CgEvent *ev)
{
   IRAtom *guard = cg_emit_maybe_miss(cgs, &cache_D1, ev->atom, ev->size);
   ULong *misses = cg_counter(ev->inode->cc,
                              ev->kind == EV_DW ? COL_D1MW : COL_D1MR);
   for (UInt i = 0; i < sizeof cg_data_helper_sizes
                        / sizeof cg_data_helper_sizes[0]; i++)
      if (cg_data_helper_sizes[i] == ev->size) {
         void *stub = cg_data_stub(misses, i);
         if (stub)
            cg_emit_call(cgs, cg_data_helper_names[i], stub, 1,
                         mkIRExprVec_1(ev->atom), guard);
         else
            cg_emit_call(cgs, cg_data_helper_names[i], helpers_D1->data[i],
                         2, mkIRExprVec_2(ev->atom, cg_ptr(cgs, misses)),
                         guard);
         return;
      }
   cg_emit_call(cgs, "cg_h_data", cg_h_data, 3,
                mkIRExprVec_3(ev->atom, cg_ptr(cgs, misses),
                              cg_hword_const(cgs, ev->size, NULL)),
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
   for (Int i = 0; i < cgs->events_used; i++) {
      const CgEvent *ev = &cgs->events[i];
      tl_assert(!counted);
      cg_scratch_push(&cgs->fold_codes, cg_fold_code(ev));
      switch (ev->kind) {
      case EV_IR:
         if (clo_cache_sim)
            cg_emit_fetch(cgs, ev->inode);
         break;
      case EV_DR:
      case EV_DM:
      case EV_DW:
         cg_emit_data_access(cgs, ev);
         break;
      case EV_BC:
         cg_emit_call(cgs, "cg_h_cond_branch", cg_h_cond_branch, 2,
                      mkIRExprVec_2(cg_sim_arg(cgs, ev->inode, COL_BCM,
                                               group),
                                    ev->atom), NULL);
         counted = True;
         break;
      case EV_BI:
         cg_emit_call(cgs, "cg_h_ind_branch", cg_h_ind_branch, 2,
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
   UInt bits = cache_I1.line_bits;
   return (addr >> bits) == ((addr + len - 1) >> bits)
          && cache_I1.line_size == cache_LL.line_size;
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
   if (!clo_cache_sim)
      return;
   tl_assert(size >= 1 && size <= min_line_size);
   CgEvent *ev = cg_new_event(cgs, EV_DR, inode);
   ev->size = size;
   ev->atom = ea;
}

static void cg_add_event_Dw(CgState *cgs, const CgInstr *inode, Int size,
                            IRAtom *ea)
{
   tl_assert(isIRAtom(ea));
   if (!clo_cache_sim)
      return;
   tl_assert(size >= 1 && size <= min_line_size);
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
   if (!clo_branch_sim)
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
   if (!clo_cache_sim)
      return;
   tl_assert(size >= 1 && size <= min_line_size);
   /* Merging guarded accesses into the queue is not worth it: flush,
      then handle this one on its own, as the reference does. */
   cg_flush_events(cgs);
   ULong *counts = cg_counter(inode->cc, is_write ? COL_DW : COL_DR);
   cg_emit_call(cgs, "cg_h_data_guarded", cg_h_data_guarded, 3,
                mkIRExprVec_3(cg_ptr(cgs, counts), ea,
                              cg_hword_const(cgs, size, NULL)),
                guard);
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
   inode->cc = cg_get_lineCC(addr);
   inode->cc_index = cg_block_cc_index(cgs, inode->cc);
   return inode;
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
   const CgInstr *inode = cg_setup_instr(cgs, addr, len);
   cg_add_event_Ir(cgs, inode);
   return inode;
}

static Int cg_clamp(Int size)
{
   return size > min_line_size ? min_line_size : size;
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

static void cg_do_CAS(CgState *cgs, const CgInstr *inode, const IRTypeEnv *tyenv,
                      const IRCAS *cas)
{
   tl_assert(cas->addr != NULL && cas->dataLo != NULL);
   Int size = sizeofIRType(typeOfIRExpr(tyenv, cas->dataLo));
   if (cas->dataHi != NULL)
      size *= 2;                 /* double-word CAS */
   size = cg_clamp(size);
   cg_add_event_Dr(cgs, inode, size, cas->addr);
   cg_add_event_Dw(cgs, inode, size, cas->addr);
}

static void cg_do_LLSC(CgState *cgs, const CgInstr *inode, const IRTypeEnv *tyenv,
                       const IRStmt *st)
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

/* A side exit: a conditional branch when it is a guest branch, and a flush
   point in any case since control may leave the block here. */
static void cg_do_Exit(CgState *cgs, const CgInstr *inode, const IRStmt *st)
{
   IRJumpKind jk = st->Ist.Exit.jk;
   if (jk == Ijk_Boring || jk == Ijk_Call || jk == Ijk_Ret) {
      IRType ty = cgs->hword_ty;
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
         ? cg_assign(cgs, Ity_I1, IRExpr_Unop(Iop_Not1, guard1)) : guard1;
      IRAtom *takenw = cg_assign(cgs, ty,
                                 IRExpr_Unop(ty == Ity_I32 ? Iop_1Uto32
                                                           : Iop_1Uto64,
                                             taken));
      cg_add_event_branch(cgs, EV_BC, inode, takenw);
   }
   cg_flush_events(cgs);
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
static void cg_do_block_end(CgState *cgs, const IRSB *sb_in, const CgInstr *inode)
{
   if (sb_in->jumpkind != Ijk_Boring && sb_in->jumpkind != Ijk_Call)
      return;
   switch (sb_in->next->tag) {
   case Iex_Const:
      break;
   case Iex_RdTmp:
      cg_add_event_branch(cgs, EV_BI, inode, sb_in->next);
      break;
   default:
      tl_assert(0 && "non-flat block end");
   }
}

/* Allocates the block's records now that their sizes are known, fills
   them, patches their addresses into the emitted code and enters them in
   the table. */
static void cg_finish_sb(CgState *cgs, Addr key)
{
   CgSBInfo shape = { 0 };
   UInt n_fixups = cgs->fixups.used / 2;

   tl_assert(cgs->group_sizes.used <= 0xFFFF && cgs->sims.used / 3 <= 0xFFFF
             && cgs->fold_codes.used <= 0xFFFF);
   shape.n_groups = (UShort)cgs->group_sizes.used;
   shape.n_ccs = (UShort)cgs->ccs.used;
   shape.n_sims = (UShort)(cgs->sims.used / 3);
   shape.n_events = (UShort)cgs->fold_codes.used;

   CgSBInfo *sbi = cg_sb_alloc(cg_sb_bytes(&shape));
   *sbi = shape;
   sbi->key = key;
   sbi->collided = False;

   ULong *counts = cg_sb_counts(sbi);
   CgLineCC **ccs = cg_sb_ccs(sbi);
   CgSimInstr *sims = cg_sb_sims(sbi);
   UShort *events = cg_sb_events(sbi);
   UChar *sizes = cg_sb_group_sizes(sbi);
   for (UInt g = 0; g < shape.n_groups; g++) {
      counts[g] = 0;
      sizes[g] = (UChar)cgs->group_sizes.w[g];
   }
   for (UInt i = 0; i < shape.n_ccs; i++)
      ccs[i] = (CgLineCC *)cgs->ccs.w[i];
   for (UInt r = 0; r < shape.n_sims; r++) {
      const UWord *w = &cgs->sims.w[3 * r];
      const CgInstr *inode = &cgs->instrs[w[0]];
      sims[r].addr = inode->addr;
      sims[r].len = inode->len;
      sims[r].misses = cg_counter(inode->cc, (CgColumnId)w[1]);
      if (w[2] == CG_NOT_BRANCH)
         sims[r].set_off = clo_cache_sim
            ? (UInt)cg_cache_set_offset(&cache_I1,
                                        (inode->addr + inode->len - 1)
                                        >> cache_I1.line_bits)
            : 0;
      else
         sims[r].count_off =
            (UInt)((HChar *)&sims[r] - (HChar *)&counts[w[2]]);
      sims[r].cond_index = (UChar)cg_condpred_addr_index(&cond_predictor,
                                                         inode->addr);
   }
   for (UInt i = 0; i < shape.n_events; i++)
      events[i] = (UShort)cgs->fold_codes.w[i];
   for (UInt f = 0; f < n_fixups; f++) {
      IRConst *c = (IRConst *)cgs->fixups.w[2 * f];
      UWord fix = cgs->fixups.w[2 * f + 1];
      HWord target = (fix & 1) ? (HWord)&sims[fix >> 1]
                               : (HWord)&counts[fix >> 1];
      if (c->tag == Ico_U64)
         c->Ico.U64 = (ULong)target;
      else
         c->Ico.U32 = (UInt)target;
   }

   /* Two live translations with one key (e.g. a no-redirection translation
      beside a normal one) must not share records: the older one is
      retired, still counted, and never freed. */
   CgSBInfo *old = VG_(HT_remove)(sb_table, key);
   if (old) {
      old->collided = True;
      old->next = retired_sbs;
      retired_sbs = old;
      sbi->collided = True;
   }
   VG_(HT_add_node)(sb_table, sbi);
}

static IRSB *cg_instrument(VgCallbackClosure *closure, IRSB *sb_in,
                           const VexGuestLayout *layout,
                           const VexGuestExtents *vge,
                           const VexArchInfo *archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{
   if (!instr_enabled)
      return sb_in;
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
   for (Int j = i; j < sb_in->stmts_used; j++)
      if (sb_in->stmts[j]->tag == Ist_IMark)
         n_instrs++;

   tl_assert(closure->readdr == vge->base[0]);
   if (n_instrs > cgs->instrs_size) {
      cgs->instrs_size = n_instrs + 64;
      cgs->instrs = VG_(realloc)("cg.main.instrs", cgs->instrs,
                                 cgs->instrs_size * sizeof(CgInstr));
   }
   cgs->sb_out = sb_out;
   cgs->hword_ty = hWordTy;
   cgs->n_instrs = n_instrs;
   cgs->instr_i = 0;
   cgs->events_used = 0;
   cgs->have_last_iblock = False;
   cgs->ccs.used = 0;
   cgs->sims.used = 0;
   cgs->fixups.used = 0;
   cgs->group_sizes.used = 0;
   cgs->fold_codes.used = 0;

   const CgInstr *inode = NULL;
   for (; i < sb_in->stmts_used; i++) {
      IRStmt *st = sb_in->stmts[i];
      if (st == NULL || st->tag == Ist_NoOp)
         continue;
      cg_do_stmt(cgs, sb_in->tyenv, st, &inode);
      addStmtToIRSB(sb_out, st);
   }
   cg_do_block_end(cgs, sb_in, inode);
   cg_flush_events(cgs);
   tl_assert(cgs->instr_i == n_instrs);
   cg_finish_sb(cgs, vge->base[0]);
   return sb_out;
}

/*------------------------------------------------------------*/
/*--- Client requests                                      ---*/
/*------------------------------------------------------------*/

static void cg_set_instrumentation(Bool enable)
{
   if (instr_enabled == enable) {
      VG_(dmsg)("warning: CACHEGRIND_%s_INSTRUMENTATION called,\n",
                enable ? "START" : "STOP");
      VG_(dmsg)("         but instrumentation is already %s\n",
                enable ? "enabled" : "disabled");
      return;
   }
   /* Discard first, while the flag still says which translations carry
      records: the discard callback relies on it. */
   VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "cachegrind");
   instr_enabled = enable;
}

static Bool cg_handle_client_request(ThreadId tid, UWord *args, UWord *ret)
{
   if (!VG_IS_TOOL_USERREQ('C', 'G', args[0])
       && args[0] != VG_USERREQ__GDB_MONITOR_COMMAND)
      return False;
   switch (args[0]) {
   case VG_USERREQ__CG_START_INSTRUMENTATION:
      cg_set_instrumentation(True);
      *ret = 0;
      return True;
   case VG_USERREQ__CG_STOP_INSTRUMENTATION:
      cg_set_instrumentation(False);
      *ret = 0;
      return True;
   default:
      VG_(message)(Vg_UserMsg,
                   "Warning: unknown cachegrind client request code %llx\n",
                   (ULong)args[0]);
      return False;
   }
}

/*------------------------------------------------------------*/
/*--- Output file                                          ---*/
/*------------------------------------------------------------*/

/* A buffered writer on a file descriptor; remembers the first error. */
typedef struct {
   Int fd;
   Int used;
   Bool failed;
   HChar buf[1 << 16];
} CgOut;

static void cg_out_flush(CgOut *o)
{
   Int off = 0;
   while (off < o->used && !o->failed) {
      Int n = VG_(write)(o->fd, o->buf + off, o->used - off);
      if (n <= 0)
         o->failed = True;
      else
         off += n;
   }
   o->used = 0;
}

static void cg_out_bytes(CgOut *o, const HChar *s, Int len)
{
   while (len > 0) {
      if (o->used == (Int)sizeof o->buf)
         cg_out_flush(o);
      Int n = (Int)sizeof o->buf - o->used;
      if (n > len)
         n = len;
      VG_(memcpy)(o->buf + o->used, s, n);
      o->used += n;
      s += n;
      len -= n;
   }
}

static void cg_out_str(CgOut *o, const HChar *s)
{
   cg_out_bytes(o, s, (Int)VG_(strlen)(s));
}

static void cg_out_u64(CgOut *o, ULong v)
{
   HChar tmp[24];
   Int i = sizeof tmp;
   do {
      tmp[--i] = (HChar)('0' + v % 10);
      v /= 10;
   } while (v);
   cg_out_bytes(o, tmp + i, (Int)sizeof tmp - i);
}

static void cg_out_line_number(CgOut *o, Int line)
{
   if (line < 0) {
      cg_out_bytes(o, "-", 1);
      cg_out_u64(o, (ULong)(-(Long)line));
   } else {
      cg_out_u64(o, (ULong)line);
   }
}

/* Cache descriptions for the desc: lines (set when the simulation is on). */
const HChar *desc_I1, *desc_D1, *desc_LL;

static void cg_write_header(CgOut *o)
{
   if (clo_cache_sim) {
      cg_out_str(o, "desc: I1 cache:         ");
      cg_out_str(o, desc_I1);
      cg_out_str(o, "\ndesc: D1 cache:         ");
      cg_out_str(o, desc_D1);
      cg_out_str(o, "\ndesc: LL cache:         ");
      cg_out_str(o, desc_LL);
      cg_out_str(o, "\n");
   }
   cg_out_str(o, "cmd: ");
   cg_out_str(o, VG_(args_the_exename));
   for (Word i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++) {
      cg_out_str(o, " ");
      cg_out_str(o, *(HChar **)VG_(indexXA)(VG_(args_for_client), i));
   }
   cg_out_str(o, "\nevents:");
   for (UInt c = 0; c < N_COLUMNS; c++)
      if (col_slot[c] >= 0) {
         cg_out_str(o, " ");
         cg_out_str(o, cg_columns[c].name);
      }
   /* The reference's cache-only events line ends with a space. */
   if (clo_cache_sim && !clo_branch_sim)
      cg_out_str(o, " ");
   cg_out_str(o, "\n");
}

/* " <count>" for each counter (they are in column order), then a newline. */
static void cg_write_counts(CgOut *o, const ULong *counts)
{
   for (UInt i = 0; i < n_slots; i++) {
      cg_out_bytes(o, " ", 1);
      cg_out_u64(o, counts[i]);
   }
   cg_out_bytes(o, "\n", 1);
}

static Int cg_cmp_cc(const void *a, const void *b)
{
   const CgLineCC *x = *(const CgLineCC *const *)a;
   const CgLineCC *y = *(const CgLineCC *const *)b;
   Int r;
   if (x->file != y->file && (r = VG_(strcmp)(x->file, y->file)) != 0)
      return r;
   if (x->fn != y->fn && (r = VG_(strcmp)(x->fn, y->fn)) != 0)
      return r;
   return x->line < y->line ? -1 : x->line > y->line;
}

/* All line cost centres sorted by (file, function, line); the caller frees
   the array. */
static CgLineCC **cg_sorted_ccs(void)
{
   CgLineCC **v = VG_(malloc)("cg.main.sorted", (cc_count + 1) * sizeof *v);
   UInt n = 0;
   for (UInt b = 0; b < cc_table_size; b++)
      for (CgLineCC *cc = cc_table[b]; cc; cc = cc->next)
         v[n++] = cc;
   tl_assert(n == cc_count);
   VG_(ssort)(v, n, sizeof *v, cg_cmp_cc);
   return v;
}

/* Statistics of the last profile written (--stats=yes). */
static UInt stat_files_written, stat_fns_written, stat_lines_written;

/* Writes the whole profile to fd; returns False on a write error. */
static Bool cg_write_profile(Int fd)
{
   CgOut *o = VG_(malloc)("cg.main.out", sizeof *o);
   CgLineCC **v = cg_sorted_ccs();
   CgTotals tot = { { 0 } };
   const HChar *file = NULL, *fn = NULL;

   o->fd = fd;
   o->used = 0;
   o->failed = False;
   stat_files_written = stat_fns_written = stat_lines_written = 0;
   cg_write_header(o);
   for (UInt i = 0; i < cc_count; i++) {
      const CgLineCC *cc = v[i];
      Bool new_file = cc->file != file;
      if (new_file) {
         file = cc->file;
         cg_out_str(o, "fl=");
         cg_out_str(o, file);
         cg_out_str(o, "\n");
         stat_files_written++;
      }
      if (new_file || cc->fn != fn) {
         fn = cc->fn;
         cg_out_str(o, "fn=");
         cg_out_str(o, fn);
         cg_out_str(o, "\n");
         stat_fns_written++;
      }
      cg_out_line_number(o, cc->line);
      cg_write_counts(o, cc->c);
      cg_add_totals(&tot, cc);
      stat_lines_written++;
   }
   ULong sum[N_COLUMNS];
   for (UInt c = 0; c < N_COLUMNS; c++)
      if (col_slot[c] >= 0)
         sum[col_slot[c]] = tot.v[c];
   cg_out_str(o, "summary:");
   cg_write_counts(o, sum);
   cg_out_flush(o);

   Bool ok = !o->failed;
   VG_(free)(v);
   VG_(free)(o);
   return ok;
}

/* The file a path finally names, following symbolic links (relative
   targets are relative to the link's folder), as upstream's open() would;
   a new string the caller frees.  Gives up after 40 links (the open then
   reports the loop). */
static HChar *cg_resolve_links(const HChar *path)
{
   HChar *cur = VG_(strdup)("cg.main.path", path);
   HChar target[4096];

   for (Int depth = 0; depth < 40; depth++) {
      SSizeT n = VG_(readlink)(cur, target, sizeof target - 1);
      if (n < 0)
         break;                  /* not a link, or absent */
      target[n] = '\0';
      const HChar *slash = VG_(strrchr)(cur, '/');
      SizeT dir_len = target[0] == '/' || !slash ? 0 : (SizeT)(slash - cur) + 1;
      HChar *next = VG_(malloc)("cg.main.path", dir_len + (SizeT)n + 1);
      VG_(memcpy)(next, cur, dir_len);
      VG_(memcpy)(next + dir_len, target, (SizeT)n + 1);
      VG_(free)(cur);
      cur = next;
   }
   return cur;
}

/* Whether file (links resolved) exists and is not a regular file (a
   device, a FIFO...): then it is written in place rather than replaced by
   a rename. */
static Bool cg_is_special_file(const HChar *file)
{
   struct vg_stat st;
   if (sr_isError(VG_(stat)(file, &st)))
      return False;              /* absent: create it */
   return !VKI_S_ISREG(st.mode);
}

static Bool cg_path_exists(const HChar *path)
{
   struct vg_stat st;
   return !sr_isError(VG_(stat)(path, &st));
}

/* Writes the profile to path so that it is complete or absent: into a
   temporary file beside the file path names (symbolic links followed),
   renamed over it at the end; devices and FIFOs are written in place.
   Returns False (and prints why) if that failed. */
static Bool cg_write_profile_file(const HChar *path)
{
   HChar *file = cg_resolve_links(path);
   HChar *tmp = NULL;
   SysRes sres;

   if (cg_is_special_file(file)) {
      sres = VG_(open)(file, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                       VKI_S_IRUSR | VKI_S_IWUSR);
   } else {
      tmp = VG_(malloc)("cg.main.tmpname", VG_(strlen)(file) + 32);
      VG_(sprintf)(tmp, "%s.tmp.%d", file, VG_(getpid)());
      sres = VG_(open)(tmp, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                       VKI_S_IRUSR | VKI_S_IWUSR);
   }
   Bool ok = !sr_isError(sres);
   if (!ok) {
      VG_(umsg)("error: can't open output data file '%s'\n", path);
      VG_(umsg)("       ... so detailed results will be missing.\n");
   } else {
      Int fd = (Int)sr_Res(sres);
      ok = cg_write_profile(fd);
      VG_(close)(fd);
      if (ok && tmp && VG_(rename)(tmp, file) != 0)
         ok = False;
      if (!ok) {
         VG_(umsg)("error: writing output data file '%s' failed\n", path);
         VG_(umsg)("       ... so detailed results will be missing.\n");
         if (tmp)
            VG_(unlink)(tmp);
      }
   }
   if (tmp)
      VG_(free)(tmp);
   VG_(free)(file);
   return ok;
}

/*------------------------------------------------------------*/
/*--- The profile of an image that calls exec              ---*/
/*------------------------------------------------------------*/

/* The reference loses the profile of a process image that calls exec.
   This tool writes it, just before the exec, to
   "<output file>.pre-exec.<N>" (N = 1, 2, ...: the first name not taken,
   so successive execs in one process come in order).  If the exec fails,
   the file is removed again and the process goes on counting. */
static HChar *pre_exec_path;

/* Whether the output-file format expands without an error (the core's
   expander exits on errors, which must not happen in the middle of an
   exec: the error is then reported at exit, as usual). */
static Bool cg_out_file_expandable(void)
{
   const HChar *s = clo_out_file;
   if (s[0] == '\0' || s[0] == '~')
      return False;
   for (; *s; s++) {
      if (*s != '%')
         continue;
      s++;
      if (*s == '%' || *s == 'p' || *s == 'n')
         continue;
      if (*s != 'q' || s[1] != '{')
         return False;
      const HChar *name = s + 2, *end = name;
      while (*end && *end != '}')
         end++;
      if (*end != '}')
         return False;
      HChar var[256];
      SizeT len = (SizeT)(end - name);
      if (len >= sizeof var)
         return False;
      VG_(memcpy)(var, name, len);
      var[len] = '\0';
      if (VG_(getenv)(var) == NULL)
         return False;
      s = end;
   }
   return True;
}

static Bool cg_is_exec_syscall(UInt sysno)
{
#if defined(__NR_execveat)
   if (sysno == __NR_execveat)
      return True;
#endif
   return sysno == __NR_execve;
}

static void cg_pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs)
{
   if (!cg_is_exec_syscall(sysno) || !cg_out_file_expandable())
      return;
   cg_fold_all();
   HChar *base = VG_(expand_file_name)("--cachegrind-out-file", clo_out_file);
   SizeT len = VG_(strlen)(base) + 32;
   HChar *path = VG_(malloc)("cg.main.preexec", len);
   for (UInt n = 1; ; n++) {
      VG_(sprintf)(path, "%s.pre-exec.%u", base, n);
      if (!cg_path_exists(path))
         break;
   }
   VG_(free)(base);
   if (cg_write_profile_file(path)) {
      pre_exec_path = path;
   } else {
      VG_(free)(path);
   }
}

static void cg_post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs,
                            SysRes res)
{
   if (!cg_is_exec_syscall(sysno) || pre_exec_path == NULL)
      return;
   /* Only reached when the exec failed: this image goes on. */
   VG_(unlink)(pre_exec_path);
   VG_(free)(pre_exec_path);
   pre_exec_path = NULL;
}

/*------------------------------------------------------------*/
/*--- Summary and statistics                               ---*/
/*------------------------------------------------------------*/

/* Width of n printed with thousands separators. */
static Int cg_commas_width(ULong n)
{
   Int digits = 1;
   while (n >= 10) {
      n /= 10;
      digits++;
   }
   return digits + (digits - 1) / 3;
}

static ULong cg_max(ULong a, ULong b)
{
   return a > b ? a : b;
}

static ULong cg_nonzero(ULong n)
{
   return n == 0 ? 1 : n;
}

static void cg_print_cache_summary(const CgTotals *t, Int l1, Int l2, Int l3)
{
   HChar fmt[128];
   const ULong *v = t->v;
   ULong ir = cg_nonzero(v[COL_IR]);

   VG_(sprintf)(fmt, "%%s %%,%dllu\n", l1);
   VG_(umsg)(fmt, "I1  misses:   ", v[COL_I1MR]);
   VG_(umsg)(fmt, "LLi misses:   ", v[COL_ILMR]);
   VG_(umsg)("I1  miss rate: %*.2f%%\n", l1, v[COL_I1MR] * 100.0 / ir);
   VG_(umsg)("LLi miss rate: %*.2f%%\n", l1, v[COL_ILMR] * 100.0 / ir);
   VG_(umsg)("\n");

   /* Counts are printed as they are; zeros become ones only in the rate
      denominators, exactly as the reference computes the rates. */
   ULong d = v[COL_DR] + v[COL_DW];
   ULong d1 = v[COL_D1MR] + v[COL_D1MW], dl = v[COL_DLMR] + v[COL_DLMW];
   VG_(sprintf)(fmt, "%%s %%,%dllu  (%%,%dllu rd   + %%,%dllu wr)\n",
                l1, l2, l3);
   VG_(umsg)(fmt, "D refs:       ", d, v[COL_DR], v[COL_DW]);
   VG_(umsg)(fmt, "D1  misses:   ", d1, v[COL_D1MR], v[COL_D1MW]);
   VG_(umsg)(fmt, "LLd misses:   ", dl, v[COL_DLMR], v[COL_DLMW]);
   ULong da = cg_nonzero(d), dra = cg_nonzero(v[COL_DR]),
         dwa = cg_nonzero(v[COL_DW]);
   VG_(umsg)("D1  miss rate: %*.1f%% (%*.1f%%     + %*.1f%%  )\n",
             l1, d1 * 100.0 / da, l2, v[COL_D1MR] * 100.0 / dra,
             l3, v[COL_D1MW] * 100.0 / dwa);
   VG_(umsg)("LLd miss rate: %*.1f%% (%*.1f%%     + %*.1f%%  )\n",
             l1, dl * 100.0 / da, l2, v[COL_DLMR] * 100.0 / dra,
             l3, v[COL_DLMW] * 100.0 / dwa);
   VG_(umsg)("\n");

   ULong ll_r = v[COL_D1MR] + v[COL_I1MR], ll_w = v[COL_D1MW];
   ULong llm_r = v[COL_DLMR] + v[COL_ILMR], llm_w = v[COL_DLMW];
   VG_(umsg)(fmt, "LL refs:      ", ll_r + ll_w, ll_r, ll_w);
   VG_(umsg)(fmt, "LL misses:    ", llm_r + llm_w, llm_r, llm_w);
   VG_(umsg)("LL miss rate:  %*.1f%% (%*.1f%%     + %*.1f%%  )\n",
             l1, (llm_r + llm_w) * 100.0 / (ir + da),
             l2, llm_r * 100.0 / (ir + dra), l3, llm_w * 100.0 / dwa);
}

static void cg_print_branch_summary(const CgTotals *t, Int l1, Int l2, Int l3)
{
   HChar fmt[128];
   const ULong *v = t->v;
   ULong bc = cg_nonzero(v[COL_BC]), bi = cg_nonzero(v[COL_BI]);

   VG_(sprintf)(fmt, "%%s %%,%dllu  (%%,%dllu cond + %%,%dllu ind)\n",
                l1, l2, l3);
   VG_(umsg)("\n");
   VG_(umsg)(fmt, "Branches:     ", v[COL_BC] + v[COL_BI], v[COL_BC],
             v[COL_BI]);
   VG_(umsg)(fmt, "Mispredicts:  ", v[COL_BCM] + v[COL_BIM], v[COL_BCM],
             v[COL_BIM]);
   VG_(umsg)("Mispred rate:  %*.1f%% (%*.1f%%     + %*.1f%%   )\n",
             l1, (v[COL_BCM] + v[COL_BIM]) * 100.0 / (bc + bi),
             l2, v[COL_BCM] * 100.0 / bc, l3, v[COL_BIM] * 100.0 / bi);
}

static void cg_print_summary(const CgTotals *t)
{
   HChar fmt[64];
   const ULong *v = t->v;
   Int l1 = cg_commas_width(v[COL_IR]);
   Int l2 = cg_commas_width(cg_max(v[COL_DR], v[COL_BC]));
   Int l3 = cg_commas_width(cg_max(v[COL_DW], v[COL_BI]));

   VG_(sprintf)(fmt, "%%s %%,%dllu\n", l1);
   VG_(umsg)(fmt, "I refs:       ", v[COL_IR]);
   if (clo_cache_sim)
      cg_print_cache_summary(t, l1, l2, l3);
   if (clo_branch_sim)
      cg_print_branch_summary(t, l1, l2, l3);
}

static void cg_print_stats(void)
{
   ULong lookups = stat_full_debugs + stat_file_line_debugs + stat_fn_debugs
                   + stat_no_debugs;
   ULong div = lookups ? lookups : 1;

   VG_(dmsg)("\n");
   VG_(dmsg)("cachegrind: distinct files     : %u\n", stat_files_written);
   VG_(dmsg)("cachegrind: distinct functions : %u\n", stat_fns_written);
   VG_(dmsg)("cachegrind: distinct lines     : %u\n", stat_lines_written);
   VG_(dmsg)("cachegrind: distinct instrs NoX: %llu\n", stat_instrs_nox);
   VG_(dmsg)("cachegrind: distinct instrs Gen: %llu\n", stat_instrs_gen);
   VG_(dmsg)("cachegrind: debug lookups      : %llu\n", lookups);
   VG_(dmsg)("cachegrind: with full      info:%6.1f%% (%llu)\n",
             stat_full_debugs * 100.0 / div, stat_full_debugs);
   VG_(dmsg)("cachegrind: with file/line info:%6.1f%% (%llu)\n",
             stat_file_line_debugs * 100.0 / div, stat_file_line_debugs);
   VG_(dmsg)("cachegrind: with fn name   info:%6.1f%% (%llu)\n",
             stat_fn_debugs * 100.0 / div, stat_fn_debugs);
   VG_(dmsg)("cachegrind: with zero      info:%6.1f%% (%llu)\n",
             stat_no_debugs * 100.0 / div, stat_no_debugs);
   VG_(dmsg)("cachegrind: string table size: %u\n", str_count);
   VG_(dmsg)("cachegrind: CC table size: %u\n", cc_count);
   VG_(dmsg)("cachegrind: InstrInfo table size: %u\n",
             VG_(HT_count_nodes)(sb_table));
}

/*------------------------------------------------------------*/
/*--- Start-up and exit                                    ---*/
/*------------------------------------------------------------*/

static void cg_fini(Int exitcode)
{
   CgTotals tot = { { 0 } };

   cg_fold_all();
   for (UInt b = 0; b < cc_table_size; b++)
      for (const CgLineCC *cc = cc_table[b]; cc; cc = cc->next)
         cg_add_totals(&tot, cc);

   HChar *path = VG_(expand_file_name)("--cachegrind-out-file", clo_out_file);
   if (!cg_write_profile_file(path))
      stat_files_written = stat_fns_written = stat_lines_written = 0;
   VG_(free)(path);

   if (VG_(clo_verbosity) == 0)
      return;
   /* Unlike the reference, the totals are true even when the file could
      not be written. */
   cg_print_summary(&tot);
   if (VG_(clo_stats))
      cg_print_stats();
}

static void cg_post_clo_init(void)
{
   cg_setup_columns();
   fold_slot[CG_FOLD_IR] = col_slot[COL_IR];
   fold_slot[CG_FOLD_DR] = col_slot[COL_DR];
   fold_slot[CG_FOLD_DW] = col_slot[COL_DW];
   fold_slot[CG_FOLD_BC] = col_slot[COL_BC];
   fold_slot[CG_FOLD_BI] = col_slot[COL_BI];
   if (clo_cache_sim)
      cg_configure_caches();
   if (clo_branch_sim) {
      UInt z = cg_arch_branch_zero_bits(cg_guest_arch());
      cg_condpred_init(&cond_predictor, z);
      cg_indpred_init(&ind_predictor, z);
   }
   instr_enabled = clo_instr_at_start;
   sb_table = VG_(HT_construct)("cg.main.sbtable");
}

static void cg_pre_clo_init(void)
{
   VG_(details_name)("Cachegrind");
   VG_(details_version)(NULL);
   VG_(details_description)("a high-precision tracing profiler");
   VG_(details_copyright_author)(
      "Copyright (C) 2026, and GNU GPL'd, by the cachegrind-ng developers.");
   VG_(details_bug_reports_to)(VG_BUGS_TO);
   VG_(details_avg_translation_sizeB)(500);

   /* The reference's register-update policy, so that the core builds the
      same blocks; the user may still override it. */
   VG_(clo_vex_control).iropt_register_updates_default
      = VG_(clo_px_file_backed) = VexRegUpdSpAtMemAccess;

   VG_(basic_tool_funcs)(cg_post_clo_init, cg_instrument, cg_fini);
   VG_(needs_superblock_discards)(cg_discard_superblock_info);
   VG_(needs_command_line_options)(cg_process_cmd_line_option,
                                   cg_print_usage, cg_print_debug_usage);
   VG_(needs_client_requests)(cg_handle_client_request);
   VG_(needs_syscall_wrapper)(cg_pre_syscall, cg_post_syscall);
}

VG_DETERMINE_INTERFACE_VERSION(cg_pre_clo_init)
