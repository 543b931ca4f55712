/* ann_model.c -- cg_annotate's report model and what renders from it: the gate, the old/new/delta tables of --show-old-new, the JSON report. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE /* fopencookie */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ann.h"
#include "prog.h"

static ssize_t sink_write(void *cookie, const char *p, size_t n)
{
	(void)cookie;
	(void)p;
	return (ssize_t)n;
}

FILE *sink_stream(void)
{
	cookie_io_functions_t io = { NULL, sink_write, NULL, NULL };
	FILE *f = fopencookie(NULL, "w", io);

	if (!f)
		die(1, "out of memory");
	setvbuf(f, NULL, _IOFBF, 1 << 16);
	return f;
}

char *source_path(const struct ann *a, const struct cgp_name *name)
{
	size_t i;

	/* The last map whose OLD is a prefix of the name wins, as in GCC. */
	for (i = a->nprefix_map; i-- > 0;) {
		const char *m = a->prefix_map[i], *eq = strchr(m, '=');
		size_t ol = (size_t)(eq - m), nl = strlen(eq + 1);
		if (name->len >= ol && !memcmp(name->s, m, ol)) {
			char *p = xmalloc(nl + name->len - ol + 1, 1);
			memcpy(p, eq + 1, nl);
			memcpy(p + nl, name->s + ol, name->len - ol + 1);
			return p;
		}
	}
	{
		char *p = xmalloc(name->len + 1, 1);
		memcpy(p, name->s, name->len + 1);
		return p;
	}
}

/* a = -b, dying on the one value that has no negation. */
static int64_t neg(int64_t b)
{
	if (b == INT64_MIN)
		die(1, "a difference exceeds the 64-bit range");
	return -b;
}

void model_build(struct ann *a)
{
	struct cgp_model *m = &a->model;
	const struct cgp_table *t = &a->prof.tab;
	struct cgp_error err = CGP_ERROR_INIT;
	unsigned nrec = a->nrec, k;
	int64_t *o = xcalloc(nrec, sizeof *o), *n = xcalloc(nrec, sizeof *n);
	size_t i;

	cgp_model_init(m, a->diff, a->prof.events, nrec, a->rep.der.n ? &a->rep.der : NULL);
	for (i = 0; i < t->ncc; i++) {
		const struct cgp_cc *c = &t->cc[i];
		if (a->diff) {
			/* The first file was subtracted: its counts are minus
			 * the snapshot taken after it. */
			for (k = 0; k < nrec; k++) {
				o[k] = i < a->nsnap ? neg(a->snap[i * nrec + k]) : 0;
				if (__builtin_add_overflow(c->total[k], o[k], &n[k]))
					die(1, "a total exceeds the 64-bit range");
			}
		}
		if (cgp_model_add(m, c->file, c->fn, c->flags, a->diff ? o : c->total, n, &err))
			die_cgp(&err);
	}
	if (a->diff)
		for (k = 0; k < nrec; k++) {
			o[k] = neg(a->snap_summary[k]);
			if (__builtin_add_overflow(a->prof.summary[k], o[k], &n[k]))
				die(1, "a total exceeds the 64-bit range");
		}
	if (cgp_model_set_total(m, a->diff ? o : a->prof.summary, n, &err) ||
	    cgp_model_finish(m, &err))
		die_cgp(&err);
	/* The legacy tables sort their own entries; the JSON and the
	 * --show-old-new tables take the model's order. */
	if (a->rep.json || a->old_new)
		cgp_model_sort(m, a->sort, a->nsort);
	m->lines = t;
	a->have_model = 1;
	free(o);
	free(n);
}

/* ------------------------------------------------------------------------ */
/* --show-old-new                                                            */
/* ------------------------------------------------------------------------ */

static const char *const part[4] = { "old", "new", "delta", "change" };

/* Widths of the 4 cells of each shown event. */
static void see(const struct ann *a, size_t *w, const int64_t *v)
{
	char cell[4][48];
	unsigned i, c;

	for (i = 0; i < a->nshow; i++) {
		cgp_gate_cells(&a->model, v, a->show[i], cell);
		for (c = 0; c < 4; c++)
			if (strlen(cell[c]) > w[4 * i + c])
				w[4 * i + c] = strlen(cell[c]);
	}
}

static void cells(const struct ann *a, const size_t *w, const int64_t *v)
{
	char cell[4][48];
	unsigned i, c;

	for (i = 0; i < a->nshow; i++) {
		cgp_gate_cells(&a->model, v, a->show[i], cell);
		for (c = 0; c < 4; c++)
			printf("%*s ", (int)w[4 * i + c], cell[c]);
	}
}

