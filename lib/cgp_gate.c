/* cgp_gate.c -- regression limits (--fail-above): parsing, exact evaluation on the model, the verdicts and the ranked table of changes. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * A limit mant/10^scale is compared with the change without rounding:
 * for a percentage, change * 100 * 10^scale > mant * |old|; for an
 * absolute limit, change * 10^scale > mant * unit (unit 1000 for a ratio
 * event, whose values are in thousandths).  Both sides fit in 128 bits:
 * |change| < 2^64, 100 * 10^18 < 2^67, mant < 10^18 < 2^60, unit <= 2^10.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "cgp_model.h"

typedef __int128 i128;

static int bad(struct cgp_error *err, const char *spec, const char *what)
{
	return cgp_error_set(err, CGP_EUSAGE, "--fail-above=%s: %s", spec, what);
}

/* [+-]DIGITS[.DIGITS][%] into mant, scale, percent; 0 or -1. */
static int parse_amount(const char *s, struct cgp_limit *l)
{
	int neg = 0, digits = 0, frac = -1;
	int64_t v = 0;

	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	for (; *s; s++) {
		if (*s == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (*s < '0' || *s > '9')
			break;
		if (++digits > 18)
			return -1;
		v = v * 10 + (*s - '0');
		if (frac >= 0)
			frac++;
	}
	if (!digits || frac == 0)
		return -1;
	l->percent = *s == '%';
	if (l->percent)
		s++;
	if (*s)
		return -1;
	l->mant = neg ? -v : v;
	l->scale = frac > 0 ? (unsigned)frac : 0;
	return 0;
}

int cgp_limit_parse(struct cgp_limit *l, const char *spec, struct cgp_error *err)
{
	const char *c2 = strrchr(spec, ':'), *c1, *ev;
	int rc;

	memset(l, 0, sizeof *l);
	if (!c2 || c2 == spec)
		return bad(err, spec, "not of the form [fn=REGEX:|fl=REGEX:]EVENT:LIMIT "
				      "(e.g. Ir:+0.5% or Ir:+20000)");
	for (c1 = c2; c1 > spec && c1[-1] != ':'; c1--)
		;
	ev = c1;
	if (c1 > spec) {
		/* A scope before EVENT. */
		size_t n = (size_t)(c1 - 1 - spec), k = 3;
		if (n >= 8 && !memcmp(spec, "each-fn=", 8)) {
			l->scope = 'e';
			k = 8;
		} else if (n >= 3 && (!memcmp(spec, "fn=", 3) || !memcmp(spec, "fl=", 3))) {
			l->scope = spec[1] == 'n' ? 'n' : 'l';
		} else {
			struct cgp_buf b = CGP_BUF_INIT(1 << 20);
			cgp_buf_addf(&b, "bad scope '%.*s' (fn=REGEX, fl=REGEX or each-fn=REGEX)",
				     (int)n, spec);
			rc = bad(err, spec, b.s ? b.s : "bad scope");
			cgp_buf_release(&b);
			return rc;
		}
		if (!(l->regex = strndup(spec + k, n - k)))
			return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	}
	if (ev == c2) {
		cgp_limit_release(l);
		return bad(err, spec, "missing the event name before the limit");
	}
	if (!(l->event = strndup(ev, (size_t)(c2 - ev))) || !(l->spec = strdup(spec))) {
		cgp_limit_release(l);
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	}
	if (parse_amount(c2 + 1, l)) {
		struct cgp_buf b = CGP_BUF_INIT(1 << 20);
		cgp_buf_addf(&b, "bad limit '%s' (a number of at most 18 digits, such as "
				 "+0.5%% or +20000)", c2 + 1);
		rc = bad(err, spec, b.s ? b.s : "bad limit");
		cgp_buf_release(&b);
		cgp_limit_release(l);
		return rc;
	}
	if (l->regex) {
		int ecode;
		PCRE2_SIZE eoff;
		uint32_t opts = PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF;
		if (!cgp_utf8_valid(l->regex, strlen(l->regex))) {
			cgp_limit_release(l);
			return bad(err, spec, "invalid UTF-8 in the regular expression");
		}
		l->re = pcre2_compile((PCRE2_SPTR)l->regex, PCRE2_ZERO_TERMINATED, opts,
				      &ecode, &eoff, NULL);
		if (!l->re) {
			PCRE2_UCHAR msg[256];
			struct cgp_buf b = CGP_BUF_INIT(1 << 20);
			pcre2_get_error_message(ecode, msg, sizeof msg);
			cgp_buf_addf(&b, "bad regular expression '%s': %s at offset %zu",
				     l->regex, (char *)msg, (size_t)eoff);
			rc = bad(err, spec, b.s ? b.s : "bad regular expression");
			cgp_buf_release(&b);
			cgp_limit_release(l);
			return rc;
		}
	}
	return 0;
}

void cgp_limit_release(struct cgp_limit *l)
{
	free(l->spec);
	free(l->regex);
	free(l->event);
	pcre2_code_free(l->re);
	memset(l, 0, sizeof *l);
}

static i128 pow10_128(unsigned n)
{
	i128 p = 1;

	while (n--)
		p *= 10;
	return p;
}

/* Does the scope of l take row r?  1, 0, or -1 when matching failed. */
static int in_scope(const struct cgp_model *m, const struct cgp_limit *l,
		    const struct cgp_mrow *r, pcre2_match_data *md)
{
	int byfn = l->scope != 'l';
	const struct cgp_name *n = byfn ? r->fn : r->file;
	int rc;
	unsigned k;

	if (r->flags & (byfn ? CGP_CC_NOFN : CGP_CC_NOFILE))
		return 0;
	/* A row without a count in either profile is no function a limit
	 * checks: cg_annotate's reader makes one for every fl= line
	 * (upstream's "<unspecified>" function of the file, with zero
	 * counts), and a profile may list a function that did not run. */
	for (k = 0; k < m->nrec; k++)
		if (r->v[k] || r->v[m->ncol + k])
			break;
	if (k == m->nrec)
		return 0;
	rc = pcre2_match(l->re, (PCRE2_SPTR)n->s, n->len, 0, 0, md, NULL);
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	return rc < 0 ? -1 : 1;
}

/* The old and new values of l's event over its scope, into l. */
static int scope_values(const struct cgp_model *m, struct cgp_limit *l,
			struct cgp_error *err)
{
	int64_t *v;
	pcre2_match_data *md;
	size_t i;
	unsigned k;
	int rc = 0;

	if (!l->scope) {
		l->old = m->total[l->col];
		l->new = m->total[m->ncol + l->col];
		l->nmatch = m->nrow;
		return 0;
	}
	v = calloc(3 * (size_t)m->ncol, sizeof *v);
	md = pcre2_match_data_create_from_pattern(l->re, NULL);
	if (!v || !md) {
		free(v);
		pcre2_match_data_free(md);
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	}
	for (i = 0; i < m->nrow && !rc; i++) {
		int in = in_scope(m, l, &m->row[i], md);
		if (in < 0) {
			rc = bad(err, l->spec, "the regular expression failed (match limit)");
			break;
		}
		if (!in)
			continue;
		l->nmatch++;
		for (k = 0; k < m->nrec && !rc; k++)
			if (cgp_add(&v[k], m->row[i].v[k]) ||
			    cgp_add(&v[m->ncol + k], m->row[i].v[m->ncol + k]))
				rc = cgp_error_set(err, CGP_EOVERFLOW,
						   "--fail-above=%s: a total exceeds the 64-bit range",
						   l->spec);
	}
	if (!rc && !(rc = cgp_model_derive(m, v, err)) &&
	    !(rc = cgp_model_derive(m, v + m->ncol, err))) {
		l->old = v[l->col];
		l->new = v[m->ncol + l->col];
	}
	free(v);
	pcre2_match_data_free(md);
	return rc;
}

static int find_col(const struct cgp_model *m, struct cgp_limit *l, struct cgp_error *err)
{
	struct cgp_buf b = CGP_BUF_INIT(1 << 20);
	unsigned k;

	for (k = 0; k < m->ncol; k++)
		if (!strcmp(m->events[k], l->event)) {
			l->col = k;
			return 0;
		}
	for (k = 0; k < m->ncol; k++)
		cgp_buf_addf(&b, "%s%s", k ? " " : "", m->events[k]);
	cgp_error_set(err, CGP_EUSAGE, "--fail-above=%s: unknown event '%s' (events: %s)",
		      l->spec, l->event, b.s ? b.s : "");
	cgp_buf_release(&b);
	return CGP_EUSAGE;
}

/* Is old -> new beyond x?  *allowed set to the limit in the event's
 * units, held to the 64-bit range (a percentage of a large value may
 * pass it; the comparison itself is exact).  A ratio without an old
 * value (CGP_NA) counts as 0, as in the model's delta. */
static int beyond(const struct cgp_model *m, const struct cgp_limit *x, int64_t old,
		  int64_t delta, int64_t *allowed)
{
	i128 unit = m->ratio[x->col] ? 1000 : 1, p10 = pow10_128(x->scale), lhs, rhs, base, al, den;

	if (m->ratio[x->col] && old == CGP_NA)
		old = 0;
	if (x->percent) {
		base = old < 0 ? -(i128)old : (i128)old;
		lhs = (i128)delta * 100 * p10;
		rhs = (i128)x->mant * base;
		den = 100 * p10;
	} else {
		lhs = (i128)delta * p10;
		rhs = (i128)x->mant * unit;
		den = p10;
	}
	/* Rounded down, also below zero (C's division rounds toward zero),
	 * so that a change passes exactly when it is at most the limit shown:
	 * -1% of 1,001 is -10.01, shown as -11, not -10. */
	al = rhs / den;
	if (rhs % den != 0 && rhs < 0)
		al -= 1;
	*allowed = al > INT64_MAX ? INT64_MAX : al < -INT64_MAX ? -INT64_MAX : (int64_t)al;
	return lhs > rhs;
}

/* each-fn=: the limit holds for every matching function separately; the
 * result is that of the worst one (the first exceeding one with the
 * biggest change, or without any, the biggest change). */
static int each_fn(const struct cgp_model *m, struct cgp_limit *x, struct cgp_error *err)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(x->re, NULL);
	size_t i;
	int best_ex = -1;

	if (!md)
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	x->worst = -1;
	for (i = 0; i < m->nrow; i++) {
		const int64_t *v = m->row[i].v;
		int64_t o = v[x->col], nw = v[m->ncol + x->col], d = v[2 * m->ncol + x->col], al;
		int in = in_scope(m, x, &m->row[i], md), ex;
		if (in < 0) {
			pcre2_match_data_free(md);
			return bad(err, x->spec, "the regular expression failed (match limit)");
		}
		if (!in)
			continue;
		x->nmatch++;
		if (m->ratio[x->col] && d == CGP_NA)
			continue;   /* no value on either side */
		ex = beyond(m, x, o, d, &al);
		if (x->worst < 0 || ex > best_ex || (ex == best_ex && d > x->delta)) {
			x->worst = (long)i;
			best_ex = ex;
			x->old = o, x->new = nw, x->delta = d, x->allowed = al;
			x->exceeded = ex;
		}
	}
	pcre2_match_data_free(md);
	return 0;
}

