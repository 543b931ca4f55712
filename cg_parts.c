/* cg_parts.c -- profile parts: zero and dump requests, --dump-every, per-thread profiles, the files written at exit and before an exec.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   cg_parts.h says what a part is, how its files are named and how counts
   get into it. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "pub_tool_xarray.h"

#include "cg_blocks.h"
#include "cg_cc.h"
#include "cg_config.h"
#include "cg_objects.h"
#include "cg_output.h"
#include "cg_parts.h"

/* The options; set by cg_parts_init. */
static const struct cg_config *cfg;

/*------------------------------------------------------------*/
/*--- Banks                                                ---*/
/*------------------------------------------------------------*/

/* Counts taken out of the live counters, not yet written: line cost
   centre -> its counters (cg_layout.n_slots).  Open addressing, at most
   half full.  Key: the line cost centre; owner: its thread record. */
typedef struct {
   const CgLineCC **keys;     /* NULL: a free slot */
   ULong *counts;             /* n_slots per slot */
   UInt size, used;           /* size: a power of two, or 0 */
   ULong ir;                  /* the sum of the Ir counters */
} CgBank;

static UInt cg_hash_ptr(const void *p)
{
   UWord h = (UWord)p;
   h ^= h >> 16;
   h *= 0x45d9f3bu;
   return (UInt)(h ^ (h >> 16));
}

static void cg_bank_free(CgBank *b)
{
   if (b->keys) {
      VG_(free)(b->keys);
      VG_(free)(b->counts);
   }
   VG_(memset)(b, 0, sizeof *b);
}

static void cg_bank_grow(CgBank *b)
{
   UInt n = cg_layout.n_slots;
   CgBank old = *b;

   b->size = old.size ? 2 * old.size : 256;
   b->used = 0;
   b->keys = VG_(calloc)("cg.parts.bank", b->size, sizeof *b->keys);
   b->counts = VG_(calloc)("cg.parts.bank", (SizeT)b->size * n,
                           sizeof *b->counts);
   for (UInt i = 0; i < old.size; i++) {
      if (!old.keys[i])
         continue;
      UInt j = cg_hash_ptr(old.keys[i]) & (b->size - 1);
      while (b->keys[j])
         j = (j + 1) & (b->size - 1);
      b->keys[j] = old.keys[i];
      VG_(memcpy)(&b->counts[(SizeT)j * n], &old.counts[(SizeT)i * n],
                  n * sizeof(ULong));
      b->used++;
   }
   if (old.keys) {
      VG_(free)(old.keys);
      VG_(free)(old.counts);
   }
}

/* Adds the live counters of cc to the bank ctx (a cg_cc_drain callback). */
static void cg_bank_add(void *ctx, const CgLineCC *cc)
{
   CgBank *b = ctx;
   UInt n = cg_layout.n_slots;

   if (2 * (b->used + 1) > b->size)
      cg_bank_grow(b);
   UInt j = cg_hash_ptr(cc) & (b->size - 1);
   while (b->keys[j] && b->keys[j] != cc)
      j = (j + 1) & (b->size - 1);
   if (!b->keys[j]) {
      b->keys[j] = cc;
      b->used++;
   }
   cg_cc_add_counts(cc, &b->counts[(SizeT)j * n]);
   b->ir += cc->c[cg_layout.shape_slot[cc->shape][COL_IR]];
}

/* The bank's lines as rows for the writer (*n of them; the caller frees
   the array), and their totals. */
static struct cg_row *cg_bank_rows(const CgBank *b, UInt *n, CgTotals *tot)
{
   struct cg_row *rows = VG_(malloc)("cg.parts.rows",
                                     (b->used + 1) * sizeof *rows);
   UInt k = 0;

   VG_(memset)(tot, 0, sizeof *tot);
   for (UInt i = 0; i < b->size; i++) {
      if (!b->keys[i])
         continue;
      rows[k].cc = b->keys[i];
      rows[k].c = &b->counts[(SizeT)i * cg_layout.n_slots];
      for (CgColumnId col = 0; col < N_COLUMNS; col++)
         if (cg_layout.slot[col] >= 0)
            tot->v[col] += rows[k].c[cg_layout.slot[col]];
      k++;
   }
   *n = k;
   return rows;
}

