/* cg_cc.h -- cost centres: the memory pool, interned names, columns, line cost centres.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef CG_CC_H
#define CG_CC_H

#include "pub_tool_basics.h"

#include "cg_config.h"

/* The events, in the order of the output file's columns.  A line's
   counters are kept in this order, only for the columns that are on. */
typedef enum {
   COL_IR, COL_I1MR, COL_ILMR, COL_DR, COL_D1MR, COL_DLMR, COL_DW, COL_D1MW,
   COL_DLMW, COL_BC, COL_BCM, COL_BI, COL_BIM, N_COLUMNS
} CgColumnId;

typedef enum { NEED_ALWAYS, NEED_CACHE, NEED_BRANCH } CgColumnNeed;

/* Name and enabling option of a column. */
typedef struct {
   const HChar *name;
   CgColumnNeed need;
} CgColumn;

/* One source line of one function.  Key: (file, fn, line) with interned
   strings; owner: the line table; never freed.  Created at
   instrumentation time, so a translated but never executed line shows up
   with zero counts. */
typedef struct CgLineCC {
   struct CgLineCC *next;
   const HChar *file;
   const HChar *fn;
   Int line;
   ULong c[0];                /* n_slots counters, see col_slot */
} CgLineCC;

/* Sums over all lines, indexed by CgColumnId (0 for columns that are off). */
typedef struct {
   ULong v[N_COLUMNS];
} CgTotals;

void *cg_pool_alloc(SizeT bytes);

extern UInt str_count;

extern const CgColumn cg_columns[N_COLUMNS];
extern Int col_slot[N_COLUMNS];
extern UInt n_slots;
void cg_setup_columns(const struct cg_config *cfg);
ULong *cg_counter(CgLineCC *cc, CgColumnId col);

extern CgLineCC **cc_table;
extern UInt cc_table_size;
extern UInt cc_count;
extern ULong stat_full_debugs, stat_file_line_debugs, stat_fn_debugs,
             stat_no_debugs;
CgLineCC *cg_get_lineCC(Addr addr);

void cg_add_totals(CgTotals *t, const CgLineCC *cc);

#endif /* CG_CC_H */