long cgp_gate_eval(const struct cgp_model *m, struct cgp_limit *l, size_t n,
		   struct cgp_error *err)
{
	size_t i;
	long exceeded = 0;
	int rc;

	if (!m->diff)
		return cgp_error_set(err, CGP_EUSAGE, "--fail-above needs two profiles to compare");
	for (i = 0; i < n; i++)
		if ((rc = find_col(m, &l[i], err)))
			return rc;
	for (i = 0; i < n; i++) {
		struct cgp_limit *x = &l[i];
		if (x->scope == 'e') {
			if ((rc = each_fn(m, x, err)))
				return rc;
			/* A gate that checks nothing must not pass: a scope that
			 * is a typo, or a ratio no function has. */
			if (!x->nmatch)
				return bad(err, x->spec, "its scope matches no function of "
							 "either profile");
			if (x->worst < 0)
				return bad(err, x->spec, "its value cannot be computed for any "
							 "function of its scope (its formula "
							 "divides by zero)");
			exceeded += x->exceeded;
			continue;
		}
		x->worst = -1;
		if ((rc = scope_values(m, x, err)))
			return rc;
		if (x->scope && !x->nmatch)
			return bad(err, x->spec, "its scope matches no function of either "
						 "profile");
		if (m->ratio[x->col] && x->old == CGP_NA && x->new == CGP_NA)
			return bad(err, x->spec, "its value cannot be computed in either "
						 "profile (its formula divides by zero)");
		if (cgp_model_delta(m, x->col, x->old, x->new, &x->delta))
			return cgp_error_set(err, CGP_EOVERFLOW,
					     "--fail-above=%s: the change exceeds the 64-bit range",
					     x->spec);
		x->exceeded = beyond(m, x, x->old, x->delta, &x->allowed);
		exceeded += x->exceeded;
	}
	return exceeded;
}

