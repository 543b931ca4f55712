/* cg_cc.c -- cost centres: the memory pool, interned names, the counter layout, line cost centres.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_options.h"

#include "cg_cc.h"
#include "cg_config.h"
#include "cg_objects.h"

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
/*--- Chained hash tables                                  ---*/
/*------------------------------------------------------------*/

/* The string table and the line table are both this: chains of entries
   that start with their chain link, a power-of-two number of chains,
   doubled when the table holds as many entries as chains.  The lookups,
   which compare keys of different types, stay with each table; this
   piece finds a key's chain (growing the table first if it is full) and
   links new entries.  The core's VgHashTable would need a UWord key in
   every entry (8 bytes more per line cost centre on amd64, with the
   triple key reduced to a hash) and a division per lookup. */
typedef struct {
   void **chains;
   UInt size;                 /* a power of two, or 0 before the first use */
   UInt count;
   UInt first_size;
   const HChar *cost_centre;
   UInt (*hash_of)(const void *entry);   /* to rehash when growing */
} CgChainTable;

static void cg_chain_grow(CgChainTable *t)
{
   UInt new_size = t->size ? 2 * t->size : t->first_size;
   void **chains = VG_(calloc)(t->cost_centre, new_size, sizeof *chains);
   for (UInt i = 0; i < t->size; i++) {
      void *e = t->chains[i], *next;
      for (; e; e = next) {
         UInt b = t->hash_of(e) & (new_size - 1);
         next = *(void **)e;
         *(void **)e = chains[b];
         chains[b] = e;
      }
   }
   if (t->chains)
      VG_(free)(t->chains);
   t->chains = chains;
   t->size = new_size;
}

/* The chain where an entry whose hash is h is, or will be linked. */
static void **cg_chain_of(CgChainTable *t, UInt h)
{
   if (t->count >= t->size)
      cg_chain_grow(t);
   return &t->chains[h & (t->size - 1)];
}

/* Links the new entry e at the head of chain (from cg_chain_of). */
static void cg_chain_link(CgChainTable *t, void **chain, void *e)
{
   *(void **)e = *chain;
   *chain = e;
   t->count++;
}

/*------------------------------------------------------------*/
/*--- Interned strings                                     ---*/
/*------------------------------------------------------------*/

/* File and function names, interned so that cost-centre keys compare by
   pointer.  Key: the string; owner: str_table (the storage is the
   pool's); never freed. */
typedef struct CgString {
   struct CgString *next;
   UInt hash;
   HChar s[0];
} CgString;

static UInt cg_hash_string(const HChar *s)
{
   UInt h = 2166136261u;           /* FNV-1a */
   for (; *s; s++)
      h = (h ^ (UChar)*s) * 16777619u;
   return h;
}

static UInt cg_string_hash_of(const void *e)
{
   return ((const CgString *)e)->hash;
}

static CgChainTable str_table = {
   .first_size = 1024, .cost_centre = "cg.main.strtab",
   .hash_of = cg_string_hash_of,
};

static const HChar *cg_intern(const HChar *s)
{
   UInt h = cg_hash_string(s);
   void **chain = cg_chain_of(&str_table, h);
   for (CgString *e = *chain; e; e = e->next)
      if (e->hash == h && VG_(strcmp)(e->s, s) == 0)
         return e->s;
   SizeT len = VG_(strlen)(s);
   CgString *e = cg_pool_alloc(sizeof *e + len + 1);
   e->hash = h;
   VG_(memcpy)(e->s, s, len + 1);
   cg_chain_link(&str_table, chain, e);
   return e->s;
}

/*------------------------------------------------------------*/
/*--- The counter layout (see the Notes in cg_cc.h)        ---*/
/*------------------------------------------------------------*/

