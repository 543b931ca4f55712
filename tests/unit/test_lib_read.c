/* test_lib_read.c -- unit tests of the profile library's line reader, parser modes, tables and s/// expressions. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgp.h"
#include "prof_same.h"
#include "unit_check.h"

static char tmpdir[] = "/tmp/test_lib_read.XXXXXX";

/* Writes n bytes to a scratch file; returns its path (static buffer). */
static const char *put(const char *name, const char *text, size_t n)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(text, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(2);
	}
	return path;
}

/* The reader's chunk size read_all() sets (0: the default). */
static size_t chunk;

/* Reads all lines of path joined with "|"; returns the reader's result.
 * Lines are checked for UTF-8 when utf8 is set. */
static int read_all(const char *path, size_t maxline, int utf8, char *out, size_t cap,
		    unsigned long long *lineno, struct cgp_error *err)
{
	struct cgp_reader r;
	const char *line;
	size_t len, k = 0;
	int rc = cgp_reader_open(&r, path, maxline, err);

	out[0] = '\0';
	if (rc)
		return rc;
	r.check_utf8 = utf8;
	if (chunk)
		r.chunk = chunk;
	while ((rc = cgp_reader_next(&r, &line, &len, err)) > 0) {
		if (k + len + 2 < cap) {
			memcpy(out + k, line, len);
			k += len;
			out[k++] = '|';
			out[k] = '\0';
		}
	}
	*lineno = r.lineno;
	cgp_reader_release(&r);
	return rc;
}

static void test_reader(void)
{
	char out[256];
	unsigned long long n;
	struct cgp_error err = CGP_ERROR_INIT;
	int rc;

	rc = read_all(put("a", "a\nb", 3), 100, 0, out, sizeof out, &n, &err);
	CHECKF(rc == 0 && !strcmp(out, "a|b|") && n == 3,
	      "unterminated last line: rc %d out %s n %llu", rc, out, n);
	rc = read_all(put("b", "a\r\nb\rc\n\nd\r", 10), 100, 0, out, sizeof out, &n, &err);
	CHECKF(rc == 0 && !strcmp(out, "a|b|c||d|") && n == 6,
	      "universal newlines: rc %d out %s n %llu", rc, out, n);
	rc = read_all(put("c", "", 0), 100, 0, out, sizeof out, &n, &err);
	CHECKF(rc == 0 && !strcmp(out, "") && n == 1, "empty file: n %llu", n);

	rc = read_all(put("d", "short\nmuch too long a line\n", 27), 10, 0, out, sizeof out, &n, &err);
	CHECKF(rc == CGP_EPARSE && err.msg && strstr(err.msg, "/d:2: line too long"),
	      "line too long: rc %d msg %s", rc, err.msg);
	cgp_error_release(&err);

	static const char *const bad[] = {
		"\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "\xff", "\x80",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[16];
		size_t len = strlen(bad[i]);
		memcpy(text, "ok\nx", 4);
		memcpy(text + 4, bad[i], len);
		rc = read_all(put("e", text, len + 4), 100, 1, out, sizeof out, &n, &err);
		CHECKF(rc == CGP_EPARSE && err.msg && strstr(err.msg, ":2: invalid UTF-8"),
		      "bad UTF-8 #%zu: rc %d", i, rc);
		cgp_error_release(&err);
		/* Unchecked (profiles), the bytes come through as they are. */
		rc = read_all(put("e", text, len + 4), 100, 0, out, sizeof out, &n, &err);
		CHECKF(rc == 0 && !strncmp(out, "ok|x", 4) && !memcmp(out + 4, bad[i], len) &&
		      out[4 + len] == '|', "unchecked bad UTF-8 #%zu: rc %d", i, rc);
		/* One column per byte that is not part of a valid sequence. */
		CHECKF(cgp_utf8_len(text + 3, len + 1) == len + 1,
		      "columns of bad UTF-8 #%zu: %zu", i, cgp_utf8_len(text + 3, len + 1));
	}
	CHECKF(cgp_utf8_valid("\xf0\x9f\x98\x80 \xe2\x82\xac \xc3\xa9", 11), "valid UTF-8");
	CHECKF(cgp_utf8_len("\xf0\x9f\x98\x80 \xe2\x82\xac \xc3\xa9", 11) == 5, "columns of UTF-8");
	CHECKF(cgp_utf8_len("caf\xe9\xe2\x82", 6) == 6, "columns of Latin-1 and a cut sequence");
	/* A quote cut at 6 bytes: not inside the euro sign (e2 82 ac at 4..6),
	 * nor inside the 4-byte emoji at 5..8; short texts whole. */
	CHECK_EQ(cgp_utf8_cut("abcd\xe2\x82\xac!", 8, 6), 4);
	CHECK_EQ(cgp_utf8_cut("abcde\xf0\x9f\x98\x80", 9, 6), 5);
	CHECK_EQ(cgp_utf8_cut("abcdef\xc3\xa9", 8, 6), 6);
	CHECK_EQ(cgp_utf8_cut("abc", 3, 6), 3);
	/* More continuation bytes than any sequence has: at most 4 fewer. */
	CHECK_EQ(cgp_utf8_cut("a\x80\x80\x80\x80\x80\x80\x80", 8, 6), 2);
	/* U+3000 is white space; e3 40 80 (which a careless decoder reads as
	 * U+3000) is not, nor is a lone a0 (U+00A0 is c2 a0). */
	CHECKF(cgp_space_len("\xe3\x80\x80", "\xe3\x80\x80" + 3) == 3, "U+3000 is a space");
	CHECKF(cgp_space_len("\xe3\x40\x80", "\xe3\x40\x80" + 3) == 0, "e3 40 80 is not");
	CHECKF(cgp_space_len("\xa0", "\xa0" + 1) == 0, "a lone a0 is not");

	rc = read_all("/nonexistent/x", 100, 0, out, sizeof out, &n, &err);
	CHECKF(rc == CGP_EIO && err.msg && strstr(err.msg, "No such file"), "missing file");
	cgp_error_release(&err);
}

/*
 * The refilling of the buffer, with chunks of 1 to 9 bytes: every line end
 * ("\n", "\r\n", "\r") falls at every position of a chunk, "\r\n" split
 * across two reads included, and lines longer than the buffer make it
 * grow.  Every chunk size must give the lines the default one gives.
 */
