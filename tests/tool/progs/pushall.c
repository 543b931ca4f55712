/* pushall.c -- blocks of hundreds of data accesses: 100 pairs of pusha
   and popa on x86 (8 words written, 8 read, each), of pushes and pops of
   memory elsewhere (2 accesses each).  With --vex-guest-max-insns=100 the
   body is cut into superblocks of 100 instructions, whose inline tests
   alone would overflow VEX's buffer for a block's host code on x86, and
   which pass CG_DATA_TESTS_MAX everywhere (tests/tool/diff-cases.list).
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */
#define TEN(s) s s s s s s s s s s
#if defined(__i386__)
#define PAIR "pusha\n\tpopa\n\t"
#else
#define PAIR "pushq (%%rsp)\n\tpopq (%%rsp)\n\t"
#endif

__attribute__((noinline)) static void body(void)
{
    __asm__ volatile(TEN(TEN(PAIR)) ::: "memory");
}

int main(void)
{
    int i;
    for (i = 0; i < 50; i++)
        body();
    return 0;
}
