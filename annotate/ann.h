/* ann.h -- state shared by the parts of cg_annotate: options, merged profile, report writers. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ANN_H
#define ANN_H

#include <stdint.h>

#include "cgp.h"

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
	int side;                      /* --per-file */
	char **side_labels;            /* its column groups' labels (nfiles) */

	/* Derived. */
	unsigned *show; unsigned nshow;  /* event indices of the columns */
	unsigned *sort; unsigned nsort;  /* event indices of the sort keys */
	struct cgp_profile prof;
	unsigned nev;
	const int64_t *summary;
	/* Per file of prof.tab.file (same index): 1 if the File:function
	 * section lists it, so that its source is annotated. */
	unsigned char *selected;
	int64_t *bucket[B_COUNT];   /* the Annotation summary's rows */
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

/* Checked sum a += b over nev events; dies on overflow. */
void add_counts(int64_t *a, const int64_t *b, unsigned nev);

#endif