static void test_reader_refill(void)
{
	static const char text[] =
		"a\r\nbb\r\ncc\rdd\n\r\n\n\r\rlong line, longer than two chunks\r\n"
		"\r\ne\r\nfff\r\ngggg\r\nh\r";
	static const char want[] =
		"a|bb|cc|dd|||||long line, longer than two chunks||e|fff|gggg|h|";
	const char *path = put("refill", text, sizeof text - 1);
	char out[256];
	unsigned long long n;
	struct cgp_error err = CGP_ERROR_INIT;
	int rc;

	for (chunk = 1; chunk <= 9; chunk++) {
		rc = read_all(path, 100, 1, out, sizeof out, &n, &err);
		CHECKF(rc == 0 && !strcmp(out, want) && n == 15,
		      "chunk %zu: rc %d lines %llu out %s", chunk, rc, n, out);
	}
	/* The line limit still holds when the line arrives in pieces. */
	chunk = 3;
	rc = read_all(path, 10, 1, out, sizeof out, &n, &err);
	CHECKF(rc == CGP_EPARSE && err.msg && strstr(err.msg, "/refill:9: line too long"),
	      "line too long in small chunks: %s", err.msg);
	cgp_error_release(&err);
	/* A UTF-8 sequence split across two reads is still valid. */
	path = put("refill8", "x\xe2\x82\xacy\n\xf0\x9f\x98\x80\n", 11);
	for (chunk = 1; chunk <= 5; chunk++) {
		rc = read_all(path, 100, 1, out, sizeof out, &n, &err);
		CHECKF(rc == 0 && !strcmp(out, "x\xe2\x82\xacy|\xf0\x9f\x98\x80|"),
		      "UTF-8 across reads, chunk %zu: rc %d", chunk, rc);
	}
	chunk = 0;
}

/* A profile read with tiny chunks is the same profile. */
static void test_profile_refill(void)
{
	static const char text[] =
		"desc: d\r\ncmd: ./p\r\nevents: A B\r\nfl=x.c\r\nfn=f\r\n1 2 3\r\n"
		"2 4\r\nfn=g\r\n7 1 1\r\nsummary: 7 4\r\n";
	const char *path = put("refill.cgout", text, sizeof text - 1);
	struct cgp_read_opts o;
	struct cgp_error err = CGP_ERROR_INIT;
	size_t c;

	memset(&o, 0, sizeof o);
	for (c = 1; c <= 12; c++) {
		struct cgp_profile p;
		o.read_chunk = c;
		cgp_profile_init(&p, CGP_MODE_ANNOTATE);
		CHECKF(cgp_profile_read(&p, path, &o, &err) == 0 && p.summary[0] == 7 &&
		      p.summary[1] == 4 && !strcmp(p.in[0].cmd, "./p") && p.tab.nfile == 1 &&
		      p.tab.file[0].lines.n == 3, "profile with chunk %zu: %s", c,
		      err.msg ? err.msg : "wrong contents");
		cgp_error_release(&err);
		cgp_profile_release(&p);
	}
}

/* xorshift64: the random profiles of test_fast_path (fixed seeds). */
static uint64_t rnd_state;

static unsigned rnd(unsigned n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (unsigned)(rnd_state % n);
}

/* What rnd_profile() writes: clean (plain counts, one summary line that
 * equals their sum) or not (odd tokens, spaces and line ends, summary
 * lines that do not add up), and the sums of the counts so far. */
struct rnd_prof {
	struct cgp_buf b;
	int clean;
	int big;          /* counts of 17 and 18 digits are common */
	unsigned nev;
	__int128 sum[5];
};

/* A number of 1 to 20 digits, mostly short (in a big profile often 17 or
 * 18, so that sums reach the int64 limit), added to *sum; sometimes, in a
 * profile that is not clean, one the general path reads (a sign, "_", a
 * letter) or digits at the int64 limit. */
static void rnd_number(struct rnd_prof *r, __int128 *sum)
{
	static const char *const odd[] = { "+3", "-2", "1_0", "0x1", "7a", "00", "",
					   "9223372036854775807", "999999999999999999" };
	unsigned k = rnd(100), n, i;
	__int128 v = 0;

	if (!r->clean && k < 4) {
		cgp_buf_adds(&r->b, odd[rnd(sizeof odd / sizeof *odd)]);
		return;
	}
	n = k < 60 ? 1 : k < 97 ? 2 + rnd(4) : 1 + rnd(20);
	if (r->big && k % 3 == 0)
		n = 17 + rnd(2);
	for (i = 0; i < n; i++) {
		unsigned d = i == 0 && n > 1 ? 1 + rnd(9) : rnd(10);
		cgp_buf_addf(&r->b, "%u", d);
		v = v * 10 + d;
	}
	*sum += v;
}

/* The space before a count: one, or in a profile that is not clean
 * sometimes a tab or two spaces. */
static void rnd_space(struct rnd_prof *r)
{
	static const char *const sp[] = { " ", " ", " ", " ", " ", " ", " ", "\t", "  " };

	cgp_buf_adds(&r->b, r->clean ? " " : sp[rnd(sizeof sp / sizeof *sp)]);
}

/* A count line of 0 to nev counts (in a profile that is not clean,
 * sometimes one more), ending in "\n" or, rarely, other ends. */
static void rnd_count_line(struct rnd_prof *r)
{
	static const char *const end[] = { "\n", "\n", "\n", "\n", "\n", "\n", "\n",
					   "\r\n", " \n", "\r" };
	unsigned n = rnd(8) ? r->nev - rnd(2) : rnd(r->nev + 1 + !r->clean), i;
	__int128 line = 0;

	rnd_number(r, &line);
	for (i = 0; i < n; i++) {
		rnd_space(r);
		rnd_number(r, &r->sum[i < r->nev ? i : 0]);
	}
	cgp_buf_adds(&r->b, end[rnd(sizeof end / sizeof *end)]);
}

/* The summary: line of a clean profile: the sums, or 0 where one exceeds
 * int64 (the read fails there anyway). */
static void rnd_summary(struct rnd_prof *r)
{
	unsigned i;

	cgp_buf_adds(&r->b, "summary:");
	for (i = 0; i < r->nev; i++)
		cgp_buf_addf(&r->b, " %lld", r->sum[i] > INT64_MAX ? 0 : (long long)r->sum[i]);
	cgp_buf_adds(&r->b, "\n");
}

