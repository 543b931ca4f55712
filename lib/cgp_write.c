/* cgp_write.c -- diffing profiles and writing cg_merge / cg_diff output, atomically when to a file. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE /* sync_file_range */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgp.h"
#include "cgp_int.h"

int cgp_diff(struct cgp_profile *newp, const struct cgp_profile *old,
	     struct cgp_error *err)
{
	size_t i;
	unsigned k;

	if (!cgp_events_equal(newp->events, newp->nev, old->events, old->nev))
		return cgp_error_events(err, old->in[0].path, newp->in[0].path);
	for (i = 0; i < old->tab.ncc; i++) {
		const struct cgp_cc *o = &old->tab.cc[i];
		struct cgp_name_ent *f = cgp_names_intern(&newp->tab.names, o->file->s,
							  o->file->len);
		struct cgp_name_ent *fn = cgp_names_intern(&newp->tab.names, o->fn->s,
							   o->fn->len);
		long c = f && fn ? cgp_table_cc(&newp->tab, f, &fn->name, 0) : -1;
		if (c < 0)
			return cgp_error_set(err, CGP_ENOMEM, "out of memory");
		for (k = 0; k < newp->nev; k++) {
			int64_t d;
			if (!__builtin_sub_overflow(newp->tab.cc[c].total[k], o->total[k], &d)) {
				newp->tab.cc[c].total[k] = d;
				continue;
			}
			return cgp_error_set(err, CGP_EOVERFLOW,
					     "the difference of %s in %.*s:%.*s exceeds the "
					     "64-bit range (new - old: %lld - %lld)",
					     newp->events[k], (int)o->file->len, o->file->s,
					     (int)o->fn->len, o->fn->s,
					     (long long)newp->tab.cc[c].total[k],
					     (long long)o->total[k]);
		}
	}
	for (k = 0; k < newp->nev; k++) {
		int64_t d;
		if (!__builtin_sub_overflow(newp->summary[k], old->summary[k], &d)) {
			newp->summary[k] = d;
			continue;
		}
		return cgp_error_set(err, CGP_EOVERFLOW,
				     "the difference of %s in the summary exceeds the "
				     "64-bit range (new - old: %lld - %lld)",
				     newp->events[k], (long long)newp->summary[k],
				     (long long)old->summary[k]);
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Buffered output                                                           */
/* ------------------------------------------------------------------------ */

int cgp_write_all(int fd, const void *p, size_t n)
{
	const char *q = p;

	while (n) {
		ssize_t k = write(fd, q, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			/* A pipe that another process sharing it made
			 * non-blocking, now full: wait for its reader, as a
			 * write would (upstream opens /dev/stdout by name). */
			struct pollfd pf = { .fd = fd, .events = POLLOUT };

			if (poll(&pf, 1, -1) < 0 && errno != EINTR)
				return errno;
			continue;
		}
		if (k < 0)
			return errno;
		if (k == 0)
			return EIO; /* no progress and no reason: never loop */
		q += k;
		n -= (size_t)k;
	}
	return 0;
}

void cgp_out_init(struct cgp_out *o, int fd, const char *name)
{
	o->fd = fd;
	o->name = name;
	o->len = 0;
	o->written = 0;
	o->errnum = 0;
	o->sync_ahead = 0;
	o->synced = 0;
	o->hold = 0;
	o->held = (struct cgp_buf)CGP_BUF_INIT(SIZE_MAX / 2);
}

/* An output to be synced: starts writing back what was written since the
 * last time, every CGP_OUT_SYNC_AHEAD bytes.  A failure here is only a
 * lost head start: the fsync reports errors. */
static void sync_ahead(struct cgp_out *o)
{
#ifdef HAVE_SYNC_FILE_RANGE
	if (o->sync_ahead && o->written - o->synced >= CGP_OUT_SYNC_AHEAD) {
		if (sync_file_range(o->fd, (off_t)o->synced, (off_t)(o->written - o->synced),
				    SYNC_FILE_RANGE_WRITE) != 0)
			o->sync_ahead = 0;
		o->synced = o->written;
	}
#else
	(void)o;
#endif
}

/* Writes the buffer out (or holds it: ENOMEM if it cannot); after a
 * failure everything is dropped. */
static void out_drain(struct cgp_out *o)
{
	if (!o->errnum && o->len && o->hold) {
		if (cgp_buf_add(&o->held, o->buf, o->len))
			o->errnum = ENOMEM;
	} else if (!o->errnum && o->len) {
		o->errnum = cgp_write_all(o->fd, o->buf, o->len);
		if (!o->errnum)
			o->written += o->len;
		sync_ahead(o);
	}
	o->len = 0;
}

void cgp_out_add(struct cgp_out *o, const void *p, size_t n)
{
	const char *q = p;

	while (n) {
		size_t k = sizeof o->buf - o->len;
		if (k > n)
			k = n;
		memcpy(o->buf + o->len, q, k);
		o->len += k;
		q += k;
		n -= k;
		if (o->len == sizeof o->buf)
			out_drain(o);
	}
}

char *cgp_out_room(struct cgp_out *o, size_t n)
{
	if (sizeof o->buf - o->len < n)
		out_drain(o);
	return o->buf + o->len;
}

static void out_str(struct cgp_out *o, const char *s)
{
	cgp_out_add(o, s, strlen(s));
}

int cgp_out_flush(struct cgp_out *o, struct cgp_error *err)
{
	out_drain(o);
	if (!o->errnum)
		return 0;
	if (!o->name)
		return cgp_error_sys(err, CGP_EIO, o->errnum, "cannot write the output");
	return cgp_error_sys(err, CGP_EIO, o->errnum, "cannot write '%s'", o->name);
}

/* ------------------------------------------------------------------------ */
/* The writers                                                               */
/* ------------------------------------------------------------------------ */

/* lead + " c1 c2 ...\n", formatted in a local buffer and added in pieces
 * of up to 512 bytes. */
static void put_counts(struct cgp_out *o, const char *lead, const int64_t *v,
		       unsigned n)
{
	char buf[512];
	size_t k = strlen(lead);
	unsigned i;

	memcpy(buf, lead, k); /* "summary:", "0" or a line number */
	for (i = 0; i < n; i++) {
		if (k > sizeof buf - 24) {
			cgp_out_add(o, buf, k);
			k = 0;
		}
		buf[k++] = ' ';
		if ((uint64_t)v[i] < 10)  /* most counts */
			buf[k++] = (char)('0' + v[i]);
		else
			k += cgp_fmt_int(buf + k, v[i]);
	}
	buf[k++] = '\n';
	cgp_out_add(o, buf, k);
}

static void put_events(struct cgp_out *o, const struct cgp_profile *p)
{
	unsigned k;

	out_str(o, "events:");
	for (k = 0; k < p->nev; k++) {
		out_str(o, " ");
		out_str(o, p->events[k]);
	}
	out_str(o, "\n");
}

/* kw + the name's bytes as they are + "\n". */
static void put_name(struct cgp_out *o, const char *kw, const struct cgp_name *n)
{
	out_str(o, kw);
	cgp_out_add(o, n->s, n->len);
	out_str(o, "\n");
}

/* The table whose cost centres cmp_cc() compares (qsort has no context
 * argument); set by cgp_write_diff() before sorting, owns nothing. */
static const struct cgp_table *sort_tab;

static int cmp_cc(const void *a, const void *b)
{
	const struct cgp_cc *x = &sort_tab->cc[*(const uint32_t *)a];
	const struct cgp_cc *y = &sort_tab->cc[*(const uint32_t *)b];
	int c = cgp_name_cmp(x->file, y->file);

	return c ? c : cgp_name_cmp(x->fn, y->fn);
}

/* 1 if n holds a byte that ends a line for the readers (\n, \r) or that
 * they refuse (NUL): such a name would make a profile no reader takes. */
static int breaks_line(const struct cgp_name *n)
{
	return memchr(n->s, '\n', n->len) || memchr(n->s, '\r', n->len) ||
	       memchr(n->s, '\0', n->len);
}

/* A path in the desc: line, its line breaks written as '?'. */
static void put_path(struct cgp_out *o, const char *path)
{
	size_t n;

	while (*path) {
		n = strcspn(path, "\n\r");
		cgp_out_add(o, path, n);
		path += n;
		if (*path) {
			out_str(o, "?");
			path++;
		}
	}
}

int cgp_write_diff(struct cgp_out *o, const struct cgp_profile *p,
		   const char *path1, const char *path2, const char *cmd1,
		   const char *cmd2, struct cgp_error *err)
{
	/* Cost centres number fewer than 2^32 (cgp_table_cc()). */
	uint32_t *order;
	size_t i;

	/* Names come from profiles' lines, but --mod-filename and
	 * --mod-funcname may put anything into them. */
	for (i = 0; i < p->tab.ncc; i++) {
		const struct cgp_cc *c = &p->tab.cc[i];
		const struct cgp_name *n = breaks_line(c->file) ? c->file : c->fn;
		struct cgp_buf b = CGP_BUF_INIT(1 << 20);
		size_t j, lim;
		int rc;
		if (!breaks_line(n))
			continue;
		lim = cgp_utf8_cut(n->s, n->len, 200);
		/* The name quoted on one line: \n, \r and \0 escaped. */
		for (j = 0; j < lim; j++) {
			const char *e = n->s[j] == '\n' ? "\\n" : n->s[j] == '\r' ? "\\r"
				      : !n->s[j] ? "\\0" : NULL;
			if (e)
				cgp_buf_adds(&b, e);
			else
				cgp_buf_add(&b, &n->s[j], 1);
		}
		rc = cgp_error_set(err, CGP_EUSAGE,
				   "the %s name '%.*s'%s holds a line break or a NUL byte (from "
				   "--mod-%s?), which a profile cannot hold",
				   n == c->file ? "file" : "function", (int)b.len,
				   b.s ? b.s : "", lim < n->len ? "..." : "",
				   n == c->file ? "filename" : "funcname");
		cgp_buf_release(&b);
		return rc;
	}
	order = malloc((p->tab.ncc + 1) * sizeof *order);
	if (!order)
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	for (i = 0; i < p->tab.ncc; i++)
		order[i] = (uint32_t)i;
	sort_tab = &p->tab;
	qsort(order, p->tab.ncc, sizeof *order, cmp_cc);
	out_str(o, "desc: Files compared:   ");
	put_path(o, path1);
	out_str(o, "; ");
	put_path(o, path2);
	out_str(o, "\ncmd: ");
	out_str(o, cmd1);
	out_str(o, "; ");
	out_str(o, cmd2);
	out_str(o, "\n");
	put_events(o, p);
	for (i = 0; i < p->tab.ncc; i++) {
		const struct cgp_cc *c = &p->tab.cc[order[i]];
		put_name(o, "fl=", c->file);
		put_name(o, "fn=", c->fn);
		put_counts(o, "0", c->total, p->nev);
	}
	put_counts(o, "summary:", p->summary, p->nev);
	free(order);
	return cgp_out_flush(o, err);
}

/* Where the instruction-level writer is: its last ob= line's object (-1:
 * none yet), the file of its last fl= line and of its last fl=, fi= or
 * fe= line (the file of the count lines), the function of its last fn=
 * line (a cost centre, -1: none yet), whether a name line came since the
 * last count line, and that count line's address. */
struct instr_pos {
	long obj;
	const struct cgp_name *fl, *cost_file;
	long fn_cc;
	int absolute;
	uint64_t addr;
	int64_t zid[3];    /* the last name compression ID of ob=, of fl=,
			      fi= and fe=, of fn= (put_zname()) */
};

/* kw + the name + "\n" in a Callgrind-format output, whose readers take
 * a name that starts with "(" and a digit for the format's name
 * compression: such a name gets an ID of its own first, the next of
 * *zid ("(1) (2) h.c" is the name "(2) h.c"); others are as put_name()
 * writes them. */
static void put_zname(struct cgp_out *o, const char *kw, const struct cgp_name *n,
		      int64_t *zid)
{
	char b[32];
	size_t k = 1;

	if (n->len >= 2 && n->s[0] == '(' && (unsigned)(n->s[1] - '0') <= 9) {
		out_str(o, kw);
		b[0] = '(';
		k += cgp_fmt_int(b + 1, ++*zid);
		b[k++] = ')';
		b[k++] = ' ';
		cgp_out_add(o, b, k);
		cgp_out_add(o, n->s, n->len);
		out_str(o, "\n");
	} else {
		put_name(o, kw, n);
	}
}

/* The address of a count line: "0x<hex>" after a name line, else relative
 * to the previous count line's ("+N", "-N" or "*"), unless the distance
 * is 2^31 or more (a Callgrind reader reads it into 32 bits). */
static size_t fmt_addr(char *buf, struct instr_pos *w, uint64_t addr)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[16];
	size_t k = 0, n = 0;
	uint64_t d = addr > w->addr ? addr - w->addr : w->addr - addr;

	if (!w->absolute && d < (uint64_t)1 << 31) {
		if (d == 0) {
			buf[0] = '*';
			return 1;
		}
		buf[k++] = addr > w->addr ? '+' : '-';
		return k + cgp_fmt_int(buf + k, (int64_t)d);
	}
	buf[k++] = '0';
	buf[k++] = 'x';
	d = addr;
	do
		tmp[n++] = hex[d & 15];
	while (d >>= 4);
	while (n)
		buf[k++] = tmp[--n];
	return k;
}

/* An instruction row of a profile: its function's cost centre, its
 * object, and where it is (row r of cost centre cc's instructions). */
struct instr_rec {
	uint32_t fn_cc, obj, cc, r;
};

/* The order of the rows of the instruction-level output: by function (in
 * the order first seen), then object (name, then build-id, none first,
 * as the tool orders them), address and line; (cc, r) last, for a
 * stable order.  Uses sort_tab. */
static int cmp_instr(const void *a, const void *b)
{
	const struct instr_rec *x = a, *y = b;
	const struct cgp_lines *tx = sort_tab->cc[x->cc].instrs;
	const struct cgp_lines *ty = sort_tab->cc[y->cc].instrs;
	uint64_t ax = tx->addr[x->r], ay = ty->addr[y->r];
	int64_t lx = tx->line[x->r], ly = ty->line[y->r];

	if (x->fn_cc != y->fn_cc)
		return x->fn_cc < y->fn_cc ? -1 : 1;
	if (x->obj != y->obj) {
		const struct cgp_object *ox = &sort_tab->obj[x->obj];
		const struct cgp_object *oy = &sort_tab->obj[y->obj];
		int c = cgp_name_cmp(ox->name, oy->name);
		if (c || !ox->build_id || !oy->build_id)
			return c ? c : ox->build_id ? 1 : -1;
		return cgp_name_cmp(ox->build_id, oy->build_id);
	}
	if (ax != ay)
		return ax < ay ? -1 : 1;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	if (x->cc != y->cc)
		return x->cc < y->cc ? -1 : 1;
	return (x->r > y->r) - (x->r < y->r);
}

/* The lines before the count line of record x: ob= (and its build-id)
 * when the object changes; fl= and fn= where a function starts and after
 * ob= (a Callgrind reader forgets the function at ob=), fl= only where
 * the function's file is not both the last fl= line's and the count
 * lines' (callgrind_annotate keeps the fi= file at fn=); fi= where the
 * row's file is not the one of the count lines before, fe= where it is
 * the function's own. */
static void put_instr_names(struct cgp_out *o, const struct cgp_table *t,
			    const struct instr_rec *x, struct instr_pos *w)
{
	const struct cgp_cc *c = &t->cc[x->cc], *f = &t->cc[x->fn_cc];
	int new_ob = w->obj != (long)x->obj;

	if (new_ob) {
		const struct cgp_object *ob = &t->obj[x->obj];
		put_zname(o, "ob=", ob->name, &w->zid[0]);
		if (ob->build_id)
			put_name(o, "# build-id: ", ob->build_id);
		w->obj = (long)x->obj;
	}
	if (new_ob || w->fn_cc != (long)x->fn_cc) {
		if (new_ob || w->fl != f->file || w->cost_file != f->file)
			put_zname(o, "fl=", f->file, &w->zid[1]);
		put_zname(o, "fn=", f->fn, &w->zid[2]);
		w->fl = w->cost_file = f->file;
		w->fn_cc = (long)x->fn_cc;
		w->absolute = 1;
	}
	if (c->file != w->cost_file) {
		put_zname(o, c->file == f->file ? "fe=" : "fi=", c->file, &w->zid[1]);
		w->cost_file = c->file;
	}
}

/* The instruction rows of p, each function one block (see cmp_instr()).
 * 0, or CGP_ENOMEM. */
static int put_instrs(struct cgp_out *o, const struct cgp_profile *p, int64_t *row,
		      struct cgp_error *err)
{
	struct instr_pos w = { -1, NULL, NULL, -1, 1, 0, { 0, 0, 0 } };
	const struct cgp_table *t = &p->tab;
	struct instr_rec *v;
	size_t n = 0, i, r;

