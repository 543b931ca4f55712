/* cgp_table.c -- interned names, line tables and the (file, function) cost table of the profile library. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

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

/* Rebuilds *ix for rows [0, n) with twice the slots (first at first, a
 * power of two); 0, or -1 without memory (the index then unchanged). */
static int index_rebuild(uint32_t **ix, size_t *mask, size_t first, size_t n,
			 row_hash_fn *hash, const void *owner)
{
	size_t ncap = *ix ? (*mask + 1) * 2 : first, i;
	uint32_t *nix = calloc(ncap, sizeof *nix);

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
 * address (both 0 in a line table). */
struct row_key {
	int64_t line;
	uint64_t addr;
	uint32_t obj;
};

static size_t line_hash(const struct row_key *k)
{
	uint64_t h = (uint64_t)k->line ^ (k->addr * 0xc2b2ae3d27d4eb4full) ^ k->obj;

	return (size_t)((h * 0x9e3779b97f4a7c15ull) >> 32);
}

static struct row_key row_key_of(const struct cgp_lines *t, size_t i)
{
	struct row_key k = { t->line[i], 0, 0 };

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
	return index_rebuild(&t->index, &t->imask, 16, t->n, line_row_hash, t);
}

static int lines_widen(struct cgp_lines *t)
{
	size_t i, total = t->cap * t->nev;
	int64_t *w = malloc((total ? total : 1) * sizeof *w);
	const int32_t *c = t->counts;

	if (!w)
		return -1;
	for (i = 0; i < t->n * t->nev; i++)
		w[i] = c[i];
	free(t->counts);
	t->counts = w;
	t->wide = 1;
	return 0;
}

/* Grows the row arrays of t (instr: with addresses and objects) to ncap
 * rows; 0, or -1 without memory (the arrays grown so far keep their
 * contents, cap unchanged). */
static int lines_grow(struct cgp_lines *t, unsigned nev, size_t ncap, int instr)
{
	size_t elem = t->wide ? sizeof(int64_t) : sizeof(int32_t);
	int64_t *l = realloc(t->line, ncap * sizeof *l);
	void *c;

	if (!l)
		return -1;
	t->line = l;
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
	}
	c = realloc(t->counts, ncap * nev * elem + 1);
	if (!c)
		return -1;
	t->counts = c;
	t->cap = ncap;
	return 0;
}

/* Row of k, appended (zero counts) when absent; -1 without memory. */
static long lines_row(struct cgp_lines *t, unsigned nev, const struct row_key *k,
		      int instr)
{
	size_t s, elem;

	if (!t->index) {
		t->nev = nev;
		if (lines_reindex(t))
			return -1;
	}
	for (s = line_hash(k) & t->imask; t->index[s]; s = (s + 1) & t->imask) {
		size_t r = t->index[s] - 1;
		if (t->line[r] == k->line &&
		    (!instr || (t->addr[r] == k->addr && t->obj[r] == k->obj)))
			return (long)r;
	}
	if (t->n >= UINT32_MAX - 1)
		return -1;
	elem = t->wide ? sizeof(int64_t) : sizeof(int32_t);
	if (t->n == t->cap &&
	    lines_grow(t, nev, t->cap ? t->cap + t->cap / 2 + 8 : 8, instr))
		return -1;
	t->line[t->n] = k->line;
	if (instr) {
		t->addr[t->n] = k->addr;
		t->obj[t->n] = k->obj;
	}
	memset((char *)t->counts + t->n * nev * elem, 0, nev * elem);
	t->n++;
	if (t->n * 4 > (t->imask + 1) * 3) { /* load 3/4 */
		if (lines_reindex(t))
			return -1;
	} else {
		t->index[s] = (uint32_t)t->n;
	}
	return (long)t->n - 1;
}

/* Adds c to the row of k (see cgp_lines_add). */
static int rows_add(struct cgp_lines *t, unsigned nev, const struct row_key *k,
		    int instr, const int64_t *c, int sign)
{
	long row;
	unsigned i;

	if (t->n && instr != (t->addr != NULL))
		return CGP_EUSAGE;
	row = lines_row(t, nev, k, instr);
	if (row < 0)
		return CGP_ENOMEM;
	if (!t->wide) {
		int32_t *r = (int32_t *)t->counts + (size_t)row * nev;
		uint64_t out = 0;
		/* A sum outside int32 sets a bit of out after the shift. */
		for (i = 0; i < nev; i++) {
			int64_t ci = c[i], v;
			if (ci > INT32_MAX || ci < -INT32_MAX) {
				out = 1;
				break;
			}
			v = (int64_t)r[i] + (sign > 0 ? ci : -ci);
			out |= (uint64_t)(v + ((int64_t)1 << 31)) >> 32;
		}
		if (!out) {
			for (i = 0; i < nev; i++)
				r[i] += (int32_t)(sign > 0 ? c[i] : -c[i]);
			return 0;
		}
		if (lines_widen(t))
			return CGP_ENOMEM;
	}
	{
		int64_t *r = (int64_t *)t->counts + (size_t)row * nev, v;
		/* Check every sum first so that a failure changes nothing. */
		for (i = 0; i < nev; i++)
			if (sign > 0 ? __builtin_add_overflow(r[i], c[i], &v)
				     : __builtin_sub_overflow(r[i], c[i], &v))
				return CGP_EOVERFLOW;
		for (i = 0; i < nev; i++)
			r[i] = sign > 0 ? r[i] + c[i] : r[i] - c[i];
	}
	return 0;
}

int cgp_lines_add(struct cgp_lines *t, unsigned nev, int64_t line,
		  const int64_t *c, int sign)
{
	struct row_key k = { line, 0, 0 };

	return rows_add(t, nev, &k, 0, c, sign);
}

int cgp_instrs_add(struct cgp_lines *t, unsigned nev, int64_t line,
		   uint32_t obj, uint64_t addr, const int64_t *c, int sign)
{
	struct row_key k = { line, addr, obj };

	return rows_add(t, nev, &k, 1, c, sign);
}

void cgp_lines_get(const struct cgp_lines *t, size_t i, int64_t *out)
{
	unsigned k;

	if (t->wide) {
		memcpy(out, (const int64_t *)t->counts + i * t->nev,
		       t->nev * sizeof *out);
		return;
	}
	for (k = 0; k < t->nev; k++)
		out[k] = ((const int32_t *)t->counts)[i * t->nev + k];
}

void cgp_lines_release(struct cgp_lines *t)
{
	free(t->line);
	free(t->addr);
	free(t->obj);
	free(t->counts);
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
	return index_rebuild(&t->ccindex, &t->ccmask, 256, t->ncc, cc_row_hash, t);
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
	if (t->ncc * 2 > t->ccmask + 1) {
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
		if (t->cc[i].lines) {
			cgp_lines_release(t->cc[i].lines);
			free(t->cc[i].lines);
		}
		if (t->cc[i].instrs) {
			cgp_lines_release(t->cc[i].instrs);
			free(t->cc[i].instrs);
		}
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
