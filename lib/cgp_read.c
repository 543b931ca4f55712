/* cgp_read.c -- reads Cachegrind output files into a profile, with each program's rules. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cgp.h"
#include "cgp_int.h"

/* Longest bad text quoted in a message. */
#define QUOTE_MAX 60

/* The rules of each program, as cgp.h describes them. */
static const struct cgp_rules rules_table[] = {
	[CGP_MODE_ANNOTATE] = {
		.line_numbers = 1,
		.fl_function = "<unspecified>",
		.names_make_entries = 1,
		.scratch_before_fl = 1,
		.keep_originals = 1,
		.lines = CGP_LINES_PER_FILE,
		.summary = CGP_SUMMARY_CHECK_EACH,
		.events_at_once = 1,
	},
	[CGP_MODE_MERGE] = {
		.line_numbers = 1,
		.fl_function = "???",
		.lines = CGP_LINES_PER_CC,
		.summary = CGP_SUMMARY_ADD,
		.keep_instrs = 1,
	},
	[CGP_MODE_DIFF] = {
		.line_numbers = 0,
		.fl_function = "???",
		.lines = CGP_LINES_NONE,
		.summary = CGP_SUMMARY_LAST,
	},
};

const struct cgp_rules *cgp_rules_of(enum cgp_mode mode)
{
	return &rules_table[mode];
}

/* The names of the Callgrind format's name compression in one file: the
 * IDs defined so far in one context (ob=; fl=, fi= and fe=; fn=) and
 * their names.  Open addressing on id + 1 (0: an empty slot). */
struct zmap {
	uint64_t *key;
	struct cgp_name_ent **name;
	size_t mask, n;
};

enum { Z_OB, Z_FL, Z_FN };

/* State of reading one file. */
struct rstate {
	struct cgp_profile *p;
	const struct cgp_rules *ru;  /* p->rules */
	const struct cgp_read_opts *o;
	struct cgp_reader r;
	struct cgp_input *in;
	struct cgp_error *err;
	unsigned nev;            /* this file's events */
	int accumulate;          /* events equal the profile's */
	int sign;                /* -1 for the negated file of a diff */
	struct cgp_name_ent *file;  /* current file (after --mod-filename) */
	const struct cgp_name *fn;
	unsigned flags;          /* CGP_CC_NOFILE / CGP_CC_NOFN */
	/* The file of the last fl= line, the function's own file, and its
	 * CGP_CC_NOFILE flag: fi= and fe= change the file of the count lines
	 * that follow, an fn= line goes back to this one. */
	struct cgp_name_ent *fn_file;
	unsigned fn_file_flags;
	long fn_cc;              /* the cost centre (fn_file, fn), -1 = look up */
	struct zmap zmap[3];     /* name compression, instruction-level files */
	long cc;                 /* current cost centre, -1 = look up */
	int64_t *counts;         /* this line's counts */
	int64_t *running;        /* total of this file so far, unless the
				    summary rule is CGP_SUMMARY_ADD */
	/* Counts of fast-path lines not yet in running and the current
	 * entry's totals (pending_sums()): */
	uint64_t *pend;          /* (wrapping: see flush_pending()) */
	uint64_t used, room;     /* a bound of each pending sum; how far
				    they may go without an overflow */
	int fast;                /* count lines may take the fast path */
	int nsummary;
	struct cgp_name_ent *fl_fn, *empty;  /* ru->fl_function, "" */
	/* Instruction-level files (positions: instr line): */
	long obj;                /* the current object, -1 before any ob= */
	struct cgp_name_ent *ob; /* the last ob= name, NULL before any */
	uint64_t addr;           /* the previous count line's address ... */
	int64_t line;            /* ... and line (subpositions are relative) */
};

static unsigned long long lineno(const struct rstate *s)
{
	return (unsigned long long)s->r.lineno;
}

static int perr(struct rstate *s, const char *what)
{
	return cgp_error_set(s->err, CGP_EPARSE, "%s:%llu: %s", s->r.path,
			     lineno(s), what);
}

/* Error quoting (a prefix of) the bad text t[0..n). */
static int perr_quote(struct rstate *s, const char *what, const char *t, size_t n)
{
	size_t q = cgp_utf8_cut(t, n, QUOTE_MAX);

	return cgp_error_set(s->err, CGP_EPARSE, "%s:%llu: %s '%.*s'%s",
			     s->r.path, lineno(s), what, (int)q, t,
			     q < n ? "..." : "");
}

/* Puts "file:line: " before the message already in s->err. */
static void at_this_line(struct rstate *s)
{
	char *m = strdup(s->err->msg ? s->err->msg : "");

	if (!m) {
		cgp_error_set(s->err, CGP_ENOMEM, "out of memory");
		return;
	}
	cgp_error_set(s->err, s->err->code, "%s:%llu: %s", s->r.path, lineno(s), m);
	free(m);
}

static int nomem(struct rstate *s)
{
	return cgp_error_set(s->err, CGP_ENOMEM, "out of memory");
}

static int overflow(struct rstate *s)
{
	return cgp_error_set(s->err, CGP_EOVERFLOW,
			     "%s:%llu: a count or total exceeds the 64-bit range",
			     s->r.path, lineno(s));
}

