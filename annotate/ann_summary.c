/* ann_summary.c -- cg_annotate's Summary, File:function and Function:file sections. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ann.h"
#include "prog.h"

/* The report whose sort events cmp_key() uses (qsort has no context
 * argument); set by report_summaries(), owns nothing. */
static const struct ann *sort_ann;

/* Descending by (|v[k]| for the sort events, name), as the model sorts. */
static int cmp_key(const int64_t *x, const struct cgp_name *xn, const int64_t *y,
		   const struct cgp_name *yn)
{
	return cgp_model_cmp(&sort_ann->model, sort_ann->sort, sort_ann->nsort, x, xn,
			     y, yn);
}

static int cmp_inner(const void *p, const void *q)
{
	const struct inner *x = p, *y = q;

	return cmp_key(x->v, x->name, y->v, y->name);
}

static int cmp_outer(const void *p, const void *q)
{
	const struct outer *x = p, *y = q;

	return cmp_key(x->total, x->name, y->total, y->name);
}

/* Python's exact "abs(v) >= t" for an int (a magnitude a) and a float
 * t >= 0. */
static int abs_ge(uint64_t a, double t)
{
	if (isnan(t))
		return 0;
	if (t >= 18446744073709551616.0)
		return 0;
	return a >= (uint64_t)ceil(t);
}

/* Keeps the inner entries reaching the threshold and sorts them; returns
 * how many are kept.  With none, o's arrays are freed: o is dropped. */
static size_t filter_sort(struct ann *a, struct outer *o, double tcount)
{
	size_t i, k = 0;
	unsigned p = a->sort[0];

	for (i = 0; i < o->nin; i++)
		if (abs_ge(cgp_model_mag(&a->model, p, o->in[i].v[p]), tcount))
			o->in[k++] = o->in[i];
	o->nin = k;
	if (!k) {
		free(o->total);
		free(o->in);
		return 0;
	}
	qsort(o->in, o->nin, sizeof *o->in, cmp_inner);
	return k;
}

/* Prints one of the two sections and frees the entries' arrays. */
static void print_section(struct ann *a, struct outer *o, size_t n,
			  const char *title, const char *marker, const char *suffix)
{
	struct cols c;
	size_t i, j;
	int64_t *cumul = xcalloc(a->nev, sizeof *cumul);

	qsort(o, n, sizeof *o, cmp_outer);
	cols_init(&c, a, 1);
	for (i = 0; i < n; i++) {
		cols_see(&c, a, o[i].total);
		for (j = 0; j < o[i].nin; j++)
			cols_see(&c, a, o[i].in[j].v);
		add_row(a, cumul, o[i].total);
		cols_see_cumul(&c, a, cumul);
	}
	cols_finish(&c, a);
	memset(cumul, 0, a->nev * sizeof *cumul);

	put_fancy(title, NULL, 0);
	put_header(&c, a, "  ", suffix);
	putchar('\n');
	for (i = 0; i < n; i++) {
		add_row(a, cumul, o[i].total);
		fputs(marker, stdout);
		put_cells(&c, a, o[i].total, cumul);
		putchar(' ');
		fwrite(o[i].name->s, 1, o[i].name->len, stdout);
		putchar(':');
		if (o[i].nin == 1 &&
		    !memcmp(o[i].in[0].v, o[i].total, a->nev * sizeof *cumul)) {
			fwrite(o[i].in[0].name->s, 1, o[i].in[0].name->len, stdout);
			putchar('\n');
		} else {
			putchar('\n');
			for (j = 0; j < o[i].nin; j++) {
				fputs("  ", stdout);
				put_cells(&c, a, o[i].in[j].v, NULL);
				fputs("   ", stdout);
				fwrite(o[i].in[j].name->s, 1, o[i].in[j].name->len, stdout);
				putchar('\n');
			}
		}
		putchar('\n');
	}
	cols_release(&c);
	free(cumul);
	if (a->html)
		html_table(a, o, n, *marker == '>');
	for (i = 0; i < n; i++) {
		free(o[i].total);
		free(o[i].in);
	}
}

static double threshold_count(const struct ann *a)
{
	unsigned k = a->sort[0];
	double as = (double)cgp_model_mag(&a->model, k, a->summary[k]);

	return a->threshold * as / 100;
}

/* The values a row or group of the model shows here: its counts, or in a
 * diff its deltas (the model's third side). */
static const int64_t *shown(const struct ann *a, const int64_t *v)
{
	return a->model.diff ? v + 2 * (size_t)a->model.ncol : v;
}

/* A copy of a group's values, owned by the struct outer. */
static int64_t *total_of(const struct ann *a, const struct cgp_mgroup *g)
{
	int64_t *t = xmalloc(a->nev, sizeof *t);

	memcpy(t, shown(a, g->v), a->nev * sizeof *t);
	return t;
}

static int cmp_file_addr(const void *p, const void *q)
{
	uintptr_t x = (uintptr_t)(*(const struct cgp_file *const *)p)->name;
	uintptr_t y = (uintptr_t)(*(const struct cgp_file *const *)q)->name;

	return (x > y) - (x < y);
}

/* The table's files sorted by the address of their names (the model names
 * a file by its entry's interned name), for select_file. */
static const struct cgp_file **files_by_name(const struct cgp_table *t)
{
	const struct cgp_file **v = xmalloc(t->nfile + 1, sizeof *v);
	size_t i;

	for (i = 0; i < t->nfile; i++)
		v[i] = &t->file[i];
	qsort(v, t->nfile, sizeof *v, cmp_file_addr);
	return v;
}

