/* cg_host.h -- what the plain-C modules (cg_sim, cg_arch, cg_branchpred) need from their host.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The plain-C modules are compiled both into the tool, on the Valgrind
   core, and into host unit tests, on libc.  They include nothing but
   compiler headers and this file, which names the little they need from
   whichever program they are part of (Lua's luaconf.h habit).  Each
   program implements these functions once: the tool in cg_main.c, with
   the core's message and panic functions; the unit tests in the test of
   the module that calls them, where they record what was asked. */

#ifndef CG_HOST_H
#define CG_HOST_H

#include <stdint.h>

/* A guest address.  Guest and host words have the same size (the tool
   panics otherwise), so the host word is wide enough. */
typedef uintptr_t cg_addr_t;

/* CG_MSG_USER lines are user messages (the tool prints them with the
   core's user message function, "==PID== " prefix), CG_MSG_DEBUG lines
   debug messages (its debug message function, "--PID-- " prefix; shown
   even with -q, as upstream does).  CG_MSG_NOTE lines are debug messages
   that only say what was detected and how it is used (the level taken as
   LL, the LL adjustment, a Pentium 4 trace cache): the tool prints them
   like CG_MSG_DEBUG but leaves them out with -q, where upstream prints
   them.  Warnings that the results may mislead (no LL, the defaults used)
   stay CG_MSG_DEBUG. */
enum cg_msg_level { CG_MSG_USER, CG_MSG_DEBUG, CG_MSG_NOTE };

/* Prints one complete message line; line has no trailing newline and is
   only valid during the call.  Used by cg_arch. */
void cg_host_message(enum cg_msg_level level, const char *line);

/* Called by cg_sim when one access touches more than two lines, which
   validated configurations only allow in corner cases (an access of size
   0 at a line start, or an access longer than a line plus one).  Never
   returns: the tool prints "addr: <hex>  size: <u>  blocks: <u> <u>" and
   panics with "item straddles more than two cache sets"; the unit tests
   record the call and longjmp. */
void cg_host_straddle_panic(cg_addr_t addr, unsigned size,
                            cg_addr_t first_block, cg_addr_t last_block)
   __attribute__((noreturn));

#endif /* CG_HOST_H */
