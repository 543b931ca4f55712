/* cgp_side.c -- profiles side by side: one profile whose events are each input's events and their sums (cg_annotate --per-file). */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cgp.h"
#include "cgp_int.h"

static int nomem(struct cgp_error *err)
{
	return cgp_error_set(err, CGP_ENOMEM, "out of memory");
}

/* The interned copy in dst of a name of another profile. */
static struct cgp_name_ent *copy_name(struct cgp_profile *dst, const struct cgp_name *n)
{
	return cgp_names_intern(&dst->tab.names, n->s, n->len);
}

/* The event names: "<event>:<label>" for each group, then the events. */
static int side_events(struct cgp_profile *dst, char **events, unsigned nev,
		       const char *const *labels, size_t n)
{
	size_t g, k = 0;
	unsigned e;

	dst->own_events = calloc((n + 1) * nev, sizeof *dst->own_events);
	if (!dst->own_events)
		return -1;
	for (g = 0; g <= n; g++)
		for (e = 0; e < nev; e++, k++) {
			struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);
			if (g < n ? cgp_buf_addf(&b, "%s:%s", events[e], labels[g])
				  : cgp_buf_adds(&b, events[e])) {
				cgp_buf_release(&b);
				return -1;
			}
			dst->own_events[k] = b.s;
		}
	dst->events = dst->own_events;
	return 0;
}

/* Adds v[0..nev) at group g and at the total group (index n) of wide. */
static int place(int64_t *wide, const int64_t *v, unsigned nev, size_t g, size_t n)
{
	unsigned e;

	for (e = 0; e < nev; e++)
		if (cgp_add(&wide[g * nev + e], v[e]) || cgp_add(&wide[n * nev + e], v[e]))
			return -1;
	return 0;
}

/* The cost centres of src, as group g of dst. */
static int side_ccs(struct cgp_profile *dst, const struct cgp_profile *src, size_t g,
		    size_t n, struct cgp_error *err)
{
	size_t i;

	for (i = 0; i < src->tab.ncc; i++) {
		const struct cgp_cc *c = &src->tab.cc[i];
		struct cgp_name_ent *file = copy_name(dst, c->file);
		struct cgp_name_ent *fn = copy_name(dst, c->fn);
		long k;
		if (!file || !fn || (k = cgp_table_cc(&dst->tab, file, &fn->name, c->flags)) < 0)
			return nomem(err);
		if (place(dst->tab.cc[k].total, c->total, src->nev, g, n))
			return cgp_error_set(err, CGP_EOVERFLOW, "counts too large to add up");
	}
	return 0;
}

/* The files of src (line tables, original names), as group g of dst. */
static int side_files(struct cgp_profile *dst, const struct cgp_profile *src, size_t g,
		      size_t n, int64_t *row, int64_t *wide, struct cgp_error *err)
{
	unsigned nev = src->nev, w = dst->nev;
	size_t i, j, r;

	for (i = 0; i < src->tab.nfile; i++) {
		const struct cgp_file *f = &src->tab.file[i];
		struct cgp_name_ent *name = copy_name(dst, f->name);
		long fi;
		if (!name || (fi = cgp_table_file(&dst->tab, name)) < 0)
			return nomem(err);
		for (j = 0; j < f->norig; j++) {
			struct cgp_name_ent *o = copy_name(dst, f->orig[j]);
			struct cgp_file *df = &dst->tab.file[fi];
			if (!o)
				return nomem(err);
			if (o->orig_kept)
				continue;
			if (cgp_grow_array((void **)&df->orig, &df->origcap, df->norig,
					   sizeof *df->orig))
				return nomem(err);
			df->orig[df->norig++] = &o->name;
			o->orig_kept = 1;
		}
		for (r = 0; r < f->lines.n; r++) {
			int rc;
			cgp_lines_get(&f->lines, r, row);
			memset(wide, 0, w * sizeof *wide);
			place(wide, row, nev, g, n);
			rc = cgp_lines_add(&dst->tab.file[fi].lines, w, f->lines.line[r], wide, 1);
			if (rc == CGP_EOVERFLOW)
				return cgp_error_set(err, CGP_EOVERFLOW,
						     "counts too large to add up");
			if (rc)
				return nomem(err);
		}
	}
	return 0;
}

/* The inputs of src move to dst. */
static int side_inputs(struct cgp_profile *dst, struct cgp_profile *src, struct cgp_error *err)
{
	size_t i;

	for (i = 0; i < src->nin; i++) {
		if (cgp_grow_array((void **)&dst->in, &dst->incap, dst->nin, sizeof *dst->in))
			return nomem(err);
		dst->in[dst->nin++] = src->in[i];
	}
	free(src->in);
	src->in = NULL;
	src->nin = src->incap = 0;
	src->events = NULL;
	return 0;
}

int cgp_profile_side_by_side(struct cgp_profile *dst, struct cgp_profile *src, size_t n,
			     const char *const *labels, struct cgp_error *err)
{
	unsigned nev = src[0].nev;
	size_t g;
	int64_t *row = NULL, *wide = NULL;
	int rc = 0;

	for (g = 1; g < n; g++)
		if (!cgp_events_equal(src[0].events, nev, src[g].events, src[g].nev))
			return cgp_error_events(err, src[0].in[0].path, src[g].in[0].path);
	if ((size_t)nev * (n + 1) > CGP_MAX_EVENTS)
		return cgp_error_set(err, CGP_EUSAGE,
				     "too many events side by side (%zu files of %u events and "
				     "their total: %zu columns; at most %u)",
				     n, nev, (size_t)nev * (n + 1), CGP_MAX_EVENTS);
	dst->nev = (unsigned)(nev * (n + 1));
	cgp_table_init(&dst->tab, dst->nev);
	dst->summary = calloc(dst->nev, sizeof *dst->summary);
	row = calloc(nev, sizeof *row);
	wide = calloc(dst->nev, sizeof *wide);
	if (!dst->summary || !row || !wide || side_events(dst, src[0].events, nev, labels, n)) {
		rc = nomem(err);
		goto out;
	}
	for (g = 0; g < n && !rc; g++) {
		if (place(dst->summary, src[g].summary, nev, g, n))
			rc = cgp_error_set(err, CGP_EOVERFLOW, "counts too large to add up");
		if (!rc)
			rc = side_ccs(dst, &src[g], g, n, err);
		if (!rc)
			rc = side_files(dst, &src[g], g, n, row, wide, err);
	}
	for (g = 0; g < n && !rc; g++)
		rc = side_inputs(dst, &src[g], err);
out:
	free(row);
	free(wide);
	return rc;
}
