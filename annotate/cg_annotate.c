/* cg_annotate.c -- cg_annotate: options, reading the profiles, the Metadata section and the order of the report. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	"                   [--context N] [--normalize LIST] [--derive NAME=FORMULA]\n"
	"                   [--fail-above [SCOPE:]EVENT:LIMIT] [--show-old-new]\n"
	"                   [--source-prefix-map OLD=NEW] [--json] [--json-lines]\n"
	"                   [--width N] [--inline {yes,no}] [--asm[=REGEX]]\n"
	"                   [--debug-file-directory DIRS] [--per-file] [--html FILE]\n"
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
	"  --normalize LIST      fold function-name suffixes that differ between builds:\n"
	"                        rust (hash suffixes), clones (.constprop.N, .isra.N,\n"
	"                        .part.N, .cold, .lto_priv.N, also as [clone ...]);\n"
	"                        comma-separated\n"
	"  --derive NAME=FORMULA\n"
	"                        a derived event over the recorded ones, e.g.\n"
	"                        Cycles=Ir+10*I1mr+100*ILmr, usable in --show, --sort\n"
	"                        and --fail-above; repeatable\n"
	"  --fail-above [SCOPE:]EVENT:LIMIT\n"
	"                        with --diff: exit with status 3 if EVENT grew by more\n"
	"                        than LIMIT (Ir:+0.5% of the old total, or Ir:+20000;\n"
	"                        SCOPE is fn=REGEX, fl=REGEX or each-fn=REGEX);\n"
	"                        repeatable\n"
	"  --show-old-new        with --diff: old, new, delta and change columns in the\n"
	"                        file:function and function:file tables\n"
	"  --source-prefix-map OLD=NEW\n"
	"                        read the source files whose names start with OLD from\n"
	"                        NEW instead; repeatable\n"
	"  --json                write a JSON report instead of the text\n"
	"  --json-lines          with --json: add the counts of every source line\n"
	"  --width N             width of the table of changes (default: the\n"
	"                        terminal's)\n"
	"  --inline {yes,no}     charge the cost of inlined code to the inlined\n"
	"                        functions, as the objects' DWARF says (needs profiles\n"
	"                        made with --dump-instr=yes; default: no)\n"
	"  --asm[=REGEX]         annotated disassembly of the functions above the\n"
	"                        threshold, or of those whose names match REGEX (needs\n"
	"                        profiles made with --dump-instr=yes)\n"
	"  --debug-file-directory DIRS\n"
	"                        where --inline and --asm look for debug files by\n"
	"                        build-id and .gnu_debuglink: folders separated by\n"
	"                        ':' (default: /usr/lib/debug)\n"
	"  --per-file            report each file in a column group of its own, beside\n"
	"                        their total\n"
	"  --html FILE           write the report as one self-contained HTML page to\n"
	"                        FILE (sortable tables, annotated sources) instead of\n"
	"                        the text\n"
	"\n"
	"Exit status: 0 success, 1 error, 2 bad command line, 3 a --fail-above limit\n"
	"exceeded.\n";

enum {
	O_HELP, O_VERSION, O_DIFF, O_MODFL, O_MODFN, O_SHOW, O_SORT, O_THRESHOLD,
	O_PERCS, O_PERCS_YES, O_PERCS_NO, O_ANNOTATE, O_AUTO_YES, O_AUTO_NO, O_CONTEXT,
	/* Ours, from O_NORMALIZE on (on_our_option). */
	O_NORMALIZE, O_DERIVE, O_FAIL, O_OLD_NEW, O_PREFIX_MAP, O_JSON, O_JSON_LINES,
	O_WIDTH, O_INLINE, O_ASM, O_DEBUG_DIRS, O_SIDE, O_HTML
};

/* Upstream's options (abbreviations allowed), then ours (full names
 * only, spec.nabbrev). */
