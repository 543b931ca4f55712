/* cg_parts.h -- profile parts: zero and dump requests, --dump-every, per-thread profiles, the files written at exit and before an exec.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Notes
   -----
   Plain profile or parts.  Without a dump request, --dump-every and
   --separate-threads, a run writes one plain profile, exactly as the
   reference does: every line cost centre (zeros included) at exit, and
   before an exec the pre-exec profile.  Otherwise it writes *parts*.  A
   part holds what was counted since the previous part (or the start, or
   the last zero request), as a complete profile of its own whose header
   has these desc: lines after the caches' (upstream's companions accept
   and show any desc: line):

      desc: Part: 2
      desc: Thread: 3                    (--separate-threads=yes only)
      desc: Trigger: Client Request: phase 1

   Part k goes to "<output file>.<k>"; the final part, written at exit,
   to "<output file>" itself; with --separate-threads=yes each thread
   has its own file of each part, the name followed by "-<NN>" (NN: the
   thread's number, 01 for the main thread, then in creation order, two
   digits at least).  A part lists only the lines with a non-zero count.
   The parts of a run add up exactly to the totals it prints: what a zero
   request discards is in neither.  The triggers are "Client Request"
   (CACHEGRIND_DUMP_STATS), "Client Request: <name>" (..._AT(name), the
   name's backslashes and control characters escaped as \\ and \xHH, cut
   at 256 bytes), "--dump-every=<N>", "exec" and "Program termination".

   Counts on their way to a part.  The live counters (the line cost
   centres of cg_cc and the group counts of cg_blocks) count for the
   thread that runs.  A *bank* holds counts taken out of them: settling
   folds the groups, adds every non-zero line to the bank of the thread
   whose counts the live counters hold, and zeroes it.  With
   --separate-threads=yes every thread has a bank, settled whenever
   another thread starts running; otherwise one bank stands for the
   process.  A part settles, writes every bank that has counts (and the
   running thread's, even empty) and empties it.

   Exec.  Before an exec, the image's counts since its last part are
   written as a part to "<output file>.pre-exec.<k>" (cg_output.c names
   it), without emptying anything: if the exec fails, the files are
   removed and the process goes on as if nothing happened.  The next image
   numbers its parts after that one: the tool adds --part-base=<n> to the
   options the core passes on.  A forked child numbers its parts from 1
   again (its files have names of their own). */

#ifndef CG_PARTS_H
#define CG_PARTS_H

#include "pub_tool_basics.h"

#include "cg_cc.h"
#include "cg_config.h"

/* Keeps config (read-only); the main thread is thread 1. */
void cg_parts_init(const struct cg_config *config);

/* CACHEGRIND_ZERO_STATS: discards every count gathered since the last
   part, in every thread. */
void cg_parts_zero(void);

/* CACHEGRIND_DUMP_STATS (name 0) and CACHEGRIND_DUMP_STATS_AT (name: the
   client's address of a NUL-terminated string; an unreadable one is
   shown as such). */
void cg_parts_dump_request(Addr name);

/* The instruction budget of --dump-every, which the emitted code
   decrements by the instructions of each block it starts; when it would
   go below a block's count, the block calls cg_h_dump_tick first. */
extern UWord cg_dump_budget;
VG_REGPARM(0) void cg_h_dump_tick(void);

/* Scheduler and thread events (for --separate-threads=yes). */
void cg_parts_thread_created(ThreadId parent, ThreadId child);
void cg_parts_thread_running(ThreadId tid, ULong blocks_dispatched);
void cg_parts_thread_exited(ThreadId tid);

/* Writes what is due at exit: the plain profile, or the final part; *tot
   gets the totals to print (the run's: every part's added up). */
void cg_parts_fini(CgTotals *tot);
/* After the totals, in the end-of-run summary: how many parts were
   written (nothing for a plain profile). */
void cg_parts_print_summary(void);

/* Around exec: the pre-exec profile or part; removed if the exec fails. */
void cg_parts_pre_exec(void);
void cg_parts_exec_failed(void);

/* In a forked child: its parts are numbered from 1, its totals are its
   own, and its threads other than the one that forked are gone. */
void cg_parts_atfork_child(ThreadId tid);

#endif /* CG_PARTS_H */