/* White space as Python str.split() sees it; ASCII decided by a table. */
static const unsigned char ascii_ws[256] = {
	['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1,
	[0x1c] = 1, [0x1d] = 1, [0x1e] = 1, [0x1f] = 1, [' '] = 1,
};

static size_t ws_len(const char *p, const char *e)
{
	unsigned char c = (unsigned char)*p;

	if (c < 0x80)
		return ascii_ws[c];
	return cgp_space_len(p, e);
}

static const char *skip_ws(const char *p, const char *e)
{
	size_t k;

	while (p < e && (k = ws_len(p, e)) > 0)
		p += k;
	return p;
}

static const char *skip_token(const char *p, const char *e)
{
	while (p < e && !ws_len(p, e))
		p++;
	return p;
}

/* Python re.match(KW + r"\s+(.*)", line): 1 with *rest set, or 0.  The
 * line's newline (if it had one) counts as the white space. */
static int keyword(const struct rstate *s, const char *line, size_t len,
		   const char *kw, const char **rest)
{
	size_t k = strlen(kw);
	const char *e = line + len;

	if (len < k || memcmp(line, kw, k))
		return 0;
	if (len == k) {
		*rest = e;
		return s->r.had_nl;
	}
	if (!ws_len(line + k, e))
		return 0;
	*rest = skip_ws(line + k, e);
	return 1;
}

/* One count token: fast path for plain digits, Python int() otherwise. */
static int parse_count(struct rstate *s, const char *t, const char *e,
		       int64_t *out)
{
	uint64_t v = 0;
	const char *p = t;
	int rc;

	while (p < e && (unsigned)(*p - '0') < 10 && v < 100000000000000000ull)
		v = v * 10 + (unsigned)(*p++ - '0');
	if (p == e) {
		*out = (int64_t)v;
		return 0;
	}
	rc = cgp_parse_int(t, (size_t)(e - t), out);
	if (rc == -2)
		return perr_quote(s, "count out of the 64-bit range",
				  t, (size_t)(e - t));
	if (rc)
		return perr_quote(s, "malformed count", t, (size_t)(e - t));
	return 0;
}

/*
 * The common case, as the tool writes it: ASCII digits separated by spaces
 * or tabs, at most 18 digits per number (so no overflow and line numbers
 * below 2^62).  Returns 1 when the line was of that form and is parsed,
 * 0 to let the general parser handle (or report) it.
 */
static int parse_counts_fast(struct rstate *s, const char *p, const char *e,
			     int64_t *line_no)
{
	unsigned i = 0;

	if (line_no) {
		const char *t = p;
		uint64_t v = 0;
		while (p < e && (unsigned)(*p - '0') < 10)
			v = v * 10 + (unsigned)(*p++ - '0');
		if (p - t > 18 || (p < e && *p != ' ' && *p != '\t'))
			return 0;
		*line_no = s->ru->line_numbers ? (int64_t)v : 0;
	}
	for (;;) {
		const char *t;
		uint64_t v = 0;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p == e)
			break;
		t = p;
		while (p < e && (unsigned)(*p - '0') < 10)
			v = v * 10 + (unsigned)(*p++ - '0');
		if (p == t || p - t > 18 || (p < e && *p != ' ' && *p != '\t') ||
		    i == s->nev)
			return 0;
		s->counts[i++] = (int64_t)v;
	}
	for (; i < s->nev; i++)
		s->counts[i] = 0;
	return 1;
}

/* Splits "LINE COUNT..." (or "summary:" counts when line_no is NULL). */
static int parse_counts(struct rstate *s, const char *p, const char *e,
			int64_t *line_no)
{
	unsigned i = 0;
	int rc;

	if (parse_counts_fast(s, p, e, line_no))
		return 0;
	if (line_no) {
		const char *t = p;
		p = skip_token(p, e);
		if (!s->ru->line_numbers) {
			*line_no = 0;
		} else {
			rc = cgp_parse_int(t, (size_t)(p - t), line_no);
			if (rc || *line_no > ((int64_t)1 << 62))
				return perr_quote(s, rc == -1 ? "malformed line number"
							      : "line number too large",
						  t, (size_t)(p - t));
		}
	}
	for (;;) {
		const char *t;
		p = skip_ws(p, e);
		if (p == e)
			break;
		t = p;
		p = skip_token(p, e);
		if (i == s->nev) {
			/* This token and the ones after it. */
			unsigned n = i + 1;
			for (p = skip_ws(p, e); p < e; p = skip_ws(p, e)) {
				p = skip_token(p, e);
				n++;
			}
			return cgp_error_set(s->err, CGP_EPARSE,
					     "%s:%llu: too many event counts (%u for %u events)",
					     s->r.path, lineno(s), n, s->nev);
		}
		rc = parse_count(s, t, p, &s->counts[i]);
		if (rc)
			return rc;
		i++;
	}
	for (; i < s->nev; i++)
		s->counts[i] = 0;
	return 0;
}

/* A NUMBER of the Callgrind format, t[0..n): "0x" and hex digits, or
 * decimal digits; 0, or -1 if it is not one or exceeds 64 bits. */
