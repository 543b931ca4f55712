/* test_lib_num.c -- unit tests of the profile library's Python-compatible number parsing and formatting. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cgp.h"
#include "unit_check.h"

/* Expected values below were printed by CPython 3.11. */
/* Python 3.11: '{:.1f}'.format(v * 100 / s). */
static const struct { int64_t v, s; const char *want; } percs[] = {
	{ INT64_C(1), INT64_C(3), "33.3" },
	{ INT64_C(2), INT64_C(3), "66.7" },
	{ INT64_C(5), INT64_C(4400), "0.1" },
	{ INT64_C(-1), INT64_C(3), "-33.3" },
	{ INT64_C(0), INT64_C(-5), "-0.0" },
	{ INT64_C(0), INT64_C(5), "0.0" },
	{ INT64_C(-1), INT64_C(100000), "-0.0" },
	{ INT64_C(1), INT64_C(-100000), "-0.0" },
	{ INT64_C(95142284512733), INT64_C(95142284512733), "100.0" },
	{ INT64_C(70368744177664), INT64_C(95142284512733), "74.0" },
	{ INT64_C(9223372036854775807), INT64_C(1), "922337203685477580800.0" },
	{ INT64_MIN, INT64_C(1), "-922337203685477580800.0" },
	{ INT64_MIN, INT64_C(-1), "922337203685477580800.0" },
	{ INT64_C(9223372036854775807), INT64_C(9223372036854775807), "100.0" },
	{ INT64_C(1), INT64_C(9223372036854775807), "0.0" },
	{ INT64_MIN, INT64_C(9223372036854775807), "-100.0" },
	{ INT64_C(12345678901234567), INT64_C(3), "411522630041152256.0" },
	{ INT64_C(5), INT64_C(8000), "0.1" },
	{ INT64_C(15), INT64_C(20000), "0.1" },
	{ INT64_C(25), INT64_C(20000), "0.1" },
	{ INT64_C(35), INT64_C(20000), "0.2" },
	{ INT64_C(45), INT64_C(1000), "4.5" },
	{ INT64_C(246216585769), INT64_C(-1851), "-13301814466.2" },
	{ INT64_C(-54474944), INT64_C(-63566111994), "0.1" },
	{ INT64_C(-247961465089660252), INT64_C(-310), "79987569383761376.0" },
	{ INT64_C(120180954), INT64_C(-1), "-12018095400.0" },
	{ INT64_C(-100832138378), INT64_C(10921534), "-923241.5" },
	{ INT64_C(-42852180), INT64_C(305473949476), "-0.0" },
	{ INT64_C(2159841), INT64_C(-1647178277492), "-0.0" },
	{ INT64_C(308679), INT64_C(-68693569), "-0.4" },
	{ INT64_C(6), INT64_C(16145776645627), "0.0" },
	{ INT64_C(69200489202829689), INT64_C(-5366), "-1289610309407933.0" },
	{ INT64_C(-1), INT64_C(2800265615104), "-0.0" },
	{ INT64_C(7639563096), INT64_C(378509228656962344), "0.0" },
	{ INT64_C(1690237), INT64_C(-28500), "-5930.7" },
	{ INT64_C(-4849820), INT64_C(-14202109366321), "0.0" },
	{ INT64_C(-27862), INT64_C(-7), "398028.6" },
	{ INT64_C(-62929605507744), INT64_C(1570), "-4008255127881.8" },
	{ INT64_C(907742341405), INT64_C(3), "30258078046833.3" },
	{ INT64_C(-3144224901471664), INT64_C(-1000), "314422490147166.4" },
	{ INT64_C(-22353132919372), INT64_C(-380452077), "5875413.6" },
	{ INT64_C(475107), INT64_C(-58), "-819150.0" },
	{ INT64_C(-59165322809), INT64_C(-6651544), "889497.6" },
	{ INT64_C(-504693899526654328), INT64_C(-5246456051071797), "9619.7" },
	{ INT64_C(-106735414), INT64_C(7), "-1524791628.6" },
	{ INT64_C(131130136238053538), INT64_C(30565941), "429007359001.5" },
	{ INT64_C(-3725166253542495), INT64_C(-584296609), "637547128.7" },
	{ INT64_C(-119360618045155786), INT64_C(1018080062462930), "-11724.1" },
	{ INT64_C(1795540078967), INT64_C(4578231), "39219080.0" },
	{ INT64_C(2888), INT64_C(41724), "6.9" },
	{ INT64_C(-586822478), INT64_C(8021), "-7316076.3" },
	{ INT64_C(-125019638957953), INT64_C(-120901652508744932), "0.1" },
	{ INT64_C(-263179226672), INT64_C(-32), "822435083350.0" },
	{ INT64_C(-77), INT64_C(-1373), "5.6" },
	{ INT64_C(-4829), INT64_C(-63411320), "0.0" },
	{ INT64_C(-6807146312784645793), INT64_C(59596939639), "-11421972930.2" },
	{ INT64_C(1522), INT64_C(-81334349537352), "-0.0" },
	{ INT64_C(770601204964691200), INT64_C(30), "2568670683215637504.0" },
	{ INT64_C(1770541), INT64_C(12216), "14493.6" },
	{ INT64_C(3557), INT64_C(-12617195168838857), "-0.0" },
	{ INT64_C(993529819628), INT64_C(-1995893695252743), "-0.0" },
	{ INT64_C(4141418), INT64_C(-7681296605543), "-0.0" },
};

