/* cgp_model.c -- the report model: rows, totals, old/new/delta, derived columns, the two groupings. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cgp_int.h"
#include "cgp_model.h"

/* Values per row: ncol, or old, new and delta. */
static size_t width(const struct cgp_model *m)
{
	return m->diff ? 3 * (size_t)m->ncol : m->ncol;
}

/* A zeroed value vector (a row's, a group's, the total's). */
static int64_t *values(struct cgp_model *m)
{
	return cgp_pool_alloc(&m->values, width(m), 1024);
}

void cgp_model_init(struct cgp_model *m, int diff, char **events, unsigned nrec,
		    const struct cgp_derives *der)
{
	unsigned k;

	memset(m, 0, sizeof *m);
	m->diff = diff;
	m->nrec = nrec;
	m->der = der;
	m->ncol = nrec + (der ? der->n : 0);
	m->events = calloc(m->ncol + 1, sizeof *m->events);
	m->ratio = calloc(m->ncol + 1, 1);
	if (!m->events || !m->ratio)
		return;   /* reported by the first add */
	for (k = 0; k < nrec; k++)
		m->events[k] = events[k];
	for (k = nrec; k < m->ncol; k++) {
		m->events[k] = der->d[k - nrec].name;
		m->ratio[k] = (unsigned char)der->d[k - nrec].ratio;
	}
}

static int nomem(struct cgp_error *err)
{
	return cgp_error_set(err, CGP_ENOMEM, "out of memory");
}

/* Copies a (and b) into the value vector v of a row or total. */
static void put_sides(const struct cgp_model *m, int64_t *v, const int64_t *a,
		      const int64_t *b)
{
	memcpy(v, a, m->nrec * sizeof *v);
	if (m->diff)
		memcpy(v + m->ncol, b, m->nrec * sizeof *v);
}

int cgp_model_add(struct cgp_model *m, const struct cgp_name *file,
		  const struct cgp_name *fn, unsigned flags, const int64_t *a,
		  const int64_t *b, struct cgp_error *err)
{
	struct cgp_mrow *r;

	if (!m->events || !m->ratio ||
	    cgp_grow_array((void **)&m->row, &m->rowcap, m->nrow, sizeof *m->row))
		return nomem(err);
	r = &m->row[m->nrow];
	r->file = file;
	r->fn = fn;
	r->flags = flags;
	if (!(r->v = values(m)))
		return nomem(err);
	put_sides(m, r->v, a, b);
	m->nrow++;
	return 0;
}

int cgp_model_set_total(struct cgp_model *m, const int64_t *a, const int64_t *b,
			struct cgp_error *err)
{
	if (!m->events || !m->ratio || (!m->total && !(m->total = values(m))))
		return nomem(err);
	put_sides(m, m->total, a, b);
	return 0;
}

int cgp_model_derive(const struct cgp_model *m, int64_t *v, struct cgp_error *err)
{
	if (m->ncol == m->nrec)
		return 0;
	return cgp_derives_eval(m->der, v, m->nrec, err);
}

int cgp_model_delta(const struct cgp_model *m, unsigned k, int64_t o, int64_t n, int64_t *d)
{
	if (m->ratio[k] && (o == CGP_NA || n == CGP_NA)) {
		/* A ratio is never INT64_MIN: -o fits. */
		*d = o == CGP_NA ? n : -o;
		return 0;
	}
	return __builtin_sub_overflow(n, o, d) ? -1 : 0;
}

/* Derived columns of every side, then the deltas; an overflow of a
 * delta names its event and where (file and fn, or file alone, or
 * neither for the total). */
