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

const HChar *clo_out_file = "cachegrind.out.%p";
Bool clo_cache_sim = False;
Bool clo_branch_sim = False;
Bool clo_instr_at_start = True;
struct cg_cache_config clo_I1 = CG_CACHE_UNSET;
struct cg_cache_config clo_D1 = CG_CACHE_UNSET;
struct cg_cache_config clo_LL = CG_CACHE_UNSET;

/* Whether superblocks are being instrumented now (client requests). */
Bool instr_enabled = True;

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
      cg_parse_cache_opt(arg, str, &clo_I1);
   else if (VG_STR_CLO(arg, "--D1", str))
      cg_parse_cache_opt(arg, str, &clo_D1);
   else if (VG_STR_CLO(arg, "--LL", str) || VG_STR_CLO(arg, "--L2", str))
      cg_parse_cache_opt(arg, str, &clo_LL);
   else if VG_STR_CLO(arg, "--cachegrind-out-file", clo_out_file) {}
   else if VG_BOOL_CLO(arg, "--cache-sim", clo_cache_sim) {}
   else if VG_BOOL_CLO(arg, "--branch-sim", clo_branch_sim) {}
   else if VG_BOOL_CLO(arg, "--instr-at-start", clo_instr_at_start) {}
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
/*--- Output file                                          ---*/
/*------------------------------------------------------------*/

/* A buffered writer on a file descriptor; remembers the first error. */
typedef struct {
   Int fd;
   Int used;
   Bool failed;
   HChar buf[1 << 16];
} CgOut;

static void cg_out_flush(CgOut *o)
{
   Int off = 0;
   while (off < o->used && !o->failed) {
      Int n = VG_(write)(o->fd, o->buf + off, o->used - off);
      if (n <= 0)
         o->failed = True;
      else
         off += n;
   }
   o->used = 0;
}

static void cg_out_bytes(CgOut *o, const HChar *s, Int len)
{
   while (len > 0) {
      if (o->used == (Int)sizeof o->buf)
         cg_out_flush(o);
      Int n = (Int)sizeof o->buf - o->used;
      if (n > len)
         n = len;
      VG_(memcpy)(o->buf + o->used, s, n);
      o->used += n;
      s += n;
      len -= n;
   }
}

static void cg_out_str(CgOut *o, const HChar *s)
{
   cg_out_bytes(o, s, (Int)VG_(strlen)(s));
}

static void cg_out_u64(CgOut *o, ULong v)
{
   HChar tmp[24];
   Int i = sizeof tmp;
   do {
      tmp[--i] = (HChar)('0' + v % 10);
      v /= 10;
   } while (v);
   cg_out_bytes(o, tmp + i, (Int)sizeof tmp - i);
}

static void cg_out_line_number(CgOut *o, Int line)
{
   if (line < 0) {
      cg_out_bytes(o, "-", 1);
      cg_out_u64(o, (ULong)(-(Long)line));
   } else {
      cg_out_u64(o, (ULong)line);
   }
}

/* Cache descriptions for the desc: lines (set when the simulation is on). */
const HChar *desc_I1, *desc_D1, *desc_LL;

static void cg_write_header(CgOut *o)
{
   if (clo_cache_sim) {
      cg_out_str(o, "desc: I1 cache:         ");
      cg_out_str(o, desc_I1);
      cg_out_str(o, "\ndesc: D1 cache:         ");
      cg_out_str(o, desc_D1);
      cg_out_str(o, "\ndesc: LL cache:         ");
      cg_out_str(o, desc_LL);
      cg_out_str(o, "\n");
   }
   cg_out_str(o, "cmd: ");
   cg_out_str(o, VG_(args_the_exename));
   for (Word i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++) {
      cg_out_str(o, " ");
      cg_out_str(o, *(HChar **)VG_(indexXA)(VG_(args_for_client), i));
   }
   cg_out_str(o, "\nevents:");
   for (UInt c = 0; c < N_COLUMNS; c++)
      if (col_slot[c] >= 0) {
         cg_out_str(o, " ");
         cg_out_str(o, cg_columns[c].name);
      }
   /* The reference's cache-only events line ends with a space. */
   if (clo_cache_sim && !clo_branch_sim)
      cg_out_str(o, " ");
   cg_out_str(o, "\n");
}

/* " <count>" for each counter (they are in column order), then a newline. */
static void cg_write_counts(CgOut *o, const ULong *counts)
{
   for (UInt i = 0; i < n_slots; i++) {
      cg_out_bytes(o, " ", 1);
      cg_out_u64(o, counts[i]);
   }
   cg_out_bytes(o, "\n", 1);
}