/* A profile of nlines lines, events A B C D E (or fewer). */
static void rnd_profile(struct rnd_prof *r, unsigned nlines)
{
	unsigned i;

	r->nev = 1 + rnd(5);
	cgp_buf_addf(&r->b, "cmd: x\nevents:");
	for (i = 0; i < r->nev; i++)
		cgp_buf_addf(&r->b, " %c", 'A' + i);
	cgp_buf_adds(&r->b, "\n");
	for (i = 0; i < nlines; i++) {
		unsigned k = rnd(40);
		if (k == 0)
			cgp_buf_addf(&r->b, "fl=f%u.c\n", rnd(3));
		else if (k == 1)
			cgp_buf_addf(&r->b, "fn=g%u\n", rnd(4));
		else if (k == 2 && !r->clean)
			cgp_buf_adds(&r->b, "summary: 1\n");
		else
			rnd_count_line(r);
	}
	rnd_summary(r);
}

/* Reads path in mode, general_only or not, into p; returns the code. */
static int read_as(struct cgp_profile *p, const char *path, int mode, int general,
		   size_t chunk_size, struct cgp_error *err)
{
	struct cgp_read_opts o;
	int rc;

	memset(&o, 0, sizeof o);
	o.general_only = general;
	o.read_chunk = chunk_size;
	cgp_profile_init(p, (enum cgp_mode)mode);
	rc = cgp_profile_read(p, path, &o, err);
	if (rc == 0 && mode == CGP_MODE_ANNOTATE) {
		o.negate = 1;  /* the second file of --diff */
		rc = cgp_profile_read(p, path, &o, err);
	}
	return rc;
}

/* The fast path of count lines gives what the general path gives: the same
 * data, or the same error at the same line, for random profiles with
 * numbers of every length, other spaces and line ends, sums that reach the
 * int64 limit, read whole and in chunks that cut lines anywhere. */
static void test_fast_path(void)
{
	static const size_t chunks[] = { 0, 7, 61 };
	unsigned seed, bad = 0, errors = 0, runs = 0;

	for (seed = 1; seed <= 300; seed++) {
		struct rnd_prof r = { CGP_BUF_INIT(SIZE_MAX / 2), seed % 4 != 0, seed % 5 == 0,
				      0, { 0 } };
		const char *path;
		rnd_state = 0x9e3779b97f4a7c15ull * seed;
		rnd_profile(&r, 1 + rnd(seed % 10 ? 40 : 400));
		path = put("fast.cgout", r.b.s, r.b.len);
		for (int mode = CGP_MODE_ANNOTATE; mode <= CGP_MODE_DIFF; mode++) {
			struct cgp_profile p, q;
			struct cgp_error ep = CGP_ERROR_INIT, eq = CGP_ERROR_INIT;
			int rp = read_as(&p, path, mode, 1, 0, &ep);
			int rq = read_as(&q, path, mode, 0, chunks[seed % 3], &eq);
			int same = rp == rq && (rp ? !strcmp(ep.msg, eq.msg) : prof_same(&p, &q));
			runs++;
			errors += rp != 0;
			if (!same && bad++ < 3)
				fprintf(stderr, "seed %u mode %d: %d %s / %d %s\n", seed, mode,
					rp, ep.msg ? ep.msg : "", rq, eq.msg ? eq.msg : "");
			cgp_error_release(&ep);
			cgp_error_release(&eq);
			cgp_profile_release(&p);
			cgp_profile_release(&q);
		}
		cgp_buf_release(&r.b);
	}
	CHECKF(bad == 0, "%u of %u random profiles read differently", bad, runs);
	/* Both kinds of outcome must be common, or the test proves little. */
	CHECKF(errors > runs / 10 && errors < runs * 9 / 10, "%u errors in %u reads",
	       errors, runs);
}

/* Line tables keep any int64 counts exactly: every magnitude, both signs,
 * rows of bytes that stop fitting in bytes (made wide), many events; an
 * overflow leaves the row as it was. */
