/* cg_branchpred.c -- set-up of the branch predictors (lookups are inline).
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include "cg_branchpred.h"

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
