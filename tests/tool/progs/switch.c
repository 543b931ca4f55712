/* switch.c -- a dense switch in a loop over random opcodes: a jump table,
   hence one indirect branch per iteration.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include "cgt.h"

NOINLINE static long dispatch(int n)
{
   unsigned seed = 8;
   long acc = 1;

   for (int i = 0; i < n; i++) {
      switch (cgt_rand(&seed) % 12) {
      case 0: acc += 1; break;
      case 1: acc -= 3; break;
      case 2: acc *= 3; break;
      case 3: acc ^= 0x55; break;
      case 4: acc <<= 1; break;
      case 5: acc >>= 1; break;
      case 6: acc += i; break;
      case 7: acc -= i / 2; break;
      case 8: acc |= 0x100; break;
      case 9: acc &= 0xffffff; break;
      case 10: acc = acc % 100003; break;
      default: acc = -acc; break;
      }
   }
   return acc;
}

int main(void)
{
   printf("switch: %ld\n", dispatch(30000));
   return 0;
}
