/* cg_irgen.h -- IR emission helpers, including the inline way-0 tests of the caches.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The instrumenter (cg_instrument.c) builds its IR with these.  This is
   the only tool code that knows how a cache keeps its tags: the layout
   contract it relies on is stated in cg_sim.h ("The tag layout").  Every
   function appends statements to ir->sb_out; the expressions it returns
   are atoms (temporaries or constants) of that superblock. */

#ifndef CG_IRGEN_H
#define CG_IRGEN_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

#include "cg_sim.h"

/* An IR expression that is an atom (a temporary or a constant). */
typedef IRExpr IRAtom;

/* The superblock being built and the host's word type (Ity_I64 or
   Ity_I32).  Owner: the instrumenter, for the superblock at hand. */
struct cg_irgen {
   IRSB *sb_out;
   IRType hword_ty;
};

/* A host-word constant v; with out, also the IRConst, so that the caller
   can patch its value later. */
IRExpr *cg_hword_const(struct cg_irgen *ir, HWord v, IRConst **out);
/* A pointer as a host-word constant. */
IRExpr *cg_ptr(struct cg_irgen *ir, const void *p);
/* A new temporary of type ty set to e. */
IRAtom *cg_assign(struct cg_irgen *ir, IRType ty, IRExpr *e);

/* Emits "*addr += 1" on the 64-bit counter at the host word addr. */
void cg_emit_increment(struct cg_irgen *ir, IRExpr *addr);

/* Emits a call of a run-time helper; with a guard, the call only happens
   when the guard (an Ity_I1 atom) holds.  Returns the call, which the
   caller may still change until the block is handed back to VEX. */
IRDirty *cg_emit_call(struct cg_irgen *ir, const HChar *name, void *fn,
                      Int regparms, IRExpr **args, IRAtom *guard);

/* The inline way-0 tests.  Most simulated accesses hit the most recently
   used way of their set, which changes nothing; the emitted code tests for
   that inline and calls the helper only when the access may be anything
   else.  (The branch predictors are always called: inline they would be
   no faster and several times bigger in the translation cache.) */

/* An Ity_I1 atom: 0 when the access of size bytes at ea (an atom) lies in
   one line that is in way 0 of its set of c (a hit that changes nothing),
   1 when it may be anything else. */
IRAtom *cg_emit_maybe_miss(struct cg_irgen *ir, const struct cg_cache *c,
                           IRAtom *ea, Int size);

/* An Ity_I1 atom for a fetch whose lines first and last (constants, last
   is first or first + 1) are the ones it still needs: 1 unless last, and
   first too if test_first, are in way 0 of c.  NULL when no inline test
   can tell (two lines of one set): the helper must always be called. */
IRAtom *cg_emit_lines_not_way0(struct cg_irgen *ir, const struct cg_cache *c,
                               Addr first, Addr last, Bool test_first);

#endif /* CG_IRGEN_H */
