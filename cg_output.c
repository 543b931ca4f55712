/* cg_output.c -- the profile writer, pre-exec profiles, the end-of-run summary and --stats.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_xarray.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "cg_blocks.h"
#include "cg_cc.h"
#include "cg_config.h"
#include "cg_instrument.h"
#include "cg_fmt.h"
#include "cg_output.h"
#include "cg_sims.h"

/*------------------------------------------------------------*/
/*--- Output file                                          ---*/
/*------------------------------------------------------------*/

/* A buffered writer on a file descriptor; remembers the first error. */
typedef struct {
   Int fd;
   Int used;
   Int err;                      /* errno of the first failed write, or 0 */
   HChar buf[1 << 16];
} CgOut;

static Bool cg_stop_pending(void);

/* Linux's POLLOUT (<asm-generic/poll.h>), which vki lacks. */
#define CG_POLLOUT 0x0004

static void cg_out_flush(CgOut *o)
{
   Int off = 0;
   while (off < o->used && o->err == 0) {
      /* VG_(write) returns -errno on failure. */
      Int n = VG_(write)(o->fd, o->buf + off, o->used - off);
      if (n == -VKI_EAGAIN) {
         /* A pipe or FIFO that the program (or another process sharing
            it) made non-blocking, now full: the write of a plain open
            would wait for its reader, so this waits too, in steps of
            100 ms, so that a signal sent to stop the program ends the
            wait (it is blocked while the tool runs).  Upstream opens
            /dev/stdout again by name, with flags of its own. */
         if (cg_stop_pending()) {
            o->err = VKI_EINTR;
            break;
         }
         struct vki_pollfd p = { .fd = o->fd, .events = CG_POLLOUT };
         VG_(poll)(&p, 1, 100);
         continue;
      }
      if (n < 0)
         o->err = -n;
      else if (n == 0)
         o->err = VKI_EIO;       /* no progress: do not spin */
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

/* s as text of one line of the profile: a line feed or carriage return in
   it (a program argument, a file name), where every reader would end the
   line, as "\x0a" or "\x0d", as the tool writes the control characters
   of dump names; all else as it is, so that a text without them is
   written as upstream writes it. */
static void cg_out_text(CgOut *o, const HChar *s)
{
   const HChar *run = s;

   for (; *s; s++)
      if (*s == '\n' || *s == '\r') {
         cg_out_bytes(o, run, (Int)(s - run));
         cg_out_str(o, *s == '\n' ? "\\x0a" : "\\x0d");
         run = s + 1;
      }
   cg_out_bytes(o, run, (Int)(s - run));
}

static void cg_out_u64(CgOut *o, ULong v)
{
   HChar tmp[CG_FMT_U64_SIZE];
   HChar *s = cg_fmt_u64(tmp + sizeof tmp, v, 0);
   cg_out_bytes(o, s, (Int)(tmp + sizeof tmp - s));
}

static void cg_out_hex(CgOut *o, ULong v)
{
   HChar tmp[16];
   Int n = 0;
   do
      tmp[sizeof tmp - ++n] = "0123456789abcdef"[v & 15];
   while ((v >>= 4) != 0);
   cg_out_bytes(o, tmp + sizeof tmp - n, n);
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

/* The core's system call (pub_core_syscall.h), for the calls the tool
   headers have no function for (fchmod, fsync, access, and a rename that
   says why it failed).  Not among the tool headers, but in the core
   library every tool is linked with; 3.19's takes eight arguments. */
extern SysRes VG_(do_syscall)(UWord sysno, UWord a1, UWord a2, UWord a3,
                              UWord a4, UWord a5, UWord a6, UWord a7,
                              UWord a8);

/* The options; set by cg_output_init. */
static const struct cg_config *cfg;

/* The core's first descriptor of its own range, above the program's
   (pub_core_libcfile.h). */
extern Int VG_(fd_soft_limit);

/* Linux's F_SETFD/F_GETFL argument FD_CLOEXEC. */
#define CG_FD_CLOEXEC 1

/* Whether fd is the write end of a FIFO, opened write-only, in the core's
   range of descriptors (one the program may not touch). */
static Bool cg_is_handed_fifo(Int fd)
{
   struct vg_stat st;
   if (fd < VG_(fd_soft_limit) || VG_(fstat)(fd, &st) != 0 || !VKI_S_ISFIFO(st.mode))
      return False;
   SysRes fl = VG_(do_syscall)(__NR_fcntl, (UWord)fd, VKI_F_GETFL, 0, 0, 0, 0, 0, 0);
   return !sr_isError(fl) && (sr_Res(fl) & VKI_O_ACCMODE) == VKI_O_WRONLY;
}

void cg_output_init(const struct cg_config *config)
{
   cfg = config;
   /* A FIFO handed over at the exec that started this image: closed at
      the next exec unless this image takes it (cg_open_fifo) and hands it
      on again. */
   if (cg_is_handed_fifo(cfg->fifo_fd))
      VG_(do_syscall)(__NR_fcntl, (UWord)cfg->fifo_fd, VKI_F_SETFD, CG_FD_CLOEXEC,
                      0, 0, 0, 0, 0);
}

void cg_pass_on_arg(Word *slot, HChar *arg)
{
   if (*slot < 0) {
      *slot = VG_(addToXA)(VG_(args_for_valgrind), &arg);
      return;
   }
   /* The strings stay in the list until exit: the old one is replaced, not
      freed (it may be in use as an argument already). */
   *(HChar **)VG_(indexXA)(VG_(args_for_valgrind), *slot) = arg;
}

/* The desc: line of a simulated cache, as the reference writes it:
   "desc: I1 cache:         65536 B, 64 B, 2-way associative" (or
   "direct-mapped" for one way). */
static void cg_write_desc(CgOut *o, const HChar *name,
                          const struct cg_cache *c)
{
   cg_out_str(o, "desc: ");
   cg_out_str(o, name);
   cg_out_str(o, " cache:         ");
   cg_out_u64(o, (UInt)c->size);
   cg_out_str(o, " B, ");
   cg_out_u64(o, (UInt)c->line_size);
   cg_out_str(o, " B, ");
   if (c->assoc == 1) {
      cg_out_str(o, "direct-mapped\n");
   } else {
      cg_out_u64(o, (UInt)c->assoc);
      cg_out_str(o, "-way associative\n");
   }
}

/* The header; desc: the part's own desc: lines, or NULL. */
static void cg_write_header(CgOut *o, const HChar *desc)
{
   if (cfg->cache_sim) {
      cg_write_desc(o, "I1", &cg_sims.I1);
      cg_write_desc(o, "D1", &cg_sims.D1);
      cg_write_desc(o, "LL", &cg_sims.LL);
   }
   if (desc)
      cg_out_str(o, desc);
   cg_out_str(o, "cmd: ");
   cg_out_text(o, VG_(args_the_exename));
   for (Word i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++) {
      cg_out_str(o, " ");
      cg_out_text(o, *(HChar **)VG_(indexXA)(VG_(args_for_client), i));
   }
   if (cfg->dump_instr)
      cg_out_str(o, "\npositions: instr line");
   cg_out_str(o, "\nevents:");
   for (UInt c = 0; c < N_COLUMNS; c++)
      if (cg_layout.slot[c] >= 0) {
         cg_out_str(o, " ");
         cg_out_str(o, cg_columns[c].name);
      }
   /* The reference's cache-only events line ends with a space. */
   if (cfg->cache_sim && !cfg->branch_sim)
      cg_out_str(o, " ");
   cg_out_str(o, "\n");
}

/* " <count>" for each counter (they are in column order), then a newline. */
static void cg_write_counts(CgOut *o, const ULong *counts)
{
   for (UInt i = 0; i < cg_layout.n_slots; i++) {
      cg_out_bytes(o, " ", 1);
      cg_out_u64(o, counts[i]);
   }
   cg_out_bytes(o, "\n", 1);
}

/* Whether row a goes before row b in the profile: by file, function and
   line; with --dump-instr=yes by function (its file, its name, its
   object), then address, line and file, so that each function is one run
   of rows and the rows of one key (cg_cc_same_key) are adjacent.  Names
   compare by the ranks of cg_cc_order_places. */
static Bool cg_row_less(const struct cg_row *a, const struct cg_row *b)
{
   const CgLineCC *x = a->cc, *y = b->cc;
   const CgPlace *xp = x->place, *yp = y->place;
   if (xp->order != yp->order)
      return xp->order < yp->order;
   if (!cfg->dump_instr)
      return x->line < y->line;
   Addr xa, ya;
   const CgObject *xo = cg_cc_object(x, &xa), *yo = cg_cc_object(y, &ya);
   Int r = cg_object_cmp(xo, yo);
   if (r != 0)
      return r < 0;
   if (xa != ya)
      return xa < ya;
   if (x->line != y->line)
      return x->line < y->line;
   /* Last, so that the cost centres of one key are adjacent. */
   return xp->file_order < yp->file_order;
}

static void cg_swap_rows(struct cg_row *a, struct cg_row *b)
{
   struct cg_row t = *a;
   *a = *b;
   *b = t;
}

/* Moves v[root] down the heap v[0 .. n - 1] to its place. */
static void cg_sift_rows(struct cg_row *v, SizeT root, SizeT n)
{
   for (;;) {
      SizeT child = 2 * root + 1;
      if (child >= n)
         return;
      if (child + 1 < n && cg_row_less(&v[child], &v[child + 1]))
         child++;
      if (!cg_row_less(&v[root], &v[child]))
         return;
      cg_swap_rows(&v[root], &v[child]);
      root = child;
   }
}

/* Heap sort: cg_sort_rows's way out when its partitions keep going
   badly. */
static void cg_heap_sort_rows(struct cg_row *v, SizeT n)
{
   for (SizeT i = n / 2; i-- > 0;)
      cg_sift_rows(v, i, n);
   for (SizeT end = n; end-- > 1;) {
      cg_swap_rows(&v[0], &v[end]);
      cg_sift_rows(v, 0, end);
   }
}

static void cg_insertion_sort_rows(struct cg_row *v, SizeT n)
{
   for (SizeT i = 1; i < n; i++) {
      struct cg_row r = v[i];
      SizeT j = i;
      for (; j > 0 && cg_row_less(&r, &v[j - 1]); j--)
         v[j] = v[j - 1];
      v[j] = r;
   }
}

/* Quicksort of v[0 .. n - 1], the median of three as pivot, Hoare's
   partition; the smaller part recursively, the larger in the loop; heap
   sort after depth partitions. */
static void cg_quick_sort_rows(struct cg_row *v, SizeT n, UInt depth)
{
   while (n > 16) {
      if (depth == 0) {
         cg_heap_sort_rows(v, n);
         return;
      }
      depth--;
      SizeT mid = n / 2;
      if (cg_row_less(&v[mid], &v[0]))
         cg_swap_rows(&v[mid], &v[0]);
      if (cg_row_less(&v[n - 1], &v[mid])) {
         cg_swap_rows(&v[n - 1], &v[mid]);
         if (cg_row_less(&v[mid], &v[0]))
            cg_swap_rows(&v[mid], &v[0]);
      }
      /* v[0] <= pivot <= v[n - 1] stop both scans, and the partition
         ends before n - 1: both parts have rows. */
      struct cg_row pivot = v[mid];
      SizeT i = 0, j = n - 1;
      for (;;) {
         while (cg_row_less(&v[i], &pivot))
            i++;
         while (cg_row_less(&pivot, &v[j]))
            j--;
         if (i >= j)
            break;
         cg_swap_rows(&v[i], &v[j]);
         i++;
         j--;
      }
      SizeT left = j + 1;
      if (left < n - left) {
         cg_quick_sort_rows(v, left, depth);
         v += left;
         n -= left;
      } else {
         cg_quick_sort_rows(v + left, n - left, depth);
         n = left;
      }
   }
   cg_insertion_sort_rows(v, n);
}

/* Sorts the rows v[0 .. n - 1] into the profile's order (cg_row_less) in
   place: at exit the rows are the largest array at the tool's memory
   peak, so there is no room for a copy.  A third faster than the core's
   VG_(ssort) (a quicksort too) with a comparison of names on 927,000
   instruction rows (docs/performance.md): the comparison is inline and
   compares the places' ranks (cg_cc_order_places). */
static void cg_sort_rows(struct cg_row *v, SizeT n)
{
   UInt depth = 0;
   for (SizeT m = n; m > 1; m >>= 1)
      depth += 2;
   cg_cc_order_places();
   cg_quick_sort_rows(v, n, depth);
}

/* cg_cc_each's callback of cg_live_rows: the next row. */
static void cg_add_live_row(void *ctx, const CgLineCC *cc)
{
   struct cg_row **next = ctx;
   (*next)->cc = cc;
   (*next)->c = NULL;
   (*next)++;
}

/* Every cost centre with its own counters, as rows (*n of them); the
   caller frees the array. */
static struct cg_row *cg_live_rows(UInt *n)
{
   *n = cg_cc_stats().lines;
   struct cg_row *rows = VG_(malloc)("cg.main.rows", (*n + 1) * sizeof *rows);
   struct cg_row *next = rows;
   cg_cc_each(cg_add_live_row, &next);
   tl_assert(next == rows + *n);
   return rows;
}

/* The counters of the rows v[i], v[i + 1], ... that have the key of
   v[i]'s cost centre, added up in sum (the file's layout); returns how
   many rows that is.  Sorted rows with one key are adjacent: with
   --dump-instr=yes an instruction can have several cost centres
   (cg_cc_widen). */
static UInt cg_row_counts(const struct cg_row *v, UInt i, UInt n, ULong *sum)
{
   UInt k = i;
   VG_(memset)(sum, 0, cg_layout.n_slots * sizeof *sum);
   do {
      if (v[k].c == NULL) {
         cg_cc_add_counts(v[k].cc, sum);
      } else {
         for (UInt s = 0; s < cg_layout.n_slots; s++)
            sum[s] += v[k].c[s];
      }
      k++;
   } while (k < n && cg_cc_same_key(v[k].cc, v[i].cc));
   return k - i;
}

/* Where the instruction-level writer is: the object of its last ob= line,
   the file of its last fl= line and of its last fl=, fi= or fe= line (the
   file of the count lines), whether a name line came since the last
   count line, and that count line's address. */
typedef struct {
   const CgObject *obj;
   const HChar *fl, *cost_file;
   Bool absolute;
   Addr addr;
   ULong zid[3];              /* the last name compression ID of ob=, of
                                 fl=, fi= and fe=, of fn= */
} CgInstrPos;

/* kw, name and a newline in the instruction-level profile, whose Callgrind
   readers take a name that starts with "(" and a digit for the format's
   name compression: such a name gets an ID of its own first, the next
   of *zid ("(1) (2) h.c" is the name "(2) h.c"). */
static void cg_write_zname(CgOut *o, const HChar *kw, const HChar *name,
                           ULong *zid)
{
   cg_out_str(o, kw);
   if (name[0] == '(' && name[1] >= '0' && name[1] <= '9') {
      cg_out_str(o, "(");
      cg_out_u64(o, ++*zid);
      cg_out_str(o, ") ");
   }
   cg_out_text(o, name);
   cg_out_str(o, "\n");
}

/* ob= and the build-id line when the object of cc changes; then the
   instruction's address, absolute in hex after a name line, else relative
   to the last count line's ("+N", "-N" or "*"; absolute when 2^31 or
   more away, which a Callgrind reader reads into 32 bits), and a space.
   Returns whether an ob= line was written. */
static Bool cg_write_object(CgOut *o, const CgLineCC *cc, CgInstrPos *w)
{
   Addr addr;
   const CgObject *obj = cg_cc_object(cc, &addr);
   Bool new_obj = obj != w->obj;
   if (new_obj) {
      cg_write_zname(o, "ob=", obj->path, &w->zid[0]);
      if (obj->build_id) {
         cg_out_str(o, "# build-id: ");
         cg_out_str(o, obj->build_id);
         cg_out_str(o, "\n");
      }
      w->obj = obj;
   }
   w->addr = addr;
   return new_obj;
}

static void cg_write_address(CgOut *o, CgInstrPos *w, Addr prev)
{
   Addr d = w->addr > prev ? w->addr - prev : prev - w->addr;
   if (w->absolute || d >= (Addr)1 << 31) {
      cg_out_str(o, "0x");
      cg_out_hex(o, w->addr);
   } else if (d == 0) {
      cg_out_str(o, "*");
   } else {
      cg_out_str(o, w->addr > prev ? "+" : "-");
      cg_out_u64(o, d);
   }
   cg_out_str(o, " ");
   w->absolute = False;
}

/* Statistics of the last profile written (--stats=yes). */
UInt stat_files_written, stat_fns_written, stat_lines_written;

/* kw, name (cg_out_text) and a newline. */
static void cg_write_name(CgOut *o, const HChar *kw, const HChar *name)
{
   cg_out_str(o, kw);
   cg_out_text(o, name);
   cg_out_str(o, "\n");
}

/* The lines before the count line of the instruction cc, prev the
   instruction before it (NULL for the first): ob= where the object
   changes; fl= and fn= where the function changes (a function is its
   file, name and object: each is one run of rows, cg_cmp_instr_row) or
   after ob=, fl= only where its file is not the one of the last fl=
   line or an fi= line came since (callgrind_annotate stays in the fi=
   file at fn=); then fi= where the instruction's file is not the one
   of the count lines before, fe= where it is the function's own file
   again (the Callgrind format's lines for inlined code, as Callgrind
   writes them); then the instruction's address. */
static void cg_write_instr_names(CgOut *o, const CgLineCC *cc,
                                 const CgLineCC *prev, CgInstrPos *w)
{
   const HChar *fn_file = cg_cc_fn_file(cc);
   Bool new_file = !prev || cg_cc_fn_file(prev) != fn_file;
   Bool new_fn = new_file || cc->place->fn != prev->place->fn;
   Addr prev_addr = w->addr;
   Bool new_obj = cg_write_object(o, cc, w);

   if (new_obj || new_fn) {
      if (new_obj || fn_file != w->fl || fn_file != w->cost_file)
         cg_write_zname(o, "fl=", fn_file, &w->zid[1]);
      cg_write_zname(o, "fn=", cc->place->fn, &w->zid[2]);
      w->fl = w->cost_file = fn_file;
      w->absolute = True;
      stat_files_written += new_file;
      stat_fns_written += new_fn;
   }
   if (cc->place->file != w->cost_file) {
      cg_write_zname(o, cc->place->file == fn_file ? "fe=" : "fi=",
                     cc->place->file, &w->zid[1]);
      w->cost_file = cc->place->file;
   }
   cg_write_address(o, w, prev_addr);
}

/* What writing a profile needs from the heap: its output buffer and its
   rows (the part's, or, part NULL, every cost centre's), sorted.  Taken
   before the output file is opened: the core ends the run when memory
   runs out, and then no temporary file may be left behind, nor an old
   profile that is written in place already cut short. */
typedef struct {
   CgOut *o;
   struct cg_row *v;
   UInt n;
} CgPrepared;

static void cg_prepare_profile(CgPrepared *p, const struct cg_part_text *part)
{
   p->o = VG_(malloc)("cg.main.out", sizeof *p->o);
   if (part) {
      p->v = part->rows;
      p->n = part->n_rows;
   } else {
      p->v = cg_live_rows(&p->n);
   }
   cg_sort_rows(p->v, p->n);
}

static void cg_release_profile(CgPrepared *p, const struct cg_part_text *part)
{
   if (!part)
      VG_(free)(p->v);
   VG_(free)(p->o);
}

/* Writes the prepared profile p to fd, with the summary line from tot
   (and the part's desc: lines); returns 0, or the errno of the first
   write that failed. */
static Int cg_write_profile(Int fd, const CgPrepared *p, const CgTotals *tot,
                            const struct cg_part_text *part)
{
   CgOut *o = p->o;
   UInt n_lines = p->n;
   const struct cg_row *v = p->v;
   const HChar *file = NULL, *fn = NULL;
   CgInstrPos w = { NULL, NULL, NULL, True, 0, { 0, 0, 0 } };

   o->fd = fd;
   o->used = 0;
   o->err = 0;
   stat_files_written = stat_fns_written = stat_lines_written = 0;
   cg_write_header(o, part ? part->desc : NULL);
   ULong counts[N_COLUMNS];
   for (UInt i = 0, rows; i < n_lines; i += rows) {
      const CgLineCC *cc = v[i].cc;
      tl_assert(i == 0 || !cg_row_less(&v[i], &v[i - 1]));
      rows = cg_row_counts(v, i, n_lines, counts);
      if (cfg->dump_instr) {
         cg_write_instr_names(o, cc, i ? v[i - 1].cc : NULL, &w);
      } else {
         Bool new_file = cc->place->file != file;
         if (new_file) {
            file = cc->place->file;
            cg_write_name(o, "fl=", file);
            stat_files_written++;
         }
         if (new_file || cc->place->fn != fn) {
            fn = cc->place->fn;
            cg_write_name(o, "fn=", fn);
            stat_fns_written++;
         }
      }
      cg_out_line_number(o, cc->line);
      cg_write_counts(o, counts);
      stat_lines_written++;
   }
   ULong sum[N_COLUMNS];
   for (UInt c = 0; c < N_COLUMNS; c++)
      if (cg_layout.slot[c] >= 0)
         sum[cg_layout.slot[c]] = tot->v[c];
   cg_out_str(o, "summary:");
   cg_write_counts(o, sum);
   cg_out_flush(o);
   return o->err;
}

/* N when path is /dev/fd/N or /proc/<p>/fd/N, with *own set when it is
   one of this process's descriptors (/dev/fd, <p> self, thread-self or
   its pid); else -1.  /dev/stdout is a link to /proc/self/fd/1. */
static Int cg_fd_link(const HChar *path, Bool *own)
{
   const HChar *rest;

   *own = False;
   if (VG_(strncmp)(path, "/dev/fd/", 8) == 0) {
      *own = True;
      rest = path + 8;
   } else if (VG_(strncmp)(path, "/proc/", 6) == 0) {
      const HChar *p = path + 6, *e = p;
      HChar pid[24];
      while (*e && *e != '/')
         e++;
      if (e == p || VG_(strncmp)(e, "/fd/", 4) != 0)
         return -1;
      SizeT len = (SizeT)(e - p);
      VG_(sprintf)(pid, "%d", VG_(getpid)());
      *own = (len == 4 && VG_(strncmp)(p, "self", 4) == 0)
             || (len == 11 && VG_(strncmp)(p, "thread-self", 11) == 0)
             || (len == VG_(strlen)(pid) && VG_(strncmp)(p, pid, len) == 0);
      rest = e + 4;
   } else {
      return -1;
   }
   if (*rest < '0' || *rest > '9')
      return -1;
   Long n = 0;
   for (; *rest >= '0' && *rest <= '9' && n < (1 << 30); rest++)
      n = n * 10 + (*rest - '0');
   return *rest == '\0' && n < (1 << 30) ? (Int)n : -1;
}

/* The descriptor N when path names one of this process's open files; else
   -1. */
static Int cg_proc_fd(const HChar *path)
{
   Bool own;
   Int n = cg_fd_link(path, &own);
   return own ? n : -1;
}

/* Whether path is a descriptor's link of /proc (or /dev/fd/N), this
   process's or another's: such links name open files, "pipe:[N]" for a
   pipe, one the shell opened or one already unlinked, not paths to
   follow.  A regular file reached through /proc (/proc/self/cwd/cg.out),
   or a link of the user's reached so, is no such link. */
static Bool cg_is_proc_link(const HChar *path)
{
   Bool own;
   return cg_fd_link(path, &own) >= 0;
}

/* The file a path finally names, following symbolic links (relative
   targets are relative to the link's folder), as upstream's open() would,
   but for a link of /proc, which is opened itself; a new string the
   caller frees.  Gives up after 40 links (the open then reports the
   loop). */
static HChar *cg_resolve_links(const HChar *path)
{
   HChar *cur = VG_(strdup)("cg.main.path", path);
   HChar target[4096];

   for (Int depth = 0; ; depth++) {
      if (cg_is_proc_link(cur))
         break;
      SSizeT n = VG_(readlink)(cur, target, sizeof target - 1);
      if (n < 0)
         break;                  /* not a link, or absent */
      if (depth == 40) {         /* a loop, or too long a chain */
         VG_(free)(cur);
         return NULL;
      }
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
   device, a FIFO...), or is a link of /proc (cg_resolve_links stops
   there): then it is written in place rather than replaced by a rename. */
static Bool cg_is_special_file(const HChar *file)
{
   struct vg_stat st;
   if (cg_is_proc_link(file))
      return True;
   if (sr_isError(VG_(stat)(file, &st)))
      return False;              /* absent: create it */
   /* A folder at the name is no stream: the parts and a child's profile
      have names of their own, and the profile for the name itself stays
      in its temporary file (its rename: "Is a directory"), named in the
      error. */
   return !VKI_S_ISREG(st.mode) && !VKI_S_ISDIR(st.mode);
}

static Bool cg_path_exists(const HChar *path)
{
   struct vg_stat st;
   return !sr_isError(VG_(stat)(path, &st));
}

/* The core's strerror (pub_core_syscall.h).  It is not among the tool
   headers, but it is in the core library every tool is linked with, and
   its signature has not changed since Valgrind 3.0.  The string is
   constant. */
extern const HChar *VG_(strerror)(UWord errnum);

/* Linux's errno values (asm-generic/errno*.h) that vki lacks. */
#ifndef VKI_ENAMETOOLONG
#  define VKI_ENAMETOOLONG 36
#endif
#ifndef VKI_EDQUOT
#  define VKI_EDQUOT 122
#endif

/* VG_(strerror), with the texts it lacks ("VG_(strerror): unknown
   error") for errors a file name can give. */
static const HChar *cg_strerror(UWord err)
{
   switch (err) {
   case VKI_ELOOP:
      return "Too many levels of symbolic links";
   case VKI_ENAMETOOLONG:
      return "File name too long";
   case VKI_EDQUOT:
      return "Disk quota exceeded";
   default:
      return VG_(strerror)(err);
   }
}

/* vki has no O_NOFOLLOW for Linux; this is the value of the generic
   <asm/fcntl.h>, which amd64 and x86 use (arm, for one, differs). */
#if defined(VGA_amd64) || defined(VGA_x86)
#  define CG_O_NOFOLLOW 0400000
#else
#  error "CG_O_NOFOLLOW: give this architecture's O_NOFOLLOW"
#endif

/* The random part of a temporary file's name: 8 characters of 32, 40
   bits.  An exclusive create that finds the name taken tries another,
   CG_TMP_TRIES times in all. */
#define CG_TMP_RANDOM 8
#define CG_TMP_TRIES 100

/* Fills s[0..n-1] with characters no other user can predict, from
   /dev/urandom, or where that cannot be read, from the clock and the pid;
   s[n] = '\0'. */
static void cg_random_chars(HChar *s, Int n)
{
   static const HChar alphabet[32] = "abcdefghijklmnopqrstuvwxyz234567";
   static UInt seed;
   UChar bytes[CG_TMP_RANDOM];
   Int got = 0;

   tl_assert(n <= (Int)sizeof bytes);
   SysRes sres = VG_(open)("/dev/urandom", VKI_O_RDONLY, 0);
   if (!sr_isError(sres)) {
      got = VG_(read)((Int)sr_Res(sres), bytes, n);
      VG_(close)((Int)sr_Res(sres));
   }
   if (got != n) {
      seed ^= VG_(read_millisecond_timer)() ^ ((UInt)VG_(getpid)() << 12);
      for (Int i = 0; i < n; i++)
         bytes[i] = (UChar)(VG_(random)(&seed) >> 24);
   }
   for (Int i = 0; i < n; i++)
      s[i] = alphabet[bytes[i] % sizeof alphabet];
   s[n] = '\0';
}

/* Creates a new temporary file "<file>.tmp.<pid>.<random>" beside file,
   for writing.  The create is exclusive and does not follow a symbolic
   link, so that nothing already at the name -- a stale file, or a link
   someone planted there to redirect the write -- is ever opened; a name
   that is taken is retried with new random characters.  The name is not
   predictable either, so that nobody can take every name in advance.
   Returns the open's result; *tmp is the name tried last (the caller
   frees it). */
static SysRes cg_create_temp(const HChar *file, HChar **tmp)
{
   HChar *name = VG_(malloc)("cg.main.tmpname",
                             VG_(strlen)(file) + 24 + CG_TMP_RANDOM);
   SysRes sres;

   /* A name near the limit of 255 bytes leaves no room for the suffix:
      the temporary file then takes only the start of it. */
   const HChar *slash = VG_(strrchr)(file, '/');
   Int keep = (Int)VG_(strlen)(file);
   Bool shortened = False;

   for (Int tries = 1; ; tries++) {
      HChar rnd[CG_TMP_RANDOM + 1];
      cg_random_chars(rnd, CG_TMP_RANDOM);
      VG_(memcpy)(name, file, (SizeT)keep);  /* (no %.*s in VG_(sprintf)) */
      VG_(sprintf)(name + keep, ".tmp.%d.%s", VG_(getpid)(), rnd);
      sres = VG_(open)(name, VKI_O_CREAT | VKI_O_EXCL | CG_O_NOFOLLOW
                             | VKI_O_WRONLY, VKI_S_IRUSR | VKI_S_IWUSR);
      if (sr_isError(sres) && sr_Err(sres) == VKI_ENAMETOOLONG && !shortened) {
         Int dir = slash ? (Int)(slash - file) + 1 : 0;
         shortened = True;
         if (keep - dir > 200) {
            keep = dir + 200;
            continue;
         }
      }
      if (!sr_isError(sres) || sr_Err(sres) != VKI_EEXIST
          || tries == CG_TMP_TRIES)
         break;
   }
   *tmp = name;
   return sres;
}

/* Prints that the profile named path is lost ("error: <head> '<path>'<tail>:
   <why>"). */
static void cg_report_lost(const HChar *head, const HChar *path,
                           const HChar *tail, const HChar *why)
{
   VG_(umsg)("error: %s '%s'%s: %s\n", head, path, tail, why);
   VG_(umsg)("       ... so detailed results will be missing.\n");
}

/* access(2)'s W_OK (<unistd.h>), which vki does not define. */
#define CG_W_OK 2

static SysRes cg_syscall2(UWord sysno, UWord a1, UWord a2)
{
   return VG_(do_syscall)(sysno, a1, a2, 0, 0, 0, 0, 0, 0);
}

/* A write beyond the file-size limit also raises SIGXFSZ in this thread,
   and one to a pipe or FIFO whose reader has gone SIGPIPE.  Signals are
   blocked while the tool runs, so it stays pending, and the core would
   deliver it to the program at its next check, ending it (the default
   action of both is to die) for a part the tool failed to write: the
   program must run on and keep its exit status.  So it is taken here,
   with a zero timeout.  (At exit no program code runs any more.) */
/* The core's signal-set functions (pub_core_libcsignal.h, in the core
   library every tool is linked with; the tool API has only sigdelset). */
extern Int VG_(sigemptyset)(vki_sigset_t *set);
extern Int VG_(sigaddset)(vki_sigset_t *set, Int signum);
extern Int VG_(sigismember)(const vki_sigset_t *set, Int signum);

static void cg_drop_signal(Int sig)
{
   vki_sigset_t set;
   struct vki_timespec zero = { 0, 0 };

   VG_(sigemptyset)(&set);
   VG_(sigaddset)(&set, sig);
   (void)VG_(do_syscall)(__NR_rt_sigtimedwait, (UWord)&set, 0, (UWord)&zero,
                         sizeof(vki_sigset_t), 0, 0, 0, 0);
}

/* The core's VG_(safe_fd) (pub_core_libcfile.h, in the core library every
   tool is linked with, outside the tool API): moves a descriptor into the
   range the core keeps for itself, which the program can neither see nor
   close, marked close-on-exec; it asserts rather than fail. */
extern Int VG_(safe_fd)(Int oldfd);

/* An output file opened (sres) as descriptor 0, 1 or 2, which the
   program was started without, moved up with VG_(safe_fd): there the
   core's messages to standard error, and ours, would go into the
   profile. */
static Int cg_fd_high(Int fd)
{
   return fd <= 2 ? VG_(safe_fd)(fd) : fd;
}

/* An existing regular file that no temporary file can be created beside
   (err: why not) is rewritten in place, not atomically, if this process
   may write it: the profile is not lost where upstream, which writes in
   place always, would have written it.  It is truncated at the open: the
   whole profile is in memory, so a failure can only leave a clean prefix
   of it, never a mixture with the old contents.  Returns the open's
   result (the caller warns when it succeeded), or err itself when the
   fallback does not apply. */
static SysRes cg_open_in_place(const HChar *file, SysRes err)
{
   struct vg_stat st;
   UWord e = sr_Err(err);

   if ((e != VKI_EACCES && e != VKI_EROFS && e != VKI_EPERM)
       || sr_isError(VG_(stat)(file, &st)) || !VKI_S_ISREG(st.mode)
       || sr_isError(cg_syscall2(__NR_access, (UWord)file, CG_W_OK)))
      return err;
   return VG_(open)(file, VKI_O_WRONLY | VKI_O_TRUNC, 0);
}


/* A FIFO as output is opened once and kept open for the run (in the
   core's range), and each profile written through a dup of it: reopened
   for each part, it would show its reader an end of file after the
   first, and a reader that then stops (cat) would leave the next open
   waiting for ever.  When its reader has gone (a write failed with
   EPIPE), it is closed, and later parts open it without waiting: written
   if a new reader is there, else lost with the reason. */
static Int cg_fifo_fd = -1;
static HChar *cg_fifo_name;
static Bool cg_fifo_left;    /* a reader went away: do not wait for one */
static Bool cg_fifo_no_wait; /* a signal ended the program: do not wait */

void cg_output_fifo_no_wait(void)
{
   cg_fifo_no_wait = True;
}

/* The core's error result (pub_core_syscall.h, in the core library every
   tool is linked with). */
extern SysRes VG_(mk_SysRes_Error)(UWord val);

/* Whether SIGINT, SIGTERM, SIGHUP or SIGQUIT is pending: signals are
   blocked while the tool runs, so one sent to stop the program waits
   there until the tool returns. */
static Bool cg_stop_pending(void)
{
   static const Int stop[] = { VKI_SIGINT, VKI_SIGTERM, VKI_SIGHUP, VKI_SIGQUIT };
   vki_sigset_t set;

   VG_(sigemptyset)(&set);
   if (sr_isError(VG_(do_syscall)(__NR_rt_sigpending, (UWord)&set,
                                  sizeof(vki_sigset_t), 0, 0, 0, 0, 0, 0)))
      return False;
   for (UInt i = 0; i < sizeof stop / sizeof stop[0]; i++)
      if (VG_(sigismember)(&set, stop[i]))
         return True;
   return False;
}

/* Opens the FIFO file for writing, waiting for a reader as a plain open
   does, but in steps of 100 ms, so that a signal sent to stop the program
   ends the wait (EINTR): a blocking open could not be interrupted, the
   signal being blocked (a process forked with the FIFO as output, whose
   reader went away after the other process's profile, waited for
   ever).  Says once, after a second, that it waits. */
static SysRes cg_open_fifo_waiting(const HChar *file)
{
   for (UInt tries = 0; ; tries++) {
      SysRes sres = VG_(open)(file, VKI_O_WRONLY | VKI_O_NONBLOCK, 0);
      if (!sr_isError(sres) || sr_Err(sres) != VKI_ENXIO)
         return sres;
      if (cg_stop_pending())
         return VG_(mk_SysRes_Error)(VKI_EINTR);
      if (tries == 10)
         VG_(umsg)("waiting for a reader of the FIFO '%s' (interrupt to give up)\n",
                   file);
      VG_(poll)(NULL, 0, 100);
   }
}

/* The FIFO handed over at the exec that started this image (--fifo-fd)
   is taken as the one kept open if it is file's (the output the earlier
   image wrote, whose reader then sees no end of file at the exec), else
   closed, once: at this image's first output (cg_write_profile_file,
   before cg_open_fifo looks for the FIFO kept open). */
static void cg_take_handed_fifo(const HChar *file)
{
   static Bool done;
   Int fd = cfg->fifo_fd;
   if (done || !cg_is_handed_fifo(fd))
      return;
   done = True;
   struct vg_stat hs, fs;
   if (cg_fifo_fd < 0 && VG_(fstat)(fd, &hs) == 0
       && !sr_isError(VG_(stat)(file, &fs)) && hs.dev == fs.dev && hs.ino == fs.ino) {
      cg_fifo_fd = fd;
      cg_fifo_name = VG_(strdup)("cg.main.fifo", file);
   } else {
      VG_(close)(fd);
   }
}

static SysRes cg_open_fifo(const HChar *file)
{
   if (cg_fifo_fd >= 0 && VG_(strcmp)(cg_fifo_name, file) == 0)
      return VG_(dup)(cg_fifo_fd);
   SysRes sres = cg_fifo_left || cg_fifo_no_wait
                 ? VG_(open)(file, VKI_O_WRONLY | VKI_O_NONBLOCK, 0)
                 : cg_open_fifo_waiting(file);
   if (sr_isError(sres))
      return sres;
   Int fd = VG_(safe_fd)((Int)sr_Res(sres));
   /* Writes wait for the reader again. */
   VG_(do_syscall)(__NR_fcntl, (UWord)fd, VKI_F_SETFL, VKI_O_WRONLY, 0, 0, 0, 0, 0);
   if (cg_fifo_fd >= 0) {
      VG_(close)(cg_fifo_fd);
      VG_(free)(cg_fifo_name);
   }
   cg_fifo_fd = fd;
   cg_fifo_name = VG_(strdup)("cg.main.fifo", file);
   return VG_(dup)(fd);
}

/* A write to file failed with EPIPE: if it is the FIFO kept open, its
   reader has gone. */
static void cg_fifo_gone(const HChar *file)
{
   if (cg_fifo_fd < 0 || VG_(strcmp)(cg_fifo_name, file) != 0)
      return;
   VG_(close)(cg_fifo_fd);
   VG_(free)(cg_fifo_name);
   cg_fifo_fd = -1;
   cg_fifo_left = True;
}

/* The option that hands the FIFO kept open to the next image. */
static Word fifo_fd_arg = -1;
/* Whether cg_fifo_fd is open across the coming exec. */
static Bool fifo_handed;

void cg_output_pre_exec(Bool traced)
{
   Int fd = cg_fifo_fd >= 0 && traced ? cg_fifo_fd : -1;
   /* Nothing to pass on, nor any --fifo-fd to take back: the one this
      image got is passed on again otherwise, naming a descriptor closed
      at this exec, which the next image's core may reuse. */
   if (fd < 0 && fifo_fd_arg < 0 && cfg->fifo_fd < 0)
      return;
   HChar *arg = VG_(malloc)("cg.main.arg", 32);
   if (fd >= 0)
      VG_(sprintf)(arg, "--fifo-fd=%d", fd);
   else
      VG_(strcpy)(arg, "--fifo-fd=none");
   cg_pass_on_arg(&fifo_fd_arg, arg);
   if (fd >= 0) {
      VG_(do_syscall)(__NR_fcntl, (UWord)fd, VKI_F_SETFD, 0, 0, 0, 0, 0, 0);
      fifo_handed = True;
   }
}

void cg_output_exec_failed(void)
{
   if (fifo_handed && cg_fifo_fd >= 0)
      VG_(do_syscall)(__NR_fcntl, (UWord)cg_fifo_fd, VKI_F_SETFD, CG_FD_CLOEXEC,
                      0, 0, 0, 0, 0);
   fifo_handed = False;
}

/* One of the program's own open files named as /proc/self/fd/N
   (/dev/stdout): a dup of its descriptor, written at its offset, after
   what the program wrote there (opened again, a regular file would be
   written from its start: the program's output and every part before
   would be overwritten); False if there is no such descriptor.  One open
   for reading only is an error, EBADF, as a write to it would be (opened
   again by its name for writing, the file the program reads -- prog
   1<input -- was cut to nothing and overwritten; the companions say
   "Bad file descriptor" too). */
static Bool cg_open_proc_fd(Int pfd, SysRes *out)
{
   SysRes d = VG_(dup)(pfd);
   if (sr_isError(d))
      return False;
   SysRes fl = cg_syscall2(__NR_fcntl, sr_Res(d), VKI_F_GETFL);
   if (!sr_isError(fl) && (sr_Res(fl) & VKI_O_ACCMODE) != VKI_O_RDONLY) {
      *out = d;
      return True;
   }
   VG_(close)((Int)sr_Res(d));
   *out = VG_(mk_SysRes_Error)(VKI_EBADF);
   return True;
}

/* Opens where the profile for path goes (file: path with its links
   resolved): a device or FIFO in place; otherwise a new temporary file
   (*tmp, which the caller frees) that takes the mode of the file it will
   replace, or, where none can be made, the file itself in place
   (cg_open_in_place; *in_place_err then says why no temporary file). */
static SysRes cg_open_output(const HChar *file, HChar **tmp,
                             UWord *in_place_err)
{
   struct vg_stat st;

   if (cg_is_special_file(file)) {
      Int pfd = cg_proc_fd(file);
      SysRes d;
      if (pfd >= 0 && cg_open_proc_fd(pfd, &d))
         return d;               /* else opened as a file, as before */
      struct vg_stat fst;
      if (!sr_isError(VG_(stat)(file, &fst)) && VKI_S_ISFIFO(fst.mode))
         return cg_open_fifo(file);
      return VG_(open)(file, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
                       VKI_S_IRUSR | VKI_S_IWUSR);
   }
   Bool exists = !sr_isError(VG_(stat)(file, &st));
   SysRes sres = cg_create_temp(file, tmp);
   if (sr_isError(sres)) {
      VG_(free)(*tmp);
      *tmp = NULL;
      SysRes r = cg_open_in_place(file, sres);
      if (!sr_isError(r))
         *in_place_err = sr_Err(sres);
      return r;
   }
   /* A replaced file keeps its mode, as it would if written in place. */
   if (exists)
      cg_syscall2(__NR_fchmod, sr_Res(sres), st.mode & 07777);
   return sres;
}

/* Makes the written temporary file tmp (open on fd) the file: synced, so
   that a crash right after the rename cannot leave an empty file, then
   renamed.  0, or the errno of the failure (*in_rename set when it was
   the rename's). */
static UWord cg_commit_output(Int fd, const HChar *tmp, const HChar *file,
                              Bool *in_rename)
{
   SysRes sres = cg_syscall2(__NR_fsync, (UWord)fd, 0);
   if (sr_isError(sres) && sr_Err(sres) != VKI_EINVAL)
      return sr_Err(sres);       /* EINVAL: a file that cannot be synced */
   sres = cg_syscall2(__NR_rename, (UWord)tmp, (UWord)file);
   *in_rename = sr_isError(sres);
   return sr_isError(sres) ? sr_Err(sres) : 0;
}

/* Linux's F_WRLCK and F_UNLCK (<asm-generic/fcntl.h>), which vki lacks. */
#define CG_F_WRLCK 1
#define CG_F_UNLCK 2

/* Locks (CG_F_WRLCK, waiting for it) or unlocks (CG_F_UNLCK) the output
   fd against the other processes of the run.  With a device, a FIFO or a
   file of the shell (/dev/stdout) as output, every process a program
   forks writes its profile into one stream, in several writes, and
   without the lock their writes were mixed.  A POSIX record lock: it
   belongs to a process, so a forked child does not hold its parent's
   (flock's and OFD locks belong to the open file, which they share); on
   one byte far beyond any data, which the program's own record locks of
   the file hardly cover (one of the whole file would be split by the
   unlock: a process's locks are one, and closing any descriptor of the
   file drops them all, as writing each part already did).  Only for
   regular files, pipes and FIFOs: a character device (/dev/null, a
   terminal) is shared by every process of the machine, which would all
   queue behind a writer.  Where the file takes no lock, nothing is
   serialised.
   The lock is waited for only while another process of the run holds
   that byte alone, as this tool locks it, and a stop signal is not
   pending: a lock of the program's own (lockf(1, F_LOCK, 0) on its log,
   which covers the byte) may be held for as long as the program likes,
   by a parent waiting for the child that writes, and waiting for it hung
   the run; the profile is then written without the tool's lock. */
#define CG_LOCK_BYTE 0x7fff0000

static void cg_lock_output(Int fd, Short type)
{
   struct vki_flock fl;
   struct vg_stat st;

   if (VG_(fstat)(fd, &st) != 0
       || !(VKI_S_ISREG(st.mode) || VKI_S_ISFIFO(st.mode)))
      return;
   for (;;) {
      VG_(memset)(&fl, 0, sizeof fl);
      fl.l_type = type;
      fl.l_whence = 0;           /* SEEK_SET */
      fl.l_start = CG_LOCK_BYTE;
      fl.l_len = 1;
      SysRes r = VG_(do_syscall)(__NR_fcntl, (UWord)fd, VKI_F_SETLK, (UWord)&fl,
                                 0, 0, 0, 0, 0);
      if (!sr_isError(r) || type == CG_F_UNLCK
          || (sr_Err(r) != VKI_EAGAIN && sr_Err(r) != VKI_EACCES))
         return;
      /* Who holds it: another process of the run, as this tool locks, or
         the program (any other range)? */
      if (sr_isError(VG_(do_syscall)(__NR_fcntl, (UWord)fd, VKI_F_GETLK,
                                     (UWord)&fl, 0, 0, 0, 0, 0)))
         return;
      if (fl.l_type != CG_F_UNLCK
          && (fl.l_start != CG_LOCK_BYTE || fl.l_len != 1 || cg_stop_pending()))
         return;
      VG_(poll)(NULL, 0, 10);
   }
}

/* ftruncate(fd, len) and fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, len): 0 or
   the errno.  A 32-bit kernel takes 64-bit offsets as two words. */
static UWord cg_ftruncate(Int fd, ULong len)
{
   SysRes r = cg_syscall2(__NR_ftruncate, (UWord)fd, (UWord)len);
   return sr_isError(r) ? sr_Err(r) : 0;
}

static UWord cg_reserve(Int fd, ULong len)
{
#if VG_WORDSIZE == 4
   SysRes r = VG_(do_syscall)(__NR_fallocate, (UWord)fd, 1 /* KEEP_SIZE */, 0, 0,
                              (UWord)len, (UWord)(len >> 32), 0, 0);
#else
   SysRes r = VG_(do_syscall)(__NR_fallocate, (UWord)fd, 1 /* KEEP_SIZE */, 0,
                              (UWord)len, 0, 0, 0, 0);
#endif
   return sr_isError(r) ? sr_Err(r) : 0;
}

/* The finished temporary file tmp could not be renamed over file (err): in
   a sticky folder such as /tmp the file belongs to another user (EPERM),
   or it is a mount point (a file bind-mounted into a container: EBUSY).
   Upstream, which opens the file itself, writes it in place; so does
   this, with a warning, where it is a regular file that may be written:
   opened without following a link or waiting (its owner may have put a
   link or a FIFO there since), its room reserved first (a bind-mounted
   file lives on another file system, which may be full: the file then
   stays as it was), written from its start, cut to the profile's length
   and synced.  0, or the errno to report, the rename's when the file is
   not written (*why_not is then why it was not written in place, when it
   was tried: the open's or reservation's reason, or that the name is no
   longer a regular file); *cut set when the write failed after the file
   was touched: it is then emptied.  In both cases the temporary file holds
   the only whole profile. */
static UWord cg_rewrite_in_place(const HChar *file, const HChar *tmp,
                                 const HChar *path, UWord err,
                                 const CgPrepared *prepared, const CgTotals *tot,
                                 const struct cg_part_text *part, Bool *cut,
                                 const HChar **why_not)
{
   struct vg_stat ts, st;

   if ((err != VKI_EPERM && err != VKI_EACCES && err != VKI_EBUSY)
       || sr_isError(VG_(stat)(tmp, &ts)))
      return err;
   SysRes sres = VG_(open)(file, VKI_O_WRONLY | VKI_O_NONBLOCK | CG_O_NOFOLLOW, 0);
   if (sr_isError(sres)) {
      if (sr_Err(sres) != err)
         *why_not = cg_strerror(sr_Err(sres));
      return err;
   }
   Int fd = cg_fd_high((Int)sr_Res(sres));
   UWord e = 0;
   if (VG_(fstat)(fd, &st) != 0 || !VKI_S_ISREG(st.mode)) {
      VG_(close)(fd);
      *why_not = "it is no longer a regular file";
      return err;
   }
   e = cg_reserve(fd, ts.size);
   if (e == VKI_ENOSPC || e == VKI_EDQUOT || e == VKI_EFBIG) {
      VG_(close)(fd);
      *why_not = cg_strerror(e);
      return err;
   }
   VG_(umsg)("warning: cannot replace '%s': %s; writing it in place, "
             "not atomically\n", path, cg_strerror(err));
   *cut = True;
   cg_lock_output(fd, CG_F_WRLCK);
   e = (UWord)cg_write_profile(fd, prepared, tot, part);
   if (e == 0) {
      Off64T end = VG_(lseek)(fd, 0, VKI_SEEK_CUR);
      e = end < 0 ? VKI_EIO : cg_ftruncate(fd, (ULong)end);
   }
   if (e == 0) {
      SysRes r = cg_syscall2(__NR_fsync, (UWord)fd, 0);
      if (sr_isError(r) && sr_Err(r) != VKI_EINVAL)
         e = sr_Err(r);
   }
   if (e != 0)
      cg_ftruncate(fd, 0);       /* never a mixture of old and new */
   cg_lock_output(fd, CG_F_UNLCK);
   VG_(close)(fd);
   return e;
}

/* Writes the profile to path so that it is complete or absent, following
   the contract for output files in docs/design.md ("Writing an output
   file"): into a new temporary file beside the file path names (symbolic
   links followed, as upstream follows them), renamed over it at the end;
   devices and FIFOs, and an existing file in a folder where no temporary
   file can be made, are written in place.  Returns False (and prints why)
   if that failed. */
Bool cg_write_profile_file(const HChar *path, const CgTotals *tot,
                           const struct cg_part_text *part)
{
   HChar *file = cg_resolve_links(path);
   HChar *tmp = NULL;

   if (!file) {
      cg_report_lost("can't open output data file", path, "",
                     cg_strerror(VKI_ELOOP));
      return False;
   }
   /* A FIFO handed over at the exec is this image's output or is closed:
      held, its reader would see no end of file until this image ends. */
   cg_take_handed_fifo(file);
   CgPrepared prepared;
   cg_prepare_profile(&prepared, part);
   UWord in_place_err = 0;
   SysRes sres = cg_open_output(file, &tmp, &in_place_err);
   Bool ok = !sr_isError(sres);

   if (!ok) {
      /* ENXIO: a FIFO without a reader, not waited for (or a socket). */
      struct vg_stat fst;
      Bool fifo = !sr_isError(VG_(stat)(file, &fst)) && VKI_S_ISFIFO(fst.mode);
      const HChar *why = sr_Err(sres) != VKI_ENXIO || !fifo ? cg_strerror(sr_Err(sres))
                         : cg_fifo_left ? "no reader of the FIFO (its reader went "
                                          "away: not waiting for another)"
                         : cg_fifo_no_wait ? "no reader of the FIFO (a signal ended "
                                             "the program: not waiting for one)"
                         : cg_strerror(VKI_ENXIO);
      cg_report_lost("can't open output data file", path, "", why);
   } else {
      Int fd = cg_fd_high((Int)sr_Res(sres));
      if (in_place_err)
         VG_(umsg)("warning: cannot create a temporary file in '%s': %s; "
                   "writing '%s' in place, not atomically\n",
                   VG_(dirname)(file), cg_strerror(in_place_err), path);
      if (!tmp)
         cg_lock_output(fd, CG_F_WRLCK);
      UWord err = (UWord)cg_write_profile(fd, &prepared, tot, part);
      if (!tmp)
         cg_lock_output(fd, CG_F_UNLCK);
      Bool in_rename = False;
      if (err == 0 && tmp)
         err = cg_commit_output(fd, tmp, file, &in_rename);
      VG_(close)(fd);
      Bool cut = False;
      const HChar *why_not = NULL;
      if (in_rename) {
         /* Not renamed: written in place instead, if it can be. */
         err = cg_rewrite_in_place(file, tmp, path, err, &prepared, tot, part,
                                   &cut, &why_not);
         if (err == 0)
            VG_(unlink)(tmp);
      }
      if (err != 0) {
         if (in_rename) {
            /* After a failed rename the temporary file holds the whole
               profile, and it is the only copy: kept and named (cut:
               the rewrite in place failed after touching the file). */
            if (cut)
               VG_(umsg)("error: writing output data file '%s' in place "
                         "failed: %s\n", path, cg_strerror(err));
            else
               VG_(umsg)("error: writing output data file '%s' failed: "
                         "cannot replace it (%s)%s%s\n", path,
                         cg_strerror(err),
                         why_not ? ", nor write it in place: " : "",
                         why_not ? why_not : "");
            if (cg_path_exists(tmp))
               VG_(umsg)("       ... the profile is kept in '%s'.\n", tmp);
            else
               VG_(umsg)("       ... so detailed results will be missing.\n");
         } else {
            cg_report_lost("writing output data file", path, " failed",
                           cg_strerror(err));
            if (tmp)
               VG_(unlink)(tmp);
         }
         ok = False;
         if (err == VKI_EFBIG)
            cg_drop_signal(VKI_SIGXFSZ);
         if (err == VKI_EPIPE) {
            cg_drop_signal(VKI_SIGPIPE);
            cg_fifo_gone(file);
         }
      }
   }
   cg_release_profile(&prepared, part);
   if (tmp)
      VG_(free)(tmp);
   VG_(free)(file);
   return ok;
}

/*------------------------------------------------------------*/
/*--- The profile of an image that calls exec              ---*/
/*------------------------------------------------------------*/

Bool cg_out_file_expandable(void)
{
   const HChar *s = cfg->out_file;
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
      SizeT len = (SizeT)(end - name);
      HChar *var = VG_(malloc)("cg.main.outvar", len + 1);
      VG_(memcpy)(var, name, len);
      var[len] = '\0';
      Bool set = VG_(getenv)(var) != NULL;
      VG_(free)(var);
      if (!set)
         return False;
      s = end;
   }
   return True;
}

/* The expanded output name of this image's first file (cg_out_file_name),
   owned here; NULL before it and after cg_out_file_forget(). */
static HChar *cg_out_name;

HChar *cg_out_file_name(void)
{
   if (!cg_out_name)
      cg_out_name = VG_(expand_file_name)("--cachegrind-out-file", cfg->out_file);
   return VG_(strdup)("cg.main.outname", cg_out_name);
}

Bool cg_out_file_named(void)
{
   return cg_out_name != NULL;
}

void cg_out_file_forget(void)
{
   if (cg_out_name)
      VG_(free)(cg_out_name);
   cg_out_name = NULL;
}

Bool cg_out_is_special(const HChar *base)
{
   HChar *file = cg_resolve_links(base);
   Bool special = file != NULL && cg_is_special_file(file);
   if (file)
      VG_(free)(file);
   return special;
}

Bool cg_out_file_special(void)
{
   if (!cg_out_file_expandable())
      return False;
   /* A question, not a file: the name is not fixed by it. */
   HChar *base = cg_out_name ? VG_(strdup)("cg.main.outname", cg_out_name)
                 : VG_(expand_file_name)("--cachegrind-out-file", cfg->out_file);
   Bool special = cg_out_is_special(base);
   VG_(free)(base);
   return special;
}

/* The numbers N of the files "<base>.pre-exec.N-<thread>" in base's
   folder, which an image run with --separate-threads=yes writes for each
   thread that counted anything.  A thread's number is never reused, so
   it can pass --max-threads (VG_N_THREADS): the folder is read instead
   of each possible name tried.  NULL if the folder cannot be read. */
static XArray *cg_threaded_pre_exec(const HChar *base)
{
   SysRes sres = VG_(open)(VG_(dirname)(base), VKI_O_RDONLY, 0);
   if (sr_isError(sres))
      return NULL;
   Int fd = (Int)sr_Res(sres);
   const HChar *name = VG_(basename)(base);   /* (the core's buffer) */
   SizeT name_len = VG_(strlen)(name);
   XArray *found = VG_(newXA)(VG_(malloc), "cg.main.preexec", VG_(free),
                              sizeof(UInt));
   HChar buf[4096] __attribute__((aligned(8)));
   Int got;
   while ((got = VG_(getdents64)(fd, (struct vki_dirent64 *)buf, sizeof buf)) > 0) {
      for (Int off = 0; off < got;) {
         const struct vki_dirent64 *d = (const struct vki_dirent64 *)(buf + off);
         off += d->d_reclen;
         const HChar *e = d->d_name;
         if (VG_(strncmp)(e, name, name_len) != 0
             || VG_(strncmp)(e + name_len, ".pre-exec.", 10) != 0)
            continue;
         e += name_len + 10;
         ULong n = 0;
         const HChar *digits = e;
         for (; *e >= '0' && *e <= '9' && n < (1u << 31); e++)
            n = n * 10 + (ULong)(*e - '0');
         if (e == digits || *e != '-' || n >= (1u << 31))
            continue;
         const HChar *t = ++e;
         while (*e >= '0' && *e <= '9')
            e++;
         if (e != t && *e == '\0') {
            UInt u = (UInt)n;
            VG_(addToXA)(found, &u);
         }
      }
   }
   VG_(close)(fd);
   if (got < 0) {
      VG_(deleteXA)(found);
      return NULL;
   }
   return found;
}

HChar *cg_pre_exec_name(void)
{
   if (!cg_out_file_expandable())
      return NULL;
   HChar *base = cg_out_file_name();
   if (cg_out_is_special(base))
      return base;
   SizeT len = VG_(strlen)(base) + 40;
   HChar *path = VG_(malloc)("cg.main.preexec", len);
   HChar *thread = VG_(malloc)("cg.main.preexec", len);
   XArray *threaded = cg_threaded_pre_exec(base);
   for (UInt n = 1; ; n++) {
      VG_(sprintf)(path, "%s.pre-exec.%u", base, n);
      Bool used = cg_path_exists(path);
      /* With --separate-threads=yes an image writes <path>-<tt> for each
         thread that counted anything, not always thread 1: N is taken if
         any of them is there.  Where the folder cannot be read, the
         thread numbers the core can have at once are tried. */
      for (Word i = 0; threaded && i < VG_(sizeXA)(threaded) && !used; i++)
         used = *(UInt *)VG_(indexXA)(threaded, i) == n;
      for (UInt t = 1; !threaded && t <= VG_N_THREADS && !used; t++) {
         VG_(sprintf)(thread, "%s-%02u", path, t);
         used = cg_path_exists(thread);
      }
      if (!used)
         break;
   }
   if (threaded)
      VG_(deleteXA)(threaded);
   VG_(free)(thread);
   VG_(free)(base);
   return path;
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

   /* Counts are printed as they are; a rate whose denominator is 0 divides
      by 1 instead (0.0%).  A denominator that is a sum is taken as a whole:
      the reference replaces each zero term by 1 (LL miss rate 1/(Ir + 1)
      with no data access), which only a part of a run (a region,
      --toggle-collect) shows. */
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
             l1, (llm_r + llm_w) * 100.0 / cg_nonzero(v[COL_IR] + d),
             l2, llm_r * 100.0 / cg_nonzero(v[COL_IR] + v[COL_DR]),
             l3, llm_w * 100.0 / dwa);
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
             l1, (v[COL_BCM] + v[COL_BIM]) * 100.0 / cg_nonzero(v[COL_BC] + v[COL_BI]),
             l2, v[COL_BCM] * 100.0 / bc, l3, v[COL_BIM] * 100.0 / bi);
}

void cg_print_summary(const CgTotals *t)
{
   HChar fmt[64];
   const ULong *v = t->v;
   Int l1 = cg_commas_width(v[COL_IR]);
   Int l2 = cg_commas_width(cg_max(v[COL_DR], v[COL_BC]));
   Int l3 = cg_commas_width(cg_max(v[COL_DW], v[COL_BI]));

   VG_(sprintf)(fmt, "%%s %%,%dllu\n", l1);
   VG_(umsg)(fmt, "I refs:       ", v[COL_IR]);
   if (cfg->cache_sim)
      cg_print_cache_summary(t, l1, l2, l3);
   if (cfg->branch_sim)
      cg_print_branch_summary(t, l1, l2, l3);
}

void cg_print_stats(void)
{
   struct cg_cc_stats cc = cg_cc_stats();
   ULong instrs_nox, instrs_gen, shape_misses;
   ULong lookups = cc.full_debugs + cc.file_line_debugs + cc.fn_debugs
                   + cc.no_debugs;
   ULong div = lookups ? lookups : 1;

   cg_instrument_stats(&instrs_nox, &instrs_gen, &shape_misses);
   VG_(dmsg)("\n");
   VG_(dmsg)("cachegrind: distinct files     : %u\n", stat_files_written);
   VG_(dmsg)("cachegrind: distinct functions : %u\n", stat_fns_written);
   VG_(dmsg)("cachegrind: distinct lines     : %u\n", stat_lines_written);
   VG_(dmsg)("cachegrind: distinct instrs NoX: %llu\n", instrs_nox);
   VG_(dmsg)("cachegrind: distinct instrs Gen: %llu\n", instrs_gen);
   VG_(dmsg)("cachegrind: debug lookups      : %llu\n", lookups);
   VG_(dmsg)("cachegrind: with full      info:%6.1f%% (%llu)\n",
             cc.full_debugs * 100.0 / div, cc.full_debugs);
   VG_(dmsg)("cachegrind: with file/line info:%6.1f%% (%llu)\n",
             cc.file_line_debugs * 100.0 / div, cc.file_line_debugs);
   VG_(dmsg)("cachegrind: with fn name   info:%6.1f%% (%llu)\n",
             cc.fn_debugs * 100.0 / div, cc.fn_debugs);
   VG_(dmsg)("cachegrind: with zero      info:%6.1f%% (%llu)\n",
             cc.no_debugs * 100.0 / div, cc.no_debugs);
   VG_(dmsg)("cachegrind: string table size: %u\n", cc.strings);
   VG_(dmsg)("cachegrind: CC table size: %u\n", cc.lines);
   if (cfg->dump_instr)
      VG_(dmsg)("cachegrind: CCs widened: %u (shape predictions short: %llu)\n",
                cc.widened, shape_misses);
   VG_(dmsg)("cachegrind: InstrInfo table size: %u\n", cg_sb_count());
}