static void test_lines(void)
{
	static const int64_t vals[] = { 0, 1, -1, 63, -64, 64, 127, 128, 8191, 8192,
					INT32_MAX, INT32_MIN, (int64_t)1 << 62,
					INT64_MAX, INT64_MIN + 1, INT64_MIN };
	enum { NV = sizeof vals / sizeof *vals, NEV = 70 };
	struct cgp_lines t;
	int64_t c[NEV], want[NEV], got[NEV];
	unsigned bad = 0, i, r, k;

	memset(&t, 0, sizeof t);
	/* Row r holds vals rotated by r, in NEV events (zeros between). */
	for (r = 0; r < 40; r++) {
		for (k = 0; k < NEV; k++)
			c[k] = k % 3 ? 0 : vals[(k / 3 + r) % NV];
		bad += cgp_lines_add(&t, NEV, (int64_t)r * 7, c, 1) != 0;
	}
	for (r = 0; r < 40; r++) {
		for (k = 0; k < NEV; k++)
			want[k] = k % 3 ? 0 : vals[(k / 3 + r) % NV];
		cgp_lines_get(&t, r, got);
		bad += memcmp(got, want, sizeof got) != 0;
	}
	CHECKF(bad == 0 && t.n == 40, "%u rows wrong", bad);
	/* Row 0 grows (8192 in event 1 does not fit in a byte), then shrinks
	 * back; a subtraction that overflows changes nothing. */
	cgp_lines_get(&t, 0, want);
	memset(c, 0, sizeof c);
	c[1] = 8192;
	CHECK_EQ(cgp_lines_add(&t, NEV, 0, c, 1), 0);
	CHECK_EQ(cgp_lines_add(&t, NEV, 0, c, -1), 0);
	cgp_lines_get(&t, 0, got);
	CHECKF(!memcmp(got, want, sizeof got), "row 0 after +8192 -8192");
	for (i = 0; i < NEV && want[i] != INT64_MIN; i++)
		;
	c[1] = 0;
	c[i < NEV ? i : 0] = 1;
	CHECK_EQ(cgp_lines_add(&t, NEV, 0, c, -1), CGP_EOVERFLOW);
	cgp_lines_get(&t, 0, got);
	CHECKF(i < NEV && !memcmp(got, want, sizeof got), "overflow changed the row");
	cgp_lines_release(&t);

	/* Sums: a partial sum out of range fails even when the total is in
	 * range (rows of both signs), as adding row by row does; counts that
	 * are never negative are checked by their total (from a negative
	 * start, a total beyond int64 still fits). */
	{
		int64_t sum[2] = { 0, -5 }, a[2] = { INT64_MAX, 0 }, b[2] = { 1, 1 };
		int64_t nb[2] = { -1, 0 };
		memset(&t, 0, sizeof t);
		cgp_lines_add(&t, 2, 1, a, 1);
		cgp_lines_add(&t, 2, 2, b, 1);
		cgp_lines_add(&t, 2, 3, nb, 1);
		CHECK_EQ(cgp_lines_sum(&t, sum), -1);
		cgp_lines_release(&t);
		memset(&t, 0, sizeof t);
		sum[0] = INT64_MIN + 2;
		sum[1] = 7;
		cgp_lines_add(&t, 2, 1, a, 1);
		cgp_lines_add(&t, 2, 2, b, 1);
		CHECKF(cgp_lines_sum(&t, sum) == 0 && sum[0] == 2 && sum[1] == 8,
		       "sum %lld %lld", (long long)sum[0], (long long)sum[1]);
		CHECK_EQ(cgp_lines_sum(&t, sum), -1);
		cgp_lines_release(&t);
	}
	/* A row of bytes that stops fitting in bytes becomes wide, and keeps
	 * its counts; small negative counts stay bytes. */
	{
		int64_t a[3] = { 1, 2, 3 }, b[3] = { 0, 200, 0 }, n3[3] = { -5, 0, -127 };
		int64_t got3[3];
		memset(&t, 0, sizeof t);
		cgp_lines_add(&t, 3, 1, a, 1);
		cgp_lines_add(&t, 3, 1, b, 1);
		cgp_lines_add(&t, 3, 2, n3, 1);
		cgp_lines_get(&t, 0, got3);
		CHECKF(got3[0] == 1 && got3[1] == 202 && got3[2] == 3 && t.nwide == 1,
		       "row made wide: %lld %lld %lld", (long long)got3[0],
		       (long long)got3[1], (long long)got3[2]);
		cgp_lines_get(&t, 1, got3);
		CHECK(got3[0] == -5 && got3[1] == 0 && got3[2] == -127 && t.nwide == 1);
		cgp_lines_release(&t);
	}
	/* A row as text: the bytes (one, two and three digits) and the
	 * others, as printf writes them. */
	{
		static const int64_t v[] = { 0, 9, 10, 99, 100, 254, 255, 1000, -1,
					     INT64_MIN, INT64_MAX, 7 };
		char got_text[400], want_text[400];
		size_t n = 0;
		memset(&t, 0, sizeof t);
		cgp_lines_add(&t, 12, 5, v, 1);
		for (i = 0; i < 12; i++)
			n += (size_t)snprintf(want_text + n, sizeof want_text - n, " %lld",
					      (long long)v[i]);
		n = cgp_lines_text(&t, 0, got_text);
		got_text[n] = '\0';
		CHECKF(!strcmp(got_text, want_text), "row text '%s'", got_text);
		cgp_lines_release(&t);
	}
	/* Many rows (past the 256 of a lane), every count a byte or some
	 * not, 13 and 70 events: the sums of a plain loop. */
	for (k = 0; k < 4; k++) {
		unsigned nev = k % 2 ? 70 : 13, e;
		int64_t sum[NEV], want2[NEV], row[NEV];
		memset(&t, 0, sizeof t);
		memset(sum, 0, sizeof sum);
		memset(want2, 0, sizeof want2);
		rnd_state = 77 + k;
		for (r = 0; r < 1000; r++) {
			for (e = 0; e < nev; e++) {
				/* k = 0: near 254, so that a lane of 257 rows overflows */
				row[e] = k ? rnd(255) : 254 - rnd(3);
				if (k >= 2 && rnd(50) == 0)
					row[e] = 255 + rnd(100000);
				want2[e] += row[e];
			}
			cgp_lines_add(&t, nev, r, row, 1);
		}
		CHECKF(cgp_lines_sum(&t, sum) == 0 && !memcmp(sum, want2, nev * sizeof *sum),
		       "sums of 1000 rows of %u events (%s)", nev, k >= 2 ? "some big" : "bytes");
		cgp_lines_release(&t);
	}
}

/* Lines added to a table in many orders (growing, in blocks out of order,
 * random, falling, blocks that fill gaps left by others; each pattern
 * twice as a second profile would, or in the other order) make the rows
 * a plain list gives: first-seen order, counts summed. */
static void test_lines_orders(void)
{
	enum { N = 3000, NEV = 3 };
	static int64_t want_line[N], want_sum[N][NEV];
	unsigned pat, bad = 0;

	for (pat = 0; pat < 6; pat++) {
		struct cgp_lines t;
		size_t nwant = 0, i, j;
		int64_t c[NEV], got[NEV];
		memset(&t, 0, sizeof t);
		rnd_state = 1234 + pat;
		for (i = 0; i < 2 * N; i++) {
			/* patterns 4 and 5 are read again the other way round
			 * (found by binary search in their runs, no index made) */
			size_t k = pat >= 4 && i >= N ? 2 * N - 1 - i : i % N;
			/* growing; blocks of 50 out of order; random; falling;
			 * blocks of 20 out of order, then blocks in the gaps */
			int64_t line = pat % 4 == 0 ? (int64_t)k * 3 :
				       pat == 1 ? (int64_t)((k / 50 * 37) % 60 * 50 + k % 50) :
				       pat == 2 ? (int64_t)rnd(N) :
				       pat == 3 ? (int64_t)(N - k) :
				       (int64_t)((k / 20 * 7) % 150 * 100 + (k < N / 2 ? 0 : 50) + k % 20);
			for (j = 0; j < NEV; j++)
				c[j] = rnd(300);
			for (j = 0; j < nwant && want_line[j] != line; j++)
				;
			if (j == nwant) {
				want_line[nwant++] = line;
				memset(want_sum[j], 0, sizeof want_sum[j]);
			}
			for (size_t e = 0; e < NEV; e++)
				want_sum[j][e] += c[e];
			bad += cgp_lines_add(&t, NEV, line, c, 1) != 0;
		}
		bad += t.n != nwant;
		/* Growing lines, found again in any order, and blocks of them
		 * that do not overlap: no index needed. */
		bad += pat != 2 && pat != 3 && t.index != NULL;
		for (i = 0; i < t.n && i < nwant; i++) {
			cgp_lines_get(&t, i, got);
			bad += t.line[i] != want_line[i] || memcmp(got, want_sum[i], sizeof got);
		}
		cgp_lines_release(&t);
	}
	CHECKF(bad == 0, "%u differences from a plain list", bad);
}