#define N_UPSTREAM_OPTS 15

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
	{ { "--normalize", NULL, NULL }, 1, O_NORMALIZE },
	{ { "--derive", NULL, NULL }, 1, O_DERIVE },
	{ { "--fail-above", NULL, NULL }, 1, O_FAIL },
	{ { "--show-old-new", NULL, NULL }, 0, O_OLD_NEW },
	{ { "--source-prefix-map", NULL, NULL }, 1, O_PREFIX_MAP },
	{ { "--json", NULL, NULL }, 0, O_JSON },
	{ { "--json-lines", NULL, NULL }, 0, O_JSON_LINES },
	{ { "--width", NULL, NULL }, 1, O_WIDTH },
	{ { "--inline", NULL, NULL }, 1, O_INLINE },
	{ { "--asm", NULL, NULL }, AP_OPT_EQ, O_ASM },
	{ { "--debug-file-directory", NULL, NULL }, 1, O_DEBUG_DIRS },
	{ { "--per-file", NULL, NULL }, 0, O_SIDE },
	{ { "--html", NULL, NULL }, 1, O_HTML },
};

static const struct ap_pos positionals[] = { { "cachegrind-out-file", 1 } };

static const struct ap_spec spec = {
	usage_text, options, sizeof options / sizeof options[0], positionals, 1,
	N_UPSTREAM_OPTS
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

/* argparse's message for a value outside choices=['yes', 'no']. */
static const char *invalid_choice(const char *value, int *free_it)
{
	struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);
	char *r = py_repr(value);

	cgp_buf_addf(&b, "invalid choice: %s (choose from 'yes', 'no')", r);
	free(r);
	*free_it = 1;
	return b.s ? b.s : "invalid choice";
}

/* --context N.  Python ints are unbounded; no source file has 2^60 lines,
 * so larger contexts behave the same when clamped. */
static const char *set_context(struct ann *a, const char *value, int *free_it)
{
	int64_t n;
	int rc = cgp_parse_int(value, strlen(value), &n);

	if (rc == -1)
		return invalid("int", value, free_it);
	if (rc == -2)
		n = value[strspn(value, " \t\n\v\f\r")] == '-' ? -((int64_t)1 << 60)
							   : (int64_t)1 << 60;
	if (n > (int64_t)1 << 60)
		n = (int64_t)1 << 60;
	if (n < -((int64_t)1 << 60))
		n = -((int64_t)1 << 60);
	a->context = n;
	return NULL;
}

/* --source-prefix-map OLD=NEW (kept as given, split when used). */
static const char *add_prefix_map(struct ann *a, const char *value, int *free_it)
{
	if (!strchr(value, '=') || *value == '=') {
		char *r = py_repr(value);
		struct cgp_buf b = CGP_BUF_INIT(1 << 20);
		cgp_buf_addf(&b, "invalid value %s (OLD=NEW, OLD not empty)", r);
		free(r);
		*free_it = b.s != NULL;
		return b.s ? b.s : "invalid value (OLD=NEW)";
	}
	a->prefix_map = xrealloc(a->prefix_map, a->nprefix_map + 1, sizeof *a->prefix_map);
	a->prefix_map[a->nprefix_map++] = (char *)value;
	return NULL;
}

/* The options this project adds to upstream's (docs/manual/ci.md). */
static const char *on_our_option(struct ann *a, int id, const char *value, int *free_it)
{
	switch (id) {
	case O_NORMALIZE:
		return rep_option(&a->rep, REP_NORMALIZE, value, free_it);
	case O_DERIVE:
		return rep_option(&a->rep, REP_DERIVE, value, free_it);
	case O_FAIL:
		return rep_option(&a->rep, REP_FAIL_ABOVE, value, free_it);
	case O_WIDTH:
		return rep_option(&a->rep, REP_WIDTH, value, free_it);
	case O_PREFIX_MAP:
		return add_prefix_map(a, value, free_it);
	case O_OLD_NEW:
		a->old_new = 1;
		break;
	case O_JSON:
		a->rep.json = 1;
		break;
	case O_JSON_LINES:
		a->json_lines = 1;
		break;
	case O_INLINE:
		if (strcmp(value, "yes") && strcmp(value, "no"))
			return invalid_choice(value, free_it);
		a->inline_on = !strcmp(value, "yes");
		break;
	case O_ASM:
		a->asm_on = 1;
		return value ? asm_set_regex(a, value, free_it) : NULL;
	case O_DEBUG_DIRS:
		a->debug_dirs = value;
		break;
	case O_SIDE:
		a->side = 1;
		break;
	case O_HTML:
		if (!*value)
			return "expected a file name";
		a->html_path = value;
		break;
	}
	return NULL;
}

