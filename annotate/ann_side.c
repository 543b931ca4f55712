/* ann_side.c -- cg_annotate --per-file: each file in a column group of its own, beside their total. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * With --per-file the files are read one by one into profiles of
 * their own and put side by side (cgp_profile_side_by_side()): the report
 * then has, for each event E, a column "E:<label>" per file and a column
 * "E" for their total, and everything else (thresholds, sorting,
 * annotation) works on those columns as on any others.  --show selects
 * events of every group, and the order (--sort, by default every event)
 * is the total's.
 *
 * A file's label is what its header says that the others' do not: the
 * "Part:" and "Thread:" desc: lines that the tool writes for parts and
 * per-thread profiles ("p2", "t3", "p2t3"), or, where that does not tell
 * the files apart, its position on the command line ("1", "2", ...).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ann.h"
#include "prog.h"

/* The value of the "<key>: " line of a desc text ("" if none); a new
 * string. */
static char *desc_value(const char *desc, const char *key)
{
	size_t k = strlen(key);
	const char *p;

	for (p = desc; *p; p = strchr(p, '\n') + 1) {
		const char *e = strchr(p, '\n');
		if ((size_t)(e - p) > k + 1 && !memcmp(p, key, k) && p[k] == ':' &&
		    p[k + 1] == ' ') {
			char *v = xmalloc((size_t)(e - p) - k - 1, 1);
			memcpy(v, p + k + 2, (size_t)(e - p) - k - 2);
			v[(size_t)(e - p) - k - 2] = '\0';
			return v;
		}
	}
	return xcalloc(1, 1);
}

/* Whether the n texts are not all the same. */
static int vary(char **v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (strcmp(v[i], v[0]))
			return 1;
	return 0;
}

/* The labels of the n files (see the top of this file); xmalloc'd. */
static char **labels_of(const struct cgp_profile *src, size_t n)
{
	char **part = xcalloc(n, sizeof *part), **thread = xcalloc(n, sizeof *thread);
	char **label = xcalloc(n, sizeof *label);
	size_t i, j;
	int by_part, by_thread, distinct = 1;

	for (i = 0; i < n; i++) {
		part[i] = desc_value(src[i].in[0].desc, "Part");
		thread[i] = desc_value(src[i].in[0].desc, "Thread");
	}
	by_part = vary(part, n);
	by_thread = vary(thread, n);
	for (i = 0; i < n; i++) {
		size_t len = strlen(part[i]) + strlen(thread[i]) + 3;
		label[i] = xmalloc(len, 1);
		snprintf(label[i], len, "%s%s%s%s", by_part ? "p" : "", by_part ? part[i] : "",
			 by_thread ? "t" : "", by_thread ? thread[i] : "");
		if ((by_part && !*part[i]) || (by_thread && !*thread[i]) || !*label[i])
			distinct = 0;
		for (j = 0; j < i; j++)
			if (!strcmp(label[i], label[j]))
				distinct = 0;
	}
	for (i = 0; i < n; i++) {
		if (!distinct) {
			free(label[i]);
			label[i] = xmalloc(24, 1);
			snprintf(label[i], 24, "%zu", i + 1);
		}
		free(part[i]);
		free(thread[i]);
	}
	free(part);
	free(thread);
	return label;
}

/* --show and --sort, as check_events() resolved them against one file's
 * events, for the groups of n files: --show in every group and the total,
 * --sort in the total. */
static void widen_show_sort(struct ann *a, size_t n, unsigned nev)
{
	unsigned *show = xmalloc((n + 1) * a->nshow, sizeof *show);
	size_t g;
	unsigned i;

	for (g = 0; g <= n; g++)
		for (i = 0; i < a->nshow; i++)
			show[g * a->nshow + i] = (unsigned)(g * nev) + a->show[i];
	for (i = 0; i < a->nsort; i++)
		a->sort[i] += (unsigned)(n * nev);
	free(a->show);
	a->show = show;
	a->nshow = (unsigned)((n + 1) * a->nshow);
}

void ann_side_read(struct ann *a, const struct cgp_read_opts *ro)
{
	struct cgp_profile *src = xcalloc(a->nfiles, sizeof *src);
	struct cgp_error err = CGP_ERROR_INIT;
	size_t i;

	for (i = 0; i < a->nfiles; i++) {
		cgp_profile_init(&src[i], CGP_MODE_ANNOTATE);
		if (cgp_profile_read(&src[i], a->files[i], ro, &err))
			die_cgp(&err);
	}
	a->side_labels = labels_of(src, a->nfiles);
	cgp_profile_init(&a->prof, CGP_MODE_ANNOTATE);
	if (cgp_profile_side_by_side(&a->prof, src, a->nfiles,
				     (const char *const *)a->side_labels, &err))
		die_cgp(&err);
	widen_show_sort(a, a->nfiles, src[0].nev);
	/* The columns are now the groups' events (check_events() saw one
	 * file's, whose names are released below). */
	free(a->events);
	free(a->ratio);
	a->events = xmalloc(a->prof.nev, sizeof *a->events);
	memcpy(a->events, a->prof.events, a->prof.nev * sizeof *a->events);
	a->ratio = xcalloc(a->prof.nev, 1);
	a->nrec = a->prof.nev;
	for (i = 0; i < a->nfiles; i++)
		cgp_profile_release(&src[i]);
	free(src);
}

void ann_side_metadata(const struct ann *a)
{
	size_t i;

	for (i = 0; i < a->nfiles; i++) {
		/* "Column group LABEL:" padded to the 17 columns of the other
		 * Metadata headings, never cut. */
		const char *l = a->side_labels[i];
		size_t w = 14 + cgp_utf8_len(l, strlen(l));
		printf("Column group %s:%*s %s\n", l, w < 17 ? (int)(17 - w) : 0, "",
		       a->prof.in[i].path);
	}
}

void ann_side_release(struct ann *a)
{
	size_t i;

	if (!a->side_labels)
		return;
	for (i = 0; i < a->nfiles; i++)
		free(a->side_labels[i]);
	free(a->side_labels);
}
