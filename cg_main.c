/* cg_main.c -- the Cachegrind tool: registration, options, wiring, client requests, fini.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Notes
   -----
   This file is the tool's glue: its registration with the core
   (details_*, needs_*), the options (filled into one struct cg_config and
   handed read-only to the components), the start-up wiring, the
   instrumentation switch of the client requests, the host functions of
   the plain-C modules (cg_host.h), the syscall hooks around exec, and
   fini.  The work is done by the components, each with a small header:

      cg_cc        the pool, interned names, the counter layout, line
                   cost centres (instruction ones with --dump-instr=yes),
                   totals
      cg_objects   the object files of instruction cost centres
      cg_blocks    the records of each translated superblock: storage,
                   the table by guest address, folding
      cg_instrument  the instrumentation pass: events, groups, flushes
      cg_irgen     IR emission, and the inline way-0 tests
      cg_sims      the simulation state, its set-up and the run-time
                   helpers (cg_sims_avx2.c: the AVX2 helper variants)
      cg_stubs     the amd64 data-access stubs
      cg_output    the profile writer, the pre-exec name, the summary and
                   --stats
      cg_parts     profile parts: zero and dump requests, --dump-every,
                   --separate-threads, the files written at exit and
                   before an exec
      cg_collect   --toggle-collect: which functions count, call and
                   return tracking
      cg_clreq     the request sequences of cachegrind.h, which count in
                   no event
      cg_sim, cg_branchpred, cg_arch
                   the plain-C cache model, predictors and cache
                   configuration, shared with the unit tests

   docs/design.md describes how they fit together, who owns what, and the
   path of one count from an IR statement to a line of the output file. */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_transtab.h"
#include "pub_tool_xarray.h"

#include "cachegrind.h"
#include "cg_arch.h"
#include "cg_blocks.h"
#include "cg_cc.h"
#include "cg_config.h"
#include "cg_host.h"
#include "cg_collect.h"
#include "cg_instrument.h"
#include "cg_objects.h"
#include "cg_output.h"
#include "cg_parts.h"
#include "cg_sims.h"

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

/* Parses the value of an option that is a count: decimal digits only,
   below 2^63; anything else is fatal with a message naming the option. */
static ULong cg_parse_count(const HChar *arg, const HChar *value)
{
   ULong n = 0;
   const HChar *s = value;

   if (*s == '\0')
      VG_(fmsg_bad_option)(arg, "a number is missing\n");
   for (; *s; s++) {
      if (*s < '0' || *s > '9')
         VG_(fmsg_bad_option)(arg, "'%s' is not a number (only the digits "
                              "0 to 9)\n", value);
      if (n > ((1ULL << 63) - 1 - (ULong)(*s - '0')) / 10)
         VG_(fmsg_bad_option)(arg, "'%s' is too large (the most is "
                              "9223372036854775807)\n", value);
      n = n * 10 + (ULong)(*s - '0');
   }
   return n;
}

/* Adds a --toggle-collect pattern (the core keeps the option strings
   until exit). */
static void cg_add_toggle_collect(const HChar *arg, const HChar *pattern)
{
   if (*pattern == '\0')
      VG_(fmsg_bad_option)(arg, "the function pattern is empty\n");
   config.toggle_collect = VG_(realloc)("cg.main.toggle", config.toggle_collect,
                                        (config.n_toggle_collect + 1)
                                        * sizeof *config.toggle_collect);
   config.toggle_collect[config.n_toggle_collect++] = pattern;
}

/* Where this tool's bugs go: not to Valgrind's developers, whose address
   the core prints at the end of --help. */
