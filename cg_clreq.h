/* cg_clreq.h -- the marked request sequences of cachegrind.h, whose instructions are counted in no event.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Notes
   -----
   On amd64 and x86, cachegrind.h makes each client request one block of
   assembly that does all its own work -- saving registers, building the
   arguments, Valgrind's magic sequence, restoring -- between two
   markers, 7-byte no-ops "nopl disp32(%eax)" (0f 1f 80) whose
   displacement holds the length L of the whole sequence and "CG[" at its
   start, "CG]" at its end:

      0f 1f 80 L 43 47 5b   ...   0f 1f 80 L 43 47 5d
      ^ the sequence starts here         it ends L bytes after its start ^

   Every instruction from the first byte of the start marker to the last
   byte of the end marker belongs to the request, and the instrumenter
   counts none of them: no Ir, no data access, no branch, no line cost
   centre.  A block of code may start anywhere inside a sequence (after
   the magic sequence, which ends a block, or where VEX cut a long block),
   so the first instruction of a block is also looked up backwards: a
   start marker at most 255 bytes before it whose sequence covers it.
   Both markers must be present, with the same length, and Valgrind's
   magic sequence between them, for a sequence to count as one: two
   no-ops of that shape exactly L bytes apart around other code are no
   request, and that code is counted.  Only readable client memory is
   ever looked at, and outside the page of the instruction (which VEX has
   just read) only through cg_client_copy: a page may be readable by its
   protection and still fault when read, as the page of a file mapping
   past the file's end (the tool died of SIGBUS). */

#ifndef CG_CLREQ_H
#define CG_CLREQ_H

#include "pub_tool_basics.h"

/* The end (the address after its last byte) of the request sequence that
   the instruction at addr, of len bytes, starts (it is a start marker),
   or, with look_back, any that it lies in; 0 if none.  Only an
   instruction of a marker's length can be one, so the others cost no
   look at memory unless look_back. */
Addr cg_clreq_seq_end(Addr addr, UInt len, Bool look_back);

#endif /* CG_CLREQ_H */
