/* cg_main.c -- Cachegrind tool glue: options, instrumentation, cost centres, output.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Notes
   -----
   Counting model.  For every guest instruction the tool keeps a line cost
   centre (file, function, line) found from the debug info when the code is
   instrumented.  Events (instruction fetches, data accesses, branches) are
   queued while a superblock is instrumented and flushed exactly where the
   reference Cachegrind flushes them (a full queue of 16, every side exit, a
   load-linked, a guarded access, the end of the block).  Where a flush
   happens matters: if a guest instruction faults in the middle of a block,
   the events queued since the last flush are lost, in the reference and
   here alike.

   What a flush emits differs from the reference.  The events of one flush
   form a *group*; every event of a group happens exactly once each time the
   group's code runs.  So a group needs one execution counter, incremented
   inline, and the per-line counts (Ir, Dr, Dw, Bc, Bi) are recovered later
   by folding: each event adds the group's count to its line's counter.
   Folding happens when a translation is discarded, before a profile is
   written, and at exit.  Only what depends on run-time values (cache and
   branch simulation, guarded accesses) needs a helper call.

   Memory.  Line cost centres and interned strings live until exit.  A
   superblock's records (CgSBInfo) live as long as its translation: they are
   folded and freed when the core discards the translation. */

#include "pub_tool_basics.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_transtab.h"
#include "pub_tool_xarray.h"
#include "pub_tool_hashtable.h"

#include "cachegrind.h"
#include "cg_arch.h"
#include "cg_branchpred.h"
#include "cg_sim.h"

/* Set to 1 to trace instrumentation decisions on the log. */
#define CG_DEBUG 0

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

static const HChar *clo_out_file = "cachegrind.out.%p";
static Bool clo_cache_sim = False;
static Bool clo_branch_sim = False;
static Bool clo_instr_at_start = True;
static struct cg_cache_config clo_I1 = CG_CACHE_UNSET;
static struct cg_cache_config clo_D1 = CG_CACHE_UNSET;
static struct cg_cache_config clo_LL = CG_CACHE_UNSET;

/* Whether superblocks are being instrumented now (client requests). */
static Bool instr_enabled = True;

/* Parses the value of --I1/--D1/--LL/--L2 into *cfg; a bad one is fatal
   with the reference's messages. */
static void cg_parse_cache_opt(const HChar *arg, const HChar *value,
                               struct cg_cache_config *cfg)
{
   const char *msg;
   switch (cg_arch_parse_cache_opt(value, cfg, &msg)) {
   case CG_CACHE_OPT_OK:
      return;
   case CG_CACHE_OPT_BAD_ARGUMENT:
      break;
   case CG_CACHE_OPT_OVERFLOW:
      VG_(fmsg_bad_option)(arg, "%s\n", msg);
      return;
   case CG_CACHE_OPT_INVALID:
      VG_(fmsg)("%s\n", msg);
      break;
   }
   VG_(fmsg_bad_option)(arg, CG_ARCH_ERR_BAD_ARGUMENT "\n", value);
}

static Bool cg_process_cmd_line_option(const HChar *arg)
{
   const HChar *str;

   /* The cache options first, as in the reference. */
   if (VG_STR_CLO(arg, "--I1", str))
      cg_parse_cache_opt(arg, str, &clo_I1);
   else if (VG_STR_CLO(arg, "--D1", str))
      cg_parse_cache_opt(arg, str, &clo_D1);
   else if (VG_STR_CLO(arg, "--LL", str) || VG_STR_CLO(arg, "--L2", str))
      cg_parse_cache_opt(arg, str, &clo_LL);
   else if VG_STR_CLO(arg, "--cachegrind-out-file", clo_out_file) {}
   else if VG_BOOL_CLO(arg, "--cache-sim", clo_cache_sim) {}
   else if VG_BOOL_CLO(arg, "--branch-sim", clo_branch_sim) {}
   else if VG_BOOL_CLO(arg, "--instr-at-start", clo_instr_at_start) {}
   else
      return False;
   return True;
}

static void cg_print_usage(void)
{
   VG_(printf)(
"    --cachegrind-out-file=<file>     output file name [cachegrind.out.%%p]\n"
"    --cache-sim=yes|no               collect cache stats? [no]\n"
"    --branch-sim=yes|no              collect branch prediction stats? [no]\n"
"    --instr-at-start=yes|no          instrument at start? [yes]\n"
"    --I1=<size>,<assoc>,<line_size>  set I1 cache manually\n"
"    --D1=<size>,<assoc>,<line_size>  set D1 cache manually\n"
"    --LL=<size>,<assoc>,<line_size>  set LL cache manually\n"
   );
}

static void cg_print_debug_usage(void)
{
   VG_(printf)("    (none)\n");
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
   CgString *e = VG_(malloc)("cg.main.string", sizeof *e + len + 1);
   e->hash = h;
   VG_(memcpy)(e->s, s, len + 1);
   e->next = *slot;
   *slot = e;
   str_count++;
   return e->s;
}

/*------------------------------------------------------------*/
/*--- Line cost centres                                    ---*/
/*------------------------------------------------------------*/

typedef struct { ULong a, m1, mL; } CgCacheCC;   /* accesses, L1 misses, LL misses */
typedef struct { ULong b, mp; } CgBranchCC;      /* branches, mispredictions */

/* One source line of one function.  Key: (file, fn, line) with interned
   strings; owner: the line table; never freed.  Created at
   instrumentation time, so a translated but never executed line shows up
   with zero counts. */
typedef struct CgLineCC {
   struct CgLineCC *next;
   const HChar *file;
   const HChar *fn;
   Int line;
   CgCacheCC Ir, Dr, Dw;
   CgBranchCC Bc, Bi;
} CgLineCC;

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
   CgLineCC *cc = VG_(calloc)("cg.main.lineCC", 1, sizeof *cc);
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

/* The line cost centre of the instruction at addr, from the debug info
   current now: unknown file "???" with line 0, unknown function "???".
   The file is "<dir>/<file>" when the debug info gives a directory. */
static CgLineCC *cg_get_lineCC(Addr addr)
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

/*------------------------------------------------------------*/
/*--- Per-superblock records                               ---*/
/*------------------------------------------------------------*/

/* One guest instruction.  Its address is baked into helper calls. */
typedef struct {
   Addr addr;
   UChar len;
   CgLineCC *cc;
} CgInstr;

/* The events of one flush: how often its code has run since the last fold,
   and which counters each run adds one to. */
typedef struct {
   ULong count;
   UInt first_target;
   UInt n_targets;
} CgGroup;

/* The records of one translated superblock.  Key: the guest address the
   code was read from (vge.base[0]); owner: sb_table, or retired_sbs when a
   second translation with the same key appeared.  Freed when the core
   discards the translation. */
typedef struct CgSBInfo {
   struct CgSBInfo *next;     /* VgHashNode header: chain ... */
   UWord key;                 /* ... and key */
   struct CgSBInfo *retired_next;
   Bool collided;             /* another live translation shares the key */
   UInt n_instrs;
   UInt n_groups;
   UInt n_targets;
   CgGroup *groups;           /* n_groups, then the targets */
   ULong **targets;           /* n_targets counters, grouped */
   CgInstr instrs[0];         /* n_instrs */
} CgSBInfo;

static VgHashTable *sb_table;
static CgSBInfo *retired_sbs;

/* Adds each group's count to its counters and zeroes it. */
static void cg_fold_sb(CgSBInfo *sbi)
{
   for (UInt g = 0; g < sbi->n_groups; g++) {
      CgGroup *grp = &sbi->groups[g];
      ULong n = grp->count;
      if (n == 0)
         continue;
      ULong **t = &sbi->targets[grp->first_target];
      for (UInt i = 0; i < grp->n_targets; i++)
         *t[i] += n;
      grp->count = 0;
   }
}

static void cg_free_sb(CgSBInfo *sbi)
{
   if (sbi->groups)
      VG_(free)(sbi->groups);
   VG_(free)(sbi);
}

