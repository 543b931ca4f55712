/* cgp_model.h -- the report model: derived events, name normalisation, the rows and totals of a report or a diff, regression limits, and its JSON. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef CGP_MODEL_H
#define CGP_MODEL_H

/*
 * One in-memory model of a report, built by cg_annotate and cg_diff from
 * the profiles they read, which the new presentations render: the
 * regression gate (verdicts and the ranked table of changes), the
 * old/new/delta tables of `cg_annotate --diff --show-old-new`, and the JSON
 * document (docs/manual/report.schema.json), and cg_annotate's HTML report
 * (annotate/ann_html.c).
 *
 * Its columns are the recorded events, then the derived ones
 * (--derive=NAME=FORMULA).  Every value is an int64: a count, or for a
 * derived event whose formula divides ("ratio" event), the value in
 * thousandths, rounded once, half away from zero, from the exact fraction;
 * CGP_NA stands for a ratio whose denominator is zero.
 *
 * Its rows are the (file, function) pairs of the profile; a row of a plain
 * report holds ncol values, a row of a diff 3 * ncol: old, new, delta
 * (new - old).  Two groupings of the rows make the File:function and
 * Function:file tables.  The values of a derived event are always its
 * formula applied to the recorded values of the same row (or group, or
 * total), never sums of derived values.
 *
 * Ownership as in cgp.h: the model owns its arrays; names (struct
 * cgp_name) are borrowed from the profile's table, which must outlive it.
 * Functions returning int return 0 or a negative CGP_E* code with a
 * message in err.
 */

#include "cgp.h"

/* A ratio value that cannot be computed (zero denominator). */
#define CGP_NA INT64_MIN

/* ------------------------------------------------------------------------ */
/* Derived events (cgp_expr.c)                                              */
/* ------------------------------------------------------------------------ */

/*
 * FORMULA ::= term (("+" | "-") term)*
 * term    ::= unary (("*" | "/") unary)*
 * unary   ::= "-" unary | INTEGER | EVENT | "(" FORMULA ")"
 * with white space allowed between tokens.  Without "/" a formula is
 * evaluated in int64 with overflow checks (an overflow is an error); with
 * "/", exactly as a fraction (128-bit, overflow an error) rounded to
 * thousandths.
 */
struct cgp_formula;

struct cgp_derive {
	char *name;                /* NAME of NAME=FORMULA */
	char *text;                /* FORMULA as given */
	struct cgp_formula *f;     /* owned */
	int ratio;                 /* the formula divides: thousandths */
};

struct cgp_derives {
	struct cgp_derive *d;
	unsigned n;
};

/* Parses "NAME=FORMULA" (its syntax only) and appends it.  CGP_EUSAGE with
 * a message naming the bad part: "missing '=' in 'X'", "bad event name
 * 'x-y'", "unexpected 'x' at offset N of formula 'F'", "division by the
 * constant 0 in formula 'F'", "name 'Ir' defined twice". */
int cgp_derives_add(struct cgp_derives *ds, const char *spec, struct cgp_error *err);
/* Resolves the formulas' event names against the recorded events.
 * CGP_EUSAGE: "--derive=NAME=F: unknown event 'X' (events: Ir Dr ...)", or
 * a NAME that is a recorded event. */
int cgp_derives_bind(struct cgp_derives *ds, char **events, unsigned nev,
		     struct cgp_error *err);
/* Computes v[nev + i] for every derived event i from v[0..nev).
 * CGP_EOVERFLOW with "--derive=NAME=F: the value exceeds the 64-bit range". */
int cgp_derives_eval(const struct cgp_derives *ds, int64_t *v, unsigned nev,
		     struct cgp_error *err);
void cgp_derives_release(struct cgp_derives *ds);

/* ------------------------------------------------------------------------ */
/* Name normalisation presets (cgp_norm.c)                                  */
/* ------------------------------------------------------------------------ */

/* The expressions of --normalize=LIST (comma-separated presets: "rust",
 * "clones"), chained onto *fn (function names); repeatable.  CGP_EUSAGE
 * "unknown preset 'x' (known: rust, clones)". */