/* Python 3.11: repr(x). */
static const struct { double x; const char *want; } reprs[] = {
	{ 0.1, "0.1" },
	{ 0.5, "0.5" },
	{ 5.0, "5.0" },
	{ 20.0, "20.0" },
	{ 0.0, "0.0" },
	{ -0.0, "-0.0" },
	{ 1e-05, "1e-05" },
	{ 1.5e-05, "1.5e-05" },
	{ 0.0001, "0.0001" },
	{ 0.00012345, "0.00012345" },
	{ 3.14159, "3.14159" },
	{ 1e+16, "1e+16" },
	{ 1.2345e+16, "1.2345e+16" },
	{ 123456789012345.6, "123456789012345.6" },
	{ 2.5e-07, "2.5e-07" },
	{ 0.3333333333333333, "0.3333333333333333" },
	{ 19.999999999999996, "19.999999999999996" },
	{ 0.30000000000000004, "0.30000000000000004" },
	{ 1e+22, "1e+22" },
	{ 5e-324, "5e-324" },
};

/* Python int() outcomes: 0 = value, -1 = ValueError; -2 = beyond int64. */
static const struct { const char *text; int rc; int64_t want; } ints[] = {
	{ "0", 0, 0 }, { "007", 0, 7 }, { "+5", 0, 5 }, { "-5", 0, -5 },
	{ "1_000", 0, 1000 }, { " 42 ", 0, 42 }, { "\t-3\n", 0, -3 },
	{ "9223372036854775807", 0, INT64_MAX },
	{ "-9223372036854775808", 0, INT64_MIN },
	{ "9223372036854775808", -2, 0 }, { "99999999999999999999", -2, 0 },
	{ "", -1, 0 }, { "-", -1, 0 }, { "_1", -1, 0 }, { "1_", -1, 0 },
	{ "1__0", -1, 0 }, { "1.5", -1, 0 }, { "0x10", -1, 0 }, { "1 2", -1, 0 },
	{ "+-1", -1, 0 }, { "\xc2\xa0" "7" "\xe3\x80\x80", 0, 7 },
	{ "\xd9\xa1", -1, 0 }, /* Arabic-Indic one: ASCII digits only here */
};

/* Python float() outcomes for the threshold. */
static const struct { const char *text; int rc; double want; } floats[] = {
	{ "0.1", 0, 0.1 }, { ".5", 0, 0.5 }, { "5.", 0, 5.0 }, { "2e-1", 0, 0.2 },
	{ "1_0.2_5", 0, 10.25 }, { " 3 ", 0, 3.0 }, { "-0", 0, -0.0 },
	{ "1E1", 0, 10.0 }, { "+.5e+1", 0, 5.0 },
	{ "0x1", -1, 0 }, { "1__0", -1, 0 }, { "_1", -1, 0 }, { "1_", -1, 0 },
	{ "1e", -1, 0 }, { ".", -1, 0 }, { "", -1, 0 }, { "1.5.2", -1, 0 },
	{ "1_.5", -1, 0 }, { "abc", -1, 0 },
};