static int parse_number(const char *t, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;
	int hex = n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');

	if (hex)
		i = 2;
	if (i == n)
		return -1;
	for (; i < n; i++) {
		unsigned d;
		char c = t[i];
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (hex && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (hex && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -1;
		if (v > (UINT64_MAX - d) / (hex ? 16 : 10))
			return -1;
		v = v * (hex ? 16 : 10) + d;
	}
	*out = v;
	return 0;
}

/* A subposition t[0..n) (NUMBER, "+" NUMBER, "-" NUMBER or "*") relative
 * to prev, into *out; 0, or -1 if it is malformed or leaves [0, max]. */
static int parse_subposition(const char *t, size_t n, uint64_t prev,
			     uint64_t max, uint64_t *out)
{
	uint64_t v;

	if (n == 1 && t[0] == '*') {
		*out = prev;
		return 0;
	}
	if (t[0] == '+' || t[0] == '-') {
		if (parse_number(t + 1, n - 1, &v))
			return -1;
		if (t[0] == '+' ? v > max || prev > max - v : v > prev)
			return -1;
		*out = t[0] == '+' ? prev + v : prev - v;
		return 0;
	}
	if (parse_number(t, n, &v) || v > max)
		return -1;
	*out = v;
	return 0;
}

/* The address and line that start a count line of an instruction-level
 * file, p[0..e); *p is moved past them. */
static int parse_instr_pos(struct rstate *s, const char **p, const char *e,
			   uint64_t *addr, int64_t *line)
{
	const char *t = *p, *te = skip_token(t, e);
	uint64_t ln;

	if (parse_subposition(t, (size_t)(te - t), s->addr, UINT64_MAX, addr))
		return perr_quote(s, "malformed instruction address", t, (size_t)(te - t));
	t = skip_ws(te, e);
	te = skip_token(t, e);
	if (t == te)
		return perr(s, "missing line number after the instruction address");
	if (parse_subposition(t, (size_t)(te - t), (uint64_t)s->line,
			      (uint64_t)1 << 62, &ln))
		return perr_quote(s, "malformed line number", t, (size_t)(te - t));
	*line = (int64_t)ln;
	*p = te;
	return 0;
}

/* Applies --mod-filename (which = 0) or --mod-funcname (1) to a name. */
static struct cgp_name_ent *mod_name(struct rstate *s, struct cgp_name_ent *orig,
				     int which)
{
	const struct cgp_subst *x = which ? s->o->mod_fn : s->o->mod_fl;
	struct cgp_name_ent *m;

	if (!x)
		return orig;
	if (orig->mod[which])
		return orig->mod[which];
	cgp_buf_reset(&s->p->tmp);
	if (cgp_subst_apply(x, orig->name.s, orig->name.len, &s->p->tmp, s->err)) {
		/* Matching failed (the match limit): say where. */
		if (s->err->code != CGP_ENOMEM)
			at_this_line(s);
		return NULL;
	}
	m = cgp_names_intern(&s->p->tab.names, s->p->tmp.s ? s->p->tmp.s : "",
			     s->p->tmp.len);
	if (!m) {
		nomem(s);
		return NULL;
	}
	orig->mod[which] = m;
	return m;
}

static struct cgp_name_ent *intern(struct rstate *s, const char *t, size_t n)
{
	struct cgp_name_ent *x = cgp_names_intern(&s->p->tab.names, t, n);

	if (!x)
		nomem(s);
	return x;
}

/* The slot of key (id + 1) in z: where it is, or the empty one where it
 * goes. */
static size_t zmap_slot(const struct zmap *z, uint64_t key)
{
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & z->mask;

	while (z->key[i] && z->key[i] != key)
		i = (i + 1) & z->mask;
	return i;
}

/* Maps ID id to name in z (a new definition replaces an old one, as in
 * callgrind_annotate); 0, or -1 without memory. */
static int zmap_put(struct zmap *z, uint64_t id, struct cgp_name_ent *name)
{
	size_t i;

	if (2 * (z->n + 1) > (z->key ? z->mask + 1 : 0)) {
		size_t cap = z->key ? 2 * (z->mask + 1) : 64, j;
		struct zmap nz;
		nz.key = calloc(cap, sizeof *nz.key);
		nz.name = calloc(cap, sizeof *nz.name);
		nz.mask = cap - 1;
		nz.n = z->n;
		if (!nz.key || !nz.name) {
			free(nz.key);
			free(nz.name);
			return -1;
		}
		for (j = 0; z->key && j <= z->mask; j++)
			if (z->key[j]) {
				i = zmap_slot(&nz, z->key[j]);
				nz.key[i] = z->key[j];
				nz.name[i] = z->name[j];
			}
		free(z->key);
		free(z->name);
		*z = nz;
	}
	i = zmap_slot(z, id + 1);
	z->n += !z->key[i];
	z->key[i] = id + 1;
	z->name[i] = name;
	return 0;
}

/*
 * The Callgrind format's name compression (instruction-level files only):
 * a name "(ID) NAME" (white space between optional) is NAME, and makes ID
 * stand for NAME in its context (ctx: Z_OB, Z_FL, Z_FN) for the rest of
 * the file; a name "(ID)" is the name ID stands for.  So a name that
 * starts with "(" and a digit is never a name as it is: the writers put
 * "(ID) " before such names.  *name and *n are set to the name meant
 * (interned, for a reference); 0, or an error.
 */
static int unzip_name(struct rstate *s, int ctx, const char **name, size_t *n)
{
	const char *t = *name, *e = t + *n, *p = t + 1;
	struct cgp_name_ent *x;
	uint64_t id = 0;

	if (!s->in->instr || *n < 2 || t[0] != '(' || (unsigned)(t[1] - '0') > 9)
		return 0;
	for (; p < e && (unsigned)(*p - '0') <= 9; p++) {
		if (id > (UINT64_MAX - 1 - (unsigned)(*p - '0')) / 10)
			return perr_quote(s, "name compression ID out of range", t, *n);
		id = id * 10 + (unsigned)(*p - '0');
	}
	if (p == e || *p != ')')
		return perr_quote(s, "malformed name compression", t, *n);
	p = skip_ws(p + 1, e);
	if (p < e) {
		*name = p;
		*n = (size_t)(e - p);
		if (!(x = intern(s, p, *n)))
			return s->err->code;
		return zmap_put(&s->zmap[ctx], id, x) ? nomem(s) : 0;
	}
	x = s->zmap[ctx].key ? s->zmap[ctx].name[zmap_slot(&s->zmap[ctx], id + 1)] : NULL;
	if (!x)
		return perr_quote(s, "undefined name compression ID", t, *n);
	*name = x->name.s;
	*n = x->name.len;
	return 0;
}

/* Makes (file, fn, flags) current, creating it. */
static int set_cc(struct rstate *s)
{
	s->cc = cgp_table_cc(&s->p->tab, s->file, s->fn, s->flags);
	return s->cc < 0 ? nomem(s) : 0;
}

/*
 * The name of an fl= (which = 0) or fn= (1) line: interned (even in a file
 * that is not accumulated, so that a bad name is found there too) and
 * mapped by --mod-filename or --mod-funcname.  Returns 1 with *orig and *m
 * set, 0 when the file is not accumulated, or a negative code.
 */
static int take_name(struct rstate *s, const char *name, size_t n, int which,
		     struct cgp_name_ent **orig, struct cgp_name_ent **m)
{
	int rc = unzip_name(s, which ? Z_FN : Z_FL, &name, &n);

	if (rc)
		return rc;
	*orig = intern(s, name, n);
	if (!*orig)
		return s->err->code;
	if (!s->accumulate)
		return 0;
	*m = mod_name(s, *orig, which);
	return *m ? 1 : s->err->code;
}

/* Lists orig among the original names of file entry m, once. */
static int keep_original(struct rstate *s, struct cgp_name_ent *orig,
			 struct cgp_name_ent *m)
{
	long fi;
	struct cgp_file *f;

	if (orig->orig_kept)
		return 0;
	fi = cgp_table_file(&s->p->tab, m);
	if (fi < 0)
		return nomem(s);
	f = &s->p->tab.file[fi];
	if (cgp_grow_array((void **)&f->orig, &f->origcap, f->norig, sizeof *f->orig))
		return nomem(s);
	f->orig[f->norig++] = &orig->name;
	orig->orig_kept = 1;
	return 0;
}

static int on_fl(struct rstate *s, const char *name, size_t n)
{
	struct cgp_name_ent *orig, *m;
	int rc = take_name(s, name, n, 0, &orig, &m);

	if (rc <= 0)
		return rc;
	s->file = s->fn_file = m;
	s->flags = s->fn_file_flags = 0;
	s->cc = s->fn_cc = -1;
	s->fn = &s->fl_fn->name;
	if (s->ru->keep_originals && (rc = keep_original(s, orig, m)))
		return rc;
	return s->ru->names_make_entries ? set_cc(s) : 0;
}

/* fi= or fe= (instruction-level only): the file of the count lines that
 * follow, in the same function (inlined code); the Callgrind format's
 * meaning. */
static int on_fi(struct rstate *s, const char *name, size_t n)
{
	struct cgp_name_ent *orig, *m;
	const struct cgp_name *fn;
	int rc = take_name(s, name, n, 0, &orig, &m);

	if (rc <= 0)
		return rc;
	s->file = m;
	s->flags &= ~CGP_CC_NOFILE;
	s->cc = -1;
	if (s->ru->keep_originals && (rc = keep_original(s, orig, m)))
		return rc;
	if (!s->ru->names_make_entries)
		return 0;
	/* The entries that "fl=" of the file and "fn=" of the function
	 * again would make: (file, fl_function) too, as in the line-level
	 * profile of the same counts. */
	fn = s->fn;
	s->fn = &s->fl_fn->name;
	rc = set_cc(s);
	s->fn = fn;
	s->cc = -1;
	return rc ? rc : set_cc(s);
}

static int on_fn(struct rstate *s, const char *name, size_t n)
{
	struct cgp_name_ent *orig, *m;
	int rc = take_name(s, name, n, 1, &orig, &m);

	if (rc <= 0)
		return rc;
	/* A function's code is in its fl= file until an fi= line says
	 * otherwise (as KCachegrind reads it). */
	s->file = s->fn_file;
	s->flags = (s->flags & ~(CGP_CC_NOFN | CGP_CC_NOFILE)) | s->fn_file_flags;
	s->fn = &m->name;
	s->cc = s->fn_cc = -1;
	return s->ru->names_make_entries ? set_cc(s) : 0;
}

/* The object of the count lines that follow an ob= line (or come before
 * any): (its name, no build-id), unless a build-id line made it already. */
static int current_object(struct rstate *s)
{
	struct cgp_name_ent *name = s->ob;

	if (s->obj >= 0)
		return 0;
	if (!name && !(name = intern(s, "???", 3)))
		return s->err->code;
	s->obj = cgp_table_object(&s->p->tab, name, NULL);
	return s->obj < 0 ? nomem(s) : 0;
}

static int on_ob(struct rstate *s, const char *name, size_t n)
{
	int rc = unzip_name(s, Z_OB, &name, &n);

	if (rc)
		return rc;
	if (!(s->ob = intern(s, name, n)))
		return s->err->code;
	s->obj = -1;
	return 0;
}

/* "# build-id: HEX" right after an ob= line: the object is (name, HEX). */
static int on_build_id(struct rstate *s, const char *hex, size_t n)
{
	struct cgp_name_ent *id;
	size_t i;

	for (i = 0; i < n; i++)
		if (!((hex[i] >= '0' && hex[i] <= '9') || (hex[i] >= 'a' && hex[i] <= 'f')))
			break;
	if (n == 0 || n % 2 || i < n)
		return perr_quote(s, "malformed build-id", hex, n);
	if (!(id = intern(s, hex, n)))
		return s->err->code;
	s->obj = cgp_table_object(&s->p->tab, s->ob, &id->name);
	return s->obj < 0 ? nomem(s) : 0;
}

/* Adds this line's counts to the instruction row (line, object, addr) of
 * cost centre c. */
static int add_instr(struct rstate *s, struct cgp_cc *c, int64_t line,
		     uint64_t addr)
{
	int rc = current_object(s);

	if (rc)
		return rc;
	if (!c->instrs && !(c->instrs = cgp_table_lines(&s->p->tab)))
		return nomem(s);
	rc = cgp_instrs_add(c->instrs, s->nev, line, (uint32_t)s->obj, addr,
			    (uint32_t)s->fn_cc, s->counts, s->sign);
	if (rc == CGP_EOVERFLOW)
		return overflow(s);
	return rc ? nomem(s) : 0;
}

/* Parses a count line: "LINE COUNT..." or, in an instruction-level file,
 * "ADDR LINE COUNT...". */
static int parse_count_line(struct rstate *s, const char *line, size_t len,
			    int64_t *ln, uint64_t *addr)
{
	const char *p = line;
	int rc;

	if (!s->in->instr)
		return parse_counts(s, line, line + len, ln);
	if ((rc = parse_instr_pos(s, &p, line + len, addr, ln)) ||
	    (rc = parse_counts(s, p, line + len, NULL)))
		return rc;
	s->addr = *addr;
	s->line = *ln;
	if (!s->ru->line_numbers)
		*ln = 0;
	return 0;
}

/* Adds this line's counts to the running total and to entry c's totals
 * (subtracted for a negated file); 0 or an error. */
static int add_totals(struct rstate *s, struct cgp_cc *c)
{
	if (s->running && cgp_vec_add(s->running, s->counts, s->nev))
		return overflow(s);
	if (s->sign > 0 ? cgp_vec_add(c->total, s->counts, s->nev)
			: cgp_vec_sub(c->total, s->counts, s->nev))
		return overflow(s);
	return 0;
}

/* Adds this line's counts (line ln, at addr; all in [0, bound] if bound
 * is not UINT64_MAX) to the line tables of entry c, as the rules say. */
static int add_lines(struct rstate *s, struct cgp_cc *c, int64_t ln, uint64_t addr,
		     uint64_t bound)
{
	int rc = 0;

	if (ln > 0 && (ln < c->line_lo || !c->line_lo))
		c->line_lo = ln;
	switch (s->ru->lines) {
	case CGP_LINES_PER_FILE:
		if (s->flags & CGP_CC_NOFILE)
			return 0;
		rc = cgp_lines_add_bounded(&s->p->tab.file[s->file->file].lines, s->nev,
					   ln, s->counts, s->sign, bound);
		break;
	case CGP_LINES_PER_CC:
		if (!c->lines && !(c->lines = cgp_table_lines(&s->p->tab)))
			return nomem(s);
		rc = cgp_lines_add_bounded(c->lines, s->nev, ln, s->counts, s->sign, bound);
		break;
	case CGP_LINES_NONE:
		break;
	}
	if (rc == CGP_EOVERFLOW)
		return overflow(s);
	if (rc)
		return nomem(s);
	return s->p->keep_instrs && s->in->instr ? add_instr(s, c, ln, addr) : 0;
}

/* Adds this line's counts (line ln, at addr) where the rules keep them. */
static int add_counts(struct rstate *s, int64_t ln, uint64_t addr)
{
	struct cgp_cc *c;
	int rc;

	/* An instruction row keeps its function's cost centre, made first
	 * (so functions come in the order they are first seen). */
	if (s->p->keep_instrs && s->in->instr && s->fn_cc < 0) {
		s->fn_cc = cgp_table_cc(&s->p->tab, s->fn_file, s->fn,
					(s->flags & ~CGP_CC_NOFILE) | s->fn_file_flags);
		if (s->fn_cc < 0)
			return nomem(s);
	}
	if (s->cc < 0 && set_cc(s))
		return s->err->code;
	c = &s->p->tab.cc[s->cc];
	if ((rc = add_totals(s, c)))
		return rc;
	return add_lines(s, c, ln, addr, UINT64_MAX);
}

static int on_count(struct rstate *s, const char *line, size_t len)
{
	int64_t ln;
	uint64_t addr = 0;
	int rc = parse_count_line(s, line, len, &ln, &addr);

	if (rc || !s->accumulate)
		return rc;
	return add_counts(s, ln, addr);
}

/*
 * Pending sums.  A fast-path line's counts are below 10^18, never
 * negative, and most of them small, so instead of two checked additions
 * per count (the running total and the entry's totals) they go into one
 * vector of pending sums, unchecked, while a bound says no sum can leave
 * the int64 range: "used" bounds every pending sum (it grows by an upper
 * bound of the line's counts) and "room" is what the running total and
 * the totals could still take.  Every other line starts by adding the
 * pending sums (flush_pending()), so every check and every message sees
 * the same totals, at the same line, as without them; a line that would
 * exceed the room takes the checked path, which reports an overflow at
 * that line as before.
 */

/* How far the entry c's totals and the running total are from the end of
 * the int64 range in the direction of this file's sign. */
static uint64_t headroom(const struct rstate *s, const struct cgp_cc *c)
{
	uint64_t room = UINT64_MAX, h;
	unsigned i;

	for (i = 0; i < s->nev; i++) {
		h = s->sign > 0 ? (uint64_t)INT64_MAX - (uint64_t)c->total[i]
				: (uint64_t)c->total[i] - (uint64_t)INT64_MIN;
		if (h < room)
			room = h;
		if (s->running && (h = (uint64_t)INT64_MAX - (uint64_t)s->running[i]) < room)
			room = h;
	}
	return room;
}

/* Adds the pending sums to the running total and the current entry's
 * totals (never overflows: see above) and empties them. */
static void flush_pending(struct rstate *s)
{
	int64_t *t;
	unsigned i;

	if (!s->used)
		return;
	t = s->p->tab.cc[s->cc].total;
	for (i = 0; i < s->nev; i++) {
		/* A pending sum may pass INT64_MAX when the total it goes to
		 * is negative: the sums are right modulo 2^64, and so in
		 * range. */
		if (s->running)
			s->running[i] = (int64_t)((uint64_t)s->running[i] + s->pend[i]);
		t[i] = (int64_t)(s->sign > 0 ? (uint64_t)t[i] + s->pend[i]
					     : (uint64_t)t[i] - s->pend[i]);
		s->pend[i] = 0;
	}
	s->used = s->room = 0;
}

/* Adds this line's counts to the pending sums (sign 1), or takes them out
 * again (-1). */
static void pend_line(struct rstate *s, int sign)
{
	unsigned i;

	for (i = 0; i < s->nev; i++)
		s->pend[i] += sign > 0 ? (uint64_t)s->counts[i] : 0 - (uint64_t)s->counts[i];
}

/* A fast-path line's counts (each at most bound), line ln; the parser
 * added them to the pending sums already (out again if the line does not
 * fit). */
static int add_fast(struct rstate *s, int64_t ln, uint64_t bound)
{
	if (s->cc < 0 && set_cc(s))
		return s->err->code;
	if (bound > s->room - s->used) {
		pend_line(s, -1);
		flush_pending(s);
		s->room = headroom(s, &s->p->tab.cc[s->cc]);
		if (bound > s->room)
			return add_counts(s, ln, 0);
		pend_line(s, 1);
	}
	s->used += bound;
	return add_lines(s, &s->p->tab.cc[s->cc], ln, 0, bound);
}

/* Powers of ten up to 10^8, to join the digits of a long number. */
static const uint64_t pow10_8[9] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
};

/* The rest of a number whose first 8 digits, at p, are *v: the text after
 * it, or NULL when it has more than 18 digits. */
static const char *fast_long_number(const char *p, uint64_t *v)
{
	unsigned total = 8, n;

	do {
		uint64_t x = cgp_load8(p + total);
		n = cgp_swar_ndigits(x);
		if (n)
			*v = *v * pow10_8[n] + cgp_swar_value(x, n);
		total += n;
	} while (n == 8 && total < 24);
	return total > 18 ? NULL : p + total;
}

/* The ASCII digits at p as a number of at most 18 digits: the text after
 * them with *v set, or NULL (no digit, or too many).  Reads at most 24
 * bytes from p; a byte that is not a digit stops it. */
static const char *fast_number(const char *p, uint64_t *v)
{
	uint64_t x = cgp_load8(p);
	unsigned n = cgp_swar_ndigits(x);

	if (n == 0)
		return NULL;
	*v = cgp_swar_value(x, n);
	return n < 8 ? p + n : fast_long_number(p, v);
}

/* Four counts of one digit each at p, each followed by a space (the
 * last by a space or the line's "\n"), in one 64-bit word: 1 with c[0..4)
 * set, else 0. */
static int fast_four(const char *p, int64_t *c)
{
	const uint64_t odd = 0xff00ff00ff00ff00ull, hi = 0x00f000f000f000f0ull;
	const uint64_t three = 0x0030003000300030ull;
	uint64_t x = cgp_load8(p), sep = x & odd, d = x & ~odd;

	if ((sep != 0x2000200020002000ull && sep != 0x0a00200020002000ull) ||
	    (d & hi) != three || ((d + 0x0006000600060006ull) & hi) != three)
		return 0;
	c[0] = (int64_t)(d & 15);
	c[1] = (int64_t)(d >> 16 & 15);
	c[2] = (int64_t)(d >> 32 & 15);
	c[3] = (int64_t)(d >> 48 & 15);
	return 1;
}

/* The count at p, which follows a space: a single digit before a space
 * or the line's end (the most common count by far), else fast_number(). */
static const char *fast_count_at(const char *p, uint64_t *v)
{
	unsigned d = (unsigned)((unsigned char)*p - '0');

	if (d < 10 && (p[1] == ' ' || p[1] == '\n')) {
		*v = d;
		return p + 1;
	}
	return fast_number(p, v);
}

/* The counts of a fast-path line, after its line number, at p, each added
 * to the pending sums as it is read: the end of the last, or NULL where
 * one is not of the fast path's form; *n counts were read either way, and
 * *all is their bitwise or. */
static const char *fast_counts(struct rstate *s, const char *p, unsigned *n,
			       uint64_t *all)
{
	int64_t *c = s->counts;
	uint64_t *pend = s->pend, v;
	unsigned i = 0, nev = s->nev;

	while (*p++ == ' ') {
		if (i + 4 <= nev && fast_four(p, c + i)) {
			pend[i] += (uint64_t)c[i];
			pend[i + 1] += (uint64_t)c[i + 1];
			pend[i + 2] += (uint64_t)c[i + 2];
			pend[i + 3] += (uint64_t)c[i + 3];
			p += 7;
			i += 4;
			*all |= 15;
			continue;
		}
		if (i == nev || !(p = fast_count_at(p, &v))) {
			*n = i;
			return NULL;
		}
		c[i] = (int64_t)v;
		pend[i++] += v;
		*all |= v;
	}
	*n = i;
	return p - 1;
}

/*
 * The count line at line, in the reader's buffer, if it is of the form the
 * tool writes: a line number and at most nev counts of at most 18 ASCII
 * digits, each after one space, the line ending in "\n" right after the
 * last digit.  Returns its length with the "\n", the line number in *ln,
 * the counts parsed and in *bound a number no count exceeds (their bitwise
 * or); or 0 for anything else (tabs, a "\r", the end of
 * the bytes in the buffer, whose zero bytes stop every scan here, a line
 * too long), which the general path reads as before.
 */
static size_t fast_count_line(struct rstate *s, const char *line, int64_t *ln,
			      uint64_t *bound)
{
	const char *p = line;
	uint64_t v, all = 0;
	unsigned i;

	if (!(p = fast_number(p, &v)))
		return 0;
	*ln = s->ru->line_numbers ? (int64_t)v : 0;
	p = fast_counts(s, p, &i, &all);
	for (; i < s->nev; i++)
		s->counts[i] = 0;
	if (!p || *p != '\n' || (size_t)(p - line) > s->r.maxline) {
		pend_line(s, -1);
		return 0;
	}
	*bound = all;
	return (size_t)(p - line) + 1;
}

/* Takes the next line if the fast path can: 1 with *rc the result of
 * adding its counts, or 0 to read it the general way. */
static int fast_count(struct rstate *s, int *rc)
{
	const char *p;
	size_t n = cgp_reader_peek(&s->r, &p);
	int64_t ln;
	uint64_t bound;

	if (!s->fast || !n || (unsigned)(*p - '0') >= 10 ||
	    !(n = fast_count_line(s, p, &ln, &bound)))
		return 0;
	cgp_reader_take(&s->r, n);
	if (!s->accumulate)
		pend_line(s, -1);
	*rc = s->accumulate ? add_fast(s, ln, bound) : 0;
	return 1;
}

static int mismatch(struct rstate *s, const int64_t *sum, const int64_t *computed,
		    const char *l1, const char *l2)
{
	struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);
	int rc;

	if (cgp_buf_addf(&b, "%s:%llu: `summary:` line doesn't match computed total\n%s",
			 s->r.path, lineno(s), l1) ||
	    cgp_buf_add_pylist(&b, sum, s->nev) || cgp_buf_adds(&b, "\n") ||
	    cgp_buf_adds(&b, l2) || cgp_buf_add_pylist(&b, computed, s->nev)) {
		cgp_buf_release(&b);
		return nomem(s);
	}
	rc = cgp_error_set(s->err, CGP_EPARSE, "%s", b.s);
	cgp_buf_release(&b);
	return rc;
}

