/* test_lib_model.c -- unit tests of the report model: formulas, limits, the JSON writer's escapes, substitution chains. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgp_model.h"
#include "unit_check.h"

static char ev_ir[] = "Ir", ev_dr[] = "Dr", ev_d1mr[] = "D1mr";
static char *events[] = { ev_ir, ev_dr, ev_d1mr };

/* Evaluates the one formula of spec over v (3 recorded events). */
static int eval1(const char *spec, const int64_t *rec, int64_t *out, int *ratio)
{
	struct cgp_derives ds = { NULL, 0 };
	struct cgp_error err = CGP_ERROR_INIT;
	int64_t v[4];
	int rc;

	memcpy(v, rec, 3 * sizeof *v);
	rc = cgp_derives_add(&ds, spec, &err);
	if (!rc)
		rc = cgp_derives_bind(&ds, events, 3, &err);
	if (!rc)
		rc = cgp_derives_eval(&ds, v, 3, &err);
	if (!rc) {
		*out = v[3];
		*ratio = ds.d[0].ratio;
	}
	cgp_error_release(&err);
	cgp_derives_release(&ds);
	return rc;
}

static void test_formulas(void)
{
	const int64_t a[3] = { 1000, 300, 7 }, big[3] = { INT64_MAX / 2, 1, 0 };
	const int64_t zero[3] = { 0, 5, 3 }, third[3] = { 3, 1, 1 };
	int64_t v;
	int r;

	CHECKF(!eval1("C=Ir+10*D1mr", a, &v, &r) && v == 1070 && !r, "linear: %lld", (long long)v);
	CHECKF(!eval1("C=-(Ir-Dr)*2", a, &v, &r) && v == -1400, "unary minus: %lld", (long long)v);
	CHECKF(!eval1("C=Ir * Dr - D1mr", a, &v, &r) && v == 299993, "spaces: %lld", (long long)v);
	/* Ratios: exact fractions, rounded once to thousandths. */
	CHECKF(!eval1("M=1000*D1mr/Ir", a, &v, &r) && v == 7000 && r, "ratio: %lld", (long long)v);
	CHECKF(!eval1("M=Dr/Ir", third, &v, &r) && v == 333, "1/3: %lld", (long long)v);
	CHECKF(!eval1("M=2*Dr/Ir", third, &v, &r) && v == 667, "2/3 rounds up: %lld", (long long)v);
	CHECKF(!eval1("M=-2*Dr/Ir", third, &v, &r) && v == -667, "-2/3 half away: %lld", (long long)v);
	CHECKF(!eval1("M=Dr/(2*Ir)*3000", third, &v, &r) && v == 500000, "nested: %lld", (long long)v);
	CHECKF(!eval1("M=1/2000+0*Ir", third, &v, &r) && v == 1, "0.0005 rounds to 0.001: %lld",
	      (long long)v);
	CHECKF(!eval1("M=D1mr/Ir", zero, &v, &r) && v == CGP_NA, "zero denominator: n/a");
	CHECKF(!eval1("M=D1mr/(Ir-Ir)+1", a, &v, &r) && v == CGP_NA, "n/a propagates");
	/* Overflow is an error, never wraparound. */
	CHECKF(eval1("C=Ir*3", big, &v, &r) == CGP_EOVERFLOW, "int overflow");
	CHECKF(eval1("M=Ir*Ir*Ir/Dr", big, &v, &r) == CGP_EOVERFLOW, "fraction overflow");
	CHECKF(!eval1("M=Ir*4/Ir", big, &v, &r) && v == 4000, "big but exact: %lld", (long long)v);
	/* Syntax and names. */
	CHECKF(eval1("C=Ir+", a, &v, &r) == CGP_EUSAGE, "ends too early");
	CHECKF(eval1("C=Ir/0", a, &v, &r) == CGP_EUSAGE, "constant zero divisor");
	CHECKF(eval1("C=1.5*Ir", a, &v, &r) == CGP_EUSAGE, "decimal constant");
	CHECKF(eval1("C=Foo", a, &v, &r) == CGP_EUSAGE, "unknown event");
	CHECKF(eval1("Ir=Dr", a, &v, &r) == CGP_EUSAGE, "name of a recorded event");
	CHECKF(eval1("C=((Ir)", a, &v, &r) == CGP_EUSAGE, "unbalanced");
	CHECKF(eval1("C=99999999999999999999", a, &v, &r) == CGP_EUSAGE, "constant too big");
}