static const char *on_option(void *ctx, int id, const char *optstr,
			     const char *value, int *free_it)
{
	struct ann *a = ctx;
	double d;

	if (id >= O_NORMALIZE)
		return on_our_option(a, id, value, free_it);
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
		a->threshold_given = 1;
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
		return set_context(a, value, free_it);
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
	unsigned *idx, n, k;
	int rc;

	free(a->show);
	free(a->sort);
	a->show = a->sort = NULL;
	/* The columns: the recorded events, then the derived ones. */
	if (a->rep.der.n && (rc = cgp_derives_bind(&a->rep.der, events, nev, err)))
		return rc;
	free(a->events);
	free(a->ratio);
	a->events = xmalloc(nev + a->rep.der.n, sizeof *a->events);
	a->ratio = xcalloc(nev + a->rep.der.n, 1);
	memcpy(a->events, events, nev * sizeof *events);
	for (k = 0; k < a->rep.der.n; k++) {
		a->events[nev + k] = a->rep.der.d[k].name;
		a->ratio[nev + k] = (unsigned char)a->rep.der.d[k].ratio;
	}
	a->nrec = nev;
	events = a->events;
	nev += a->rep.der.n;
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
	put_events_line("Events shown:     ", a->events, a->show, a->nshow);
	put_events_line("Event sort order: ", a->events, a->sort, a->nsort);
	cgp_fmt_pyfloat(thr, a->threshold);
	printf("Threshold:        %s%%\n", thr);
	printf("Annotation:       %s\n\n", a->annotate ? "on" : "off");
}

/* The options that only make sense together: usage errors. */
/* Whether path is an existing regular file whose first line is one a
 * profile starts with. */
static int looks_like_profile(const char *path)
{
	static const char *const first[] = { "desc:", "cmd:", "events:", "version:",
					     "creator:", "positions:" };
	char buf[16] = "";
	struct stat st;
	FILE *f;
	size_t i, n;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || !(f = fopen(path, "r")))
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (i = 0; i < sizeof first / sizeof first[0]; i++)
		if (!strncmp(buf, first[i], strlen(first[i])))
			return 1;
	return 0;
}

static void check_combinations(const struct ann *a)
{
	if (a->rep.nlimits && !a->diff)
		ap_usage_error(&spec, "argument --fail-above: needs --diff (two profiles "
				      "to compare)");
	if (a->old_new && !a->diff)
		ap_usage_error(&spec, "argument --show-old-new: needs --diff");
	if (a->json_lines && !a->rep.json)
		ap_usage_error(&spec, "argument --json-lines: needs --json");
	if (a->diff && (a->inline_on || a->asm_on))
		ap_usage_error(&spec, "argument --diff: not allowed with %s: a diff is made "
			       "per line (the addresses of two builds do not correspond)",
			       a->inline_on ? "--inline=yes" : "--asm");
	if (a->rep.der.n && (a->inline_on || a->asm_on))
		ap_usage_error(&spec, "argument --derive: not allowed with %s",
			       a->inline_on ? "--inline=yes" : "--asm");
	if (a->side && a->diff)
		ap_usage_error(&spec, "argument --per-file: not allowed with argument --diff");
	if (a->side && (a->rep.json || a->rep.der.n || a->inline_on || a->asm_on ||
			a->html_path))
		ap_usage_error(&spec, "argument --per-file: not allowed with %s",
			       a->rep.json ? "--json" : a->rep.der.n ? "--derive"
			       : a->inline_on ? "--inline=yes" : a->asm_on ? "--asm" : "--html");
	if (a->html_path && a->rep.json)
		ap_usage_error(&spec, "argument --html: not allowed with argument --json");
	/* The annotated machine code is text only: the JSON would drop it. */
	if (a->asm_on && a->rep.json)
		ap_usage_error(&spec, "argument --asm: not allowed with argument --json");
	/* "--html a.out b.out" takes a.out as the page: never write a page
	 * over a profile (a file that starts as one does). */
	if (a->html_path && looks_like_profile(a->html_path))
		ap_usage_error(&spec, "argument --html: '%s' is a Cachegrind profile, not "
			       "a page to replace (give the page's name as --html=FILE)",
			       a->html_path);
}

