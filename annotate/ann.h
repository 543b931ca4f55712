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

	/* --html=FILE (ann_html.c): the path, and while the report is
	 * written, the page's state (NULL otherwise: the text report). */
	const char *html_path;
	struct ann_html *html;
};

/* The File:function and Function:file tables as the text prints them
 * (ann_summary.c), also what --html renders: one outer entry (a file with
 * its functions, or a function with its files) and its inner entries. */
struct inner {
	const struct cgp_name *name;
	const int64_t *v;          /* the values shown (a diff's deltas) */
	const int64_t *full;       /* as a model row (a diff: old, new, delta) */
	long file;                 /* its file entry (prof.tab.file), or -1 */
	long row;                  /* its model row = cost centre, or -1 */
};

struct outer {
	const struct cgp_name *name;
	int64_t *total;            /* the values shown, owned */
	const int64_t *full;       /* as a model group */
	long file;                 /* File:function: its file entry, or -1 */
	struct inner *in;
	size_t nin;
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
/* The text of value v of column e (thousands separators; a ratio with
 * three decimals) into buf (>= 48 bytes); its length. */
size_t fmt_count(const struct ann *a, unsigned e, char *buf, int64_t v);
/* Python '{:.1f}' of v*100/s into buf (>= 48 bytes); its length. */
size_t fmt_perc(char *buf, int64_t v, int64_t s);

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
/* The Annotation summary's row labels (as printed, with their padding). */
extern const char *const asum_label[B_COUNT];

/* ann_inline.c: the profile's objects, and --inline */
void objects_open(struct ann *a);
void objects_release(struct ann *a);
/* Object i of the table (NULL if it could not be opened), and why it is
 * not used for inline information (NULL if it is). */
struct ann_obj *objects_get(const struct ann *a, size_t i);
const char *objects_why(const struct ann *a, size_t i);
/* Stops using object i's DWARF (why: the reason), from now on. */
void objects_distrust(struct ann *a, size_t i, const char *why);
/* A file name from an object's DWARF as the report shows it: after
 * --mod-filename, as the profile's names are (kept until
 * objects_release). */
const char *objects_file_name(struct ann *a, const char *name);
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

/* ann_html.c: --html=FILE.  html_open() starts the page (dying with the
 * file's name and the reason if it cannot be created); the others add to
 * it in the order of the text report, each called only while a->html is
 * set; html_finish() ends it and puts it under its name, complete. */
void html_open(struct ann *a);
void html_header(struct ann *a);
void html_pre(struct ann *a, const char *id, const char *title, const char *text,
	      size_t len);
void html_table(struct ann *a, const struct outer *o, size_t n, int by_fn);
/* An annotated source file: begin, then either unannotated (why) or
 * newer warnings (per data file), the table, line 0, the ranges of lines
 * (and their breakdowns), the lines past its end; then end. */
void html_src_begin(struct ann *a, const struct cgp_file *f);
void html_src_unannotated(struct ann *a, const struct cgp_file *f, const char *why);
void html_src_newer(struct ann *a, const struct cgp_file *f, const char *data_file);
void html_src_table(struct ann *a, const struct cgp_file *f);
void html_src_line0(struct ann *a, const int64_t *v);
void html_src_range(struct ann *a, int64_t lo, int64_t hi);
/* v NULL: a line without counts. */
void html_src_line(struct ann *a, int64_t n, const char *s, size_t len, const int64_t *v);
void html_src_part(struct ann *a, const int64_t *v, const char *label, size_t len);
void html_src_bogus(struct ann *a, int64_t line, const int64_t *v);
void html_src_end(struct ann *a, int past_end);
void html_asum(struct ann *a);
/* One function of --asm: its title, notes, source-line markers and
 * instructions (v NULL: not in the profile); hot is the largest magnitude
 * of the primary event among them. */
void html_asm_begin(struct ann *a, const char *title, size_t len, int64_t hot);
void html_asm_note(struct ann *a, const char *text, size_t len);
void html_asm_marker(struct ann *a, const char *text, size_t len);
void html_asm_insn(struct ann *a, const int64_t *v, uint64_t addr, const char *text);
void html_asm_end(struct ann *a);
void html_finish(struct ann *a);

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
