/* cg_stubs.h -- the amd64 data-access stubs: host code that supplies a helper's counter.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef CG_STUBS_H
#define CG_STUBS_H

#include "pub_tool_basics.h"

/* The stub that calls data helper i of helpers_D1 with misses, or NULL. */
void *cg_data_stub(ULong *misses, UInt i);

#endif /* CG_STUBS_H */