static void cg_fold_all(void)
{
   VG_(HT_ResetIter)(sb_table);
   for (CgSBInfo *sbi; (sbi = VG_(HT_Next)(sb_table)) != NULL; )
      cg_fold_sb(sbi);
   for (CgSBInfo *sbi = retired_sbs; sbi; sbi = sbi->retired_next)
      cg_fold_sb(sbi);
}

/*------------------------------------------------------------*/
/*--- Simulation: run-time helpers                         ---*/
/*------------------------------------------------------------*/

/* The simulated caches and branch predictors.  Owner: this file; set up by
   cg_post_clo_init when the simulations are on, used until exit. */
static struct cg_cache cache_I1, cache_D1, cache_LL;
static struct cg_condpred cond_predictor;
static struct cg_indpred ind_predictor;

/* The smallest of the three line sizes, the largest data access simulated:
   bigger ones (x87 state saves, fxsave) are clamped to it so that no
   access spans more than two lines. */
static Int min_line_size = 0;

/* Required by cg_sim: an access that spans more than two lines. */
void cg_sim_straddle_panic(cg_addr_t addr, unsigned size,
                           cg_addr_t first_block, cg_addr_t last_block)
{
   VG_(printf)("addr: %lx  size: %u  blocks: %lu %lu", (UWord)addr, size,
               (UWord)first_block, (UWord)last_block);
   VG_(tool_panic)("item straddles more than two cache sets");
   __builtin_unreachable();
}

/* The helpers below only count misses: accesses and branches are counted
   by the group counters, except for guarded accesses, which may not
   happen. */

/* An access through a first-level cache and, on a miss there, LL. */
static inline void cg_access(struct cg_cache *l1, Addr addr, UChar size,
                             CgCacheCC *cc)
{
   if (cg_cache_ref(l1, addr, size)) {
      cc->m1++;
      if (cg_cache_ref(&cache_LL, addr, size))
         cc->mL++;
   }
}

static VG_REGPARM(1) void cg_h_fetch(const CgInstr *i)
{
   cg_access(&cache_I1, i->addr, i->len, &i->cc->Ir);
}

static VG_REGPARM(3) void cg_h_read(CgLineCC *cc, Addr ea, UWord size)
{
   cg_access(&cache_D1, ea, (UChar)size, &cc->Dr);
}

static VG_REGPARM(3) void cg_h_write(CgLineCC *cc, Addr ea, UWord size)
{
   cg_access(&cache_D1, ea, (UChar)size, &cc->Dw);
}

static VG_REGPARM(3) void cg_h_read_guarded(CgLineCC *cc, Addr ea, UWord size)
{
   cc->Dr.a++;
   cg_h_read(cc, ea, size);
}

static VG_REGPARM(3) void cg_h_write_guarded(CgLineCC *cc, Addr ea, UWord size)
{
   cc->Dw.a++;
   cg_h_write(cc, ea, size);
}

static VG_REGPARM(2) void cg_h_cond_branch(const CgInstr *i, UWord taken)
{
   if (cg_condpred_predict_and_update(&cond_predictor, i->addr, (int)taken))
      i->cc->Bc.mp++;
}

static VG_REGPARM(2) void cg_h_ind_branch(const CgInstr *i, UWord target)
{
   if (cg_indpred_predict_and_update(&ind_predictor, i->addr, target))
      i->cc->Bi.mp++;
}

/*------------------------------------------------------------*/
/*--- Instrumentation                                      ---*/
/*------------------------------------------------------------*/

/* An IR expression that is an atom (a temporary or a constant). */
typedef IRExpr IRAtom;

/* The event queue has the reference's capacity, so that flushes (and with
   them the attribution of counts when an instruction faults) happen at
   exactly the same places. */
#define N_EVENTS 16

typedef enum { EV_IR, EV_DR, EV_DW, EV_DM, EV_BC, EV_BI } CgEventKind;

typedef struct {
   CgEventKind kind;
   CgInstr *inode;
   Int size;          /* data events: bytes accessed */
   IRAtom *atom;      /* data address; Bc: taken (host word); Bi: target */
} CgEvent;

/* A growable array of words used while one superblock is instrumented;
   owner: CgState, reused for every superblock. */
typedef struct {
   UWord *w;
   UInt used, size;
} CgScratch;

static void cg_scratch_push(CgScratch *s, UWord v)
{
   if (s->used == s->size) {
      s->size = s->size ? 2 * s->size : 256;
      s->w = VG_(realloc)("cg.main.scratch", s->w, s->size * sizeof(UWord));
   }
   s->w[s->used++] = v;
}

/* Everything the instrumentation of one superblock needs. */
typedef struct {
   IRSB *sb_out;
   IRType hword_ty;
   CgSBInfo *sbi;
   UInt instr_i;                /* next free record in sbi->instrs */
   CgEvent events[N_EVENTS];
   Int events_used;
   /* The line of the last instruction fetch simulated in this block: a
      fetch within it hits the most recently used way and changes nothing,
      so it is not simulated again. */
   Bool have_last_iblock;
   Addr last_iblock;
   /* Per group, while instrumenting: the IRConst holding the group's
      counter address (patched once the group array exists) and its
      targets (counter addresses) in order. */
   CgScratch group_consts;      /* IRConst* per group */
   CgScratch group_ends;        /* end index into targets, per group */
   CgScratch targets;           /* ULong* */
} CgState;

static CgState cgs_static;      /* reused; the core instruments one SB at a time */

/* Statistics (--stats=yes). */
static ULong stat_instrs_nox, stat_instrs_gen;

static ULong *cg_event_counter(const CgEvent *ev)
{
   CgLineCC *cc = ev->inode->cc;
   switch (ev->kind) {
   case EV_IR: return &cc->Ir.a;
   case EV_DR:
   case EV_DM: return &cc->Dr.a;   /* a modify counts as one read */
   case EV_DW: return &cc->Dw.a;
   case EV_BC: return &cc->Bc.b;
   case EV_BI: return &cc->Bi.b;
   }
   tl_assert(0);
}

static IRExpr *cg_hword_const(CgState *cgs, HWord v, IRConst **out)
{
   IRConst *c = cgs->hword_ty == Ity_I64 ? IRConst_U64((ULong)v)
                                         : IRConst_U32((UInt)v);
   if (out)
      *out = c;
   return IRExpr_Const(c);
}

/* Emits "counter += 1" for a new group whose address is not known yet; the
   constant is patched in cg_finish_sb. */
static void cg_emit_group_count(CgState *cgs)
{
   IRTypeEnv *tyenv = cgs->sb_out->tyenv;
   IRConst *c;
   IRTemp addr = newIRTemp(tyenv, cgs->hword_ty);
   IRTemp old = newIRTemp(tyenv, Ity_I64);
   IRTemp new = newIRTemp(tyenv, Ity_I64);

   addStmtToIRSB(cgs->sb_out, IRStmt_WrTmp(addr, cg_hword_const(cgs, 0, &c)));
   addStmtToIRSB(cgs->sb_out,
                 IRStmt_WrTmp(old, IRExpr_Load(Iend_LE, Ity_I64,
                                               IRExpr_RdTmp(addr))));
   addStmtToIRSB(cgs->sb_out,
                 IRStmt_WrTmp(new, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old),
                                                IRExpr_Const(IRConst_U64(1)))));
   addStmtToIRSB(cgs->sb_out,
                 IRStmt_Store(Iend_LE, IRExpr_RdTmp(addr), IRExpr_RdTmp(new)));
   cg_scratch_push(&cgs->group_consts, (UWord)c);
}

/* Emits a call of a run-time helper; with a guard, the call only happens
   when the guard (an Ity_I1 atom) holds. */
static void cg_emit_call(CgState *cgs, const HChar *name, void *fn,
                         Int regparms, IRExpr **args, IRAtom *guard)
{
   IRDirty *di = unsafeIRDirty_0_N(regparms, name,
                                   VG_(fnptr_to_fnentry)(fn), args);
   if (guard)
      di->guard = guard;
   addStmtToIRSB(cgs->sb_out, IRStmt_Dirty(di));
}