	for (i = 0; i < t->ncc; i++)
		n += t->cc[i].instrs ? t->cc[i].instrs->n : 0;
	if (!(v = malloc((n + 1) * sizeof *v)))
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	n = 0;
	for (i = 0; i < t->ncc; i++)
		for (r = 0; t->cc[i].instrs && r < t->cc[i].instrs->n; r++)
			v[n++] = (struct instr_rec){ t->cc[i].instrs->fn_cc[r],
						     t->cc[i].instrs->obj[r],
						     (uint32_t)i, (uint32_t)r };
	sort_tab = t;
	qsort(v, n, sizeof *v, cmp_instr);
	for (i = 0; i < n; i++) {
		const struct cgp_lines *L = t->cc[v[i].cc].instrs;
		char lead[64];
		size_t k;
		put_instr_names(o, t, &v[i], &w);
		k = fmt_addr(lead, &w, L->addr[v[i].r]);
		lead[k++] = ' ';
		k += cgp_fmt_int(lead + k, L->line[v[i].r]);
		lead[k] = '\0';
		cgp_lines_get(L, v[i].r, row);
		put_counts(o, lead, row, p->nev);
		w.absolute = 0;
		w.addr = L->addr[v[i].r];
	}
	free(v);
	return 0;
}

/* Row r of t, "LINE COUNT...\n", formatted where it goes in o's buffer. */
static void put_row(struct cgp_out *o, const struct cgp_lines *t, size_t r)
{
	char *q = cgp_out_room(o, 24 + 21 * (size_t)t->nev);
	size_t k = cgp_fmt_int(q, t->line[r]);

	k += cgp_lines_text(t, r, q + k);
	q[k++] = '\n';
	o->len += k;
}

int cgp_write_merge(struct cgp_out *o, const struct cgp_profile *p,
		    struct cgp_error *err)
{
	int instr = p->instr && p->keep_instrs;
	const struct cgp_input *in = &p->in[0];
	const char *d = in->desc;
	int64_t *row = malloc(p->nev * sizeof *row);
	size_t i, j, r;