static int on_summary(struct rstate *s, const char *rest, const char *e)
{
	unsigned i;
	int rc = parse_counts(s, rest, e, NULL);

	if (rc)
		return rc;
	s->nsummary++;
	if (!s->accumulate)
		return 0;
	if (s->ru->summary == CGP_SUMMARY_LAST) {
		memcpy(s->in->summary, s->counts, s->nev * sizeof *s->counts);
		return 0;
	}
	for (i = 0; i < s->nev; i++) {
		int64_t v;
		if (s->sign > 0 ? __builtin_add_overflow(s->p->summary[i], s->counts[i], &v)
				: __builtin_sub_overflow(s->p->summary[i], s->counts[i], &v))
			return overflow(s);
		s->p->summary[i] = v;
	}
	if (s->ru->summary == CGP_SUMMARY_CHECK_EACH &&
	    memcmp(s->counts, s->running, s->nev * sizeof *s->counts))
		return mismatch(s, s->counts, s->running, "- summary:  ", "- computed: ");
	return 0;
}

/* CGP_SUMMARY_LAST: at end of file the sum of all counts must equal the
 * last summary: line, which then becomes the profile's summary. */
static int check_last_summary(struct rstate *s)
{
	size_t i;
	unsigned k;
	int64_t *sum = s->running;

	memset(sum, 0, s->nev * sizeof *sum);
	for (i = 0; i < s->p->tab.ncc; i++)
		for (k = 0; k < s->nev; k++)
			if (cgp_add(&sum[k], s->p->tab.cc[i].total[k]))
				return overflow(s);
	if (memcmp(sum, s->in->summary, s->nev * sizeof *sum))
		return mismatch(s, s->in->summary, sum, "- summary: ", "- total:   ");
	memcpy(s->p->summary, s->in->summary, s->nev * sizeof *sum);
	return 0;
}

