/* cg_annotate.c -- cg_annotate: options, reading the profiles, the Metadata section and the order of the report. */
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

/* The usage and help texts as Python 3.11's argparse prints them for
 * upstream's parser, at 80 columns (tests/cli/help-vs-man.sh compares
 * them with the manual page). */
static const char usage_text[] =
	"usage: cg_annotate [-h] [--version] [--diff] [--mod-filename REGEX]\n"
	"                   [--mod-funcname REGEX] [--show A,B,C] [--sort A,B,C]\n"
	"                   [--threshold N:[0,20]] [--show-percs | --no-show-percs]\n"
	"                   [--show-percs=yes] [--show-percs=no]\n"
	"                   [--annotate | --no-annotate] [--auto=yes] [--auto=no]\n"
	"                   [--context N] [--per-file]\n"
	"                   cachegrind-out-file [cachegrind-out-file ...]\n";

static const char help_text[] =
	"\n"
	"Process one or more Cachegrind output files.\n"
	"\n"
	"positional arguments:\n"
	"  cachegrind-out-file   file produced by Cachegrind\n"
	"\n"
	"options:\n"
	"  -h, --help            show this help message and exit\n"
	"  --version             show program's version number and exit\n"
	"  --diff                perform a diff between two Cachegrind output files\n"
	"  --mod-filename REGEX  a search-and-replace regex applied to filenames, e.g.\n"
	"                        `s/prog[0-9]/progN/`\n"
	"  --mod-funcname REGEX  like --mod-filename, but for function names\n"
	"  --show A,B,C          only show figures for events A,B,C (default: all\n"
	"                        events)\n"
	"  --sort A,B,C          sort functions by events A,B,C (default: event column\n"
	"                        order)\n"
	"  --threshold N:[0,20]  only show file:function/function:file pairs with more\n"
	"                        than N% of primary sort event counts (default: 0.1)\n"
	"  --show-percs, --no-show-percs\n"
	"                        show a percentage for each non-zero count\n"
	"  --show-percs=yes      (deprecated) same as --show-percs\n"
	"  --show-percs=no       (deprecated) same as --no-show-percs\n"
	"  --annotate, --no-annotate\n"
	"                        annotate all source files containing functions that\n"
	"                        reached the event count threshold\n"
	"  --auto=yes            (deprecated) same as --annotate\n"
	"  --auto=no             (deprecated) same as --no-annotate\n"
	"  --context N           print N lines of context before and after annotated\n"
	"                        lines (default: 8)\n"
	"  --per-file            report each file in a column group of its own, beside\n"
	"                        their total\n";

enum {
	O_HELP, O_VERSION, O_DIFF, O_MODFL, O_MODFN, O_SHOW, O_SORT, O_THRESHOLD,
	O_PERCS, O_PERCS_YES, O_PERCS_NO, O_ANNOTATE, O_AUTO_YES, O_AUTO_NO, O_CONTEXT,
	O_SIDE
};

/* Registration order matters: it is the order of "could match" lists. */
static const struct ap_opt options[] = {
	{ { "-h", "--help", NULL }, 0, O_HELP },
	{ { "--version", NULL, NULL }, 0, O_VERSION },
	{ { "--diff", NULL, NULL }, 0, O_DIFF },
	{ { "--mod-filename", NULL, NULL }, 1, O_MODFL },
	{ { "--mod-funcname", NULL, NULL }, 1, O_MODFN },
	{ { "--show", NULL, NULL }, 1, O_SHOW },
	{ { "--sort", NULL, NULL }, 1, O_SORT },
	{ { "--threshold", NULL, NULL }, 1, O_THRESHOLD },
	{ { "--show-percs", "--no-show-percs", NULL }, 0, O_PERCS },
	{ { "--show-percs=yes", NULL, NULL }, 0, O_PERCS_YES },
	{ { "--show-percs=no", NULL, NULL }, 0, O_PERCS_NO },
	{ { "--annotate", "--no-annotate", NULL }, 0, O_ANNOTATE },
	{ { "--auto=yes", NULL, NULL }, 0, O_AUTO_YES },
	{ { "--auto=no", NULL, NULL }, 0, O_AUTO_NO },
	{ { "--context", NULL, NULL }, 1, O_CONTEXT },
	{ { "--per-file", NULL, NULL }, 0, O_SIDE },
};

static const struct ap_pos positionals[] = { { "cachegrind-out-file", 1 } };