static IRExpr *cg_ptr(CgState *cgs, const void *p)
{
   return cg_hword_const(cgs, (HWord)p, NULL);
}

/* The fetch of an instruction, unless it is known to hit the most recently
   used way of I1 (the same single line as the previous fetch of this
   block). */
static void cg_emit_fetch(CgState *cgs, const CgInstr *inode)
{
   Addr first = inode->addr >> cache_I1.line_bits;
   Addr last = (inode->addr + inode->len - 1) >> cache_I1.line_bits;
   Bool known_hit = cgs->have_last_iblock && first == last
                    && first == cgs->last_iblock;

   cgs->have_last_iblock = True;
   cgs->last_iblock = last;
   if (known_hit)
      return;
   cg_emit_call(cgs, "cg_h_fetch", cg_h_fetch, 1,
                mkIRExprVec_1(cg_ptr(cgs, inode)), NULL);
}

/* Emits the simulation of the queued events, in program order. */
static void cg_emit_simulation(CgState *cgs)
{
   for (Int i = 0; i < cgs->events_used; i++) {
      const CgEvent *ev = &cgs->events[i];
      switch (ev->kind) {
      case EV_IR:
         if (clo_cache_sim)
            cg_emit_fetch(cgs, ev->inode);
         break;
      case EV_DR:
      case EV_DM:
         cg_emit_call(cgs, "cg_h_read", cg_h_read, 3,
                      mkIRExprVec_3(cg_ptr(cgs, ev->inode->cc), ev->atom,
                                    cg_hword_const(cgs, ev->size, NULL)),
                      NULL);
         break;
      case EV_DW:
         cg_emit_call(cgs, "cg_h_write", cg_h_write, 3,
                      mkIRExprVec_3(cg_ptr(cgs, ev->inode->cc), ev->atom,
                                    cg_hword_const(cgs, ev->size, NULL)),
                      NULL);
         break;
      case EV_BC:
         cg_emit_call(cgs, "cg_h_cond_branch", cg_h_cond_branch, 2,
                      mkIRExprVec_2(cg_ptr(cgs, ev->inode), ev->atom), NULL);
         break;
      case EV_BI:
         cg_emit_call(cgs, "cg_h_ind_branch", cg_h_ind_branch, 2,
                      mkIRExprVec_2(cg_ptr(cgs, ev->inode), ev->atom), NULL);
         break;
      }
   }
}

/* Emits the code for the queued events and empties the queue. */
static void cg_flush_events(CgState *cgs)
{
   if (cgs->events_used == 0)
      return;
   cg_emit_simulation(cgs);
   for (Int i = 0; i < cgs->events_used; i++)
      cg_scratch_push(&cgs->targets, (UWord)cg_event_counter(&cgs->events[i]));
   cg_scratch_push(&cgs->group_ends, cgs->targets.used);
   cg_emit_group_count(cgs);
   cgs->events_used = 0;
}

static CgEvent *cg_new_event(CgState *cgs, CgEventKind kind, CgInstr *inode)
{
   if (cgs->events_used == N_EVENTS)
      cg_flush_events(cgs);
   tl_assert(cgs->events_used >= 0 && cgs->events_used < N_EVENTS);
   CgEvent *ev = &cgs->events[cgs->events_used++];
   ev->kind = kind;
   ev->inode = inode;
   ev->size = 0;
   ev->atom = NULL;
   return ev;
}

/* Whether a fetch of the instruction touches one cache line and I1 and LL
   have equal line sizes (the reference's "no-cross" class; only counted
   for --stats, the simulation does not depend on it). */
static Bool cg_instr_is_nox(Addr addr, UInt len)
{
   /* Without the cache simulation the geometry is all zeros. */
   UInt bits = cache_I1.line_bits;
   return (addr >> bits) == ((addr + len - 1) >> bits)
          && cache_I1.line_size == cache_LL.line_size;
}

static void cg_add_event_Ir(CgState *cgs, CgInstr *inode)
{
   cg_new_event(cgs, EV_IR, inode);
   if (cg_instr_is_nox(inode->addr, inode->len))
      stat_instrs_nox++;
   else
      stat_instrs_gen++;
}

static void cg_add_event_Dr(CgState *cgs, CgInstr *inode, Int size,
                            IRAtom *ea)
{
   tl_assert(isIRAtom(ea));
   if (!clo_cache_sim)
      return;
   tl_assert(size >= 1 && size <= min_line_size);
   CgEvent *ev = cg_new_event(cgs, EV_DR, inode);
   ev->size = size;
   ev->atom = ea;
}

static void cg_add_event_Dw(CgState *cgs, CgInstr *inode, Int size,
                            IRAtom *ea)
{
   tl_assert(isIRAtom(ea));
   if (!clo_cache_sim)
      return;
   tl_assert(size >= 1 && size <= min_line_size);
   /* A write right after a read of the same size, address atom and
      instruction is a read-modify-write: it counts as one read. */
   if (cgs->events_used > 0) {
      CgEvent *last = &cgs->events[cgs->events_used - 1];
      if (last->kind == EV_DR && last->size == size && last->inode == inode
          && eqIRAtom(last->atom, ea)) {
         last->kind = EV_DM;
         return;
      }
   }
   CgEvent *ev = cg_new_event(cgs, EV_DW, inode);
   ev->size = size;
   ev->atom = ea;
}

static void cg_add_event_Bc(CgState *cgs, CgInstr *inode, IRAtom *taken)
{
   tl_assert(isIRAtom(taken));
   if (!clo_branch_sim)
      return;
   CgEvent *ev = cg_new_event(cgs, EV_BC, inode);
   ev->atom = taken;
}

static void cg_add_event_Bi(CgState *cgs, CgInstr *inode, IRAtom *target)
{
   tl_assert(isIRAtom(target));
   if (!clo_branch_sim)
      return;
   CgEvent *ev = cg_new_event(cgs, EV_BI, inode);
   ev->atom = target;
}

/* A guarded load or store: it only counts if the guard holds. */
static void cg_add_event_D_guarded(CgState *cgs, CgInstr *inode, Int size,
                                   IRAtom *ea, IRAtom *guard, Bool is_write)
{
   tl_assert(isIRAtom(ea) && isIRAtom(guard));
   if (!clo_cache_sim)
      return;
   tl_assert(size >= 1 && size <= min_line_size);
   /* Merging guarded accesses into the queue is not worth it: flush,
      then handle this one on its own, as the reference does. */
   cg_flush_events(cgs);
   IRExpr **args = mkIRExprVec_3(cg_ptr(cgs, inode->cc), ea,
                                 cg_hword_const(cgs, size, NULL));
   if (is_write)
      cg_emit_call(cgs, "cg_h_write_guarded", cg_h_write_guarded, 3, args,
                   guard);
   else
      cg_emit_call(cgs, "cg_h_read_guarded", cg_h_read_guarded, 3, args,
                   guard);
}

/* The record of the next instruction of the superblock. */
static CgInstr *cg_setup_instr(CgState *cgs, Addr addr, UInt len)
{
   tl_assert(cgs->instr_i < cgs->sbi->n_instrs);
   CgInstr *inode = &cgs->sbi->instrs[cgs->instr_i++];
   inode->addr = addr;
   inode->len = (UChar)len;
   inode->cc = cg_get_lineCC(addr);
   return inode;
}

static CgInstr *cg_do_IMark(CgState *cgs, const IRStmt *st)
{
   Addr addr = st->Ist.IMark.addr;
   UInt len = st->Ist.IMark.len;
   /* VEX gives length 0 when it failed to decode the instruction. */
   if (len == 0)
      len = VG_MIN_INSTR_SZB;
   tl_assert((VG_MIN_INSTR_SZB <= len && len <= VG_MAX_INSTR_SZB)
             || len == VG_CLREQ_SZB);
   CgInstr *inode = cg_setup_instr(cgs, addr, len);
   cg_add_event_Ir(cgs, inode);
   return inode;
}

static Int cg_clamp(Int size)
{
   return size > min_line_size ? min_line_size : size;
}