static char *dup_text(const char *t, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, t, n);
		d[n] = '\0';
	}
	return d;
}

/* The next line of the profile: 1, 0 at end of file, or an error.  Names
 * and texts are C strings here, so a NUL byte (which no Cachegrind output
 * contains) is an error rather than a silent truncation. */
static int get_line(struct rstate *s, const char **line, size_t *len)
{
	int rc = cgp_reader_next(&s->r, line, len, s->err);

	if (rc > 0 && memchr(*line, '\0', *len))
		return perr(s, "NUL byte in the line");
	return rc;
}

static int next_line(struct rstate *s, const char **line, size_t *len)
{
	int rc = get_line(s, line, len);

	if (rc == 0) {
		*line = "";
		*len = 0;
	}
	return rc;
}

int cgp_events_equal(char *const *a, unsigned na, char *const *b, unsigned nb)
{
	unsigned i;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++)
		if (strcmp(a[i], b[i]))
			return 0;
	return 1;
}

int cgp_error_events(struct cgp_error *err, const char *path1, const char *path2)
{
	return cgp_error_set(err, CGP_EEVENTS, "events in data files don't match (%s and %s)",
			     path1, path2);
}

/* The desc: lines and the cmd: line.  0 with *line, *len set to the line
 * after them, or an error. */
