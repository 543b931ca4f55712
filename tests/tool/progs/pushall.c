/* pushall.c -- a block of hundreds of data accesses: on x86, 45 pairs of
   pusha and popa (8 words written, 8 read, each); elsewhere 90 pushes and
   pops.  With --vex-guest-max-insns=100 the whole body is one superblock,
   whose inline tests alone would overflow VEX's buffer for a block's host
   code (tests/tool/diff-cases.list).
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */
#define TEN(s) s s s s s s s s s s
#if defined(__i386__)
#define PAIR "pusha\n\tpopa\n\t"
#else
#define PAIR "push %%rax\n\tpop %%rax\n\t"
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