const CgColumn cg_columns[N_COLUMNS] = {
   [COL_IR]   = { "Ir",   NEED_ALWAYS, CG_FOLD_IR,   0 },
   [COL_I1MR] = { "I1mr", NEED_CACHE,  CG_FOLD_NONE, 0 },
   [COL_ILMR] = { "ILmr", NEED_CACHE,  CG_FOLD_NONE, 0 },
   [COL_DR]   = { "Dr",   NEED_CACHE,  CG_FOLD_DR,   CG_SHAPE_READ },
   [COL_D1MR] = { "D1mr", NEED_CACHE,  CG_FOLD_NONE, CG_SHAPE_READ },
   [COL_DLMR] = { "DLmr", NEED_CACHE,  CG_FOLD_NONE, CG_SHAPE_READ },
   [COL_DW]   = { "Dw",   NEED_CACHE,  CG_FOLD_DW,   CG_SHAPE_WRITE },
   [COL_D1MW] = { "D1mw", NEED_CACHE,  CG_FOLD_NONE, CG_SHAPE_WRITE },
   [COL_DLMW] = { "DLmw", NEED_CACHE,  CG_FOLD_NONE, CG_SHAPE_WRITE },
   [COL_BC]   = { "Bc",   NEED_BRANCH, CG_FOLD_BC,   CG_SHAPE_COND },
   [COL_BCM]  = { "Bcm",  NEED_BRANCH, CG_FOLD_NONE, CG_SHAPE_COND },
   [COL_BI]   = { "Bi",   NEED_BRANCH, CG_FOLD_BI,   CG_SHAPE_IND },
   [COL_BIM]  = { "Bim",  NEED_BRANCH, CG_FOLD_NONE, CG_SHAPE_IND },
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

/* --dump-instr: the cost centres are instructions (set by cg_cc_init). */
static Bool dump_instr;

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

   dump_instr = cfg->dump_instr;
   l->shapes = 0;
   for (CgColumnId c = 0; c < N_COLUMNS; c++)
      if (cg_column_on(cfg, c))
         l->shapes |= cg_columns[c].shape;
   for (UInt sh = 0; sh < CG_N_SHAPES; sh++) {
      UInt n = 0;
      for (CgFold f = 0; f < CG_N_FOLDS; f++)
         l->shape_fold[sh][f] = -1;
      for (CgColumnId c = 0; c < N_COLUMNS; c++) {
         Bool has = cg_column_on(cfg, c)
                    && (cg_columns[c].shape & ~sh) == 0;
         l->shape_slot[sh][c] = has ? (Int)n++ : -1;
         CgFold f = cg_columns[c].fold;
         if (f != CG_FOLD_NONE) {
            tl_assert(f < CG_N_FOLDS && l->shape_fold[sh][f] == -1);
            l->shape_fold[sh][f] = l->shape_slot[sh][c];
         }
      }
      l->shape_n[sh] = n;
   }
   /* The file's layout is that of a line, which has every counter. */
   VG_(memcpy)(l->slot, l->shape_slot[CG_SHAPE_ALL], sizeof l->slot);
   l->n_slots = l->shape_n[CG_SHAPE_ALL];
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
   Int s = cg_layout.shape_slot[cc->shape][col];
   return s < 0 ? NULL : &cc->c[s];
}

void cg_cc_add_counts(const CgLineCC *cc, ULong *c)
{
   const Int *slot = cg_layout.shape_slot[cc->shape];
   for (CgColumnId col = 0; col < N_COLUMNS; col++)
      if (slot[col] >= 0)
         c[cg_layout.slot[col]] += cc->c[slot[col]];
}

static UInt cg_hash_words(UWord a, UWord b, UWord c)
{
   UWord h = a * 0x9E3779B1u;
   h ^= b + 0x7F4A7C15u + (h << 6) + (h >> 2);
   h ^= c * 0x85EBCA6Bu;
   return (UInt)(h ^ (h >> 15));
}

static UInt cg_place_hash_of(const void *e)
{
   const CgPlace *p = e;
   return cg_hash_words((UWord)p->file, (UWord)p->fn, (UWord)p->fn_file);
}

/* The place table.  Key: (file, fn, fn_file), interned names (fn_file
   NULL for lines); owner of the places (the pool's storage); never
   freed. */
