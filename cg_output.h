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
void cg_pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs);
void cg_post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs,
                     SysRes res);
void cg_print_summary(const CgTotals *t);
void cg_print_stats(void);

#endif /* CG_OUTPUT_H */