static const struct ap_spec spec = {
	usage_text, options, sizeof options / sizeof options[0], positionals, 1
};

/* Message "invalid <type> value: <repr>" (argparse's wording). */
static const char *invalid(const char *type, const char *value, int *free_it)
{
	struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);
	char *r = py_repr(value);

	cgp_buf_addf(&b, "invalid %s value: %s", type, r);
	free(r);
	*free_it = 1;
	return b.s ? b.s : "invalid value";
}

static const char *on_option(void *ctx, int id, const char *optstr,
			     const char *value, int *free_it)
{
	struct ann *a = ctx;
	double d;
	int64_t n;
	int rc;

	switch (id) {
	case O_HELP:
		ap_help(usage_text, help_text);
	case O_VERSION:
		ap_version("cg_annotate");
	case O_DIFF:
		a->diff = 1;
		break;
	case O_MODFL:
		return ap_subst(&a->mod_fl, value, free_it);
	case O_MODFN:
		return ap_subst(&a->mod_fn, value, free_it);
	case O_SHOW:
		a->show_arg = (char *)value;
		break;
	case O_SORT:
		a->sort_arg = (char *)value;
		break;
	case O_THRESHOLD:
		if (cgp_parse_float(value, &d) || !(d >= 0 && d <= 20))
			return invalid("threshold", value, free_it);
		a->threshold = d;
		break;
	case O_PERCS:
		a->percs = strncmp(optstr, "--no-", 5) != 0;
		break;
	case O_PERCS_YES:
	case O_PERCS_NO:
		a->percs = id == O_PERCS_YES;
		break;
	case O_ANNOTATE:
		a->annotate = strncmp(optstr, "--no-", 5) != 0;
		break;
	case O_AUTO_YES:
	case O_AUTO_NO:
		a->annotate = id == O_AUTO_YES;
		break;
	case O_CONTEXT:
		rc = cgp_parse_int(value, strlen(value), &n);
		if (rc == -1)
			return invalid("int", value, free_it);
		/* Python ints are unbounded; no source file has 2^60 lines, so
		 * larger contexts behave the same when clamped. */
		if (rc == -2)
			n = value[strspn(value, " \t\n\v\f\r")] == '-' ? -((int64_t)1 << 60)
								   : (int64_t)1 << 60;
		if (n > (int64_t)1 << 60)
			n = (int64_t)1 << 60;
		if (n < -((int64_t)1 << 60))
			n = -((int64_t)1 << 60);
		a->context = n;
		break;
	case O_SIDE:
		a->side = 1;
		break;
	}
	return NULL;
}

/* Splits "A,B,C" on "," (empty items kept) into event indices. */
static int resolve(const char *arg, const char *what, char **events, unsigned nev,
		   unsigned **out, unsigned *nout, struct cgp_error *err)
{
	const char *p = arg;
	unsigned n = 0, k;

	*out = NULL;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		for (k = 0; k < nev; k++)
			if (strlen(events[k]) == len && !memcmp(events[k], p, len))
				break;
		if (k == nev) {
			free(*out);
			*out = NULL;
			return cgp_error_set(err, CGP_EUSAGE,
					     "%s event `%.*s` did not appear in `events:` line",
					     what, (int)len, p);
		}
		*out = xrealloc(*out, n + 1, sizeof **out);
		(*out)[n++] = k;
		if (!comma)
			break;
		p = comma + 1;
	}
	*nout = n;
	return 0;
}

/* The default of --show and --sort: every event in file order. */
static unsigned *all_events(unsigned nev, unsigned *n)
{
	unsigned *idx = xmalloc(nev, sizeof *idx), k;

	for (k = 0; k < nev; k++)
		idx[k] = k;
	*n = nev;
	return idx;
}

/* Called with each file's events: validates --show and --sort. */
static int check_events(void *ctx, char **events, unsigned nev, struct cgp_error *err)
{
	struct ann *a = ctx;
	unsigned *idx, n;
	int rc;

	free(a->show);
	free(a->sort);
	a->show = a->sort = NULL;
	if (a->show_arg) {
		if ((rc = resolve(a->show_arg, "--show", events, nev, &idx, &n, err)))
			return rc;
		a->show = idx, a->nshow = n;
	}
	if (a->sort_arg) {
		if ((rc = resolve(a->sort_arg, "--sort", events, nev, &idx, &n, err)))
			return rc;
		a->sort = idx, a->nsort = n;
	}
	if (!a->show)
		a->show = all_events(nev, &a->nshow);
	if (!a->sort)
		a->sort = all_events(nev, &a->nsort);
	return 0;
}