static void cg_do_Dirty(CgState *cgs, CgInstr *inode, const IRDirty *d)
{
   if (d->mFx == Ifx_None) {
      tl_assert(d->mAddr == NULL && d->mSize == 0);
      return;
   }
   tl_assert(d->mAddr != NULL && d->mSize != 0);
   Int size = cg_clamp(d->mSize);
   if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
      cg_add_event_Dr(cgs, inode, size, d->mAddr);
   if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
      cg_add_event_Dw(cgs, inode, size, d->mAddr);
}

static void cg_do_CAS(CgState *cgs, CgInstr *inode, const IRTypeEnv *tyenv,
                      const IRCAS *cas)
{
   tl_assert(cas->addr != NULL && cas->dataLo != NULL);
   Int size = sizeofIRType(typeOfIRExpr(tyenv, cas->dataLo));
   if (cas->dataHi != NULL)
      size *= 2;                 /* double-word CAS */
   size = cg_clamp(size);
   cg_add_event_Dr(cgs, inode, size, cas->addr);
   cg_add_event_Dw(cgs, inode, size, cas->addr);
}

static void cg_do_LLSC(CgState *cgs, CgInstr *inode, const IRTypeEnv *tyenv,
                       const IRStmt *st)
{
   if (st->Ist.LLSC.storedata == NULL) {
      IRType ty = typeOfIRTemp(tyenv, st->Ist.LLSC.result);
      cg_add_event_Dr(cgs, inode, sizeofIRType(ty), st->Ist.LLSC.addr);
      /* Flushing before the load-linked helps the store-conditional
         succeed; the reference does it even without the cache simulation. */
      cg_flush_events(cgs);
   } else {
      IRType ty = typeOfIRExpr(tyenv, st->Ist.LLSC.storedata);
      cg_add_event_Dw(cgs, inode, sizeofIRType(ty), st->Ist.LLSC.addr);
   }
}

/* A side exit: a conditional branch when it is a guest branch, and a flush
   point in any case since control may leave the block here. */
static void cg_do_Exit(CgState *cgs, CgInstr *inode, const IRStmt *st)
{
   IRJumpKind jk = st->Ist.Exit.jk;
   if (jk == Ijk_Boring || jk == Ijk_Call || jk == Ijk_Ret) {
      IRTypeEnv *tyenv = cgs->sb_out->tyenv;
      IRType ty = cgs->hword_ty;
      Addr nia = inode->addr + inode->len;
      const IRConst *dst = st->Ist.Exit.dst;
      Addr sea;
      if (ty == Ity_I32) {
         tl_assert(dst->tag == Ico_U32);
         sea = dst->Ico.U32;
      } else {
         tl_assert(dst->tag == Ico_U64);
         sea = (Addr)dst->Ico.U64;
      }
      /* If the optimiser turned the branch around, the side exit goes to
         the next instruction and "taken" is the guard's negation. */
      Bool inverted = nia == sea;
      IRTemp guard1 = newIRTemp(tyenv, Ity_I1);
      IRTemp guardw = newIRTemp(tyenv, ty);
      IRTemp taken = newIRTemp(tyenv, ty);
      addStmtToIRSB(cgs->sb_out, IRStmt_WrTmp(guard1, st->Ist.Exit.guard));
      addStmtToIRSB(cgs->sb_out,
                    IRStmt_WrTmp(guardw,
                                 IRExpr_Unop(ty == Ity_I32 ? Iop_1Uto32
                                                           : Iop_1Uto64,
                                             IRExpr_RdTmp(guard1))));
      addStmtToIRSB(cgs->sb_out,
         IRStmt_WrTmp(taken,
            inverted ? IRExpr_Binop(ty == Ity_I32 ? Iop_Xor32 : Iop_Xor64,
                                    IRExpr_RdTmp(guardw),
                                    cg_hword_const(cgs, 1, NULL))
                     : IRExpr_RdTmp(guardw)));
      cg_add_event_Bc(cgs, inode, IRExpr_RdTmp(taken));
   }
   cg_flush_events(cgs);
}

/* Queues the events of one statement (copied afterwards by the caller). */
static void cg_do_stmt(CgState *cgs, const IRTypeEnv *tyenv, IRStmt *st,
                       CgInstr **inode)
{
   switch (st->tag) {
   case Ist_NoOp:
   case Ist_AbiHint:
   case Ist_Put:
   case Ist_PutI:
   case Ist_MBE:
      break;
   case Ist_IMark:
      *inode = cg_do_IMark(cgs, st);
      break;
   case Ist_WrTmp: {
      const IRExpr *data = st->Ist.WrTmp.data;
      if (data->tag == Iex_Load)
         cg_add_event_Dr(cgs, *inode, sizeofIRType(data->Iex.Load.ty),
                         data->Iex.Load.addr);
      break;
   }
   case Ist_Store:
      cg_add_event_Dw(cgs, *inode,
                      sizeofIRType(typeOfIRExpr(tyenv, st->Ist.Store.data)),
                      st->Ist.Store.addr);
      break;
   case Ist_StoreG: {
      const IRStoreG *sg = st->Ist.StoreG.details;
      cg_add_event_D_guarded(cgs, *inode,
                             sizeofIRType(typeOfIRExpr(tyenv, sg->data)),
                             sg->addr, sg->guard, True);
      break;
   }
   case Ist_LoadG: {
      const IRLoadG *lg = st->Ist.LoadG.details;
      IRType ty = Ity_INVALID, ty_wide = Ity_INVALID;
      typeOfIRLoadGOp(lg->cvt, &ty_wide, &ty);   /* the pre-widening type */
      tl_assert(ty != Ity_INVALID);
      cg_add_event_D_guarded(cgs, *inode, sizeofIRType(ty), lg->addr,
                             lg->guard, False);
      break;
   }
   case Ist_Dirty:
      cg_do_Dirty(cgs, *inode, st->Ist.Dirty.details);
      break;
   case Ist_CAS:
      cg_do_CAS(cgs, *inode, tyenv, st->Ist.CAS.details);
      break;
   case Ist_LLSC:
      cg_do_LLSC(cgs, *inode, tyenv, st);
      break;
   case Ist_Exit:
      cg_do_Exit(cgs, *inode, st);
      break;
   default:
      ppIRStmt(st);
      VG_(tool_panic)("cachegrind: unexpected IR statement");
   }
}

/* The block's final jump: an indirect branch when its target is computed
   and it is not a return (returns are assumed perfectly predicted). */
static void cg_do_block_end(CgState *cgs, const IRSB *sb_in, CgInstr *inode)
{
   if (sb_in->jumpkind != Ijk_Boring && sb_in->jumpkind != Ijk_Call)
      return;
   switch (sb_in->next->tag) {
   case Iex_Const:
      break;
   case Iex_RdTmp:
      cg_add_event_Bi(cgs, inode, sb_in->next);
      break;
   default:
      tl_assert(0 && "non-flat block end");
   }
}

/* Allocates the superblock's records for n_instrs instructions and enters
   them in the table. */
static CgSBInfo *cg_new_sb(Addr key, UInt n_instrs)
{
   CgSBInfo *sbi = VG_(malloc)("cg.main.sbinfo",
                               sizeof *sbi + n_instrs * sizeof(CgInstr));
   sbi->key = key;
   sbi->retired_next = NULL;
   sbi->collided = False;
   sbi->n_instrs = n_instrs;
   sbi->n_groups = 0;
   sbi->n_targets = 0;
   sbi->groups = NULL;
   sbi->targets = NULL;

   /* Two live translations with one key (e.g. a no-redirection translation
      beside a normal one) must not share records: the older one is
      retired, still counted, and never freed. */
   CgSBInfo *old = VG_(HT_remove)(sb_table, key);
   if (old) {
      old->collided = True;
      old->retired_next = retired_sbs;
      retired_sbs = old;
      sbi->collided = True;
   }
   VG_(HT_add_node)(sb_table, sbi);
   return sbi;
}

/* Gives the block's groups their final storage and patches the counter
   addresses into the emitted code. */