#define CG_BUGS_TO "the cachegrind-ng developers (see man cachegrind-ng)"

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
   else if VG_STR_CLO(arg, "--cachegrind-out-file", config.out_file) {
      /* A name that can only be a folder's: its parts would have become
         hidden files in it ("d/.1"), and its profile is lost. */
      const HChar *s = config.out_file;
      SizeT n = VG_(strlen)(s);
      const HChar *last = VG_(strrchr)(s, '/') ? VG_(strrchr)(s, '/') + 1 : s;
      if (n > 0 && (s[n - 1] == '/' || VG_(strcmp)(last, ".") == 0
                    || VG_(strcmp)(last, "..") == 0))
         VG_(fmsg_bad_option)(arg, "'%s' names a folder, not a file\n", s);
   }
   else if VG_BOOL_CLO(arg, "--cache-sim", config.cache_sim) {}
   else if VG_BOOL_CLO(arg, "--branch-sim", config.branch_sim) {}
   else if VG_BOOL_CLO(arg, "--instr-at-start", config.instr_at_start) {}
   else if VG_BOOL_CLO(arg, "--dump-instr", config.dump_instr) {}
   else if VG_STR_CLO(arg, "--dump-every", str)
      config.dump_every = cg_parse_count(arg, str);
   else if VG_BOOL_CLO(arg, "--separate-threads", config.separate_threads) {}
   else if VG_STR_CLO(arg, "--toggle-collect", str)
      cg_add_toggle_collect(arg, str);
   else if VG_STR_CLO(arg, "--part-base", str) {
      /* Any count: the tool passes on what it read plus the parts
         written, which a limit below the parser's would refuse at an
         exec, stopping the program there. */
      config.part_base = cg_parse_count(arg, str);
   }
   else if VG_STR_CLO(arg, "--fifo-fd", str) {
      ULong n = VG_(strcmp)(str, "none") == 0 ? 0x80000000ULL
                : cg_parse_count(arg, str);
      config.fifo_fd = n > 0x7fffffff ? -1 : (Int)n;
   }
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
"    --dump-instr=yes|no              write costs per instruction? [no]\n"
"    --dump-every=<n>                 write a part every <n> instructions [0]\n"
"    --separate-threads=yes|no        a profile for each thread? [no]\n"
"    --toggle-collect=<function>      count only inside <function> and its\n"
"                                     callees (repeatable; wildcards * ?)\n"
"    --I1=<size>,<assoc>,<line_size>  set I1 cache manually\n"
"    --D1=<size>,<assoc>,<line_size>  set D1 cache manually\n"
"    --LL=<size>,<assoc>,<line_size>  set LL cache manually\n"
"\n"
"    This Cachegrind is cachegrind-ng " CG_VERSION ": report its bugs to\n"
"    " CG_BUGS_TO ",\n"
"    not to the Valgrind address below.\n"
   );
}

static void cg_print_debug_usage(void)
{
   VG_(printf)(
"    --part-base=<n>                  number the profile parts after <n>\n"
"                                     (the tool passes it on at an exec) [0]\n"
"    --fifo-fd=<n>                    the FIFO output, kept open across an\n"
"                                     exec (the tool passes it on) [none]\n"
   );
}

/*------------------------------------------------------------*/
/*--- The host of the plain-C modules (cg_host.h)          ---*/
/*------------------------------------------------------------*/

/* Notes of what was detected are left out with -q: a user who asks for
   quiet wants no information that is not a problem (upstream prints
   them). */