static CgChainTable place_table = {
   .first_size = 1024, .cost_centre = "cg.main.places",
   .hash_of = cg_place_hash_of,
};

/* The place (file, fn, fn_file), interned names, made if new. */
static const CgPlace *cg_place(const HChar *file, const HChar *fn,
                               const HChar *fn_file)
{
   /* The last one: consecutive instructions are mostly of one function. */
   static const CgPlace *last;
   if (last && last->file == file && last->fn == fn
       && last->fn_file == fn_file)
      return last;
   void **chain = cg_chain_of(&place_table,
                              cg_hash_words((UWord)file, (UWord)fn,
                                            (UWord)fn_file));
   for (const CgPlace *p = *chain; p; p = p->next)
      if (p->file == file && p->fn == fn && p->fn_file == fn_file)
         return last = p;
   CgPlace *p = cg_pool_alloc(sizeof *p);
   p->file = file;
   p->fn = fn;
   p->fn_file = fn_file;
   cg_chain_link(&place_table, chain, p);
   return last = p;
}

static UInt cg_line_hash_of(const void *e)
{
   const CgLineCC *cc = e;
   return cg_hash_words((UWord)cc->place, (UWord)(UInt)cc->line, 0);
}

/* The line table.  Key: (place, line), the place being (file, fn); owner
   of the line cost centres (whose storage is the pool's); never freed. */
static CgChainTable cc_table = {
   .first_size = 4096, .cost_centre = "cg.main.cctab",
   .hash_of = cg_line_hash_of,
};

static CgLineCC *cg_lookup_cc(const HChar *file, const HChar *fn, Int line)
{
   const CgPlace *place = cg_place(file, fn, NULL);
   void **chain = cg_chain_of(&cc_table,
                              cg_hash_words((UWord)place, (UWord)(UInt)line,
                                            0));
   for (CgLineCC *cc = *chain; cc; cc = cc->next)
      if (cc->place == place && cc->line == line)
         return cc;
   CgLineCC *cc = cg_pool_alloc(sizeof *cc
                                + cg_layout.n_slots * sizeof(ULong));
   cc->place = place;
   cc->line = line;
   cc->shape = CG_SHAPE_ALL;
   cg_chain_link(&cc_table, chain, cc);
   return cc;
}

/* Debug-info lookup statistics (--stats=yes). */
static ULong stat_full_debugs, stat_file_line_debugs, stat_fn_debugs,
             stat_no_debugs;

/* A scratch buffer for "<dir>/<file>"; owner: cg_get_location. */
static HChar *path_buf;
static SizeT path_buf_size;

/* The file key of the last lookup in the superblock being instrumented
   and what it came from: the debug information's own strings, which stay
   where they are while a superblock is instrumented (debug information
   is only discarded by system calls), so the same pointers are the same
   names.  Consecutive instructions mostly have the same file: this spares
   building and interning its path each time.  Owner: cg_get_location;
   forgotten by cg_cc_start_block. */
static struct {
   const HChar *file, *dir;
   const HChar *key;
} last_file;

void cg_cc_start_block(void)
{
   last_file.key = NULL;
}

/* The core's VG_(get_fnname) without demangling or renaming: the symbol's
   own name, in the debug information's string pool (pools give one
   string one address).  pub_core_debuginfo.h declares it, a header the
   core keeps from tools; the tool is linked with the core, whose kit
   (Valgrind 3.14 and later, Debian 12's 3.19 included) defines it with
   this signature. */
extern Bool VG_(get_fnname_raw)(DiEpoch ep, Addr a, const HChar **buf);

/* The function keys of recent symbols.  Demangling a C++ name is most of
   the cost of a lookup, and the instructions of a function all have it:
   the key of a symbol is remembered by the address of its raw name, which
   stays that name's as long as the epoch does (the core starts a new one
   whenever debug information is read or discarded), and the key is the
   interned result of VG_(get_fnname), a function of that name and of
   --show-below-main (which names glibc's start-up code "(below main)",
   and which the program may change while it runs: VALGRIND_CLO_CHANGE,
   vgdb's v.clo), kept with the key.  Direct-mapped; owner:
   cg_get_location. */
