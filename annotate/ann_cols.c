/* ann_cols.c -- cg_annotate's column layout: widths, header lines, count and percentage cells. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ann.h"
#include "prog.h"

void add_counts(int64_t *a, const int64_t *b, unsigned nev)
{
	unsigned k;

	for (k = 0; k < nev; k++)
		if (cgp_add(&a[k], b[k]))
			die(1, "a total exceeds the 64-bit range");
}

void derive(const struct ann *a, int64_t *v)
{
	struct cgp_error err = CGP_ERROR_INIT;

	if (a->nev != a->nrec && cgp_derives_eval(&a->rep.der, v, a->nrec, &err))
		die_cgp(&err);
}

void add_row(const struct ann *a, int64_t *acc, const int64_t *v)
{
	add_counts(acc, v, a->nrec);
	derive(a, acc);
}

void line_values(const struct ann *a, const struct cgp_lines *t, size_t i, int64_t *v)
{
	cgp_lines_get(t, i, v);
	derive(a, v);
}

size_t fmt_count(const struct ann *a, unsigned e, char *buf, int64_t v)
{
	if (!a->ratio[e])
		return cgp_fmt_commas(buf, v);
	return cgp_fmt_ratio(buf, v, 1);
}

size_t fmt_perc(char *buf, int64_t v, int64_t s)
{
	return (size_t)snprintf(buf, 48, "%.1f", cgp_percent(v, s));
}

/* head + "x.y" + tail, or na when the total is zero. */
static size_t perc_text(char *buf, int64_t v, int64_t s, const char *head,
			const char *tail, const char *na)
{
	size_t k;

	if (s == 0) {
		k = strlen(na);
		memcpy(buf, na, k + 1);
		return k;
	}
	k = strlen(head);
	memcpy(buf, head, k);
	k += fmt_perc(buf + k, v, s);
	memcpy(buf + k, tail, 3);
	return k + 2;
}

/* Plain percentage: "" for 0, " (n/a)" for a zero total, " (x%)". */
static size_t perc_plain(char *buf, int64_t v, int64_t s)
{
	if (v == 0) {
		buf[0] = '\0';
		return 0;
	}
	return perc_text(buf, v, s, " (", "%)", " (n/a)");
}

/* First percentage of an outer row: " (x%," (no zero case). */
static size_t perc_outer1(char *buf, int64_t v, int64_t s)
{
	return perc_text(buf, v, s, " (", "%,", " (n/a,");
}

/* Cumulative percentage of an outer row: " x%)". */
static size_t perc_outer2(char *buf, int64_t c, int64_t s)
{
	return perc_text(buf, c, s, " ", "%)", " n/a)");
}

void cols_init(struct cols *c, const struct ann *a, int outer)
{
	c->outer = outer;
	c->min = xcalloc(a->nev, sizeof *c->min);
	c->max = xcalloc(a->nev, sizeof *c->max);
	c->cmin = xcalloc(a->nev, sizeof *c->cmin);
	c->cmax = xcalloc(a->nev, sizeof *c->cmax);
	c->cw = xcalloc(a->nshow, sizeof *c->cw);
	c->p1w = xcalloc(a->nshow, sizeof *c->p1w);
	c->p2w = xcalloc(a->nshow, sizeof *c->p2w);
}

/* Widens each range [lo[k], hi[k]] to take in v[k] (a ratio without a
 * value, CGP_NA, takes no room: it prints as "n/a"). */
static void widen(const struct ann *a, int64_t *lo, int64_t *hi, const int64_t *v)
{
	unsigned k;

	for (k = 0; k < a->nev; k++) {
		if (a->ratio[k] && v[k] == CGP_NA)
			continue;
		if (v[k] < lo[k])
			lo[k] = v[k];
		if (v[k] > hi[k])
			hi[k] = v[k];
	}
}

void cols_see(struct cols *c, const struct ann *a, const int64_t *v)
{
	widen(a, c->min, c->max, v);
}

void cols_see_cumul(struct cols *c, const struct ann *a, const int64_t *v)
{
	widen(a, c->cmin, c->cmax, v);
}

static size_t max2(size_t x, size_t y)
{
	return x > y ? x : y;
}

