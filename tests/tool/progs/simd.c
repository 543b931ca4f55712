/* simd.c -- SSE2 vector code, and AVX2 code when the CPU has it.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   The AVX2 path (including masked loads and stores, which are guarded
   memory accesses) runs only if __builtin_cpu_supports("avx2"); both runs
   of a comparison use the same CPU, so they take the same decision. */

#include <immintrin.h>
#include <stdio.h>
#include "cgt.h"

#define N 4096

static int a[N] __attribute__((aligned(32)));
static int b[N + 8] __attribute__((aligned(32)));  /* + 8: unaligned over-read */
static double x[N] __attribute__((aligned(16)));

NOINLINE static long sse2_sum(void)
{
   __m128i acc = _mm_setzero_si128();
   __m128d dacc = _mm_setzero_pd();
   int out[4];
   double dout[2];

   for (int i = 0; i + 4 <= N; i += 4) {
      __m128i va = _mm_load_si128((const __m128i *)&a[i]);
      __m128i vb = _mm_loadu_si128((const __m128i *)&b[i + 1]);
      acc = _mm_add_epi32(acc, _mm_xor_si128(va, vb));
   }
   for (int i = 0; i + 2 <= N; i += 2)
      dacc = _mm_add_pd(dacc, _mm_mul_pd(_mm_load_pd(&x[i]), _mm_set1_pd(0.5)));
   _mm_storeu_si128((__m128i *)out, acc);
   _mm_storeu_pd(dout, dacc);
   return (long)out[0] + out[1] + out[2] + out[3] + (long)dout[0] + (long)dout[1];
}

__attribute__((target("avx2"), noinline)) static long avx2_sum(void)
{
   __m256i acc = _mm256_setzero_si256();
   __m256i mask = _mm256_setr_epi32(-1, 0, -1, 0, -1, -1, 0, -1);
   int out[8];

   for (int i = 0; i + 8 <= N; i += 8) {
      __m256i va = _mm256_load_si256((const __m256i *)&a[i]);
      __m256i vb = _mm256_maskload_epi32(&b[i], mask);
      acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(va, vb));
      _mm256_maskstore_epi32(&b[i], mask, _mm256_srli_epi32(vb, 1));
   }
   _mm256_storeu_si256((__m256i *)out, acc);
   long s = 0;
   for (int i = 0; i < 8; i++)
      s += out[i];
   return s;
}

int main(void)
{
   unsigned seed = 555;
   long s;

   for (int i = 0; i < N; i++) {
      a[i] = (int)(cgt_rand(&seed) & 0xffff);
      b[i] = (int)(cgt_rand(&seed) & 0xffff);
      x[i] = (double)(i % 97);
   }
   s = sse2_sum();
   printf("simd: sse2 %ld\n", s);
   __builtin_cpu_init();
   if (__builtin_cpu_supports("avx2"))
      printf("simd: avx2 %ld\n", avx2_sum());
   else
      printf("simd: no avx2\n");
   return 0;
}
