/* interp.c -- a bytecode interpreter dispatching with computed goto, one
   indirect jump per bytecode, running a counted loop.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include "cgt.h"

enum { PUSH, ADD, SUB, MUL, MOD, DUP, SWAP, DEC, JNZ, ACC, HALT };

/* for (n = 3000; n != 0; n--) acc += 5 - (7 * n) % 13 + 0 */
static const long program[] = {
   PUSH, 3000,                   /*  0: n                               */
   DUP,                          /*  2: n n        <- loop              */
   PUSH, 7, MUL,                 /*  3: n 7n                            */
   PUSH, 13, MOD,                /*  6: n 7n%13                         */
   PUSH, 5, SWAP, SUB,           /*  9: n 5-7n%13                       */
   PUSH, 0, ADD,                 /* 13: n 5-7n%13                       */
   ACC,                          /* 16: n          acc += popped value  */
   DEC, DUP, JNZ, 2,             /* 17: n-1        loop while non-zero  */
   HALT                          /* 21                                  */
};

NOINLINE static long run(const long *code, long *steps)
{
   static const void *const labels[] = {
      &&l_push, &&l_add, &&l_sub, &&l_mul, &&l_mod, &&l_dup, &&l_swap,
      &&l_dec, &&l_jnz, &&l_acc, &&l_halt
   };
   long stack[16];
   long acc = 0;
   int sp = 0;
   const long *pc = code;

#define NEXT() do { ++*steps; goto *labels[*pc++]; } while (0)
   *steps = 0;
   NEXT();
l_push: stack[sp++] = *pc++; NEXT();
l_add:  sp--; stack[sp - 1] += stack[sp]; NEXT();
l_sub:  sp--; stack[sp - 1] -= stack[sp]; NEXT();
l_mul:  sp--; stack[sp - 1] *= stack[sp]; NEXT();
l_mod:  sp--; stack[sp - 1] %= stack[sp]; NEXT();
l_dup:  stack[sp] = stack[sp - 1]; sp++; NEXT();
l_swap: { long t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t; }
        NEXT();
l_dec:  stack[sp - 1]--; NEXT();
l_jnz:  { long target = *pc++; if (stack[--sp] != 0) pc = code + target; } NEXT();
l_acc:  acc += stack[--sp]; NEXT();
l_halt: return acc;
#undef NEXT
}

int main(void)
{
   long steps;
   long r = run(program, &steps);

   printf("interp: %ld in %ld steps\n", r, steps);
   return 0;
}
