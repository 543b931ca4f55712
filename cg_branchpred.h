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
   not taken; 2, 3: predict taken), one for each pair of the last 7
   outcomes (global history, most recent in bit 0) and 7 bits of the
   branch address.  (Upstream's index puts the history above the address
   bits; the table here is stored the other way round, address bits above
   history, which selects the same counter for the same pair and saves a
   shift per branch.) */
#define CG_CONDPRED_HISTORY_BITS 7
#define CG_CONDPRED_ADDR_BITS 7
#define CG_CONDPRED_ENTRIES \
   (1u << (CG_CONDPRED_HISTORY_BITS + CG_CONDPRED_ADDR_BITS))

struct cg_condpred {
   uintptr_t history;                      /* outcomes, 1 = taken */
   unsigned zero_bits;
   /* Each: the counter in bits 0-1; bit 2 is the last update's
      misprediction, which a lookup ignores (see cg_condpred_step). */
   uint8_t counters[CG_CONDPRED_ENTRIES];
};

/* All counters 0 (strongly not taken), empty history. */
void cg_condpred_init(struct cg_condpred *p, unsigned zero_bits);

/* The address part of the counter index of the branch at instr_addr, in
   place (shifted above the history bits): a constant of the branch, which
   a caller may compute once. */
static inline unsigned cg_condpred_addr_index(const struct cg_condpred *p,
                                              cg_addr_t instr_addr)
{
   return ((unsigned)(instr_addr >> p->zero_bits)
           & ((1u << CG_CONDPRED_ADDR_BITS) - 1)) << CG_CONDPRED_HISTORY_BITS;
}

/* Where in counters[] the counter of the branch with address part
   addr_index (cg_condpred_addr_index) is after the outcomes history. */
static inline unsigned cg_condpred_index(unsigned addr_index,
                                         uintptr_t history)
{
   return addr_index
          | (unsigned)(history & ((1u << CG_CONDPRED_HISTORY_BITS) - 1));
}

/* The counter (0 .. 3) that a branch at instr_addr uses after the
   outcomes history. */
static inline unsigned cg_condpred_counter(const struct cg_condpred *p,
                                           uintptr_t history,
                                           cg_addr_t instr_addr)
{
   return p->counters[cg_condpred_index(cg_condpred_addr_index(p, instr_addr),
                                        history)] & 3u;
}

/* The saturating step of a 2-bit counter and the misprediction, as one
   table: entry 2b + t, for a stored counter byte b and the outcome t (0 or
   1), holds the counter's next value (one step towards the outcome,
   saturating at 0 and 3) in bits 0-1 and, in bit 2, 1 if the counter
   (b & 3, taken iff >= 2) predicted wrongly.  The entry is stored as it
   is: the table repeats itself for bytes 4 to 7, so no masking. */
extern const uint8_t cg_condpred_step[16];

/* Predicts the branch whose address part of the index is addr_index
   (cg_condpred_addr_index), learns its outcome t (1 taken, 0 not;
   nothing else) and returns 1 if the prediction was wrong.  This runs for
   every simulated conditional branch, so it is written for few host
   instructions (one table lookup does the counter's step and the
   misprediction: the tool's helper is 16 instructions), and no branch
   depends on the outcome or the counter: the outcomes of the simulated
   program's branches are data to the host, and branches on them would be
   mispredicted by the host itself. */
static inline uintptr_t cg_condpred_update_at(struct cg_condpred *p,
                                              unsigned addr_index,
                                              uintptr_t t)
{
   uintptr_t history = p->history;
   uint8_t *counter = &p->counters[cg_condpred_index(addr_index, history)];
   uintptr_t next = cg_condpred_step[2 * (uintptr_t)*counter + t];

   p->history = 2 * history + t;
   *counter = (uint8_t)next;
   return next >> 2;
}

/* Predicts the branch at instr_addr, learns its outcome taken and returns
   1 if the prediction was wrong. */
static inline int cg_condpred_predict_and_update(struct cg_condpred *p,
                                                 cg_addr_t instr_addr,
                                                 int taken)
{
   return (int)cg_condpred_update_at(p,
                                     cg_condpred_addr_index(p, instr_addr),
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
