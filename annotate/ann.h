/* ann.h -- state shared by the parts of cg_annotate: options, merged profile, report writers. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ANN_H
#define ANN_H

#include <stdint.h>
#include <stdio.h>

#include "cgp.h"
#include "cgp_model.h"
#include "prog_report.h"

/* Annotation-summary buckets, in their printing order. */
enum {
	B_KNOWN, B_LINE0, B_NONIDENT, B_UNREADABLE, B_BELOW, B_UNKNOWN, B_COUNT
};

struct ann {
	/* Options, as the command line set them. */
	int diff, percs, annotate;
	double threshold;
	int64_t context;
	struct cgp_subst *mod_fl, *mod_fn;
	char *show_arg, *sort_arg;     /* raw "A,B,C", or NULL */
	char **files; size_t nfiles;
	int argc; char **argv;
	/* Our options (docs/manual/ci.md): limits, --derive, --normalize,
	 * --json; --json-lines, --show-old-new, --source-prefix-map. */
	struct rep_opts rep;
	int json_lines, old_new, threshold_given;
	char **prefix_map; size_t nprefix_map;   /* "OLD=NEW", from argv */
	int side;                      /* --per-file */
	char **side_labels;            /* its column groups' labels (nfiles) */

	/* Derived. */
	unsigned *show; unsigned nshow;  /* event indices of the columns */
	unsigned *sort; unsigned nsort;  /* event indices of the sort keys */
	struct cgp_profile prof;
	unsigned nev;                    /* columns: recorded, then derived */
	unsigned nrec;                   /* recorded events */
	char **events;                   /* nev names */
	unsigned char *ratio;            /* per column: in thousandths */
	const int64_t *summary;          /* nev values */
	/* --diff: the cost centres' totals and the summary after the first
	 * file (= minus the old counts), for the model's old and new. */
	int64_t *snap, *snap_summary; size_t nsnap;
	/* What the File:function and Function:file tables, the gate, the
	 * --show-old-new tables and the JSON render from (ann_model.c). */
	struct cgp_model model; int have_model;
	/* Per file of prof.tab.file (same index): 1 if the File:function
	 * section lists it, so that its source is annotated. */
	unsigned char *selected;
	int64_t *bucket[B_COUNT];   /* the Annotation summary's rows */

	/* --inline, --asm, --debug-file-directory (ann_inline.c, ann_asm.c):
	 * the profile is then read with its instruction rows, and its objects
	 * are opened (objs, NULL otherwise). */
	int inline_on, asm_on;
	struct ann_asm_regex *asm_regex;  /* --asm=REGEX, or NULL */
	const char *debug_dirs;           /* NULL: /usr/lib/debug */
	struct ann_objects *objs;
};

/* Column widths of one table.  Per shown event: the count column is as
 * wide as the widest of the smallest and largest count (with thousands
 * separators), the percentage columns as their widest text (an outer row
 * of File:function or Function:file has two, its own and the cumulative
 * one); an event name wider than all that widens the cell. */
struct cols {
	int outer;
	int64_t *min, *max, *cmin, *cmax;   /* per event */
	size_t *cw, *p1w, *p2w;             /* per shown column */
};

void cols_init(struct cols *c, const struct ann *a, int outer);
void cols_see(struct cols *c, const struct ann *a, const int64_t *v);
void cols_see_cumul(struct cols *c, const struct ann *a, const int64_t *v);
void cols_finish(struct cols *c, const struct ann *a);
void cols_release(struct cols *c);
void put_header(const struct cols *c, const struct ann *a, const char *prefix,
		const char *suffix);
/* Cells of v (outer form when cumul != NULL); no newline. */
void put_cells(const struct cols *c, const struct ann *a, const int64_t *v,
	       const int64_t *cumul);
void put_missing_cells(const struct cols *c, const struct ann *a);
void put_fancy(const char *title, const char *name, size_t len);

/* ann_side.c: --per-file.  Reads every file into a profile of its
 * own and puts them side by side into a->prof, with the labels of the
 * groups in a->side_labels and --show and --sort widened; dies on
 * errors. */
void ann_side_read(struct ann *a, const struct cgp_read_opts *ro);
/* The Metadata lines that say which file each column group is. */
void ann_side_metadata(const struct ann *a);
void ann_side_release(struct ann *a);

/* ann_summary.c */
void report_summaries(struct ann *a);
/* ann_source.c */
void report_sources(struct ann *a);
void report_annotation_summary(struct ann *a);

/* ann_inline.c: the profile's objects, and --inline */
void objects_open(struct ann *a);
void objects_release(struct ann *a);
/* Object i of the table (NULL if it could not be opened), and why it is
 * not used for inline information (NULL if it is). */
struct ann_obj *objects_get(const struct ann *a, size_t i);
const char *objects_why(const struct ann *a, size_t i);
void report_objects(struct ann *a);
/* Charges instructions to the inlined functions they belong to. */
void inline_apply(struct ann *a);
/* After an annotated source line with counts: which function, or inlined
 * function, each part of them belongs to (nothing unless some part is
 * inlined code). */
void inline_breakdown(struct ann *a, const struct cgp_file *f, int64_t line,
		      const struct cols *c);
/* ann_asm.c: --asm */
const char *asm_set_regex(struct ann *a, const char *re, int *free_it);
void report_asm(struct ann *a);
void asm_release(struct ann *a);

/* Checked sum a += b over nev events; dies on overflow. */
void add_counts(int64_t *a, const int64_t *b, unsigned nev);
/* acc += v over the recorded events, then acc's derived columns
 * recomputed; dies on overflow. */
void add_row(const struct ann *a, int64_t *acc, const int64_t *v);
/* Row i of a line table into v (nev values). */
void line_values(const struct ann *a, const struct cgp_lines *t, size_t i, int64_t *v);
/* Fills the derived columns of v; dies on overflow. */
void derive(const struct ann *a, int64_t *v);

/* ann_model.c: the model, the gate, the old/new tables, the JSON. */
void model_build(struct ann *a);
void report_old_new(struct ann *a);
void report_gate(struct ann *a);
void report_json(struct ann *a);
/* A stream that discards what is written (to run the text report for its
 * side effects: the buckets and the files above the threshold). */
FILE *sink_stream(void);
/* The path to open for a source file named name (--source-prefix-map),
 * malloc'd. */
char *source_path(const struct ann *a, const struct cgp_name *name);

#endif