static void test_percent(void)
{
	size_t i;
	char buf[64];

	for (i = 0; i < sizeof percs / sizeof percs[0]; i++) {
		snprintf(buf, sizeof buf, "%.1f", cgp_percent(percs[i].v, percs[i].s));
		CHECKF(!strcmp(buf, percs[i].want), "percent(%" PRId64 ", %" PRId64 ") = %s, want %s",
		      percs[i].v, percs[i].s, buf, percs[i].want);
	}
}

static void test_repr(void)
{
	size_t i;
	char buf[64];

	for (i = 0; i < sizeof reprs / sizeof reprs[0]; i++) {
		cgp_fmt_pyfloat(buf, reprs[i].x);
		CHECKF(!strcmp(buf, reprs[i].want), "repr(%.17g) = %s, want %s", reprs[i].x,
		      buf, reprs[i].want);
	}
}

static void test_ints(void)
{
	size_t i;

	for (i = 0; i < sizeof ints / sizeof ints[0]; i++) {
		int64_t v = 12345;
		int rc = cgp_parse_int(ints[i].text, strlen(ints[i].text), &v);
		CHECKF(rc == ints[i].rc, "int(%s): rc %d, want %d", ints[i].text, rc, ints[i].rc);
		if (rc == 0 && ints[i].rc == 0)
			CHECKF(v == ints[i].want, "int(%s) = %" PRId64, ints[i].text, v);
	}
}

static void test_floats(void)
{
	size_t i;

	for (i = 0; i < sizeof floats / sizeof floats[0]; i++) {
		double d = 12345;
		int rc = cgp_parse_float(floats[i].text, &d);
		CHECKF(rc == floats[i].rc, "float(%s): rc %d", floats[i].text, rc);
		if (rc == 0 && floats[i].rc == 0)
			CHECKF(d == floats[i].want && signbit(d) == signbit(floats[i].want),
			      "float(%s) = %g", floats[i].text, d);
	}
	{
		double d;
		CHECKF(cgp_parse_float("nan", &d) == 0 && isnan(d), "nan");
		CHECKF(cgp_parse_float("-Infinity", &d) == 0 && isinf(d) && d < 0, "-Infinity");
		CHECKF(cgp_parse_float("infinit", &d) == -1, "infinit");
	}
}

static void test_format(void)
{
	char buf[40];

	cgp_fmt_commas(buf, 0);
	CHECKF(!strcmp(buf, "0"), "commas 0: %s", buf);
	cgp_fmt_commas(buf, 999);
	CHECKF(!strcmp(buf, "999"), "commas 999: %s", buf);
	cgp_fmt_commas(buf, -1000000);
	CHECKF(!strcmp(buf, "-1,000,000"), "commas -1e6: %s", buf);
	cgp_fmt_commas(buf, INT64_MIN);
	CHECKF(!strcmp(buf, "-9,223,372,036,854,775,808"), "commas min: %s", buf);
	cgp_fmt_int(buf, INT64_MIN);
	CHECKF(!strcmp(buf, "-9223372036854775808"), "int min: %s", buf);
	{
		/* Every length, both signs, and the powers of ten and their
		 * neighbours (where the digit pairs change), against printf. */
		char want[40];
		int64_t p = 1;
		unsigned bad = 0;
		/* (p is multiplied only before a next pass: 10^19 is beyond
		 * int64_t.) */
		for (int d = 0; d < 19; d++, p = d < 19 ? p * 10 : p)
			for (int64_t dv = -1; dv <= 1; dv++)
				for (int sg = -1; sg <= 1; sg += 2) {
					int64_t v = sg * (p + dv);
					size_t n = cgp_fmt_int(buf, v);
					snprintf(want, sizeof want, "%lld", (long long)v);
					bad += strcmp(buf, want) != 0 || n != strlen(want);
				}
		cgp_fmt_int(buf, INT64_MAX);
		CHECKF(bad == 0 && !strcmp(buf, "9223372036854775807"), "%u wrong, max %s",
		       bad, buf);
	}
	{
		int64_t a = INT64_MAX - 1;
		CHECKF(cgp_add(&a, 1) == 0 && a == INT64_MAX, "add to max");
		CHECKF(cgp_add(&a, 1) == -1 && a == INT64_MAX, "overflow leaves a unchanged");
	}
}

int main(void)
{
	RUN(test_percent);
	RUN(test_repr);
	RUN(test_ints);
	RUN(test_floats);
	RUN(test_format);
	return unit_finish("test_lib_num");
}
