/* cg_diff.c -- cg_diff: the difference of two Cachegrind output files, per (file, function). */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgp.h"
#include "prog.h"
#include "prog_report.h"

/* The usage and help texts as Python 3.11's argparse prints them for
 * upstream's parser, at 80 columns (tests/cli/help-vs-man.sh compares
 * them with the manual page). */
static const char usage_text[] =
	"usage: cg_diff [-h] [--version] [--mod-filename REGEX] [--mod-funcname REGEX]\n"
	"               [--normalize LIST] [--derive NAME=FORMULA]\n"
	"               [--fail-above [SCOPE:]EVENT:LIMIT] [--json] [-o FILE]\n"
	"               [--width N]\n"
	"               cachegrind-out-file1 cachegrind-out-file2\n";

static const char help_text[] =
	"\n"
	"Diff two Cachegrind output files. Deprecated; use `cg_annotate --diff`\n"
	"instead.\n"
	"\n"
	"positional arguments:\n"
	"  cachegrind-out-file1  file produced by Cachegrind\n"
	"  cachegrind-out-file2  file produced by Cachegrind\n"
	"\n"
	"options:\n"
	"  -h, --help            show this help message and exit\n"
	"  --version             show program's version number and exit\n"
	"  --mod-filename REGEX  a search-and-replace regex applied to filenames, e.g.\n"
	"                        `s/prog[0-9]/progN/`\n"
	"  --mod-funcname REGEX  like --mod-filename, but for function names\n"
	"  --normalize LIST      fold function-name suffixes that differ between builds:\n"
	"                        rust (hash suffixes), clones (.constprop.N, .isra.N,\n"
	"                        .part.N, .cold, .lto_priv.N, also as [clone ...]);\n"
	"                        comma-separated\n"
	"  --derive NAME=FORMULA\n"
	"                        a derived event over the recorded ones, e.g.\n"
	"                        Cycles=Ir+10*I1mr+100*ILmr; repeatable\n"
	"  --fail-above [SCOPE:]EVENT:LIMIT\n"
	"                        exit with status 3 if EVENT grew by more than LIMIT\n"
	"                        (Ir:+0.5% of the old total, or Ir:+20000; SCOPE is\n"
	"                        fn=REGEX, fl=REGEX or each-fn=REGEX); repeatable; the\n"
	"                        verdicts go to stderr, or to stdout with -o FILE\n"
	"  --json                write a JSON report on stdout instead of the profile\n"
	"  -o FILE               write the diff profile to FILE\n"
	"  --width N             width of the table of changes (default: the\n"
	"                        terminal's)\n"
	"\n"
	"Exit status: 0 success, 1 error, 2 bad command line, 3 a --fail-above limit\n"
	"exceeded.\n";

enum {
	O_HELP, O_VERSION, O_MODFL, O_MODFN, O_NORMALIZE, O_DERIVE, O_FAIL, O_JSON,
	O_OUT, O_WIDTH
};

/* Upstream's options, then ours (full names only: spec.nabbrev). */
static const struct ap_opt options[] = {
	{ { "-h", "--help", NULL }, 0, O_HELP },
	{ { "--version", NULL, NULL }, 0, O_VERSION },
	{ { "--mod-filename", NULL, NULL }, 1, O_MODFL },
	{ { "--mod-funcname", NULL, NULL }, 1, O_MODFN },
	{ { "--normalize", NULL, NULL }, 1, O_NORMALIZE },
	{ { "--derive", NULL, NULL }, 1, O_DERIVE },
	{ { "--fail-above", NULL, NULL }, 1, O_FAIL },
	{ { "--json", NULL, NULL }, 0, O_JSON },
	{ { "-o", NULL, NULL }, 1, O_OUT },
	{ { "--width", NULL, NULL }, 1, O_WIDTH },
};

static const struct ap_pos positionals[] = {
	{ "cachegrind-out-file1", 0 },
	{ "cachegrind-out-file2", 0 },
};