static int complete_at(const struct cgp_model *m, int64_t *v, const struct cgp_name *file,
		       const struct cgp_name *fn, struct cgp_error *err)
{
	unsigned k;
	int rc = cgp_model_derive(m, v, err);

	if (rc || !m->diff)
		return rc;
	if ((rc = cgp_model_derive(m, v + m->ncol, err)))
		return rc;
	for (k = 0; k < m->ncol; k++) {
		int64_t o = v[k], n = v[m->ncol + k];
		if (cgp_model_delta(m, k, o, n, &v[2 * m->ncol + k])) {
			struct cgp_buf b = CGP_BUF_INIT(1 << 20);
			if (file)
				cgp_buf_add(&b, file->s, file->len);
			if (file && fn)
				cgp_buf_add(&b, ":", 1);
			else if (fn)
				cgp_buf_adds(&b, "function ");
			if (fn)
				cgp_buf_add(&b, fn->s, fn->len);
			cgp_error_set(err, CGP_EOVERFLOW,
				      "the difference of %s in %s exceeds the 64-bit range "
				      "(old %lld, new %lld)", m->events[k],
				      b.s ? b.s : "the totals", (long long)o, (long long)n);
			cgp_buf_release(&b);
			return CGP_EOVERFLOW;
		}
	}
	return 0;
}

static int complete(const struct cgp_model *m, int64_t *v, struct cgp_error *err)
{
	return complete_at(m, v, NULL, NULL, err);
}

/* Adds the recorded values of every side of src to dst. */
static int add_rec(const struct cgp_model *m, int64_t *dst, const int64_t *src,
		   struct cgp_error *err)
{
	unsigned k, s, sides = m->diff ? 2 : 1;

	for (s = 0; s < sides; s++)
		for (k = 0; k < m->nrec; k++)
			if (cgp_add(&dst[s * m->ncol + k], src[s * m->ncol + k]))
				return cgp_error_set(err, CGP_EOVERFLOW,
						     "a total exceeds the 64-bit range");
	return 0;
}

int cgp_model_accumulate(const struct cgp_model *m, int64_t *dst, const int64_t *src,
			 struct cgp_error *err)
{
	int rc = add_rec(m, dst, src, err);

	return rc ? rc : complete(m, dst, err);
}

/* Rows sorted for grouping: by the group's name, then the other name,
 * then the row.  Names are interned, so the same name is the same pointer
 * and comparing addresses groups them (much faster than comparing text;
 * the order of the groups is set by cgp_model_sort()); the addresses are
 * taken into the keys once, so that the sort reads no row. */
struct gkey {
	uintptr_t name, other;
	size_t row;
};

static int cmp_gkey(const void *p, const void *q)
{
	const struct gkey *x = p, *y = q;

	if (x->name != y->name)
		return x->name > y->name ? 1 : -1;
	if (x->other != y->other)
		return x->other > y->other ? 1 : -1;
	return (x->row > y->row) - (x->row < y->row);
}

/* The distinct names of keys k[0..n) in first-seen order: each key's
 * group number in grp[], the names in *names (malloc'd), their number
 * returned; -1 without memory.  An open-addressing table of the names. */
static long group_numbers(const struct gkey *k, size_t n, uint32_t *grp, uintptr_t **names)
{
	size_t cap = 16, mask, i, s;
	uintptr_t *slot;
	uint32_t *num;
	long ng = 0;

	while (cap < 2 * n)
		cap *= 2;
	mask = cap - 1;
	slot = calloc(cap, sizeof *slot);
	num = malloc(cap * sizeof *num);
	*names = malloc((n + 1) * sizeof **names);
	if (!slot || !num || !*names) {
		free(slot);
		free(num);
		free(*names);
		return -1;
	}
	for (i = 0; i < n; i++) {
		for (s = (k[i].name * 0x9e3779b97f4a7c15ull >> 20) & mask;
		     slot[s] && slot[s] != k[i].name; s = (s + 1) & mask)
			;
		if (!slot[s]) {
			slot[s] = k[i].name;
			num[s] = (uint32_t)ng;
			(*names)[ng++] = k[i].name;
		}
		grp[i] = num[s];
	}
	free(slot);
	free(num);
	return ng;
}

/* A name and its number, to rank names by address. */
struct gname {
	uintptr_t name;
	uint32_t num;
};

static int cmp_gname(const void *p, const void *q)
{
	const struct gname *x = p, *y = q;

	return (x->name > y->name) - (x->name < y->name);
}

