/* cg_cc.h -- cost centres: the memory pool, interned names, the counter layout, line cost centres.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Notes
   -----
   The counter layout.  A column of the output file (Ir, I1mr, ...) is one
   event count of a source line.  cg_columns describes every column once:
   its name, the option that enables it, and which kind of event adds to
   it when a superblock's counts are folded (a CG_FOLD_* code; the miss
   columns have none: helpers add to them directly).  cg_cc_init derives
   the one layout from that table and the options (cg_layout): a line's
   counters are those of the enabled columns, in file order, so they are
   written out as they are; slot[] says where each column's counter is.
   Instruction cost centres have other layouts (Shapes, below), and
   shape_fold[] says where each fold code adds in each.

   Helpers reach some counters from a pointer to the first of a run of
   them (cg_counter of the first column):
      I1mr ILmr         the fetch helpers: misses[0], misses[1]
      D1mr DLmr         the data helpers, reads
      D1mw DLmw         the data helpers, writes
      Dr D1mr DLmr      the guarded-access helper, reads: counts[0..2]
      Dw D1mw DLmw      the guarded-access helper, writes
   A run's counters are adjacent because its columns are adjacent in
   CgColumnId (static assertions in cg_cc.c) and one option enables all of
   them (checked by cg_cc_init), so enabled or not they move together.

   Shapes.  A line cost centre has every enabled counter.  An instruction
   cost centre (--dump-instr=yes) has only those its instruction can
   count: Ir and the fetch misses always, the read, write, conditional
   and indirect branch columns only when its shape says so (CG_SHAPE_*),
   in the same order with the absent ones left out.  On gxx, whose
   million instructions mostly make no data access, that is less than
   half the counters (docs/performance.md).  cg_layout.shape_slot[] says
   where each column's counter is in a cost centre of each shape; slot[]
   and n_slots are the file's layout, that of CG_SHAPE_ALL, which is the
   shape of every line cost centre. */

#ifndef CG_CC_H
#define CG_CC_H

#include "pub_tool_basics.h"

#include "cg_config.h"
#include "cg_objects.h"

/* The columns, in the order of the output file's events: line. */
typedef enum {
   COL_IR, COL_I1MR, COL_ILMR, COL_DR, COL_D1MR, COL_DLMR, COL_DW, COL_D1MW,
   COL_DLMW, COL_BC, COL_BCM, COL_BI, COL_BIM, N_COLUMNS
} CgColumnId;

typedef enum { NEED_ALWAYS, NEED_CACHE, NEED_BRANCH } CgColumnNeed;

/* What one event of a group adds one to per run of the group (the fold
   code of the event; cg_blocks.h packs it with the event's line). */
typedef enum {
   CG_FOLD_IR, CG_FOLD_DR, CG_FOLD_DW, CG_FOLD_BC, CG_FOLD_BI, CG_N_FOLDS,
   CG_FOLD_NONE = -1
} CgFold;

/* The kinds of event an instruction cost centre has counters for, besides
   Ir and the fetch misses (see Shapes in the Notes): a cost centre's shape
   is an OR of them. */
#define CG_SHAPE_READ   1u    /* Dr D1mr DLmr */
#define CG_SHAPE_WRITE  2u    /* Dw D1mw DLmw */
#define CG_SHAPE_COND   4u    /* Bc Bcm */
#define CG_SHAPE_IND    8u    /* Bi Bim */
#define CG_SHAPE_ALL    15u
#define CG_N_SHAPES     16

/* One column: its name in the events: line, the option that enables it,
   the fold code that adds to it (CG_FOLD_NONE for miss columns) and the
   shape bit that an instruction cost centre needs for it (0: all have
   it). */
typedef struct {
   const HChar *name;
   CgColumnNeed need;
   CgFold fold;
   UChar shape;
} CgColumn;

/* Indexed by CgColumnId.  The events line, every count line and the
   summary line are all built from this one table. */
extern const CgColumn cg_columns[N_COLUMNS];

/* The layout of a line's counters; set by cg_cc_init, read-only after. */
struct cg_layout {
   Int slot[N_COLUMNS];          /* a column's counter, -1 if it is off */
   UInt n_slots;                 /* counters per line */
   UInt shapes;                  /* the shape bits that matter: those of
                                    enabled columns */
   /* The same for a cost centre of each shape: -1 where it has none. */
   Int shape_slot[CG_N_SHAPES][N_COLUMNS];
   UInt shape_n[CG_N_SHAPES];
   Int shape_fold[CG_N_SHAPES][CG_N_FOLDS];   /* a fold code's counter */
};
extern struct cg_layout cg_layout;

/* Sets the layout up for the columns that cfg enables. */
void cg_cc_init(const struct cg_config *cfg);

/* Memory for objects that live until exit (line cost centres, strings)
   and for block records (which cg_blocks recycles itself): bytes rounded
   up to 8, zeroed.  Never freed. */