static const struct ap_spec spec = {
	usage_text, options, sizeof options / sizeof options[0], positionals, 2, 4
};

/* The --mod-* expressions, owned here until exit. */
static struct cgp_subst *mod_fl, *mod_fn;
/* The regression-check options; -o's file name (from argv). */
static struct rep_opts rep;
static const char *out_path;

static const char *on_option(void *ctx, int id, const char *optstr,
			     const char *value, int *free_it)
{
	switch (id) {
	case O_HELP:
		ap_help(usage_text, help_text);
	case O_VERSION:
		ap_version("cg_diff");
	case O_MODFL:
		return ap_subst(&mod_fl, value, free_it);
	case O_MODFN:
		return ap_subst(&mod_fn, value, free_it);
	case O_NORMALIZE:
		return rep_option(&rep, REP_NORMALIZE, value, free_it);
	case O_DERIVE:
		return rep_option(&rep, REP_DERIVE, value, free_it);
	case O_FAIL:
		return rep_option(&rep, REP_FAIL_ABOVE, value, free_it);
	case O_WIDTH:
		return rep_option(&rep, REP_WIDTH, value, free_it);
	case O_JSON:
		rep.json = 1;
		break;
	case O_OUT:
		out_path = value;
		break;
	}
	return NULL;
}

/* The model of the diff: p2 holds new - old now, snap the new totals of
 * its first nsnap cost centres (before the diff), p1 the old profile. */
static void build_model(struct cgp_model *m, const struct cgp_profile *p1,
			const struct cgp_profile *p2, const int64_t *snap, size_t nsnap)
{
	struct cgp_error err = CGP_ERROR_INIT;
	unsigned nev = p2->nev, k;
	int64_t *o = xmalloc(nev, sizeof *o), *n = xmalloc(nev, sizeof *n);
	size_t i;

	if (rep.der.n && cgp_derives_bind(&rep.der, p1->events, nev, &err))
		die_cgp(&err);
	cgp_model_init(m, 1, p2->events, nev, &rep.der);
	for (i = 0; i < p2->tab.ncc; i++) {
		const struct cgp_cc *c = &p2->tab.cc[i];
		for (k = 0; k < nev; k++) {
			n[k] = i < nsnap ? snap[i * nev + k] : 0;
			if (__builtin_sub_overflow(n[k], c->total[k], &o[k]))
				die(1, "a difference exceeds the 64-bit range");
		}
		if (cgp_model_add(m, c->file, c->fn, c->flags, o, n, &err))
			die_cgp(&err);
	}
	for (k = 0; k < nev; k++)
		if (__builtin_add_overflow(p1->summary[k], p2->summary[k], &n[k]))
			die(1, "a total exceeds the 64-bit range");
	if (cgp_model_set_total(m, p1->summary, n, &err) || cgp_model_finish(m, &err))
		die_cgp(&err);
	if (rep.json) {
		/* As cg_annotate's default: by every column, in file order. */
		unsigned *all = xmalloc(m->ncol, sizeof *all);
		for (k = 0; k < m->ncol; k++)
			all[k] = k;
		cgp_model_sort(m, all, m->ncol);
		free(all);
	}
	free(o);
	free(n);
}

/* The diff profile to -o FILE, complete or not at all. */
static void write_outfile(const char *cmd1, const struct cgp_profile *p2, char **files)
{
	static struct cgp_outfile of;   /* removed if we die (prog_outfile.c) */
	struct cgp_error err = CGP_ERROR_INIT;

	prog_outfile_open(&of, out_path);
	if (cgp_write_diff(&of.out, p2, files[0], files[1], cmd1, p2->in[0].cmd, &err))
		die_cgp(&err);
	prog_outfile_commit(&of);
}

