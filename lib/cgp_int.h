/* cgp_int.h -- declarations shared by the profile library's own files only. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef CGP_INT_H
#define CGP_INT_H

#include <string.h>

#include "cgp.h"

/* a[i] += b[i] for i < n, with wrapping arithmetic: 1 if any sum left the
 * int64 range (a is then spoilt), else 0.  One test for all n. */
static inline int cgp_vec_add(int64_t *a, const int64_t *b, unsigned n)
{
	uint64_t bad = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		uint64_t x = (uint64_t)a[i], y = (uint64_t)b[i], r = x + y;
		bad |= (x ^ r) & (y ^ r);
		a[i] = (int64_t)r;
	}
	return bad >> 63 != 0;
}

/* a[i] -= b[i] for i < n, the same way. */
static inline int cgp_vec_sub(int64_t *a, const int64_t *b, unsigned n)
{
	uint64_t bad = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		uint64_t x = (uint64_t)a[i], y = (uint64_t)b[i], r = x - y;
		bad |= (x ^ y) & (x ^ r);
		a[i] = (int64_t)r;
	}
	return bad >> 63 != 0;
}

/*
 * Eight bytes at a time (SWAR): the fast path of count lines reads a
 * number's digits as one 64-bit word, byte 0 the first character, on any
 * byte order.
 */
static inline uint64_t cgp_load8(const char *p)
{
	uint64_t x;

	memcpy(&x, p, sizeof x);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/* How many of the bytes of x, from byte 0 on, are ASCII digits (0 to 8).
 * A byte is one when its high half is 3 and its low half plus 6 does not
 * carry into the high half; a carry out of a byte that is not a digit
 * only spoils bytes after it. */
static inline unsigned cgp_swar_ndigits(uint64_t x)
{
	const uint64_t hi = 0xf0f0f0f0f0f0f0f0ull, three = 0x3030303030303030ull;
	uint64_t bad = ((x & hi) ^ three) | (((x + 0x0606060606060606ull) & hi) ^ three);

	return bad ? (unsigned)__builtin_ctzll(bad) / 8 : 8;
}

/* The value of the first n (1 to 8) bytes of x, which are digits: the
 * digits go to the top bytes, then pairs, fours and eights are joined by
 * three multiplications. */
static inline uint64_t cgp_swar_value(uint64_t x, unsigned n)
{
	x = (x - 0x3030303030303030ull) << (8 * (8 - n));
	x = x * 10 + (x >> 8);
	return ((x & 0x000000ff000000ffull) * (100 + (1000000ull << 32)) +
		((x >> 16) & 0x000000ff000000ffull) * (1 + (10000ull << 32))) >> 32;
}

/* A name with the library's bookkeeping.  Others see only the struct
 * cgp_name at its start (&ent->name); these fields never change outside
 * the library. */
struct cgp_name_ent {
	struct cgp_name name;
	uint32_t hash;
	struct cgp_name_ent *next;      /* hash chain */
	struct cgp_name_ent *mod[2];    /* cached --mod-filename/funcname
					   results, or NULL */
	int32_t file;                   /* index in the table's files, or -1 */
	int32_t obj;                    /* index of the first object of this
					   name in the table's, or -1 */
	int32_t orig_kept;              /* listed in a file entry's orig */
};

void cgp_names_init(struct cgp_names *n);
/* Returns the interned copy of s[0..len), NULL without memory. */
struct cgp_name_ent *cgp_names_intern(struct cgp_names *n, const char *s, size_t len);
void cgp_names_release(struct cgp_names *n);

void cgp_table_init(struct cgp_table *t, unsigned nev);
void cgp_table_release(struct cgp_table *t);
/* Index of the file entry of name, created if absent; -1 without memory. */
long cgp_table_file(struct cgp_table *t, struct cgp_name_ent *name);
/* Index of the object (name, build_id) (build_id NULL: none), created if
 * absent; -1 without memory. */
long cgp_table_object(struct cgp_table *t, struct cgp_name_ent *name,
		      const struct cgp_name *build_id);
/* Index of the cost centre (file, fn, flags), created with zero totals if
 * absent; -1 without memory. */
long cgp_table_cc(struct cgp_table *t, struct cgp_name_ent *file,
		  const struct cgp_name *fn, unsigned flags);
/* 1 if the event lists a[0..na) and b[0..nb) are the same (cgp_read.c). */
int cgp_events_equal(char *const *a, unsigned na, char *const *b, unsigned nb);
/* Sets err to "events in data files don't match (path1 and path2)" and
 * returns CGP_EEVENTS (cgp_read.c). */
int cgp_error_events(struct cgp_error *err, const char *path1, const char *path2);
/* n zeroed values from pool p, taken from a new block (of room for
 * nblock such vectors) when the current one is full; NULL without
 * memory.  They live until cgp_pool_release(). */
int64_t *cgp_pool_alloc(struct cgp_pool *p, size_t n, size_t nblock);
void cgp_pool_release(struct cgp_pool *p);
/* An empty line table owned by t (its struct freed with t's totals; its
 * arrays by cgp_table_release()), for a cost centre's lines or
 * instructions; NULL without memory. */
struct cgp_lines *cgp_table_lines(struct cgp_table *t);
/* Grows *p (*cap elements of size elem) to hold at least n + 1; 0 or -1. */
int cgp_grow_array(void **p, size_t *cap, size_t n, size_t elem);

#endif
