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

       CACHEGRIND_ZERO_STATS;              -- forget what was counted
       ...the code to measure...
       CACHEGRIND_DUMP_STATS_AT("phase 1");  -- write it as a profile part

   Run with --instr-at-start=no to start with instrumentation off.  START
   and STOP are idempotent toggles (a redundant one only warns).  The
   requests have the names and meanings of Callgrind's (callgrind.h); the
   manual's chapter "Regions, phases and threads" describes them.  Outside
   Valgrind they cost a few instructions and do nothing.

   Not counted.  On amd64 and x86, with GCC or Clang, each request is one
   block of assembly that does all its own work (it saves and restores the
   registers it uses, builds the request's arguments on the stack and
   keeps the red zone intact) between two marker instructions: a 7-byte
   "nopl disp32(%eax)" whose displacement holds the sequence's length and
   "CG[" at the start, "CG]" at the end.  The tool finds the markers in the
   code it translates and counts nothing from the first to the last byte
   of the sequence, so a request costs no instruction, access or branch in
   any event count, and a region with an empty body measures exactly zero.
   The compiler emits nothing for a request outside the block: it sees a
   statement that changes no register and touches memory (so that it
   keeps loads and stores on their side of it).  Elsewhere the requests
   fall back to valgrind.h's sequence, which the tool counts like any
   other code. */

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
   VG_USERREQ__CG_STOP_INSTRUMENTATION,
   VG_USERREQ__CG_ZERO_STATS,
   VG_USERREQ__CG_DUMP_STATS,
   VG_USERREQ__CG_DUMP_STATS_AT
} Vg_CachegrindClientRequest;

/* The same codes as text, for the assembly below; checked against the
   enumeration. */
#define CG_CLREQ__START   "0x43470000"
#define CG_CLREQ__STOP    "0x43470001"
#define CG_CLREQ__ZERO    "0x43470002"
#define CG_CLREQ__DUMP    "0x43470003"
#define CG_CLREQ__DUMP_AT "0x43470004"
typedef char cg_clreq__codes_checked[
   VG_USERREQ__CG_START_INSTRUMENTATION == 0x43470000
   && VG_USERREQ__CG_DUMP_STATS_AT == 0x43470004 ? 1 : -1];

#define CG_CLREQ__STR(x) #x
#define CG_CLREQ__XSTR(x) CG_CLREQ__STR(x)

#if !defined(NVALGRIND) && defined(__GNUC__) \
    && (defined(__x86_64__) || defined(__i386__))

/* The markers: "nopl disp32(%eax)" (0f 1f 80), the length of the whole
   sequence in bytes (from label 8 to label 9), then "CG[" or "CG]". */
#define CG_CLREQ__BEGIN "8: .byte 0x0f,0x1f,0x80,9f-8b,0x43,0x47,0x5b\n\t"
#define CG_CLREQ__END   ".byte 0x0f,0x1f,0x80,9f-8b,0x43,0x47,0x5d\n9:\n\t"

/* The name of CACHEGRIND_DUMP_STATS_AT: a string literal placed in the
   read-only data by the assembler, at label 3. */
#define CG_CLREQ__NAME(name)                                              \
   ".pushsection .rodata.str1.1,\"aMS\",@progbits,1\n"                     \
   "3: .asciz " CG_CLREQ__XSTR(name) "\n\t.popsection\n\t"

#if defined(__x86_64__)
/* Below the red zone: leaf functions may keep data in the 128 bytes
   under %rsp.  The six arguments are pushed last to first; %rax points at
   them, %rdx receives the (unused) result. */
#define CG_CLREQ__SEQ(code, arg1_push)                                    \
   CG_CLREQ__BEGIN                                                         \
   "lea -128(%rsp),%rsp\n\tpush %rax\n\tpush %rdx\n\t"                    \
   "push $0\n\tpush $0\n\tpush $0\n\tpush $0\n\t"                          \
   arg1_push                                                               \
   "push $" code "\n\tmov %rsp,%rax\n\t"                                   \
   "rolq $3,%rdi\n\trolq $13,%rdi\n\trolq $61,%rdi\n\trolq $51,%rdi\n\t"   \
   "xchgq %rbx,%rbx\n\t"                                                   \
   "lea 48(%rsp),%rsp\n\tpop %rdx\n\tpop %rax\n\tlea 128(%rsp),%rsp\n\t"  \
   CG_CLREQ__END
