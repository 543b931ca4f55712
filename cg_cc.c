/* cg_cc.c -- cost centres: the memory pool, interned names, the counter layout, line cost centres.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_debuginfo.h"

#include "cg_cc.h"
#include "cg_config.h"

/*------------------------------------------------------------*/
/*--- Memory for small objects                             ---*/
/*------------------------------------------------------------*/

/* Carved from big zeroed chunks: no per-object allocation overhead.  The
   chunks are never freed. */
static UChar *pool_next;
static SizeT pool_left;

void *cg_pool_alloc(SizeT bytes)
{
   bytes = (bytes + 7) & ~(SizeT)7;
   if (bytes > pool_left) {
      SizeT chunk = bytes > 65536 ? bytes : 65536;
      pool_next = VG_(calloc)("cg.main.pool", 1, chunk);
      pool_left = chunk;
   }
   void *p = pool_next;
   pool_next += bytes;
   pool_left -= bytes;
   return p;
}

/*------------------------------------------------------------*/
/*--- Interned strings                                     ---*/
/*------------------------------------------------------------*/

/* File and function names, interned so that cost-centre keys compare by
   pointer.  Key: the string; owner: this table; never freed. */
typedef struct CgString {
   struct CgString *next;
   UInt hash;
   HChar s[0];
} CgString;

static CgString **str_table;
static UInt str_table_size;   /* a power of two */
static UInt str_count;

static UInt cg_hash_string(const HChar *s)
{
   UInt h = 2166136261u;           /* FNV-1a */
   for (; *s; s++)
      h = (h ^ (UChar)*s) * 16777619u;
   return h;
}

static void cg_str_table_grow(void)
{
   UInt new_size = str_table_size ? 2 * str_table_size : 1024;
   CgString **t = VG_(calloc)("cg.main.strtab", new_size, sizeof *t);
   for (UInt i = 0; i < str_table_size; i++) {
      CgString *e = str_table[i], *next;
      for (; e; e = next) {
         next = e->next;
         e->next = t[e->hash & (new_size - 1)];
         t[e->hash & (new_size - 1)] = e;
      }
   }
   if (str_table)
      VG_(free)(str_table);
   str_table = t;
   str_table_size = new_size;
}

static const HChar *cg_intern(const HChar *s)
{
   UInt h = cg_hash_string(s);
   if (str_count >= str_table_size)
      cg_str_table_grow();
   CgString **slot = &str_table[h & (str_table_size - 1)];
   for (CgString *e = *slot; e; e = e->next)
      if (e->hash == h && VG_(strcmp)(e->s, s) == 0)
         return e->s;
   SizeT len = VG_(strlen)(s);
   CgString *e = cg_pool_alloc(sizeof *e + len + 1);
   e->hash = h;
   VG_(memcpy)(e->s, s, len + 1);
   e->next = *slot;
   *slot = e;
   str_count++;
   return e->s;
}

/*------------------------------------------------------------*/
/*--- The counter layout (see the Notes in cg_cc.h)        ---*/
/*------------------------------------------------------------*/

const CgColumn cg_columns[N_COLUMNS] = {
   [COL_IR]   = { "Ir",   NEED_ALWAYS, CG_FOLD_IR },
   [COL_I1MR] = { "I1mr", NEED_CACHE,  CG_FOLD_NONE },
   [COL_ILMR] = { "ILmr", NEED_CACHE,  CG_FOLD_NONE },
   [COL_DR]   = { "Dr",   NEED_CACHE,  CG_FOLD_DR },
   [COL_D1MR] = { "D1mr", NEED_CACHE,  CG_FOLD_NONE },
   [COL_DLMR] = { "DLmr", NEED_CACHE,  CG_FOLD_NONE },
   [COL_DW]   = { "Dw",   NEED_CACHE,  CG_FOLD_DW },
   [COL_D1MW] = { "D1mw", NEED_CACHE,  CG_FOLD_NONE },
   [COL_DLMW] = { "DLmw", NEED_CACHE,  CG_FOLD_NONE },
   [COL_BC]   = { "Bc",   NEED_BRANCH, CG_FOLD_BC },
   [COL_BCM]  = { "Bcm",  NEED_BRANCH, CG_FOLD_NONE },
   [COL_BI]   = { "Bi",   NEED_BRANCH, CG_FOLD_BI },
   [COL_BIM]  = { "Bim",  NEED_BRANCH, CG_FOLD_NONE },
};