/* ------------------------------------------------------------------------ */
/* The ranked table                                                          */
/* ------------------------------------------------------------------------ */

unsigned cgp_gate_columns(const struct cgp_limit *l, size_t n, unsigned *cols)
{
	unsigned nc = 0, j;
	size_t i;

	for (i = 0; i < n; i++) {
		for (j = 0; j < nc && cols[j] != l[i].col; j++)
			;
		if (j == nc)
			cols[nc++] = l[i].col;
	}
	return nc;
}

/* A row of the ranked table with its sort keys (the magnitudes of the
 * gated deltas), extracted once: sorting 100,000 rows compares often. */
struct ranked {
	uint64_t first;               /* key[0], where the sort looks first */
	const struct cgp_mrow *r;
	size_t idx;
	const uint64_t *key;
};

static unsigned rank_ncols;   /* keys per row, for cmp_rank() */

static int cmp_rank(const void *p, const void *q)
{
	const struct ranked *x = p, *y = q;
	unsigned i;
	int c;

	if (x->first != y->first)
		return x->first < y->first ? 1 : -1;
	for (i = 1; i < rank_ncols; i++)
		if (x->key[i] != y->key[i])
			return x->key[i] < y->key[i] ? 1 : -1;
	c = cgp_name_cmp(x->r->file, y->r->file);
	return c ? c : cgp_name_cmp(x->r->fn, y->r->fn);
}