static void cg_finish_sb(CgState *cgs)
{
   CgSBInfo *sbi = cgs->sbi;
   UInt n_groups = cgs->group_consts.used;
   UInt n_targets = cgs->targets.used;

   tl_assert(cgs->group_ends.used == n_groups);
   sbi->n_groups = n_groups;
   sbi->n_targets = n_targets;
   if (n_groups == 0)
      return;
   sbi->groups = VG_(malloc)("cg.main.groups",
                             n_groups * sizeof(CgGroup)
                             + n_targets * sizeof(ULong *));
   sbi->targets = (ULong **)(sbi->groups + n_groups);
   for (UInt i = 0; i < n_targets; i++)
      sbi->targets[i] = (ULong *)cgs->targets.w[i];
   UInt first = 0;
   for (UInt g = 0; g < n_groups; g++) {
      CgGroup *grp = &sbi->groups[g];
      grp->count = 0;
      grp->first_target = first;
      grp->n_targets = (UInt)cgs->group_ends.w[g] - first;
      first = (UInt)cgs->group_ends.w[g];
      IRConst *c = (IRConst *)cgs->group_consts.w[g];
      if (c->tag == Ico_U64)
         c->Ico.U64 = (ULong)(HWord)&grp->count;
      else
         c->Ico.U32 = (UInt)(HWord)&grp->count;
   }
}

static IRSB *cg_instrument(VgCallbackClosure *closure, IRSB *sb_in,
                           const VexGuestLayout *layout,
                           const VexGuestExtents *vge,
                           const VexArchInfo *archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{
   if (!instr_enabled)
      return sb_in;
   if (gWordTy != hWordTy)
      VG_(tool_panic)("host/guest word size mismatch");

   CgState *cgs = &cgs_static;
   Int i = 0;
   UInt n_instrs = 0;

   IRSB *sb_out = deepCopyIRSBExceptStmts(sb_in);
   /* Statements before the first IMark (e.g. the self-check) run before
      any instruction: copy them untouched. */
   for (; i < sb_in->stmts_used && sb_in->stmts[i]->tag != Ist_IMark; i++)
      addStmtToIRSB(sb_out, sb_in->stmts[i]);
   for (Int j = i; j < sb_in->stmts_used; j++)
      if (sb_in->stmts[j]->tag == Ist_IMark)
         n_instrs++;

   tl_assert(closure->readdr == vge->base[0]);
   cgs->sb_out = sb_out;
   cgs->hword_ty = hWordTy;
   cgs->sbi = cg_new_sb(vge->base[0], n_instrs);
   cgs->instr_i = 0;
   cgs->events_used = 0;
   cgs->have_last_iblock = False;
   cgs->group_consts.used = 0;
   cgs->group_ends.used = 0;
   cgs->targets.used = 0;

   CgInstr *inode = NULL;
   for (; i < sb_in->stmts_used; i++) {
      IRStmt *st = sb_in->stmts[i];
      if (st == NULL || st->tag == Ist_NoOp)
         continue;
      cg_do_stmt(cgs, sb_in->tyenv, st, &inode);
      addStmtToIRSB(sb_out, st);
   }
   cg_do_block_end(cgs, sb_in, inode);
   cg_flush_events(cgs);
   tl_assert(cgs->instr_i == n_instrs);
   cg_finish_sb(cgs);
   return sb_out;
}

/* The core discards a translation: fold its counts, then free its records
   (unless another translation with the same key may still use them). */
static void cg_discard_superblock_info(Addr orig_addr, VexGuestExtents vge)
{
   tl_assert(vge.n_used > 0);
   CgSBInfo *sbi = VG_(HT_remove)(sb_table, vge.base[0]);
   if (!instr_enabled) {
      /* Blocks translated while disabled have no records; all others were
         discarded when instrumentation was switched off. */
      tl_assert(sbi == NULL);
      return;
   }
   tl_assert(sbi != NULL);
   cg_fold_sb(sbi);
   if (sbi->collided) {
      sbi->retired_next = retired_sbs;
      retired_sbs = sbi;
   } else {
      cg_free_sb(sbi);
   }
}

/*------------------------------------------------------------*/
/*--- Client requests                                      ---*/
/*------------------------------------------------------------*/

static void cg_set_instrumentation(Bool enable)
{
   if (instr_enabled == enable) {
      VG_(dmsg)("warning: CACHEGRIND_%s_INSTRUMENTATION called,\n",
                enable ? "START" : "STOP");
      VG_(dmsg)("         but instrumentation is already %s\n",
                enable ? "enabled" : "disabled");
      return;
   }
   /* Discard first, while the flag still says which translations carry
      records: the discard callback relies on it. */
   VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "cachegrind");
   instr_enabled = enable;
}

static Bool cg_handle_client_request(ThreadId tid, UWord *args, UWord *ret)
{
   if (!VG_IS_TOOL_USERREQ('C', 'G', args[0])
       && args[0] != VG_USERREQ__GDB_MONITOR_COMMAND)
      return False;
   switch (args[0]) {
   case VG_USERREQ__CG_START_INSTRUMENTATION:
      cg_set_instrumentation(True);
      *ret = 0;
      return True;
   case VG_USERREQ__CG_STOP_INSTRUMENTATION:
      cg_set_instrumentation(False);
      *ret = 0;
      return True;
   default:
      VG_(message)(Vg_UserMsg,
                   "Warning: unknown cachegrind client request code %llx\n",
                   (ULong)args[0]);
      return False;
   }
}

/*------------------------------------------------------------*/
/*--- Totals                                               ---*/
/*------------------------------------------------------------*/

typedef struct {
   CgCacheCC Ir, Dr, Dw;
   CgBranchCC Bc, Bi;
} CgTotals;

static void cg_add_cache(CgCacheCC *t, const CgCacheCC *c)
{
   t->a += c->a;
   t->m1 += c->m1;
   t->mL += c->mL;
}

static void cg_add_branch(CgBranchCC *t, const CgBranchCC *c)
{
   t->b += c->b;
   t->mp += c->mp;
}

static void cg_add_totals(CgTotals *t, const CgLineCC *cc)
{
   cg_add_cache(&t->Ir, &cc->Ir);
   cg_add_cache(&t->Dr, &cc->Dr);
   cg_add_cache(&t->Dw, &cc->Dw);
   cg_add_branch(&t->Bc, &cc->Bc);
   cg_add_branch(&t->Bi, &cc->Bi);
}

/*------------------------------------------------------------*/
/*--- Output file                                          ---*/
/*------------------------------------------------------------*/

/* The columns of the output file, in order, with the option that enables
   them.  The events line, every count line and the summary line are all
   built from this one table. */
typedef enum { COL_ALWAYS, COL_CACHE, COL_BRANCH } CgColumnNeed;
typedef struct {
   const HChar *name;
   SizeT offset;              /* of the ULong counter in CgLineCC */
   CgColumnNeed need;
} CgColumn;

#define CG_COL(name, field, need) { name, offsetof(CgLineCC, field), need }
static const CgColumn cg_columns[] = {
   CG_COL("Ir",   Ir.a,  COL_ALWAYS),
   CG_COL("I1mr", Ir.m1, COL_CACHE),
   CG_COL("ILmr", Ir.mL, COL_CACHE),
   CG_COL("Dr",   Dr.a,  COL_CACHE),
   CG_COL("D1mr", Dr.m1, COL_CACHE),
   CG_COL("DLmr", Dr.mL, COL_CACHE),
   CG_COL("Dw",   Dw.a,  COL_CACHE),
   CG_COL("D1mw", Dw.m1, COL_CACHE),
   CG_COL("DLmw", Dw.mL, COL_CACHE),
   CG_COL("Bc",   Bc.b,  COL_BRANCH),
   CG_COL("Bcm",  Bc.mp, COL_BRANCH),
   CG_COL("Bi",   Bi.b,  COL_BRANCH),
   CG_COL("Bim",  Bi.mp, COL_BRANCH),
};
#define N_COLUMNS (sizeof cg_columns / sizeof cg_columns[0])