#define CG_FN_CACHE 1024
static struct {
   const HChar *raw;
   const HChar *key;
   UInt epoch;
   Bool below_main;             /* VG_(clo_show_below_main) for key */
} fn_cache[CG_FN_CACHE];

/* The function key of the instruction at addr, or NULL if no symbol
   holds it. */
static const HChar *cg_fn_key(DiEpoch ep, Addr addr)
{
   const HChar *raw, *fn;

   if (!VG_(get_fnname_raw)(ep, addr, &raw))
      return NULL;
   UWord h = (UWord)raw >> 3;
   UInt slot = (UInt)(h ^ (h >> 10) ^ (h >> 20)) & (CG_FN_CACHE - 1);
   if (fn_cache[slot].raw == raw && fn_cache[slot].epoch == ep.n
       && fn_cache[slot].below_main == VG_(clo_show_below_main))
      return fn_cache[slot].key;
   Bool have_fn = VG_(get_fnname)(ep, addr, &fn);
   tl_assert(have_fn);
   fn_cache[slot].raw = raw;
   fn_cache[slot].key = cg_intern(fn);
   fn_cache[slot].epoch = ep.n;
   fn_cache[slot].below_main = VG_(clo_show_below_main);
   return fn_cache[slot].key;
}

/* The file key (interned: "???" if unknown, "<dir>/<file>" when the
   debug info gives a directory) and the line (0 if unknown) of the
   instruction at addr; whether the debug info has them. */
static Bool cg_get_file_line(DiEpoch ep, Addr addr, const HChar **file_key,
                             UInt *line)
{
   const HChar *file, *dir;
   Bool have_line = VG_(get_filename_linenum)(ep, addr, &file, &dir, line);

   if (!have_line) {
      file = "???";
      dir = "";
      *line = 0;
   }
   if (last_file.key != NULL && file == last_file.file
       && dir == last_file.dir) {
      *file_key = last_file.key;
   } else if (dir[0]) {
      SizeT need = VG_(strlen)(dir) + 1 + VG_(strlen)(file) + 1;
      if (need > path_buf_size) {
         path_buf_size = need + 256;
         path_buf = VG_(realloc)("cg.main.pathbuf", path_buf, path_buf_size);
      }
      VG_(sprintf)(path_buf, "%s/%s", dir, file);
      *file_key = cg_intern(path_buf);
   } else {
      *file_key = cg_intern(file);
   }
   last_file.file = file;
   last_file.dir = dir;
   last_file.key = *file_key;
   return have_line;
}

/* The (file, function, line) of the instruction at addr, from the debug
   info current now, names interned: unknown file "???" with line 0,
   unknown function "???"; the file is "<dir>/<file>" when the debug info
   gives a directory. */
static void cg_get_location(Addr addr, const HChar **file_key,
                            const HChar **fn_key_out, Int *line_no)
{
   UInt line;
   DiEpoch ep = VG_(current_DiEpoch)();
   Bool have_line = cg_get_file_line(ep, addr, file_key, &line);

   /* Asked after the file name: the function-name string is only valid
      until the next name query. */
   const HChar *fn_key = cg_fn_key(ep, addr);
   Bool have_fn = fn_key != NULL;

   if (have_line && have_fn)
      stat_full_debugs++;
   else if (have_line)
      stat_file_line_debugs++;
   else if (have_fn)
      stat_fn_debugs++;
   else
      stat_no_debugs++;
   *fn_key_out = have_fn ? fn_key : cg_intern("???");
   *line_no = (Int)line;
}

/* The line cost centre of the instruction at addr (created with zero
   counts if new). */
static CgLineCC *cg_get_lineCC(Addr addr)
{
   const HChar *file, *fn;
   Int line;

   cg_get_location(addr, &file, &fn, &line);
   return cg_lookup_cc(file, fn, line);
}

