/* cg_irgen.c -- IR emission helpers, including the inline way-0 tests of the caches.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"

#include "cg_irgen.h"
#include "cg_sim.h"

IRExpr *cg_hword_const(CgState *cgs, HWord v, IRConst **out)
{
   IRConst *c = cgs->hword_ty == Ity_I64 ? IRConst_U64((ULong)v)
                                         : IRConst_U32((UInt)v);
   if (out)
      *out = c;
   return IRExpr_Const(c);
}

IRExpr *cg_ptr(CgState *cgs, const void *p)
{
   return cg_hword_const(cgs, (HWord)p, NULL);
}

IRAtom *cg_assign(CgState *cgs, IRType ty, IRExpr *e)
{
   IRTemp t = newIRTemp(cgs->sb_out->tyenv, ty);
   addStmtToIRSB(cgs->sb_out, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

/* Emits a call of a run-time helper; with a guard, the call only happens
   when the guard (an Ity_I1 atom) holds. */
void cg_emit_call(CgState *cgs, const HChar *name, void *fn,
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
IRAtom *cg_emit_maybe_miss(CgState *cgs, const struct cg_cache *c,
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
IRAtom *cg_emit_not_way0(CgState *cgs, const struct cg_cache *c,
                                Addr block)
{
   const uintptr_t *slot = &c->tags[cg_cache_set_offset(c, block)];
   IRType ty = cgs->hword_ty;
   IRAtom *tag = cg_assign(cgs, ty, IRExpr_Load(Iend_LE, ty, cg_ptr(cgs, slot)));
   return cg_assign(cgs, Ity_I1,
                    IRExpr_Binop(ty == Ity_I64 ? Iop_CmpNE64 : Iop_CmpNE32,
                                 tag, cg_hword_const(cgs, block, NULL)));
}

IRAtom *cg_or1(CgState *cgs, IRAtom *a, IRAtom *b)
{
   return cg_assign(cgs, Ity_I1, IRExpr_Binop(Iop_Or1, a, b));
}