/* Python's abs(v) >= t, as the legacy tables test the threshold. */
static int reaches(const struct ann *a, const int64_t *v, double t)
{
	int64_t d = cgp_mval(&a->model, v, 2, a->sort[0]);
	double x = d < 0 ? -(double)d : (double)d;

	if (d == CGP_NA && a->ratio[a->sort[0]])
		x = 0;
	return x >= ceil(t);
}

static void section(struct ann *a, int by_fn, double tcount)
{
	const struct cgp_model *m = &a->model;
	const struct cgp_mgroup *g = by_fn ? m->func : m->file;
	size_t n = by_fn ? m->nfunc : m->nfile, i, r, shown;
	size_t *w = xcalloc(4 * (size_t)a->nshow + 1, sizeof *w);
	unsigned s, c;

	for (s = 0; s < a->nshow; s++)
		for (c = 0; c < 4; c++)
			w[4 * s + c] = strlen(a->events[a->show[s]]) + 1 + strlen(part[c]);
	for (i = 0; i < n; i++)
		for (r = 0, shown = 0; r < g[i].nrows; r++)
			if (reaches(a, m->row[g[i].rows[r]].v, tcount)) {
				see(a, w, m->row[g[i].rows[r]].v);
				if (!shown++)
					see(a, w, g[i].v);
			}
	put_fancy(by_fn ? "Function:file summary (old, new, delta, change)"
			: "File:function summary (old, new, delta, change)", NULL, 0);
	fputs("  ", stdout);
	for (s = 0; s < a->nshow; s++)
		for (c = 0; c < 4; c++) {
			int k = printf("%s.%s", a->events[a->show[s]], part[c]);
			while ((size_t)k++ < w[4 * s + c])
				putchar('_');
			putchar(' ');
		}
	puts(by_fn ? " function:file\n" : " file:function\n");
	for (i = 0; i < n; i++) {
		size_t nr = 0, only = 0;
		for (r = 0; r < g[i].nrows; r++)
			if (reaches(a, m->row[g[i].rows[r]].v, tcount))
				nr++, only = g[i].rows[r];
		if (!nr)
			continue;
		fputs(by_fn ? "> " : "< ", stdout);
		cells(a, w, g[i].v);
		putchar(' ');
		fwrite(g[i].name->s, 1, g[i].name->len, stdout);
		putchar(':');
		if (nr == 1 && !memcmp(m->row[only].v, g[i].v, 3 * m->ncol * sizeof *g[i].v)) {
			const struct cgp_name *x = by_fn ? m->row[only].file : m->row[only].fn;
			fwrite(x->s, 1, x->len, stdout);
			puts("\n");
			continue;
		}
		putchar('\n');
		for (r = 0; r < g[i].nrows; r++) {
			const struct cgp_mrow *x = &m->row[g[i].rows[r]];
			const struct cgp_name *nm = by_fn ? x->file : x->fn;
			if (!reaches(a, x->v, tcount))
				continue;
			fputs("  ", stdout);
			cells(a, w, x->v);
			fputs("  ", stdout);
			fwrite(nm->s, 1, nm->len, stdout);
			putchar('\n');
		}
		putchar('\n');
	}
	free(w);
}

void report_old_new(struct ann *a)
{
	int64_t d = cgp_mval(&a->model, a->model.total, 2, a->sort[0]);
	double tcount = a->threshold * (d < 0 ? -(double)d : (double)d) / 100;

	if (d == CGP_NA && a->ratio[a->sort[0]])
		tcount = 0;
	section(a, 0, tcount);
	section(a, 1, tcount);
}

/* ------------------------------------------------------------------------ */
/* The gate and the JSON report                                              */
/* ------------------------------------------------------------------------ */

void report_gate(struct ann *a)
{
	struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);

	rep_gate_text(&a->rep, &a->model, STDOUT_FILENO, &b);
	fwrite(b.s, 1, b.len, stdout);
	cgp_buf_release(&b);
}

void report_json(struct ann *a)
{
	static struct cgp_out out;
	struct cgp_error err = CGP_ERROR_INIT;
	const struct cgp_profile *pp[1] = { &a->prof };
	struct cgp_json_info info;
	int b;

	if (a->annotate)
		for (b = 0; b < CGP_ASUM_COUNT; b++) {
			a->model.asum[b] = xmalloc(a->nev, sizeof *a->model.asum[b]);
			memcpy(a->model.asum[b], a->bucket[b], a->nev * sizeof *a->bucket[b]);
		}
	rep_json_info(&a->rep, &info, "cg_annotate", a->argc, a->argv, pp, 1);
	info.show = a->show;
	info.nshow = a->nshow;
	info.sort = a->sort;
	info.nsort = a->nsort;
	info.threshold = a->threshold_given ? a->threshold : 0;
	info.lines = a->json_lines;
	cgp_out_init(&out, STDOUT_FILENO, NULL);
	if (cgp_json_report(&out, &a->model, &info, &err))
		die_cgp(&err);
}