/* Names as a profile's table would intern them (the model borrows them
 * and tells them apart by address). */
static const struct cgp_name a_c = { "a.c", 3 }, b_c = { "b.c", 3 };
static const struct cgp_name hash = { "hash", 4 }, help = { "help", 4 };

/* A diff model of two rows over Ir and Dr. */
static void small_model(struct cgp_model *m)
{
	struct cgp_error err = CGP_ERROR_INIT;
	const int64_t o1[2] = { 1000, 10 }, n1[2] = { 1300, 10 };
	const int64_t o2[2] = { 200, 5 }, n2[2] = { 150, 5 };
	const int64_t ot[2] = { 1200, 15 }, nt[2] = { 1450, 15 };

	cgp_model_init(m, 1, events, 2, NULL);
	CHECK(!cgp_model_add(m, &a_c, &hash, 0, o1, n1, &err));
	CHECK(!cgp_model_add(m, &b_c, &help, 0, o2, n2, &err));
	CHECK(!cgp_model_set_total(m, ot, nt, &err) && !cgp_model_finish(m, &err));
	cgp_error_release(&err);
}

/* Parses and evaluates one limit on the small model: 1 exceeded, 0 not,
 * negative an error. */
static long gate1(const char *spec, int64_t *allowed)
{
	struct cgp_model m;
	struct cgp_limit l;
	struct cgp_error err = CGP_ERROR_INIT;
	long rc;

	small_model(&m);
	rc = cgp_limit_parse(&l, spec, &err);
	if (!rc) {
		rc = cgp_gate_eval(&m, &l, 1, &err);
		*allowed = l.allowed;
		cgp_limit_release(&l);
	}
	cgp_error_release(&err);
	cgp_model_release(&m);
	return rc;
}

static void test_limits(void)
{
	int64_t al = 0;

	/* 250 / 1200 = 20.8333...%: the comparison is exact. */
	CHECKF(gate1("Ir:+20.83%", &al) == 1 && al == 249, "20.83%% exceeded, allowed %lld",
	      (long long)al);
	CHECKF(gate1("Ir:+20.84%", &al) == 0, "20.84%% holds");
	CHECKF(gate1("Ir:+250", &al) == 0 && al == 250, "absolute, equal holds");
	CHECKF(gate1("Ir:+249", &al) == 1, "absolute exceeded");
	CHECKF(gate1("Dr:0", &al) == 0, "no change holds a zero limit");
	CHECKF(gate1("Ir:-1%", &al) == 1 && al == -12, "a negative limit demands a decrease");
	CHECKF(gate1("fn=^help$:Ir:-20%", &al) == 0 && al == -40, "scoped: -50 <= -40");
	CHECKF(gate1("fl=^a:Ir:+29%", &al) == 1, "file scope: 30%% > 29%%");
	CHECKF(gate1("each-fn=.:Ir:+30%", &al) == 0, "each function within 30%%");
	CHECKF(gate1("each-fn=.:Ir:+29.9%", &al) == 1, "hash grew 30%%");
	CHECKF(gate1("Foo:+1%", &al) == CGP_EUSAGE, "unknown event");
	CHECKF(gate1("Ir", &al) == CGP_EUSAGE, "no limit");
	CHECKF(gate1("Ir:+1%%", &al) == CGP_EUSAGE, "two percent signs");
	CHECKF(gate1("Ir:.5", &al) == 1 && al == 0, "a limit without an integer part: %lld", (long long)al);
	CHECKF(gate1("Ir:5.", &al) == CGP_EUSAGE, "a dot without decimals");
	CHECKF(gate1("xx=a:Ir:1", &al) == CGP_EUSAGE, "bad scope");
	CHECKF(gate1("fn=[:Ir:1", &al) == CGP_EUSAGE, "bad regex");
}

