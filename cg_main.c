/* cg_main.c -- Cachegrind tool glue: options, instrumentation, cost centres, output.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Notes
   -----
   Counting model.  For every guest instruction the tool keeps a line cost
   centre (file, function, line) found from the debug info when the code is
   instrumented.  Events (instruction fetches, data accesses, branches) are
   queued while a superblock is instrumented and flushed exactly where the
   reference Cachegrind flushes them (a full queue of 16, every side exit, a
   load-linked, a guarded access, the end of the block).  Where a flush
   happens matters: if a guest instruction faults in the middle of a block,
   the events queued since the last flush are lost, in the reference and
   here alike.

   What a flush emits differs from the reference.  The events of one flush
   form a *group*; every event of a group happens exactly once each time the
   group's code runs.  So a group needs one execution counter, incremented
   inline, and the per-line counts (Ir, Dr, Dw, Bc, Bi) are recovered later
   by folding: each event adds the group's count to its line's counter.
   Folding happens when a translation is discarded, before a profile is
   written, and at exit.  Only what depends on run-time values (cache and
   branch simulation, guarded accesses) needs a helper call.

   Simulation.  A fetch in the same line as the previous fetch of the block
   hits the most recently used way and changes nothing: it is not
   simulated, and an instruction that starts in that line and ends in the
   next is simulated as a reference to the next line alone.  Other fetches
   and data accesses are tested inline for that same case, and the helper
   is called only when the test fails (and then goes straight to the
   vector code below, which is right for a way-0 hit too).  A branch
   always ends its group, and its helper (always called: the predictors
   change on every branch) also counts the group's runs.  Helpers run in
   program order at the flush point, so the simulated caches see exactly
   the reference's sequence of accesses.  In a helper, a reference that
   misses way 0 moves its set with vector code where the host has AVX2
   (cg_sim.c), without the unpredictable branch of a scan; on such hosts
   the fetch and data helpers are themselves compiled for AVX2 with that
   code inline, and keep their rare paths (L1 misses, two-line accesses)
   out of line, so that the common path makes no call and saves no
   registers.  On amd64 a data access's call passes only the address: a
   small stub per (line counter, helper) supplies the counter (see
   cg_data_stub).
   docs/performance.md tells what each of these choices gains, and what was
   tried and dropped.

   Memory.  Line cost centres and interned strings live until exit.  A
   superblock's records (CgSBInfo) live as long as its translation: they are
   folded when the core discards the translation, and their storage goes
   to a free list by size for the next block's records. */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_transtab.h"
#include "pub_tool_xarray.h"
#include "pub_tool_hashtable.h"

#include "cachegrind.h"
#include "cg_arch.h"
#include "cg_host.h"
#include "cg_branchpred.h"
#include "cg_sim.h"
#include "cg_config.h"
#include "cg_cc.h"
#include "cg_sims.h"
#include "cg_blocks.h"
#include "cg_stubs.h"
#include "cg_output.h"
#include "cg_instrument.h"

/* Set to 1 to trace instrumentation decisions on the log. */
#define CG_DEBUG 0

/*------------------------------------------------------------*/
/*--- Options                                              ---*/
/*------------------------------------------------------------*/

/* The options; owner: this file; read by the components (cg_config.h). */
static struct cg_config config = CG_CONFIG_DEFAULTS;

/* Whether superblocks are being instrumented now (client requests). */
static Bool instr_enabled = True;

/* Parses the value of --I1/--D1/--LL/--L2 into *cfg; a bad one is fatal
   with the reference's messages. */
static void cg_parse_cache_opt(const HChar *arg, const HChar *value,
                               struct cg_cache_config *cfg)
{
   const char *msg;
   switch (cg_arch_parse_cache_opt(value, cfg, &msg)) {
   case CG_CACHE_OPT_OK:
      return;
   case CG_CACHE_OPT_BAD_ARGUMENT:
      break;
   case CG_CACHE_OPT_OVERFLOW:
      VG_(fmsg_bad_option)(arg, "%s\n", msg);
      return;
   case CG_CACHE_OPT_INVALID:
      VG_(fmsg)("%s\n", msg);
      break;
   }
   VG_(fmsg_bad_option)(arg, CG_ARCH_ERR_BAD_ARGUMENT "\n", value);
}

static Bool cg_process_cmd_line_option(const HChar *arg)
{
   const HChar *str;

   /* The cache options first, as in the reference. */
   if (VG_STR_CLO(arg, "--I1", str))
      cg_parse_cache_opt(arg, str, &config.I1);
   else if (VG_STR_CLO(arg, "--D1", str))
      cg_parse_cache_opt(arg, str, &config.D1);
   else if (VG_STR_CLO(arg, "--LL", str) || VG_STR_CLO(arg, "--L2", str))
      cg_parse_cache_opt(arg, str, &config.LL);
   else if VG_STR_CLO(arg, "--cachegrind-out-file", config.out_file) {}
   else if VG_BOOL_CLO(arg, "--cache-sim", config.cache_sim) {}
   else if VG_BOOL_CLO(arg, "--branch-sim", config.branch_sim) {}
   else if VG_BOOL_CLO(arg, "--instr-at-start", config.instr_at_start) {}
   else
      return False;
   return True;
}

static void cg_print_usage(void)
{
   VG_(printf)(
"    --cachegrind-out-file=<file>     output file name [cachegrind.out.%%p]\n"
"    --cache-sim=yes|no               collect cache stats? [no]\n"
"    --branch-sim=yes|no              collect branch prediction stats? [no]\n"
"    --instr-at-start=yes|no          instrument at start? [yes]\n"
"    --I1=<size>,<assoc>,<line_size>  set I1 cache manually\n"
"    --D1=<size>,<assoc>,<line_size>  set D1 cache manually\n"
"    --LL=<size>,<assoc>,<line_size>  set LL cache manually\n"
   );
}

