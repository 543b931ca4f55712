/* cgp_table.c -- interned names, line tables and the (file, function) cost table of the profile library. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgp.h"
#include "cgp_int.h"

/* ------------------------------------------------------------------------ */
/* Names                                                                     */
/* ------------------------------------------------------------------------ */

/* Arena chunk: names and their text are carved from these, never freed
 * one by one (a profile has few distinct names but many uses). */
struct cgp_arena_chunk {
	struct cgp_arena_chunk *next;
	max_align_t data[];
};

#define ARENA_CHUNK (64u << 10)

static void *arena_alloc(struct cgp_names *n, size_t size)
{
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (size > n->arena_left) {
		size_t csize = size > ARENA_CHUNK ? size : ARENA_CHUNK;
		struct cgp_arena_chunk *c = malloc(sizeof *c + csize);
		if (!c)
			return NULL;
		c->next = n->arena;
		n->arena = c;
		n->arena_ptr = (char *)c->data;
		n->arena_left = csize;
	}
	p = n->arena_ptr;
	n->arena_ptr += size;
	n->arena_left -= size;
	return p;
}

static uint32_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return (uint32_t)(h ^ (h >> 32));
}

void cgp_names_init(struct cgp_names *n)
{
	memset(n, 0, sizeof *n);
}

static int names_rehash(struct cgp_names *n)
{
	size_t ncap = n->tab ? (n->mask + 1) * 2 : 1024, i;
	struct cgp_name_ent **t = calloc(ncap, sizeof *t);

	if (!t)
		return -1;
	for (i = 0; n->tab && i <= n->mask; i++) {
		struct cgp_name_ent *x = n->tab[i], *nx;
		for (; x; x = nx) {
			nx = x->next;
			x->next = t[x->hash & (ncap - 1)];
			t[x->hash & (ncap - 1)] = x;
		}
	}
	free(n->tab);
	n->tab = t;
	n->mask = ncap - 1;
	return 0;
}

struct cgp_name_ent *cgp_names_intern(struct cgp_names *n, const char *s, size_t len)
{
	uint32_t h = hash_bytes(s, len);
	struct cgp_name_ent *x;
	char *text;

	if (len > UINT32_MAX)
		return NULL;
	if (n->tab)
		for (x = n->tab[h & n->mask]; x; x = x->next)
			if (x->hash == h && x->name.len == len && !memcmp(x->name.s, s, len))
				return x;
	if ((!n->tab || n->count >= n->mask) && names_rehash(n))
		return NULL;
	x = arena_alloc(n, sizeof *x);
	text = arena_alloc(n, len + 1);
	if (!x || !text)
		return NULL;
	memcpy(text, s, len);
	text[len] = '\0';
	x->name.s = text;
	x->name.len = (uint32_t)len;
	x->hash = h;
	x->mod[0] = x->mod[1] = NULL;
	x->file = -1;
	x->obj = -1;
	x->orig_kept = 0;
	x->next = n->tab[h & n->mask];
	n->tab[h & n->mask] = x;
	n->count++;
	return x;
}

void cgp_names_release(struct cgp_names *n)
{
	struct cgp_arena_chunk *c, *nc;

	for (c = n->arena; c; c = nc) {
		nc = c->next;
		free(c);
	}
	free(n->tab);
	memset(n, 0, sizeof *n);
}

int cgp_name_cmp(const struct cgp_name *a, const struct cgp_name *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->s, b->s, n);

	if (c)
		return c;
	return (a->len > b->len) - (a->len < b->len);
}

/* ------------------------------------------------------------------------ */
/* Row indexes                                                               */
/* ------------------------------------------------------------------------ */

/*
 * The line tables and the cost table keep their rows in arrays, in
 * first-seen order, and find them through an index: open addressing with
 * linear probing, a slot holding row + 1 (0 = empty), the first slot of a
 * row being its hash & mask.  A lookup ends on the row or on the empty
 * slot where a new row goes; the owner decides when the index is too full
 * and rebuilds it here.
 */

/* The hash of row i of owner's array. */
typedef size_t row_hash_fn(const void *owner, size_t i);

/* Rebuilds *ix for rows [0, n) with twice the slots (with fresh set, as
 * many as the rows need at a load of at most 1/2, at least first, a
 * power of two); 0, or -1 without memory (the index then unchanged). */