/* check_events of test_shrinking_file: the file is cut to 100 bytes
 * while it is read (mapped), as another program could. */
static int cut_file(void *ctx, char **events, unsigned nev, struct cgp_error *err)
{
	(void)events, (void)nev, (void)err;
	return truncate((const char *)ctx, 100) ? -1 : 0;
}

/* A mapped profile that shrinks under the reader is an error naming the
 * file, not a crash (SIGBUS); SIGBUS is left as it was. */
static void test_shrinking_file(void)
{
	struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);
	struct cgp_profile p;
	struct cgp_read_opts o;
	struct cgp_error err = CGP_ERROR_INIT;
	struct sigaction now;
	const char *path;
	unsigned i;

	cgp_buf_adds(&b, "cmd: x\nevents: A B\nfl=a.c\nfn=f\n");
	for (i = 0; i < 100000; i++)
		cgp_buf_addf(&b, "%u 1 2\n", i + 1);
	cgp_buf_adds(&b, "summary: 100000 200000\n");
	path = put("shrink.cgout", b.s, b.len);
	cgp_buf_release(&b);
	memset(&o, 0, sizeof o);
	o.check_events = cut_file;
	o.ctx = (void *)path;
	cgp_profile_init(&p, CGP_MODE_ANNOTATE);
	CHECKF(cgp_profile_read(&p, path, &o, &err) == CGP_EIO && err.msg &&
	       strstr(err.msg, "shrink.cgout': the file shrank while it was read"),
	       "shrinking file: %s", err.msg ? err.msg : "no error");
	CHECK(sigaction(SIGBUS, NULL, &now) == 0 && now.sa_handler == SIG_DFL);
	cgp_error_release(&err);
	cgp_profile_release(&p);
}

/* Rewinding starts again at line 1; a pipe cannot be rewound. */
static void test_reader_rewind(void)
{
	struct cgp_reader r;
	struct cgp_error err = CGP_ERROR_INIT;
	const char *line;
	size_t len;
	int fd[2];
	char path[64];

	CHECKF(cgp_reader_open(&r, put("rw", "one\ntwo\n", 8), 100, &err) == 0, "open rw");
	CHECKF(cgp_reader_next(&r, &line, &len, &err) == 1 && cgp_reader_next(&r, &line, &len, &err) == 1 &&
	      len == 3 && !memcmp(line, "two", 3), "two lines");
	CHECKF(cgp_reader_rewind(&r, &err) == 0 && r.lineno == 0, "rewind");
	CHECKF(cgp_reader_next(&r, &line, &len, &err) == 1 && len == 3 && !memcmp(line, "one", 3) &&
	      r.lineno == 1, "line 1 again");
	cgp_reader_release(&r);

	if (pipe(fd) == 0) {
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd[0]);
		close(fd[1]);
		CHECKF(cgp_reader_open(&r, path, 100, &err) == 0, "open a pipe");
		CHECKF(cgp_reader_rewind(&r, &err) == CGP_EIO && err.errnum == ESPIPE && err.msg &&
		      strstr(err.msg, "again: Illegal seek"), "pipe rewind: %s", err.msg);
		cgp_error_release(&err);
		cgp_reader_release(&r);
		close(fd[0]);
	}
}

/* A "\r\n" split across two reads of the reader's 1 MiB chunks. */
static void test_reader_boundary(void)
{
	size_t n = (2u << 20) - 1, i;
	char *text = malloc(n + 6);
	struct cgp_reader r;
	struct cgp_error err = CGP_ERROR_INIT;
	const char *line;
	size_t len;

	memset(text, 'a', n);
	memcpy(text + n, "\r\nb\r\n", 5);
	put("big", text, n + 5);
	CHECKF(cgp_reader_open(&r, put("big", text, n + 5), CGP_MAX_LINE, &err) == 0, "open big");
	CHECKF(cgp_reader_next(&r, &line, &len, &err) == 1 && len == n, "big line: %zu", len);
	for (i = 0; i < len && line[i] == 'a'; i++)
		;
	CHECKF(i == n, "big line contents");
	CHECKF(cgp_reader_next(&r, &line, &len, &err) == 1 && len == 1 && line[0] == 'b',
	      "line after the boundary");
	CHECKF(cgp_reader_next(&r, &line, &len, &err) == 0 && r.lineno == 3, "EOF after boundary");
	cgp_reader_release(&r);
	free(text);
}

/* The bytes of the file mapped at [lo, hi) resident in this process, from
 * /proc/self/smaps (the Rss of the mappings of that range that name a
 * file); -1 where it cannot be read. */
static long mapped_resident(const char *lo, const char *hi)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	unsigned long a, b;
	long kb, total = 0;
	int in = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		char path[256] = "";
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %255s", &a, &b, path) >= 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in = (const char *)a >= lo && (const char *)b <= hi && path[0] == '/';
			continue;
		}
		if (in && sscanf(line, "Rss: %ld kB", &kb) == 1)
			total += kb * 1024;
	}
	fclose(f);
	return total;
}

/* A mapped file is read a window at a time: lines across the windows'
 * boundaries and a line longer than a window come out whole, rewinding
 * reads the same lines again, and no more than about two windows of the
 * file are resident at any time (the kernel would otherwise map pages
 * well ahead of the reader). */
