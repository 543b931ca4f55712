/* prog_args.c -- command-line parsing with the behaviour of Python 3.11 argparse, for the companions. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * Mirrors argparse's two passes: every argument is first classified as an
 * option ('O'), a positional ('A') or the "--" marker ('-'), which is where
 * ambiguous abbreviations are reported; then options are consumed in order
 * (running the handler, so type errors come out in command-line order) and
 * runs of positionals are matched greedily against the positional
 * arguments, as argparse's regular expressions do.  As in argparse, a
 * nargs='+' positional takes only the first run, so positionals after an
 * option that follows it end up "unrecognized".
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"

/* What one argument was classified as. */
struct item {
	char kind;                   /* 'O', 'A' or '-' */
	const struct ap_opt *opt;    /* NULL: unknown option */
	const char *optstr;          /* the option string matched */
	const char *explicit_arg;    /* after "=" or glued to -x; or NULL */
};

char *py_repr(const char *s)
{
	int dq = strchr(s, '\'') && !strchr(s, '"');
	char q = dq ? '"' : '\'';
	size_t n = strlen(s), k = 0;
	char *r = xmalloc(n * 4 + 3, 1);

	r[k++] = q;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\\' || c == (unsigned char)q) {
			r[k++] = '\\';
			r[k++] = (char)c;
		} else if (c == '\n') {
			r[k++] = '\\', r[k++] = 'n';
		} else if (c == '\r') {
			r[k++] = '\\', r[k++] = 'r';
		} else if (c == '\t') {
			r[k++] = '\\', r[k++] = 't';
		} else if (c < 0x20 || c == 0x7f) {
			k += (size_t)snprintf(r + k, 5, "\\x%02x", c);
		} else {
			r[k++] = (char)c;
		}
	}
	r[k++] = q;
	r[k] = '\0';
	return r;
}

void ap_help(const char *usage, const char *help)
{
	fputs(usage, stdout);
	fputs(help, stdout);
	finish_stdout();
	exit(0);
}

void ap_version(const char *name)
{
	printf("%s-%s\n", name, PACKAGE_VERSION);
	finish_stdout();
	exit(0);
}

const char *ap_subst(struct cgp_subst **slot, const char *value, int *free_it)
{
	struct cgp_error err = CGP_ERROR_INIT;
	struct cgp_subst *x = cgp_subst_new(value, &err);
	struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);
	char *r;

	if (x) {
		cgp_subst_free(*slot);
		*slot = x;
		return NULL;
	}
	r = py_repr(value);
	cgp_buf_addf(&b, "invalid search_and_replace value: %s (%s)", r,
		     err.msg ? err.msg : "out of memory");
	free(r);
	cgp_error_release(&err);
	*free_it = 1;
	return b.s ? b.s : "invalid search_and_replace value";
}

void ap_usage_error(const struct ap_spec *spec, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs(spec->usage, stderr);
	fprintf(stderr, "%s: error: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* "--a/--b" for messages, static buffer. */
static const char *opt_label(const struct ap_opt *o)
{
	static char buf[256];
	size_t k = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < 3 && o->names[i]; i++)
		k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s", i ? "/" : "",
				      o->names[i]);
	return buf;
}

static const struct ap_opt *find_exact(const struct ap_spec *s, const char *str,
				       const char **name)
{
	size_t i;
	int j;

	for (i = 0; i < s->nopts; i++)
		for (j = 0; j < 3 && s->opts[i].names[j]; j++)
			if (!strcmp(s->opts[i].names[j], str)) {
				*name = s->opts[i].names[j];
				return &s->opts[i];
			}
	return NULL;
}

static int neg_number(const char *a)
{
	const char *p = a + 1;

	if (*a != '-')
		return 0;
	while (*p >= '0' && *p <= '9')
		p++;
	if (!*p)
		return p > a + 1;
	if (*p != '.')
		return 0;
	if (!p[1])
		return 0;
	for (p++; *p >= '0' && *p <= '9'; p++)
		;
	return !*p;
}

/* How many options, from the first, may be abbreviated. */
static size_t nabbrev(const struct ap_spec *s)
{
	return s->nabbrev ? s->nabbrev : s->nopts;
}

/* A copy of s[0..n) (n = -1: all of s); dies without memory. */
static char *xstrndup(const char *s, size_t n)
{
	char *d = n == (size_t)-1 ? strdup(s) : strndup(s, n);

	if (!d)
		die(1, "out of memory");
	return d;
}

/*
 * How the option string n matches arg as an abbreviation: 0 not at all,
 * 1 as a prefix (prefix: arg up to its "=" for "--" arguments, all of arg
 * otherwise), 2 as a short option "-x" that arg starts with ("-xVALUE").
 */
static int abbrev_match(const char *n, const char *arg, const char *prefix)
{
	if (arg[1] != '-' && strlen(n) == 2 && !strncmp(n, arg, 2))
		return 2;
	return !strncmp(n, prefix, strlen(prefix));
}

/* argparse's message for an abbreviation that matches several options:
 * every candidate, in registration order. */