/* The best max of rk[0..k) in cmp_rank() order, moved to rk[0..max): the
 * text table shows 20 rows of 100,000, which need no full sort.  As the
 * stable sort would: an equal row stays after the rows before it. */
static void rank_top(struct ranked *rk, size_t k, size_t max)
{
	size_t i, n = 0, j;

	for (i = 0; i < k; i++) {
		struct ranked x = rk[i];
		if (n == max && cmp_rank(&x, &rk[max - 1]) >= 0)
			continue;
		for (j = n < max ? n++ : max - 1; j > 0 && cmp_rank(&x, &rk[j - 1]) < 0; j--)
			rk[j] = rk[j - 1];
		rk[j] = x;
	}
}

/* cgp_gate_ranked(), the first max rows only in *out (all are counted). */
static long ranked(const struct cgp_model *m, const struct cgp_limit *l, size_t n,
		   size_t max, size_t **out)
{
	unsigned *cols = malloc((n + 1) * sizeof *cols), nc, j;
	size_t *idx = malloc((m->nrow + 1) * sizeof *idx), i, k = 0;
	struct ranked *rk = malloc((m->nrow + 1) * sizeof *rk);
	uint64_t *keys = malloc((m->nrow * (n + 1) + 1) * sizeof *keys);

	*out = NULL;
	if (!cols || !idx || !rk || !keys) {
		free(cols);
		free(idx);
		free(rk);
		free(keys);
		return -1;
	}
	nc = cgp_gate_columns(l, n, cols);
	for (i = 0; i < m->nrow; i++) {
		uint64_t *key = keys + k * nc, any = 0;
		for (j = 0; j < nc; j++)
			any |= key[j] = cgp_model_mag(m, cols[j],
						       m->row[i].v[2 * m->ncol + cols[j]]);
		if (!any)
			continue;
		rk[k].first = key[0];
		rk[k].r = &m->row[i];
		rk[k].idx = i;
		rk[k++].key = key;
	}
	rank_ncols = nc;
	if (k > max && max > 0)
		rank_top(rk, k, max);
	else
		qsort(rk, k, sizeof *rk, cmp_rank);
	for (i = 0; i < k && i < max; i++)
		idx[i] = rk[i].idx;
	free(cols);
	free(rk);
	free(keys);
	*out = idx;
	return (long)k;
}

long cgp_gate_ranked(const struct cgp_model *m, const struct cgp_limit *l, size_t n,
		     size_t **out)
{
	return ranked(m, l, n, SIZE_MAX, out);
}

