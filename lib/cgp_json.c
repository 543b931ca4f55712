/* cgp_json.c -- the JSON report of cg_annotate and cg_diff: a streaming writer and the document of a model. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * Written here rather than with a JSON library (Debian has jansson and
 * json-c): both build the whole document in memory before writing it,
 * which for the per-line counts of a 4-million-line profile costs more
 * memory and time than the report itself (the budget is 1.5 times the
 * plain report); and neither can write a name that is not UTF-8 so that
 * it can be read back: jansson refuses it, json-c passes the bytes through
 * and the document is no longer JSON.  The emitter is small: strings,
 * integers, three literals and the nesting.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cgp_int.h"
#include "cgp_model.h"

void cgp_json_init(struct cgp_json *j, struct cgp_out *o)
{
	memset(j, 0, sizeof *j);
	j->o = o;
	j->first[0] = 1;
}

/* Most pieces are a few bytes: copied into the buffer here when they fit. */
static void put(struct cgp_json *j, const char *s, size_t n)
{
	struct cgp_out *o = j->o;

	if (n > sizeof o->buf - o->len) {
		cgp_out_add(o, s, n);
		return;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

/* A newline before a member of the document, and before an object or
 * array (or a key) one level further in. */
static int newline(const struct cgp_json *j, int scalar)
{
	return j->depth == 1 || (j->depth == 2 && !(scalar && j->arr[2]));
}

/* Before a value: the comma, and the newline. */
static void sep_(struct cgp_json *j, int scalar)
{
	if (j->first[j->depth])
		j->first[j->depth] = 0;
	else
		put(j, ",", 1);
	if (newline(j, scalar)) {
		put(j, "\n", 1);
		j->nl[j->depth] = 1;
	}
}

static void sep(struct cgp_json *j)
{
	sep_(j, 0);
}

static void open_(struct cgp_json *j, char c)
{
	put(j, &c, 1);
	if (j->depth < (int)sizeof j->first - 1)
		j->depth++;
	j->first[j->depth] = 1;
	j->arr[j->depth] = c == '[';
	j->nl[j->depth] = 0;
}

void cgp_json_obj(struct cgp_json *j)
{
	sep(j);
	open_(j, '{');
}

void cgp_json_arr(struct cgp_json *j)
{
	sep(j);
	open_(j, '[');
}

void cgp_json_end(struct cgp_json *j, char close)
{
	int nl = j->nl[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (nl)
		put(j, "\n", 1);
	put(j, &close, 1);
	if (j->depth == 0)
		put(j, "\n", 1);
}

/* U+2028 LINE SEPARATOR or U+2029 PARAGRAPH SEPARATOR (a sequence of len
 * bytes): line ends to a JavaScript parser older than ES2019. */
static int is_line_sep(const char *s, size_t len)
{
	return len == 3 && s[0] == '\xe2' && s[1] == '\x80' &&
	       (s[2] == '\xa8' || s[2] == '\xa9');
}

/* The bytes a string holds as they are: printable ASCII but '"' and '\\'
 * (a table: the test of every byte of every name). */
static const unsigned char plain_ascii[256] = {
	[0x20] = 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,      /*  !"#$%&'()*+,-./ */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,             /* 0-9:;<=>? */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,             /* @A-O */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,             /* P-Z[\]^_ */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,             /* `a-o */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,             /* p-z{|}~ DEL */
};

/* 1 if the 8 bytes of x are all plain_ascii ones: none with the high bit,
 * none below 0x20, none 0x7f, '"' or '\\' (a zero byte of x, x + 1, x ^
 * '"...' or x ^ '\\...' shows each, the high bit clear). */
static int plain8(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t low = x - 0x2020202020202020ull, del = (x + ones) & high;
	uint64_t q = x ^ 0x2222222222222222ull, b = x ^ 0x5c5c5c5c5c5c5c5cull;

	return !((x | (low & ~x) | del | ((q - ones) & ~q) | ((b - ones) & ~b)) & high);
}

/* The string itself, without the separator. */
static void str_body(struct cgp_json *j, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, run = 0;

	put(j, "\"", 1);
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		char e[8];
		size_t k;
		if (!j->html && i + 8 <= n && plain8(cgp_load8(s + i))) {
			i += 8, run += 8;
			continue;
		}
		if (plain_ascii[c] && !(j->html && (c == '<' || c == '>' || c == '&'))) {
			i++, run++;
			continue;
		}
		if (c >= 0x80) {
			size_t len = cgp_utf8_seq(s + i, n - i);
			if (len && !(j->html && is_line_sep(s + i, len))) {
				i += len, run += len;
				continue;
			}
			if (len) {   /* U+2028 or U+2029 */
				put(j, s + i - run, run);
				run = 0;
				put(j, s[i + 2] == '\xa8' ? "\\u2028" : "\\u2029", 6);
				i += len;
				continue;
			}
		}
		put(j, s + i - run, run);
		run = 0;
		k = 0;
		e[k++] = '\\';
		switch (c) {
		case '"': e[k++] = '"'; break;
		case '\\': e[k++] = '\\'; break;
		case '\n': e[k++] = 'n'; break;
		case '\t': e[k++] = 't'; break;
		case '\r': e[k++] = 'r'; break;
		case '\b': e[k++] = 'b'; break;
		case '\f': e[k++] = 'f'; break;
		default:
			/* Control characters and DEL as \u00XX; a byte that
			 * is not UTF-8 as the lone surrogate \udcXX. */
			e[k++] = 'u';
			e[k++] = c >= 0x80 ? 'd' : '0';
			e[k++] = c >= 0x80 ? 'c' : '0';
			e[k++] = hex[c >> 4];
			e[k++] = hex[c & 15];
			break;
		}
		put(j, e, k);
		i++;
	}
	put(j, s + i - run, run);
	put(j, "\"", 1);
}

void cgp_json_key(struct cgp_json *j, const char *k)
{
	size_t n = strlen(k), i;

	sep(j);
	for (i = 0; i < n && plain_ascii[(unsigned char)k[i]]; i++)
		;
	if (i == n && n + 3 <= sizeof j->o->buf - j->o->len) {
		/* A plain key (all of the report's): "key": in one piece. */
		char *q = j->o->buf + j->o->len;
		q[0] = '"';
		memcpy(q + 1, k, n);
		memcpy(q + 1 + n, "\":", 2);
		j->o->len += n + 3;
	} else {
		str_body(j, k, n);
		put(j, ":", 1);
	}
	j->first[j->depth] = 2;   /* the value that follows takes no comma */
}

/* Separator of a scalar value: none right after a key. */
static void vsep(struct cgp_json *j)
{
	if (j->first[j->depth] == 2)
		j->first[j->depth] = 0;
	else
		sep_(j, 1);
}

void cgp_json_str(struct cgp_json *j, const char *s, size_t n)
{
	vsep(j);
	str_body(j, s, n);
}

void cgp_json_cstr(struct cgp_json *j, const char *s)
{
	cgp_json_str(j, s, strlen(s));
}

/* A short scalar with its separator, in one piece (the hot path: the
 * counts of big reports). */
static void scalar(struct cgp_json *j, const char *t, size_t n)
{
	char local[80], *b = local;
	size_t k = 0;
	int direct = j->o->len + sizeof local <= sizeof j->o->buf;

	if (direct)   /* straight into the output buffer: one copy less */
		b = j->o->buf + j->o->len;

	if (j->first[j->depth] == 2 || j->first[j->depth] == 1) {
		int was = j->first[j->depth];
		j->first[j->depth] = 0;
		if (was == 1 && newline(j, 1))
			b[k++] = '\n', j->nl[j->depth] = 1;
	} else {
		b[k++] = ',';
		if (newline(j, 1))
			b[k++] = '\n', j->nl[j->depth] = 1;
	}
	memcpy(b + k, t, n);
	if (direct)
		j->o->len += k + n;
	else
		put(j, b, k + n);
}

void cgp_json_int(struct cgp_json *j, int64_t v)
{
	char b[32];

	scalar(j, b, cgp_fmt_int(b, v));
}

void cgp_json_bool(struct cgp_json *j, int v)
{
	vsep(j);
	put(j, v ? "true" : "false", v ? 4 : 5);
}

void cgp_json_null(struct cgp_json *j)
{
	vsep(j);
	put(j, "null", 4);
}

void cgp_json_val(struct cgp_json *j, const struct cgp_model *m, unsigned k, int64_t v)
{
	char b[48];

	if (m->ratio[k] && v == CGP_NA) {
		cgp_json_null(j);
		return;
	}
	scalar(j, b, cgp_model_fmt(m, k, v, 0, b));
}

/* ------------------------------------------------------------------------ */
/* The document                                                              */
/* ------------------------------------------------------------------------ */

/* cgp_json_obj/arr after a key: no separator of their own. */
static void key_obj(struct cgp_json *j, const char *k)
{
	cgp_json_key(j, k);
	j->first[j->depth] = 0;
	open_(j, '{');
}

static void key_arr(struct cgp_json *j, const char *k)
{
	cgp_json_key(j, k);
	j->first[j->depth] = 0;
	open_(j, '[');
}

/* An array of the values of one side of v in the columns cols[0..n)
 * (NULL: every column).  An array's scalars take no newline, so the values
 * go straight into the output buffer, a comma between them (the hot path
 * of big reports). */
static void vals_of(struct cgp_json *j, const struct cgp_model *m, const int64_t *v,
		    int side, const char *key, const unsigned *cols, unsigned n)
{
	size_t room = 48 * (size_t)n + 8;
	unsigned c;
	char *q, *b;

	key_arr(j, key);
	if (room > sizeof j->o->buf) {
		for (c = 0; c < n; c++)
			cgp_json_val(j, m, cols ? cols[c] : c,
				     cgp_mval(m, v, side, cols ? cols[c] : c));
		cgp_json_end(j, ']');
		return;
	}
	q = b = cgp_out_room(j->o, room);
	for (c = 0; c < n; c++) {
		unsigned k = cols ? cols[c] : c;
		int64_t x = cgp_mval(m, v, side, k);
		if (c)
			*q++ = ',';
		if (m->ratio[k] && x == CGP_NA) {
			memcpy(q, "null", 4);
			q += 4;
		} else if (m->ratio[k]) {
			q += cgp_model_fmt(m, k, x, 0, q);
		} else if ((uint64_t)x < 10) {  /* most */
			*q++ = (char)('0' + x);
		} else {
			q += cgp_fmt_int(q, x);
		}
	}
	j->o->len += (size_t)(q - b);
	j->first[j->depth] = 0;
	cgp_json_end(j, ']');
}

static void vals(struct cgp_json *j, const struct cgp_model *m, const int64_t *v,
		 int side, const char *key)
{
	vals_of(j, m, v, side, key, NULL, m->ncol);
}

/* "counts", or "old", "new" and "delta". */
static void counts(struct cgp_json *j, const struct cgp_model *m, const int64_t *v)
{
	if (!m->diff) {
		vals(j, m, v, 0, "counts");
		return;
	}
	vals(j, m, v, 0, "old");
	vals(j, m, v, 1, "new");
	vals(j, m, v, 2, "delta");
}

static void name_member(struct cgp_json *j, const char *key, const struct cgp_name *n)
{
	cgp_json_key(j, key);
	cgp_json_str(j, n->s, n->len);
}

/* Python's abs(v) >= t for the threshold test. */
static int reaches(const struct cgp_model *m, const int64_t *v,
		   const struct cgp_json_info *info, double tcount)
{
	int64_t x;
	double a;

	if (info->threshold <= 0 || !info->sort)
		return 1;
	x = cgp_mval(m, v, m->diff ? 2 : 0, info->sort[0]);
	a = x < 0 ? -(double)x : (double)x;
	return a >= tcount;
}

/*
 * The counts of a row are the same text in both tables (file_function and
 * function_file list the same rows, each right after its name, at the
 * same depth), so the first table keeps each row's and the second copies
 * it: half the numbers of a big report are formatted once only.  Owned by
 * cgp_json_report().
 */
struct rowtext {
	struct cgp_buf text;  /* every kept row's counts */
	size_t *at;           /* row r's in text: at[r], length len[r] */
	uint32_t *len;        /* 0: not kept */
};

/* The counts of row r, from rt when kept, else formatted and kept (taken
 * from the output buffer, unless it was written out meanwhile). */
static void row_counts(struct cgp_json *j, const struct cgp_model *m, size_t r,
		       struct rowtext *rt)
{
	struct cgp_out *o = j->o;
	size_t start = o->len;
	uint64_t written = o->written;

	if (rt->len && rt->len[r]) {
		put(j, rt->text.s + rt->at[r], rt->len[r]);
		return;
	}
	counts(j, m, m->row[r].v);
	if (rt->len && o->written == written && o->errnum == 0 && o->len - start <= UINT32_MAX &&
	    !cgp_buf_add(&rt->text, o->buf + start, o->len - start)) {
		rt->at[r] = rt->text.len - (o->len - start);
		rt->len[r] = (uint32_t)(o->len - start);
	}
}

static void table(struct cgp_json *j, const struct cgp_model *m,
		  const struct cgp_json_info *info, int by_fn, struct rowtext *rt)
{
	const struct cgp_mgroup *g = by_fn ? m->func : m->file;
	size_t n = by_fn ? m->nfunc : m->nfile, i, r;
	double tcount = 0;

	if (info->threshold > 0 && info->sort) {
		int64_t s = cgp_mval(m, m->total, m->diff ? 2 : 0, info->sort[0]);
		tcount = info->threshold * (s < 0 ? -(double)s : (double)s) / 100;
	}
	key_arr(j, by_fn ? "function_file" : "file_function");
	for (i = 0; i < n; i++) {
		size_t shown = 0;
		for (r = 0; r < g[i].nrows; r++)
			shown += reaches(m, m->row[g[i].rows[r]].v, info, tcount);
		if (!shown)
			continue;
		cgp_json_obj(j);
		name_member(j, by_fn ? "function" : "file", g[i].name);
		counts(j, m, g[i].v);
		key_arr(j, by_fn ? "files" : "functions");
		for (r = 0; r < g[i].nrows; r++) {
			const struct cgp_mrow *x = &m->row[g[i].rows[r]];
			if (!reaches(m, x->v, info, tcount))
				continue;
			cgp_json_obj(j);
			name_member(j, by_fn ? "file" : "function", by_fn ? x->file : x->fn);
			row_counts(j, m, g[i].rows[r], rt);
			cgp_json_end(j, '}');
		}
		cgp_json_end(j, ']');
		cgp_json_end(j, '}');
	}
	cgp_json_end(j, ']');
}

static void event_list(struct cgp_json *j, const struct cgp_model *m, const char *key,
		       const unsigned *idx, unsigned n)
{
	unsigned i;

	key_arr(j, key);
	for (i = 0; i < (idx ? n : m->ncol); i++)
		cgp_json_cstr(j, m->events[idx ? idx[i] : i]);
	cgp_json_end(j, ']');
}

static void header(struct cgp_json *j, const struct cgp_model *m,
		   const struct cgp_json_info *info)
{
	size_t i, k;
	unsigned e;

	cgp_json_key(j, "schema");
	cgp_json_cstr(j, "cachegrind-ng-report");
	cgp_json_key(j, "version");
	cgp_json_int(j, CGP_JSON_SCHEMA_VERSION);
	key_obj(j, "command");
	cgp_json_key(j, "program");
	cgp_json_cstr(j, info->program);
	key_arr(j, "argv");
	for (i = 0; i < (size_t)info->argc; i++)
		cgp_json_cstr(j, info->argv[i]);
	cgp_json_end(j, ']');
	cgp_json_end(j, '}');
	key_arr(j, "inputs");
	for (i = 0; i < info->nprof; i++)
		for (k = 0; k < info->prof[i]->nin; k++) {
			const struct cgp_input *in = &info->prof[i]->in[k];
			const char *d = in->desc;
			cgp_json_obj(j);
			cgp_json_key(j, "path");
			cgp_json_cstr(j, in->path);
			cgp_json_key(j, "cmd");
			cgp_json_cstr(j, in->cmd);
			key_arr(j, "desc");
			while (d && *d) {
				const char *nl = strchr(d, '\n');
				cgp_json_str(j, d, (size_t)(nl - d));
				d = nl + 1;
			}
			cgp_json_end(j, ']');
			cgp_json_end(j, '}');
		}
	cgp_json_end(j, ']');
	cgp_json_key(j, "diff");
	cgp_json_bool(j, m->diff);
	key_arr(j, "events");
	for (e = 0; e < m->ncol; e++) {
		cgp_json_obj(j);
		cgp_json_key(j, "name");
		cgp_json_cstr(j, m->events[e]);
		if (e >= m->nrec) {
			cgp_json_key(j, "formula");
			cgp_json_cstr(j, m->der->d[e - m->nrec].text);
		}
		cgp_json_key(j, "unit");
		cgp_json_cstr(j, m->ratio[e] ? "ratio" : "count");
		cgp_json_end(j, '}');
	}
	cgp_json_end(j, ']');
	event_list(j, m, "shown", info->show, info->nshow);
	event_list(j, m, "sort", info->sort, info->nsort);
	cgp_json_key(j, "threshold");
	if (info->threshold > 0) {
		char b[40];
		cgp_fmt_pyfloat(b, info->threshold);
		vsep(j);
		put(j, b, strlen(b));
	} else {
		cgp_json_int(j, 0);
	}
}

/* The scope of limit x: its regex, how many functions it matched and,
 * for each-fn=, the worst of them; null for a limit on the totals. */
static void limit_scope(struct cgp_json *j, const struct cgp_model *m,
			const struct cgp_limit *x)
{
	if (!x->scope) {
		cgp_json_null(j);
		return;
	}
	cgp_json_obj(j);
	cgp_json_key(j, x->scope == 'n' ? "fn" : x->scope == 'l' ? "fl" : "each_fn");
	cgp_json_cstr(j, x->regex);
	cgp_json_key(j, "matched");
	cgp_json_int(j, (int64_t)x->nmatch);
	if (x->scope == 'e') {
		cgp_json_key(j, "worst");
		if (x->worst >= 0) {
			cgp_json_obj(j);
			name_member(j, "file", m->row[x->worst].file);
			name_member(j, "function", m->row[x->worst].fn);
			cgp_json_end(j, '}');
		} else {
			cgp_json_null(j);
		}
	}
	cgp_json_end(j, '}');
}

/* One limit with its verdict. */
static void limit(struct cgp_json *j, const struct cgp_model *m, const struct cgp_limit *x)
{
	cgp_json_obj(j);
	cgp_json_key(j, "spec");
	cgp_json_cstr(j, x->spec);
	cgp_json_key(j, "scope");
	limit_scope(j, m, x);
	cgp_json_key(j, "event");
	cgp_json_cstr(j, x->event);
	cgp_json_key(j, "kind");
	cgp_json_cstr(j, x->percent ? "percent" : "absolute");
	cgp_json_key(j, "old");
	cgp_json_val(j, m, x->col, x->old);
	cgp_json_key(j, "new");
	cgp_json_val(j, m, x->col, x->new);
	cgp_json_key(j, "delta");
	cgp_json_val(j, m, x->col, x->delta);
	cgp_json_key(j, "allowed");
	cgp_json_val(j, m, x->col, x->allowed);
	cgp_json_key(j, "exceeded");
	cgp_json_bool(j, x->exceeded);
	cgp_json_end(j, '}');
}

/* The gated events, then every function whose gated values changed,
 * biggest change first, with the values of the gated events only: the
 * full rows are in the tables. */
static void changes(struct cgp_json *j, const struct cgp_model *m,
		    const struct cgp_json_info *info, const unsigned *cols, unsigned ncols,
		    int *nomem)
{
	size_t i, *idx = NULL;
	long nr = cgp_gate_ranked(m, info->limits, info->nlimits, &idx);
	unsigned c;
	int s;

	if (nr < 0)
		*nomem = 1;
	key_arr(j, "events");
	for (c = 0; c < ncols; c++)
		cgp_json_cstr(j, m->events[cols[c]]);
	cgp_json_end(j, ']');
	key_arr(j, "changes");
	for (i = 0; nr > 0 && i < (size_t)nr; i++) {
		const struct cgp_mrow *r = &m->row[idx[i]];
		cgp_json_obj(j);
		name_member(j, "file", r->file);
		name_member(j, "function", r->fn);
		for (s = 0; s < 3; s++)
			vals_of(j, m, r->v, s, s == 0 ? "old" : s == 1 ? "new" : "delta",
				cols, ncols);
		cgp_json_end(j, '}');
	}
	cgp_json_end(j, ']');
	free(idx);
}

static void gate(struct cgp_json *j, const struct cgp_model *m,
		 const struct cgp_json_info *info, int *nomem)
{
	size_t i;
	long nex = 0;
	unsigned *cols = malloc((info->nlimits + 1) * sizeof *cols);

	if (!cols) {
		*nomem = 1;
		return;
	}
	key_obj(j, "gate");
	for (i = 0; i < info->nlimits; i++)
		nex += info->limits[i].exceeded != 0;
	cgp_json_key(j, "passed");
	cgp_json_bool(j, nex == 0);
	key_arr(j, "limits");
	for (i = 0; i < info->nlimits; i++)
		limit(j, m, &info->limits[i]);
	cgp_json_end(j, ']');
	changes(j, m, info, cols, cgp_gate_columns(info->limits, info->nlimits, cols), nomem);
	cgp_json_end(j, '}');
	free(cols);
}

static void annotation_summary(struct cgp_json *j, const struct cgp_model *m)
{
	static const char *const key[CGP_ASUM_COUNT] = {
		"annotated", "annotated_line_unknown", "not_identical", "unreadable",
		"below_threshold", "unknown_file",
	};
	int b;

	key_obj(j, "annotation_summary");
	for (b = 0; b < CGP_ASUM_COUNT; b++)
		vals(j, m, m->asum[b], 0, key[b]);
	cgp_json_end(j, '}');
}

/* The "lines" member: every file's lines, in line order (the tables keep
 * them in the order first seen in the profile). */
static int lines(struct cgp_json *j, const struct cgp_model *m)
{
	const struct cgp_table *t = m->lines;
	int64_t *v = malloc((m->ncol + 1) * sizeof *v);
	struct cgp_line_row *order = NULL;
	struct cgp_error err = CGP_ERROR_INIT;
	size_t i, r, cap = 0;
	unsigned k;
	int rc = 0;

	if (!v)
		return -1;
	key_arr(j, "lines");
	for (i = 0; i < t->nfile && !rc; i++) {
		const struct cgp_file *f = &t->file[i];
		if (!f->lines.n)
			continue;
		if (f->lines.n > cap) {
			struct cgp_line_row *o = realloc(order, f->lines.n * sizeof *o);
			if (!o) {
				rc = -1;
				break;
			}
			order = o;
			cap = f->lines.n;
		}
		cgp_lines_order(&f->lines, order);
		cgp_json_obj(j);
		name_member(j, "file", f->name);
		key_arr(j, "lines");
		for (size_t n = 0; n < f->lines.n; n++) {
			r = order[n].row;
			cgp_lines_get(&f->lines, r, v);
			if (cgp_model_derive(m, v, &err)) {
				rc = -1;
				break;
			}
			cgp_json_arr(j);
			cgp_json_int(j, f->lines.line[r]);
			for (k = 0; k < m->ncol; k++)
				cgp_json_val(j, m, k, v[k]);
			cgp_json_end(j, ']');
		}
		cgp_json_end(j, ']');
		cgp_json_end(j, '}');
	}
	cgp_json_end(j, ']');
	cgp_error_release(&err);
	free(order);
	free(v);
	return rc;
}

int cgp_json_report(struct cgp_out *o, const struct cgp_model *m,
		    const struct cgp_json_info *info, struct cgp_error *err)
{
	struct cgp_json j;
	struct rowtext rt = { CGP_BUF_INIT(SIZE_MAX / 2), NULL, NULL };
	int nomem = 0;

	rt.at = malloc((m->nrow + 1) * sizeof *rt.at);
	rt.len = calloc(m->nrow + 1, sizeof *rt.len);
	if (!rt.at || !rt.len) {
		free(rt.len);
		rt.len = NULL;
	}
	cgp_json_init(&j, o);
	cgp_json_obj(&j);
	header(&j, m, info);
	key_obj(&j, "totals");
	counts(&j, m, m->total);
	cgp_json_end(&j, '}');
	table(&j, m, info, 0, &rt);
	table(&j, m, info, 1, &rt);
	cgp_buf_release(&rt.text);
	free(rt.at);
	free(rt.len);
	if (m->asum[0])
		annotation_summary(&j, m);
	if (info->lines && m->lines && lines(&j, m))
		nomem = 1;
	if (info->gated)
		gate(&j, m, info, &nomem);
	cgp_json_end(&j, '}');
	if (nomem)
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	return cgp_out_flush(o, err);
}
