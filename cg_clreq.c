/* cg_clreq.c -- the marked request sequences of cachegrind.h, whose instructions are counted in no event.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The layout is described in cg_clreq.h; cachegrind.h writes it. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_vki.h"

#include "cg_clreq.h"
#include "cg_objects.h"

#define CG_MARK_LEN 7
#define CG_PAGE 4096
#define CG_SEQ_MAX 255           /* a sequence's length fits its byte */

/* Valgrind's magic sequence (valgrind.h's preamble, then the request's
   xchg), which every request sequence holds: a pair of markers without it
   is no request, and the code between them is counted. */
#if defined(VGA_amd64)
static const UChar cg_magic[] = {
   0x48, 0xc1, 0xc7, 0x03, 0x48, 0xc1, 0xc7, 0x0d,   /* rolq $3, $13 */
   0x48, 0xc1, 0xc7, 0x3d, 0x48, 0xc1, 0xc7, 0x33,   /* rolq $61, $51 */
   0x48, 0x87, 0xdb                                  /* xchgq %rbx,%rbx */
};
#else
static const UChar cg_magic[] = {
   0xc1, 0xc7, 0x03, 0xc1, 0xc7, 0x0d,               /* roll $3, $13 */
   0xc1, 0xc7, 0x1d, 0xc1, 0xc7, 0x13,               /* roll $29, $19 */
   0x87, 0xdb                                        /* xchgl %ebx,%ebx */
};
#endif

/* Whether a marker of the given kind ('[' or ']') is at p, and then its
   length field. */
static Bool cg_marker_at(const UChar *p, UChar kind, UInt *len)
{
   if (p[0] != 0x0f || p[1] != 0x1f || p[2] != 0x80 || p[4] != 'C'
       || p[5] != 'G' || p[6] != kind)
      return False;
   *len = p[3];
   return True;
}

/* The end of the sequence whose start marker is at start, or 0.  The
   start marker's bytes are known (at p); the rest of the sequence is
   copied from the client (cg_client_copy: a page may be readable by its
   protection and still fault, as a file mapping past the file's end). */
static Addr cg_seq_from(Addr start, const UChar *p)
{
   UInt len, end_len;
   UChar seq[CG_SEQ_MAX];
   if (!cg_marker_at(p, '[', &len) || len < 2 * CG_MARK_LEN + sizeof cg_magic
       || start + len < start
       || cg_client_copy(start, seq, len) != len
       || !cg_marker_at(seq + len - CG_MARK_LEN, ']', &end_len)
       || end_len != len)
      return 0;
   for (UInt i = CG_MARK_LEN; i + sizeof cg_magic <= len - CG_MARK_LEN; i++)
      if (VG_(memcmp)(seq + i, cg_magic, sizeof cg_magic) == 0)
         return start + len;
   return 0;
}

Addr cg_clreq_seq_end(Addr addr, UInt len, Bool look_back)
{
   UChar win[CG_SEQ_MAX + CG_MARK_LEN];
   if (!look_back)
      /* The instruction's own bytes, which VEX has just read. */
      return len == CG_MARK_LEN ? cg_seq_from(addr, (const UChar *)addr) : 0;
   /* The bytes from at most 255 before addr to the end of a marker at
      addr.  Within addr's page, which VEX has just read, they are read
      as they are (most blocks); otherwise copied from the client: from
      the page before addr's when it can be read, else from addr's page. */
   Addr lo = addr >= CG_SEQ_MAX ? addr - CG_SEQ_MAX : 0;
   Addr page = addr & ~(Addr)(CG_PAGE - 1);
   SizeT want = addr + CG_MARK_LEN - lo;
   SizeT got;
   if (lo >= page && addr + CG_MARK_LEN <= page + CG_PAGE) {
      VG_(memcpy)(win, (const void *)lo, want);
      got = want;
   } else {
      got = cg_client_copy(lo, win, want);
   }
   if (got <= addr - lo && lo < page) {
      lo = page;
      want = addr + CG_MARK_LEN - lo;
      got = cg_client_copy(lo, win, want);
   }
   for (Addr start = addr + 1; start > lo; ) {
      start--;
      SizeT at = start - lo;
      /* The cheapest test first: the marker's last byte. */
      if (at + CG_MARK_LEN > got || win[at + CG_MARK_LEN - 1] != '[')
         continue;
      Addr end = cg_seq_from(start, win + at);
      if (end > addr)
         return end;
   }
   return 0;
}
