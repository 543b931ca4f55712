/* cg_branchpred.c -- set-up of the branch predictors (lookups are inline).
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include "cg_branchpred.h"

/* Counter c, outcome t: c = 0: 0, 1;  c = 1: 0, 2;  c = 2: 1, 3;  c = 3:
   2, 3; wrong (4) when (c >= 2) differs from t.  Twice: a stored byte may
   have the misprediction bit. */
#define CG_STEP_ROWS \
   0, 1 | 4,        /* c = 0 (predicts not taken): t = 0, t = 1 */ \
   0, 2 | 4,        /* c = 1 (predicts not taken) */ \
   1 | 4, 3,        /* c = 2 (predicts taken) */ \
   2 | 4, 3         /* c = 3 (predicts taken) */
const uint8_t cg_condpred_step[16] = { CG_STEP_ROWS, CG_STEP_ROWS };

void cg_condpred_init(struct cg_condpred *p, unsigned zero_bits)
{
   unsigned i;

   p->history = 0;
   p->zero_bits = zero_bits;
   for (i = 0; i < CG_CONDPRED_ENTRIES; i++)
      p->counters[i] = 0;
}

void cg_indpred_init(struct cg_indpred *p, unsigned zero_bits)
{
   unsigned i;

   p->zero_bits = zero_bits;
   for (i = 0; i < CG_INDPRED_ENTRIES; i++)
      p->targets[i] = 0;
}