void cols_finish(struct cols *c, const struct ann *a)
{
	unsigned i;
	char b1[64], b2[64];

	for (i = 0; i < a->nshow; i++) {
		unsigned e = a->show[i];
		int64_t s = a->summary[e];
		c->cw[i] = max2(fmt_count(a, e, b1, c->min[e]), fmt_count(a, e, b2, c->max[e]));
		if (a->ratio[e] && c->cw[i] < 3)
			c->cw[i] = 3;   /* "n/a" */
		if (!a->percs || a->ratio[e]) {
			c->p1w[i] = c->p2w[i] = 0;
		} else if (c->outer) {
			c->p1w[i] = max2(perc_outer1(b1, c->min[e], s),
					 perc_outer1(b2, c->max[e], s));
			c->p2w[i] = max2(perc_outer2(b1, c->cmin[e], s),
					 perc_outer2(b2, c->cmax[e], s));
		} else {
			c->p1w[i] = max2(perc_plain(b1, c->min[e], s),
					 perc_plain(b2, c->max[e], s));
			c->p2w[i] = 0;
		}
	}
}

void cols_release(struct cols *c)
{
	free(c->min);
	free(c->max);
	free(c->cmin);
	free(c->cmax);
	free(c->cw);
	free(c->p1w);
	free(c->p2w);
}

static void pad(size_t n, char ch)
{
	while (n--)
		putchar(ch);
}

static void rjust(const char *s, size_t len, size_t width)
{
	if (len < width)
		pad(width - len, ' ');
	fwrite(s, 1, len, stdout);
}

static size_t name_len(const struct ann *a, unsigned e)
{
	const char *n = a->events[e];

	return cgp_utf8_len(n, strlen(n));
}

void put_header(const struct cols *c, const struct ann *a, const char *prefix,
		const char *suffix)
{
	unsigned i;

	fputs(prefix, stdout);
	for (i = 0; i < a->nshow; i++) {
		size_t nl = name_len(a, a->show[i]);
		size_t w = max2(nl, c->cw[i] + c->p1w[i] + c->p2w[i]);
		fputs(a->events[a->show[i]], stdout);
		pad(w - nl, '_');
		putchar(' ');
	}
	fputs(suffix, stdout);
	putchar('\n');
}

static void put_cell(const struct cols *c, const struct ann *a, unsigned i,
		     const char *cnt, size_t cl, const char *p1, size_t l1,
		     const char *p2, size_t l2)
{
	size_t nl = name_len(a, a->show[i]), used = c->cw[i] + c->p1w[i] + c->p2w[i];

	if (nl > used)
		pad(nl - used, ' ');
	rjust(cnt, cl, c->cw[i]);
	rjust(p1, l1, c->p1w[i]);
	rjust(p2, l2, c->p2w[i]);
	putchar(' ');
}

void put_cells(const struct cols *c, const struct ann *a, const int64_t *v,
	       const int64_t *cumul)
{
	unsigned i;
	char cnt[40], p1[64], p2[64];

	for (i = 0; i < a->nshow; i++) {
		unsigned e = a->show[i];
		size_t cl = fmt_count(a, e, cnt, v[e]), l1 = 0, l2 = 0;
		if (a->ratio[e]) {
			/* no percentages of a ratio */
		} else if (a->percs && cumul) {
			l1 = perc_outer1(p1, v[e], a->summary[e]);
			l2 = perc_outer2(p2, cumul[e], a->summary[e]);
		} else if (a->percs) {
			l1 = perc_plain(p1, v[e], a->summary[e]);
		}
		put_cell(c, a, i, cnt, cl, p1, l1, p2, l2);
	}
}

void put_missing_cells(const struct cols *c, const struct ann *a)
{
	unsigned i;

	for (i = 0; i < a->nshow; i++)
		put_cell(c, a, i, ".", 1, "", 0, "", 0);
}

void put_fancy(const char *title, const char *name, size_t len)
{
	static const char dashes[] =
		"--------------------------------------------------------------------------------";

	printf("%s\n-- %s", dashes, title);
	if (name)
		fwrite(name, 1, len, stdout);
	printf("\n%s\n", dashes);
}
