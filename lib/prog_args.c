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

/* argparse's _parse_optional. */
static void classify(const struct ap_spec *s, const char *arg, struct item *it)
{
	const char *eq, *name;
	size_t i, nmatch = 0;
	int j;
	char *prefix;
	struct item found = { 'O', NULL, NULL, NULL };

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
		char *head = strndup(arg, (size_t)(eq - arg));
		if (!head)
			die(1, "out of memory");
		it->opt = find_exact(s, head, &name);
		free(head);
		if (it->opt) {
			it->kind = 'O';
			it->optstr = name;
			it->explicit_arg = eq + 1;
			return;
		}
	}
	/* Abbreviations. */
	if (arg[1] == '-') {
		const char *expl = eq ? eq + 1 : NULL;
		prefix = eq ? strndup(arg, (size_t)(eq - arg)) : strdup(arg);
		if (!prefix)
			die(1, "out of memory");
		for (i = 0; i < nabbrev(s); i++)
			for (j = 0; j < 3 && s->opts[i].names[j]; j++)
				if (!strncmp(s->opts[i].names[j], prefix, strlen(prefix))) {
					if (!nmatch++)
						found = (struct item){ 'O', &s->opts[i],
								       s->opts[i].names[j], expl };
				}
	} else {
		prefix = strdup(arg);
		if (!prefix)
			die(1, "out of memory");
		for (i = 0; i < nabbrev(s); i++)
			for (j = 0; j < 3 && s->opts[i].names[j]; j++) {
				const char *n = s->opts[i].names[j];
				if (strlen(n) == 2 && !strncmp(n, arg, 2)) {
					if (!nmatch++)
						found = (struct item){ 'O', &s->opts[i], n,
								       arg + 2 };
				} else if (!strncmp(n, prefix, strlen(prefix))) {
					if (!nmatch++)
						found = (struct item){ 'O', &s->opts[i], n,
								       NULL };
				}
			}
	}
	if (nmatch > 1) {
		/* List every candidate, in registration order. */
		struct cgp_buf b = CGP_BUF_INIT(1 << 20);
		for (i = 0; i < nabbrev(s); i++)
			for (j = 0; j < 3 && s->opts[i].names[j]; j++) {
				const char *n = s->opts[i].names[j];
				int m = arg[1] == '-' ? !strncmp(n, prefix, strlen(prefix))
						      : (strlen(n) == 2 && !strncmp(n, arg, 2)) ||
							!strncmp(n, prefix, strlen(prefix));
				if (m)
					cgp_buf_addf(&b, "%s%s", b.len ? ", " : "", n);
			}
		ap_usage_error(s, "ambiguous option: %s could match %s", arg,
			       b.s ? b.s : "");
	}
	free(prefix);
	if (nmatch == 1) {
		*it = found;
		return;
	}
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

void ap_parse(const struct ap_spec *s, int argc, char **argv, ap_handler h,
	      void *ctx, char ***vals, size_t *counts)
{
	size_t n = argc > 1 ? (size_t)argc - 1 : 0, i, start = 0;
	struct item *it = xcalloc(n + 1, sizeof *it);
	char *pat = xmalloc(n + 1, 1);
	char **args = argv + 1;
	char **out = xmalloc(n + 1, sizeof *out);
	const char **extras = xmalloc(n + 1, sizeof *extras);
	size_t nextras = 0, nout = 0, posdone = 0, *lens = xmalloc(s->npos + 1, sizeof *lens);
	int dashdash = 0;

	for (i = 0; i < n; i++) {
		if (dashdash) {
			it[i].kind = 'A';
		} else if (!strcmp(args[i], "--")) {
			it[i].kind = '-';
			dashdash = 1;
		} else {
			classify(s, args[i], &it[i]);
		}
		pat[i] = it[i].kind;
	}
	pat[n] = '\0';

	while (start < n) {
		size_t next = start;
		while (next < n && pat[next] != 'O')
			next++;
		if (next > start) {
			/* consume_positionals */
			size_t k, used = 0, j;
			for (k = s->npos - posdone; k > 0; k--)
				if (match_pos(s->pos + posdone, k, pat + start, lens))
					break;
			for (j = 0; j < k; j++) {
				size_t m, removed = 0;
				counts[posdone + j] = 0;
				for (m = 0; m < lens[j]; m++) {
					const char *a = args[start + used + m];
					if (!removed && !strcmp(a, "--") &&
					    pat[start + used + m] == '-') {
						removed = 1;
						continue;
					}
					out[nout++] = (char *)a;
					counts[posdone + j]++;
				}
				used += lens[j];
			}
			posdone += k;
			if (used) {
				start += used;
				continue;
			}
			/* Not taken by positionals: extras (argparse keeps
			 * them for the "unrecognized" message). */
			for (; start < next; start++)
				extras[nextras++] = args[start];
			if (start >= n)
				break;
		}
		/* consume_optional */
		{
			struct item *x = &it[start];
			const struct ap_opt *o = x->opt;
			const char *expl = x->explicit_arg, *optstr = x->optstr;
			if (!o) {
				extras[nextras++] = args[start++];
				continue;
			}
			for (;;) {
				if (expl && o->nargs == 0) {
					char sh[3];
					const char *name;
					const struct ap_opt *o2;
					if (optstr[1] == '-' || !*expl) {
						char *r = py_repr(expl);
						ap_usage_error(s, "argument %s: ignored explicit argument %s",
							       opt_label(o), r);
					}
					/* -xyz: flags glued together. */
					sh[0] = '-', sh[1] = expl[0], sh[2] = '\0';
					o2 = find_exact(s, sh, &name);
					if (!o2) {
						char *r = py_repr(expl);
						ap_usage_error(s, "argument %s: ignored explicit argument %s",
							       opt_label(o), r);
					}
					run_handler(s, h, ctx, o, optstr, NULL);
					o = o2;
					optstr = name;
					expl = expl[1] ? expl + 1 : NULL;
					continue;
				}
				if (expl) {
					run_handler(s, h, ctx, o, optstr, expl);
					start++;
				} else if (o->nargs == 0) {
					run_handler(s, h, ctx, o, optstr, NULL);
					start++;
				} else if (start + 1 < n && pat[start + 1] == 'A') {
					run_handler(s, h, ctx, o, optstr, args[start + 1]);
					start += 2;
				} else {
					ap_usage_error(s, "argument %s: expected one argument",
						       opt_label(o));
				}
				break;
			}
		}
	}
	if (posdone < s->npos) {
		struct cgp_buf b = CGP_BUF_INIT(1 << 20);
		for (i = posdone; i < s->npos; i++)
			cgp_buf_addf(&b, "%s%s", i > posdone ? ", " : "", s->pos[i].name);
		ap_usage_error(s, "the following arguments are required: %s", b.s);
	}
	if (nextras) {
		struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);
		for (i = 0; i < nextras; i++)
			cgp_buf_addf(&b, "%s%s", i ? " " : "", extras[i]);
		ap_usage_error(s, "unrecognized arguments: %s", b.s);
	}
	free(it);
	free(pat);
	free(extras);
	free(lens);
	*vals = out;
}