/*------------------------------------------------------------*/
/*--- Instruction cost centres (--dump-instr=yes)          ---*/
/*------------------------------------------------------------*/

/* One instruction: its object and address in it, then the cost centre
   the rest of the tool sees, with the instruction's place (file,
   function and the function's file), line and counters.  The instruction
   table links and returns the CgLineCC part (whose chain link comes
   first, as the chained tables need), so that block records, folding,
   the helpers' counter pointers and the writer handle instructions
   exactly as lines; the object and address are found back with
   cg_instr_of.  On amd64, 40 bytes and 8 a counter. */
typedef struct {
   const CgObject *obj;
   Addr addr;                 /* in the object */
   CgLineCC cc;               /* last: its counters follow */
} CgInstrCC;

static const CgInstrCC *cg_instr_of(const CgLineCC *cc)
{
   return (const CgInstrCC *)((const UChar *)cc
                              - __builtin_offsetof(CgInstrCC, cc));
}

static UInt cg_hash_instr(const CgObject *obj, Addr addr)
{
   UWord h = (UWord)obj * 0x9E3779B1u ^ (UWord)addr * 0x85EBCA6Bu;
   h ^= (h >> 16) >> 16;         /* the high half, on 64-bit hosts */
   return (UInt)(h ^ (h >> 15));
}

static UInt cg_instr_hash_of(const void *e)
{
   const CgInstrCC *i = cg_instr_of(e);
   return cg_hash_instr(i->obj, i->addr);
}

/* The instruction table.  Key: (object, address, file, fn, line) -- the
   line too, so that an address whose debug information changes during
   the run (a file mapped again) keeps each line's counts apart; a key can
   have several entries, of different shapes (cg_cc_widen); owner of the
   instruction cost centres (the pool's storage); never freed. */
static CgChainTable instr_table = {
   .first_size = 16384, .cost_centre = "cg.main.instrtab",
   .hash_of = cg_instr_hash_of,
};

/* The core's offset of the instruction at a in its symbol, which
   pub_core_debuginfo.h declares (for MIPS stack unwinding, but the kits of
   every platform define it, Valgrind 3.19's included). */
extern Bool VG_(get_inst_offset_in_function)(DiEpoch ep, Addr a,
                                             PtrdiffT *offset);

/* The file of the function fn that holds the instruction at a, whose own
   file is file: the file of the function's first instruction (its
   symbol's address), which Callgrind too takes for a function's file.
   Code inlined from a header then belongs to the function of the file
   that includes it, and two functions of one name in two files (static
   ones) stay two.  file itself for an unknown function. */
static const HChar *cg_fn_file(Addr a, const HChar *fn, const HChar *file)
{
   /* The last function's: the instructions of a block are mostly of one
      function, so its entry's line is looked up once. */
   static struct { Addr entry; UInt epoch; const HChar *file; } last;
   DiEpoch ep = VG_(current_DiEpoch)();
   PtrdiffT off;
   UInt line;

   if (VG_(strcmp)(fn, "???") == 0
       || !VG_(get_inst_offset_in_function)(ep, a, &off) || off <= 0)
      return file;
   if (last.file == NULL || last.entry != a - (Addr)off || last.epoch != ep.n) {
      last.entry = a - (Addr)off;
      last.epoch = ep.n;
      cg_get_file_line(ep, last.entry, &last.file, &line);
   }
   return last.file;
}

/* Cost centres that cg_cc_widen made (--stats=yes). */
static UInt stat_widened;

/* In the chain of the instruction table where the key (obj, addr, file,
   fn, line) is, its entry of the widest shape, NULL if none.  The shapes
   of one key's entries are nested (cg_cc_widen makes each new one wider
   than all before), so the widest is the largest number. */
static CgLineCC *cg_instr_find(void **chain, const CgObject *obj, Addr addr,
                               const HChar *file, const HChar *fn, Int line)
{
   CgLineCC *found = NULL;
   for (CgLineCC *cc = *chain; cc; cc = cc->next) {
      const CgInstrCC *i = cg_instr_of(cc);
      if (i->obj == obj && i->addr == addr && cc->line == line
          && cc->place->file == file && cc->place->fn == fn
          && (found == NULL || cc->shape > found->shape))
         found = cc;
   }
   return found;
}

