/* cg_collect.c -- --toggle-collect: count only while execution is inside matching functions; call and return tracking.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   cg_collect.h describes the model. */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"

#include "cg_collect.h"
#include "cg_config.h"
#include "cg_glob.h"

#define CG_NO_FRAME (~(UWord)0)

/* The options; set by cg_collect_init. */
static const struct cg_config *cfg;

UWord cg_collecting = 1;
UWord cg_collect_limit = CG_NO_FRAME;

/* The saved states of a thread's signal handlers that have not returned,
   innermost last.  A handler that leaves with longjmp never returns: its
   entry stays, below the later ones, and the oldest are dropped when the
   stack is full (nothing can return to them). */
#define CG_SIG_DEPTH 32

/* The state of one thread.  Key: the core's thread id; owner: threads[]
   below.  The running thread's limit and counting are in the globals,
   not here. */
typedef struct {
   UWord limit, collecting;
   UInt n_saved;
   struct {
      UWord limit, collecting;
   } saved[CG_SIG_DEPTH];
} CgCollectThread;

static CgCollectThread *threads;   /* VG_N_THREADS entries */
static ThreadId running_tid = 1;

void cg_collect_init(const struct cg_config *config)
{
   cfg = config;
   if (cfg->n_toggle_collect == 0)
      return;
   cg_collecting = 0;
   threads = VG_(calloc)("cg.collect.threads", VG_N_THREADS,
                         sizeof *threads);
   for (UInt i = 0; i < VG_N_THREADS; i++)
      threads[i].limit = CG_NO_FRAME;
}

Bool cg_collect_is_entry(Addr addr)
{
   const HChar *name;
   if (!VG_(get_fnname_if_entry)(VG_(current_DiEpoch)(), addr, &name))
      return False;
   for (UInt i = 0; i < cfg->n_toggle_collect; i++)
      if (cg_glob_match(cfg->toggle_collect[i], name))
         return True;
   return False;
}

VG_REGPARM(1) void cg_h_collect_enter(UWord sp)
{
   if (cg_collect_limit != CG_NO_FRAME)
      return;
   cg_collect_limit = sp;
   cg_collecting = 1;
}

VG_REGPARM(1) void cg_h_collect_sp(UWord sp)
{
   if (sp <= cg_collect_limit)
      return;
   cg_collect_limit = CG_NO_FRAME;
   cg_collecting = 0;
}

/* The state of tid: the globals if it runs, else its record. */
static void cg_get_state(ThreadId tid, UWord *limit, UWord *collecting)
{
   if (tid == running_tid) {
      *limit = cg_collect_limit;
      *collecting = cg_collecting;
   } else {
      *limit = threads[tid].limit;
      *collecting = threads[tid].collecting;
   }
}

static void cg_set_state(ThreadId tid, UWord limit, UWord collecting)
{
   if (tid == running_tid) {
      cg_collect_limit = limit;
      cg_collecting = collecting;
   } else {
      threads[tid].limit = limit;
      threads[tid].collecting = collecting;
   }
}

void cg_collect_thread_created(ThreadId parent, ThreadId child)
{
   if (cfg->n_toggle_collect == 0 || parent == VG_INVALID_THREADID)
      return;
   tl_assert(child < VG_N_THREADS && child != running_tid);
   threads[child].limit = CG_NO_FRAME;
   threads[child].collecting = 0;
   threads[child].n_saved = 0;
}

void cg_collect_thread_running(ThreadId tid)
{
   if (cfg->n_toggle_collect == 0 || tid == running_tid)
      return;
   tl_assert(tid < VG_N_THREADS);
   threads[running_tid].limit = cg_collect_limit;
   threads[running_tid].collecting = cg_collecting;
   running_tid = tid;
   cg_collect_limit = threads[tid].limit;
   cg_collecting = threads[tid].collecting;
}

void cg_collect_thread_exited(ThreadId tid)
{
   if (cfg->n_toggle_collect == 0)
      return;
   cg_set_state(tid, CG_NO_FRAME, 0);
   threads[tid].n_saved = 0;
}

void cg_collect_signal_delivered(ThreadId tid, Int sig, Bool alt_stack)
{
   CgCollectThread *t = &threads[tid];
   if (t->n_saved == CG_SIG_DEPTH) {
      VG_(memmove)(&t->saved[0], &t->saved[1],
                   (CG_SIG_DEPTH - 1) * sizeof t->saved[0]);
      t->n_saved--;
   }
   cg_get_state(tid, &t->saved[t->n_saved].limit,
                &t->saved[t->n_saved].collecting);
   t->n_saved++;
}

void cg_collect_signal_returned(ThreadId tid, Int sig)
{
   CgCollectThread *t = &threads[tid];
   if (t->n_saved == 0)
      return;
   t->n_saved--;
   cg_set_state(tid, t->saved[t->n_saved].limit,
                t->saved[t->n_saved].collecting);
}
