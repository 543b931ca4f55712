/* cachegrind.h -- client requests of the cachegrind-ng Cachegrind tool.
   Copyright (C) 2026 the cachegrind-ng developers.

   SPDX-License-Identifier: BSD-2-Clause
   Unlike the rest of cachegrind-ng (GPL-2.0-or-later), this header is under
   the 2-clause BSD licence so that programs of any licence may include it:

   Redistribution and use in source and binary forms, with or without
   modification, are permitted provided that the following conditions are
   met:
   1. Redistributions of source code must retain the above copyright
      notice, this list of conditions and the following disclaimer.
   2. Redistributions in binary form must reproduce the above copyright
      notice, this list of conditions and the following disclaimer in the
      documentation and/or other materials provided with the distribution.
   THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS
   IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO,
   THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR
   PURPOSE ARE DISCLAIMED.  IN NO EVENT SHALL THE COPYRIGHT HOLDER OR
   CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL,
   EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO,
   PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR
   PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF
   LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING
   NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS
   SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.

   Use:
       #include <valgrind/cachegrind.h>
       CACHEGRIND_STOP_INSTRUMENTATION;    -- stop counting from here
       ...uninteresting set-up...
       CACHEGRIND_START_INSTRUMENTATION;   -- count again from here

   Run with --instr-at-start=no to start with instrumentation off.  Both
   requests are idempotent toggles (a redundant one only warns); outside
   Valgrind they cost a few instructions and do nothing. */

#ifndef CACHEGRIND_H
#define CACHEGRIND_H

/* valgrind.h sits beside this file in a Valgrind installation, or under
   <valgrind/> when this header is installed in a different prefix. */
#if defined(__has_include)
#  if __has_include("valgrind.h")
#    include "valgrind.h"
#  else
#    include <valgrind/valgrind.h>
#  endif
#else
#  include <valgrind/valgrind.h>
#endif

/* The request codes are ABI: the order is fixed, new codes are appended. */
typedef enum {
   VG_USERREQ__CG_START_INSTRUMENTATION = VG_USERREQ_TOOL_BASE('C', 'G'),
   VG_USERREQ__CG_STOP_INSTRUMENTATION
} Vg_CachegrindClientRequest;

/* Start counting; discards all translations so that code runs instrumented. */
#define CACHEGRIND_START_INSTRUMENTATION                                  \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__CG_START_INSTRUMENTATION, \
                                   0, 0, 0, 0, 0)

/* Stop counting; counts gathered so far are kept. */
#define CACHEGRIND_STOP_INSTRUMENTATION                                   \
   VALGRIND_DO_CLIENT_REQUEST_STMT(VG_USERREQ__CG_STOP_INSTRUMENTATION,  \
                                   0, 0, 0, 0, 0)

#endif /* CACHEGRIND_H */