int cgp_normalize_add(struct cgp_subst **fn, const char *list, struct cgp_error *err);

/* ------------------------------------------------------------------------ */
/* The model (cgp_model.c)                                                   */
/* ------------------------------------------------------------------------ */

struct cgp_mrow {
	const struct cgp_name *file, *fn;   /* borrowed */
	unsigned flags;                     /* CGP_CC_NOFILE / CGP_CC_NOFN */
	int64_t *v;                         /* ncol, or 3 * ncol for a diff */
};

/* A file with its rows (File:function) or a function with its rows
 * (Function:file). */
struct cgp_mgroup {
	const struct cgp_name *name;
	int64_t *v;                         /* as a row */
	size_t *rows, nrows;                /* indices in model->row */
};

/* The annotation summary of cg_annotate, in its printing order. */
#define CGP_ASUM_COUNT 6

struct cgp_model {
	int diff;                  /* rows hold old, new, delta */
	unsigned nrec, ncol;       /* recorded events, all columns */
	char **events;             /* ncol names, borrowed */
	unsigned char *ratio;      /* per column: values in thousandths */
	const struct cgp_derives *der;  /* borrowed, may be NULL */
	struct cgp_mrow *row; size_t nrow, rowcap;
	int64_t *total;            /* as a row */
	struct cgp_mgroup *file; size_t nfile;
	struct cgp_mgroup *func; size_t nfunc;
	/* Optional, set by cg_annotate: the annotation summary (ncol values
	 * per bucket, computed) and the profile's per-file line tables. */
	int64_t *asum[CGP_ASUM_COUNT];
	const struct cgp_table *lines;
	struct cgp_pool values;    /* where every value vector is */
};

/* Starts an empty model over nrec recorded events (names borrowed) and the
 * derived events of der (bound to the same events; may be NULL). */
void cgp_model_init(struct cgp_model *m, int diff, char **events, unsigned nrec,
		    const struct cgp_derives *der);
/* Adds a row: a = its counts (nrec), or for a diff a = old, b = new. */
int cgp_model_add(struct cgp_model *m, const struct cgp_name *file,
		  const struct cgp_name *fn, unsigned flags, const int64_t *a,
		  const int64_t *b, struct cgp_error *err);
/* Sets the totals (the summary: lines) the same way. */
int cgp_model_set_total(struct cgp_model *m, const int64_t *a, const int64_t *b,
			struct cgp_error *err);
/* Derived columns, deltas, the two groupings (in no particular order
 * until cgp_model_sort(); the rows of one group with the same other name
 * are next to each other).  After the last add. */
int cgp_model_finish(struct cgp_model *m, struct cgp_error *err);
/* Fills v[nrec..ncol) of a value vector (one side) from v[0..nrec). */
int cgp_model_derive(const struct cgp_model *m, int64_t *v, struct cgp_error *err);
/* *d = n - o for column k, old value o and new n: a ratio without a value
 * on one side (CGP_NA) counts as 0 there (docs/manual/ci.md: a function
 * new in the new profile changes by its new value), and without one on
 * either side has none (CGP_NA).  0, or -1 if the difference exceeds 64
 * bits.  The model's deltas and the gate's limits both take it. */
int cgp_model_delta(const struct cgp_model *m, unsigned k, int64_t o, int64_t n, int64_t *d);
/* Adds the recorded values of every side of the value vector src to dst
 * (a vector as a row's), then computes dst's derived columns and, in a
 * diff, its deltas again: two rows taken as one.  0 or CGP_EOVERFLOW. */
int cgp_model_accumulate(const struct cgp_model *m, int64_t *dst, const int64_t *src,
			 struct cgp_error *err);
/* Sorts the groups and their rows as cg_annotate's tables are: by the
 * magnitude of the sort columns (of the delta in a diff), descending, then
 * by name, descending. */
void cgp_model_sort(struct cgp_model *m, const unsigned *sort, unsigned nsort);
/* The value of column k of v as the side wanted: 0 = the value (plain) or
 * old, 1 = new, 2 = delta. */