	if (!row)
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	while (*d) {
		const char *nl = strchr(d, '\n');
		out_str(o, "desc: ");
		cgp_out_add(o, d, (size_t)(nl - d) + 1);
		d = nl + 1;
	}
	out_str(o, "cmd: ");
	out_str(o, in->cmd);
	out_str(o, "\n");
	if (instr)
		out_str(o, "positions: instr line\n");
	put_events(o, p);
	if (instr && put_instrs(o, p, row, err)) {
		free(row);
		return err->code;
	}
	for (i = 0; !instr && i < p->tab.nfile; i++) {
		const struct cgp_file *fl = &p->tab.file[i];
		if (!fl->nccs)
			continue;
		put_name(o, "fl=", fl->name);
		for (j = 0; j < fl->nccs; j++) {
			const struct cgp_cc *c = &p->tab.cc[fl->ccs[j]];
			put_name(o, "fn=", c->fn);
			for (r = 0; c->lines && r < c->lines->n; r++)
				put_row(o, c->lines, r);
		}
	}
	put_counts(o, "summary:", p->summary, p->nev);
	free(row);
	return cgp_out_flush(o, err);
}

/* ------------------------------------------------------------------------ */
/* Output files                                                              */
/* ------------------------------------------------------------------------ */

/* The contract these functions keep, shared with the tool's writer, is in
 * docs/design.md ("Writing an output file"); tests/outfile.test
 * checks it. */

/*
 * Where the output really goes: a symbolic link is followed so that the
 * link stays and its target is replaced.  Returns a malloc'd path, or NULL
 * with *direct set when the output must be written in place: an existing
 * file that is not a regular file (a device such as /dev/null, a FIFO),
 * which renaming over would destroy, or a dangling link.
 */
static char *folder_of(const char *path);

char *cgp_follow_link(char *cur)
{
	char link[PATH_MAX], *next, *dir;
	ssize_t n = readlink(cur, link, sizeof link - 1);

	if (n < 0) {
		free(cur);
		return NULL;
	}
	link[n] = '\0';
	dir = link[0] == '/' ? NULL : folder_of(cur);
	next = link[0] == '/' || dir ? malloc((dir ? strlen(dir) + 1 : 0) + (size_t)n + 1)
				     : NULL;
	if (next)
		sprintf(next, "%s%s%s", dir ? dir : "", dir ? "/" : "", link);
	free(dir);
	free(cur);
	return next;
}

/* N if path names one of this process's open descriptors: /dev/fd/N,
 * /proc/self/fd/N, /proc/thread-self/fd/N, /proc/<pid>/fd/N; else -1. */
static int fd_path(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/",
					    "/proc/thread-self/fd/" };
	char own[40];
	const char *rest = NULL;
	size_t i;
	long n;