static Int cg_cmp_cc(const void *a, const void *b)
{
   const CgLineCC *x = *(const CgLineCC *const *)a;
   const CgLineCC *y = *(const CgLineCC *const *)b;
   Int r;
   if (x->file != y->file && (r = VG_(strcmp)(x->file, y->file)) != 0)
      return r;
   if (x->fn != y->fn && (r = VG_(strcmp)(x->fn, y->fn)) != 0)
      return r;
   return x->line < y->line ? -1 : x->line > y->line;
}

/* All line cost centres sorted by (file, function, line); the caller frees
   the array. */
static CgLineCC **cg_sorted_ccs(void)
{
   CgLineCC **v = VG_(malloc)("cg.main.sorted", (cc_count + 1) * sizeof *v);
   UInt n = 0;
   for (UInt b = 0; b < cc_table_size; b++)
      for (CgLineCC *cc = cc_table[b]; cc; cc = cc->next)
         v[n++] = cc;
   tl_assert(n == cc_count);
   VG_(ssort)(v, n, sizeof *v, cg_cmp_cc);
   return v;
}

/* Statistics of the last profile written (--stats=yes). */
static UInt stat_files_written, stat_fns_written, stat_lines_written;

/* Writes the whole profile to fd; returns False on a write error. */
static Bool cg_write_profile(Int fd)
{
   CgOut *o = VG_(malloc)("cg.main.out", sizeof *o);
   CgLineCC **v = cg_sorted_ccs();
   CgTotals tot = { { 0 } };
   const HChar *file = NULL, *fn = NULL;

   o->fd = fd;
   o->used = 0;
   o->failed = False;
   stat_files_written = stat_fns_written = stat_lines_written = 0;
   cg_write_header(o);
   for (UInt i = 0; i < cc_count; i++) {
      const CgLineCC *cc = v[i];
      Bool new_file = cc->file != file;
      if (new_file) {
         file = cc->file;
         cg_out_str(o, "fl=");
         cg_out_str(o, file);
         cg_out_str(o, "\n");
         stat_files_written++;
      }
      if (new_file || cc->fn != fn) {
         fn = cc->fn;
         cg_out_str(o, "fn=");
         cg_out_str(o, fn);
         cg_out_str(o, "\n");
         stat_fns_written++;
      }
      cg_out_line_number(o, cc->line);
      cg_write_counts(o, cc->c);
      cg_add_totals(&tot, cc);
      stat_lines_written++;
   }
   ULong sum[N_COLUMNS];
   for (UInt c = 0; c < N_COLUMNS; c++)
      if (col_slot[c] >= 0)
         sum[col_slot[c]] = tot.v[c];
   cg_out_str(o, "summary:");
   cg_write_counts(o, sum);
   cg_out_flush(o);

   Bool ok = !o->failed;
   VG_(free)(v);
   VG_(free)(o);
   return ok;
}

/* The file a path finally names, following symbolic links (relative
   targets are relative to the link's folder), as upstream's open() would;
   a new string the caller frees.  Gives up after 40 links (the open then
   reports the loop). */
static HChar *cg_resolve_links(const HChar *path)
{
   HChar *cur = VG_(strdup)("cg.main.path", path);
   HChar target[4096];

   for (Int depth = 0; depth < 40; depth++) {
      SSizeT n = VG_(readlink)(cur, target, sizeof target - 1);
      if (n < 0)
         break;                  /* not a link, or absent */
      target[n] = '\0';
      const HChar *slash = VG_(strrchr)(cur, '/');
      SizeT dir_len = target[0] == '/' || !slash ? 0 : (SizeT)(slash - cur) + 1;
      HChar *next = VG_(malloc)("cg.main.path", dir_len + (SizeT)n + 1);
      VG_(memcpy)(next, cur, dir_len);
      VG_(memcpy)(next + dir_len, target, (SizeT)n + 1);
      VG_(free)(cur);
      cur = next;
   }
   return cur;
}

/* Whether file (links resolved) exists and is not a regular file (a
   device, a FIFO...): then it is written in place rather than replaced by
   a rename. */
static Bool cg_is_special_file(const HChar *file)
{
   struct vg_stat st;
   if (sr_isError(VG_(stat)(file, &st)))
      return False;              /* absent: create it */
   return !VKI_S_ISREG(st.mode);
}

static Bool cg_path_exists(const HChar *path)
{
   struct vg_stat st;
   return !sr_isError(VG_(stat)(path, &st));
}