/* rank[g]: the place of names[g] (distinct, ng of them) in address
 * order.  0, or -1 without memory. */
static int group_ranks(const uintptr_t *names, size_t ng, uint32_t *rank)
{
	struct gname *x = malloc((ng + 1) * sizeof *x);
	size_t g;

	if (!x)
		return -1;
	for (g = 0; g < ng; g++)
		x[g] = (struct gname){ names[g], (uint32_t)g };
	qsort(x, ng, sizeof *x, cmp_gname);
	for (g = 0; g < ng; g++)
		rank[x[g].num] = (uint32_t)g;
	free(x);
	return 0;
}

/* The keys k[0..n), whose names have the ranks rank[grp[i]] (of ng),
 * into out[0..n) in cmp_gkey() order: each row put in its name's bucket
 * (buckets by rank, rows in row order), then each bucket sorted by the
 * other name and the row.  0, or -1 without memory. */
static int group_buckets(const struct gkey *k, size_t n, const uint32_t *grp,
			 const uint32_t *rank, size_t ng, struct gkey *out)
{
	size_t *end = calloc(ng + 1, sizeof *end), i, g;

	if (!end)
		return -1;
	for (i = 0; i < n; i++)
		end[rank[grp[i]] + 1]++;
	for (g = 0; g < ng; g++)
		end[g + 1] += end[g];   /* end[g]: where bucket g starts */
	for (i = 0; i < n; i++)
		out[end[rank[grp[i]]]++] = k[i];   /* then: where it ends */
	for (g = 0, i = 0; g < ng; i = end[g++])
		qsort(out + i, end[g] - i, sizeof *out, cmp_gkey);
	free(end);
	return 0;
}

/* The keys k[0..n) in cmp_gkey() order, into out[0..n), without sorting
 * them all: the names are numbered and ranked, and the rows bucketed by
 * them.  0, or -1 without memory. */
static int group_sort(const struct gkey *k, size_t n, struct gkey *out)
{
	uint32_t *grp = malloc((n + 1) * sizeof *grp), *rank = NULL;
	uintptr_t *names = NULL;
	long ng = grp ? group_numbers(k, n, grp, &names) : -1;
	int rc = -1;

	if (ng >= 0 && (rank = malloc(((size_t)ng + 1) * sizeof *rank)) &&
	    !group_ranks(names, (size_t)ng, rank))
		rc = group_buckets(k, n, grp, rank, (size_t)ng, out);
	if (ng >= 0)
		free(names);
	free(rank);
	free(grp);
	return rc;
}

/* The rows of m to group by function (by_fn) or by file, sorted, into
 * idx[0..*n): rows without such a name left out.  0, or -1 without
 * memory. */
static int group_order(const struct cgp_model *m, int by_fn, size_t *idx, size_t *n)
{
	struct gkey *k = malloc((m->nrow + 1) * sizeof *k);
	struct gkey *out = malloc((m->nrow + 1) * sizeof *out);
	unsigned skip = by_fn ? CGP_CC_NOFN : CGP_CC_NOFILE;
	size_t i;

	if (!k || !out) {
		free(k);
		free(out);
		return -1;
	}
	for (*n = i = 0; i < m->nrow; i++) {
		const struct cgp_mrow *r = &m->row[i];
		if (r->flags & skip)
			continue;
		k[*n].name = (uintptr_t)(by_fn ? r->fn : r->file);
		k[*n].other = (uintptr_t)(by_fn ? r->file : r->fn);
		k[(*n)++].row = i;
	}
	if (group_sort(k, *n, out)) {
		free(k);
		free(out);
		return -1;
	}
	for (i = 0; i < *n; i++)
		idx[i] = out[i].row;
	free(k);
	free(out);
	return 0;
}

/* Builds one grouping: by file (leaving out rows without a file) or by
 * function (leaving out rows without a function). */
static int group(struct cgp_model *m, int by_fn, struct cgp_mgroup **out, size_t *nout,
		 struct cgp_error *err)
{
	size_t *idx = malloc((m->nrow + 1) * sizeof *idx), n = 0, i, j, ng = 0;
	struct cgp_mgroup *g;

