/* prog_report.c -- the regression-check options shared by cg_annotate and cg_diff. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "prog.h"
#include "prog_report.h"

/* The library's message as argparse's option message. */
static const char *message(struct cgp_error *err, int *free_it)
{
	char *m = err->msg;

	err->msg = NULL;
	*free_it = m != NULL;
	return m ? m : "out of memory";
}

const char *rep_option(struct rep_opts *r, enum rep_opt which, const char *value,
		       int *free_it)
{
	struct cgp_error err = CGP_ERROR_INIT;
	int64_t n;

	switch (which) {
	case REP_FAIL_ABOVE:
		r->limits = xrealloc(r->limits, r->nlimits + 1, sizeof *r->limits);
		if (cgp_limit_parse(&r->limits[r->nlimits], value, &err))
			return message(&err, free_it);
		r->nlimits++;
		break;
	case REP_DERIVE:
		if (cgp_derives_add(&r->der, value, &err))
			return message(&err, free_it);
		break;
	case REP_NORMALIZE:
		if (cgp_normalize_add(&r->norm, value, &err))
			return message(&err, free_it);
		break;
	case REP_WIDTH:
		if (cgp_parse_int(value, strlen(value), &n) || n < 40 || n > 10000)
			return "invalid width: a number of columns from 40 to 10000";
		r->width = (unsigned)n;
		break;
	}
	return NULL;
}

struct cgp_subst *rep_fn_chain(struct rep_opts *r, struct cgp_subst *mod_fn)
{
	struct cgp_subst *x = cgp_subst_chain(r->norm, mod_fn);

	r->norm = NULL;
	return x;
}

unsigned rep_width(const struct rep_opts *r, int fd)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS");
	int64_t n;

	if (r->width)
		return r->width;
	if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	if (c && !cgp_parse_int(c, strlen(c), &n) && n >= 40 && n <= 10000)
		return (unsigned)n;
	return 120;
}

int64_t *rep_cc_totals(const struct cgp_profile *p, size_t *n)
{
	const struct cgp_table *t = &p->tab;
	int64_t *v = xmalloc(t->ncc * p->nev + 1, sizeof *v);
	size_t i;

	for (i = 0; i < t->ncc; i++)
		memcpy(v + i * p->nev, t->cc[i].total, p->nev * sizeof *v);
	*n = t->ncc;
	return v;
}

void rep_gate_text(const struct rep_opts *r, const struct cgp_model *m, int fd,
		   struct cgp_buf *b)
{
	struct cgp_error err = CGP_ERROR_INIT;

	if (cgp_gate_text(b, m, r->limits, r->nlimits, rep_width(r, fd), 20, &err))
		die_cgp(&err);
}

void rep_json_info(const struct rep_opts *r, struct cgp_json_info *info,
		   const char *program, int argc, char **argv,
		   const struct cgp_profile *const *prof, size_t nprof)
{
	memset(info, 0, sizeof *info);
	info->program = program;
	info->argc = argc;
	info->argv = argv;
	info->prof = prof;
	info->nprof = nprof;
	info->limits = r->limits;
	info->nlimits = r->nlimits;
	info->gated = r->nlimits > 0;
}

void rep_release(struct rep_opts *r)
{
	size_t i;

	for (i = 0; i < r->nlimits; i++)
		cgp_limit_release(&r->limits[i]);
	free(r->limits);
	cgp_derives_release(&r->der);
	cgp_subst_free(r->norm);
	memset(r, 0, sizeof *r);
}