/* The ranked table of the gate's text shows its first 20 rows, picked
 * without sorting them all: the same rows, in the same order, as the full
 * ranking, with many rows of equal changes (ties broken by name) and rows
 * without a change. */
static void test_ranked_top(void)
{
	enum { N = 300 };
	static char names[N][8];
	static struct cgp_name fn[N];
	struct cgp_model m;
	struct cgp_limit l;
	struct cgp_error err = CGP_ERROR_INIT;
	struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);
	size_t *idx = NULL, i;
	const char *at;
	long nr;
	unsigned bad = 0;

	cgp_model_init(&m, 1, events, 2, NULL);
	for (i = 0; i < N; i++) {
		int64_t o[2] = { 1000, 0 }, n[2] = { 1000 + (int64_t)(i * 7 % 13) * 10, 0 };
		snprintf(names[i], sizeof names[i], "f%03zu", (i * 37) % N);
		fn[i] = (struct cgp_name){ names[i], 4 };
		CHECK(!cgp_model_add(&m, &a_c, &fn[i], 0, o, n, &err));
	}
	CHECK(!cgp_model_finish(&m, &err));
	CHECK(!cgp_limit_parse(&l, "Ir:+1000%", &err) && cgp_gate_eval(&m, &l, 1, &err) == 0);
	nr = cgp_gate_ranked(&m, &l, 1, &idx);
	CHECK(!cgp_gate_text(&b, &m, &l, 1, 80, 20, &err) && b.s);
	/* The 20 functions of the text, in the ranking's order. */
	at = b.s;
	for (i = 0; nr > 0 && i < 20 && at; i++) {
		char want[16];
		snprintf(want, sizeof want, "a.c:%s\n", m.row[idx[i]].fn->s);
		at = strstr(at, want);
		bad += !at;
	}
	CHECKF(nr == N - N / 13 - 1 && bad == 0, "%ld rows ranked, %u of the first 20 not in order",
	       nr, bad);
	free(idx);
	cgp_buf_release(&b);
	cgp_limit_release(&l);
	cgp_error_release(&err);
	cgp_model_release(&m);
}

/* The JSON text of one string. */
static char *json_of(const char *s, size_t n, int html)
{
	static struct cgp_out o;
	struct cgp_json j;
	int fd[2];
	char *buf = calloc(1, 4096);
	ssize_t k;

	if (pipe(fd))
		return buf;
	cgp_out_init(&o, fd[1], NULL);
	cgp_json_init(&j, &o);
	j.html = html;
	cgp_json_str(&j, s, n);
	cgp_out_add(&o, "", 0);
	{
		struct cgp_error err = CGP_ERROR_INIT;
		cgp_out_flush(&o, &err);
		cgp_error_release(&err);
	}
	close(fd[1]);
	k = read(fd[0], buf, 4095);
	close(fd[0]);
	if (k < 0)
		k = 0;
	buf[k] = '\0';
	return buf;
}

