/* cg_clreq.c -- the marked request sequences of cachegrind.h, whose instructions are counted in no event.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The layout is described in cg_clreq.h; cachegrind.h writes it. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_vki.h"

#include "cg_clreq.h"

#define CG_MARK_LEN 7
#define CG_PAGE 4096

/* Whether the client may read [a, a + len). */
static Bool cg_readable(Addr a, SizeT len)
{
   return a + len > a
          && VG_(am_is_valid_for_client)(a, len, VKI_PROT_READ);
}

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

/* The end of the sequence whose start marker is at start, or 0. */
static Addr cg_seq_from(Addr start)
{
   UInt len, end_len;
   if (!cg_readable(start, CG_MARK_LEN)
       || !cg_marker_at((const UChar *)start, '[', &len)
       || len < 2 * CG_MARK_LEN)
      return 0;
   Addr end_mark = start + len - CG_MARK_LEN;
   if (!cg_readable(end_mark, CG_MARK_LEN)
       || !cg_marker_at((const UChar *)end_mark, ']', &end_len)
       || end_len != len)
      return 0;
   return start + len;
}

Addr cg_clreq_seq_end(Addr addr, UInt len, Bool look_back)
{
   Addr end = len == CG_MARK_LEN ? cg_seq_from(addr) : 0;
   if (end || !look_back)
      return end;
   /* Look back at most 255 bytes, within readable pages. */
   Addr lo = addr >= 255 ? addr - 255 : 0;
   Addr page = addr & ~(Addr)(CG_PAGE - 1);
   if (lo < page && !cg_readable(lo, page - lo))
      lo = page;
   for (Addr start = addr; start > lo; ) {
      start--;
      /* The cheapest test first: the marker's last byte (known readable
         when the marker ends before addr). */
      if (start + CG_MARK_LEN <= addr
          && ((const UChar *)start)[CG_MARK_LEN - 1] != '[')
         continue;
      end = cg_seq_from(start);
      if (end > addr)
         return end;
   }
   return 0;
}