static inline int64_t cgp_mval(const struct cgp_model *m, const int64_t *v,
			       int side, unsigned k)
{
	return m->diff ? v[side * m->ncol + k] : v[k];
}
void cgp_model_release(struct cgp_model *m);

/* |v| (INT64_MIN's too). */
static inline uint64_t cgp_mag(int64_t v)
{
	return v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
}
/* The magnitude value v of column k sorts by: |v|, and 0 for a ratio
 * without a value (CGP_NA). */
static inline uint64_t cgp_model_mag(const struct cgp_model *m, unsigned k, int64_t v)
{
	return m->ratio[k] && v == CGP_NA ? 0 : cgp_mag(v);
}
/* The order of cg_annotate's tables, for two value vectors of one side
 * (the values, or a diff's deltas) named xn and yn: by the magnitudes
 * of the columns sort[0..nsort) descending, then by name descending.
 * Negative, 0 or positive, as qsort wants. */
int cgp_model_cmp(const struct cgp_model *m, const unsigned *sort, unsigned nsort,
		  const int64_t *x, const struct cgp_name *xn, const int64_t *y,
		  const struct cgp_name *yn);

/* Decimal text of a value of column k (thousandths shown with three
 * decimals; CGP_NA as "n/a"), with thousands separators when commas;
 * returns the length (buf >= 40 bytes). */
size_t cgp_model_fmt(const struct cgp_model *m, unsigned k, int64_t v, int commas,
		     char *buf);
/* The same for a value in thousandths. */
size_t cgp_fmt_ratio(char *buf, int64_t v, int commas);

/* ------------------------------------------------------------------------ */
/* Regression limits (cgp_gate.c)                                           */
/* ------------------------------------------------------------------------ */

/*
 * --fail-above=[SCOPE:]EVENT:LIMIT, LIMIT ::= [+|-]DECIMAL[%],
 * SCOPE ::= fn=REGEX | fl=REGEX | each-fn=REGEX
 * A percentage is of the old total of what the limit covers (its
 * magnitude); otherwise LIMIT is in the event's units.  A limit is
 * exceeded when new - old > the allowed change, compared exactly.  fn=
 * and fl= add up the functions (files) whose names the regex finds;
 * each-fn= holds the limit to every such function on its own.
 */
struct cgp_limit {
	char *spec;                /* as given */
	int scope;                 /* 0 all, 'n' functions, 'l' files, 'e' each function */
	char *regex;               /* scope regex, or NULL */
	void *re;                  /* its compiled pcre2_code */
	char *event;
	int percent;
	int64_t mant;              /* the limit is mant / 10^scale */
	unsigned scale;
	/* Results of cgp_gate_eval(). */
	unsigned col;
	int64_t old, new, delta;
	int64_t allowed;           /* the limit in the event's units, rounded down */
	size_t nmatch;             /* rows the scope matched */
	long worst;                /* each-fn=: the row of the result, or -1 */
	int exceeded;
};

/* Parses one --fail-above value; CGP_EUSAGE with a message that names the
 * bad part (and what was expected). */
int cgp_limit_parse(struct cgp_limit *l, const char *spec, struct cgp_error *err);
void cgp_limit_release(struct cgp_limit *l);
/* Resolves the events of the limits in m (CGP_EUSAGE "--fail-above=SPEC:
 * unknown event 'X' (events: ...)") and computes their results; returns
 * the number of limits exceeded, or a negative code. */
long cgp_gate_eval(const struct cgp_model *m, struct cgp_limit *l, size_t n,
		   struct cgp_error *err);
/* The text of the gate, appended to b: one verdict line per limit, then
 * the functions whose values of the gated events changed most, biggest
 * absolute delta first (at most maxrows of them), fitted to width
 * columns.  0 or CGP_ENOMEM. */
int cgp_gate_text(struct cgp_buf *b, const struct cgp_model *m,
		  const struct cgp_limit *l, size_t n, unsigned width, size_t maxrows,
		  struct cgp_error *err);
