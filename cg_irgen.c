/* cg_irgen.c -- IR emission helpers, including the inline way-0 tests of the caches.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_machine.h"

#include "cg_irgen.h"
#include "cg_sim.h"

IRExpr *cg_hword_const(struct cg_irgen *ir, HWord v, IRConst **out)
{
   IRConst *c = ir->hword_ty == Ity_I64 ? IRConst_U64((ULong)v)
                                         : IRConst_U32((UInt)v);
   if (out)
      *out = c;
   return IRExpr_Const(c);
}

IRExpr *cg_ptr(struct cg_irgen *ir, const void *p)
{
   return cg_hword_const(ir, (HWord)p, NULL);
}

IRAtom *cg_assign(struct cg_irgen *ir, IRType ty, IRExpr *e)
{
   IRTemp t = newIRTemp(ir->sb_out->tyenv, ty);
   addStmtToIRSB(ir->sb_out, IRStmt_WrTmp(t, e));
   return IRExpr_RdTmp(t);
}

void cg_emit_increment(struct cg_irgen *ir, IRExpr *addr_expr)
{
   /* A constant address is used as it is, twice (one statement fewer for
      VEX to optimise away; the two share the IRConst, which a fixup may
      patch). */
   Bool is_const = addr_expr->tag == Iex_Const;
   IRAtom *addr = is_const ? addr_expr
                           : cg_assign(ir, ir->hword_ty, addr_expr);
   IRAtom *old = cg_assign(ir, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, addr));
   IRAtom *new = cg_assign(ir, Ity_I64,
                           IRExpr_Binop(Iop_Add64, old,
                                        IRExpr_Const(IRConst_U64(1))));
   addStmtToIRSB(ir->sb_out,
                 IRStmt_Store(Iend_LE,
                              is_const ? IRExpr_Const(addr->Iex.Const.con)
                                       : addr,
                              new));
}

IRDirty *cg_emit_call(struct cg_irgen *ir, const HChar *name, void *fn,
                      Int regparms, IRExpr **args, IRAtom *guard)
{
   IRDirty *di = unsafeIRDirty_0_N(regparms, name,
                                   VG_(fnptr_to_fnentry)(fn), args);
   if (guard)
      di->guard = guard;
   addStmtToIRSB(ir->sb_out, IRStmt_Dirty(di));
   return di;
}

/*--- The inline way-0 tests (see cg_irgen.h) -------------------------*/