/* Writes the profile to path so that it is complete or absent: into a
   temporary file beside the file path names (symbolic links followed),
   renamed over it at the end; devices and FIFOs are written in place.
   Returns False (and prints why) if that failed. */
static Bool cg_write_profile_file(const HChar *path)
{
   HChar *file = cg_resolve_links(path);
   HChar *tmp = NULL;
   SysRes sres;

   if (cg_is_special_file(file)) {
      sres = VG_(open)(file, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                       VKI_S_IRUSR | VKI_S_IWUSR);
   } else {
      tmp = VG_(malloc)("cg.main.tmpname", VG_(strlen)(file) + 32);
      VG_(sprintf)(tmp, "%s.tmp.%d", file, VG_(getpid)());
      sres = VG_(open)(tmp, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                       VKI_S_IRUSR | VKI_S_IWUSR);
   }
   Bool ok = !sr_isError(sres);
   if (!ok) {
      VG_(umsg)("error: can't open output data file '%s'\n", path);
      VG_(umsg)("       ... so detailed results will be missing.\n");
   } else {
      Int fd = (Int)sr_Res(sres);
      ok = cg_write_profile(fd);
      VG_(close)(fd);
      if (ok && tmp && VG_(rename)(tmp, file) != 0)
         ok = False;
      if (!ok) {
         VG_(umsg)("error: writing output data file '%s' failed\n", path);
         VG_(umsg)("       ... so detailed results will be missing.\n");
         if (tmp)
            VG_(unlink)(tmp);
      }
   }
   if (tmp)
      VG_(free)(tmp);
   VG_(free)(file);
   return ok;
}

/*------------------------------------------------------------*/
/*--- The profile of an image that calls exec              ---*/
/*------------------------------------------------------------*/

/* The reference loses the profile of a process image that calls exec.
   This tool writes it, just before the exec, to
   "<output file>.pre-exec.<N>" (N = 1, 2, ...: the first name not taken,
   so successive execs in one process come in order).  If the exec fails,
   the file is removed again and the process goes on counting. */
static HChar *pre_exec_path;

/* Whether the output-file format expands without an error (the core's
   expander exits on errors, which must not happen in the middle of an
   exec: the error is then reported at exit, as usual). */
static Bool cg_out_file_expandable(void)
{
   const HChar *s = clo_out_file;
   if (s[0] == '\0' || s[0] == '~')
      return False;
   for (; *s; s++) {
      if (*s != '%')
         continue;
      s++;
      if (*s == '%' || *s == 'p' || *s == 'n')
         continue;
      if (*s != 'q' || s[1] != '{')
         return False;
      const HChar *name = s + 2, *end = name;
      while (*end && *end != '}')
         end++;
      if (*end != '}')
         return False;
      HChar var[256];
      SizeT len = (SizeT)(end - name);
      if (len >= sizeof var)
         return False;
      VG_(memcpy)(var, name, len);
      var[len] = '\0';
      if (VG_(getenv)(var) == NULL)
         return False;
      s = end;
   }
   return True;
}

static Bool cg_is_exec_syscall(UInt sysno)
{
#if defined(__NR_execveat)
   if (sysno == __NR_execveat)
      return True;
#endif
   return sysno == __NR_execve;
}

static void cg_pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs)
{
   if (!cg_is_exec_syscall(sysno) || !cg_out_file_expandable())
      return;
   cg_fold_all();
   HChar *base = VG_(expand_file_name)("--cachegrind-out-file", clo_out_file);
   SizeT len = VG_(strlen)(base) + 32;
   HChar *path = VG_(malloc)("cg.main.preexec", len);
   for (UInt n = 1; ; n++) {
      VG_(sprintf)(path, "%s.pre-exec.%u", base, n);
      if (!cg_path_exists(path))
         break;
   }
   VG_(free)(base);
   if (cg_write_profile_file(path)) {
      pre_exec_path = path;
   } else {
      VG_(free)(path);
   }
}

static void cg_post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs,
                            SysRes res)
{
   if (!cg_is_exec_syscall(sysno) || pre_exec_path == NULL)
      return;
   /* Only reached when the exec failed: this image goes on. */
   VG_(unlink)(pre_exec_path);
   VG_(free)(pre_exec_path);
   pre_exec_path = NULL;
}

/*------------------------------------------------------------*/
/*--- Summary and statistics                               ---*/
/*------------------------------------------------------------*/

