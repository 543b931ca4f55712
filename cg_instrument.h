/* cg_instrument.h -- the instrumentation pass: events, flushes, the records of a superblock.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef CG_INSTRUMENT_H
#define CG_INSTRUMENT_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

#include "cg_config.h"

extern ULong stat_instrs_nox, stat_instrs_gen;

/* Keeps config (read-only) for the instrumentation to come. */
void cg_instrument_init(const struct cg_config *config);

IRSB *cg_instrument(VgCallbackClosure *closure, IRSB *sb_in,
                    const VexGuestLayout *layout,
                    const VexGuestExtents *vge,
                    const VexArchInfo *archinfo_host,
                    IRType gWordTy, IRType hWordTy);

#endif /* CG_INSTRUMENT_H */