static void test_reader_windows(void)
{
	size_t n = 4 * CGP_MAP_WINDOW + 12345, i = 0, k, seen, lines = 0;
	size_t long_line = CGP_MAP_WINDOW + 1000;
	char *text = malloc(n);
	struct cgp_reader r;
	struct cgp_error err = CGP_ERROR_INIT;
	const char *line;
	size_t len;
	long most = 0, now;
	unsigned pass;
	int bad = 0;

	/* Lines of 1 to 300 bytes, then one longer than a window, then more. */
	rnd_state = 7;
	while (i < n) {
		k = lines == 100 ? long_line : 1 + rnd(300);
		if (k > n - i - 1)
			k = n - i - 1;
		memset(text + i, 'a' + (int)(lines % 26), k);
		text[i + k] = '\n';
		i += k + 1;
		lines++;
	}
	CHECKF(cgp_reader_open(&r, put("windows", text, n), 2 * CGP_MAP_WINDOW, &err) == 0,
	       "open windows");
	CHECK(cgp_reader_map(&r) == 1);
	for (pass = 0; pass < 2; pass++) {
		seen = 0, i = 0;
		while (cgp_reader_next(&r, &line, &len, &err) == 1) {
			if (line != r.buf + i || text[i + len] != '\n' ||
			    memchr(line, '\n', len) ||
			    (len && (line[0] != 'a' + (int)(seen % 26) ||
				     line[len - 1] != line[0])))
				bad++;
			i += len + 1;
			seen++;
			if (seen % 64 == 0 && (now = mapped_resident(r.buf, r.buf + r.maplen)) > most)
				most = now;
		}
		CHECKF(!bad && seen == lines && i == n, "pass %u: %zu of %zu lines, %d bad",
		       pass, seen, lines, bad);
		CHECKF(pass == 1 || cgp_reader_rewind(&r, &err) == 0, "rewind: %s",
		       err.msg ? err.msg : "");
	}
	/* The window, what the reader is in, a page and a large folio. */
	CHECKF(most <= (long)(long_line + 2 * CGP_MAP_WINDOW + (64 << 10)),
	       "%ld bytes of the file resident", most);
	cgp_reader_release(&r);
	free(text);
}

static const struct cgp_cc *find_cc(const struct cgp_profile *p, const char *file,
				    const char *fn)
{
	size_t i;

	for (i = 0; i < p->tab.ncc; i++)
		if (!strcmp(p->tab.cc[i].file->s, file) && !strcmp(p->tab.cc[i].fn->s, fn))
			return &p->tab.cc[i];
	return NULL;
}

static const char prof_text[] =
	"desc: one\n"
	"desc:   two\n"
	"cmd: ./p a\n"
	"events: Ir Dr\n"
	"fl=x.c\n"
	"10 1 2\n"
	"fn=f\n"
	"11 3000000000 4\n"
	"11 5\n"
	"fl=y.c\n"
	"fn=g\n"
	"0 7 7\n"
	"summary: 3000000013 13\n";

static void test_modes(void)
{
	struct cgp_profile p;
	struct cgp_read_opts o;
	struct cgp_error err = CGP_ERROR_INIT;
	const char *path = put("p.cgout", prof_text, sizeof prof_text - 1);
	const struct cgp_cc *c;
	int64_t v[2];

	/* ANNOTATE: fl= makes "<unspecified>"; per-file line tables. */
	memset(&o, 0, sizeof o);
	cgp_profile_init(&p, CGP_MODE_ANNOTATE);
	CHECKF(cgp_profile_read(&p, path, &o, &err) == 0, "annotate read: %s", err.msg);
	CHECKF(p.nev == 2 && !strcmp(p.in[0].desc, "one\ntwo\n") && !strcmp(p.in[0].cmd, "./p a"),
	      "annotate header");
	c = find_cc(&p, "x.c", "<unspecified>");
	CHECKF(c && c->total[0] == 1 && c->total[1] == 2, "annotate <unspecified>");
	c = find_cc(&p, "x.c", "f");
	CHECKF(c && c->total[0] == 3000000005 && c->total[1] == 4, "annotate x.c:f");
	CHECKF(find_cc(&p, "y.c", "<unspecified>") != NULL, "fl= creates a zero entry");
	CHECKF(p.tab.nfile == 2 && p.tab.file[0].lines.n == 2, "two rows in x.c");
	cgp_lines_get(&p.tab.file[0].lines, 1, v);
	CHECKF(v[0] == 3000000005 && v[1] == 4, "line 11 summed: %lld", (long long)v[0]);
	CHECKF(p.summary[0] == 3000000013 && p.summary[1] == 13, "annotate summary");
	/* A second file, negated (--diff). */
	o.negate = 1;
	CHECKF(cgp_profile_read(&p, path, &o, &err) == 0, "annotate negated read");
	c = find_cc(&p, "x.c", "f");
	CHECKF(c && c->total[0] == 0 && p.summary[0] == 0, "negated file cancels");
	cgp_profile_release(&p);

	/* MERGE: "???" after fl=, entries only from count lines. */
	memset(&o, 0, sizeof o);
	cgp_profile_init(&p, CGP_MODE_MERGE);
	CHECKF(cgp_profile_read(&p, path, &o, &err) == 0, "merge read");
	CHECKF(cgp_profile_read(&p, path, &o, &err) == 0, "merge read twice");
	c = find_cc(&p, "x.c", "???");
	CHECKF(c && c->lines && c->lines->n == 1 && c->lines->line[0] == 10, "merge x.c:???");
	CHECKF(find_cc(&p, "y.c", "<unspecified>") == NULL, "no <unspecified> in merge");
	CHECKF(p.summary[0] == 6000000026, "merge summary summed");
	cgp_profile_release(&p);

	/* DIFF: line numbers ignored, keys (file, function). */
	memset(&o, 0, sizeof o);
	cgp_profile_init(&p, CGP_MODE_DIFF);
	CHECKF(cgp_profile_read(&p, path, &o, &err) == 0, "diff read");
	c = find_cc(&p, "y.c", "g");
	CHECKF(c && c->total[0] == 7 && p.tab.ncc == 3, "diff keys: %zu", p.tab.ncc);
	cgp_profile_release(&p);

	/* The rule line_numbers: only cg_diff reads past a malformed one. */
	{
		static const char t[] = "cmd: x\nevents: A\nfl=a\nfn=f\n1x 2\nsummary: 2\n";
		path = put("lineno.cgout", t, sizeof t - 1);
	}
	for (int mode = CGP_MODE_ANNOTATE; mode <= CGP_MODE_DIFF; mode++) {
		int rc;
		memset(&o, 0, sizeof o);
		cgp_profile_init(&p, (enum cgp_mode)mode);
		rc = cgp_profile_read(&p, path, &o, &err);
		if (mode == CGP_MODE_DIFF)
			CHECKF(rc == 0 && p.summary[0] == 2, "diff ignores line numbers: %s", err.msg);
		else
			CHECKF(rc == CGP_EPARSE && err.msg &&
			       strstr(err.msg, "lineno.cgout:5: malformed line number '1x'"),
			       "mode %d: %s", mode, err.msg);
		cgp_error_release(&err);
		cgp_profile_release(&p);
	}

	/* A bad count names the file and line. */
	path = put("bad.cgout", "cmd: x\nevents: A\nfl=a\n1 2 3\n", 27);
	memset(&o, 0, sizeof o);
	cgp_profile_init(&p, CGP_MODE_ANNOTATE);
	CHECKF(cgp_profile_read(&p, path, &o, &err) == CGP_EPARSE && err.msg &&
	      strstr(err.msg, "bad.cgout:4: too many event counts"), "too many: %s", err.msg);
	cgp_profile_release(&p);
	cgp_error_release(&err);
}