/* The texts of the old, new, delta and change cells of column k of v (a
 * diff's value vector), unpadded, into four buffers of 48 bytes. */
void cgp_gate_cells(const struct cgp_model *m, const int64_t *v, unsigned k,
		    char cell[4][48]);
/* The gated columns, each once, in the order of the limits, into cols
 * (n entries); returns their number. */
unsigned cgp_gate_columns(const struct cgp_limit *l, size_t n, unsigned *cols);
/* The row indices of the ranked table (every row whose gated values
 * changed), malloc'd in *out; their number, or -1 without memory. */
long cgp_gate_ranked(const struct cgp_model *m, const struct cgp_limit *l,
		     size_t n, size_t **out);

/* ------------------------------------------------------------------------ */
/* JSON (cgp_json.c)                                                        */
/* ------------------------------------------------------------------------ */

/* A streaming JSON writer over a struct cgp_out: compact, with a newline
 * before every member of the document and every object or array inside
 * them (one table row per line). */
struct cgp_json {
	struct cgp_out *o;
	int html;                  /* also escape < > & U+2028 U+2029 (set after
				      cgp_json_init: JSON inside an HTML
				      <script>, which "</script>" or "<!--"
				      in a name could otherwise end) */
	int depth;
	unsigned char first[64];   /* no member written yet at that depth */
	unsigned char arr[64];     /* that depth is an array */
	unsigned char nl[64];      /* a newline was written at that depth */
};

void cgp_json_init(struct cgp_json *j, struct cgp_out *o);
void cgp_json_obj(struct cgp_json *j);   /* { */
void cgp_json_arr(struct cgp_json *j);   /* [ */
void cgp_json_end(struct cgp_json *j, char close);   /* } or ] */
void cgp_json_key(struct cgp_json *j, const char *k);
/* A string of any bytes: UTF-8 as it is, '"', '\\' and control characters
 * escaped (\n \t ... or \u00XX), and each byte that is not part of valid
 * UTF-8 as \udcXX (U+DC80..U+DCFF, Python's "surrogateescape", so
 * s.encode("utf-8", "surrogateescape") gives the bytes back).  With html
 * set, '<', '>', '&' become \u003c \u003e \u0026 and U+2028, U+2029
 * \u2028 \u2029 (the same string to a JSON reader). */
void cgp_json_str(struct cgp_json *j, const char *s, size_t n);
void cgp_json_cstr(struct cgp_json *j, const char *s);
void cgp_json_int(struct cgp_json *j, int64_t v);
void cgp_json_bool(struct cgp_json *j, int v);
void cgp_json_null(struct cgp_json *j);
/* A value of model column k (thousandths as a decimal, CGP_NA as null). */
void cgp_json_val(struct cgp_json *j, const struct cgp_model *m, unsigned k, int64_t v);
/* The formula of derived event d (bound) as a JSON array of its postfix
 * code, for a script to evaluate: ["c", "VALUE"] a constant (a string, so
 * that it stays exact), ["e", K] recorded event K, ["n"] negation, ["+"],
 * ["-"], ["*"], ["/"]. */
void cgp_derive_code_json(struct cgp_json *j, const struct cgp_derive *d);

/* What a report document says besides the model. */
struct cgp_json_info {
	const char *program;       /* "cg_annotate" or "cg_diff" */
	int argc; char **argv;
	const struct cgp_profile *const *prof;  /* where inputs were read */
	size_t nprof;
	const unsigned *show; unsigned nshow;   /* NULL: every column */
	const unsigned *sort; unsigned nsort;
	double threshold;          /* rows below it left out (0: all) */
	int lines;                 /* per-line counts of m->lines */
	const struct cgp_limit *limits; size_t nlimits; int gated;
};

#define CGP_JSON_SCHEMA_VERSION 1

/* The whole document (schema in docs/manual/report.schema.json), written to o
 * and flushed: 0 or cgp_out_flush()'s CGP_EIO, CGP_ENOMEM. */
int cgp_json_report(struct cgp_out *o, const struct cgp_model *m,
		    const struct cgp_json_info *info, struct cgp_error *err);

#endif
