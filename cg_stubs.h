/* cg_stubs.h -- the amd64 data-access stubs: host code that supplies a helper's counter.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef CG_STUBS_H
#define CG_STUBS_H

#include "pub_tool_basics.h"

/* The stub that calls the data helper fn (a struct cg_helper_set's
   data[i]) with misses as its second argument, or NULL where there are no
   stubs: the caller then passes misses itself. */
void *cg_data_stub(ULong *misses, void *fn);

#endif /* CG_STUBS_H */