/* The JSON report of the diff on out. */
static void write_json(struct cgp_out *out, const struct cgp_model *m,
		       const struct cgp_profile *p1, const struct cgp_profile *p2,
		       int argc, char **argv)
{
	const struct cgp_profile *pp[2] = { p1, p2 };
	struct cgp_json_info info;
	struct cgp_error err = CGP_ERROR_INIT;

	rep_json_info(&rep, &info, "cg_diff", argc, argv, pp, 2);
	if (cgp_json_report(out, m, &info, &err))
		die_cgp(&err);
}

/* The gate's text: to stdout when -o FILE took the profile and --json is
 * not given, else to stderr (see main). */
static void write_gate(const struct cgp_model *m)
{
	struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);
	int fd = out_path && !rep.json ? STDOUT_FILENO : STDERR_FILENO, e;

	rep_gate_text(&rep, m, fd, &b);
	if ((e = cgp_write_all(fd, b.s, b.len)))
		die(1, "cannot write the %s: %s", fd == STDOUT_FILENO ? "output" : "verdicts",
		    strerror(e));
	cgp_buf_release(&b);
}

/*
 * Standard output carries one thing: the diff profile (as upstream), or
 * with --json the JSON report.  The gate's text goes to stderr, where a CI
 * log shows it beside the redirected profile, or to stdout when -o FILE
 * took the profile and --json is not given.
 */
int main(int argc, char **argv)
{
	static struct cgp_out out;
	char **files;
	size_t counts[2], nsnap = 0;
	struct cgp_profile p1, p2;
	struct cgp_error err = CGP_ERROR_INIT;
	struct cgp_read_opts ro;
	struct cgp_model m;
	int64_t *snap = NULL;
	char *cmd1;
	int model;
	long exceeded = 0;

	prog_init(argv[0]);
	prog_stdout_init();
	ap_parse(&spec, argc, argv, on_option, NULL, &files, counts);
	mod_fn = rep_fn_chain(&rep, mod_fn);
	model = rep.json || rep.nlimits || rep.der.n;
	memset(&ro, 0, sizeof ro);
	ro.mod_fl = mod_fl;
	ro.mod_fn = mod_fn;

	cgp_profile_init(&p1, CGP_MODE_DIFF);
	cgp_profile_init(&p2, CGP_MODE_DIFF);
	if (cgp_profile_read(&p1, files[0], &ro, &err) ||
	    cgp_profile_read(&p2, files[1], &ro, &err))
		die_cgp(&err);
	if (model)   /* the new counts, before the diff makes them deltas */
		snap = rep_cc_totals(&p2, &nsnap);
	if (cgp_diff(&p2, &p1, &err))
		die_cgp(&err);
	cmd1 = xmalloc(strlen(p1.in[0].cmd) + 1, 1);
	memcpy(cmd1, p1.in[0].cmd, strlen(p1.in[0].cmd) + 1);
	if (model)
		build_model(&m, &p1, &p2, snap, nsnap);
	else  /* its memory serves the output's sort: a lower peak */
		cgp_profile_release(&p1);
	if (rep.nlimits && (exceeded = cgp_gate_eval(&m, rep.limits, rep.nlimits, &err)) < 0)
		die_cgp(&err);
	if (out_path)
		write_outfile(cmd1, &p2, files);
	cgp_out_init(&out, STDOUT_FILENO, NULL);
	if (rep.json)
		write_json(&out, &m, &p1, &p2, argc, argv);
	else if (!out_path && cgp_write_diff(&out, &p2, files[0], files[1], cmd1,
					     p2.in[0].cmd, &err))
		die_cgp(&err);
	if (rep.nlimits)
		write_gate(&m);
	if (model)
		cgp_model_release(&m);
	free(snap);
	free(cmd1);
	cgp_profile_release(&p1);
	cgp_profile_release(&p2);
	cgp_subst_free(mod_fl);
	cgp_subst_free(mod_fn);
	rep_release(&rep);
	free(files);
	return exceeded ? EXIT_LIMIT : 0;
}