static void test_json_escapes(void)
{
	static const struct { const char *in; size_t n; const char *out; } t[] = {
		{ "plain", 5, "\"plain\"" },
		{ "a\"b\\c", 5, "\"a\\\"b\\\\c\"" },
		{ "\n\t\r\b\f", 5, "\"\\n\\t\\r\\b\\f\"" },
		{ "\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\"" },
		{ "caf\xc3\xa9", 5, "\"caf\xc3\xa9\"" },            /* UTF-8 as it is */
		{ "caf\xe9.c", 6, "\"caf\\udce9.c\"" },            /* Latin-1 byte */
		{ "\xf0\x9f\x98\x80", 4, "\"\xf0\x9f\x98\x80\"" }, /* 4-byte sequence */
		{ "\xed\xa0\x80", 3, "\"\\udced\\udca0\\udc80\"" }, /* encoded surrogate */
		{ "\xc3", 1, "\"\\udcc3\"" },                      /* cut sequence */
	};
	/* Inside an HTML <script>: nothing can end the element or start a
	 * comment, and JavaScript's line separators are escaped too. */
	static const struct { const char *in; size_t n; const char *out; } h[] = {
		{ "</script><!--", 13, "\"\\u003c/script\\u003e\\u003c!--\"" },
		{ "a&amp;b", 7, "\"a\\u0026amp;b\"" },
		{ "x\xe2\x80\xa8y\xe2\x80\xa9", 8, "\"x\\u2028y\\u2029\"" },
		{ "\xe2\x80\xa7\xe2\x80", 5, "\"\xe2\x80\xa7\\udce2\\udc80\"" },
		{ "caf\xe9<", 5, "\"caf\\udce9\\u003c\"" },
	};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		char *got = json_of(t[i].in, t[i].n, 0);
		CHECKF(!strcmp(got, t[i].out), "string %zu: got %s, want %s", i, got, t[i].out);
		free(got);
		/* html changes nothing of these */
		got = json_of(t[i].in, t[i].n, 1);
		CHECKF(!strcmp(got, t[i].out), "html string %zu: got %s, want %s", i, got,
		       t[i].out);
		free(got);
	}
	for (i = 0; i < sizeof h / sizeof h[0]; i++) {
		char *got = json_of(h[i].in, h[i].n, 1);
		CHECKF(!strcmp(got, h[i].out), "html string %zu: got %s, want %s", i, got,
		       h[i].out);
		free(got);
	}
}

static void test_subst_chain(void)
{
	struct cgp_error err = CGP_ERROR_INIT;
	struct cgp_subst *x = NULL;
	struct cgp_buf b = CGP_BUF_INIT(1 << 20);
	static const struct { const char *in, *out; } t[] = {
		{ "f.constprop.0.isra.0", "f" },
		{ "f.part.1.cold", "f" },
		{ "f.cold.2", "f" },
		{ "f.lto_priv.0", "f" },
		{ "f.constprop", "f.constprop" },
		{ "core::fmt::write::h0123456789abcdef", "core::fmt::write" },
		{ "_ZN4core3fmt5write17h0123456789abcdefE", "_ZN4core3fmt5writeE" },
		{ "x::h0123456789abcdefg", "x::h0123456789abcdefg" },
		{ "plain", "plain" },
	};
	size_t i;

	CHECKF(!cgp_normalize_add(&x, "rust,clones", &err), "presets");
	for (i = 0; x && i < sizeof t / sizeof t[0]; i++) {
		cgp_buf_reset(&b);
		CHECKF(!cgp_subst_apply(x, t[i].in, strlen(t[i].in), &b, &err) &&
		      !strcmp(b.s ? b.s : "", t[i].out), "%s -> %s, want %s", t[i].in,
		      b.s ? b.s : "", t[i].out);
	}
	cgp_subst_free(x);
	x = cgp_subst_new("s|/usr/|/opt/|g", &err);
	cgp_buf_reset(&b);
	CHECKF(x && !cgp_subst_apply(x, "/usr/a:/usr/b", 13, &b, &err) &&
	      !strcmp(b.s, "/opt/a:/opt/b"), "other delimiter");
	cgp_subst_free(x);
	x = cgp_subst_new("s#a\\#b#c#", &err);
	cgp_buf_reset(&b);
	CHECKF(x && !cgp_subst_apply(x, "xa#b", 4, &b, &err) && !strcmp(b.s, "xc"),
	      "escaped delimiter");
	cgp_subst_free(x);
	CHECKF(!cgp_subst_new("sabc", &err), "a letter is no delimiter");
	CHECKF(!cgp_subst_new("s\\a\\b\\", &err), "nor a backslash");
	cgp_buf_release(&b);
	cgp_error_release(&err);
}

int main(void)
{
	RUN(test_formulas);
	RUN(test_limits);
	RUN(test_ranked_top);
	RUN(test_json_escapes);
	RUN(test_subst_chain);
	return unit_finish("test_lib_model");
}