static void cg_print_debug_usage(void)
{
   VG_(printf)("    (none)\n");
}

/*------------------------------------------------------------*/
/*--- The host of the plain-C modules (cg_host.h)          ---*/
/*------------------------------------------------------------*/

void cg_host_message(enum cg_msg_level level, const char *line)
{
   if (level == CG_MSG_USER)
      VG_(umsg)("%s\n", line);
   else
      VG_(dmsg)("%s\n", line);
}

void cg_host_straddle_panic(cg_addr_t addr, unsigned size,
                            cg_addr_t first_block, cg_addr_t last_block)
{
   VG_(printf)("addr: %lx  size: %u  blocks: %lu %lu", (UWord)addr, size,
               (UWord)first_block, (UWord)last_block);
   VG_(tool_panic)("item straddles more than two cache sets");
   __builtin_unreachable();
}

/*------------------------------------------------------------*/
/*--- Instrumentation on and off                           ---*/
/*------------------------------------------------------------*/

/* The core's instrumentation callback: blocks translated while
   instrumentation is off are left as they are. */
static IRSB *cg_instrument_if_enabled(VgCallbackClosure *closure, IRSB *sb_in,
                                      const VexGuestLayout *layout,
                                      const VexGuestExtents *vge,
                                      const VexArchInfo *archinfo_host,
                                      IRType gWordTy, IRType hWordTy)
{
   if (!instr_enabled)
      return sb_in;
   return cg_instrument(closure, sb_in, layout, vge, archinfo_host, gWordTy,
                        hWordTy);
}

/* The core discards a translation.  Blocks translated while
   instrumentation was off have no records; all others were discarded when
   it was switched off. */
static void cg_discard_superblock_info(Addr orig_addr, VexGuestExtents vge)
{
   tl_assert(vge.n_used > 0);
   cg_sb_discard(vge.base[0], instr_enabled);
}

/*------------------------------------------------------------*/
/*--- Client requests                                      ---*/
/*------------------------------------------------------------*/

static void cg_set_instrumentation(Bool enable)
{
   if (instr_enabled == enable) {
      VG_(dmsg)("warning: CACHEGRIND_%s_INSTRUMENTATION called,\n",
                enable ? "START" : "STOP");
      VG_(dmsg)("         but instrumentation is already %s\n",
                enable ? "enabled" : "disabled");
      return;
   }
   /* Discard first, while the flag still says which translations carry
      records: the discard callback relies on it. */
   VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "cachegrind");
   instr_enabled = enable;
}

static Bool cg_handle_client_request(ThreadId tid, UWord *args, UWord *ret)
{
   if (!VG_IS_TOOL_USERREQ('C', 'G', args[0])
       && args[0] != VG_USERREQ__GDB_MONITOR_COMMAND)
      return False;
   switch (args[0]) {
   case VG_USERREQ__CG_START_INSTRUMENTATION:
      cg_set_instrumentation(True);
      *ret = 0;
      return True;
   case VG_USERREQ__CG_STOP_INSTRUMENTATION:
      cg_set_instrumentation(False);
      *ret = 0;
      return True;
   default:
      VG_(message)(Vg_UserMsg,
                   "Warning: unknown cachegrind client request code %llx\n",
                   (ULong)args[0]);
      return False;
   }
}

/*------------------------------------------------------------*/
/*--- Start-up and exit                                    ---*/
/*------------------------------------------------------------*/

static void cg_fini(Int exitcode)
{
   CgTotals tot;

   cg_fold_all();
   cg_cc_totals(&tot);

   HChar *path = VG_(expand_file_name)("--cachegrind-out-file", config.out_file);
   if (!cg_write_profile_file(path, &tot))
      stat_files_written = stat_fns_written = stat_lines_written = 0;
   VG_(free)(path);

   if (VG_(clo_verbosity) == 0)
      return;
   /* Unlike the reference, the totals are true even when the file could
      not be written. */
   cg_print_summary(&tot);
   if (VG_(clo_stats))
      cg_print_stats();
}

static void cg_post_clo_init(void)
{
   cg_cc_init(&config);
   cg_sims_init(&config);
   instr_enabled = config.instr_at_start;
   cg_blocks_init();
   cg_instrument_init(&config);
   cg_output_init(&config);
}

static void cg_pre_clo_init(void)
{
   VG_(details_name)("Cachegrind");
   VG_(details_version)(NULL);
   VG_(details_description)("a high-precision tracing profiler");
   VG_(details_copyright_author)(
      "Copyright (C) 2026, and GNU GPL'd, by the cachegrind-ng developers.");
   VG_(details_bug_reports_to)(VG_BUGS_TO);
   VG_(details_avg_translation_sizeB)(500);

   /* The reference's register-update policy, so that the core builds the
      same blocks; the user may still override it. */
   VG_(clo_vex_control).iropt_register_updates_default
      = VG_(clo_px_file_backed) = VexRegUpdSpAtMemAccess;

   VG_(basic_tool_funcs)(cg_post_clo_init, cg_instrument_if_enabled, cg_fini);
   VG_(needs_superblock_discards)(cg_discard_superblock_info);
   VG_(needs_command_line_options)(cg_process_cmd_line_option,
                                   cg_print_usage, cg_print_debug_usage);
   VG_(needs_client_requests)(cg_handle_client_request);
   VG_(needs_syscall_wrapper)(cg_pre_syscall, cg_post_syscall);
}

VG_DETERMINE_INTERFACE_VERSION(cg_pre_clo_init)
