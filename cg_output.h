/* cg_output.h -- the profile writer, pre-exec profiles, the end-of-run summary and --stats.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef CG_OUTPUT_H
#define CG_OUTPUT_H

#include "pub_tool_basics.h"

/* Cache descriptions for the desc: lines (set when the simulation is on). */
extern const HChar *desc_I1, *desc_D1, *desc_LL;

#endif /* CG_OUTPUT_H */
