/* strfuncs.c -- libc string functions, qsort and sprintf on fixed data.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include <string.h>
#include "cgt.h"

#define NSTR 400
#define LEN 40

static char strs[NSTR][LEN];
static const char *ptrs[NSTR];

static int cmp_str(const void *a, const void *b)
{
   return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_int(const void *a, const void *b)
{
   int x = *(const int *)a, y = *(const int *)b;

   return (x > y) - (x < y);
}

NOINLINE static void make_strings(void)
{
   unsigned seed = 12345;

   for (int i = 0; i < NSTR; i++) {
      int len = 5 + (int)(cgt_rand(&seed) % (LEN - 6));

      for (int j = 0; j < len; j++)
         strs[i][j] = (char)('a' + cgt_rand(&seed) % 26);
      strs[i][len] = '\0';
      ptrs[i] = strs[i];
   }
}

NOINLINE static long scan_strings(void)
{
   char buf[2 * LEN + 8];
   long s = 0;

   for (int i = 0; i < NSTR; i++) {
      s += (long)strlen(strs[i]);
      strcpy(buf, strs[i]);
      strcat(buf, "-");
      strcat(buf, strs[(i + 1) % NSTR]);
      s += (long)strlen(buf);
      if (strchr(buf, 'q'))
         s += 3;
      if (strrchr(buf, 'z'))
         s += 5;
      if (strstr(buf, "ab"))
         s += 7;
      s += memcmp(strs[i], strs[(i + 7) % NSTR], 4) < 0;
      s += strncmp(strs[i], strs[(i + 3) % NSTR], 2) > 0;
   }
   return s;
}

NOINLINE static long format_numbers(void)
{
   char buf[64];
   long s = 0;

   for (int i = 0; i < 500; i++) {
      int n = snprintf(buf, sizeof buf, "%d:%x:%05.2f:%s", i * 37, i, i / 7.0,
                       strs[i % NSTR]);
      s += n + strtol(buf, NULL, 10);
      sprintf(buf, "%lu", (unsigned long)i * 1000003ul);
      s += (long)strlen(buf);
   }
   return s;
}

int main(void)
{
   int nums[2000];
   unsigned seed = 99;
   long s;

   make_strings();
   s = scan_strings();
   qsort(ptrs, NSTR, sizeof ptrs[0], cmp_str);
   for (int i = 0; i < 2000; i++)
      nums[i] = (int)(cgt_rand(&seed) % 100000);
   qsort(nums, 2000, sizeof nums[0], cmp_int);
   s += format_numbers();
   printf("first %s last %s\n", ptrs[0], ptrs[NSTR - 1]);
   printf("min %d max %d sum %ld\n", nums[0], nums[1999], s);
   return 0;
}