	if (!idx || group_order(m, by_fn, idx, &n)) {
		free(idx);
		return nomem(err);
	}
	g = calloc(n + 1, sizeof *g);
	if (!g) {
		free(idx);
		return nomem(err);
	}
	for (i = 0; i < n; i = j) {
		const struct cgp_name *name = by_fn ? m->row[idx[i]].fn : m->row[idx[i]].file;
		struct cgp_mgroup *x = &g[ng++];
		for (j = i; j < n; j++) {
			const struct cgp_mrow *r = &m->row[idx[j]];
			if ((by_fn ? r->fn : r->file) != name)
				break;
		}
		x->name = name;
		x->nrows = j - i;
		x->rows = malloc(x->nrows * sizeof *x->rows);
		x->v = values(m);
		if (!x->rows || !x->v) {
			*out = g, *nout = ng;
			free(idx);
			return nomem(err);
		}
		memcpy(x->rows, idx + i, x->nrows * sizeof *x->rows);
		for (j = i; j < i + x->nrows; j++)
			if (add_rec(m, x->v, m->row[idx[j]].v, err)) {
				*out = g, *nout = ng;
				free(idx);
				return err->code;
			}
		if (complete_at(m, x->v, by_fn ? NULL : name, by_fn ? name : NULL, err)) {
			*out = g, *nout = ng;
			free(idx);
			return err->code;
		}
	}
	free(idx);
	*out = g;
	*nout = ng;
	return 0;
}

int cgp_model_finish(struct cgp_model *m, struct cgp_error *err)
{
	size_t i;
	int rc;

	if (!m->events || !m->ratio || (!m->total && !(m->total = values(m))))
		return nomem(err);
	for (i = 0; i < m->nrow; i++)
		if ((rc = complete_at(m, m->row[i].v, m->row[i].file, m->row[i].fn, err)))
			return rc;
	if ((rc = complete(m, m->total, err)))
		return rc;
	if ((rc = group(m, 0, &m->file, &m->nfile, err)))
		return rc;
	return group(m, 1, &m->func, &m->nfunc, err);
}

/* The sort of cgp_model_sort() (qsort has no context argument). */
static const struct cgp_model *sort_m;
static const unsigned *sort_k;
static unsigned sort_n;

int cgp_model_cmp(const struct cgp_model *m, const unsigned *sort, unsigned nsort,
		  const int64_t *x, const struct cgp_name *xn, const int64_t *y,
		  const struct cgp_name *yn)
{
	unsigned i;

	for (i = 0; i < nsort; i++) {
		uint64_t a = cgp_model_mag(m, sort[i], x[sort[i]]);
		uint64_t b = cgp_model_mag(m, sort[i], y[sort[i]]);
		if (a != b)
			return a < b ? 1 : -1;
	}
	return -cgp_name_cmp(xn, yn);
}

/* cgp_model_cmp() of two full value vectors (the deltas of a diff). */
static int cmp_vals(const int64_t *x, const struct cgp_name *xn, const int64_t *y,
		    const struct cgp_name *yn)
{
	size_t side = sort_m->diff ? 2 * (size_t)sort_m->ncol : 0;

	return cgp_model_cmp(sort_m, sort_k, sort_n, x + side, xn, y + side, yn);
}

static int cmp_group(const void *p, const void *q)
{
	const struct cgp_mgroup *x = p, *y = q;

	return cmp_vals(x->v, x->name, y->v, y->name);
}

/* Rows inside a group of files compare by function, and the reverse. */
static int sort_inner_by_fn;

static int cmp_member(const void *p, const void *q)
{
	const struct cgp_mrow *x = &sort_m->row[*(const size_t *)p];
	const struct cgp_mrow *y = &sort_m->row[*(const size_t *)q];

	return cmp_vals(x->v, sort_inner_by_fn ? x->fn : x->file, y->v,
			sort_inner_by_fn ? y->fn : y->file);
}

