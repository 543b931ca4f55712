/* pastend.c -- code beside pages that are readable by their protection but
   fault when read (a file mapping past the file's end), and marker-shaped
   no-ops that hold no client request.  The tool looks at the bytes around
   a block for cachegrind.h's request markers: it must neither fault on
   such pages (it died of SIGBUS) nor take a pair of markers without
   Valgrind's magic sequence for a request (it counted nothing between
   them).  The counts must be the reference's.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "cgt.h"

#define PAGE 4096

/* A one-page file of the given contents, or NULL. */
static FILE *page_file(const unsigned char *page)
{
   FILE *f = tmpfile();
   if (!f || fwrite(page, 1, PAGE, f) != PAGE || fflush(f)) {
      perror("tmpfile");
      return NULL;
   }
   return f;
}

/* A "ret" at the start of an anonymous page whose previous page is the
   second page of a one-page file mapped over two: the block starts in
   the first 255 bytes of its page. */
static int after_past_end(void)
{
   unsigned char page[PAGE];
   memset(page, 0, sizeof page);
   unsigned char *r = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
   FILE *f = page_file(page);
   if (r == MAP_FAILED || !f
       || mmap(r, 2 * PAGE, PROT_READ, MAP_PRIVATE | MAP_FIXED, fileno(f), 0)
          == MAP_FAILED) {
      perror("mmap");
      return 1;
   }
   r[2 * PAGE] = 0xc3;                       /* ret */
   ((void (*)(void))(r + 2 * PAGE))();
   return 0;
}

/* A start marker of length 255, 200 bytes before the end of a file's only
   page, mapped over two pages: its end marker would lie past the end of
   the file.  Then "ret". */
static int marker_past_end(void)
{
   unsigned char page[PAGE];
   memset(page, 0x90, sizeof page);          /* nop */
   static const unsigned char mark[7] = { 0x0f, 0x1f, 0x80, 255, 'C', 'G', '[' };
   memcpy(page + PAGE - 200, mark, sizeof mark);
   page[PAGE - 200 + sizeof mark] = 0xc3;    /* ret */
   FILE *f = page_file(page);
   unsigned char *m = f ? mmap(NULL, 2 * PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE,
                               fileno(f), 0) : MAP_FAILED;
   if (m == MAP_FAILED) {
      perror("mmap");
      return 1;
   }
   ((void (*)(void))(m + PAGE - 200))();
   return 0;
}

/* Two no-ops shaped like a request's markers, the right length apart,
   around ordinary code, long enough to hold Valgrind's magic sequence (a
   shorter pair is refused for its length alone): no request, so the code
   is counted. */
static long fake_markers(long n)
{
   long s = 0;
   for (long i = 0; i < n; i++) {
      __asm__ volatile(
         "8: .byte 0x0f,0x1f,0x80,9f-8b,0x43,0x47,0x5b\n\t"
         "add %1, %0\n\timul $3, %0, %0\n\t"
         "add %1, %0\n\timul $3, %0, %0\n\t"
         "add %1, %0\n\timul $3, %0, %0\n\t"
         "add %1, %0\n\timul $3, %0, %0\n\t"
         "add %1, %0\n\timul $3, %0, %0\n\t"
         ".byte 0x0f,0x1f,0x80,9f-8b,0x43,0x47,0x5d\n9:\n\t"
         : "+r"(s) : "r"(i));
   }
   return s;
}

int main(int argc, char **argv)
{
   long n = cgt_arg(argc, argv, 1, 1000);
   if (after_past_end() || marker_past_end())
      return 1;
   printf("%ld\n", fake_markers(n));
   return 0;
}
