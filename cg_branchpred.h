/* cg_branchpred.h -- the conditional and indirect branch predictors.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Plain C with no Valgrind or libc dependency: upstream's predictors
   (docs/manual/simulation.md, "The branch predictors").  Each
   predictor is one struct owned by its caller; init clears it and
   predict_and_update, static inline because it runs for every branch,
   returns 1 when the prediction was wrong.  zero_bits is the number of
   always-zero low bits of instruction addresses on the guest
   (cg_arch_branch_zero_bits in cg_arch.h): shifting them out keeps them
   from wasting index bits. */

#ifndef CG_BRANCHPRED_H
#define CG_BRANCHPRED_H

#include <stdint.h>

#include "cg_host.h"

/* Conditional branches: 2^14 two-bit saturating counters (0, 1: predict
   not taken; 2, 3: predict taken), indexed by the last 7 outcomes (global
   history, most recent in bit 0) above 7 bits of the branch address. */
#define CG_CONDPRED_HISTORY_BITS 7
#define CG_CONDPRED_ADDR_BITS 7
#define CG_CONDPRED_ENTRIES \
   (1u << (CG_CONDPRED_HISTORY_BITS + CG_CONDPRED_ADDR_BITS))

struct cg_condpred {
   uintptr_t history;                      /* outcomes, 1 = taken */
   unsigned zero_bits;
   uint8_t counters[CG_CONDPRED_ENTRIES];  /* each 0 .. 3 */
};

/* All counters 0 (strongly not taken), empty history. */
void cg_condpred_init(struct cg_condpred *p, unsigned zero_bits);

/* The address part of the counter index of the branch at instr_addr: a
   constant of the branch, which a caller may compute once. */
static inline unsigned cg_condpred_addr_index(const struct cg_condpred *p,
                                              cg_addr_t instr_addr)
{
   return (unsigned)(instr_addr >> p->zero_bits)
          & ((1u << CG_CONDPRED_ADDR_BITS) - 1);
}

/* The saturating step of a 2-bit counter as one constant: the next value
   of counter c after outcome t (0 or 1) is bits 4c + 2t .. 4c + 2t + 1.
   One step towards the outcome, saturating at 0 and 3:
     c = 0: 0, 1;  c = 1: 0, 2;  c = 2: 1, 3;  c = 3: 2, 3. */
#define CG_CONDPRED_STEP 0xED84u

/* Predicts the branch whose address part of the index is addr_index,
   learns its outcome t (1 taken, 0 not; nothing else) and returns 1 if
   the prediction was wrong.  No branch depends on the outcome or the
   counter: the outcomes of the simulated program's branches are data to
   the host, so branches on them would be mispredicted by the host itself,
   and this runs for every simulated branch. */
static inline int cg_condpred_update_at(struct cg_condpred *p,
                                        unsigned addr_index, unsigned t)
{
   const uintptr_t mask_h = (1u << CG_CONDPRED_HISTORY_BITS) - 1;
   uintptr_t history = p->history;
   uint8_t *counter = &p->counters[((history & mask_h)
                                    << CG_CONDPRED_ADDR_BITS) | addr_index];
   unsigned c = *counter;

   /* Predicted taken iff c >= 2. */
   p->history = (history << 1) | t;
   *counter = (uint8_t)((CG_CONDPRED_STEP >> (4 * c + 2 * t)) & 3);
   return (int)((c >> 1) ^ t);
}

/* Predicts the branch at instr_addr, learns its outcome taken and returns
   1 if the prediction was wrong. */
static inline int cg_condpred_predict_and_update(struct cg_condpred *p,
                                                 cg_addr_t instr_addr,
                                                 int taken)
{
   return cg_condpred_update_at(p, cg_condpred_addr_index(p, instr_addr),
                                taken != 0);
}

/* Indirect branches: the last target seen by each of 512 entries, indexed
   by 9 bits of the branch address.  All targets start at 0. */
#define CG_INDPRED_BITS 9
#define CG_INDPRED_ENTRIES (1u << CG_INDPRED_BITS)

struct cg_indpred {
   unsigned zero_bits;
   cg_addr_t targets[CG_INDPRED_ENTRIES];
};

void cg_indpred_init(struct cg_indpred *p, unsigned zero_bits);

/* Predicts that the branch at instr_addr goes where its entry went last
   time, records target and returns 1 if the prediction was wrong. */
static inline int cg_indpred_predict_and_update(struct cg_indpred *p,
                                                cg_addr_t instr_addr,
                                                cg_addr_t target)
{
   cg_addr_t *slot = &p->targets[(instr_addr >> p->zero_bits)
                                 & (CG_INDPRED_ENTRIES - 1)];
   int wrong = *slot != target;

   *slot = target;
   return wrong;
}

#endif /* CG_BRANCHPRED_H */