static Bool cg_column_enabled(const CgColumn *col)
{
   switch (col->need) {
   case COL_ALWAYS: return True;
   case COL_CACHE:  return clo_cache_sim;
   case COL_BRANCH: return clo_branch_sim;
   }
   return False;
}

static ULong cg_column_value(const CgColumn *col, const CgLineCC *cc)
{
   return *(const ULong *)((const UChar *)cc + col->offset);
}

/* A buffered writer on a file descriptor; remembers the first error. */
typedef struct {
   Int fd;
   Int used;
   Bool failed;
   HChar buf[1 << 16];
} CgOut;

static void cg_out_flush(CgOut *o)
{
   Int off = 0;
   while (off < o->used && !o->failed) {
      Int n = VG_(write)(o->fd, o->buf + off, o->used - off);
      if (n <= 0)
         o->failed = True;
      else
         off += n;
   }
   o->used = 0;
}

static void cg_out_bytes(CgOut *o, const HChar *s, Int len)
{
   while (len > 0) {
      if (o->used == (Int)sizeof o->buf)
         cg_out_flush(o);
      Int n = (Int)sizeof o->buf - o->used;
      if (n > len)
         n = len;
      VG_(memcpy)(o->buf + o->used, s, n);
      o->used += n;
      s += n;
      len -= n;
   }
}

static void cg_out_str(CgOut *o, const HChar *s)
{
   cg_out_bytes(o, s, (Int)VG_(strlen)(s));
}

static void cg_out_u64(CgOut *o, ULong v)
{
   HChar tmp[24];
   Int i = sizeof tmp;
   do {
      tmp[--i] = (HChar)('0' + v % 10);
      v /= 10;
   } while (v);
   cg_out_bytes(o, tmp + i, (Int)sizeof tmp - i);
}

static void cg_out_line_number(CgOut *o, Int line)
{
   if (line < 0) {
      cg_out_bytes(o, "-", 1);
      cg_out_u64(o, (ULong)(-(Long)line));
   } else {
      cg_out_u64(o, (ULong)line);
   }
}

/* Cache descriptions for the desc: lines (set when the simulation is on). */
static const HChar *desc_I1, *desc_D1, *desc_LL;

static void cg_write_header(CgOut *o)
{
   if (clo_cache_sim) {
      cg_out_str(o, "desc: I1 cache:         ");
      cg_out_str(o, desc_I1);
      cg_out_str(o, "\ndesc: D1 cache:         ");
      cg_out_str(o, desc_D1);
      cg_out_str(o, "\ndesc: LL cache:         ");
      cg_out_str(o, desc_LL);
      cg_out_str(o, "\n");
   }
   cg_out_str(o, "cmd: ");
   cg_out_str(o, VG_(args_the_exename));
   for (Word i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++) {
      cg_out_str(o, " ");
      cg_out_str(o, *(HChar **)VG_(indexXA)(VG_(args_for_client), i));
   }
   cg_out_str(o, "\nevents:");
   for (UInt c = 0; c < N_COLUMNS; c++)
      if (cg_column_enabled(&cg_columns[c])) {
         cg_out_str(o, " ");
         cg_out_str(o, cg_columns[c].name);
      }
   /* The reference's cache-only events line ends with a space. */
   if (clo_cache_sim && !clo_branch_sim)
      cg_out_str(o, " ");
   cg_out_str(o, "\n");
}

static void cg_write_counts(CgOut *o, const CgLineCC *cc)
{
   for (UInt c = 0; c < N_COLUMNS; c++)
      if (cg_column_enabled(&cg_columns[c])) {
         cg_out_bytes(o, " ", 1);
         cg_out_u64(o, cg_column_value(&cg_columns[c], cc));
      }
   cg_out_bytes(o, "\n", 1);
}

static Int cg_cmp_cc(const void *a, const void *b)
{
   const CgLineCC *x = *(const CgLineCC *const *)a;
   const CgLineCC *y = *(const CgLineCC *const *)b;
   Int r;
   if (x->file != y->file && (r = VG_(strcmp)(x->file, y->file)) != 0)
      return r;
   if (x->fn != y->fn && (r = VG_(strcmp)(x->fn, y->fn)) != 0)
      return r;
   return x->line < y->line ? -1 : x->line > y->line;
}

/* All line cost centres sorted by (file, function, line); the caller frees
   the array. */
static CgLineCC **cg_sorted_ccs(void)
{
   CgLineCC **v = VG_(malloc)("cg.main.sorted", (cc_count + 1) * sizeof *v);
   UInt n = 0;
   for (UInt b = 0; b < cc_table_size; b++)
      for (CgLineCC *cc = cc_table[b]; cc; cc = cc->next)
         v[n++] = cc;
   tl_assert(n == cc_count);
   VG_(ssort)(v, n, sizeof *v, cg_cmp_cc);
   return v;
}

/* Statistics of the last profile written (--stats=yes). */
static UInt stat_files_written, stat_fns_written, stat_lines_written;

/* Writes the whole profile to fd; returns False on a write error. */
static Bool cg_write_profile(Int fd)
{
   CgOut *o = VG_(malloc)("cg.main.out", sizeof *o);
   CgLineCC **v = cg_sorted_ccs();
   CgTotals tot = { { 0 } };
   const HChar *file = NULL, *fn = NULL;

   o->fd = fd;
   o->used = 0;
   o->failed = False;
   stat_files_written = stat_fns_written = stat_lines_written = 0;
   cg_write_header(o);
   for (UInt i = 0; i < cc_count; i++) {
      const CgLineCC *cc = v[i];
      Bool new_file = cc->file != file;
      if (new_file) {
         file = cc->file;
         cg_out_str(o, "fl=");
         cg_out_str(o, file);
         cg_out_str(o, "\n");
         stat_files_written++;
      }
      if (new_file || cc->fn != fn) {
         fn = cc->fn;
         cg_out_str(o, "fn=");
         cg_out_str(o, fn);
         cg_out_str(o, "\n");
         stat_fns_written++;
      }
      cg_out_line_number(o, cc->line);
      cg_write_counts(o, cc);
      cg_add_totals(&tot, cc);
      stat_lines_written++;
   }
   CgLineCC sum = { 0 };
   sum.Ir = tot.Ir;
   sum.Dr = tot.Dr;
   sum.Dw = tot.Dw;
   sum.Bc = tot.Bc;
   sum.Bi = tot.Bi;
   cg_out_str(o, "summary:");
   cg_write_counts(o, &sum);
   cg_out_flush(o);

   Bool ok = !o->failed;
   VG_(free)(v);
   VG_(free)(o);
   return ok;
}

/* Whether path names something other than a regular file (a device, a
   FIFO, a symbolic link...): then it is written in place rather than
   replaced by a rename. */
static Bool cg_is_special_path(const HChar *path)
{
   struct vg_stat st;
   HChar dummy[8];
   if (sr_isError(VG_(stat)(path, &st)))
      return False;              /* absent: create it */
   if (VG_(readlink)(path, dummy, sizeof dummy) >= 0)
      return True;
   return !VKI_S_ISREG(st.mode);
}

static Bool cg_path_exists(const HChar *path)
{
   struct vg_stat st;
   return !sr_isError(VG_(stat)(path, &st));
}

/* Writes the profile to path so that it is complete or absent: into a
   temporary file beside it, renamed over path at the end.  Returns False
   (and prints why) if that failed. */