	snprintf(own, sizeof own, "/proc/%ld/fd/", (long)getpid());
	for (i = 0; i < sizeof dirs / sizeof dirs[0] && !rest; i++)
		if (!strncmp(path, dirs[i], strlen(dirs[i])))
			rest = path + strlen(dirs[i]);
	if (!rest && !strncmp(path, own, strlen(own)))
		rest = path + strlen(own);
	if (!rest || *rest < '0' || *rest > '9')
		return -1;
	for (n = 0; *rest >= '0' && *rest <= '9' && n < (1L << 30); rest++)
		n = n * 10 + (*rest - '0');
	return *rest || n >= (1L << 30) ? -1 : (int)n;
}

/* The descriptor N when path, or the chain of links from it, names one
 * of this process's open files (/dev/stdout is a link to /proc/self/fd/1);
 * else -1. */
static int own_fd(const char *path)
{
	char *cur = strdup(path);
	struct stat st;
	int hops, n = -1;

	for (hops = 0; cur && hops < 40 && (n = fd_path(cur)) < 0; hops++) {
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			break;
		cur = cgp_follow_link(cur);
	}
	free(cur);
	return n;
}

/* The file a dangling symbolic link (chain) at path names, malloc'd; NULL
 * if it is not one (a loop, an unreadable link, out of memory). */
