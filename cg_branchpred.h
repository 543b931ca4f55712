/* cg_branchpred.h -- the conditional and indirect branch predictors.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Plain C with no Valgrind or libc dependency (spec section 8).  Each
   predictor is one struct owned by its caller; init clears it and
   predict_and_update, static inline because it runs for every branch,
   returns 1 when the prediction was wrong.  zero_bits is the number of
   always-zero low bits of instruction addresses on the guest
   (cg_arch_branch_zero_bits in cg_arch.h): shifting them out keeps them
   from wasting index bits. */

#ifndef CG_BRANCHPRED_H
#define CG_BRANCHPRED_H

#include <stdint.h>

#ifndef CG_ADDR_T_DEFINED
#define CG_ADDR_T_DEFINED
/* A guest address (see cg_sim.h). */
typedef uintptr_t cg_addr_t;
#endif

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

/* The two-bit counter's next state, indexed by (counter << 1 | taken):
   bits 0-1 the new counter (one step towards the outcome, saturating at 0
   and 3), bit 2 set when the prediction (taken iff counter >= 2) was
   wrong.  A table rather than branches: the outcomes of the simulated
   program's branches are data to the host, so branches on them would be
   mispredicted on the host itself. */
extern const uint8_t cg_condpred_next[8];

/* Predicts the branch at instr_addr, learns its outcome taken (any
   non-zero value means taken) and returns 1 if the prediction was wrong. */
static inline int cg_condpred_predict_and_update(struct cg_condpred *p,
                                                 cg_addr_t instr_addr,
                                                 int taken)
{
   const uintptr_t mask_h = (1u << CG_CONDPRED_HISTORY_BITS) - 1;
   const uintptr_t mask_a = (1u << CG_CONDPRED_ADDR_BITS) - 1;
   uintptr_t index = ((p->history & mask_h) << CG_CONDPRED_ADDR_BITS)
                     | ((instr_addr >> p->zero_bits) & mask_a);
   uint8_t *counter = &p->counters[index];
   unsigned outcome = taken != 0;
   unsigned next = cg_condpred_next[(unsigned)*counter << 1 | outcome];

   p->history = (p->history << 1) | outcome;
   *counter = (uint8_t)(next & 3);
   return (int)(next >> 2);
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