#define CG_CLREQ__PUSH_NAME "lea 3b(%rip),%rax\n\tpush %rax\n\t"
#else
#define CG_CLREQ__SEQ(code, arg1_push)                                    \
   CG_CLREQ__BEGIN                                                         \
   "push %eax\n\tpush %edx\n\t"                                            \
   "push $0\n\tpush $0\n\tpush $0\n\tpush $0\n\t"                          \
   arg1_push                                                               \
   "push $" code "\n\tmov %esp,%eax\n\t"                                   \
   "roll $3,%edi\n\troll $13,%edi\n\troll $29,%edi\n\troll $19,%edi\n\t"   \
   "xchgl %ebx,%ebx\n\t"                                                   \
   "lea 24(%esp),%esp\n\tpop %edx\n\tpop %eax\n\t"                         \
   CG_CLREQ__END
#if defined(__PIC__) || defined(__PIE__)
/* Position-independent: the address of the name from the address of the
   next instruction. */
#define CG_CLREQ__PUSH_NAME                                               \
   "call 1f\n1:\tpop %eax\n\tlea 3b-1b(%eax),%eax\n\tpush %eax\n\t"
#else
#define CG_CLREQ__PUSH_NAME "push $3b\n\t"
#endif
#endif

/* One request: a plain asm statement (its text may hold the user's name,
   in which "%" must stay as it is), fenced by two empty statements that
   clobber memory, so that no load or store moves across it.  A statement
   expression rather than "do ... while (0)", for which compilers emit a
   jump at -O0 (clang does). */
#define CG_CLREQ__DO(text)                                                \
   __extension__ ({                                                        \
      __asm__ __volatile__("" : : : "memory");                             \
      __asm__ __volatile__(text);                                          \
      __asm__ __volatile__("" : : : "memory");                             \
   })

#define CG_CLREQ__PLAIN(code) CG_CLREQ__DO(CG_CLREQ__SEQ(code, "push $0\n\t"))

/* name must be one string literal (or a macro that expands to one): it
   becomes part of the program's read-only data, so that passing it costs
   no instruction.  The sizeof() line stops anything else with an error
   there.  The assembler reads the literal: GNU as drops the backslash of
   \a, \e, \?, \u and \U, Clang's assembler refuses them (and literals
   side by side); write such characters in octal. */
#define CG_CLREQ__NAMED(code, name)                                       \
   __extension__ ({                                                        \
      (void)sizeof("" name "");                                            \
      CG_CLREQ__DO(CG_CLREQ__NAME(name)                                    \
                   CG_CLREQ__SEQ(code, CG_CLREQ__PUSH_NAME));              \
   })

#else  /* another compiler or architecture, or NVALGRIND: valgrind.h's */

#define CG_CLREQ__PLAIN(code) CG_CLREQ__FALLBACK(code, 0)
#define CG_CLREQ__NAMED(code, name) CG_CLREQ__FALLBACK(code, name)
#define CG_CLREQ__FALLBACK(code, arg1)                                    \
   VALGRIND_DO_CLIENT_REQUEST_STMT(code, arg1, 0, 0, 0, 0)

#endif

#if !defined(CG_CLREQ__SEQ)
/* valgrind.h's sequence takes the codes as numbers. */
#undef CG_CLREQ__START
#undef CG_CLREQ__STOP
#undef CG_CLREQ__ZERO
#undef CG_CLREQ__DUMP
#undef CG_CLREQ__DUMP_AT
#define CG_CLREQ__START   VG_USERREQ__CG_START_INSTRUMENTATION
#define CG_CLREQ__STOP    VG_USERREQ__CG_STOP_INSTRUMENTATION
#define CG_CLREQ__ZERO    VG_USERREQ__CG_ZERO_STATS
#define CG_CLREQ__DUMP    VG_USERREQ__CG_DUMP_STATS
#define CG_CLREQ__DUMP_AT VG_USERREQ__CG_DUMP_STATS_AT
#endif

/* Start counting; discards all translations so that code runs instrumented. */
#define CACHEGRIND_START_INSTRUMENTATION CG_CLREQ__PLAIN(CG_CLREQ__START)

/* Stop counting; counts gathered so far are kept. */
#define CACHEGRIND_STOP_INSTRUMENTATION CG_CLREQ__PLAIN(CG_CLREQ__STOP)

/* Forget every count gathered since the start or the last dump: they go
   into no profile part and no total. */
#define CACHEGRIND_ZERO_STATS CG_CLREQ__PLAIN(CG_CLREQ__ZERO)

/* Write what was counted since the start or the last dump as a profile
   part of its own, the next numbered file beside the output file, and
   start counting from zero. */
#define CACHEGRIND_DUMP_STATS CG_CLREQ__PLAIN(CG_CLREQ__DUMP)

/* The same, with name (a string literal) in the part's header. */
#define CACHEGRIND_DUMP_STATS_AT(name) CG_CLREQ__NAMED(CG_CLREQ__DUMP_AT, name)

#endif /* CACHEGRIND_H */