/* What test_compare's callback saw, one "file fn line a b" text per record. */
static char cmp_seen[512];

static void on_diff(void *ctx, const char *file, const char *fn, int64_t line,
		    const int64_t *ca, const int64_t *cb, unsigned nev)
{
	size_t k = strlen(cmp_seen);

	snprintf(cmp_seen + k, sizeof cmp_seen - k, "%s %s %lld %s %s|", file, fn,
		 (long long)line, ca ? (ca[nev - 1] == 4 ? "4" : "x") : "-",
		 cb ? (cb[nev - 1] == 5 ? "5" : "y") : "-");
}

static void test_compare(void)
{
	static const char a[] =
		"cmd: p\nevents: Ir Dr\n"
		"fl=z.c\nfn=m\n1 1 1\n"
		"fl=b.c\nfn=f\n3 9 9\n2 1 4\n7 0 0\n"
		"summary: 11 14\n";
	static const char b[] =
		"cmd: p\nevents: Ir Dr\n"
		"fl=b.c\nfn=f\n2 1 5\n3 9 9\n5 0 0\n"
		"fl=z.c\nfn=m\n1 1 1\n"
		"summary: 11 15\n";
	static const char c[] = "cmd: p\nevents: Ir\nfl=a\n1 1\nsummary: 1\n";
	struct cgp_profile pa, pb, pc;
	struct cgp_read_opts o;
	struct cgp_error err = CGP_ERROR_INIT;
	long n;

	memset(&o, 0, sizeof o);
	cgp_profile_init(&pa, CGP_MODE_MERGE);
	cgp_profile_init(&pb, CGP_MODE_MERGE);
	cgp_profile_init(&pc, CGP_MODE_MERGE);
	CHECKF(!cgp_profile_read(&pa, put("ca", a, sizeof a - 1), &o, &err) &&
	      !cgp_profile_read(&pb, put("cb", b, sizeof b - 1), &o, &err), "compare read");
	/* Same profile, other order of records: nothing differs. */
	cmp_seen[0] = '\0';
	n = cgp_compare(&pa, &pa, on_diff, NULL, &err);
	CHECKF(n == 0 && !cmp_seen[0], "a profile equals itself: %ld", n);
	/* Line 2 differs in Dr, 5 only in b, 7 only in a, in line order;
	 * zero-count records count as records. */
	n = cgp_compare(&pa, &pb, on_diff, NULL, &err);
	CHECKF(n == 3 && !strcmp(cmp_seen, "b.c f 2 4 5|b.c f 5 - y|b.c f 7 x -|"),
	      "differences: %ld %s", n, cmp_seen);
	/* Other events: an error naming both files. */
	CHECKF(!cgp_profile_read(&pc, put("cc", c, sizeof c - 1), &o, &err),
	      "compare read c: %s", err.msg);
	n = cgp_compare(&pa, &pc, on_diff, NULL, &err);
	CHECKF(n == CGP_EEVENTS && err.msg && strstr(err.msg, "/ca' and '") &&
	      strstr(err.msg, "different events"), "events differ: %ld %s", n, err.msg);
	cgp_error_release(&err);
	cgp_profile_release(&pa);
	cgp_profile_release(&pb);
	cgp_profile_release(&pc);
}

/* The table of rules is the one cgp.h describes. */
static void test_rules(void)
{
	const struct cgp_rules *a = cgp_rules_of(CGP_MODE_ANNOTATE);
	const struct cgp_rules *m = cgp_rules_of(CGP_MODE_MERGE);
	const struct cgp_rules *d = cgp_rules_of(CGP_MODE_DIFF);

	CHECK_EQ(a->line_numbers, 1);
	CHECK_EQ(m->line_numbers, 1);
	CHECK_EQ(d->line_numbers, 0);
	CHECK_STR(a->fl_function, "<unspecified>");
	CHECK_STR(m->fl_function, "???");
	CHECK_STR(d->fl_function, "???");
	CHECK(a->names_make_entries && !m->names_make_entries && !d->names_make_entries);
	CHECK(a->scratch_before_fl && !m->scratch_before_fl && !d->scratch_before_fl);
	CHECK(a->keep_originals && !m->keep_originals && !d->keep_originals);
	CHECK_EQ(a->lines, CGP_LINES_PER_FILE);
	CHECK_EQ(m->lines, CGP_LINES_PER_CC);
	CHECK_EQ(d->lines, CGP_LINES_NONE);
	CHECK_EQ(a->summary, CGP_SUMMARY_CHECK_EACH);
	CHECK_EQ(m->summary, CGP_SUMMARY_ADD);
	CHECK_EQ(d->summary, CGP_SUMMARY_LAST);
	CHECK(a->events_at_once && !m->events_at_once && !d->events_at_once);
	CHECK(!a->keep_instrs && m->keep_instrs && !d->keep_instrs);
}

/* An instruction-level profile: subpositions, objects keyed by (name,
 * build-id), instruction rows kept on request, line tables as before. */