/*------------------------------------------------------------*/
/*--- Threads                                              ---*/
/*------------------------------------------------------------*/

/* Whose counts a bank holds: a thread (--separate-threads=yes), or the
   process (number 0). */
typedef struct CgThread {
   struct CgThread *next;     /* the list of all records */
   UInt number;               /* 1: the main thread, then creation order */
   Bool alive;
   CgBank bank;
} CgThread;

/* All records: the live threads, and those that exited whose counts are
   not written yet (freed after the next part).  by_tid: the record of
   each core thread id (VG_N_THREADS entries; NULL: none).  running: the
   record whose counts the live counters hold.  Owner of all: this file. */
static CgThread *threads;
static CgThread **by_tid;
static CgThread *running;
static UInt threads_created;
/* The core's count of blocks dispatched when the live counters were last
   settled: if it has not moved, there is nothing to settle. */
static ULong settled_blocks;

static CgThread *cg_thread_new(UInt number)
{
   CgThread *t = VG_(calloc)("cg.parts.thread", 1, sizeof *t);
   t->number = number;
   t->alive = True;
   t->next = threads;
   threads = t;
   return t;
}

/* Moves the live counts into the running thread's bank. */
static void cg_settle(void)
{
   cg_fold_all();
   cg_cc_drain(cg_bank_add, &running->bank);
}

/* Frees the records of threads that exited and have nothing left to
   write. */
static void cg_forget_dead_threads(void)
{
   for (CgThread **p = &threads; *p; ) {
      CgThread *t = *p;
      if (t->alive || t->bank.used > 0 || t == running) {
         p = &t->next;
         continue;
      }
      *p = t->next;
      cg_bank_free(&t->bank);
      VG_(free)(t);
   }
}

void cg_parts_thread_created(ThreadId parent, ThreadId child)
{
   /* The main thread (created by no thread) has its record already. */
   if (!cfg->separate_threads || parent == VG_INVALID_THREADID)
      return;
   tl_assert(child < VG_N_THREADS);
   by_tid[child] = cg_thread_new(++threads_created);
}

void cg_parts_thread_running(ThreadId tid, ULong blocks_dispatched)
{
   if (!cfg->separate_threads)
      return;
   tl_assert(tid < VG_N_THREADS);
   CgThread *t = by_tid[tid];
   if (t == NULL)               /* a thread the tool was not told about */
      t = by_tid[tid] = cg_thread_new(++threads_created);
   if (t == running)
      return;
   if (blocks_dispatched != settled_blocks)
      cg_settle();
   settled_blocks = blocks_dispatched;
   running = t;
}

void cg_parts_thread_exited(ThreadId tid)
{
   if (!cfg->separate_threads)
      return;
   tl_assert(tid < VG_N_THREADS);
   CgThread *t = by_tid[tid];
   if (t == NULL)
      return;
   if (t == running)
      cg_settle();
   t->alive = False;
   by_tid[tid] = NULL;
}

/*------------------------------------------------------------*/
/*--- Writing parts                                        ---*/
/*------------------------------------------------------------*/

/* Whether parts are written rather than one plain profile (cg_parts.h). */
static Bool parts_on;
/* Parts taken before this image (--part-base), parts this image wrote. */
static ULong part_base;
static UInt parts_done;
/* The totals of every part written so far: with the final part's, the
   totals the run prints. */
static CgTotals run_tot;
/* Files written and files that could not be, and parts of which at least
   one file was written, for the summary. */
static UInt files_written, files_failed, parts_written;

static void cg_add_totals(CgTotals *a, const CgTotals *b)
{
   for (UInt c = 0; c < N_COLUMNS; c++)
      a->v[c] += b->v[c];
}

/* The file of part seq (0: unnumbered) of thread number thread (0: no
   thread suffix) for the output file base (base itself when it is a
   device: in_place, cg_out_is_special): a new string. */
