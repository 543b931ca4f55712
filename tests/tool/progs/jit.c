/* jit.c -- code generated at run time: instructions outside every object file
   (the object "???" of --dump-instr=yes profiles, at run-time addresses).
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "cgt.h"

/* int f(int x) { return x + 1; } in machine code. */
#if defined(__x86_64__)
static const unsigned char code[] = {
   0x8d, 0x47, 0x01,                  /* lea 0x1(%rdi),%eax */
   0xc3                               /* ret */
};
#elif defined(__i386__)
static const unsigned char code[] = {
   0x8b, 0x44, 0x24, 0x04,            /* mov 0x4(%esp),%eax */
   0x40,                              /* inc %eax */
   0xc3                               /* ret */
};
#else
#error "jit.c: x86 and amd64 only"
#endif

int main(int argc, char **argv)
{
   long n = cgt_arg(argc, argv, 1, 1000);
   void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (page == MAP_FAILED) {
      perror("mmap");
      return 1;
   }
   memcpy(page, code, sizeof code);
   int (*f)(int) = (int (*)(int))page;
   int s = 0;
   for (long i = 0; i < n; i++)
      s = f(s);
   printf("%d\n", s);
   return 0;
}