/* A new instruction cost centre of the given key and shape, linked in
   chain. */
static CgLineCC *cg_instr_new(void **chain, const CgObject *obj, Addr addr,
                              const CgPlace *place, Int line, UInt shape)
{
   CgInstrCC *i = cg_pool_alloc(sizeof *i + cg_layout.shape_n[shape]
                                            * sizeof(ULong));
   i->obj = obj;
   i->addr = addr;
   i->cc.place = place;
   i->cc.line = line;
   i->cc.shape = (UChar)shape;
   cg_chain_link(&instr_table, chain, &i->cc);
   return &i->cc;
}

static CgLineCC *cg_get_instrCC(Addr a, UInt shape)
{
   const HChar *file, *fn;
   Int line;
   Addr addr;

   cg_get_location(a, &file, &fn, &line);
   const CgObject *obj = cg_object_of(a, &addr);
   void **chain = cg_chain_of(&instr_table, cg_hash_instr(obj, addr));
   CgLineCC *cc = cg_instr_find(chain, obj, addr, file, fn, line);
   if (cc != NULL)
      return cg_cc_widen(cc, shape);
   const CgPlace *place = cg_place(file, fn, cg_fn_file(a, fn, file));
   return cg_instr_new(chain, obj, addr, place, line,
                       shape & cg_layout.shapes);
}

CgLineCC *cg_get_cc(Addr addr, UInt shape)
{
   return dump_instr ? cg_get_instrCC(addr, shape) : cg_get_lineCC(addr);
}

CgLineCC *cg_cc_widen(CgLineCC *cc, UInt shape)
{
   UInt need = (cc->shape | shape) & cg_layout.shapes;
   if ((need & ~cc->shape) == 0)
      return cc;
   tl_assert(dump_instr);        /* a line has every counter */
   const CgInstrCC *i = cg_instr_of(cc);
   void **chain = cg_chain_of(&instr_table, cg_hash_instr(i->obj, i->addr));
   /* The widest entry of the key may be wide enough already. */
   CgLineCC *widest = cg_instr_find(chain, i->obj, i->addr, cc->place->file,
                                    cc->place->fn, cc->line);
   tl_assert(widest != NULL);
   if ((need & ~widest->shape) == 0)
      return widest;
   stat_widened++;
   return cg_instr_new(chain, i->obj, i->addr, widest->place, cc->line,
                       need | widest->shape);
}

Bool cg_cc_same_key(const CgLineCC *cc, const CgLineCC *other)
{
   if (cc->place->file != other->place->file
       || cc->place->fn != other->place->fn || cc->line != other->line)
      return False;
   if (!dump_instr)
      return True;
   const CgInstrCC *i = cg_instr_of(cc), *j = cg_instr_of(other);
   return i->obj == j->obj && i->addr == j->addr;
}

const CgObject *cg_cc_object(const CgLineCC *cc, Addr *addr)
{
   tl_assert(dump_instr);
   const CgInstrCC *i = cg_instr_of(cc);
   *addr = i->addr;
   return i->obj;
}

const HChar *cg_cc_fn_file(const CgLineCC *cc)
{
   tl_assert(dump_instr);
   return cc->place->fn_file;
}

/* VG_(ssort) comparators of cg_cc_order_places, on CgPlace pointers: by
   (file, fn) for lines, by (fn_file, fn) for instructions, by file. */
static Int cg_cmp_place_line(const void *a, const void *b)
{
   const CgPlace *x = *(const CgPlace *const *)a;
   const CgPlace *y = *(const CgPlace *const *)b;
   Int r = VG_(strcmp)(x->file, y->file);
   return r ? r : VG_(strcmp)(x->fn, y->fn);
}