static void put_events_line(const char *label, char **events, const unsigned *idx,
			    unsigned n)
{
	unsigned i;

	fputs(label, stdout);
	for (i = 0; i < n; i++) {
		if (i)
			putchar(' ');
		fputs(events[idx ? idx[i] : i], stdout);
	}
	putchar('\n');
}

static void metadata(const struct ann *a)
{
	const struct cgp_profile *p = &a->prof;
	size_t i;
	int same_desc = 1;
	char thr[40];

	put_fancy("Metadata", NULL, 0);
	fputs("Invocation:       ", stdout);
	for (i = 0; i < (size_t)a->argc; i++)
		printf(i ? " %s" : "%s", a->argv[i]);
	putchar('\n');
	for (i = 1; i < p->nin; i++)
		if (strcmp(p->in[i].desc, p->in[0].desc))
			same_desc = 0;
	if (same_desc)
		fputs(p->in[0].desc, stdout);
	else
		for (i = 0; i < p->nin; i++)
			printf("Description %zu:\n%s", i + 1, p->in[i].desc);
	if (p->nin == 1)
		printf("Command:          %s\n", p->in[0].cmd);
	else
		for (i = 0; i < p->nin; i++) {
			if (i && !strcmp(p->in[i].cmd, p->in[i - 1].cmd))
				printf("Command %zu:        (same as Command %zu)\n", i + 1, i);
			else
				printf("Command %zu:        %s\n", i + 1, p->in[i].cmd);
		}
	put_events_line("Events recorded:  ", p->events, NULL, p->nev);
	if (a->side)
		ann_side_metadata(a);
	put_events_line("Events shown:     ", p->events, a->show, a->nshow);
	put_events_line("Event sort order: ", p->events, a->sort, a->nsort);
	cgp_fmt_pyfloat(thr, a->threshold);
	printf("Threshold:        %s%%\n", thr);
	printf("Annotation:       %s\n\n", a->annotate ? "on" : "off");
}

int main(int argc, char **argv)
{
	struct ann a;
	struct cgp_error err = CGP_ERROR_INIT;
	struct cgp_read_opts ro;
	size_t i, count;
	int b;

	prog_init(argv[0]);
	prog_stdout_init();
	memset(&a, 0, sizeof a);
	a.percs = a.annotate = 1;
	a.threshold = 0.1;
	a.context = 8;
	a.argc = argc;
	a.argv = argv;
	ap_parse(&spec, argc, argv, on_option, &a, &a.files, &count);
	a.nfiles = count;
	if (a.diff && a.nfiles != 2) {
		fputs(usage_text, stderr);
		die(1, "argument --diff: requires exactly two Cachegrind output files");
	}
	if (a.diff && a.side) {
		fputs(usage_text, stderr);
		die(2, "argument --per-file: not allowed with argument --diff");
	}

	memset(&ro, 0, sizeof ro);
	ro.mod_fl = a.mod_fl;
	ro.mod_fn = a.mod_fn;
	ro.check_events = check_events;
	ro.ctx = &a;
	if (a.side) {
		ann_side_read(&a, &ro);
	} else {
		cgp_profile_init(&a.prof, CGP_MODE_ANNOTATE);
		for (i = 0; i < a.nfiles; i++) {
			ro.negate = a.diff && i == 0;
			if (cgp_profile_read(&a.prof, a.files[i], &ro, &err))
				die_cgp(&err);
		}
	}
	a.nev = a.prof.nev;
	a.summary = a.prof.summary;
	for (b = 0; b < B_COUNT; b++)
		a.bucket[b] = xcalloc(a.nev, sizeof *a.bucket[b]);

	metadata(&a);
	report_summaries(&a);
	if (a.annotate) {
		report_sources(&a);
		report_annotation_summary(&a);
	}
	finish_stdout();

	for (b = 0; b < B_COUNT; b++)
		free(a.bucket[b]);
	free(a.selected);
	free(a.show);
	free(a.sort);
	ann_side_release(&a);
	free(a.files);
	cgp_profile_release(&a.prof);
	cgp_subst_free(a.mod_fl);
	cgp_subst_free(a.mod_fn);
	return 0;
}