/* The file entry named name (its index in the table), or -1. */
static long file_index(const struct ann *a, const struct cgp_file **by_name,
		       const struct cgp_name *name)
{
	const struct cgp_table *t = &a->prof.tab;
	struct cgp_file key = { .name = name };
	const struct cgp_file *kp = &key, **f;

	f = bsearch(&kp, by_name, t->nfile, sizeof *by_name, cmp_file_addr);
	return f ? (long)(*f - t->file) : -1;
}

/* File:function: outer = the model's files (not the scratch one), inner =
 * their functions. */
static void file_function(struct ann *a)
{
	const struct cgp_model *m = &a->model;
	struct outer *o = xcalloc(m->nfile + 1, sizeof *o);
	const struct cgp_file **by_name = files_by_name(&a->prof.tab);
	size_t i, j, n = 0;
	double tc = threshold_count(a);

	a->selected = xcalloc(a->prof.tab.nfile + 1, 1);
	for (i = 0; i < m->nfile; i++) {
		const struct cgp_mgroup *g = &m->file[i];
		struct outer *x = &o[n];
		x->name = g->name;
		x->total = total_of(a, g);
		x->full = g->v;
		x->file = file_index(a, by_name, g->name);
		x->in = xmalloc(g->nrows, sizeof *x->in);
		for (j = 0; j < g->nrows; j++) {
			const struct cgp_mrow *r = &m->row[g->rows[j]];
			x->in[x->nin++] = (struct inner){ r->fn, shown(a, r->v), r->v, x->file,
							  (long)g->rows[j] };
		}
		if (filter_sort(a, x, tc)) {
			if (x->file >= 0)
				a->selected[x->file] = 1;
			n++;
		}
	}
	print_section(a, o, n, "File:function summary", "< ", " file:function");
	free(o);
	free(by_name);
}

/* The model vectors of merged inner entries (merge_full), freed after
 * the table that shows them. */
static int64_t **full_copies;
static size_t nfull_copies;

/* The model vector of two rows of one function and file taken as one: the
 * merged values v themselves, or in a diff a new vector of old, new and
 * delta (only --html shows them; NULL otherwise). */
static const int64_t *merge_full(struct ann *a, const int64_t *x, const int64_t *y,
				 const int64_t *v)
{
	struct cgp_error err = CGP_ERROR_INIT;
	size_t w = 3 * (size_t)a->model.ncol;
	int64_t *c;

	if (!a->model.diff)
		return v;
	if (!a->html)
		return NULL;
	c = xmalloc(w, sizeof *c);
	memcpy(c, x, w * sizeof *c);
	if (cgp_model_accumulate(&a->model, c, y, &err))
		die_cgp(&err);
	full_copies = xrealloc(full_copies, nfull_copies + 1, sizeof *full_copies);
	full_copies[nfull_copies++] = c;
	return c;
}

static void release_full(void)
{
	while (nfull_copies)
		free(full_copies[--nfull_copies]);
	free(full_copies);
	full_copies = NULL;
}

/* Function:file: outer = the model's functions, inner = their files (""
 * for counts before any fl=, merged with a real file called "": the
 * model's rows of a function with the same file come together). */
static void function_file(struct ann *a)
{
	const struct cgp_model *m = &a->model;
	struct outer *o = xcalloc(m->nfunc + 1, sizeof *o);
	int64_t *merged = xcalloc((m->nrow + 1) * (size_t)a->nev, sizeof *merged);
	const struct cgp_file **by_name = files_by_name(&a->prof.tab);
	size_t i, j, n = 0, nmerged = 0;
	double tc = threshold_count(a);

	for (i = 0; i < m->nfunc; i++) {
		const struct cgp_mgroup *g = &m->func[i];
		struct outer *x = &o[n];
		x->name = g->name;
		x->total = total_of(a, g);
		x->full = g->v;
		x->file = -1;
		x->in = xmalloc(g->nrows, sizeof *x->in);
		for (j = 0; j < g->nrows; j++) {
			const struct cgp_mrow *r = &m->row[g->rows[j]];
			if (x->nin && x->in[x->nin - 1].name == r->file) {
				int64_t *v = merged + nmerged++ * a->nev;
				memcpy(v, x->in[x->nin - 1].v, a->nev * sizeof *v);
				add_row(a, v, shown(a, r->v));
				x->in[x->nin - 1].v = v;
				x->in[x->nin - 1].full = merge_full(a, x->in[x->nin - 1].full, r->v, v);
				continue;
			}
			x->in[x->nin++] = (struct inner){ r->file, shown(a, r->v), r->v,
							  file_index(a, by_name, r->file),
							  (long)g->rows[j] };
		}
		if (filter_sort(a, x, tc))
			n++;
	}
	print_section(a, o, n, "Function:file summary", "> ", " function:file");
	free(o);
	free(merged);
	free(by_name);
	release_full();
}

void report_summaries(struct ann *a)
{
	struct cols c;

	sort_ann = a;
	cols_init(&c, a, 0);
	cols_see(&c, a, a->summary);
	cols_finish(&c, a);
	put_fancy("Summary", NULL, 0);
	put_header(&c, a, "", "");
	putchar('\n');
	put_cells(&c, a, a->summary, NULL);
	fputs(" PROGRAM TOTALS\n\n", stdout);
	cols_release(&c);

	/* The tables render from the model; built here, after the Summary,
	 * unless an option needed it earlier, so that an overflow of a
	 * file's total stops the report where it always did. */
	if (!a->have_model)
		model_build(a);
	if (a->old_new) {
		/* The legacy tables run into a sink for their side effect
		 * (the files above the threshold, for the annotation), then
		 * the model's tables are printed. */
		FILE *real = stdout;
		fflush(stdout);
		stdout = sink_stream();
		file_function(a);
		function_file(a);
		fclose(stdout);
		stdout = real;
		report_old_new(a);
		return;
	}
	file_function(a);
	function_file(a);
}
