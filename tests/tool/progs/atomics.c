/* atomics.c -- locked read-modify-write instructions and CAS of 4, 8, 16 B.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   A compare-and-swap is one data access of the combined size (a Dr after
   read-modify-write merging); the 16-byte CAS needs -mcx16 on amd64 and
   the 8-byte one is cmpxchg8b on x86. */

#include <stdio.h>
#include "cgt.h"

static int counter32;
static long long counter64;
static unsigned cas32;
static unsigned long long cas64;
#if defined(__x86_64__) && defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)
static unsigned __int128 cas128 __attribute__((aligned(16)));
#endif

NOINLINE static long fetch_adds(int n)
{
   long s = 0;

   for (int i = 0; i < n; i++) {
      s += __atomic_fetch_add(&counter32, i & 7, __ATOMIC_SEQ_CST);
      __atomic_fetch_or(&counter32, 1, __ATOMIC_RELAXED);
      s += __atomic_exchange_n(&counter32, (int)(s & 0xffff), __ATOMIC_ACQ_REL);
      __sync_fetch_and_add(&counter64, 3);
   }
   return s;
}

NOINLINE static long cas_loops(int n)
{
   long fails = 0;

   for (int i = 0; i < n; i++) {
      unsigned old = cas32;

      if (__sync_val_compare_and_swap(&cas32, old, old + 3) != old)
         fails++;
      if (__sync_val_compare_and_swap(&cas32, old, 0) == old)
         fails += 100;                 /* never: the value changed */
      unsigned long long old64 = cas64;
      if (!__sync_bool_compare_and_swap(&cas64, old64, old64 * 3 + 1))
         fails++;
#if defined(__x86_64__) && defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)
      unsigned __int128 old128 = cas128;
      if (__sync_val_compare_and_swap(&cas128, old128, old128 + 5) != old128)
         fails++;
#endif
   }
   return fails;
}

int main(void)
{
   long s = fetch_adds(3000);
   long fails = cas_loops(3000);

   printf("atomics: %ld %d %lld %u %llu fails %ld\n", s, counter32, counter64,
          cas32, cas64, fails);
#if defined(__x86_64__) && defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16)
   printf("atomics: cas128 %llu\n", (unsigned long long)cas128);
#endif
   return 0;
}