/* With derived events: the summary extended with the derived columns. */
static void extend_values(struct ann *a)
{
	int64_t *s;

	if (a->nev == a->nrec) {
		a->summary = a->prof.summary;
		return;
	}
	s = xmalloc(a->nev, sizeof *s);
	memcpy(s, a->prof.summary, a->nrec * sizeof *s);
	derive(a, s);
	a->summary = s;
}

/* --diff: the totals after the first file, which are minus its counts. */
static void snapshot(struct ann *a)
{
	unsigned nev = a->prof.nev;

	a->snap = rep_cc_totals(&a->prof, &a->nsnap);
	a->snap_summary = xmalloc(nev, sizeof *a->snap_summary);
	memcpy(a->snap_summary, a->prof.summary, nev * sizeof *a->snap_summary);
}

/* The options into a, with the checks that need all of them. */
static void parse_options(struct ann *a, int argc, char **argv)
{
	size_t count;

	memset(a, 0, sizeof *a);
	a->percs = a->annotate = 1;
	a->threshold = 0.1;
	a->context = 8;
	a->argc = argc;
	a->argv = argv;
	ap_parse(&spec, argc, argv, on_option, a, &a->files, &count);
	a->nfiles = count;
	if (a->diff && a->nfiles != 2) {
		fputs(usage_text, stderr);
		die(1, "argument --diff: requires exactly two Cachegrind output files");
	}
	check_combinations(a);
	a->mod_fn = rep_fn_chain(&a->rep, a->mod_fn);
}

/* Reads the profiles (with --diff: the first one subtracted, its totals
 * kept); dies on an error. */
static void read_profiles(struct ann *a)
{
	struct cgp_error err = CGP_ERROR_INIT;
	struct cgp_read_opts ro;
	size_t i;

	cgp_profile_init(&a->prof, CGP_MODE_ANNOTATE);
	memset(&ro, 0, sizeof ro);
	ro.mod_fl = a->mod_fl;
	ro.mod_fn = a->mod_fn;
	ro.check_events = check_events;
	ro.ctx = a;
	ro.keep_instrs = a->inline_on || a->asm_on;
	if (a->side) {
		ann_side_read(a, &ro);
		return;
	}
	for (i = 0; i < a->nfiles; i++) {
		ro.negate = a->diff && i == 0;
		if (cgp_profile_read(&a->prof, a->files[i], &ro, &err))
			die_cgp(&err);
		if (ro.keep_instrs && !a->prof.in[i].instr)
			die(1, "%s needs instruction-level profiles (made with --dump-instr=yes): "
			    "'%s' is line-level", a->inline_on ? "--inline=yes" : "--asm",
			    a->files[i]);
		if (a->diff && i == 0)
			snapshot(a);
	}
}

/* The columns' values, the buckets, and the model where an option needs
 * it before any output (otherwise the tables build it, ann_summary.c);
 * returns how many limits are exceeded. */
