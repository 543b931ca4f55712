/* model.c -- example of how Cachegrind counts: rep strings, read-modify-write, line-crossing stores.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later
   Build: gcc -g -O0 -o model model.c (amd64) */

static char buf[8192] __attribute__((aligned(64)));
static long counter;

int main(void)
{
    char *dst = buf, *src = buf + 4096;
    long n = 1000;
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
    __asm__ volatile("addq $1, %0" : "+m"(counter));
    __asm__ volatile("movq %1, %0" : "=m"(*(long *)(buf + 2044)) : "r"(0L));
    __asm__ volatile("movq %1, %0" : "=m"(*(long *)(buf + 2048)) : "r"(0L));
    return 0;
}