/* The runs of counters that helpers reach from their first one. */
static const struct {
   CgColumnId first;
   UInt n;
} cg_column_runs[] = {
   { COL_I1MR, 2 }, { COL_D1MR, 2 }, { COL_D1MW, 2 }, { COL_DR, 3 },
   { COL_DW, 3 },
};
STATIC_ASSERT(COL_ILMR == COL_I1MR + 1);
STATIC_ASSERT(COL_D1MR == COL_DR + 1 && COL_DLMR == COL_DR + 2);
STATIC_ASSERT(COL_D1MW == COL_DW + 1 && COL_DLMW == COL_DW + 2);

struct cg_layout cg_layout;

static Bool cg_column_on(const struct cg_config *cfg, CgColumnId col)
{
   switch (cg_columns[col].need) {
   case NEED_ALWAYS: return True;
   case NEED_CACHE:  return cfg->cache_sim;
   case NEED_BRANCH: return cfg->branch_sim;
   }
   return False;
}

void cg_cc_init(const struct cg_config *cfg)
{
   struct cg_layout *l = &cg_layout;

   l->n_slots = 0;
   for (CgFold f = 0; f < CG_N_FOLDS; f++)
      l->fold_slot[f] = -1;
   for (CgColumnId c = 0; c < N_COLUMNS; c++) {
      l->slot[c] = cg_column_on(cfg, c) ? (Int)l->n_slots++ : -1;
      CgFold f = cg_columns[c].fold;
      if (f != CG_FOLD_NONE) {
         tl_assert(f < CG_N_FOLDS && l->fold_slot[f] == -1);
         l->fold_slot[f] = l->slot[c];
      }
   }
   /* Every run is on or off as a whole (one option), so on, its counters
      are adjacent. */
   for (UInt r = 0; r < sizeof cg_column_runs / sizeof cg_column_runs[0];
        r++) {
      CgColumnId first = cg_column_runs[r].first;
      for (UInt k = 1; k < cg_column_runs[r].n; k++)
         tl_assert(cg_columns[first + k].need == cg_columns[first].need
                   && (l->slot[first] < 0
                       ? l->slot[first + k] < 0
                       : l->slot[first + k] == l->slot[first] + (Int)k));
   }
}

/*------------------------------------------------------------*/
/*--- Line cost centres                                    ---*/
/*------------------------------------------------------------*/

ULong *cg_counter(CgLineCC *cc, CgColumnId col)
{
   tl_assert(cg_layout.slot[col] >= 0);
   return &cc->c[cg_layout.slot[col]];
}

/* The line table.  Key: (file, fn, line); owner of the line cost centres
   (which the pool holds); never freed. */
static CgLineCC **cc_table;
static UInt cc_table_size;     /* a power of two */
static UInt cc_count;

static UInt cg_hash_loc(const HChar *file, const HChar *fn, Int line)
{
   UWord h = (UWord)file * 0x9E3779B1u;
   h ^= (UWord)fn + 0x7F4A7C15u + (h << 6) + (h >> 2);
   h ^= (UWord)(UInt)line * 0x85EBCA6Bu;
   return (UInt)(h ^ (h >> 15));
}

static void cg_cc_table_grow(void)
{
   UInt new_size = cc_table_size ? 2 * cc_table_size : 4096;
   CgLineCC **t = VG_(calloc)("cg.main.cctab", new_size, sizeof *t);
   for (UInt i = 0; i < cc_table_size; i++) {
      CgLineCC *cc = cc_table[i], *next;
      for (; cc; cc = next) {
         UInt b = cg_hash_loc(cc->file, cc->fn, cc->line) & (new_size - 1);
         next = cc->next;
         cc->next = t[b];
         t[b] = cc;
      }
   }
   if (cc_table)
      VG_(free)(cc_table);
   cc_table = t;
   cc_table_size = new_size;
}