void cg_host_message(enum cg_msg_level level, const char *line)
{
   if (level == CG_MSG_USER)
      VG_(umsg)("%s\n", line);
   else if (level == CG_MSG_DEBUG || VG_(clo_verbosity) > 0)
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
   case VG_USERREQ__CG_ZERO_STATS:
      cg_parts_zero();
      *ret = 0;
      return True;
   case VG_USERREQ__CG_DUMP_STATS:
      cg_parts_dump_request(0);
      *ret = 0;
      return True;
   case VG_USERREQ__CG_DUMP_STATS_AT:
      cg_parts_dump_request(args[1]);
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
/*--- Around exec                                          ---*/
/*------------------------------------------------------------*/

static Bool cg_is_exec_syscall(UInt sysno)
{
#if defined(__NR_execveat)
   if (sysno == __NR_execveat)
      return True;
#endif
   return sysno == __NR_execve;
}

/* The program's threads alive (the main thread's creation is heard of
   too), and whether it asked to end: exit_group, or exit of its last
   thread.  A run that ends without is ended by a signal. */
static UInt threads_alive;
static Bool exit_asked;

/* The core's (pub_core_options.h): whether it runs the program an exec
   starts under Valgrind (--trace-children, --trace-children-skip,
   --trace-children-skip-by-arg), and the last option's patterns. */
extern Bool VG_(should_we_trace_this_child)(const HChar *child_exe_name,
                                            const HChar **child_argv);
extern const HChar *VG_(clo_trace_children_skip_by_arg);

/* Copies the client's string at a into a new block (at most 4095 bytes),
   or NULL if it cannot be read whole. */
static HChar *cg_client_string(Addr a)
{
   HChar *s = VG_(malloc)("cg.main.exec", 4096);
   SizeT n = a == 0 ? 0 : cg_client_copy(a, (UChar *)s, 4096);
   for (SizeT i = 0; i < n; i++)
      if (s[i] == '\0')
         return s;
   VG_(free)(s);
   return NULL;
}

/* Whether the program this exec (execve, or execveat: the name and argv
   one argument later) starts will run under Valgrind, as the core
   decides it, from copies of the client's name and arguments (the core's
   own checks of them come after this hook).  False when they cannot be
   read: the exec then fails. */
static Bool cg_exec_traced(UInt sysno, UWord *args)
{
   UWord off = sysno == __NR_execve ? 0 : 1;
   HChar *name = cg_client_string(args[off]);
   if (!name)
      return False;
   const HChar **argv = NULL;
   UInt n = 0;
   Bool ok = True;
   if (VG_(clo_trace_children_skip_by_arg)) {
      /* The arguments, up to the terminating NULL (at most 4096). */
      argv = VG_(calloc)("cg.main.exec", 4097, sizeof *argv);
      for (Addr at = args[off + 1]; ok && n < 4096; n++, at += sizeof(Addr)) {
         Addr p;
         ok = cg_client_copy(at, (UChar *)&p, sizeof p) == sizeof p;
         if (!ok || p == 0)
            break;
         ok = (argv[n] = cg_client_string(p)) != NULL;
      }
      ok = ok && n < 4096;
   }
   Bool traced = ok && VG_(should_we_trace_this_child)(name, argv);
   for (UInt i = 0; argv && i < n; i++)
      if (argv[i])
         VG_(free)((void *)(Addr)argv[i]);
   if (argv)
      VG_(free)(argv);
   VG_(free)(name);
   return traced;
}

static void cg_pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs)
{
   if (cg_is_exec_syscall(sysno)) {
      cg_parts_pre_exec();
      cg_output_pre_exec(cg_exec_traced(sysno, args));
   }
   else if (sysno == __NR_exit_group || (sysno == __NR_exit && threads_alive <= 1))
      exit_asked = True;
}

/* Only reached after an exec when the exec failed. */
static void cg_post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs,
                            SysRes res)
{
   if (cg_is_exec_syscall(sysno)) {
      cg_parts_exec_failed();
      cg_output_exec_failed();
   }
}

/*------------------------------------------------------------*/
/*--- The profile of a forked child                       ---*/
/*------------------------------------------------------------*/

/* The suffix a forked child adds to an output-file name without %p. */
#define CG_CHILD_SUFFIX ".child.%p"

/* Whether the output-file format has a %p directive (%%p is a '%' and a
   'p'; a %q{...} name is skipped). */
static Bool cg_out_file_has_pid(void)
{
   for (const HChar *s = config.out_file; *s; s++) {
      if (*s != '%')
         continue;
      s++;
      if (*s == 'p')
         return True;
      if (*s == 'q' && s[1] == '{') {
         while (s[1] && s[1] != '}')
            s++;
      }
      if (*s == '\0')
         break;
   }
   return False;
}

/* Without %p in the output-file name, a forked child would write the same
   file as its parent and its siblings, and the process that exits last
   would silently replace the others' profiles (upstream even interleaves
   them).  So at the fork the child's name becomes "<name>.child.%p": it
   writes "<name>.child.<its pid>", and its pre-exec profiles
   "<name>.child.<pid>.pre-exec.<N>".  The new name is also added to the
   options the core passes on at an exec (--trace-children=yes), so that a
   program the child execs, which keeps its pid, writes that name too.
   The children of a child have %p in their name already. */