static HChar *cg_part_path(const HChar *base, Bool in_place, ULong seq,
                           UInt thread)
{
   HChar *path = VG_(malloc)("cg.parts.path", VG_(strlen)(base) + 48);
   Int n = VG_(sprintf)(path, "%s", base);
   if (in_place)
      return path;
   if (seq)
      n += VG_(sprintf)(path + n, ".%llu", seq);
   if (thread)
      VG_(sprintf)(path + n, "-%02u", thread);
   return path;
}

/* Writes the bank of t as part number part_no to path, with trigger in
   its header; *tot gets its totals.  Whether the file was written. */
static Bool cg_write_bank(const HChar *path, ULong part_no, const CgThread *t,
                          const HChar *trigger, CgTotals *tot)
{
   struct cg_part_text part;
   HChar *desc = VG_(malloc)("cg.parts.desc", VG_(strlen)(trigger) + 96);
   Int n = VG_(sprintf)(desc, "desc: Part: %llu\n", part_no);
   if (t->number)
      n += VG_(sprintf)(desc + n, "desc: Thread: %u\n", t->number);
   VG_(sprintf)(desc + n, "desc: Trigger: %s\n", trigger);
   part.desc = desc;
   part.rows = cg_bank_rows(&t->bank, &part.n_rows, tot);
   Bool ok = cg_write_profile_file(path, tot, &part);
   VG_(free)(part.rows);
   VG_(free)(desc);
   return ok;
}

/* The number of this image's part after the next (k) ones: parts_done + k
   after --part-base, saturated at the largest count the option takes
   (2^63 - 1: reached only from a base chosen that high). */
static ULong cg_part_number(UInt k)
{
   const ULong max = (1ULL << 63) - 1;
   ULong n = (ULong)parts_done + k;
   return part_base > max - n ? max : part_base + n;
}

/* Writes a part to base (numbered: "<base>.<k>"; else base itself): a
   file for each thread with counts and for the running one.  consume: the
   part is taken (its counts leave the banks and join the run's totals);
   else nothing changes, and the paths written are added to written (if
   not NULL), for their removal. */
static void cg_write_part(const HChar *base, Bool numbered,
                          const HChar *trigger, Bool consume,
                          XArray *written)
{
   ULong part_no = cg_part_number(1);
   Bool in_place = cg_out_is_special(base);

   UInt files_before = files_written;
   parts_on = True;
   cg_settle();
   for (CgThread *t = threads; t; t = t->next) {
      if (t->bank.used == 0 && t != running)
         continue;
      CgTotals tot;
      HChar *path = cg_part_path(base, in_place, numbered ? part_no : 0,
                                 t->number);
      Bool ok = cg_write_bank(path, part_no, t, trigger, &tot);
      if (ok && written) {
         VG_(addToXA)(written, &path);
         path = NULL;
      }
      if (path)
         VG_(free)(path);
      if (consume) {
         cg_add_totals(&run_tot, &tot);
         cg_bank_free(&t->bank);
         if (ok)
            files_written++;
         else
            files_failed++;
      }
   }
   if (consume) {
      parts_done++;
      if (files_written > files_before)
         parts_written++;
      cg_forget_dead_threads();
   }
}

/*------------------------------------------------------------*/
/*--- Zero and dump requests, --dump-every                 ---*/
/*------------------------------------------------------------*/

UWord cg_dump_budget = ~(UWord)0;

/* The budget for the next --dump-every part after ir instructions were
   counted since the last part. */
static void cg_reset_budget(ULong ir)
{
   if (cfg->dump_every == 0)
      return;
   ULong left = ir < cfg->dump_every ? cfg->dump_every - ir : 0;
   cg_dump_budget = left > (ULong)~(UWord)0 ? ~(UWord)0 : (UWord)left;
}

/* A part of the running image, numbered, beside the output file.  With a
   file name that cannot be expanded (%q{} of an unset variable) no part
   is written and the counts go on into the next one: the name's error is
   reported at exit, as without parts, instead of ending the program. */