/* Width of n printed with thousands separators. */
static Int cg_commas_width(ULong n)
{
   Int digits = 1;
   while (n >= 10) {
      n /= 10;
      digits++;
   }
   return digits + (digits - 1) / 3;
}

static ULong cg_max(ULong a, ULong b)
{
   return a > b ? a : b;
}

static ULong cg_nonzero(ULong n)
{
   return n == 0 ? 1 : n;
}

static void cg_print_cache_summary(const CgTotals *t, Int l1, Int l2, Int l3)
{
   HChar fmt[128];
   const ULong *v = t->v;
   ULong ir = cg_nonzero(v[COL_IR]);

   VG_(sprintf)(fmt, "%%s %%,%dllu\n", l1);
   VG_(umsg)(fmt, "I1  misses:   ", v[COL_I1MR]);
   VG_(umsg)(fmt, "LLi misses:   ", v[COL_ILMR]);
   VG_(umsg)("I1  miss rate: %*.2f%%\n", l1, v[COL_I1MR] * 100.0 / ir);
   VG_(umsg)("LLi miss rate: %*.2f%%\n", l1, v[COL_ILMR] * 100.0 / ir);
   VG_(umsg)("\n");

   /* Counts are printed as they are; zeros become ones only in the rate
      denominators, exactly as the reference computes the rates. */
   ULong d = v[COL_DR] + v[COL_DW];
   ULong d1 = v[COL_D1MR] + v[COL_D1MW], dl = v[COL_DLMR] + v[COL_DLMW];
   VG_(sprintf)(fmt, "%%s %%,%dllu  (%%,%dllu rd   + %%,%dllu wr)\n",
                l1, l2, l3);
   VG_(umsg)(fmt, "D refs:       ", d, v[COL_DR], v[COL_DW]);
   VG_(umsg)(fmt, "D1  misses:   ", d1, v[COL_D1MR], v[COL_D1MW]);
   VG_(umsg)(fmt, "LLd misses:   ", dl, v[COL_DLMR], v[COL_DLMW]);
   ULong da = cg_nonzero(d), dra = cg_nonzero(v[COL_DR]),
         dwa = cg_nonzero(v[COL_DW]);
   VG_(umsg)("D1  miss rate: %*.1f%% (%*.1f%%     + %*.1f%%  )\n",
             l1, d1 * 100.0 / da, l2, v[COL_D1MR] * 100.0 / dra,
             l3, v[COL_D1MW] * 100.0 / dwa);
   VG_(umsg)("LLd miss rate: %*.1f%% (%*.1f%%     + %*.1f%%  )\n",
             l1, dl * 100.0 / da, l2, v[COL_DLMR] * 100.0 / dra,
             l3, v[COL_DLMW] * 100.0 / dwa);
   VG_(umsg)("\n");

   ULong ll_r = v[COL_D1MR] + v[COL_I1MR], ll_w = v[COL_D1MW];
   ULong llm_r = v[COL_DLMR] + v[COL_ILMR], llm_w = v[COL_DLMW];
   VG_(umsg)(fmt, "LL refs:      ", ll_r + ll_w, ll_r, ll_w);
   VG_(umsg)(fmt, "LL misses:    ", llm_r + llm_w, llm_r, llm_w);
   VG_(umsg)("LL miss rate:  %*.1f%% (%*.1f%%     + %*.1f%%  )\n",
             l1, (llm_r + llm_w) * 100.0 / (ir + da),
             l2, llm_r * 100.0 / (ir + dra), l3, llm_w * 100.0 / dwa);
}

static void cg_print_branch_summary(const CgTotals *t, Int l1, Int l2, Int l3)
{
   HChar fmt[128];
   const ULong *v = t->v;
   ULong bc = cg_nonzero(v[COL_BC]), bi = cg_nonzero(v[COL_BI]);

   VG_(sprintf)(fmt, "%%s %%,%dllu  (%%,%dllu cond + %%,%dllu ind)\n",
                l1, l2, l3);
   VG_(umsg)("\n");
   VG_(umsg)(fmt, "Branches:     ", v[COL_BC] + v[COL_BI], v[COL_BC],
             v[COL_BI]);
   VG_(umsg)(fmt, "Mispredicts:  ", v[COL_BCM] + v[COL_BIM], v[COL_BCM],
             v[COL_BIM]);
   VG_(umsg)("Mispred rate:  %*.1f%% (%*.1f%%     + %*.1f%%   )\n",
             l1, (v[COL_BCM] + v[COL_BIM]) * 100.0 / (bc + bi),
             l2, v[COL_BCM] * 100.0 / bc, l3, v[COL_BIM] * 100.0 / bi);
}