/* A member of a group with the magnitude of its first sort value, taken
 * from its row once: most comparisons end there, without reading rows. */
struct mkey {
	uint64_t first;
	size_t row;
};

static int cmp_mkey(const void *p, const void *q)
{
	const struct mkey *x = p, *y = q;

	if (x->first != y->first)
		return x->first < y->first ? 1 : -1;
	return cmp_member(&x->row, &y->row);
}

/* Sorts the rows of group g with cmp_member() (through keys k, room for
 * the biggest group; NULL: directly). */
static void sort_members(struct cgp_mgroup *g, struct mkey *k)
{
	size_t side = sort_m->diff ? 2 * (size_t)sort_m->ncol : 0, i;

	if (!k || !sort_n) {
		qsort(g->rows, g->nrows, sizeof *g->rows, cmp_member);
		return;
	}
	for (i = 0; i < g->nrows; i++) {
		const int64_t *v = sort_m->row[g->rows[i]].v + side;
		k[i].first = cgp_model_mag(sort_m, sort_k[0], v[sort_k[0]]);
		k[i].row = g->rows[i];
	}
	qsort(k, g->nrows, sizeof *k, cmp_mkey);
	for (i = 0; i < g->nrows; i++)
		g->rows[i] = k[i].row;
}

void cgp_model_sort(struct cgp_model *m, const unsigned *sort, unsigned nsort)
{
	size_t i, most = 0;
	struct mkey *k;

	sort_m = m;
	sort_k = sort;
	sort_n = nsort;
	qsort(m->file, m->nfile, sizeof *m->file, cmp_group);
	qsort(m->func, m->nfunc, sizeof *m->func, cmp_group);
	for (i = 0; i < m->nfile || i < m->nfunc; i++) {
		if (i < m->nfile && m->file[i].nrows > most)
			most = m->file[i].nrows;
		if (i < m->nfunc && m->func[i].nrows > most)
			most = m->func[i].nrows;
	}
	k = malloc((most + 1) * sizeof *k);  /* (without it: qsort of the rows) */
	sort_inner_by_fn = 1;
	for (i = 0; i < m->nfile; i++)
		sort_members(&m->file[i], k);
	sort_inner_by_fn = 0;
	for (i = 0; i < m->nfunc; i++)
		sort_members(&m->func[i], k);
	free(k);
}

size_t cgp_fmt_ratio(char *buf, int64_t v, int commas)
{
	size_t n, i = 0;
	char t[40];
	uint64_t a;

	if (v == CGP_NA) {
		memcpy(buf, "n/a", 4);
		return 3;
	}
	a = cgp_mag(v);
	n = commas ? cgp_fmt_commas(t, (int64_t)(a / 1000)) : cgp_fmt_int(t, (int64_t)(a / 1000));
	if (v < 0)
		buf[i++] = '-';
	memcpy(buf + i, t, n);
	i += n;
	buf[i++] = '.';
	buf[i++] = (char)('0' + a / 100 % 10);
	buf[i++] = (char)('0' + a / 10 % 10);
	buf[i++] = (char)('0' + a % 10);
	buf[i] = '\0';
	return i;
}

size_t cgp_model_fmt(const struct cgp_model *m, unsigned k, int64_t v, int commas,
		     char *buf)
{
	if (!m->ratio[k])
		return commas ? cgp_fmt_commas(buf, v) : cgp_fmt_int(buf, v);
	return cgp_fmt_ratio(buf, v, commas);
}

void cgp_model_release(struct cgp_model *m)
{
	size_t i;
	int k;

	for (i = 0; i < m->nfile; i++)
		free(m->file[i].rows);
	for (i = 0; i < m->nfunc; i++)
		free(m->func[i].rows);
	for (k = 0; k < CGP_ASUM_COUNT; k++)
		free(m->asum[k]);
	cgp_pool_release(&m->values);
	free(m->file);
	free(m->func);
	free(m->row);
	free(m->events);
	free(m->ratio);
	memset(m, 0, sizeof *m);
}