static Bool cg_write_profile_file(const HChar *path)
{
   Bool in_place = cg_is_special_path(path);
   HChar *tmp = NULL;
   SysRes sres;

   if (in_place) {
      sres = VG_(open)(path, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                       VKI_S_IRUSR | VKI_S_IWUSR);
   } else {
      tmp = VG_(malloc)("cg.main.tmpname", VG_(strlen)(path) + 32);
      VG_(sprintf)(tmp, "%s.tmp.%d", path, VG_(getpid)());
      sres = VG_(open)(tmp, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                       VKI_S_IRUSR | VKI_S_IWUSR);
   }
   if (sr_isError(sres)) {
      VG_(umsg)("error: can't open output data file '%s'\n", path);
      VG_(umsg)("       ... so detailed results will be missing.\n");
      if (tmp)
         VG_(free)(tmp);
      return False;
   }
   Int fd = (Int)sr_Res(sres);
   Bool ok = cg_write_profile(fd);
   VG_(close)(fd);
   if (ok && tmp && VG_(rename)(tmp, path) != 0)
      ok = False;
   if (!ok) {
      VG_(umsg)("error: writing output data file '%s' failed\n", path);
      VG_(umsg)("       ... so detailed results will be missing.\n");
      if (tmp)
         VG_(unlink)(tmp);
   }
   if (tmp)
      VG_(free)(tmp);
   return ok;
}

/*------------------------------------------------------------*/
/*--- The profile of an image that calls exec              ---*/
/*------------------------------------------------------------*/

/* The reference loses the profile of a process image that calls exec.
   This tool writes it, just before the exec, to
   "<output file>.pre-exec.<N>" (N = 1, 2, ...: the first name not taken,
   so successive execs in one process come in order).  If the exec fails,
   the file is removed again and the process goes on counting. */
static HChar *pre_exec_path;

/* Whether the output-file format expands without an error (the core's
   expander exits on errors, which must not happen in the middle of an
   exec: the error is then reported at exit, as usual). */
static Bool cg_out_file_expandable(void)
{
   const HChar *s = clo_out_file;
   if (s[0] == '\0' || s[0] == '~')
      return False;
   for (; *s; s++) {
      if (*s != '%')
         continue;
      s++;
      if (*s == '%' || *s == 'p' || *s == 'n')
         continue;
      if (*s != 'q' || s[1] != '{')
         return False;
      const HChar *name = s + 2, *end = name;
      while (*end && *end != '}')
         end++;
      if (*end != '}')
         return False;
      HChar var[256];
      SizeT len = (SizeT)(end - name);
      if (len >= sizeof var)
         return False;
      VG_(memcpy)(var, name, len);
      var[len] = '\0';
      if (VG_(getenv)(var) == NULL)
         return False;
      s = end;
   }
   return True;
}

static Bool cg_is_exec_syscall(UInt sysno)
{
#if defined(__NR_execveat)
   if (sysno == __NR_execveat)
      return True;
#endif
   return sysno == __NR_execve;
}

static void cg_pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs)
{
   if (!cg_is_exec_syscall(sysno) || !cg_out_file_expandable())
      return;
   cg_fold_all();
   HChar *base = VG_(expand_file_name)("--cachegrind-out-file", clo_out_file);
   SizeT len = VG_(strlen)(base) + 32;
   HChar *path = VG_(malloc)("cg.main.preexec", len);
   for (UInt n = 1; ; n++) {
      VG_(sprintf)(path, "%s.pre-exec.%u", base, n);
      if (!cg_path_exists(path))
         break;
   }
   VG_(free)(base);
   if (cg_write_profile_file(path)) {
      pre_exec_path = path;
   } else {
      VG_(free)(path);
   }
}

static void cg_post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs,
                            SysRes res)
{
   if (!cg_is_exec_syscall(sysno) || pre_exec_path == NULL)
      return;
   /* Only reached when the exec failed: this image goes on. */
   VG_(unlink)(pre_exec_path);
   VG_(free)(pre_exec_path);
   pre_exec_path = NULL;
}

/*------------------------------------------------------------*/
/*--- Summary and statistics                               ---*/
/*------------------------------------------------------------*/

/* Width of n printed with thousands separators. */
static Int cg_commas_width(ULong n)
{
   Int digits = 1;
   while (n >= 10) {
      n /= 10;
      digits++;
   }
   return digits + (digits - 1) / 3;
}

static ULong cg_max(ULong a, ULong b)
{
   return a > b ? a : b;
}

static ULong cg_nonzero(ULong n)
{
   return n == 0 ? 1 : n;
}

static void cg_print_cache_summary(const CgTotals *t, Int l1, Int l2, Int l3)
{
   HChar fmt[128];
   ULong ir = cg_nonzero(t->Ir.a);

   VG_(sprintf)(fmt, "%%s %%,%dllu\n", l1);
   VG_(umsg)(fmt, "I1  misses:   ", t->Ir.m1);
   VG_(umsg)(fmt, "LLi misses:   ", t->Ir.mL);
   VG_(umsg)("I1  miss rate: %*.2f%%\n", l1, t->Ir.m1 * 100.0 / ir);
   VG_(umsg)("LLi miss rate: %*.2f%%\n", l1, t->Ir.mL * 100.0 / ir);
   VG_(umsg)("\n");

   /* Counts are printed as they are; zeros become ones only in the rate
      denominators, exactly as the reference computes the rates. */
   CgCacheCC d = { t->Dr.a + t->Dw.a, t->Dr.m1 + t->Dw.m1,
                   t->Dr.mL + t->Dw.mL };
   VG_(sprintf)(fmt, "%%s %%,%dllu  (%%,%dllu rd   + %%,%dllu wr)\n",
                l1, l2, l3);
   VG_(umsg)(fmt, "D refs:       ", d.a, t->Dr.a, t->Dw.a);
   VG_(umsg)(fmt, "D1  misses:   ", d.m1, t->Dr.m1, t->Dw.m1);
   VG_(umsg)(fmt, "LLd misses:   ", d.mL, t->Dr.mL, t->Dw.mL);
   ULong da = cg_nonzero(d.a), dra = cg_nonzero(t->Dr.a),
         dwa = cg_nonzero(t->Dw.a);
   VG_(umsg)("D1  miss rate: %*.1f%% (%*.1f%%     + %*.1f%%  )\n",
             l1, d.m1 * 100.0 / da, l2, t->Dr.m1 * 100.0 / dra,
             l3, t->Dw.m1 * 100.0 / dwa);
   VG_(umsg)("LLd miss rate: %*.1f%% (%*.1f%%     + %*.1f%%  )\n",
             l1, d.mL * 100.0 / da, l2, t->Dr.mL * 100.0 / dra,
             l3, t->Dw.mL * 100.0 / dwa);
   VG_(umsg)("\n");

   ULong ll_r = t->Dr.m1 + t->Ir.m1, ll_w = t->Dw.m1;
   ULong llm_r = t->Dr.mL + t->Ir.mL, llm_w = t->Dw.mL;
   VG_(umsg)(fmt, "LL refs:      ", ll_r + ll_w, ll_r, ll_w);
   VG_(umsg)(fmt, "LL misses:    ", llm_r + llm_w, llm_r, llm_w);
   VG_(umsg)("LL miss rate:  %*.1f%% (%*.1f%%     + %*.1f%%  )\n",
             l1, (llm_r + llm_w) * 100.0 / (ir + da),
             l2, llm_r * 100.0 / (ir + dra), l3, llm_w * 100.0 / dwa);
}

static void cg_print_branch_summary(const CgTotals *t, Int l1, Int l2, Int l3)
{
   HChar fmt[128];
   ULong bc = cg_nonzero(t->Bc.b), bi = cg_nonzero(t->Bi.b);

   VG_(sprintf)(fmt, "%%s %%,%dllu  (%%,%dllu cond + %%,%dllu ind)\n",
                l1, l2, l3);
   VG_(umsg)("\n");
   VG_(umsg)(fmt, "Branches:     ", t->Bc.b + t->Bi.b, t->Bc.b, t->Bi.b);
   VG_(umsg)(fmt, "Mispredicts:  ", t->Bc.mp + t->Bi.mp, t->Bc.mp, t->Bi.mp);
   VG_(umsg)("Mispred rate:  %*.1f%% (%*.1f%%     + %*.1f%%   )\n",
             l1, (t->Bc.mp + t->Bi.mp) * 100.0 / (bc + bi),
             l2, t->Bc.mp * 100.0 / bc, l3, t->Bi.mp * 100.0 / bi);
}

