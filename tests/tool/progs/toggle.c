/* toggle.c -- the cases of --toggle-collect, for tests/tool/toggle.test.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Every leaf_* function is called twice with the same argument, so with
   the same counts: once inside a function that the test names with
   --toggle-collect, once outside.  With the option, each must count
   exactly half of its whole-run counts, and main nothing:
      measured        a plain call
      rec             recursion: only the outermost frame matters
      jumper          leaves with longjmp (named by the pattern "jump*")
      tail_from       tail-calls tail_to (a jump at -O2): tail_to, in
                      tail_from's frame, counts until it returns
      bytail_target   entered by a tail call from bytail_from, which does
                      not match: only bytail_target counts
      sig_inside      a signal handler runs inside it; the same handler
                      runs again outside
   The argument N comes from the command line, so that the compiler
   cannot specialise the functions for it. */

#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include "cgt.h"

volatile long sink;
static jmp_buf jb;
static int n_sig;

#define LEAF(x)                                                            \
   NOINLINE long leaf_##x(int n)                                           \
   {                                                                       \
      long s = 0;                                                          \
      for (int i = 0; i < n; i++)                                          \
         s += i * 3 + (i & 1);                                             \
      return s;                                                            \
   }
LEAF(plain)
LEAF(rec)
LEAF(jmp)
LEAF(tail)
LEAF(bytail)
LEAF(sig)

NOINLINE long measured(int n)
{
   return leaf_plain(n) + 1;
}

NOINLINE long rec(int depth, int n)
{
   if (depth == 0)
      return leaf_rec(n);
   return rec(depth - 1, n) + depth;
}

NOINLINE void jumper(int n)
{
   sink += leaf_jmp(n);
   longjmp(jb, 1);
}

NOINLINE long tail_to(int n)
{
   return leaf_tail(n) * 2;
}

NOINLINE long tail_from(int n)
{
   return tail_to(n);
}

NOINLINE long bytail_target(int n)
{
   return leaf_bytail(n) - 1;
}

NOINLINE long bytail_from(int n)
{
   return bytail_target(n);
}

static void handler(int sig)
{
   sink += leaf_sig(n_sig) + sig;
}

NOINLINE void sig_inside(void)
{
   raise(SIGUSR1);
   sink++;
}

int main(int argc, char **argv)
{
   int n = (int)cgt_arg(argc, argv, 1, 1000);

   n_sig = n;
   signal(SIGUSR1, handler);
   sink += leaf_plain(n);
   sink += measured(n);
   sink += leaf_rec(n);
   sink += rec(5, n);
   if (!setjmp(jb))
      jumper(n);
   sink += leaf_jmp(n);
   sink += tail_from(n);
   sink += leaf_tail(n);
   sink += bytail_from(n);
   sink += leaf_bytail(n);
   sig_inside();
   raise(SIGUSR1);
   printf("toggle: %ld\n", sink);
   return 0;
}
