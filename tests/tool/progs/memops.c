/* memops.c -- memcpy, memmove, memset, memcmp at odd sizes and offsets.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Unaligned accesses that straddle cache lines, and libc's size-dependent
   copy strategies, from a few bytes up to a few pages. */

#include <stdio.h>
#include <string.h>
#include "cgt.h"

static unsigned char src[20000];
static unsigned char dst[20000];

NOINLINE static unsigned long copies(void)
{
   unsigned long s = 0;

   for (size_t size = 1; size < 700; size += 13)
      for (size_t off = 1; off < 16; off += 3) {
         memcpy(dst + off, src + (off * 5) % 17, size);
         s += dst[off + size / 2];
      }
   for (size_t size = 4097; size < 16000; size += 2999) {
      memcpy(dst + 3, src + 1, size);
      s += dst[size];
   }
   return s;
}

NOINLINE static unsigned long moves(void)
{
   unsigned long s = 0;

   for (size_t size = 3; size < 3000; size += 101) {
      memmove(dst + 7, dst + 1, size);      /* overlapping, backwards */
      memmove(dst + 2, dst + 9, size);      /* overlapping, forwards */
      s += dst[size / 3];
   }
   return s;
}

NOINLINE static unsigned long fills(void)
{
   unsigned long s = 0;

   for (size_t size = 5; size < 5000; size += 77) {
      memset(dst + (size & 15), (int)(size & 0xff), size);
      s += (unsigned long)memcmp(dst + 1, src + 1, size) != 0;
      s += dst[size / 2];
   }
   return s;
}

int main(void)
{
   unsigned seed = 4242;

   for (size_t i = 0; i < sizeof src; i++)
      src[i] = (unsigned char)cgt_rand(&seed);
   printf("memops: %lu %lu %lu\n", copies(), moves(), fills());
   return 0;
}
