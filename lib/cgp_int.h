/* cgp_int.h -- declarations shared by the profile library's own files only. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef CGP_INT_H
#define CGP_INT_H

#include "cgp.h"

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
/* Grows *p (*cap elements of size elem) to hold at least n + 1; 0 or -1. */
int cgp_grow_array(void **p, size_t *cap, size_t n, size_t elem);

#endif
