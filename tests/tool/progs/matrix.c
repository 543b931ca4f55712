/* matrix.c -- row-major and column-major walks over a 512 KiB matrix.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The column-major walk touches a new cache line at almost every access;
   the row-major one uses each line eight times. */

#include <stdio.h>
#include "cgt.h"

#define N 256

static double m[N][N];
static double t[N][N];

NOINLINE static void init(void)
{
   for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
         m[i][j] = (double)((i * 31 + j * 17) % 101);
}

NOINLINE static double sum_rows(void)
{
   double s = 0;

   for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
         s += m[i][j];
   return s;
}

NOINLINE static double sum_columns(void)
{
   double s = 0;

   for (int j = 0; j < N; j++)
      for (int i = 0; i < N; i++)
         s += m[i][j];
   return s;
}

NOINLINE static void transpose(void)
{
   for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
         t[j][i] = m[i][j];
}

int main(void)
{
   init();
   double r = sum_rows();
   double c = sum_columns();
   transpose();
   printf("matrix: %.0f %.0f %.0f\n", r, c, t[3][200] + t[255][0]);
   return 0;
}