__attribute__((noreturn))
static void ambiguous(const struct ap_spec *s, const char *arg, const char *prefix)
{
	struct cgp_buf b = CGP_BUF_INIT(1 << 20);
	size_t i;
	int j;

	for (i = 0; i < nabbrev(s); i++)
		for (j = 0; j < 3 && s->opts[i].names[j]; j++)
			if (abbrev_match(s->opts[i].names[j], arg, prefix))
				cgp_buf_addf(&b, "%s%s", b.len ? ", " : "",
					     s->opts[i].names[j]);
	ap_usage_error(s, "ambiguous option: %s could match %s", arg, b.s ? b.s : "");
}

/* The option arg abbreviates (argparse's _get_option_tuples): 1 with *it
 * set if exactly one matches, 0 if none does; dies if several do. */
static int abbreviation(const struct ap_spec *s, const char *arg, const char *eq,
			struct item *it)
{
	char *prefix = xstrndup(arg, arg[1] == '-' && eq ? (size_t)(eq - arg)
							 : (size_t)-1);
	const char *expl = arg[1] == '-' && eq ? eq + 1 : NULL;
	size_t i, nmatch = 0;
	int j;

	for (i = 0; i < nabbrev(s); i++)
		for (j = 0; j < 3 && s->opts[i].names[j]; j++) {
			const char *n = s->opts[i].names[j];
			int m = abbrev_match(n, arg, prefix);
			if (m && !nmatch++)
				*it = (struct item){ 'O', &s->opts[i], n,
						     m == 2 ? arg + 2 : expl };
		}
	if (nmatch > 1)
		ambiguous(s, arg, prefix);
	free(prefix);
	return nmatch == 1;
}

/* argparse's _parse_optional. */
static void classify(const struct ap_spec *s, const char *arg, struct item *it)
{
	const char *eq, *name;

	memset(it, 0, sizeof *it);
	it->kind = 'A';
	if (arg[0] != '-')
		return;
	if ((it->opt = find_exact(s, arg, &name))) {
		it->kind = 'O';
		it->optstr = name;
		return;
	}
	if (!arg[1])
		return;
	eq = strchr(arg, '=');
	if (eq) {
		char *head = xstrndup(arg, (size_t)(eq - arg));
		it->opt = find_exact(s, head, &name);
		free(head);
		if (it->opt) {
			it->kind = 'O';
			it->optstr = name;
			it->explicit_arg = eq + 1;
			return;
		}
	}
	if (abbreviation(s, arg, eq, it))
		return;
	if (neg_number(arg))
		return;
	if (strchr(arg, ' '))
		return;
	it->kind = 'O';
	it->opt = NULL;
}

static void run_handler(const struct ap_spec *s, ap_handler h, void *ctx,
			const struct ap_opt *o, const char *optstr, const char *value)
{
	int free_it = 0;
	const char *msg = h(ctx, o->id, optstr, value, &free_it);

	if (msg)
		ap_usage_error(s, "argument %s: %s", opt_label(o), msg);
}

/* Lengths of the matches of the first k positionals against pat, greedy
 * with backtracking like Python's re; 1 if it matches. */
static int match_pos(const struct ap_pos *pos, size_t k, const char *pat,
		     size_t *lens)
{
	size_t a = 0, maxt = 0, t;

	if (k == 0)
		return 1;
	while (pat[a] == '-')
		a++;
	if (pat[a] != 'A')
		return 0;
	if (pos->plus)
		while (pat[a + 1 + maxt] == 'A' || pat[a + 1 + maxt] == '-')
			maxt++;
	else
		while (pat[a + 1 + maxt] == '-')
			maxt++;
	for (t = maxt + 1; t-- > 0;) {
		lens[0] = a + 1 + t;
		if (match_pos(pos + 1, k - 1, pat + lens[0], lens + 1))
			return 1;
	}
	return 0;
}

/* The state of ap_parse(): the arguments, what each was classified as
 * (pat: one kind letter per argument), and what was taken so far. */
struct parser {
	const struct ap_spec *s;
	ap_handler h;
	void *ctx;
	char **args;
	size_t n, start;             /* arguments; the next one to take */
	struct item *it;
	char *pat;
	char **out;                  /* positional values */
	size_t nout, posdone, *counts, *lens;
	const char **extras;         /* arguments nothing took */
	size_t nextras;
};

/* argparse's consume_positionals on the run of positionals at start:
 * 1 if positional arguments took some; else they become extras (argparse
 * keeps them for the "unrecognized" message) and 0 is returned. */
