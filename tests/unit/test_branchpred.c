/* test_branchpred.c -- taken/not-taken trace tests of the branch predictors (cg_branchpred).
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Conditional predictor: one counter for each pair (history & 0x7f,
   (addr >> Z) & 0x7f), read with cg_condpred_counter; a counter >= 2
   predicts taken.  (The comments give upstream's index, history << 7 |
   address bits, which names the same counter.)  Several tests reset the history
   before each branch so that one counter is followed; the others let the
   history run and derive the expected mispredictions by hand in the
   comments.  Indirect predictor: entry (addr >> Z) & 0x1ff remembers the
   last target. */

#include "cg_branchpred.h"
#include "unit_check.h"

#define T 1
#define N 0
#define MISPREDICT 1
#define CORRECT 0

static struct cg_condpred cp;
static struct cg_indpred ip;

/* The counter that a branch at addr uses after the outcomes hist. */
#define COUNTER(hist, addr) cg_condpred_counter(&cp, (hist), (addr))

/* Number of non-zero counters (the tests know which one should be). */
static int busy_counters(void)
{
   unsigned i;
   int n = 0;

   for (i = 0; i < CG_CONDPRED_ENTRIES; i++)
      n += (cp.counters[i] & 3) != 0;
   return n;
}

/* ---- Conditional ------------------------------------------------------------ */

/* One counter (history forced to 0, address 0x1005: index 5) walks up to
   3, stays there, walks down to 0 and stays there.
       outcome  counter before  prediction  result      counter after
       T        0               N           mispredict  1
       T        1               N           mispredict  2
       T        2               T           correct     3
       T        3               T           correct     3 (saturated)
       N        3               T           mispredict  2
       N        2               T           mispredict  1
       N        1               N           correct     0
       N        0               N           correct     0 (saturated)
       T        0               N           mispredict  1 */
static void test_cond_saturation(void)
{
   static const struct { int taken, result, after; } steps[] = {
      { T, MISPREDICT, 1 }, { T, MISPREDICT, 2 }, { T, CORRECT, 3 },
      { T, CORRECT, 3 },    { N, MISPREDICT, 2 }, { N, MISPREDICT, 1 },
      { N, CORRECT, 0 },    { N, CORRECT, 0 },    { T, MISPREDICT, 1 },
   };
   size_t i;

   cg_condpred_init(&cp, 0);
   for (i = 0; i < sizeof steps / sizeof steps[0]; i++) {
      cp.history = 0;
      CHECK_EQ(cg_condpred_predict_and_update(&cp, 0x1005, steps[i].taken),
               steps[i].result);
      CHECK_EQ(COUNTER(0, 0x1005), steps[i].after);
      CHECK_EQ(cp.history, (uintptr_t)steps[i].taken);
      CHECK_EQ(busy_counters(), steps[i].after != 0);
   }
}

/* The last 7 outcomes select the upper 7 index bits; older history bits
   are ignored.  History 0x2a5 (low 7 bits 0x25), address 0x1013 (low 7
   bits 0x13): index 0x25 << 7 | 0x13 = 0x1293.  Taken makes the history
   0x54b (low bits 0x4b), so the next index is 0x4b << 7 | 0x13 = 0x2593. */
static void test_cond_history_index(void)
{
   cg_condpred_init(&cp, 0);
   cp.history = 0x2a5;
   CHECK_EQ(cg_condpred_predict_and_update(&cp, 0x1013, T), MISPREDICT);
   CHECK_EQ(COUNTER(0x25, 0x1013), 1);
   CHECK_EQ(COUNTER(0x13, 0x1025), 0);      /* the roles swapped: another */
   CHECK_EQ(cp.history, 0x54b);
   CHECK_EQ(cg_condpred_predict_and_update(&cp, 0x1013, N), CORRECT);
   CHECK_EQ(COUNTER(0x4b, 0x1013), 0);
   CHECK_EQ(cp.history, 0xa96);
   CHECK_EQ(busy_counters(), 1);
   /* Any non-zero "taken" is taken. */
   CHECK_EQ(cg_condpred_predict_and_update(&cp, 0x1013, 5), MISPREDICT);
   CHECK_EQ(COUNTER(0x16, 0x1013), 1);
   CHECK_EQ(cp.history, 0x152d);
}

/* One always-taken branch at 0x400 (address bits 0) with the history
   running from 0.  Branch k sees history 0, 1, 3, 7, 15, 31, 63 for
   k = 1..7: seven fresh counters, seven mispredictions.  From k = 8 on the
   history is 127 every time: that counter mispredicts at 0 (k = 8) and 1
   (k = 9) and predicts correctly from k = 10 on.  9 in all. */
