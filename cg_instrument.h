/* cg_instrument.h -- the instrumentation pass: events, flushes, the records of a superblock.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef CG_INSTRUMENT_H
#define CG_INSTRUMENT_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

#include "cg_config.h"

/* For --stats=yes: the instructions instrumented whose fetch touches one
   line of I1 and I1 and LL have the same line size (the reference's
   "no-cross" class), and the others; and how often an instruction's
   events needed a counter its cost centre's shape did not have
   (--dump-instr=yes; cg_instr_shape should make that never). */
void cg_instrument_stats(ULong *instrs_nox, ULong *instrs_gen,
                         ULong *shape_misses);

/* Keeps config (read-only) for the instrumentation to come. */
void cg_instrument_init(const struct cg_config *config);

IRSB *cg_instrument(VgCallbackClosure *closure, IRSB *sb_in,
                    const VexGuestLayout *layout,
                    const VexGuestExtents *vge,
                    const VexArchInfo *archinfo_host,
                    IRType gWordTy, IRType hWordTy);

#endif /* CG_INSTRUMENT_H */