static void cg_print_summary(const CgTotals *t)
{
   HChar fmt[64];
   Int l1 = cg_commas_width(t->Ir.a);
   Int l2 = cg_commas_width(cg_max(t->Dr.a, t->Bc.b));
   Int l3 = cg_commas_width(cg_max(t->Dw.a, t->Bi.b));

   VG_(sprintf)(fmt, "%%s %%,%dllu\n", l1);
   VG_(umsg)(fmt, "I refs:       ", t->Ir.a);
   if (clo_cache_sim)
      cg_print_cache_summary(t, l1, l2, l3);
   if (clo_branch_sim)
      cg_print_branch_summary(t, l1, l2, l3);
}

static void cg_print_stats(void)
{
   ULong lookups = stat_full_debugs + stat_file_line_debugs + stat_fn_debugs
                   + stat_no_debugs;
   ULong div = lookups ? lookups : 1;

   VG_(dmsg)("\n");
   VG_(dmsg)("cachegrind: distinct files     : %u\n", stat_files_written);
   VG_(dmsg)("cachegrind: distinct functions : %u\n", stat_fns_written);
   VG_(dmsg)("cachegrind: distinct lines     : %u\n", stat_lines_written);
   VG_(dmsg)("cachegrind: distinct instrs NoX: %llu\n", stat_instrs_nox);
   VG_(dmsg)("cachegrind: distinct instrs Gen: %llu\n", stat_instrs_gen);
   VG_(dmsg)("cachegrind: debug lookups      : %llu\n", lookups);
   VG_(dmsg)("cachegrind: with full      info:%6.1f%% (%llu)\n",
             stat_full_debugs * 100.0 / div, stat_full_debugs);
   VG_(dmsg)("cachegrind: with file/line info:%6.1f%% (%llu)\n",
             stat_file_line_debugs * 100.0 / div, stat_file_line_debugs);
   VG_(dmsg)("cachegrind: with fn name   info:%6.1f%% (%llu)\n",
             stat_fn_debugs * 100.0 / div, stat_fn_debugs);
   VG_(dmsg)("cachegrind: with zero      info:%6.1f%% (%llu)\n",
             stat_no_debugs * 100.0 / div, stat_no_debugs);
   VG_(dmsg)("cachegrind: string table size: %u\n", str_count);
   VG_(dmsg)("cachegrind: CC table size: %u\n", cc_count);
   VG_(dmsg)("cachegrind: InstrInfo table size: %u\n",
             VG_(HT_count_nodes)(sb_table));
}

/*------------------------------------------------------------*/
/*--- Start-up and exit                                    ---*/
/*------------------------------------------------------------*/

static void cg_fini(Int exitcode)
{
   CgTotals tot = { { 0 } };

   cg_fold_all();
   for (UInt b = 0; b < cc_table_size; b++)
      for (const CgLineCC *cc = cc_table[b]; cc; cc = cc->next)
         cg_add_totals(&tot, cc);

   HChar *path = VG_(expand_file_name)("--cachegrind-out-file", clo_out_file);
   if (!cg_write_profile_file(path))
      stat_files_written = stat_fns_written = stat_lines_written = 0;
   VG_(free)(path);

   if (VG_(clo_verbosity) == 0)
      return;
   /* Unlike the reference, the totals are true even when the file could
      not be written. */
   cg_print_summary(&tot);
   if (VG_(clo_stats))
      cg_print_stats();
}

/* cg_arch's message sink: one line per call. */
static void cg_print_arch_msg(void *ctx, enum cg_msg_level level,
                              const char *line)
{
   if (level == CG_MSG_USER)
      VG_(umsg)("%s\n", line);
   else
      VG_(dmsg)("%s\n", line);
}

static enum cg_arch cg_guest_arch(void)
{
#if defined(VGA_amd64)
   return CG_ARCH_AMD64;
#elif defined(VGA_x86)
   return CG_ARCH_X86;
#else
#  error "cachegrind-ng supports amd64 and x86 guests"
#endif
}

static void cg_init_cache(struct cg_cache *c, const struct cg_cache_config *cfg,
                          const HChar *cost_centre)
{
   uintptr_t *tags = VG_(malloc)(cost_centre, cg_cache_tag_bytes(cfg));
   cg_cache_init(c, cfg, tags);
}

/* Configures and creates the three caches (spec 7): auto-detection from the
   core's host information, defaults, options, validation. */
static void cg_configure_caches(void)
{
   VexArch arch;
   VexArchInfo vai;
   struct cg_cache_config I1, D1, LL;

   VG_(machine_get_VexArchInfo)(&arch, &vai);
   const VexCacheInfo *vci = &vai.hwcache_info;
   struct cg_hwcache *hw = VG_(malloc)("cg.main.hwcache",
                                       (vci->num_caches + 1) * sizeof *hw);
   for (UInt i = 0; i < vci->num_caches; i++) {
      const VexCache *vc = &vci->caches[i];
      hw[i].kind = vc->kind == INSN_CACHE   ? CG_HWCACHE_INSN
                 : vc->kind == DATA_CACHE   ? CG_HWCACHE_DATA
                                            : CG_HWCACHE_UNIFIED;
      hw[i].level = vc->level;
      hw[i].size = vc->sizeB;
      hw[i].line_size = vc->line_sizeB;
      hw[i].assoc = vc->assoc;
      hw[i].is_trace_cache = vc->is_trace_cache;
   }
   struct cg_hwcache_info info = { vci->num_levels, vci->num_caches, hw };

   Int ok = cg_arch_configure(cg_guest_arch(), &info, &clo_I1, &clo_D1,
                              &clo_LL, VG_(clo_verbosity), cg_print_arch_msg,
                              NULL, &I1, &D1, &LL);
   VG_(free)(hw);
   if (ok != 0
       || cg_arch_check_min_line_size(&I1, &D1, &LL,
                                      VG_(machine_get_size_of_largest_guest_register)(),
                                      cg_print_arch_msg, NULL) != 0)
      VG_(exit)(1);

   min_line_size = I1.line_size;
   if (D1.line_size < min_line_size)
      min_line_size = D1.line_size;
   if (LL.line_size < min_line_size)
      min_line_size = LL.line_size;
   cg_init_cache(&cache_I1, &I1, "cg.sim.I1");
   cg_init_cache(&cache_D1, &D1, "cg.sim.D1");
   cg_init_cache(&cache_LL, &LL, "cg.sim.LL");
   desc_I1 = cache_I1.desc;
   desc_D1 = cache_D1.desc;
   desc_LL = cache_LL.desc;
}

static void cg_post_clo_init(void)
{
   if (clo_cache_sim)
      cg_configure_caches();
   if (clo_branch_sim) {
      UInt z = cg_arch_branch_zero_bits(cg_guest_arch());
      cg_condpred_init(&cond_predictor, z);
      cg_indpred_init(&ind_predictor, z);
   }
   instr_enabled = clo_instr_at_start;
   sb_table = VG_(HT_construct)("cg.main.sbtable");
}

static void cg_pre_clo_init(void)
{
   VG_(details_name)("Cachegrind");
   VG_(details_version)(NULL);
   VG_(details_description)("a high-precision tracing profiler");
   VG_(details_copyright_author)(
      "Copyright (C) 2026, and GNU GPL'd, by the cachegrind-ng developers.");
   VG_(details_bug_reports_to)(VG_BUGS_TO);
   VG_(details_avg_translation_sizeB)(500);

   /* The reference's register-update policy, so that the core builds the
      same blocks; the user may still override it. */
   VG_(clo_vex_control).iropt_register_updates_default
      = VG_(clo_px_file_backed) = VexRegUpdSpAtMemAccess;

   VG_(basic_tool_funcs)(cg_post_clo_init, cg_instrument, cg_fini);
   VG_(needs_superblock_discards)(cg_discard_superblock_info);
   VG_(needs_command_line_options)(cg_process_cmd_line_option,
                                   cg_print_usage, cg_print_debug_usage);
   VG_(needs_client_requests)(cg_handle_client_request);
   VG_(needs_syscall_wrapper)(cg_pre_syscall, cg_post_syscall);
}

VG_DETERMINE_INTERFACE_VERSION(cg_pre_clo_init)