static void cg_atfork_child(ThreadId tid)
{
   static const HChar opt[] = "--cachegrind-out-file=";

   /* The child has one thread: the core drops the others' states without
      telling the tool. */
   threads_alive = 1;
   cg_parts_atfork_child(tid);
   /* The parent's name had the parent's pid (%p); the child's is its own
      (cg_out_file_special, below, does not fix it). */
   cg_out_file_forget();
   /* A name that cannot be expanded is an error at exit, which then
      names the user's option, not the child's. */
   if (cg_out_file_has_pid() || !cg_out_file_expandable() || cg_out_file_special())
      return;
   SizeT len = VG_(strlen)(config.out_file) + sizeof CG_CHILD_SUFFIX;
   HChar *arg = VG_(malloc)("cg.main.childname", sizeof opt - 1 + len);
   VG_(sprintf)(arg, "%s%s%s", opt, config.out_file, CG_CHILD_SUFFIX);
   /* The string stays in the core's list of options until exit, and
      config.out_file points into it. */
   VG_(addToXA)(VG_(args_for_valgrind), &arg);
   config.out_file = arg + sizeof opt - 1;
}

/*------------------------------------------------------------*/
/*--- Start-up and exit                                    ---*/
/*------------------------------------------------------------*/

static void cg_fini(Int exitcode)
{
   CgTotals tot;

   /* A FIFO's wait for a reader ends on a stop signal pending; the one
      that ended the program is consumed, so the end's profile does not
      wait (it waited for ever: one SIGTERM did not end the run). */
   if (!exit_asked)
      cg_output_fifo_no_wait();
   cg_parts_fini(&tot);
   if (VG_(clo_verbosity) == 0)
      return;
   /* Unlike the reference, the totals are true even when the file could
      not be written. */
   cg_print_summary(&tot);
   cg_parts_print_summary();
   if (VG_(clo_stats))
      cg_print_stats();
}

/*------------------------------------------------------------*/
/*--- Threads                                              ---*/
/*------------------------------------------------------------*/

static void cg_thread_created(ThreadId parent, ThreadId child)
{
   threads_alive++;
   cg_parts_thread_created(parent, child);
   cg_collect_thread_created(parent, child);
}

static void cg_thread_running(ThreadId tid, ULong blocks_dispatched)
{
   cg_parts_thread_running(tid, blocks_dispatched);
   cg_collect_thread_running(tid);
}

static void cg_thread_exited(ThreadId tid)
{
   if (threads_alive > 0)
      threads_alive--;
   cg_parts_thread_exited(tid);
   cg_collect_thread_exited(tid);
}

static void cg_post_clo_init(void)
{
   cg_cc_init(&config);
   cg_sims_init(&config);
   instr_enabled = config.instr_at_start;
   cg_blocks_init();
   cg_instrument_init(&config);
   cg_output_init(&config);
   cg_parts_init(&config);
   cg_collect_init(&config);
   VG_(atfork)(NULL, NULL, cg_atfork_child);
   /* Only what needs it hears of every dispatch: without, a run's work is
      the reference's.  Threads' creations and ends, rare, are counted. */
   VG_(track_pre_thread_ll_create)(cg_thread_created);
   VG_(track_pre_thread_ll_exit)(cg_thread_exited);
   if (config.separate_threads || config.n_toggle_collect > 0)
      VG_(track_start_client_code)(cg_thread_running);
   if (config.n_toggle_collect > 0) {
      VG_(track_pre_deliver_signal)(cg_collect_signal_delivered);
      VG_(track_post_deliver_signal)(cg_collect_signal_returned);
   }
   if (config.dump_instr)
      VG_(track_die_mem_munmap)(cg_objects_unmapped);
}

static void cg_pre_clo_init(void)
{
   /* The first banner line is upstream's to the letter (test filters,
      upstream's included, delete the banner by matching it), so the
      project and its version go on the second, the copyright line. */
   VG_(details_name)("Cachegrind");
   VG_(details_version)(NULL);
   VG_(details_description)("a high-precision tracing profiler");
   VG_(details_copyright_author)(
      "cachegrind-ng " CG_VERSION ", Copyright (C) 2026, and GNU GPL'd,"
      " by the cachegrind-ng developers.");
   VG_(details_bug_reports_to)(CG_BUGS_TO);
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