static void cg_print_summary(const CgTotals *t)
{
   HChar fmt[64];
   const ULong *v = t->v;
   Int l1 = cg_commas_width(v[COL_IR]);
   Int l2 = cg_commas_width(cg_max(v[COL_DR], v[COL_BC]));
   Int l3 = cg_commas_width(cg_max(v[COL_DW], v[COL_BI]));

   VG_(sprintf)(fmt, "%%s %%,%dllu\n", l1);
   VG_(umsg)(fmt, "I refs:       ", v[COL_IR]);
   if (clo_cache_sim)
      cg_print_cache_summary(t, l1, l2, l3);
   if (clo_branch_sim)
      cg_print_branch_summary(t, l1, l2, l3);
}

static void cg_print_stats(void)
{
   ULong lookups = stat_full_debugs + stat_file_line_debugs + stat_fn_debugs
                   + stat_no_debugs;
   ULong div = lookups ? lookups : 1;

   VG_(dmsg)("\n");
   VG_(dmsg)("cachegrind: distinct files     : %u\n", stat_files_written);
   VG_(dmsg)("cachegrind: distinct functions : %u\n", stat_fns_written);
   VG_(dmsg)("cachegrind: distinct lines     : %u\n", stat_lines_written);
   VG_(dmsg)("cachegrind: distinct instrs NoX: %llu\n", stat_instrs_nox);
   VG_(dmsg)("cachegrind: distinct instrs Gen: %llu\n", stat_instrs_gen);
   VG_(dmsg)("cachegrind: debug lookups      : %llu\n", lookups);
   VG_(dmsg)("cachegrind: with full      info:%6.1f%% (%llu)\n",
             stat_full_debugs * 100.0 / div, stat_full_debugs);
   VG_(dmsg)("cachegrind: with file/line info:%6.1f%% (%llu)\n",
             stat_file_line_debugs * 100.0 / div, stat_file_line_debugs);
   VG_(dmsg)("cachegrind: with fn name   info:%6.1f%% (%llu)\n",
             stat_fn_debugs * 100.0 / div, stat_fn_debugs);
   VG_(dmsg)("cachegrind: with zero      info:%6.1f%% (%llu)\n",
             stat_no_debugs * 100.0 / div, stat_no_debugs);
   VG_(dmsg)("cachegrind: string table size: %u\n", str_count);
   VG_(dmsg)("cachegrind: CC table size: %u\n", cc_count);
   VG_(dmsg)("cachegrind: InstrInfo table size: %u\n",
             VG_(HT_count_nodes)(sb_table));
}

/*------------------------------------------------------------*/
/*--- Start-up and exit                                    ---*/
/*------------------------------------------------------------*/

static void cg_fini(Int exitcode)
{
   CgTotals tot = { { 0 } };

   cg_fold_all();
   for (UInt b = 0; b < cc_table_size; b++)
      for (const CgLineCC *cc = cc_table[b]; cc; cc = cc->next)
         cg_add_totals(&tot, cc);

   HChar *path = VG_(expand_file_name)("--cachegrind-out-file", clo_out_file);
   if (!cg_write_profile_file(path))
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
   cg_setup_columns();
   fold_slot[CG_FOLD_IR] = col_slot[COL_IR];
   fold_slot[CG_FOLD_DR] = col_slot[COL_DR];
   fold_slot[CG_FOLD_DW] = col_slot[COL_DW];
   fold_slot[CG_FOLD_BC] = col_slot[COL_BC];
   fold_slot[CG_FOLD_BI] = col_slot[COL_BI];
   if (clo_cache_sim)
      cg_configure_caches();
   if (clo_branch_sim) {
      UInt z = cg_arch_branch_zero_bits(cg_guest_arch());
      cg_condpred_init(&cond_predictor, z);
      cg_indpred_init(&ind_predictor, z);
   }
   instr_enabled = clo_instr_at_start;
   sb_table = VG_(HT_construct)("cg.main.sbtable");
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

   VG_(basic_tool_funcs)(cg_post_clo_init, cg_instrument, cg_fini);
   VG_(needs_superblock_discards)(cg_discard_superblock_info);
   VG_(needs_command_line_options)(cg_process_cmd_line_option,
                                   cg_print_usage, cg_print_debug_usage);
   VG_(needs_client_requests)(cg_handle_client_request);
   VG_(needs_syscall_wrapper)(cg_pre_syscall, cg_post_syscall);
}

VG_DETERMINE_INTERFACE_VERSION(cg_pre_clo_init)
