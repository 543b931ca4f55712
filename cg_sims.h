/* cg_sims.h -- the run-time simulation: the caches and predictors, their set-up, the helpers.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Notes
   -----
   The emitted code calls the helpers declared here (VEX calls them as
   plain C functions with one to three arguments), so the state they
   simulate cannot be passed to them: it is module-level, set up once by
   cg_sims_init and from then on changed only by the helpers.  It is
   cg_sims (the three caches, the helper variants chosen for them and the
   minimum line size) and, beside it, the two predictors.  The predictors
   are objects of their own rather than members of cg_sims for one
   measured reason: as members, GCC schedules the x86 build of the branch
   helpers differently (their code would no longer be the code that
   docs/performance.md measured); as separate objects every helper
   compiles to the same instructions as before the tool was split into
   components.  The instrumenter reads the state too, to emit the inline
   way-0 tests (cg_irgen.c) and to choose the helpers.

   Helpers come in variants, each a struct cg_helper_set: the scalar one
   (any host, cg_sims.c) and the AVX2 ones (cg_sims_avx2.c), one per
   associativity 4, 8, 12 or 16, whose least-recently-used update is the
   vector code of cg_sim.h inline, on the compact tags of the first-level
   layout.  cg_sims_init chooses a variant for I1 and one for D1 from the
   cache's geometry and the host (cg_cache_vector_ways); the instrumenter
   calls only through them.
   Helpers that have no variant (any data size, guarded accesses,
   branches) are declared below. */

#ifndef CG_SIMS_H
#define CG_SIMS_H

#include "pub_tool_basics.h"

#include "cg_branchpred.h"
#include "cg_config.h"
#include "cg_sim.h"

/* What a helper needs to know of an instruction whose fetch or branch it
   simulates: its address and length, and the first of the counters it
   adds misses to (I1mr, Bcm or Bim of the instruction's line).  A fetch
   also has the block number of its last line, when that fits in 32 bits
   (last_block: the fetch_last helpers read it).  A branch always
   ends its group, and the branch's helper runs exactly when the
   group's code runs: so it also counts the group's runs (count), which
   spares the group its inline counter increment.  The group's entry of
   counts[] lies in the same allocation, before the record: count_delta is
   its offset from the record in bytes, negative (a pointer would make
   every record, and there are several per block, a third bigger; a signed
   offset needs no instruction of its own: the helper adds one to
   record + count_delta in one addressing mode).  Owner: the block's
   records (cg_blocks.h). */
typedef struct {
   Addr addr;
   ULong *misses;
   union {
      Int count_delta;        /* branches: &counts[group] - this, bytes */
      UInt last_block;        /* fetches: (addr + len - 1) >> I1's line
                                 bits */
   };
   UChar len;
   UShort cond_index;         /* conditional: cg_condpred_addr_index */
} CgSimInstr;

static inline ULong *cg_sim_count(const CgSimInstr *i)
{
   return (ULong *)((UWord)i + (Word)i->count_delta);
}

/* The data sizes that have a helper of their own in every variant. */
#define CG_N_DATA_SIZES 6
extern const Int cg_data_helper_sizes[CG_N_DATA_SIZES];   /* 1 .. 32 */
extern const HChar *const cg_data_helper_names[CG_N_DATA_SIZES];

/* One variant of the helpers that simulate fetches and data accesses.
   fetch and fetch_last take a const CgSimInstr * (regparm 1): fetch any
   fetch, fetch_last one whose lines before its last are known to be in
   way 0 of I1, so that only its last line needs a reference, and whose
   last line's block number fits in 32 bits.  data[i]
   takes (Addr ea, ULong *misses) (regparm 2) for an access of
   cg_data_helper_sizes[i] bytes, misses pointing at the line's D1mr or
   D1mw, followed by its LL counter.  The address comes first, so that a
   stub can supply misses (cg_stubs.h).  fetch_packed, where a variant has
   it (64-bit hosts), does what fetch_last does but takes the record and
   the block number packed in one word (cg_fetch_pack), so that its
   common path reads nothing but I1's set: the record only on a miss. */
struct cg_helper_set {
   void *fetch;
   void *fetch_last;
   void *fetch_packed;
   void *data[CG_N_DATA_SIZES];
};

/* The packed argument of fetch_packed for the filled record i: the
   record's distance from cg_sims.rec_base in 8-byte units (signed, so
   records may lie on either side) in the upper half, the fetch's last
   block number in the lower half.  False when the distance does not fit
   (the caller then calls fetch_last with the record).  cg_fetch_unpack,
   below struct cg_sims, is its inverse for the record.  64-bit hosts
   only. */
