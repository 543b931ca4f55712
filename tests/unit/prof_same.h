/* prof_same.h -- whether two profiles read from the same text hold the same data (the fast path of count lines against the general one). */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Header-only, for tests/unit/test_lib_read.c and tests/fuzz/fuzz_parse.c:
 * both read one text twice, with and without cgp_read_opts.general_only,
 * and the two profiles must be equal in everything the programs use.
 */
#ifndef PROF_SAME_H
#define PROF_SAME_H

#include <string.h>

#include "cgp.h"

static int prof_same_name(const struct cgp_name *a, const struct cgp_name *b)
{
	return a->len == b->len && !memcmp(a->s, b->s, a->len);
}

/* Line tables: the same rows (and kinds of row) in the same order. */
static int prof_same_lines(const struct cgp_lines *a, const struct cgp_lines *b,
			   unsigned nev)
{
	int64_t va[CGP_MAX_EVENTS], vb[CGP_MAX_EVENTS];
	size_t i;

	if (!a || !b)
		return a == b;
	if (a->n != b->n || (a->addr == NULL) != (b->addr == NULL))
		return 0;
	for (i = 0; i < a->n; i++) {
		if (a->line[i] != b->line[i] ||
		    (a->addr && (a->addr[i] != b->addr[i] || a->obj[i] != b->obj[i])))
			return 0;
		cgp_lines_get(a, i, va);
		cgp_lines_get(b, i, vb);
		if (memcmp(va, vb, nev * sizeof *va))
			return 0;
	}
	return 1;
}

static int prof_same_cc(const struct cgp_cc *a, const struct cgp_cc *b, unsigned nev)
{
	return prof_same_name(a->file, b->file) && prof_same_name(a->fn, b->fn) &&
	       a->flags == b->flags && !memcmp(a->total, b->total, nev * sizeof *a->total) &&
	       prof_same_lines(a->lines, b->lines, nev) &&
	       prof_same_lines(a->instrs, b->instrs, nev);
}

/* 1 if a and b (both read without error) have the same summary, entries,
 * files and rows, in the same order. */
static int prof_same(const struct cgp_profile *a, const struct cgp_profile *b)
{
	size_t i;

	if (a->nev != b->nev || a->tab.ncc != b->tab.ncc || a->tab.nfile != b->tab.nfile ||
	    memcmp(a->summary, b->summary, a->nev * sizeof *a->summary))
		return 0;
	for (i = 0; i < a->tab.ncc; i++)
		if (!prof_same_cc(&a->tab.cc[i], &b->tab.cc[i], a->nev))
			return 0;
	for (i = 0; i < a->tab.nfile; i++)
		if (!prof_same_name(a->tab.file[i].name, b->tab.file[i].name) ||
		    !prof_same_lines(&a->tab.file[i].lines, &b->tab.file[i].lines, a->nev))
			return 0;
	return 1;
}

#endif
