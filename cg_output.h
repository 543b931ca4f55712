/* cg_output.h -- the profile writer, pre-exec profiles, the end-of-run summary and --stats.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef CG_OUTPUT_H
#define CG_OUTPUT_H

#include "pub_tool_basics.h"

#include "cg_cc.h"

extern UInt stat_files_written, stat_fns_written, stat_lines_written;

/* Keeps config (read-only) for the output to come. */
void cg_output_init(const struct cg_config *config);

Bool cg_write_profile_file(const HChar *path, const CgTotals *tot);
/* The reference loses the profile of a process image that calls exec;
   this tool writes it just before the exec, to
   "<output file>.pre-exec.<N>" (the first N = 1, 2, ... not taken), after
   folding.  Nothing is written if the output file name would not expand
   without an error (the error is then reported at exit, as usual). */
void cg_write_pre_exec_profile(void);

/* The exec failed, and this image goes on: removes the pre-exec profile
   written for it, if any. */
void cg_remove_pre_exec_profile(void);
void cg_print_summary(const CgTotals *t);
void cg_print_stats(void);

#endif /* CG_OUTPUT_H */