static void cg_dump(const HChar *trigger)
{
   if (!cg_out_file_expandable()) {
      cg_reset_budget(0);
      return;
   }
   HChar *base = cg_out_file_name();
   cg_write_part(base, True, trigger, True, NULL);
   VG_(free)(base);
   cg_reset_budget(0);
}

void cg_parts_zero(void)
{
   cg_fold_all();
   cg_cc_drain(NULL, NULL);
   for (CgThread *t = threads; t; t = t->next)
      cg_bank_free(&t->bank);
   cg_forget_dead_threads();
   cg_reset_budget(0);
}

/* The longest dump name shown, in bytes of the client's string. */
#define CG_NAME_MAX 256

/* The name at the client's address p for a desc: line, into out (at
   least 4 * CG_NAME_MAX + 32 bytes): backslashes doubled, control
   characters as \xHH, cut after CG_NAME_MAX bytes, or with "..." where
   it runs into memory that cannot be read. */
static void cg_read_name(Addr p, HChar *out)
{
   UChar name[CG_NAME_MAX + 1];
   SizeT n = cg_client_copy(p, name, sizeof name), i;

   if (n == 0) {
      VG_(strcpy)(out, "(unreadable name)");
      return;
   }
   for (i = 0; i < n && i < CG_NAME_MAX && name[i] != '\0'; i++) {
      UChar c = name[i];
      if (c == '\\') {
         *out++ = '\\';
         *out++ = '\\';
      } else if (c < 0x20 || c == 0x7f) {
         out += VG_(sprintf)(out, "\\x%02x", c);
      } else {
         *out++ = (HChar)c;
      }
   }
   /* No NUL where it ends: longer than shown, or cut by memory that
      cannot be read. */
   if (i == n || (i == CG_NAME_MAX && name[i] != '\0'))
      VG_(strcpy)(out, "...");
   else
      *out = '\0';
}

void cg_parts_dump_request(Addr name)
{
   HChar trigger[4 * CG_NAME_MAX + 48];

   if (name == 0) {
      VG_(strcpy)(trigger, "Client Request");
   } else {
      VG_(strcpy)(trigger, "Client Request: ");
      cg_read_name(name, trigger + VG_(strlen)(trigger));
   }
   cg_dump(trigger);
}

VG_REGPARM(0) void cg_h_dump_tick(void)
{
   ULong ir = 0;

   cg_settle();
   for (CgThread *t = threads; t; t = t->next)
      ir += t->bank.ir;
   if (ir < cfg->dump_every) {
      cg_reset_budget(ir);
      return;
   }
   HChar trigger[48];
   VG_(sprintf)(trigger, "--dump-every=%llu", cfg->dump_every);
   cg_dump(trigger);
}

/*------------------------------------------------------------*/
/*--- Exit, exec, fork                                     ---*/
/*------------------------------------------------------------*/

/* Writes the plain profile to path; *tot gets its totals.  With
   --toggle-collect only its lines with counts: all the others ran
   outside the functions measured (or never ran). */
static Bool cg_plain_profile(const HChar *path, CgTotals *tot)
{
   if (cfg->n_toggle_collect == 0) {
      cg_fold_all();
      cg_cc_totals(tot);
      return cg_write_profile_file(path, tot, NULL);
   }
   struct cg_part_text part = { NULL, NULL, 0 };
   cg_settle();
   part.rows = cg_bank_rows(&running->bank, &part.n_rows, tot);
   Bool ok = cg_write_profile_file(path, tot, &part);
   VG_(free)(part.rows);
   return ok;
}

void cg_parts_fini(CgTotals *tot)
{
   HChar *base = cg_out_file_name();
   if (parts_on) {
      cg_write_part(base, False, "Program termination", True, NULL);
      *tot = run_tot;
   } else if (!cg_plain_profile(base, tot)) {
      stat_files_written = stat_fns_written = stat_lines_written = 0;
   }
   VG_(free)(base);
}

