// toggle-exc.cpp -- C++ exceptions and --toggle-collect, for tests/tool/toggle.test.
// Copyright (C) 2026 the cachegrind-ng developers.
// SPDX-License-Identifier: GPL-2.0-or-later
//
// As in toggle.c, each leaf_* is called once inside a function that the
// test names and once outside:
//    thrower   throws; the exception unwinds through it to main
//    catcher   calls thrower2, which throws, and catches the exception
//              itself: it still counts after the catch

#include <cstdio>
#include "cgt.h"

volatile long sink;

#define LEAF(x)                                                            \
   NOINLINE long leaf_##x(int n)                                           \
   {                                                                       \
      long s = 0;                                                          \
      for (int i = 0; i < n; i++)                                          \
         s += i * 3 + (i & 1);                                             \
      return s;                                                            \
   }
LEAF(exc)
LEAF(caught)

NOINLINE void thrower(int n)
{
   sink += leaf_exc(n);
   throw n;
}

NOINLINE void thrower2(int n)
{
   throw n + 1;
}

NOINLINE long catcher(int n)
{
   try {
      thrower2(n);
   } catch (int e) {
      sink += leaf_caught(n) + e;
   }
   return 1;
}

int main(int argc, char **argv)
{
   int n = (int)cgt_arg(argc, argv, 1, 1000);

   try {
      thrower(n);
   } catch (int e) {
      sink += e;
   }
   sink += leaf_exc(n);
   sink += catcher(n);
   sink += leaf_caught(n);
   std::printf("toggle-exc: %ld\n", sink);
   return 0;
}
