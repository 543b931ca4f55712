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

/* One line of a profile to write: its cost centre and its counters
   (cg_layout.n_slots of them, in column order), or c NULL for the cost
   centre's own.  Rows of one key are written as one line, their counters
   added up. */
struct cg_row {
   const CgLineCC *cc;
   const ULong *c;
};

/* A profile part (cg_parts.c): what it has besides a plain profile. */
struct cg_part_text {
   const HChar *desc;         /* its desc: lines, each "desc: ...\n" */
   struct cg_row *rows;       /* its lines, in any order: the writer sorts
                                 them; owner: the caller */
   UInt n_rows;
};

/* Writes a profile to path, complete or not at all (docs/design.md,
   "Writing an output file"), with the summary: line from tot: part's
   lines and desc: lines, or, part NULL, every line cost centre with its
   counters as they are (fold first), zeros included, as the reference
   writes it.  False (and the reason printed) if it could not be
   written. */
Bool cg_write_profile_file(const HChar *path, const CgTotals *tot,
                           const struct cg_part_text *part);

/* Adds arg to the options the core passes on at an exec (with
   --trace-children=yes), or, if *slot (initially -1) holds one added
   before, replaces it there; arg stays in use. */
void cg_pass_on_arg(Word *slot, HChar *arg);

/* Just before an exec whose program will run under Valgrind (traced): a
   FIFO output kept open is handed to the next image (--fifo-fd), open
   across the exec, so that its reader sees no
   end of file between the two images' profiles.  After a failed exec,
   cg_output_exec_failed() takes it back. */
void cg_output_pre_exec(Bool traced);
void cg_output_exec_failed(void);

/* From now on, a FIFO without a reader is not waited for: the program was
   ended by a signal, which would have given the wait up (a stop signal
   pending), and is consumed; the profile is lost with that reason. */
void cg_output_fifo_no_wait(void);

/* The reference loses the profile of a process image that calls exec;
   this tool writes it just before the exec (cg_parts.c) under this name,
   "<output file>.pre-exec.<N>": the first N = 1, 2, ... for which neither
   that name nor that name with the thread suffix "-01" is taken, so that
   successive execs of one process come in order.  A new string the caller
   frees, or NULL if the output-file name would not expand without an
   error (the error is then reported at exit, as usual). */
HChar *cg_pre_exec_name(void);
/* --cachegrind-out-file expanded (VG_(expand_file_name), which exits on
   an error): the name of this image's first file, kept for its later
   ones, so that a program that changes what %q{VAR} or %n expand to
   cannot scatter one run's parts, pre-exec profile and final profile
   across names.  A new string the caller frees.  cg_out_file_forget()
   drops it (a forked child: its own pid, maybe a name of its own). */
HChar *cg_out_file_name(void);
Bool cg_out_file_named(void);
void cg_out_file_forget(void);
/* Whether the output-file format expands without an error.  The core's
   expander exits on errors, which must not happen while the program runs
   (before an exec, at a dump): the error is reported at exit, as usual. */
Bool cg_out_file_expandable(void);
/* Whether the output file base (expanded), or --cachegrind-out-file, is
   an existing device or FIFO (/dev/null, /dev/stdout): then the names
   made from it (parts, pre-exec profiles, forked children's) are base
   itself, written in place too, never new files beside the device. */
Bool cg_out_is_special(const HChar *base);
Bool cg_out_file_special(void);

void cg_print_summary(const CgTotals *t);
void cg_print_stats(void);

#endif /* CG_OUTPUT_H */