static int read_desc_cmd(struct rstate *s, const char **line, size_t *len)
{
	const char *rest;
	int rc;
	struct cgp_buf desc = CGP_BUF_INIT(SIZE_MAX / 2);

	for (;;) {
		rc = next_line(s, line, len);
		if (rc < 0) {
			cgp_buf_release(&desc);
			return rc;
		}
		if (!keyword(s, *line, *len, "desc:", &rest))
			break;
		if (cgp_buf_add(&desc, rest, (size_t)(*line + *len - rest)) ||
		    cgp_buf_add(&desc, "\n", 1)) {
			cgp_buf_release(&desc);
			return nomem(s);
		}
		s->in->ndesc++;
	}
	s->in->desc = desc.s ? desc.s : dup_text("", 0);
	if (!s->in->desc)
		return nomem(s);
	if (!keyword(s, *line, *len, "cmd:", &rest))
		return perr(s, "missing a `cmd:` line");
	if (!(s->in->cmd = dup_text(rest, (size_t)(*line + *len - rest))))
		return nomem(s);
	rc = next_line(s, line, len);
	return rc < 0 ? rc : 0;
}

/* An optional positions: line, line[0..len): 1 if it is one (and is
 * "line" or "instr line"), 0 if the line is something else, or an error. */
static int read_positions(struct rstate *s, const char *line, size_t len)
{
	const char *rest, *e = line + len, *t;

	if (!keyword(s, line, len, "positions:", &rest))
		return 0;
	t = rest;
	rest = skip_token(rest, e);
	if (rest - t == 5 && !memcmp(t, "instr", 5)) {
		s->in->instr = 1;
		t = skip_ws(rest, e);
		rest = skip_token(t, e);
	}
	if (rest - t != 4 || memcmp(t, "line", 4) || skip_ws(rest, e) != e)
		return perr_quote(s, "unsupported `positions:` line (only `line` and "
				  "`instr line` are read)", line, len);
	return 1;
}

