/* cg_sims.h -- the simulated caches and branch predictors, and the run-time helpers.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef CG_SIMS_H
#define CG_SIMS_H

#include "pub_tool_basics.h"

/* What a helper needs to know of an instruction whose fetch or branch it
   simulates: its address and length, and the first of the counters it
   adds misses to (I1mr, Bcm or Bim of the instruction's line).  A fetch
   also has its last line's set, a constant (set_off).  A branch always
   ends its group, and the branch's helper runs exactly when the
   group's code runs: so it also counts the group's runs (count), which
   spares the group its inline counter increment.  The group's entry of
   counts[] lies in the same allocation, before the record: count_off is
   its distance in bytes (a pointer would make every record, and there are
   several per block, a third bigger). */
typedef struct {
   Addr addr;
   ULong *misses;
   union {
      UInt count_off;         /* branches: this - &counts[group], bytes */
      UInt set_off;           /* fetches: where the set of the last line
                                 starts in I1's tags, in tags */
   };
   UChar len;
   UChar cond_index;          /* conditional: cg_condpred_addr_index */
} CgSimInstr;

static inline ULong *cg_sim_count(const CgSimInstr *i)
{
   return (ULong *)((UWord)i - i->count_off);
}

#endif /* CG_SIMS_H */
