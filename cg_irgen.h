/* cg_irgen.h -- IR emission helpers, including the inline way-0 tests of the caches.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef CG_IRGEN_H
#define CG_IRGEN_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

#include "cg_instrument.h"
#include "cg_sim.h"

IRExpr *cg_hword_const(CgState *cgs, HWord v, IRConst **out);
IRExpr *cg_ptr(CgState *cgs, const void *p);
IRAtom *cg_assign(CgState *cgs, IRType ty, IRExpr *e);
void cg_emit_call(CgState *cgs, const HChar *name, void *fn,
                  Int regparms, IRExpr **args, IRAtom *guard);
IRAtom *cg_emit_maybe_miss(CgState *cgs, const struct cg_cache *c,
                           IRAtom *ea, Int size);
IRAtom *cg_emit_not_way0(CgState *cgs, const struct cg_cache *c,
                         Addr block);
IRAtom *cg_or1(CgState *cgs, IRAtom *a, IRAtom *b);

#endif /* CG_IRGEN_H */