/* The event names of the events: line line[0..len). */
static int read_events(struct rstate *s, const char *line, size_t len)
{
	const char *rest, *e = line + len;
	size_t evcap = 0;

	if (!keyword(s, line, len, "events:", &rest))
		return perr(s, "missing an `events:` line");
	for (rest = skip_ws(rest, e); rest < e; rest = skip_ws(rest, e)) {
		const char *t = rest;
		rest = skip_token(rest, e);
		if (s->in->nev == CGP_MAX_EVENTS)
			return cgp_error_set(s->err, CGP_EPARSE,
					     "%s:%llu: too many events (at most %u)",
					     s->r.path, lineno(s), CGP_MAX_EVENTS);
		if (cgp_grow_array((void **)&s->in->events, &evcap, s->in->nev,
				   sizeof *s->in->events) ||
		    !(s->in->events[s->in->nev] = dup_text(t, (size_t)(rest - t))))
			return nomem(s);
		s->in->nev++;
	}
	if (s->in->nev == 0)
		return perr(s, "no event names on the `events:` line");
	s->nev = s->in->nev;
	return 0;
}

/* The first file sets the profile's events; a later one must have the
 * same (rule events_at_once), or is not accumulated and reported at the
 * end. */
static int join_profile(struct rstate *s)
{
	if (s->p->nin == 1) {
		s->p->nev = s->nev;
		s->p->events = s->in->events;
		s->p->instr = s->in->instr;
		s->p->keep_instrs = s->ru->keep_instrs || s->o->keep_instrs;
		cgp_table_init(&s->p->tab, s->nev);
		if (!(s->p->summary = calloc(s->nev, sizeof *s->p->summary)))
			return nomem(s);
	} else if (!cgp_events_equal(s->p->events, s->p->nev, s->in->events,
				     s->in->nev)) {
		if (s->ru->events_at_once)
			return cgp_error_events(s->err, s->p->in[0].path, s->in->path);
		s->accumulate = 0;
	}
	if (s->p->keep_instrs && s->in->instr != s->p->instr)
		return cgp_error_set(s->err, CGP_EPARSE,
				     "%s:%llu: %s-level profile and the %s-level %s cannot be "
				     "merged at instruction level",
				     s->r.path, lineno(s), s->in->instr ? "an instruction" : "a line",
				     s->p->instr ? "instruction" : "line", s->p->in[0].path);
	return 0;
}

static int read_header(struct rstate *s)
{
	const char *line;
	size_t len;
	int rc;

	if ((rc = read_desc_cmd(s, &line, &len)) ||
	    (rc = read_positions(s, line, len)) < 0)
		return rc;
	if (rc && (rc = next_line(s, &line, &len)) < 0)
		return rc;
	if ((rc = read_events(s, line, len)))
		return rc;
	if (s->o->check_events &&
	    (rc = s->o->check_events(s->o->ctx, s->in->events, s->in->nev, s->err)))
		return rc;
	return join_profile(s);
}

static int read_body(struct rstate *s)
{
	const char *line, *rest;
	size_t len;
	int rc;

	static const char build_id[] = "# build-id: ";
	int instr = s->in->instr, after_ob = 0;

	for (;;) {
		if (fast_count(s, &rc)) {
			if (rc)
				return rc;
			after_ob = 0;
			continue;
		}
		flush_pending(s);
		if ((rc = get_line(s, &line, &len)) <= 0)
			break;
		if (len && ((unsigned)(line[0] - '0') < 10 ||
			    (instr && (line[0] == '+' || line[0] == '-' || line[0] == '*'))))
			rc = on_count(s, line, len);
		else if (len >= 3 && line[0] == 'f' && line[2] == '=' && line[1] == 'n')
			rc = on_fn(s, line + 3, len - 3);
		else if (len >= 3 && line[0] == 'f' && line[2] == '=' && line[1] == 'l')
			rc = on_fl(s, line + 3, len - 3);
		else if (instr && len >= 3 && !memcmp(line, "ob=", 3))
			rc = on_ob(s, line + 3, len - 3);
		else if (instr && len >= 3 && line[0] == 'f' && line[2] == '=' &&
			 (line[1] == 'i' || line[1] == 'e'))
			rc = on_fi(s, line + 3, len - 3);
		else if (keyword(s, line, len, "summary:", &rest))
			rc = on_summary(s, rest, line + len);
		else if (after_ob && len >= sizeof build_id - 1 &&
			 !memcmp(line, build_id, sizeof build_id - 1))
			rc = on_build_id(s, line + sizeof build_id - 1,
					 len - (sizeof build_id - 1));
		else if (len == 0 || line[0] == '#')
			rc = 0;
		else
			rc = perr_quote(s, "malformed line", line, len);
		if (rc)
			return rc;
		after_ob = instr && len >= 3 && !memcmp(line, "ob=", 3);
	}
	if (rc < 0)
		return rc;
	if (!s->nsummary)
		return perr(s, "missing `summary:` line, aborting");
	if (!s->accumulate)
		return cgp_error_events(s->err, s->p->in[0].path, s->in->path);
	if (s->ru->summary == CGP_SUMMARY_LAST)
		return check_last_summary(s);
	return 0;
}

