/* prog_report.h -- the options cg_annotate and cg_diff share for regression checks: limits, derived events, normalisation, JSON, width. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef PROG_REPORT_H
#define PROG_REPORT_H

#include "cgp_model.h"

/* Exit status when a --fail-above limit is exceeded (cg_run uses the same
 * for runs that differ: 3 is "the check ran and failed", never an error). */
#define EXIT_LIMIT 3

/* What the options below collect; owned until rep_release(). */
struct rep_opts {
	struct cgp_limit *limits; size_t nlimits;
	struct cgp_derives der;
	struct cgp_subst *norm;       /* --normalize chain, or NULL */
	int json;
	unsigned width;               /* --width, 0 = not given */
};

enum rep_opt { REP_FAIL_ABOVE, REP_DERIVE, REP_NORMALIZE, REP_WIDTH };

/* Handler work of one option (value as given): NULL, or argparse's
 * message (malloc'd, *free_it set) for ap_parse to report. */
const char *rep_option(struct rep_opts *r, enum rep_opt which, const char *value,
		       int *free_it);
/* The function-name expressions to read with: the presets, then
 * --mod-funcname (mod_fn, taken over); NULL when neither. */
struct cgp_subst *rep_fn_chain(struct rep_opts *r, struct cgp_subst *mod_fn);
/* The width of the ranked table: --width, else the terminal's of fd, else
 * $COLUMNS, else 120. */
unsigned rep_width(const struct rep_opts *r, int fd);
/* A copy of the totals of p's cost centres as they are now (p->nev per
 * cost centre, in table order; malloc'd), *n their number: the model of a
 * diff needs one side after the other was read or subtracted.  Dies
 * without memory. */
int64_t *rep_cc_totals(const struct cgp_profile *p, size_t *n);
/* The gate's text for fd: the verdicts and the 20 functions that changed
 * most, fitted to rep_width(r, fd), appended to b; dies without memory. */
void rep_gate_text(const struct rep_opts *r, const struct cgp_model *m, int fd,
		   struct cgp_buf *b);
/* Clears info and fills what cg_annotate and cg_diff fill alike: the
 * program, its command line, the profiles read (borrowed) and the limits. */
void rep_json_info(const struct rep_opts *r, struct cgp_json_info *info,
		   const char *program, int argc, char **argv,
		   const struct cgp_profile *const *prof, size_t nprof);
void rep_release(struct rep_opts *r);

#endif