static CgLineCC *cg_lookup_cc(const HChar *file, const HChar *fn, Int line)
{
   if (cc_count >= cc_table_size)
      cg_cc_table_grow();
   CgLineCC **slot =
      &cc_table[cg_hash_loc(file, fn, line) & (cc_table_size - 1)];
   for (CgLineCC *cc = *slot; cc; cc = cc->next)
      if (cc->file == file && cc->fn == fn && cc->line == line)
         return cc;
   CgLineCC *cc = cg_pool_alloc(sizeof *cc
                                + cg_layout.n_slots * sizeof(ULong));
   cc->file = file;
   cc->fn = fn;
   cc->line = line;
   cc->next = *slot;
   *slot = cc;
   cc_count++;
   return cc;
}

/* Debug-info lookup statistics (--stats=yes). */
static ULong stat_full_debugs, stat_file_line_debugs, stat_fn_debugs,
             stat_no_debugs;

/* A scratch buffer for "<dir>/<file>"; owner: cg_get_lineCC. */
static HChar *path_buf;
static SizeT path_buf_size;

CgLineCC *cg_get_lineCC(Addr addr)
{
   const HChar *file, *dir, *fn;
   UInt line;
   DiEpoch ep = VG_(current_DiEpoch)();
   Bool have_line = VG_(get_filename_linenum)(ep, addr, &file, &dir, &line);
   const HChar *file_key;

   if (!have_line) {
      file = "???";
      dir = "";
      line = 0;
   }
   if (dir[0]) {
      SizeT need = VG_(strlen)(dir) + 1 + VG_(strlen)(file) + 1;
      if (need > path_buf_size) {
         path_buf_size = need + 256;
         path_buf = VG_(realloc)("cg.main.pathbuf", path_buf, path_buf_size);
      }
      VG_(sprintf)(path_buf, "%s/%s", dir, file);
      file_key = cg_intern(path_buf);
   } else {
      file_key = cg_intern(file);
   }

   /* Asked after the file name: the function-name string is only valid
      until the next name query. */
   Bool have_fn = VG_(get_fnname)(ep, addr, &fn);
   if (!have_fn)
      fn = "???";

   if (have_line && have_fn)
      stat_full_debugs++;
   else if (have_line)
      stat_file_line_debugs++;
   else if (have_fn)
      stat_fn_debugs++;
   else
      stat_no_debugs++;

   return cg_lookup_cc(file_key, cg_intern(fn), (Int)line);
}

CgLineCC **cg_cc_all_lines(void)
{
   CgLineCC **v = VG_(malloc)("cg.main.sorted", (cc_count + 1) * sizeof *v);
   UInt n = 0;
   for (UInt b = 0; b < cc_table_size; b++)
      for (CgLineCC *cc = cc_table[b]; cc; cc = cc->next)
         v[n++] = cc;
   tl_assert(n == cc_count);
   return v;
}

void cg_cc_totals(CgTotals *t)
{
   const struct cg_layout *l = &cg_layout;

   for (CgColumnId c = 0; c < N_COLUMNS; c++)
      t->v[c] = 0;
   for (UInt b = 0; b < cc_table_size; b++)
      for (const CgLineCC *cc = cc_table[b]; cc; cc = cc->next)
         for (CgColumnId c = 0; c < N_COLUMNS; c++)
            if (l->slot[c] >= 0)
               t->v[c] += cc->c[l->slot[c]];
}

struct cg_cc_stats cg_cc_stats(void)
{
   struct cg_cc_stats s = {
      stat_full_debugs, stat_file_line_debugs, stat_fn_debugs,
      stat_no_debugs, str_count, cc_count
   };
   return s;
}