static char *dangling_target(const char *path)
{
	char *cur = strdup(path);
	struct stat st;
	int hops;

	for (hops = 0; cur && hops < 40; hops++) {
		/* /proc's links (/dev/stdout is /proc/self/fd/1) name open
		 * files, "pipe:[N]" for a pipe: such a link is opened itself. */
		if (!strncmp(cur, "/proc/", 6))
			break;
		if (lstat(cur, &st) != 0)
			return errno == ENOENT ? cur : (free(cur), NULL);
		if (!S_ISLNK(st.st_mode))
			break;
		cur = cgp_follow_link(cur);
	}
	free(cur);
	return NULL;
}

static char *real_target(const char *path, int *direct, mode_t *mode, int *exists)
{
	struct stat st;

	*direct = 0;
	*exists = 0;
	if (lstat(path, &st) != 0)
		return strdup(path);          /* a new file */
	if (S_ISLNK(st.st_mode)) {
		char *r = realpath(path, NULL);
		/* A dangling link: the file it names is made like any new
		 * one, complete or not at all. */
		if (!r && errno == ENOENT && (r = dangling_target(path)))
			return r;
		if (!r) {
			*direct = 1;
			return NULL;
		}
		if (stat(r, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(r);
			*direct = 1;
			return NULL;
		}
		*exists = 1;
		*mode = st.st_mode & 07777;
		return r;
	}
	if (!S_ISREG(st.st_mode)) {
		*direct = 1;
		return NULL;
	}
	*exists = 1;
	*mode = st.st_mode & 07777;
	return strdup(path);
}

static int outfile_nomem(struct cgp_outfile *o, struct cgp_error *err)
{
	cgp_outfile_abort(o);
	return cgp_error_set(err, CGP_ENOMEM, "out of memory");
}

/* The folder of path, malloc'd: "." for a bare name, "/" at the root. */
static char *folder_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/*
 * No temporary file could be made beside the target (errno e).  Where the
 * folder forbids it (a read-only folder, say: EACCES, EPERM, EROFS),
 * upstream would simply rewrite an existing file, so open it for writing
 * in place, and hold the output in memory until the commit writes it and
 * cuts the file to its length (so a failure before then leaves the file
 * as it was).  Not for other reasons: on a full disk (ENOSPC, EDQUOT) the
 * rewrite would fail too, with the old contents gone.  Otherwise the error
 * names the folder as the cause.
 */
static int open_in_place(struct cgp_outfile *o, int exists, int e,
			 struct cgp_error *err)
{
	char *dir = folder_of(o->path);
	int fd = -1, rc;
	int may = e == EACCES || e == EPERM || e == EROFS;

	if (!dir)
		return outfile_nomem(o, err);
	if (exists && may)
		fd = open(o->path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		struct cgp_error w = CGP_ERROR_INIT;
		cgp_error_sys(&w, CGP_EIO, e, "cannot create a temporary file in '%s'", dir);
		free(dir);
		if (cgp_buf_addf(&o->warning, "%s; writing '%s' in place, not atomically",
				 w.msg, o->name)) {
			cgp_error_release(&w);
			close(fd);
			return outfile_nomem(o, err);
		}
		cgp_error_release(&w);
		o->out.fd = fd;
		o->out.hold = 1;
		o->inplace = 1;
		return 0;
	}
	if (exists && may)
		rc = cgp_error_sys(err, CGP_EIO, errno, "cannot create '%s': cannot create "
				   "a temporary file in '%s', nor write the file in place",
				   o->name, dir);
	else if (exists)
		rc = cgp_error_sys(err, CGP_EIO, e, "cannot write '%s': cannot create "
				   "a temporary file in '%s'", o->name, dir);
	else
		rc = cgp_error_sys(err, CGP_EIO, e, "cannot create '%s': cannot create "
				   "a file in '%s'", o->name, dir);
	free(dir);
	cgp_outfile_abort(o);
	return rc;
}

int cgp_outfile_open(struct cgp_outfile *o, const char *path, struct cgp_error *err)
{
	int fd, direct = 0, exists = 0, e, own;
	mode_t mode = 0;
	size_t n;

	o->tmp = NULL;
	o->inplace = 0;
	o->warning = (struct cgp_buf)CGP_BUF_INIT(SIZE_MAX / 2);
	o->name = strdup(path);
	o->path = NULL;
	cgp_out_init(&o->out, -1, o->name);
	if (!o->name)
		return outfile_nomem(o, err);
	/* One of this process's open files (/dev/stdout): written through a
	 * dup of its descriptor, at its offset, after what was written there
	 * before (opened again, a regular file would be written from its
	 * start, over the output before it, and renaming over it would leave
	 * the shell's descriptor on the old file). */
	own = own_fd(path);
	if (own < 0) {
		o->path = real_target(path, &direct, &mode, &exists);
		if (!direct && !o->path)
			return outfile_nomem(o, err);
	}
	if (own >= 0 || direct) {
		fd = own >= 0 ? fcntl(own, F_DUPFD_CLOEXEC, 0)
			      : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (fd < 0) {
			e = errno;
			cgp_outfile_abort(o);
			return cgp_error_sys(err, CGP_EIO, e, own >= 0 ? "cannot write '%s'"
							   : "cannot create '%s'", path);
		}
		o->out.fd = fd;
		return 0;
	}
	n = strlen(o->path);
	o->tmp = malloc(n + 16);
	if (!o->tmp)
		return outfile_nomem(o, err);
	memcpy(o->tmp, o->path, n);
	memcpy(o->tmp + n, ".tmp.XXXXXX", 12);
	fd = mkstemp(o->tmp);
	if (fd < 0 && errno == ENAMETOOLONG) {
		/* A name near the limit of 255 bytes leaves no room for the
		 * suffix: the temporary file takes only the start of it. */
		const char *slash = strrchr(o->path, '/');
		size_t dir = slash ? (size_t)(slash - o->path) + 1 : 0;
		if (n - dir > 200) {
			memcpy(o->tmp + dir + 200, ".tmp.XXXXXX", 12);
			fd = mkstemp(o->tmp);
		}
	}
	if (fd < 0) {
		e = errno;
		free(o->tmp);
		o->tmp = NULL;
		if (e == ENOENT || e == ENOTDIR) { /* no such folder */
			cgp_outfile_abort(o);
			return cgp_error_sys(err, CGP_EIO, e, "cannot create '%s'", path);
		}
		return open_in_place(o, exists, e, err);
	}
	/* mkstemp makes it 0600: keep the mode of the file replaced, or give
	 * a new one the usual mode under the umask. */
	if (!exists) {
		mode_t um = umask(0);
		umask(um);
		mode = 0666 & ~um;
	}
	if (fchmod(fd, mode) != 0) {
		/* Not fatal: the contents are what matters. */
	}
	o->out.fd = fd;
	o->out.sync_ahead = 1;  /* synced and renamed when complete */
	return 0;
}

/*
 * The complete temporary file could not be renamed over the target
 * (errno e): in a sticky folder such as /tmp the target belongs to another
 * user (EPERM), or it is a mount point (a file bind-mounted into a
 * container: EBUSY).  Upstream opens the file itself and so rewrites it in
 * place; so does this, copying the temporary file into it, where it is a
 * regular file that may be written: opened without following a link or
 * waiting (its owner may have put a link or a FIFO there since), and its
 * room reserved first (a bind-mounted file lives on another file system,
 * which may be full), so that a lack of space leaves it untouched.
 * Returns 0 (the file holds the output, the temporary file is gone, warn
 * says so); COPY_UNTOUCHED (the file as it was, err says why); or
 * COPY_CUT (the copy failed after the file was touched: it holds a clean
 * prefix of the output, or nothing).  In both failures the temporary file
 * holds the only whole output: it is kept, and err names it.
 */
enum { COPY_UNTOUCHED = 1, COPY_CUT };

static int copy_in_place(struct cgp_outfile *o, int e, struct cgp_error *warn,
			 struct cgp_error *err)
{
	char buf[1 << 16];
	struct stat ts, st;
	off_t done = 0;
	ssize_t n;
	int in, fd, r = 0;

	if (stat(o->tmp, &ts))   /* (removed by someone else: nothing kept) */
		return cgp_error_sys(err, CGP_EIO, e, "cannot write '%s'", o->name),
		       COPY_UNTOUCHED;
	if (e != EPERM && e != EACCES && e != EBUSY)
		return cgp_error_sys(err, CGP_EIO, e, "cannot write '%s' (the output is "
				     "kept in '%s'): cannot replace it", o->name, o->tmp),
		       COPY_UNTOUCHED;
	in = open(o->tmp, O_RDONLY | O_CLOEXEC);
	if (in < 0 || fstat(in, &ts)) {
		r = errno;
		if (in >= 0)
			close(in);
		return cgp_error_sys(err, CGP_EIO, r, "cannot write '%s' (the output is "
				     "kept in '%s'): cannot replace it (%s), nor read "
				     "the kept file", o->name, o->tmp, strerror(e)),
		       COPY_UNTOUCHED;
	}
	fd = open(o->path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode)))
		r = EINVAL;      /* not a regular file (any more): not written */
	else if (fd < 0)
		r = errno;
	else if (fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, ts.st_size) &&
		 (errno == ENOSPC || errno == EDQUOT || errno == EFBIG))
		r = errno;       /* (a file system without fallocate: copied) */
	if (r) {
		close(in);
		if (fd >= 0)
			close(fd);
		if (r == EINVAL)
			return cgp_error_set(err, CGP_EIO, "cannot write '%s' (the output is "
					     "kept in '%s'): cannot replace it (%s), nor write "
					     "it in place: it is no longer a regular file",
					     o->name, o->tmp, strerror(e)), COPY_UNTOUCHED;
		if (r == e)
			return cgp_error_sys(err, CGP_EIO, e, "cannot write '%s' (the output "
					     "is kept in '%s'): cannot replace it", o->name,
					     o->tmp), COPY_UNTOUCHED;
		return cgp_error_sys(err, CGP_EIO, r, "cannot write '%s' (the output is "
				     "kept in '%s'): cannot replace it (%s), nor write "
				     "it in place", o->name, o->tmp, strerror(e)),
		       COPY_UNTOUCHED;
	}
	while ((n = read(in, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || (r = cgp_write_all(fd, buf, (size_t)n)) != 0) {
			r = n < 0 ? errno : r;
			break;
		}
		done += n;
	}
	close(in);
	if (ftruncate(fd, done)) {
		if (!r)
			r = errno;
		/* The old contents past the new: never a mixture of the two. */
		if (ftruncate(fd, 0)) {
			/* Nothing more to try: err names the whole output. */
		}
	}
	if (!r && fsync(fd) && errno != EINVAL)
		r = errno;
	if (close(fd) && !r && errno != EINTR)
		r = errno;
	if (r)
		return cgp_error_sys(err, CGP_EIO, r, "cannot write '%s' in place (the "
				     "output is kept in '%s')", o->name, o->tmp), COPY_CUT;
	unlink(o->tmp);
	cgp_error_sys(warn, CGP_EIO, e, "cannot replace '%s'", o->name);
	return 0;
}

