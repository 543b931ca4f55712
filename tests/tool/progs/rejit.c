/* rejit.c -- code generated at run time and replaced: three functions, one
   after the other at the same address, whose first instructions make
   different kinds of event (none or a read, a write, a conditional
   branch), so that --dump-instr=yes has one instruction address of three
   shapes (docs/design.md, "Shapes").
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "cgt.h"

/* int f(int x, int *p), returning x + 1, in three versions. */
#if defined(__x86_64__)
static const unsigned char code1[] = {
   0x8d, 0x47, 0x01,                  /* lea 0x1(%rdi),%eax */
   0xc3                               /* ret */
};
static const unsigned char code2[] = {
   0x89, 0x3e,                        /* mov %edi,(%rsi) */
   0x8d, 0x47, 0x01,                  /* lea 0x1(%rdi),%eax */
   0xc3                               /* ret */
};
static const unsigned char code3[] = {
   0x75, 0x00,                        /* jne .+2 */
   0x8d, 0x47, 0x01,                  /* lea 0x1(%rdi),%eax */
   0xc3                               /* ret */
};
#elif defined(__i386__)
static const unsigned char code1[] = {
   0x8b, 0x44, 0x24, 0x04,            /* mov 0x4(%esp),%eax */
   0x40,                              /* inc %eax */
   0xc3                               /* ret */
};
static const unsigned char code2[] = {
   0x75, 0x00,                        /* jne .+2 */
   0x8b, 0x44, 0x24, 0x04,            /* mov 0x4(%esp),%eax */
   0x40,                              /* inc %eax */
   0xc3                               /* ret */
};
static const unsigned char code3[] = {
   0x89, 0x44, 0x24, 0x08,            /* mov %eax,0x8(%esp) */
   0x8b, 0x44, 0x24, 0x04,            /* mov 0x4(%esp),%eax */
   0x40,                              /* inc %eax */
   0xc3                               /* ret */
};
#else
#error "rejit.c: x86 and amd64 only"
#endif

int main(int argc, char **argv)
{
   long n = cgt_arg(argc, argv, 1, 1000);
   const unsigned char *code[] = { code1, code2, code3 };
   const size_t size[] = { sizeof code1, sizeof code2, sizeof code3 };
   void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   if (page == MAP_FAILED) {
      perror("mmap");
      return 1;
   }
   int (*f)(int, int *) = (int (*)(int, int *))page;
   int s = 0, sink = 0;
   for (int k = 0; k < 3; k++) {
      memcpy(page, code[k], size[k]);
      for (long i = 0; i < n; i++)
         s = f(s, &sink);
   }
   printf("%d %d\n", s, sink);
   return 0;
}