static long prepare(struct ann *a)
{
	struct cgp_error err = CGP_ERROR_INIT;
	long exceeded = 0;
	int b;

	a->nev = a->nrec + a->rep.der.n;
	extend_values(a);
	if (a->inline_on || a->asm_on) {
		/* Before the model: --inline moves costs between entries. */
		objects_open(a);
		if (a->inline_on)
			inline_apply(a);
	}
	for (b = 0; b < B_COUNT; b++) {
		/* A bucket no line reaches has its derived values too, from
		 * its zero counts (n/a for a ratio, 5 for Ir+5): add_row
		 * computes them only as lines come. */
		a->bucket[b] = xcalloc(a->nev, sizeof *a->bucket[b]);
		derive(a, a->bucket[b]);
	}
	if (a->rep.json || a->rep.nlimits || a->old_new || a->rep.der.n || a->html_path)
		model_build(a);
	if (a->diff && a->nev != a->nrec) {
		/* A derived total of a diff is new's minus old's, as in the
		 * tables (not the formula applied to the differences). */
		const int64_t *d = a->model.total + 2 * (size_t)a->model.ncol;
		memcpy((int64_t *)a->summary + a->nrec, d + a->nrec,
		       (a->nev - a->nrec) * sizeof *d);
	}
	if (a->rep.nlimits &&
	    (exceeded = cgp_gate_eval(&a->model, a->rep.limits, a->rep.nlimits, &err)) < 0)
		die_cgp(&err);
	return exceeded;
}

/* --html: the Objects section's text (its lines after the title), in the
 * page. */
static void objects_html(struct ann *a)
{
	FILE *sink = stdout;
	char *text = NULL, *p;
	size_t len = 0;
	int skip;

	stdout = open_memstream(&text, &len);
	if (!stdout)
		die(1, "out of memory");
	report_objects(a);
	if (fclose(stdout) || !text)
		die(1, "out of memory");
	stdout = sink;
	for (p = text, skip = 3; skip && (p = memchr(p, '\n', len - (size_t)(p - text))); skip--)
		p++;
	if (p)
		html_pre(a, "objects", "Objects", p, len - (size_t)(p - text));
	free(text);
}

/* The report: the text, or the JSON or HTML written after (or while) the
 * text runs into a sink (it computes the annotation summary, and checks
 * it, and nothing reaches standard output before the whole report is
 * known); then the gate's text. */
static void report(struct ann *a)
{
	FILE *real_stdout = NULL;

	if (a->rep.json || a->html_path) {
		fflush(stdout);
		real_stdout = stdout;
		stdout = sink_stream();
	}
	if (a->html_path) {
		html_open(a);
		html_header(a);
	}
	metadata(a);
	if (a->objs && a->html)
		objects_html(a);
	else if (a->objs)
		report_objects(a);
	report_summaries(a);
	if (a->annotate) {
		report_sources(a);
		report_annotation_summary(a);
		if (a->html)
			html_asum(a);
	}
	if (a->asm_on)
		report_asm(a);
	if (real_stdout) {
		fclose(stdout);
		stdout = real_stdout;
	}
	if (a->html)
		html_finish(a);
	if (a->rep.json)
		report_json(a);
	else if (a->rep.nlimits)
		report_gate(a);
	finish_stdout();
}

static void release(struct ann *a)
{
	int b;

	asm_release(a);
	objects_release(a);
	for (b = 0; b < B_COUNT; b++)
		free(a->bucket[b]);
	if (a->have_model)
		cgp_model_release(&a->model);
	if (a->summary != a->prof.summary)
		free((int64_t *)a->summary);
	free(a->snap);
	free(a->snap_summary);
	free(a->selected);
	free(a->show);
	free(a->sort);
	free(a->events);
	free(a->ratio);
	ann_side_release(a);
	free(a->files);
	free(a->prefix_map);
	cgp_profile_release(&a->prof);
	cgp_subst_free(a->mod_fl);
	cgp_subst_free(a->mod_fn);
	rep_release(&a->rep);
}

int main(int argc, char **argv)
{
	struct ann a;
	long exceeded;

	prog_init(argv[0]);
	prog_stdout_init();
	cgp_heap_prefault(CGP_HEAP_MIN_INPUT);
	parse_options(&a, argc, argv);
	read_profiles(&a);
	exceeded = prepare(&a);
	report(&a);
	release(&a);
	return exceeded ? EXIT_LIMIT : 0;
}