/* A host-word operation: op64 on a 64-bit host, op32 on a 32-bit one. */
static IRAtom *cg_wop(struct cg_irgen *ir, IROp op64, IROp op32, IRExpr *a,
                      IRExpr *b)
{
   return cg_assign(ir, ir->hword_ty,
                    IRExpr_Binop(ir->hword_ty == Ity_I64 ? op64 : op32,
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

IRAtom *cg_emit_maybe_miss(struct cg_irgen *ir, const struct cg_cache *c,
                           IRAtom *ea, Int size)
{
   IRType ty = ir->hword_ty;
   Bool w64 = ty == Ity_I64;
   IRAtom *block = NULL;         /* ea's block number, made when needed */
   UWord stride = (UWord)c->way0_stride * sizeof(UWord);
   Int shift = cg_log2_exact(stride);
   IRAtom *offset;
   if (shift >= 0 && (UInt)shift <= c->line_bits) {
      /* (set index << shift) is a field of ea itself: one mask. */
      offset = cg_wop(ir, Iop_And64, Iop_And32, ea,
                      cg_hword_const(ir, (UWord)c->sets_min_1
                                          << c->line_bits, NULL));
      if ((UInt)shift < c->line_bits)
         offset = cg_wop(ir, Iop_Shr64, Iop_Shr32, offset,
                         cg_shift_amount(c->line_bits - shift));
   } else {
      block = cg_wop(ir, Iop_Shr64, Iop_Shr32, ea,
                     cg_shift_amount(c->line_bits));
      IRAtom *set = cg_wop(ir, Iop_And64, Iop_And32, block,
                           cg_hword_const(ir, c->sets_min_1, NULL));
      offset = shift >= 0
         ? cg_wop(ir, Iop_Shl64, Iop_Shl32, set, cg_shift_amount(shift))
         : cg_wop(ir, Iop_Mul64, Iop_Mul32, set,
                  cg_hword_const(ir, stride, NULL));
   }
   IRAtom *slot = cg_wop(ir, Iop_Add64, Iop_Add32, offset,
                         cg_ptr(ir, c->way0));
   IRAtom *compare_with;
   if (size > 1 && c->sets > 1) {
      /* Way 0 of the first line's set can only hold the access's last line
         if that is the first line too (the next line lies in another set;
         an initial tag 0 is no line's), so one compare tests both "in way
         0" and "in one line". */
      IRAtom *end = cg_wop(ir, Iop_Add64, Iop_Add32, ea,
                           cg_hword_const(ir, size - 1, NULL));
      compare_with = cg_wop(ir, Iop_Shr64, Iop_Shr32, end,
                            cg_shift_amount(c->line_bits));
   } else {
      compare_with = block ? block
                           : cg_wop(ir, Iop_Shr64, Iop_Shr32, ea,
                                    cg_shift_amount(c->line_bits));
   }
   /* The load as the second operand, which the instruction selector can
      take from memory directly. */
   IRAtom *tag = cg_assign(ir, ty, IRExpr_Load(Iend_LE, ty, slot));
   IRAtom *maybe_miss = cg_assign(ir, Ity_I1,
      IRExpr_Binop(w64 ? Iop_CmpNE64 : Iop_CmpNE32, compare_with, tag));
   if (size > 1 && c->sets == 1) {
      /* Fully associative: test the span separately.  It spans two lines
         iff its offset in the line is above line_size - size. */
      IRAtom *in_line = cg_wop(ir, Iop_And64, Iop_And32, ea,
                               cg_hword_const(ir, c->line_size - 1, NULL));
      IRAtom *spans = cg_assign(ir, Ity_I1,
         IRExpr_Binop(w64 ? Iop_CmpLT64U : Iop_CmpLT32U,
                      cg_hword_const(ir, c->line_size - size, NULL),
                      in_line));
      maybe_miss = cg_assign(ir, Ity_I1,
                             IRExpr_Binop(Iop_Or1, maybe_miss, spans));
   }
   return maybe_miss;
}

/* An Ity_I1 atom: 1 unless the constant line block is in way 0 of its set
   of c. */
static IRAtom *cg_emit_not_way0(struct cg_irgen *ir, const struct cg_cache *c,
                                Addr block)
{
   const uintptr_t *slot = &c->way0[cg_cache_way0_offset(c, block)];
   IRType ty = ir->hword_ty;
   IRAtom *tag = cg_assign(ir, ty, IRExpr_Load(Iend_LE, ty, cg_ptr(ir, slot)));
   return cg_assign(ir, Ity_I1,
                    IRExpr_Binop(ty == Ity_I64 ? Iop_CmpNE64 : Iop_CmpNE32,
                                 tag, cg_hword_const(ir, block, NULL)));
}

static IRAtom *cg_or1(struct cg_irgen *ir, IRAtom *a, IRAtom *b)
{
   return cg_assign(ir, Ity_I1, IRExpr_Binop(Iop_Or1, a, b));
}

IRAtom *cg_emit_lines_not_way0(struct cg_irgen *ir, const struct cg_cache *c,
                               Addr first, Addr last, Bool test_first)
{
   /* The lines are constants, and so are their sets. */
   IRAtom *guard = cg_emit_not_way0(ir, c, last);
   if (test_first && first != last) {
      if (c->sets == 1)
         guard = NULL;              /* both lines in one set: call always */
      else
         guard = cg_or1(ir, cg_emit_not_way0(ir, c, first), guard);
   }
   return guard;
}

