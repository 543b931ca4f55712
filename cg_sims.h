/* cg_sims.h -- the simulated caches and branch predictors, and the run-time helpers.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef CG_SIMS_H
#define CG_SIMS_H

#include "pub_tool_basics.h"

#include "cg_arch.h"
#include "cg_branchpred.h"
#include "cg_sim.h"
#include "cg_config.h"

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

/* The helpers for fetches and for data accesses of the common sizes, as a
   set of functions that do their references with ACCESS. */
typedef struct {
   void *fetch;                  /* any fetch */
   void *fetch_last;             /* a fetch whose lines before its last
                                    are known to be in way 0 */
   void *data[6];                /* sizes 1, 2, 4, 8, 16, 32 */
} CgHelperSet;

extern struct cg_cache cache_I1, cache_D1, cache_LL;
extern struct cg_condpred cond_predictor;
extern struct cg_indpred ind_predictor;
extern Int min_line_size;

extern const Int cg_data_helper_sizes[6];
extern const HChar *const cg_data_helper_names[6];
extern const CgHelperSet *helpers_I1;
extern const CgHelperSet *helpers_D1;

VG_REGPARM(3) void cg_h_data(Addr ea, ULong *misses, UWord size);
VG_REGPARM(3) void cg_h_data_guarded(ULong *counts, Addr ea, UWord size);
VG_REGPARM(2) void cg_h_cond_branch(const CgSimInstr *i, UWord taken);
VG_REGPARM(2) void cg_h_ind_branch(const CgSimInstr *i, UWord target);

enum cg_arch cg_guest_arch(void);
void cg_configure_caches(const struct cg_config *cfg);

#endif /* CG_SIMS_H */