void cgp_profile_init(struct cgp_profile *p, enum cgp_mode mode)
{
	memset(p, 0, sizeof *p);
	p->rules = cgp_rules_of(mode);
	p->tmp.max = CGP_MAX_LINE;
}

/* The file's header and body, once it is open. */
static int read_file(struct rstate *s)
{
	int rc = read_header(s);

	if (rc)
		return rc;
	s->counts = calloc(s->nev, sizeof *s->counts);
	s->pend = calloc(s->nev, sizeof *s->pend);
	/* Summary: lines that are only added up need no running total. */
	if (s->ru->summary != CGP_SUMMARY_ADD)
		s->running = calloc(s->nev, sizeof *s->running);
	s->in->summary = calloc(s->nev, sizeof *s->in->summary);
	if (!s->counts || !s->pend || (s->ru->summary != CGP_SUMMARY_ADD && !s->running) ||
	    !s->in->summary)
		return nomem(s);
	if (!(s->fl_fn = intern(s, s->ru->fl_function, strlen(s->ru->fl_function))) ||
	    !(s->empty = intern(s, "", 0)))
		return s->err->code;
	/* Instruction-level count lines start with an address. */
	s->fast = !s->in->instr && !s->o->general_only;
	/* Before any fl= the file is "" (or a scratch entry). */
	s->file = s->fn_file = s->empty;
	s->fn = &s->empty->name;
	s->fn_cc = -1;
	if (s->ru->scratch_before_fl)
		s->flags = CGP_CC_NOFILE | CGP_CC_NOFN;
	s->fn_file_flags = s->flags & CGP_CC_NOFILE;
	return read_body(s);
}

/*
 * A mapped file (cgp_reader_map()) that another program truncates while
 * it is read raises SIGBUS where this one reads past the new end.  While
 * such a file is read, the handler below jumps back to read_mapped(),
 * which reports the file as unreadable; a SIGBUS anywhere else gets the
 * action it had before, as without the handler (a fault by faulting again,
 * a SIGBUS another process sent -- kill -BUS -- by being raised again: it
 * was lost, and the program went on).  Library state, set and cleared
 * by read_mapped() (one file is read at a time): where to jump, and the
 * mapping's bounds.
 */
static sigjmp_buf *bus_jump;
static const char *bus_lo, *bus_hi;
static struct sigaction bus_old;  /* the action before read_mapped()'s */

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	const char *a = si->si_addr;
	int sent = si->si_code <= 0;     /* SI_USER, SI_TKILL, SI_QUEUE ... */

	(void)ctx;
	if (!sent && bus_jump && a >= bus_lo && a < bus_hi)
		siglongjmp(*bus_jump, 1);
	if (sent && !(bus_old.sa_flags & SA_SIGINFO) && bus_old.sa_handler == SIG_IGN)
		return;                  /* ignored before: still ignored */
	sigaction(sig, &bus_old, NULL);  /* a fault: the access faults again */
	if (sent)
		raise(sig);              /* delivered when the handler returns */
}

/* The error after a SIGBUS on the mapped file: what it became. */
static int lost_file(struct rstate *s)
{
	struct stat st;

	if (fstat(s->r.fd, &st) == 0 && (uint64_t)st.st_size < s->r.end)
		return cgp_error_set(s->err, CGP_EIO, "cannot read '%s': the file shrank "
				     "while it was read", s->r.path);
	return cgp_error_sys(s->err, CGP_EIO, EIO, "cannot read '%s'", s->r.path);
}

/* read_file() of a mapped file, with SIGBUS on the mapping caught. */
static int read_mapped(struct rstate *s)
{
	struct sigaction sa;
	sigjmp_buf jump;
	int rc;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &bus_old))
		return cgp_error_sys(s->err, CGP_EIO, errno, "cannot read '%s'", s->r.path);
	if (sigsetjmp(jump, 1)) {
		rc = lost_file(s);
	} else {
		bus_lo = s->r.buf;
		bus_hi = s->r.buf + s->r.maplen;
		bus_jump = &jump;
		rc = read_file(s);
	}
	bus_jump = NULL;
	sigaction(SIGBUS, &bus_old, NULL);
	return rc;
}

int cgp_profile_read(struct cgp_profile *p, const char *path,
		     const struct cgp_read_opts *o, struct cgp_error *err)
{
	struct rstate s;
	int rc, z;

	memset(&s, 0, sizeof s);
	s.p = p;
	s.ru = p->rules;
	s.o = o;
	s.err = err;
	s.accumulate = 1;
	s.sign = o->negate ? -1 : 1;
	s.cc = -1;
	s.obj = -1;
	if (cgp_grow_array((void **)&p->in, &p->incap, p->nin, sizeof *p->in))
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	s.in = &p->in[p->nin++];
	memset(s.in, 0, sizeof *s.in);
	if (!(s.in->path = dup_text(path, strlen(path))))
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	rc = cgp_reader_open(&s.r, s.in->path, CGP_MAX_LINE, err);
	if (rc)
		return rc;
	s.in->mtime_ns = s.r.mtime_ns;
	/* A chunk size (the tests' small reads) asks for read(2). */
	if (o->read_chunk)
		s.r.chunk = o->read_chunk;
	if (!o->read_chunk && cgp_reader_map(&s.r))
		rc = read_mapped(&s);
	else
		rc = read_file(&s);
	free(s.counts);
	free(s.pend);
	free(s.running);
	for (z = 0; z < 3; z++) {
		free(s.zmap[z].key);
		free(s.zmap[z].name);
	}
	cgp_reader_release(&s.r);
	return rc;
}

void cgp_profile_release(struct cgp_profile *p)
{
	size_t i;
	unsigned k;

	for (i = 0; i < p->nin; i++) {
		struct cgp_input *in = &p->in[i];
		free(in->path);
		free(in->desc);
		free(in->cmd);
		for (k = 0; k < in->nev; k++)
			free(in->events[k]);
		free(in->events);
		free(in->summary);
	}
	free(p->in);
	free(p->summary);
	if (p->own_events) {
		for (k = 0; k < p->nev; k++)
			free(p->own_events[k]);
		free(p->own_events);
	}
	cgp_table_release(&p->tab);
	cgp_buf_release(&p->tmp);
	memset(p, 0, sizeof *p);
}
