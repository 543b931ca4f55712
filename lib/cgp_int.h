/* cgp_int.h -- declarations shared by the profile library's own files only. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef CGP_INT_H
#define CGP_INT_H

#include "cgp.h"

void cgp_table_init(struct cgp_table *t, unsigned nev);
void cgp_table_release(struct cgp_table *t);
/* Index of the file entry of name, created if absent; -1 without memory. */
long cgp_table_file(struct cgp_table *t, struct cgp_name *name);
/* Index of the cost centre (file, fn, flags), created with zero totals if
 * absent; -1 without memory. */
long cgp_table_cc(struct cgp_table *t, struct cgp_name *file,
		  const struct cgp_name *fn, unsigned flags);
/* Grows *p (*cap elements of size elem) to hold at least n + 1; 0 or -1. */
int cgp_grow_array(void **p, size_t *cap, size_t n, size_t elem);

#endif
