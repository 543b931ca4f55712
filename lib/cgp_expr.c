/* cgp_expr.c -- derived events: parsing and evaluating --derive=NAME=FORMULA. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * A formula is compiled by recursive descent into a little stack program
 * (postfix).  Without division it runs in int64, every step overflow
 * checked: the result is exact or an error.  With division every value is
 * a fraction num/den of two 128-bit integers, reduced after each step, so
 * that 1000*D1mr/Ir is exact until the one rounding to thousandths at the
 * end; a zero denominator gives CGP_NA (a function with no Ir has no miss
 * rate), an overflow of 128 bits an error.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgp_int.h"
#include "cgp_model.h"

enum op { OP_CONST, OP_EVENT, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_NEG };

struct insn {
	enum op op;
	int64_t arg;          /* OP_CONST: the value; OP_EVENT: index after bind */
	char *name;           /* OP_EVENT: the event's name */
};

struct cgp_formula {
	struct insn *code;
	size_t n, cap;
	size_t depth, maxdepth;  /* stack use */
};

/* State of parsing one formula. */
struct parser {
	const char *text, *p;
	struct cgp_formula *f;
	const char *spec;     /* for messages */
	struct cgp_error *err;
	int ratio;
};

static int emit(struct parser *ps, enum op op, int64_t arg, char *name)
{
	struct cgp_formula *f = ps->f;

	if (cgp_grow_array((void **)&f->code, &f->cap, f->n, sizeof *f->code)) {
		free(name);
		return cgp_error_set(ps->err, CGP_ENOMEM, "out of memory");
	}
	f->code[f->n].op = op;
	f->code[f->n].arg = arg;
	f->code[f->n++].name = name;
	if (op == OP_CONST || op == OP_EVENT) {
		if (++f->depth > f->maxdepth)
			f->maxdepth = f->depth;
	} else if (op != OP_NEG) {
		f->depth--;
	}
	if (op == OP_DIV)
		ps->ratio = 1;
	return 0;
}

static void skip_sp(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t')
		ps->p++;
}