static void test_cond_always_taken(void)
{
   int k, wrong = 0;

   cg_condpred_init(&cp, 0);
   for (k = 1; k <= 30; k++) {
      int result = cg_condpred_predict_and_update(&cp, 0x400, T);

      CHECK_EQ(result, k <= 9 ? MISPREDICT : CORRECT);
      wrong += result;
   }
   CHECK_EQ(wrong, 9);
   CHECK_EQ(COUNTER(127, 0x400), 3);
   CHECK_EQ(busy_counters(), 8);
}

/* A loop branch at 0x400 with the pattern T T T N (branch k is not taken
   when k % 4 == 0).  The 7-bit history before branch k (bit j = outcome
   k-1-j, missing outcomes 0) and the counter it selects:
       k   history  outcome  counter  result
       1   0        T        0        mispredict
       2   1        T        0        mispredict
       3   3        T        0        mispredict
       4   7        N        0        correct
       5   14       T        0        mispredict
       6   29       T        0        mispredict
       7   59       T        0        mispredict (59 -> 1)
       8   119      N        0        correct
       9   110      T        0        mispredict
       10  93       T        0        mispredict
       11  59       T        1        mispredict (59 -> 2)
       12  119      N        0        correct
       13  110      T        1        mispredict
       14  93       T        1        mispredict
       15+ (periodic: 59, 119, 110, 93 all trained)   correct
   11 mispredictions, the last at k = 14. */
static void test_cond_loop_pattern(void)
{
   static const int wrong_at[] = { 1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14 };
   size_t next = 0;
   int k, wrong = 0;

   cg_condpred_init(&cp, 0);
   for (k = 1; k <= 40; k++) {
      int expect = next < sizeof wrong_at / sizeof wrong_at[0]
                   && wrong_at[next] == k;
      int result = cg_condpred_predict_and_update(&cp, 0x400,
                                                  k % 4 == 0 ? N : T);

      CHECK_EQ(result, expect);
      next += (size_t)expect;
      wrong += result;
   }
   CHECK_EQ(wrong, 11);
   CHECK_EQ(COUNTER(59, 0x400), 3);
   CHECK_EQ(COUNTER(110, 0x400), 3);
   CHECK_EQ(COUNTER(93, 0x400), 3);
   CHECK_EQ(COUNTER(119, 0x400), 0);
}

/* Only 7 address bits index the table: with Z = 0, 0x1005 and 0x1085
   (bit 7 differs) share a counter, 0x1005 and 0x1006 do not. */
static void test_cond_aliasing(void)
{
   cg_condpred_init(&cp, 0);
   cp.history = 0;
   CHECK_EQ(cg_condpred_predict_and_update(&cp, 0x1005, T), MISPREDICT);
   cp.history = 0;
   CHECK_EQ(cg_condpred_predict_and_update(&cp, 0x1005, T), MISPREDICT);
   cp.history = 0;
   CHECK_EQ(cg_condpred_predict_and_update(&cp, 0x1085, T), CORRECT);
   cp.history = 0;
   CHECK_EQ(cg_condpred_predict_and_update(&cp, 0x3f05, T), CORRECT);
   cp.history = 0;
   CHECK_EQ(cg_condpred_predict_and_update(&cp, 0x1006, T), MISPREDICT);
   CHECK_EQ(COUNTER(0, 0x1005), 3);
   CHECK_EQ(COUNTER(0, 0x1006), 1);
   CHECK_EQ(busy_counters(), 2);
}

/* Z always-zero bits are shifted out before the 7 address bits are taken.
   Z = 2 (arm64, ppc, mips): 0x1014 >> 2 = 0x405, index 5; 0x1017 is the
   same instruction slot; 0x1018 (0x406) is the next one; 0x1214 (0x485)
   aliases with 0x1014.  Z = 1 (arm Thumb, riscv64, s390x): 0x100a >> 1 =
   0x805, index 5; 0x100b aliases, 0x100c does not. */
static void test_cond_zero_bits(void)
{
   cg_condpred_init(&cp, 2);
   cp.history = 0;
   cg_condpred_predict_and_update(&cp, 0x1014, T);
   CHECK_EQ(COUNTER(0, 0x1014), 1);
   cp.history = 0;
   cg_condpred_predict_and_update(&cp, 0x1017, T);
   CHECK_EQ(COUNTER(0, 0x1014), 2);
   cp.history = 0;
   CHECK_EQ(cg_condpred_predict_and_update(&cp, 0x1214, T), CORRECT);
   CHECK_EQ(COUNTER(0, 0x1014), 3);
   cp.history = 0;
   CHECK_EQ(cg_condpred_predict_and_update(&cp, 0x1018, T), MISPREDICT);
   CHECK_EQ(COUNTER(0, 0x1018), 1);
   CHECK_EQ(busy_counters(), 2);

   cg_condpred_init(&cp, 1);
   CHECK_EQ(busy_counters(), 0);
   CHECK_EQ(cp.history, 0);
   cp.history = 0;
   cg_condpred_predict_and_update(&cp, 0x100a, T);
   cp.history = 0;
   cg_condpred_predict_and_update(&cp, 0x100b, T);
   CHECK_EQ(COUNTER(0, 0x100a), 2);
   cp.history = 0;
   cg_condpred_predict_and_update(&cp, 0x100c, T);
   CHECK_EQ(COUNTER(0, 0x100c), 1);
}