static int index_rebuild(uint32_t **ix, size_t *mask, size_t first, int fresh,
			 size_t n, row_hash_fn *hash, const void *owner)
{
	size_t ncap = !fresh ? (*mask + 1) * 2 : first, i;
	uint32_t *nix;

	while (fresh && ncap < 2 * n)
		ncap *= 2;
	nix = calloc(ncap, sizeof *nix);

	if (!nix)
		return -1;
	for (i = 0; i < n; i++) {
		size_t s = hash(owner, i) & (ncap - 1);
		while (nix[s])
			s = (s + 1) & (ncap - 1);
		nix[s] = (uint32_t)i + 1;
	}
	free(*ix);
	*ix = nix;
	*mask = ncap - 1;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Line tables                                                               */
/* ------------------------------------------------------------------------ */

/* A row's key: its line and, for an instruction row, its object and
 * address (both 0 in a line table); and what a new instruction row keeps
 * besides, its function's cost centre. */
struct row_key {
	int64_t line;
	uint64_t addr;
	uint32_t obj;
	uint32_t fn_cc;
};

static size_t line_hash(const struct row_key *k)
{
	uint64_t h = (uint64_t)k->line ^ (k->addr * 0xc2b2ae3d27d4eb4full) ^ k->obj;

	return (size_t)((h * 0x9e3779b97f4a7c15ull) >> 32);
}

static struct row_key row_key_of(const struct cgp_lines *t, size_t i)
{
	struct row_key k = { t->line[i], 0, 0, 0 };

	if (t->addr) {
		k.addr = t->addr[i];
		k.obj = t->obj[i];
	}
	return k;
}

static size_t line_row_hash(const void *owner, size_t i)
{
	struct row_key k = row_key_of(owner, i);

	return line_hash(&k);
}

static int lines_reindex(struct cgp_lines *t)
{
	return index_rebuild(&t->index, &t->imask, 16, !t->index, t->n, line_row_hash, t);
}

/*
 * The counts of a row: a slot of nev bytes (at least 5), a count per byte
 * in zigzag form (0, -1, 1, -2 ... as 0, 1, 2, 3 ...) when every count of
 * the row fits in 0 to 254; else the slot's first byte is 255 (WIDE) and
 * the next four hold the index of the row's counts in the table's wide
 * vectors, nev int64 each.  A row of 13 small counts takes 13 bytes
 * instead of 52 as int32 or 104 as int64, each count is a load or a store,
 * slots never move (row r's is at r times the slot size), and counts that
 * are never negative are even bytes, which SWAR code can add eight at a
 * time.  A row that stops fitting in bytes becomes wide for good.
 */

#define WIDE 0xffu

static size_t slot_size(unsigned nev)
{
	return nev < 5 ? 5 : nev;
}

static unsigned char *slot_of(const struct cgp_lines *t, size_t r)
{
	return t->data + r * slot_size(t->nev);
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int64_t unzigzag(uint64_t z)
{
	return (int64_t)((z >> 1) ^ (0 - (z & 1)));
}

/* The wide vector of a WIDE slot q. */
static int64_t *wide_of(const struct cgp_lines *t, const unsigned char *q)
{
	uint32_t i;

	memcpy(&i, q + 1, sizeof i);
	return t->wide + (size_t)i * t->nev;
}

/* Row r's counts into v[0..nev). */
static void row_get(const struct cgp_lines *t, size_t r, int64_t *v)
{
	const unsigned char *q = slot_of(t, r);
	unsigned e;

	if (q[0] == WIDE) {
		memcpy(v, wide_of(t, q), t->nev * sizeof *v);
		return;
	}
	for (e = 0; e < t->nev; e++)
		v[e] = unzigzag(q[e]);
}

/* Makes slot q wide, with a new wide vector: 0, or -1 without memory. */
static int row_widen(struct cgp_lines *t, unsigned char *q)
{
	uint32_t i = (uint32_t)t->nwide;
	size_t cap = t->widecap;

	if (t->nwide >= UINT32_MAX ||
	    cgp_grow_array((void **)&t->wide, &cap, t->nwide, t->nev * sizeof *t->wide))
		return -1;
	t->widecap = cap;
	t->nwide++;
	q[0] = WIDE;
	memcpy(q + 1, &i, sizeof i);
	return 0;
}

/* Sets row r's counts (fresh: a new row) to v: bytes if they all fit and
 * the row is not wide, else its wide vector.  0, or -1 without memory. */
static int row_put(struct cgp_lines *t, size_t r, const int64_t *v, int fresh)
{
	unsigned char *q = slot_of(t, r);
	unsigned e, nev = t->nev;  /* (a byte store may alias t->nev) */
	uint64_t big = 0;

	if (fresh || q[0] != WIDE) {
		for (e = 0; e < nev; e++)
			big |= zigzag(v[e]) >= WIDE;
		if (!big) {
			for (e = 0; e < nev; e++)
				q[e] = (unsigned char)zigzag(v[e]);
			return 0;
		}
		if (row_widen(t, q))
			return -1;
	}
	memcpy(wide_of(t, q), v, nev * sizeof *v);
	return 0;
}

/* Grows the row arrays of t (instr: with addresses, objects and
 * functions) to ncap rows; 0, or -1 without memory (the arrays grown so
 * far keep their contents, cap unchanged).  The lines and the slots share
 * one block, the slots after cap lines: one allocation per table. */
static int lines_grow(struct cgp_lines *t, size_t ncap, int instr)
{
	size_t each = sizeof *t->line + slot_size(t->nev);
	char *b;

	if (instr) {
		uint64_t *a = realloc(t->addr, ncap * sizeof *a);
		uint32_t *o;
		if (!a)
			return -1;
		t->addr = a;
		o = realloc(t->obj, ncap * sizeof *o);
		if (!o)
			return -1;
		t->obj = o;
		o = realloc(t->fn_cc, ncap * sizeof *o);
		if (!o)
			return -1;
		t->fn_cc = o;
	}
	/* 8 more: SWAR code loads whole words past a slot's end. */
	if (ncap > (SIZE_MAX - 8) / each || !(b = realloc(t->line, ncap * each + 8)))
		return -1;
	memmove(b + ncap * sizeof *t->line, b + t->cap * sizeof *t->line,
		t->n * slot_size(t->nev));
	t->line = (int64_t *)b;
	t->data = (unsigned char *)(b + ncap * sizeof *t->line);
	t->cap = ncap;
	return 0;
}

/* Appends the row of k (no counts yet); -1 without memory. */
static long lines_append(struct cgp_lines *t, const struct row_key *k, int instr)
{
	if (t->n >= UINT32_MAX - 1)
		return -1;
	if (t->n == t->cap &&
	    lines_grow(t, t->cap ? t->cap + t->cap / 2 + 8 : 8, instr))
		return -1;
	t->line[t->n] = k->line;
	if (instr) {
		t->addr[t->n] = k->addr;
		t->obj[t->n] = k->obj;
		t->fn_cc[t->n] = k->fn_cc;
	}
	return (long)t->n++;
}

/* The first of rows [lo, hi), which are in line order, whose line is at
 * least line (hi if none). */
static size_t run_lower(const struct cgp_lines *t, size_t lo, size_t hi, int64_t line)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->line[mid] < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#define NO_RUN ((size_t)-1)

/* The last run whose first line is at most line, or NO_RUN. */
static size_t runs_at(const struct cgp_lines *t, int64_t line)
{
	size_t lo = 0, hi = t->nruns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->runs[mid].lo <= line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : NO_RUN;
}

/* Makes the implicit single run runs[0]: 0, or -1 without memory. */
static int runs_make(struct cgp_lines *t)
{
	if (t->nruns)
		return 0;
	if (!(t->runs = malloc(4 * sizeof *t->runs)))
		return -1;
	t->runcap = 4;
	t->runs[0] = (struct cgp_run){ t->line[0], t->line[t->n - 1], 0, (uint32_t)t->n };
	t->nruns = 1;
	t->cur = 0;
	return 0;
}

/* Opens position at of runs[]: 0, -1 without memory, or -2 when there are
 * too many runs for them to be worth it. */
static int runs_open(struct cgp_lines *t, size_t at)
{
	if (t->nruns > t->n / 8 + 16)
		return -2;
	if (cgp_grow_array((void **)&t->runs, &t->runcap, t->nruns, sizeof *t->runs))
		return -1;
	memmove(t->runs + at + 1, t->runs + at, (t->nruns - at) * sizeof *t->runs);
	t->nruns++;
	if (t->cur >= at)
		t->cur++;
	return 0;
}

/* Splits run at before its row j (not its first): 0, or as runs_open(). */
static int runs_split(struct cgp_lines *t, size_t at, size_t j)
{
	struct cgp_run *a;
	int rc = runs_open(t, at + 1);

	if (rc)
		return rc;
	a = &t->runs[at];
	a[1] = (struct cgp_run){ t->line[j], a->hi, (uint32_t)j, a->first + a->n - (uint32_t)j };
	a->hi = t->line[j - 1];
	a->n = (uint32_t)j - a->first;
	if (t->cur == at)  /* the last row is in the second part */
		t->cur = at + 1;
	return 0;
}

/* The row of k in a table of runs, appended when absent (*fresh set): a
 * line inside a run is found there, or splits it; a new line then makes
 * the run of the last row grow when it comes right after it, else starts
 * a run.  -1 without memory, -2 when the hash index should take over. */
static long runs_row(struct cgp_lines *t, const struct row_key *k, int *fresh)
{
	int64_t line = k->line;
	size_t at, j;
	int rc;

	*fresh = 1;
	if (!t->nruns && line > t->line[t->n - 1])  /* the single run grows */
		return lines_append(t, k, 0);
	if (!t->nruns && line >= t->line[0] &&
	    t->line[j = run_lower(t, 0, t->n, line)] == line) {
		*fresh = 0;
		return (long)j;
	}
	if ((rc = runs_make(t)))
		return rc;
	/* Mostly the line after the last row: its run, no search. */
	at = line > t->runs[t->cur].hi &&
	     (t->cur + 1 == t->nruns || t->runs[t->cur + 1].lo > line) ? t->cur
									 : runs_at(t, line);
	if (at != NO_RUN && line <= t->runs[at].hi) {
		j = run_lower(t, t->runs[at].first, t->runs[at].first + t->runs[at].n, line);
		if (t->line[j] == line) {
			*fresh = 0;
			return (long)j;
		}
		if ((rc = runs_split(t, at, j)))
			return rc;
	}
	if (at != NO_RUN && at == t->cur) {
		t->runs[at].hi = line;
		t->runs[at].n++;
	} else {
		size_t pos = at == NO_RUN ? 0 : at + 1;
		if ((rc = runs_open(t, pos)))
			return rc;
		t->runs[pos] = (struct cgp_run){ line, line, (uint32_t)t->n, 1 };
		t->cur = pos;
	}
	return lines_append(t, k, 0);
}

/* The row of k through the hash index, appended when absent (*fresh
 * set); -1 without memory. */
static long hashed_row(struct cgp_lines *t, const struct row_key *k, int instr,
		       int *fresh)
{
	size_t s;
	long r;

	for (s = line_hash(k) & t->imask; t->index[s]; s = (s + 1) & t->imask) {
		r = (long)t->index[s] - 1;
		if (t->line[r] == k->line &&
		    (!instr || (t->addr[r] == k->addr && t->obj[r] == k->obj))) {
			*fresh = 0;
			return r;
		}
	}
	*fresh = 1;
	if ((r = lines_append(t, k, instr)) < 0)
		return -1;
	if (t->n * 4 > (t->imask + 1) * 3) /* load 3/4 */
		return lines_reindex(t) ? -1 : r;
	t->index[s] = (uint32_t)t->n;
	return r;
}

/* Row of k, appended when absent (*fresh set, no counts yet); -1 without
 * memory. */
static long lines_row(struct cgp_lines *t, unsigned nev, const struct row_key *k,
		      int instr, int *fresh)
{
	size_t h = t->hint;
	long r = -2;

	if (!t->n)
		t->nev = nev;
	if (h < t->n && t->line[h] == k->line &&
	    (!instr || (t->addr[h] == k->addr && t->obj[h] == k->obj))) {
		*fresh = 0;
		r = (long)h;
	} else if (!t->index && !instr && !t->n) {
		*fresh = 1;
		r = lines_append(t, k, instr);
	} else if (!t->index && !instr) {
		r = runs_row(t, k, fresh);
	}
	if (r == -2) {  /* the hash index, from now on */
		free(t->runs);
		t->runs = NULL;
		t->nruns = t->runcap = 0;
		if (!t->index && lines_reindex(t))
			return -1;
		r = hashed_row(t, k, instr, fresh);
	}
	if (r >= 0)
		t->hint = (size_t)r + 1;
	return r;
}

/* 1 if sign * c[i] leaves the int64 range for some i < nev. */
static int negation_overflows(const int64_t *c, unsigned nev, int sign)
{
	unsigned i;

	for (i = 0; sign < 0 && i < nev; i++)
		if (c[i] == INT64_MIN)
			return 1;
	return 0;
}

/* The first n bytes at q, eight at a time, or-ed (the bytes after them,
 * up to a word, are read but left out). */
static uint64_t bytes_or(const unsigned char *q, unsigned n)
{
	uint64_t x = 0;
	unsigned i;

	for (i = 0; i + 8 <= n; i += 8)
		x |= cgp_load8((const char *)q + i);
	if (i < n)
		x |= cgp_load8((const char *)q + i) & (((uint64_t)1 << 8 * (n - i)) - 1);
	return x;
}

/* Adds c (every c[i] in [0, bound], bound below 64) to row r in place when
 * its counts are bytes of counts in [0, 63] (even, below 128): 1 when
 * done, else 0 (the row unchanged).  No sum then needs a test. */
static int row_add_bytes(struct cgp_lines *t, size_t r, const int64_t *c)
{
	unsigned char *q = slot_of(t, r);
	unsigned e, nev = t->nev;

	if (bytes_or(q, nev) & 0x8181818181818181ull)
		return 0;
	for (e = 0; e < nev; e++)
		q[e] = (unsigned char)(q[e] + 2 * c[e]);
	return 1;
}

/* Adds sign * c, every |c[i]| at most bound, to the row of k (see
 * cgp_lines_add): a new row is c; an old one gets the sums, checked (a
 * failure changes nothing).  Small counts that are never negative, as
 * bound tells, are stored or added as bytes where they are. */
static int rows_add(struct cgp_lines *t, unsigned nev, const struct row_key *k,
		    int instr, const int64_t *c, int sign, uint64_t bound)
{
	int64_t v[CGP_MAX_EVENTS];
	unsigned e;
	long row;
	int fresh;

	if (t->n && instr != (t->addr != NULL))
		return CGP_EUSAGE;
	row = lines_row(t, nev, k, instr, &fresh);
	if (row < 0)
		return CGP_ENOMEM;
	if (sign > 0 && bound < 64) {
		unsigned char *q = slot_of(t, (size_t)row);
		if (fresh) {
			for (e = 0; e < nev; e++)
				q[e] = (unsigned char)(2 * c[e]);
			return 0;
		}
		if (row_add_bytes(t, (size_t)row, c))
			return 0;
	}
	if (fresh) {
		int bad = negation_overflows(c, nev, sign);
		for (e = 0; e < nev; e++)
			v[e] = bad ? 0 : sign > 0 ? c[e] : -c[e];  /* overflow: empty */
		return row_put(t, (size_t)row, v, 1) ? CGP_ENOMEM : bad ? CGP_EOVERFLOW : 0;
	}
	row_get(t, (size_t)row, v);
	if (sign > 0 ? cgp_vec_add(v, c, nev) : cgp_vec_sub(v, c, nev))
		return CGP_EOVERFLOW;
	return row_put(t, (size_t)row, v, 0) ? CGP_ENOMEM : 0;
}

int cgp_lines_add(struct cgp_lines *t, unsigned nev, int64_t line,
		  const int64_t *c, int sign)
{
	struct row_key k = { line, 0, 0, 0 };

	return rows_add(t, nev, &k, 0, c, sign, UINT64_MAX);
}

int cgp_lines_add_bounded(struct cgp_lines *t, unsigned nev, int64_t line,
			  const int64_t *c, int sign, uint64_t bound)
{
	struct row_key k = { line, 0, 0, 0 };

	return rows_add(t, nev, &k, 0, c, sign, bound);
}

int cgp_instrs_add(struct cgp_lines *t, unsigned nev, int64_t line,
		   uint32_t obj, uint64_t addr, uint32_t fn_cc, const int64_t *c,
		   int sign)
{
	struct row_key k = { line, addr, obj, fn_cc };

	return rows_add(t, nev, &k, 1, c, sign, UINT64_MAX);
}

static int cmp_line_row(const void *a, const void *b)
{
	const struct cgp_line_row *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

void cgp_lines_order(const struct cgp_lines *t, struct cgp_line_row *out)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		out[i].line = t->line[i];
		out[i].row = i;
	}
	if (t->n)
		qsort(out, t->n, sizeof *out, cmp_line_row);
}

void cgp_lines_get(const struct cgp_lines *t, size_t i, int64_t *out)
{
	row_get(t, i, out);
}

/* Adds row r's counts to acc[0..nev), or-ing them and the sums into *bad
 * (a sign bit there: a negative count, or a sum out of range). */
static void sum_row(const struct cgp_lines *t, size_t r, int64_t *acc, uint64_t *bad)
{
	int64_t v[CGP_MAX_EVENTS];
	unsigned e;

	row_get(t, r, v);
	for (e = 0; e < t->nev; e++) {
		uint64_t u = (uint64_t)v[e], s = (uint64_t)acc[e] + u;
		*bad |= u | s;
		acc[e] = (int64_t)s;
	}
}

/* Lane sums of sum_nonneg(): word w of a row's bytes is added in 16-bit
 * lanes, its even bytes to lo[w] and its odd ones to hi[w]; 256 rows of
 * bytes below 255 fit in a lane. */
struct lanes {
	uint64_t lo[CGP_MAX_EVENTS / 8], hi[CGP_MAX_EVENTS / 8];
	unsigned nw, rows;
};

/* Adds the lanes (twice the counts: the bytes are zigzag) to acc[0..nev)
 * (the sums or-ed into *bad, as in sum_row()) and empties them. */
static void lanes_flush(struct lanes *l, int64_t *acc, unsigned nev, uint64_t *bad)
{
	unsigned w, j, e;

	for (w = 0; w < l->nw; w++) {
		for (j = 0; j < 8 && (e = w * 8 + j) < nev; j++) {
			uint64_t lane = (j % 2 ? l->hi[w] : l->lo[w]) >> 16 * (j / 2) & 0xffff;
			acc[e] = (int64_t)((uint64_t)acc[e] + lane / 2);
			*bad |= (uint64_t)acc[e];
		}
		l->lo[w] = l->hi[w] = 0;
	}
	l->rows = 0;
}

/* Adds the slot at q to the lanes if its nev bytes are all even (counts
 * that are not negative, and no WIDE mark): 1, or 0 (the lanes then
 * unchanged). */
static int lanes_add(struct lanes *l, const unsigned char *q, unsigned nev)
{
	const uint64_t even = 0x00ff00ff00ff00ffull;
	uint64_t x[CGP_MAX_EVENTS / 8], odd = 0;
	unsigned w;

	for (w = 0; w < l->nw; w++) {
		unsigned left = nev - w * 8;
		x[w] = cgp_load8((const char *)q + w * 8);
		if (left < 8)  /* the bytes after the row's counts */
			x[w] &= ((uint64_t)1 << 8 * left) - 1;
		odd |= x[w];
	}
	if (odd & 0x0101010101010101ull)
		return 0;
	for (w = 0; w < l->nw; w++) {
		l->lo[w] += x[w] & even;
		l->hi[w] += x[w] >> 8 & even;
	}
	return 1;
}

/* The sums of a table whose counts are never negative, from 0: 0 with
 * acc[0..nev) set, or 1 if a count is negative or a sum leaves the int64
 * range (acc then spoilt).  Rows of bytes are added eight bytes at a time
 * (SWAR, in 16-bit lanes), the others count by count. */
static int sum_nonneg(const struct cgp_lines *t, int64_t *acc)
{
	struct lanes l;
	uint64_t bad = 0;
	size_t i;

	memset(acc, 0, t->nev * sizeof *acc);
	l.nw = (t->nev + 7) / 8;
	memset(l.lo, 0, l.nw * sizeof *l.lo);
	memset(l.hi, 0, l.nw * sizeof *l.hi);
	l.rows = 0;
	for (i = 0; i < t->n; i++) {
		if (!lanes_add(&l, slot_of(t, i), t->nev))
			sum_row(t, i, acc, &bad);
		else if (++l.rows == 256)
			lanes_flush(&l, acc, t->nev, &bad);
	}
	lanes_flush(&l, acc, t->nev, &bad);
	return bad >> 63 != 0;
}

/* " 0", " -1", " 1", ... : the text of each count a byte holds (its
 * zigzag form), eight bytes each (padded), and its length; made on first
 * use, then only read. */
static char small_text[WIDE][8];
static unsigned char small_len[WIDE];

static void small_init(void)
{
	unsigned z;

	for (z = 0; z < WIDE; z++) {
		char b[16];
		int n = snprintf(b, sizeof b, " %lld", (long long)unzigzag(z));
		memcpy(small_text[z], b, 8);
		small_len[z] = (unsigned char)n;
	}
}

size_t cgp_lines_text(const struct cgp_lines *t, size_t i, char *buf)
{
	const unsigned char *q = slot_of(t, i);
	char *p = buf;
	unsigned e, nev = t->nev;

	if (q[0] == WIDE) {
		const int64_t *v = wide_of(t, q);
		for (e = 0; e < nev; e++) {
			*p++ = ' ';
			p += cgp_fmt_int(p, v[e]);
		}
		return (size_t)(p - buf);
	}
	if (!small_len[0])
		small_init();
	for (e = 0; e < nev; e++) {
		memcpy(p, small_text[q[e]], 8);  /* (buf has room) */
		p += small_len[q[e]];
	}
	return (size_t)(p - buf);
}

int cgp_lines_sum(const struct cgp_lines *t, int64_t *sum)
{
	int64_t v[CGP_MAX_EVENTS];
	size_t i;
	int bad = 0;

	/* Counts that are never negative make every partial sum at most the
	 * last, so adding their total checks the same as adding row by row. */
	if (!sum_nonneg(t, v))
		return cgp_vec_add(sum, v, t->nev) ? -1 : 0;
	for (i = 0; i < t->n; i++) {
		row_get(t, i, v);
		bad |= cgp_vec_add(sum, v, t->nev);
	}
	return bad ? -1 : 0;
}

void cgp_lines_release(struct cgp_lines *t)
{
	free(t->line);
	free(t->addr);
	free(t->obj);
	free(t->fn_cc);
	free(t->wide);  /* (the slots are in line's block) */
	free(t->runs);
	free(t->index);
	memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------------------ */
/* Cost table                                                                */
/* ------------------------------------------------------------------------ */

/* A block of a pool; its vectors are never freed one by one. */
struct cgp_pool_block {
	struct cgp_pool_block *next;
	int64_t data[];
};

int64_t *cgp_pool_alloc(struct cgp_pool *p, size_t n, size_t nblock)
{
	int64_t *v;

	if (p->left < n || !p->next) {
		size_t k = n * nblock + 1;
		struct cgp_pool_block *b = malloc(sizeof *b + k * sizeof(int64_t));
		if (!b)
			return NULL;
		b->next = p->blocks;
		p->blocks = b;
		p->next = b->data;
		p->left = k;
	}
	v = p->next;
	memset(v, 0, n * sizeof *v);
	p->next += n;
	p->left -= n;
	return v;
}

struct cgp_lines *cgp_table_lines(struct cgp_table *t)
{
	/* From the pool of the totals: 80,000 tables of a big cg_merge are
	 * no 80,000 blocks of their own to allocate and free. */
	return (struct cgp_lines *)cgp_pool_alloc(&t->totals,
						  (sizeof(struct cgp_lines) + 7) / 8, 256);
}

void cgp_pool_release(struct cgp_pool *p)
{
	struct cgp_pool_block *b, *nb;

	for (b = p->blocks; b; b = nb) {
		nb = b->next;
		free(b);
	}
	memset(p, 0, sizeof *p);
}

void cgp_table_init(struct cgp_table *t, unsigned nev)
{
	memset(t, 0, sizeof *t);
	t->nev = nev;
	cgp_names_init(&t->names);
}

static size_t cc_hash(const struct cgp_name *f, const struct cgp_name *fn,
		      unsigned flags)
{
	uint64_t h = (uint64_t)(uintptr_t)f * 0x9e3779b97f4a7c15ull;

	h ^= (uint64_t)(uintptr_t)fn * 0xc2b2ae3d27d4eb4full + flags;
	h ^= h >> 29;
	return (size_t)(h * 0xbf58476d1ce4e5b9ull >> 32);
}

static size_t cc_row_hash(const void *owner, size_t i)
{
	const struct cgp_cc *c = &((const struct cgp_table *)owner)->cc[i];

	return cc_hash(c->file, c->fn, c->flags);
}

static int cc_reindex(struct cgp_table *t)
{
	return index_rebuild(&t->ccindex, &t->ccmask, 256, !t->ccindex, t->ncc,
			     cc_row_hash, t);
}

/* Grows *p (an array of *cap elements of size elem) to hold n + 1. */
int cgp_grow_array(void **p, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *q;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	if (ncap > SIZE_MAX / elem)
		return -1;
	q = realloc(*p, ncap * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = ncap;
	return 0;
}

long cgp_table_file(struct cgp_table *t, struct cgp_name_ent *name)
{
	struct cgp_file *f;

	if (name->file >= 0)
		return name->file;
	if (t->nfile >= INT32_MAX ||
	    cgp_grow_array((void **)&t->file, &t->filecap, t->nfile, sizeof *t->file))
		return -1;
	f = &t->file[t->nfile];
	memset(f, 0, sizeof *f);
	f->name = &name->name;
	name->file = (int32_t)t->nfile;
	return (long)t->nfile++;
}

long cgp_table_object(struct cgp_table *t, struct cgp_name_ent *name,
		      const struct cgp_name *build_id)
{
	struct cgp_object *o;
	long i, last = -1;

	/* Build-ids are interned in the same table: compared by pointer. */
	for (i = name->obj; i >= 0; i = t->obj[i].next) {
		if (t->obj[i].build_id == build_id)
			return i;
		last = i;
	}
	if (t->nobj >= INT32_MAX ||
	    cgp_grow_array((void **)&t->obj, &t->objcap, t->nobj, sizeof *t->obj))
		return -1;
	o = &t->obj[t->nobj];
	o->name = &name->name;
	o->build_id = build_id;
	o->next = -1;
	if (last >= 0)
		t->obj[last].next = (long)t->nobj;
	else
		name->obj = (int32_t)t->nobj;
	return (long)t->nobj++;
}

long cgp_table_cc(struct cgp_table *t, struct cgp_name_ent *file,
		  const struct cgp_name *fn, unsigned flags)
{
	size_t s;
	struct cgp_cc *c;
	long fi;

	if (!t->ccindex && cc_reindex(t))
		return -1;
	for (s = cc_hash(&file->name, fn, flags) & t->ccmask; t->ccindex[s];
	     s = (s + 1) & t->ccmask) {
		c = &t->cc[t->ccindex[s] - 1];
		if (c->file == &file->name && c->fn == fn && c->flags == flags)
			return (long)t->ccindex[s] - 1;
	}
	if (t->ncc >= UINT32_MAX - 1 ||
	    cgp_grow_array((void **)&t->cc, &t->cccap, t->ncc, sizeof *t->cc))
		return -1;
	/* A scratch file side (lines before any fl=) is no file entry. */
	if (!(flags & CGP_CC_NOFILE)) {
		struct cgp_file *f;
		fi = cgp_table_file(t, file);
		if (fi < 0)
			return -1;
		f = &t->file[fi];
		if (cgp_grow_array((void **)&f->ccs, &f->cccap, f->nccs, sizeof *f->ccs))
			return -1;
		f->ccs[f->nccs++] = t->ncc;
	}
	c = &t->cc[t->ncc];
	c->file = &file->name;
	c->fn = fn;
	c->flags = flags;
	c->lines = NULL;
	c->instrs = NULL;
	c->line_lo = 0;
	c->total = cgp_pool_alloc(&t->totals, t->nev, 256);
	if (!c->total)
		return -1;
	t->ncc++;
	if (t->ncc * 4 > (t->ccmask + 1) * 3) { /* load 3/4 */
		if (cc_reindex(t))
			return -1;
	} else {
		t->ccindex[s] = (uint32_t)t->ncc;
	}
	return (long)t->ncc - 1;
}

long cgp_table_add_cc(struct cgp_table *t, const struct cgp_name *file,
		      const char *fn, size_t len)
{
	struct cgp_name_ent *name = cgp_names_intern(&t->names, fn, len);

	/* Every name of the table is the start of its entry. */
	return name ? cgp_table_cc(t, (struct cgp_name_ent *)file, &name->name, 0) : -1;
}

int cgp_table_drop_ccs(struct cgp_table *t, const unsigned char *drop)
{
	size_t i, j, k;

	for (i = 0; i < t->nfile; i++) {
		struct cgp_file *f = &t->file[i];
		for (j = k = 0; j < f->nccs; j++)
			if (!drop[f->ccs[j]])
				f->ccs[k++] = f->ccs[j];
		f->nccs = k;
	}
	for (i = 0; i < t->ncc; i++)
		if (drop[i])
			t->cc[i].flags |= CGP_CC_NOFN;
	/* The flags are part of the key: the index must follow. */
	return cc_reindex(t);
}

void cgp_table_release(struct cgp_table *t)
{
	size_t i;

	for (i = 0; i < t->ncc; i++) {
		if (t->cc[i].lines)
			cgp_lines_release(t->cc[i].lines);
		if (t->cc[i].instrs)
			cgp_lines_release(t->cc[i].instrs);
	}
	for (i = 0; i < t->nfile; i++) {
		cgp_lines_release(&t->file[i].lines);
		free(t->file[i].orig);
		free(t->file[i].ccs);
	}
	cgp_pool_release(&t->totals);
	free(t->cc);
	free(t->ccindex);
	free(t->file);
	free(t->obj);
	cgp_names_release(&t->names);
	memset(t, 0, sizeof *t);
}