#if VG_WORDSIZE == 8
Bool cg_fetch_pack(const CgSimInstr *i, UWord *packed);
#endif

extern const struct cg_helper_set cg_helpers_scalar;
#ifdef CG_SIM_AVX2
/* Indexed by cg_cache_vector_ways / 4 (1 to 4: 4, 8, 12, 16 ways); [0] is
   unused. */
extern const struct cg_helper_set cg_helpers_avx2[5];
#endif

/* The simulation state (see the Notes).  Owner: cg_sims.c; set up by
   cg_sims_init, then changed only by the helpers; never freed (it lives
   until exit). */
struct cg_sims {
   /* The caches (with --cache-sim=yes; all zero otherwise).  The tags of
      I1 and D1 stay where cg_sims_init put them until exit: the emitted
      code holds their addresses. */
   struct cg_cache I1, D1, LL;
   /* The variants the emitted code calls for I1 and for D1. */
   const struct cg_helper_set *helpers_I1, *helpers_D1;
   /* Where the AVX2 variants go on a first-level miss: cg_l1_missed, or
      its version for the LL's associativity (cg_l1_missed_avx2). */
   VG_REGPARM(3) void (*l1_missed)(ULong *misses, Addr addr, UChar size);
   /* The origin of packed record distances (cg_fetch_pack): the first
      record packed, set then and never changed. */
   const HChar *rec_base;
   /* The smallest of the three line sizes, the largest data access
      simulated: bigger ones (x87 state saves, fxsave) are clamped to it
      so that no access spans more than two lines. */
   Int min_line_size;
};
extern struct cg_sims cg_sims;

#if VG_WORDSIZE == 8
static inline const CgSimInstr *cg_fetch_unpack(UWord packed)
{
   return (const CgSimInstr *)(cg_sims.rec_base + ((Word)packed >> 32) * 8);
}
#endif

/* The branch predictors (with --branch-sim=yes), owned like cg_sims. */
extern struct cg_condpred cg_cond_pred;
extern struct cg_indpred cg_ind_pred;

/* Sets up what cfg enables: the caches (auto-detection, defaults,
   options, validation; a configuration that cannot be simulated ends the
   run with status 1) and the predictors. */
void cg_sims_init(const struct cg_config *cfg);

/* The helpers without variants.  A data access of any size (misses: &D1mr
   or &D1mw of the line). */
VG_REGPARM(3) void cg_h_data(Addr ea, ULong *misses, UWord size);
/* A guarded load or store, which may not happen: it counts itself
   (counts: &Dr or &Dw of the line, followed by its two miss counters). */
VG_REGPARM(3) void cg_h_data_guarded(ULong *counts, Addr ea, UWord size);
/* Branches: taken is 1 or 0; target is where an indirect branch goes. */
VG_REGPARM(2) void cg_h_cond_branch(const CgSimInstr *i, UWord taken);
VG_REGPARM(2) void cg_h_ind_branch(const CgSimInstr *i, UWord target);

/* The rare path of every variant: an access that missed the first-level
   cache.  misses[0] counts it, then LL is referenced and misses[1] counts
   a miss there.  Out of line: it is rare, and the helpers reach it by a
   tail jump.  (Its regparm is explicit, so that the x86 tool, which would
   give a file-local function that convention on its own, calls it as it
   always did.) */
__attribute__((noinline)) VG_REGPARM(3)
void cg_l1_missed(ULong *misses, Addr addr, UChar size);

/* The LL reference of a first-level miss that is not a hit in the LL's
   way 0 (misses[1] counts a miss there): the rest of cg_l1_missed. */
__attribute__((noinline)) VG_REGPARM(3)
void cg_ll_ref(ULong *misses, Addr addr, UChar size);

#ifdef CG_SIM_AVX2
/* cg_l1_missed for an LL of 4k ways (k = 1 .. 8) with compact tags and
   the vector reference, indexed by k ([0] unused): the same counts and the
   same tags, with the LL's way-0 test, its set's stride and its vector
   reference inline; the rest goes to cg_ll_ref as in cg_l1_missed. */
extern VG_REGPARM(3) void (*const cg_l1_missed_avx2[9])(ULong *misses,
                                                        Addr addr,
                                                        UChar size);
#endif

/* The rare path of the AVX2 variants: an access through first-level cache
   l1 that they leave to the scalar code (two lines, or a block number
   beyond the compact tags), with cg_l1_missed on a miss. */
__attribute__((noinline)) VG_REGPARM(3)
void cg_l1_access(struct cg_cache *l1, Addr addr, UChar size, ULong *misses);

#endif /* CG_SIMS_H */