void cgp_gate_cells(const struct cgp_model *m, const int64_t *v, unsigned k,
		    char cell[4][48])
{
	int64_t o = v[k], nw = v[m->ncol + k], d = v[2 * m->ncol + k];
	size_t len;

	cgp_model_fmt(m, k, o, 1, cell[0]);
	cgp_model_fmt(m, k, nw, 1, cell[1]);
	if (d > 0) {
		cell[2][0] = '+';
		cgp_model_fmt(m, k, d, 1, cell[2] + 1);
	} else {
		cgp_model_fmt(m, k, d, 1, cell[2]);
	}
	if (m->ratio[k] && o == CGP_NA)
		o = 0;   /* as in the delta */
	if (m->ratio[k] && d == CGP_NA)
		len = (size_t)snprintf(cell[3], 48, "n/a");
	else if (o == 0)
		len = (size_t)snprintf(cell[3], 48, "%s", d ? "new" : "");
	else if (d == 0)
		len = (size_t)snprintf(cell[3], 48, "0.0%%");
	else
		len = (size_t)snprintf(cell[3], 48, "%+.1f%%",
				       (double)d * 100.0 / (o < 0 ? -(double)o : (double)o));
	(void)len;
}

/* s right-aligned in w columns. */
static void rjust(struct cgp_buf *b, const char *s, size_t w)
{
	size_t n = strlen(s);

	while (n < w--)
		cgp_buf_add(b, " ", 1);
	cgp_buf_add(b, s, n);
}

/* The offset of the character after the first k of s[0..len). */
static size_t skip_chars(const char *s, size_t len, size_t k)
{
	size_t i = 0, q;

	while (k-- && i < len) {
		q = (unsigned char)s[i] < 0x80 ? 1 : cgp_utf8_seq(s + i, len - i);
		i += q ? q : 1;
	}
	return i;
}

/* The label of a row: "file:function", cut at the left to w columns. */
static void put_label(struct cgp_buf *b, const struct cgp_mrow *r, size_t w)
{
	/* Columns as the tables count them (cgp_utf8_len: a character of
	 * valid UTF-8, or an invalid byte, each one). */
	size_t fl = r->file->len, fnl = r->fn->len;
	size_t flc = cgp_utf8_len(r->file->s, fl), fnc = cgp_utf8_len(r->fn->s, fnl);

	if (flc + 1 + fnc <= w || w < 8) {
		cgp_buf_add(b, r->file->s, fl);
		cgp_buf_add(b, ":", 1);
		cgp_buf_add(b, r->fn->s, fnl);
		return;
	}
	cgp_buf_add(b, "...", 3);
	w -= 3;
	if (w > fnc) {
		size_t from = skip_chars(r->file->s, fl, flc - (w - fnc - 1));
		cgp_buf_add(b, r->file->s + from, fl - from);
		cgp_buf_add(b, ":", 1);
		cgp_buf_add(b, r->fn->s, fnl);
	} else {
		size_t from = skip_chars(r->fn->s, fnl, fnc - w);
		cgp_buf_add(b, r->fn->s + from, fnl - from);
	}
}

static void put_verdict(struct cgp_buf *b, const struct cgp_model *m,
			const struct cgp_limit *x)
{
	char o[48], nw[48], d[48], a[48], pc[48];

	cgp_model_fmt(m, x->col, x->old, 1, o);
	cgp_model_fmt(m, x->col, x->new, 1, nw);
	cgp_model_fmt(m, x->col, x->delta, 1, d);
	cgp_model_fmt(m, x->col, x->allowed, 1, a);
	if (x->old && !(m->ratio[x->col] && x->old == CGP_NA))
		snprintf(pc, sizeof pc, " (%+.2f%%)",
			 (double)x->delta * 100.0 / (x->old < 0 ? -(double)x->old : (double)x->old));
	else
		pc[0] = '\0';
	cgp_buf_addf(b, "%s  %s", x->exceeded ? "EXCEEDED" : "ok      ", x->spec);
	if (x->scope)
		cgp_buf_addf(b, " (%zu function%s", x->nmatch, x->nmatch == 1 ? "" : "s");
	if (x->scope && x->worst >= 0) {
		const struct cgp_mrow *r = &m->row[x->worst];
		cgp_buf_adds(b, ", worst ");
		cgp_buf_add(b, r->file->s, r->file->len);
		cgp_buf_add(b, ":", 1);
		cgp_buf_add(b, r->fn->s, r->fn->len);
	}
	if (x->scope)
		cgp_buf_add(b, ")", 1);
	cgp_buf_addf(b, ": old %s, new %s, change %s%s%s, limit %s%s\n", o, nw,
		     x->delta > 0 ? "+" : "", d, pc, x->allowed >= 0 ? "+" : "", a);
}

/* The parts of the ranked table's header, in each gated event's columns. */
static const char *const part[4] = { "old", "new", "delta", "change" };

/* The widths of the ranked table's cells, 4 per gated column cols[j]
 * (old, new, delta, change) into cw: as wide as their header
 * ("Ir.delta") and the cells of the rows idx[0..show). */