/* ---- Indirect -------------------------------------------------------------- */

/* Z = 0: the branch at 0x400 uses entry 0, as do 0x600 and 0x800 (512
   apart); 0x401 uses entry 1.  All targets start at 0, so a first jump to
   0 is "predicted". */
static void test_ind_last_target(void)
{
   cg_indpred_init(&ip, 0);
   CHECK_EQ(cg_indpred_predict_and_update(&ip, 0x400, 0x1000), MISPREDICT);
   CHECK_EQ(cg_indpred_predict_and_update(&ip, 0x400, 0x1000), CORRECT);
   CHECK_EQ(cg_indpred_predict_and_update(&ip, 0x400, 0x2000), MISPREDICT);
   CHECK_EQ(cg_indpred_predict_and_update(&ip, 0x400, 0x2000), CORRECT);
   CHECK_EQ(cg_indpred_predict_and_update(&ip, 0x400, 0x1000), MISPREDICT);
   CHECK_EQ(ip.targets[0], 0x1000);
   CHECK_EQ(cg_indpred_predict_and_update(&ip, 0x401, 0), CORRECT);
   /* Aliasing: 0x600 finds 0x400's target, and replaces it. */
   CHECK_EQ(cg_indpred_predict_and_update(&ip, 0x600, 0x1000), CORRECT);
   CHECK_EQ(cg_indpred_predict_and_update(&ip, 0x800, 0x3000), MISPREDICT);
   CHECK_EQ(cg_indpred_predict_and_update(&ip, 0x400, 0x1000), MISPREDICT);
}

/* Z = 2: 0x1000 >> 2 = 0x400, entry 0; 0x1003 the same; 0x1004 entry 1;
   0x1800 (0x600) entry 0 again. */
static void test_ind_zero_bits(void)
{
   cg_indpred_init(&ip, 2);
   CHECK_EQ(cg_indpred_predict_and_update(&ip, 0x1000, 0x5000), MISPREDICT);
   CHECK_EQ(cg_indpred_predict_and_update(&ip, 0x1003, 0x5000), CORRECT);
   CHECK_EQ(cg_indpred_predict_and_update(&ip, 0x1800, 0x5000), CORRECT);
   CHECK_EQ(cg_indpred_predict_and_update(&ip, 0x1004, 0x5000), MISPREDICT);
   CHECK_EQ(ip.targets[0], 0x5000);
   CHECK_EQ(ip.targets[1], 0x5000);
   CHECK_EQ(ip.targets[2], 0);
}

/* 512 branches fill all 512 entries: the first pass mispredicts every one,
   the second none, and a third pass 512 bytes higher (same entries, same
   targets) none either.  Then init forgets everything. */
static void test_ind_all_entries(void)
{
   cg_addr_t a;
   int wrong[3] = { 0, 0, 0 };

   cg_indpred_init(&ip, 0);
   for (a = 0; a < 512; a++)
      wrong[0] += cg_indpred_predict_and_update(&ip, 0x8000 + a, 0x10000 + a);
   for (a = 0; a < 512; a++)
      wrong[1] += cg_indpred_predict_and_update(&ip, 0x8000 + a, 0x10000 + a);
   for (a = 0; a < 512; a++)
      wrong[2] += cg_indpred_predict_and_update(&ip, 0x8200 + a, 0x10000 + a);
   CHECK_EQ(wrong[0], 512);
   CHECK_EQ(wrong[1], 0);
   CHECK_EQ(wrong[2], 0);
   cg_indpred_init(&ip, 0);
   for (a = 0; a < 512; a++)
      CHECK_EQ(ip.targets[a], 0);
}

int main(void)
{
   RUN(test_cond_saturation);
   RUN(test_cond_history_index);
   RUN(test_cond_always_taken);
   RUN(test_cond_loop_pattern);
   RUN(test_cond_aliasing);
   RUN(test_cond_zero_bits);
   RUN(test_ind_last_target);
   RUN(test_ind_zero_bits);
   RUN(test_ind_all_entries);
   return unit_finish("test_branchpred");
}
