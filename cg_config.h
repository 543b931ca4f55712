/* cg_config.h -- the tool's options: one struct, filled by option parsing.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   cg_main.c owns the one instance and fills it from the command line
   (cg_process_cmd_line_option).  Once the options are known, each
   component that needs one gets a const pointer to it in its set-up
   function (cg_cc_init, cg_sims_init, cg_instrument_init, cg_output_init)
   and only reads it; nothing changes it after start-up. */

#ifndef CG_CONFIG_H
#define CG_CONFIG_H

#include "pub_tool_basics.h"
#include "cg_sim.h"

struct cg_config {
   const HChar *out_file;      /* --cachegrind-out-file, not yet expanded */
   Bool cache_sim;             /* --cache-sim */
   Bool branch_sim;            /* --branch-sim */
   Bool instr_at_start;        /* --instr-at-start */
   struct cg_cache_config I1;  /* --I1; CG_CACHE_UNSET when not given */
   struct cg_cache_config D1;  /* --D1 */
   struct cg_cache_config LL;  /* --LL (or --L2) */
   Bool dump_instr;            /* --dump-instr */
   /* Regions, phases and threads (cg_parts.c, cg_collect.c). */
   ULong dump_every;           /* --dump-every: a part every N Ir; 0: off */
   Bool separate_threads;      /* --separate-threads */
   const HChar **toggle_collect;  /* --toggle-collect patterns, in the
                                     order given; owner: cg_main.c */
   UInt n_toggle_collect;
   ULong part_base;             /* --part-base: parts taken before this
                                  image (the tool passes it across exec) */
   Int fifo_fd;                 /* --fifo-fd: the FIFO output the image
                                   before the exec kept open, or -1 */
};

/* The defaults, as the option help states them. */
#define CG_CONFIG_DEFAULTS                                                 \
   { "cachegrind.out.%p", False, False, True,                              \
     CG_CACHE_UNSET, CG_CACHE_UNSET, CG_CACHE_UNSET, False,                \
     0, False, NULL, 0, 0, -1 }

#endif /* CG_CONFIG_H */