static void table_widths(const struct cgp_model *m, const unsigned *cols, unsigned nc,
			 const size_t *idx, size_t show, size_t *cw)
{
	char cell[4][48];
	size_t i;
	unsigned j, c;

	for (j = 0; j < nc; j++)
		for (c = 0; c < 4; c++)
			cw[4 * j + c] = strlen(m->events[cols[j]]) + 1 + strlen(part[c]);
	for (i = 0; i < show; i++)
		for (j = 0; j < nc; j++) {
			cgp_gate_cells(m, m->row[idx[i]].v, cols[j], cell);
			for (c = 0; c < 4; c++)
				if (strlen(cell[c]) > cw[4 * j + c])
					cw[4 * j + c] = strlen(cell[c]);
		}
}

/* The ranked table's header and its rows idx[0..show), each marked worse
 * or better by its first gated column, labels cut to fit width. */
static void put_table(struct cgp_buf *b, const struct cgp_model *m, const unsigned *cols,
		      unsigned nc, const size_t *idx, size_t show, const size_t *cw,
		      unsigned width)
{
	char cell[4][48], h[80];
	size_t i, used = 7, namew;   /* 7: "worse  " */
	unsigned j, c;

	for (j = 0; j < 4 * nc; j++)
		used += cw[j] + 1;
	namew = width > used + 20 ? width - used : 20;
	cgp_buf_adds(b, "       ");
	for (j = 0; j < nc; j++)
		for (c = 0; c < 4; c++) {
			snprintf(h, sizeof h, "%s.%s", m->events[cols[j]], part[c]);
			rjust(b, h, cw[4 * j + c]);
			cgp_buf_add(b, " ", 1);
		}
	cgp_buf_adds(b, "file:function\n");
	for (i = 0; i < show; i++) {
		const struct cgp_mrow *r = &m->row[idx[i]];
		int64_t d0 = r->v[2 * m->ncol + cols[0]];
		cgp_buf_adds(b, d0 > 0 ? "worse  " : d0 < 0 && !(m->ratio[cols[0]] && d0 == CGP_NA)
					 ? "better " : "       ");
		for (j = 0; j < nc; j++) {
			cgp_gate_cells(m, r->v, cols[j], cell);
			for (c = 0; c < 4; c++) {
				rjust(b, cell[c], cw[4 * j + c]);
				cgp_buf_add(b, " ", 1);
			}
		}
		put_label(b, r, namew);
		cgp_buf_add(b, "\n", 1);
	}
}

int cgp_gate_text(struct cgp_buf *b, const struct cgp_model *m,
		  const struct cgp_limit *l, size_t n, unsigned width, size_t maxrows,
		  struct cgp_error *err)
{
	unsigned *cols = malloc((n + 1) * sizeof *cols), nc = 0, j;
	size_t *idx = NULL, i, nex = 0, show = 0, *cw = NULL;
	long nr = -1;

	for (i = 0; i < n; i++)
		nex += l[i].exceeded != 0;
	cgp_buf_addf(b, "-- Regression check: %zu of %zu limit%s exceeded\n", nex, n,
		     n == 1 ? "" : "s");
	for (i = 0; i < n; i++)
		put_verdict(b, m, &l[i]);
	if (cols) {
		nc = cgp_gate_columns(l, n, cols);
		nr = ranked(m, l, n, maxrows, &idx);
		cw = calloc(4 * (size_t)nc + 1, sizeof *cw);
	}
	if (nr < 0 || !cw) {
		free(cols);
		free(idx);
		free(cw);
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	}
	show = (size_t)nr < maxrows ? (size_t)nr : maxrows;
	cgp_buf_adds(b, "\n-- Functions that changed most (");
	for (j = 0; j < nc; j++)
		cgp_buf_addf(b, "%s%s", j ? ", " : "", m->events[cols[j]]);
	cgp_buf_addf(b, "), biggest change first: %ld changed\n", nr);
	if (nr) {
		table_widths(m, cols, nc, idx, show, cw);
		put_table(b, m, cols, nc, idx, show, cw, width);
	}
	if ((size_t)nr > show)
		cgp_buf_addf(b, "... and %zu more (all of them in the --json output)\n",
			     (size_t)nr - show);
	free(cols);
	free(idx);
	free(cw);
	return b->s ? 0 : cgp_error_set(err, CGP_ENOMEM, "out of memory");
}