int cgp_outfile_commit(struct cgp_outfile *o, struct cgp_error *warn,
		       struct cgp_error *err)
{
	int e = 0, bad, copied;

	/* In place, the held output is written now, and the old contents end
	 * where the new ones do (after a failed write: a clean prefix of the
	 * new, never a mixture). */
	if (o->inplace) {
		out_drain(&o->out);
		o->out.hold = 0;
		if (!o->out.errnum) {
			o->out.errnum = cgp_write_all(o->out.fd, o->out.held.s,
						      o->out.held.len);
			if (!o->out.errnum)
				o->out.written = o->out.held.len;
		}
	}
	bad = cgp_out_flush(&o->out, err) != 0;
	if (o->inplace && ftruncate(o->out.fd, (off_t)o->out.written) && !bad)
		e = errno;
	if (bad) {
		cgp_outfile_abort(o);
		return CGP_EIO;
	}
	if ((o->tmp || o->inplace) && !e && fsync(o->out.fd))
		e = errno;
	if (close(o->out.fd) && !e && errno != EINTR)
		e = errno;
	o->out.fd = -1;
	if (!e && o->tmp && rename(o->tmp, o->path)) {
		copied = copy_in_place(o, errno, warn, err);
		if (copied) {
			/* The only whole output is the temporary file: kept. */
			free(o->tmp);
			o->tmp = NULL;
			cgp_outfile_abort(o);
			return CGP_EIO;
		}
	}
	if (e) {
		cgp_error_sys(err, CGP_EIO, e, "cannot write '%s'", o->name);
		cgp_outfile_abort(o);
		return CGP_EIO;
	}
	free(o->tmp);
	o->tmp = NULL;
	cgp_outfile_abort(o);
	return 0;
}

void cgp_outfile_abort(struct cgp_outfile *o)
{
	if (o->out.fd >= 0)
		close(o->out.fd);
	o->out.fd = -1;
	cgp_buf_release(&o->out.held);
	o->out.hold = 0;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	free(o->name);
	cgp_buf_release(&o->warning);
	o->tmp = o->path = o->name = NULL;
	o->out.name = NULL;
	o->inplace = 0;
}