static Int cg_cmp_place_instr(const void *a, const void *b)
{
   const CgPlace *x = *(const CgPlace *const *)a;
   const CgPlace *y = *(const CgPlace *const *)b;
   Int r = VG_(strcmp)(x->fn_file, y->fn_file);
   return r ? r : VG_(strcmp)(x->fn, y->fn);
}

static Int cg_cmp_place_file(const void *a, const void *b)
{
   const CgPlace *x = *(const CgPlace *const *)a;
   const CgPlace *y = *(const CgPlace *const *)b;
   return VG_(strcmp)(x->file, y->file);
}

/* Sorts the places v[0 .. n - 1] by cmp and stores their ranks (equal
   names, equal rank) in their file_order if by_file, else their order. */
static void cg_rank_places(CgPlace **v, UInt n,
                           Int (*cmp)(const void *, const void *),
                           Bool by_file)
{
   VG_(ssort)(v, n, sizeof *v, cmp);
   UInt rank = 0;
   for (UInt i = 0; i < n; i++) {
      if (i > 0 && cmp(&v[i - 1], &v[i]) != 0)
         rank++;
      if (by_file)
         v[i]->file_order = rank;
      else
         v[i]->order = rank;
   }
}

void cg_cc_order_places(void)
{
   /* The places ranked last time: places are never removed, so the ranks
      stand until a new one comes (a run that writes many parts ranks
      them once, not for every part). */
   static UInt ranked;
   UInt n = place_table.count, k = 0;
   if (n == 0 || n == ranked)
      return;
   ranked = n;
   CgPlace **v = VG_(malloc)("cg.main.placeorder", n * sizeof *v);
   for (UInt b = 0; b < place_table.size; b++)
      for (CgPlace *p = place_table.chains[b]; p; p = p->next)
         v[k++] = p;
   tl_assert(k == n);
   cg_rank_places(v, n, dump_instr ? cg_cmp_place_instr : cg_cmp_place_line,
                  False);
   if (dump_instr)
      cg_rank_places(v, n, cg_cmp_place_file, True);
   VG_(free)(v);
}

/* The table of the cost centres that are written out. */
static CgChainTable *cg_cc_table(void)
{
   return dump_instr ? &instr_table : &cc_table;
}

void cg_cc_each(void (*each)(void *ctx, const CgLineCC *cc), void *ctx)
{
   const CgChainTable *t = cg_cc_table();
   for (UInt b = 0; b < t->size; b++)
      for (const CgLineCC *cc = t->chains[b]; cc; cc = cc->next)
         each(ctx, cc);
}

void cg_cc_drain(void (*take)(void *ctx, const CgLineCC *cc), void *ctx)
{
   /* The table in use: with --dump-instr=yes the counts are in the
      instruction cost centres. */
   const CgChainTable *tab = cg_cc_table();

   for (UInt b = 0; b < tab->size; b++)
      for (CgLineCC *cc = tab->chains[b]; cc; cc = cc->next) {
         UInt n = cg_layout.shape_n[cc->shape];
         UInt s = 0;
         while (s < n && cc->c[s] == 0)
            s++;
         if (s == n)
            continue;
         if (take)
            take(ctx, cc);
         for (s = 0; s < n; s++)
            cc->c[s] = 0;
      }
}

/* cg_cc_each's callback of cg_cc_totals. */
static void cg_add_total(void *sum, const CgLineCC *cc)
{
   cg_cc_add_counts(cc, sum);
}

void cg_cc_totals(CgTotals *t)
{
   ULong sum[N_COLUMNS] = { 0 };   /* the file's layout */

   cg_cc_each(cg_add_total, sum);
   for (CgColumnId c = 0; c < N_COLUMNS; c++)
      t->v[c] = cg_layout.slot[c] >= 0 ? sum[cg_layout.slot[c]] : 0;
}

struct cg_cc_stats cg_cc_stats(void)
{
   struct cg_cc_stats s = {
      stat_full_debugs, stat_file_line_debugs, stat_fn_debugs,
      stat_no_debugs, str_table.count, cg_cc_table()->count, stat_widened
   };
   return s;
}
