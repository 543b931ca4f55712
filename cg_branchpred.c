/* cg_branchpred.c -- set-up of the branch predictors (lookups are inline).
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include "cg_branchpred.h"

/* (counter << 1 | taken) -> new counter | mispredicted << 2, see the
   header.  Counters 0 and 1 predict "not taken", 2 and 3 "taken". */
const uint8_t cg_condpred_next[8] = {
   0,          /* 0, not taken: stays 0, predicted right */
   1 | 4,      /* 0, taken:     1, predicted wrong */
   0,          /* 1, not taken: 0, right */
   2 | 4,      /* 1, taken:     2, wrong */
   1 | 4,      /* 2, not taken: 1, wrong */
   3,          /* 2, taken:     3, right */
   2 | 4,      /* 3, not taken: 2, wrong */
   3,          /* 3, taken:     stays 3, right */
};

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