static void test_instrs(void)
{
	static const char t[] =
		"cmd: p\npositions: instr line\nevents: Ir Dr\n"
		"fl=a.c\nfn=f\n0x10 3 1 0\n"            /* object ??? */
		"ob=/x\n# build-id: 00ff\nfl=a.c\nfn=f\n"
		"0x10 3 2 0\n+4 * 3 1\n-2 +1 4 0\n*\t* 5 0\n"
		"ob=/x\n# build-id: 0100\nfl=a.c\nfn=f\n0x10 3 6 0\n"
		"ob=/x\nfl=a.c\nfn=f\n16 3 7 0\n"
		"summary: 28 1\n";
	const char *path = put("i.cgout", t, sizeof t - 1);
	struct cgp_profile p;
	struct cgp_read_opts o;
	struct cgp_error err = CGP_ERROR_INIT;
	const struct cgp_cc *c;
	const struct cgp_lines *r;
	int64_t v[2];
	struct cgp_lines l;

	memset(&o, 0, sizeof o);
	o.keep_instrs = 1;
	cgp_profile_init(&p, CGP_MODE_ANNOTATE);
	CHECKF(cgp_profile_read(&p, path, &o, &err) == 0, "instr read: %s", err.msg);
	CHECK(p.instr && p.keep_instrs && p.in[0].instr);
	/* Objects: ???, (/x, 00ff), (/x, 0100), (/x, none). */
	CHECK_EQ(p.tab.nobj, 4);
	CHECK_STR(p.tab.obj[0].name->s, "???");
	CHECK(p.tab.obj[0].build_id == NULL);
	CHECK_STR(p.tab.obj[1].name->s, "/x");
	CHECK_STR(p.tab.obj[1].build_id->s, "00ff");
	CHECK_STR(p.tab.obj[2].build_id->s, "0100");
	CHECK(p.tab.obj[3].build_id == NULL && p.tab.obj[3].name == p.tab.obj[1].name);
	c = find_cc(&p, "a.c", "f");
	r = c ? c->instrs : NULL;
	/* Rows: (3,???,0x10) (3,o1,0x10) (3,o1,0x14) (4,o1,0x12) (3,o2,0x10)
	 * (3,o3,16); "* *" added to (4,o1,0x12). */
	CHECKF(r && r->n == 6, "instr rows: %zu", r ? r->n : 0);
	if (r && r->n == 6) {
		CHECK(r->addr[1] == 0x10 && r->obj[1] == 1 && r->line[1] == 3);
		CHECK(r->addr[2] == 0x14 && r->line[2] == 3);
		CHECK(r->addr[3] == 0x12 && r->line[3] == 4);
		cgp_lines_get(r, 3, v);
		CHECKF(v[0] == 9, "\"* *\" adds to the previous position: %lld", (long long)v[0]);
		CHECK(r->obj[4] == 2 && r->obj[5] == 3 && r->addr[5] == 16);
	}
	/* The line table sums the instructions of each line. */
	CHECK(p.tab.file[0].lines.n == 2);
	cgp_lines_get(&p.tab.file[0].lines, 0, v);
	CHECKF(v[0] == 19 && v[1] == 1, "line 3: %lld", (long long)v[0]);
	cgp_profile_release(&p);

	/* Without keep_instrs nothing is kept; cg_merge keeps them. */
	memset(&o, 0, sizeof o);
	cgp_profile_init(&p, CGP_MODE_ANNOTATE);
	CHECK(cgp_profile_read(&p, path, &o, &err) == 0);
	c = find_cc(&p, "a.c", "f");
	CHECK(c && !c->instrs && !p.keep_instrs);
	cgp_profile_release(&p);
	cgp_profile_init(&p, CGP_MODE_MERGE);
	CHECK(cgp_profile_read(&p, path, &o, &err) == 0);
	c = find_cc(&p, "a.c", "f");
	CHECK(c && c->instrs && c->instrs->n == 6 && c->lines && c->lines->n == 2);
	cgp_profile_release(&p);

	/* One table holds one kind of row. */
	memset(&l, 0, sizeof l);
	v[0] = v[1] = 1;
	CHECK_EQ(cgp_lines_add(&l, 2, 3, v, 1), 0);
	CHECK_EQ(cgp_instrs_add(&l, 2, 3, 0, 0x10, 0, v, 1), CGP_EUSAGE);
	cgp_lines_release(&l);
}

static void test_subst(void)
{
	static const struct { const char *expr, *in, *out; } cases[] = {
		/* Results of Python 3.11 re.sub. */
		{ "s/x*/-/g", "abxd", "-a-b--d-" },
		{ "s/x*/-/", "abxd", "-abxd" },
		{ "s/\\.[0-9]+$//", "foo.123", "foo" },
		{ "s/(\\w+)/<\\1>/g", "a b", "<a> <b>" },
		{ "s/(?P<w>[a-z]+)/\\g<w>!/g", "ab cd", "ab! cd!" },
		{ "s/O/0/gi", "foo", "f00" },
		{ "s/(a)|(b)/[\\1\\2]/g", "ab", "[a][b]" },
		{ "s/a\\/b/Q/", "a/b/c", "Q/c" },
		{ "s/e/\\./g", "see", "s\\.\\." },
		{ "s/a/\\101\\t/", "a", "A\t" },
		{ "s/ß/ss/g", "straße", "strasse" },
		{ "s/a/b/c/", "a/b", "c" },
	};
	struct cgp_error err = CGP_ERROR_INIT;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct cgp_subst *x = cgp_subst_new(cases[i].expr, &err);
		struct cgp_buf b = CGP_BUF_INIT(1 << 20);
		CHECKF(x != NULL, "compile %s: %s", cases[i].expr, err.msg);
		if (!x)
			continue;
		CHECKF(cgp_subst_apply(x, cases[i].in, strlen(cases[i].in), &b, &err) == 0,
		      "apply %s", cases[i].expr);
		CHECKF(b.s && !strcmp(b.s, cases[i].out), "%s on %s gave %s, want %s",
		      cases[i].expr, cases[i].in, b.s ? b.s : "", cases[i].out);
		cgp_buf_release(&b);
		cgp_subst_free(x);
	}
	CHECKF(cgp_subst_new("s/a/b/c/d", &err) == NULL && err.code == CGP_EUSAGE, "bad flags");
	cgp_error_release(&err);
}

static void test_buf(void)
{
	struct cgp_buf b = CGP_BUF_INIT(8);

	CHECKF(cgp_buf_adds(&b, "1234") == 0 && cgp_buf_adds(&b, "5678") == 0, "fits");
	CHECKF(cgp_buf_adds(&b, "9") == -1 && b.len == 8 && !strcmp(b.s, "12345678"),
	      "maximum size enforced");
	cgp_buf_release(&b);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}
	RUN(test_reader);
	RUN(test_reader_refill);
	RUN(test_profile_refill);
	RUN(test_fast_path);
	RUN(test_lines);
	RUN(test_lines_orders);
	RUN(test_shrinking_file);
	RUN(test_reader_rewind);
	RUN(test_reader_boundary);
	RUN(test_reader_windows);
	RUN(test_modes);
	RUN(test_rules);
	RUN(test_instrs);
	RUN(test_subst);
	RUN(test_compare);
	RUN(test_buf);
	{
		char cmd[300];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", tmpdir);
	}
	return unit_finish("test_lib_read");
}
