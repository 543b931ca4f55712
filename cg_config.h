/* cg_config.h -- the tool's options, as set by the command line (cg_main.c).
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef CG_CONFIG_H
#define CG_CONFIG_H

#include "pub_tool_basics.h"
#include "cg_sim.h"

/* Set by cg_process_cmd_line_option, read-only afterwards. */
extern const HChar *clo_out_file;
extern Bool clo_cache_sim;
extern Bool clo_branch_sim;
extern Bool clo_instr_at_start;
extern struct cg_cache_config clo_I1;
extern struct cg_cache_config clo_D1;
extern struct cg_cache_config clo_LL;

/* Whether superblocks are being instrumented now (client requests). */
extern Bool instr_enabled;

#endif /* CG_CONFIG_H */