void cg_parts_print_summary(void)
{
   if (!parts_on)
      return;
   VG_(umsg)("\n");
   if (cfg->separate_threads)
      VG_(umsg)("Parts written: %u, as %u per-thread files\n", parts_written,
                files_written);
   else
      VG_(umsg)("Parts written: %u\n", files_written);
   if (files_failed)
      VG_(umsg)("Parts lost:    %u %s could not be written\n", files_failed,
                files_failed == 1 ? "file" : "files");
}

/* The pre-exec files just written, removed if the exec fails (an XArray
   of strings it owns), or NULL. */
static XArray *pre_exec_paths;
/* Whether the pre-exec profile fixed the output name (no file before
   it): a failed exec, which removes it, leaves the name free again. */
static Bool pre_exec_named;

/* The slot of VG_(args_for_valgrind) that holds the --part-base option
   this process added, or -1.  The core passes these options on at an
   exec (with --trace-children=yes). */
static Word part_base_arg = -1;

/* Makes the next image (after an exec) number its parts after n. */
static void cg_set_part_base_arg(ULong n)
{
   HChar *arg = VG_(malloc)("cg.parts.arg", 48);
   VG_(sprintf)(arg, "--part-base=%llu", n);
   cg_pass_on_arg(&part_base_arg, arg);
}

void cg_parts_pre_exec(void)
{
   pre_exec_named = !cg_out_file_named();
   HChar *base = cg_pre_exec_name();
   if (!base)
      return;
   /* A device or FIFO cannot take back what is written to it if the exec
      fails: what goes there is a part of the run, taken (its counts
      leave the banks), so that they are not written again after a
      failed exec; the run goes on in parts. */
   if (cg_out_is_special(base)) {
      cg_write_part(base, False, "exec", True, NULL);
      cg_set_part_base_arg(cg_part_number(0));
      VG_(free)(base);
      return;
   }
   pre_exec_paths = VG_(newXA)(VG_(malloc), "cg.parts.preexec", VG_(free),
                               sizeof(HChar *));
   if (parts_on) {
      cg_write_part(base, False, "exec", False, pre_exec_paths);
      cg_set_part_base_arg(cg_part_number(1));
      VG_(free)(base);
      return;
   }
   CgTotals tot;
   if (cg_plain_profile(base, &tot))
      VG_(addToXA)(pre_exec_paths, &base);
   else
      VG_(free)(base);
}

void cg_parts_exec_failed(void)
{
   if (pre_exec_paths == NULL)
      return;
   for (Word i = 0; i < VG_(sizeXA)(pre_exec_paths); i++) {
      HChar *path = *(HChar **)VG_(indexXA)(pre_exec_paths, i);
      VG_(unlink)(path);         /* (never a device: see above) */
      VG_(free)(path);
   }
   VG_(deleteXA)(pre_exec_paths);
   pre_exec_paths = NULL;
   if (pre_exec_named)
      cg_out_file_forget();
}

void cg_parts_atfork_child(ThreadId tid)
{
   part_base = parts_done = 0;
   VG_(memset)(&run_tot, 0, sizeof run_tot);
   files_written = files_failed = parts_written = 0;
   if (part_base_arg >= 0 || cfg->part_base != 0)
      cg_set_part_base_arg(0);
   if (!cfg->separate_threads)
      return;
   /* Only the thread that forked goes on in the child. */
   for (ThreadId i = 0; i < VG_N_THREADS; i++)
      if (i != tid && by_tid[i]) {
         by_tid[i]->alive = False;
         by_tid[i] = NULL;
      }
}

void cg_parts_init(const struct cg_config *config)
{
   cfg = config;
   part_base = cfg->part_base;
   /* A base passed on at an exec: the image before wrote parts, so the
      run is in parts, and this image's final profile is one too. */
   parts_on = cfg->separate_threads || cfg->dump_every > 0 || cfg->part_base > 0;
   cg_reset_budget(0);
   if (cfg->separate_threads) {
      by_tid = VG_(calloc)("cg.parts.bytid", VG_N_THREADS, sizeof *by_tid);
      running = by_tid[1] = cg_thread_new(++threads_created);
   } else {
      running = cg_thread_new(0);
   }
}