void *cg_pool_alloc(SizeT bytes);

/* One source line of one function.  Key: (place, line), the place being
   the interned (file, fn); owner: the line table (cg_cc.c); never freed.  Created at
   instrumentation time, so a translated but never executed line shows up
   with zero counts.  With --dump-instr=yes every instruction has one of
   its own instead (the unit of counting is then the instruction: see
   cg_get_cc), which the instruction table owns. */
typedef struct CgLineCC {
   struct CgLineCC *next;     /* the line table's chain */
   const struct CgPlace *place;   /* file and function */
   Int line;
   UChar shape;               /* CG_SHAPE_ALL for a line */
   ULong c[0];                /* cg_layout.shape_n[shape] counters */
} CgLineCC;

/* The file and function of cost centres, interned: those of a line, or
   those of instructions with their function's file (cg_cc_fn_file).  Key:
   all three; owner: the place table (cg_cc.c; the pool's storage); never
   freed.  Shared by the many cost centres of one function, so that each
   has one pointer, not three. */
typedef struct CgPlace {
   struct CgPlace *next;      /* the place table's chain */
   const HChar *file;
   const HChar *fn;
   const HChar *fn_file;      /* --dump-instr=yes; NULL for lines */
   UInt order;                /* its rank by (file, fn), or with
                                 --dump-instr=yes by (fn_file, fn): equal
                                 for equal names; set by cg_cc_order_places */
   UInt file_order;           /* --dump-instr=yes: its rank by file */
} CgPlace;

/* The cost centre of the instruction at addr, from the debug info
   current now (created with zero counts if new): its line's (file,
   function, line), or with --dump-instr=yes the instruction's own (its
   object and address in it, and its file, function and line) with
   counters for at least the events of shape.  Unknown file "???" with
   line 0, unknown function "???".  The file is "<dir>/<file>" when the
   debug info gives a directory. */
CgLineCC *cg_get_cc(Addr addr, UInt shape);

/* A cost centre with the key of cc and counters for at least the events
   of cc's shape and of shape: cc itself if it has them, else another
   (with --dump-instr=yes a key can have several cost centres, of
   different shapes, whose counts the writer adds up).  For code that
   counts more than its instruction's shape said. */
CgLineCC *cg_cc_widen(CgLineCC *cc, UInt shape);

/* Adds the counters of cc to c, which has the file's layout
   (cg_layout.slot). */
void cg_cc_add_counts(const CgLineCC *cc, ULong *c);

/* Whether cc and other have the same key (lines: file, function, line;
   instructions: object, address and those). */
Bool cg_cc_same_key(const CgLineCC *cc, const CgLineCC *other);

/* Sets the order and file_order of every place, so that the writer
   sorts cost centres by integers instead of names. */
void cg_cc_order_places(void);

/* Calls each(ctx, cc) for every cost centre, in no particular order. */
void cg_cc_each(void (*each)(void *ctx, const CgLineCC *cc), void *ctx);

/* Says that the cg_get_cc calls that follow are for a new superblock
   (names seen in the previous one are looked up again). */
void cg_cc_start_block(void);

/* With --dump-instr=yes: the object of the instruction cost centre cc and,
   in *addr, its address in that object. */
const CgObject *cg_cc_object(const CgLineCC *cc, Addr *addr);

/* With --dump-instr=yes: the file of the function of the instruction
   cost centre cc, the file of the function's first instruction (the
   instruction's own file for the unknown function "???").  The
   function's other files are those of code inlined into it. */
const HChar *cg_cc_fn_file(const CgLineCC *cc);

/* The counter of column col (which must be on) in cc, NULL if cc's
   shape has none. */
ULong *cg_counter(CgLineCC *cc, CgColumnId col);

/* Calls take(ctx, cc) for every line cost centre with a non-zero counter
   (in no particular order), then zeroes its counters; with take NULL,
   only zeroes them.  Fold first (cg_fold_all) for the group counts to be
   in the counters. */
void cg_cc_drain(void (*take)(void *ctx, const CgLineCC *cc), void *ctx);

/* Sums over all lines, indexed by CgColumnId (0 for columns that are
   off). */
typedef struct {
   ULong v[N_COLUMNS];
} CgTotals;

/* The totals of all lines' counters as they are now (fold first). */
void cg_cc_totals(CgTotals *t);

/* Numbers for --stats=yes. */
struct cg_cc_stats {
   ULong full_debugs;         /* debug lookups with file, line and function */
   ULong file_line_debugs;    /* ... with file and line only */
   ULong fn_debugs;           /* ... with the function only */
   ULong no_debugs;           /* ... with nothing */
   UInt strings;              /* interned names */
   UInt lines;                /* cost centres (lines or instructions) */
   UInt widened;              /* ... made by cg_cc_widen */
};
struct cg_cc_stats cg_cc_stats(void);

#endif /* CG_CC_H */