static int take_positionals(struct parser *ps)
{
	const struct ap_spec *s = ps->s;
	size_t k, j, used = 0, next = ps->start;

	while (next < ps->n && ps->pat[next] != 'O')
		next++;
	for (k = s->npos - ps->posdone; k > 0; k--)
		if (match_pos(s->pos + ps->posdone, k, ps->pat + ps->start, ps->lens))
			break;
	for (j = 0; j < k; j++) {
		size_t m, removed = 0, at = ps->start + used;
		ps->counts[ps->posdone + j] = 0;
		for (m = 0; m < ps->lens[j]; m++) {
			/* The first "--" of a value list is dropped. */
			if (!removed && !strcmp(ps->args[at + m], "--") &&
			    ps->pat[at + m] == '-') {
				removed = 1;
				continue;
			}
			ps->out[ps->nout++] = ps->args[at + m];
			ps->counts[ps->posdone + j]++;
		}
		used += ps->lens[j];
	}
	ps->posdone += k;
	ps->start += used;
	if (used)
		return 1;
	for (; ps->start < next; ps->start++)
		ps->extras[ps->nextras++] = ps->args[ps->start];
	return 0;
}

/* "ignored explicit argument" for a value given to a flag. */
__attribute__((noreturn))
static void ignored_argument(const struct ap_spec *s, const struct ap_opt *o,
			     const char *expl)
{
	ap_usage_error(s, "argument %s: ignored explicit argument %s", opt_label(o),
		       py_repr(expl));
}

/* argparse's consume_optional on the option at start: runs its handler
 * (for -xyz, one per flag glued together) and takes its value. */
static void take_optional(struct parser *ps)
{
	const struct ap_spec *s = ps->s;
	const struct item *x = &ps->it[ps->start];
	const struct ap_opt *o = x->opt;
	const char *expl = x->explicit_arg, *optstr = x->optstr;

	if (!o) {
		ps->extras[ps->nextras++] = ps->args[ps->start++];
		return;
	}
	while (expl && o->nargs == 0) {
		/* -xyz: flags glued together. */
		char sh[3] = { '-', expl[0], '\0' };
		const char *name;
		const struct ap_opt *o2;
		if (optstr[1] == '-' || !*expl)
			ignored_argument(s, o, expl);
		o2 = find_exact(s, sh, &name);
		if (!o2)
			ignored_argument(s, o, expl);
		run_handler(s, ps->h, ps->ctx, o, optstr, NULL);
		o = o2;
		optstr = name;
		expl = expl[1] ? expl + 1 : NULL;
	}
	if (expl) {
		run_handler(s, ps->h, ps->ctx, o, optstr, expl);
		ps->start++;
	} else if (o->nargs == 0 || o->nargs == AP_OPT_EQ) {
		run_handler(s, ps->h, ps->ctx, o, optstr, NULL);
		ps->start++;
	} else if (ps->start + 1 < ps->n && ps->pat[ps->start + 1] == 'A') {
		run_handler(s, ps->h, ps->ctx, o, optstr, ps->args[ps->start + 1]);
		ps->start += 2;
	} else {
		ap_usage_error(s, "argument %s: expected one argument", opt_label(o));
	}
}

/* The errors after all arguments were taken: a positional argument that
 * got nothing, or arguments nothing took. */
static void check_leftovers(const struct parser *ps)
{
	const struct ap_spec *s = ps->s;
	size_t i;

	if (ps->posdone < s->npos) {
		struct cgp_buf b = CGP_BUF_INIT(1 << 20);
		for (i = ps->posdone; i < s->npos; i++)
			cgp_buf_addf(&b, "%s%s", i > ps->posdone ? ", " : "", s->pos[i].name);
		ap_usage_error(s, "the following arguments are required: %s", b.s);
	}
	if (ps->nextras) {
		struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);
		for (i = 0; i < ps->nextras; i++)
			cgp_buf_addf(&b, "%s%s", i ? " " : "", ps->extras[i]);
		ap_usage_error(s, "unrecognized arguments: %s", b.s);
	}
}

void ap_parse(const struct ap_spec *s, int argc, char **argv, ap_handler h,
	      void *ctx, char ***vals, size_t *counts)
{
	size_t n = argc > 1 ? (size_t)argc - 1 : 0, i;
	struct parser ps = {
		.s = s, .h = h, .ctx = ctx, .args = argv + 1, .n = n,
		.it = xcalloc(n + 1, sizeof *ps.it), .pat = xmalloc(n + 1, 1),
		.out = xmalloc(n + 1, sizeof *ps.out), .counts = counts,
		.lens = xmalloc(s->npos + 1, sizeof *ps.lens),
		.extras = xmalloc(n + 1, sizeof *ps.extras),
	};
	int dashdash = 0;

	for (i = 0; i < n; i++) {
		if (dashdash) {
			ps.it[i].kind = 'A';
		} else if (!strcmp(ps.args[i], "--")) {
			ps.it[i].kind = '-';
			dashdash = 1;
		} else {
			classify(s, ps.args[i], &ps.it[i]);
		}
		ps.pat[i] = ps.it[i].kind;
	}
	ps.pat[n] = '\0';
	while (ps.start < n) {
		if (ps.pat[ps.start] != 'O' && !take_positionals(&ps) && ps.start >= n)
			break;
		if (ps.start < n && ps.pat[ps.start] == 'O')
			take_optional(&ps);
	}
	check_leftovers(&ps);
	free(ps.it);
	free(ps.pat);
	free(ps.extras);
	free(ps.lens);
	*vals = ps.out;
}