static int is_name_start(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_name_char(char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

static int unexpected(struct parser *ps)
{
	if (!*ps->p)
		return cgp_error_set(ps->err, CGP_EUSAGE,
				     "--derive=%s: formula '%s' ends too early", ps->spec,
				     ps->text);
	/* A non-ASCII character quoted whole (a byte of no valid UTF-8
	 * sequence in hex), so that the message stays valid UTF-8. */
	size_t k = cgp_utf8_seq(ps->p, strlen(ps->p));
	char c[8];

	if (k)
		snprintf(c, sizeof c, "%.*s", (int)k, ps->p);
	else if ((unsigned char)*ps->p >= 0x80)
		snprintf(c, sizeof c, "\\x%02x", (unsigned char)*ps->p);
	else
		snprintf(c, sizeof c, "%c", *ps->p);
	return cgp_error_set(ps->err, CGP_EUSAGE,
			     "--derive=%s: unexpected '%s' at offset %zu of formula '%s'",
			     ps->spec, c, (size_t)(ps->p - ps->text), ps->text);
}

static int parse_sum(struct parser *ps);

static int parse_unary(struct parser *ps)
{
	int rc;

	skip_sp(ps);
	if (*ps->p == '-') {
		ps->p++;
		if ((rc = parse_unary(ps)))
			return rc;
		return emit(ps, OP_NEG, 0, NULL);
	}
	if (*ps->p == '(') {
		ps->p++;
		if ((rc = parse_sum(ps)))
			return rc;
		skip_sp(ps);
		if (*ps->p != ')')
			return unexpected(ps);
		ps->p++;
		return 0;
	}
	if (*ps->p >= '0' && *ps->p <= '9') {
		const char *t = ps->p;
		int64_t v;
		while (*ps->p >= '0' && *ps->p <= '9')
			ps->p++;
		if (*ps->p == '.' || is_name_char(*ps->p))
			return cgp_error_set(ps->err, CGP_EUSAGE,
					     "--derive=%s: only integer constants are allowed "
					     "(offset %zu of formula '%s')", ps->spec,
					     (size_t)(t - ps->text), ps->text);
		if (cgp_parse_int(t, (size_t)(ps->p - t), &v))
			return cgp_error_set(ps->err, CGP_EUSAGE,
					     "--derive=%s: constant '%.*s' exceeds the 64-bit range",
					     ps->spec, (int)(ps->p - t), t);
		return emit(ps, OP_CONST, v, NULL);
	}
	if (is_name_start(*ps->p)) {
		const char *t = ps->p;
		char *name;
		while (is_name_char(*ps->p))
			ps->p++;
		name = strndup(t, (size_t)(ps->p - t));
		if (!name)
			return cgp_error_set(ps->err, CGP_ENOMEM, "out of memory");
		return emit(ps, OP_EVENT, -1, name);
	}
	return unexpected(ps);
}

static int parse_product(struct parser *ps)
{
	int rc = parse_unary(ps);

	while (!rc) {
		char c;
		skip_sp(ps);
		c = *ps->p;
		if (c != '*' && c != '/')
			break;
		ps->p++;
		rc = parse_unary(ps);
		if (!rc && c == '/' && ps->f->code[ps->f->n - 1].op == OP_CONST &&
		    ps->f->code[ps->f->n - 1].arg == 0)
			return cgp_error_set(ps->err, CGP_EUSAGE,
					     "--derive=%s: division by the constant 0 in formula '%s'",
					     ps->spec, ps->text);
		if (!rc)
			rc = emit(ps, c == '*' ? OP_MUL : OP_DIV, 0, NULL);
	}
	return rc;
}

static int parse_sum(struct parser *ps)
{
	int rc = parse_product(ps);

	while (!rc) {
		char c;
		skip_sp(ps);
		c = *ps->p;
		if (c != '+' && c != '-')
			break;
		ps->p++;
		rc = parse_product(ps);
		if (!rc)
			rc = emit(ps, c == '+' ? OP_ADD : OP_SUB, 0, NULL);
	}
	return rc;
}

static void formula_free(struct cgp_formula *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++)
		free(f->code[i].name);
	free(f->code);
	free(f);
}

int cgp_derives_add(struct cgp_derives *ds, const char *spec, struct cgp_error *err)
{
	const char *eq = strchr(spec, '=');
	struct parser ps;
	struct cgp_derive d;
	unsigned i;
	void *nd;
	int rc;

	if (!eq)
		return cgp_error_set(err, CGP_EUSAGE, "--derive=%s: missing '=' (NAME=FORMULA)",
				     spec);
	memset(&d, 0, sizeof d);
	if (eq == spec || !is_name_start(*spec))
		goto bad_name;
	for (i = 1; spec + i < eq; i++)
		if (!is_name_char(spec[i]))
			goto bad_name;
	d.name = strndup(spec, (size_t)(eq - spec));
	d.text = strdup(eq + 1);
	d.f = calloc(1, sizeof *d.f);
	if (!d.name || !d.text || !d.f) {
		rc = cgp_error_set(err, CGP_ENOMEM, "out of memory");
		goto fail;
	}
	for (i = 0; i < ds->n; i++)
		if (!strcmp(ds->d[i].name, d.name)) {
			rc = cgp_error_set(err, CGP_EUSAGE, "--derive=%s: '%s' is defined twice",
					   spec, d.name);
			goto fail;
		}
	memset(&ps, 0, sizeof ps);
	ps.text = ps.p = d.text;
	ps.f = d.f;
	ps.spec = spec;
	ps.err = err;
	skip_sp(&ps);
	if (!*ps.p) {
		rc = cgp_error_set(err, CGP_EUSAGE, "--derive=%s: empty formula", spec);
		goto fail;
	}
	rc = parse_sum(&ps);
	if (!rc) {
		skip_sp(&ps);
		if (*ps.p)
			rc = unexpected(&ps);
	}
	if (rc)
		goto fail;
	d.ratio = ps.ratio;
	nd = realloc(ds->d, (ds->n + 1) * sizeof *ds->d);
	if (!nd) {
		rc = cgp_error_set(err, CGP_ENOMEM, "out of memory");
		goto fail;
	}
	ds->d = nd;
	ds->d[ds->n++] = d;
	return 0;
bad_name:
	return cgp_error_set(err, CGP_EUSAGE,
			     "--derive=%s: bad name '%.*s' (a letter or '_', then letters, "
			     "digits, '_')", spec, (int)(eq - spec), spec);
fail:
	free(d.name);
	free(d.text);
	formula_free(d.f);
	return rc;
}

int cgp_derives_bind(struct cgp_derives *ds, char **events, unsigned nev,
		     struct cgp_error *err)
{
	unsigned i, k;
	size_t j;

	for (i = 0; i < ds->n; i++) {
		struct cgp_derive *d = &ds->d[i];
		for (k = 0; k < nev; k++)
			if (!strcmp(events[k], d->name))
				return cgp_error_set(err, CGP_EUSAGE,
						     "--derive=%s=%s: '%s' is a recorded event",
						     d->name, d->text, d->name);
		for (j = 0; j < d->f->n; j++) {
			struct insn *x = &d->f->code[j];
			if (x->op != OP_EVENT)
				continue;
			for (k = 0; k < nev; k++)
				if (!strcmp(events[k], x->name))
					break;
			if (k == nev) {
				struct cgp_buf b = CGP_BUF_INIT(1 << 20);
				unsigned e;
				for (e = 0; e < nev; e++)
					cgp_buf_addf(&b, "%s%s", e ? " " : "", events[e]);
				cgp_error_set(err, CGP_EUSAGE,
					      "--derive=%s=%s: unknown event '%s' (recorded: %s)",
					      d->name, d->text, x->name, b.s ? b.s : "");
				cgp_buf_release(&b);
				return CGP_EUSAGE;
			}
			x->arg = k;
		}
	}
	return 0;
}

/* int64 evaluation: 0, or -1 on overflow. */
static int eval_int(const struct cgp_formula *f, const int64_t *v, int64_t *st,
		    int64_t *out)
{
	size_t i, sp = 0;

	st[0] = 0;
	for (i = 0; i < f->n; i++) {
		const struct insn *x = &f->code[i];
		int64_t a, b;
		int bad = 0;
		switch (x->op) {
		case OP_CONST:
			st[sp++] = x->arg;
			continue;
		case OP_EVENT:
			st[sp++] = v[x->arg];
			continue;
		case OP_NEG:
			bad = __builtin_sub_overflow((int64_t)0, st[sp - 1], &st[sp - 1]);
			break;
		default:
			b = st[--sp];
			a = st[sp - 1];
			if (x->op == OP_ADD)
				bad = __builtin_add_overflow(a, b, &st[sp - 1]);
			else if (x->op == OP_SUB)
				bad = __builtin_sub_overflow(a, b, &st[sp - 1]);
			else
				bad = __builtin_mul_overflow(a, b, &st[sp - 1]);
			break;
		}
		if (bad)
			return -1;
	}
	*out = st[0];
	return 0;
}

typedef __int128 i128;

struct frac {
	i128 num, den;   /* den > 0, or den == 0 for "no value" */
};

static i128 gcd128(i128 a, i128 b)
{
	if (a < 0)
		a = -a;
	while (b) {
		i128 t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* Reduces x (den > 0 afterwards, unless it is no value). */
static void reduce(struct frac *x)
{
	i128 g;

	if (x->den == 0)
		return;
	if (x->den < 0)
		x->num = -x->num, x->den = -x->den;
	g = gcd128(x->num, x->den);
	if (g > 1)
		x->num /= g, x->den /= g;
}

/* Fraction evaluation: 0, or -1 on overflow. */
static int eval_frac(const struct cgp_formula *f, const int64_t *v, struct frac *st,
		     int64_t *out)
{
	size_t i, sp = 0;
	struct frac r;
	i128 q, rem, m;

	for (i = 0; i < f->n; i++) {
		const struct insn *x = &f->code[i];
		struct frac a, b, c;
		int bad = 0;
		switch (x->op) {
		case OP_CONST:
			st[sp].num = x->arg, st[sp++].den = 1;
			continue;
		case OP_EVENT:
			st[sp].num = v[x->arg], st[sp++].den = 1;
			continue;
		case OP_NEG:
			st[sp - 1].num = -st[sp - 1].num;
			continue;
		default:
			break;
		}
		b = st[--sp];
		a = st[sp - 1];
		c.num = 0, c.den = 0;
		if (a.den && b.den) {
			i128 t1, t2;
			switch (x->op) {
			case OP_ADD:
			case OP_SUB:
				bad = __builtin_mul_overflow(a.num, b.den, &t1) ||
				      __builtin_mul_overflow(b.num, a.den, &t2) ||
				      (x->op == OP_ADD ? __builtin_add_overflow(t1, t2, &c.num)
						       : __builtin_sub_overflow(t1, t2, &c.num)) ||
				      __builtin_mul_overflow(a.den, b.den, &c.den);
				break;
			case OP_MUL:
				bad = __builtin_mul_overflow(a.num, b.num, &c.num) ||
				      __builtin_mul_overflow(a.den, b.den, &c.den);
				break;
			default: /* OP_DIV: a zero divisor leaves no value */
				if (b.num != 0)
					bad = __builtin_mul_overflow(a.num, b.den, &c.num) ||
					      __builtin_mul_overflow(a.den, b.num, &c.den);
				break;
			}
		}
		if (bad)
			return -1;
		reduce(&c);
		st[sp - 1] = c;
	}
	r = st[0];
	if (r.den == 0) {
		*out = CGP_NA;
		return 0;
	}
	/* round(num * 1000 / den), half away from zero */
	if (__builtin_mul_overflow(r.num, (i128)1000, &m))
		return -1;
	q = m / r.den;
	rem = m % r.den;
	if (rem < 0)
		rem = -rem;
	if (2 * rem >= r.den)
		q += m < 0 ? -1 : 1;
	if (q > INT64_MAX || q <= INT64_MIN)
		return -1;
	*out = (int64_t)q;
	return 0;
}

int cgp_derives_eval(const struct cgp_derives *ds, int64_t *v, unsigned nev,
		     struct cgp_error *err)
{
	unsigned i;

	for (i = 0; ds && i < ds->n; i++) {
		const struct cgp_derive *d = &ds->d[i];
		size_t depth = d->f->maxdepth ? d->f->maxdepth : 1;
		int rc;
		if (d->ratio) {
			struct frac st[64], *sp = depth <= 64 ? st : malloc(depth * sizeof *sp);
			if (!sp)
				return cgp_error_set(err, CGP_ENOMEM, "out of memory");
			rc = eval_frac(d->f, v, sp, &v[nev + i]);
			if (sp != st)
				free(sp);
		} else {
			int64_t st[64], *sp = depth <= 64 ? st : malloc(depth * sizeof *sp);
			if (!sp)
				return cgp_error_set(err, CGP_ENOMEM, "out of memory");
			rc = eval_int(d->f, v, sp, &v[nev + i]);
			if (sp != st)
				free(sp);
		}
		if (rc && d->ratio)
			return cgp_error_set(err, CGP_EOVERFLOW,
					     "--derive=%s=%s: the value exceeds the range of a "
					     "ratio (thousandths in 64 bits: about 9.2 * 10^15), "
					     "or a step of its exact computation exceeds 128 bits",
					     d->name, d->text);
		if (rc)
			return cgp_error_set(err, CGP_EOVERFLOW,
					     "--derive=%s=%s: the value, or a step of its "
					     "computation, exceeds the 64-bit range",
					     d->name, d->text);
	}
	return 0;
}

void cgp_derive_code_json(struct cgp_json *j, const struct cgp_derive *d)
{
	static const char *const op[] = { [OP_CONST] = "c", [OP_EVENT] = "e", [OP_ADD] = "+",
					  [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/",
					  [OP_NEG] = "n" };
	char num[24];
	size_t i;

	cgp_json_arr(j);
	for (i = 0; i < d->f->n; i++) {
		const struct insn *x = &d->f->code[i];
		cgp_json_arr(j);
		cgp_json_cstr(j, op[x->op]);
		if (x->op == OP_CONST) {
			snprintf(num, sizeof num, "%lld", (long long)x->arg);
			cgp_json_cstr(j, num);
		} else if (x->op == OP_EVENT) {
			cgp_json_int(j, x->arg);
		}
		cgp_json_end(j, ']');
	}
	cgp_json_end(j, ']');
}

void cgp_derives_release(struct cgp_derives *ds)
{
	unsigned i;

	for (i = 0; i < ds->n; i++) {
		free(ds->d[i].name);
		free(ds->d[i].text);
		formula_free(ds->d[i].f);
	}
	free(ds->d);
	ds->d = NULL;
	ds->n = 0;
}
