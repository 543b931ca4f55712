/* cg_collect.h -- --toggle-collect: count only while execution is inside matching functions; call and return tracking.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Notes
   -----
   With --toggle-collect=<pattern> (repeatable; * and ? are wildcards,
   and the whole function name, as the profile shows it, must match),
   counting is off except while execution is inside a function that
   matches, callees included.  Instrumentation stays on everywhere, and
   the simulated caches and predictors see every access, as Callgrind's
   do: a function measured this way finds the caches as the code before
   it left them.  Only the counts are gated (cg_instrument.c: every count
   and miss of a group goes to a sink while cg_collecting is 0).

   Inside is a matter of the stack.  When a matching function is entered
   (its first instruction, found in the debug info at translation time)
   and no matching frame is active, the stack pointer there -- pointing
   at the return address -- becomes the thread's limit, and counting
   starts.  The function and everything it calls run with the stack
   pointer at or below the limit; at the start of every block the emitted
   code compares them, and once the stack pointer is above the limit the
   frame is gone, however it went:
      a return          the caller's block starts 1 word above the limit;
      longjmp           it restores the stack pointer of the setjmp,
                        which is above: the target's block stops counting;
      C++ exceptions    the unwinder runs as a callee, then jumps to the
                        landing pad with the catching frame's stack
                        pointer: above, unless the catch is inside;
      tail calls        a matching function that jumps to another runs
                        it in its own frame: still inside, until that one
                        returns; a function jumped to with a tail call is
                        entered like any other;
      recursion         only the outermost frame counts: inner entries
                        find a frame active and change nothing.
   A signal handler runs on the stack of the code it interrupts, below
   it: inside if that code was.  The state is saved when a signal is
   delivered and restored when its handler returns, so that a handler
   on an alternate stack (sigaltstack) above the frame, which looks like a
   return, cannot end the frame for the code it interrupted; it is not
   counted, though.  A handler that leaves with longjmp is a longjmp.
   Every thread has its own state (a new thread starts outside); the
   globals below are the running thread's, swapped at thread switches. */

#ifndef CG_COLLECT_H
#define CG_COLLECT_H

#include "pub_tool_basics.h"

#include "cg_config.h"

/* Whether the running thread counts now (1 or 0): the code emitted with
   --toggle-collect reads it. */
extern UWord cg_collecting;
/* The running thread's limit: the stack pointer at the entry of its
   outermost matching frame, or the largest UWord when there is none.  The
   code emitted at the start of each block calls cg_h_collect_sp when the
   stack pointer is above it. */
extern UWord cg_collect_limit;

/* Keeps config (read-only); counting starts off if patterns are given. */
void cg_collect_init(const struct cg_config *config);

/* Whether addr is the first instruction of a function whose name matches
   a --toggle-collect pattern (asked at translation time). */
Bool cg_collect_is_entry(Addr addr);

/* The run-time helpers: a matching function is entered with this stack
   pointer (called only while no matching frame is active); the stack
   pointer is above the limit (the frame is gone). */
VG_REGPARM(1) void cg_h_collect_enter(UWord sp);
VG_REGPARM(1) void cg_h_collect_sp(UWord sp);

/* Threads and signals (each thread has its own state). */
void cg_collect_thread_created(ThreadId parent, ThreadId child);
void cg_collect_thread_running(ThreadId tid);
void cg_collect_thread_exited(ThreadId tid);
void cg_collect_signal_delivered(ThreadId tid, Int sig, Bool alt_stack);
void cg_collect_signal_returned(ThreadId tid, Int sig);

#endif /* CG_COLLECT_H */
