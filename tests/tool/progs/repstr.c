/* repstr.c -- rep-prefixed string instructions through inline assembly.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   VEX runs a rep instruction as one guest instruction per iteration, each
   ending in a conditional side exit: many Ir and (branch-sim) Bc per
   instruction address. */

#include <stddef.h>
#include <stdio.h>
#include "cgt.h"

static unsigned char a[8192];
static unsigned char b[8192];

NOINLINE static void rep_movsb(void *d, const void *s, size_t n)
{
   __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

NOINLINE static void rep_stosb(void *d, int c, size_t n)
{
   __asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
}

/* Word-sized moves: movsq on amd64, movsl on x86. */
NOINLINE static void rep_movsw(void *d, const void *s, size_t nwords)
{
#if defined(__x86_64__)
   __asm__ volatile("rep movsq" : "+D"(d), "+S"(s), "+c"(nwords) : : "memory");
#else
   __asm__ volatile("rep movsl" : "+D"(d), "+S"(s), "+c"(nwords) : : "memory");
#endif
}

/* repe cmpsb: stops at the first difference; returns bytes left. */
NOINLINE static size_t repe_cmpsb(const void *x, const void *y, size_t n)
{
   __asm__ volatile("repe cmpsb" : "+D"(x), "+S"(y), "+c"(n) : : "memory", "cc");
   return n;
}

int main(void)
{
   unsigned long s = 0;

   for (size_t i = 0; i < sizeof a; i++)
      a[i] = (unsigned char)(i * 13);
   for (size_t n = 1; n < 4000; n += 211) {
      rep_movsb(b + 1, a + 3, n);
      s += b[n / 2];
      rep_stosb(b + 5, (int)(n & 0xff), n);
      s += b[5 + n / 3];
      rep_movsw(b, a, n / sizeof(size_t) + 1);
      s += b[n / 4];
   }
   b[3000] ^= 1;
   s += repe_cmpsb(a, b, 4000);
   printf("repstr: %lu\n", s);
   return 0;
}
