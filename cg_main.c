/* cg_main.c -- Cachegrind tool: registration, instrumentation, output.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

static void cg_post_clo_init(void) {}

static IRSB *cg_instrument(VgCallbackClosure *closure, IRSB *sb_in,
                           const VexGuestLayout *layout,
                           const VexGuestExtents *vge,
                           const VexArchInfo *archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{
   return sb_in;
}

static void cg_fini(Int exitcode) {}

static void cg_pre_clo_init(void)
{
   VG_(details_name)("Cachegrind");
   VG_(details_version)(NULL);
   VG_(details_description)("a high-precision tracing profiler");
   VG_(details_copyright_author)(
      "Copyright (C) 2026, and GNU GPL'd, by the cachegrind-ng developers.");
   VG_(details_bug_reports_to)(VG_BUGS_TO);
   VG_(details_avg_translation_sizeB)(500);
   VG_(basic_tool_funcs)(cg_post_clo_init, cg_instrument, cg_fini);
}

VG_DETERMINE_INTERFACE_VERSION(cg_pre_clo_init)
