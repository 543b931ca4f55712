/* cgp_cmp.c -- record-by-record comparison of two profiles read in MERGE mode. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * Each profile's (file, function, line) records are sorted into one array
 * and the two arrays are walked side by side, so that the differences come
 * out in (file, function, line) order whatever order the files listed them
 * in.  The names of the two profiles are interned in different tables, so
 * they are compared by text, never by pointer.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cgp.h"
#include "cgp_int.h"

/* One record: row `row` of the line table of cost centre `cc`. */
struct rec {
	const struct cgp_cc *cc;
	size_t row;
	int64_t line;
};

static int rec_cmp(const struct rec *x, const struct rec *y)
{
	int c = cgp_name_cmp(x->cc->file, y->cc->file);

	if (!c)
		c = cgp_name_cmp(x->cc->fn, y->cc->fn);
	if (!c)
		c = (x->line > y->line) - (x->line < y->line);
	return c;
}

static int rec_qsort_cmp(const void *x, const void *y)
{
	return rec_cmp(x, y);
}

/* Every record of p, sorted; *out is malloc'd (NULL when there are none). */
static int collect(const struct cgp_profile *p, struct rec **out, size_t *n)
{
	size_t i, k, total = 0;
	struct rec *r;

	for (i = 0; i < p->tab.ncc; i++)
		if (p->tab.cc[i].lines)
			total += p->tab.cc[i].lines->n;
	*out = NULL;
	*n = total;
	if (!total)
		return 0;
	r = malloc(total * sizeof *r);
	if (!r)
		return -1;
	for (i = 0, total = 0; i < p->tab.ncc; i++) {
		const struct cgp_cc *c = &p->tab.cc[i];
		for (k = 0; c->lines && k < c->lines->n; k++)
			r[total++] = (struct rec){ c, k, c->lines->line[k] };
	}
	qsort(r, total, sizeof *r, rec_qsort_cmp);
	*out = r;
	return 0;
}

long cgp_compare(const struct cgp_profile *a, const struct cgp_profile *b,
		 cgp_cmp_fn fn, void *ctx, struct cgp_error *err)
{
	struct rec *ra = NULL, *rb = NULL;
	size_t na, nb, i = 0, j = 0;
	unsigned nev = a->nev;
	int64_t *ca = NULL, *cb = NULL;
	long ndiff = 0;

	if (a->rules != cgp_rules_of(CGP_MODE_MERGE) || b->rules != cgp_rules_of(CGP_MODE_MERGE))
		return cgp_error_set(err, CGP_EUSAGE, "profiles to compare must be read in MERGE mode");
	if (!cgp_events_equal(a->events, a->nev, b->events, b->nev))
		return cgp_error_set(err, CGP_EEVENTS, "'%s' and '%s' record different events",
				     a->nin ? a->in[0].path : "?", b->nin ? b->in[0].path : "?");
	ca = malloc((nev ? nev : 1) * sizeof *ca);
	cb = malloc((nev ? nev : 1) * sizeof *cb);
	if (!ca || !cb || collect(a, &ra, &na) || collect(b, &rb, &nb)) {
		ndiff = cgp_error_set(err, CGP_ENOMEM, "out of memory");
		goto out;
	}
	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : rec_cmp(&ra[i], &rb[j]);
		const struct rec *r = c <= 0 ? &ra[i] : &rb[j];

		if (c <= 0)
			cgp_lines_get(ra[i].cc->lines, ra[i].row, ca);
		if (c >= 0)
			cgp_lines_get(rb[j].cc->lines, rb[j].row, cb);
		if (c || memcmp(ca, cb, nev * sizeof *ca)) {
			ndiff++;
			fn(ctx, r->cc->file->s, r->cc->fn->s, r->line, c <= 0 ? ca : NULL,
			   c >= 0 ? cb : NULL, nev);
		}
		i += c <= 0;
		j += c >= 0;
	}
out:
	free(ra);
	free(rb);
	free(ca);
	free(cb);
	return ndiff;
}
