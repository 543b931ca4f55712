/* ann_inline.c -- cg_annotate --inline: the objects of an instruction-level profile, costs charged to inlined functions, and which one each line's cost belongs to. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * Notes.
 *
 * With --inline (or --asm), the profile is read with its instruction rows
 * (cost centre, line, object, address).  Each object is opened once
 * (ann_dwarf.c).  For --inline, every instruction of an object with usable
 * DWARF gets its inline chain; one whose innermost frame is an inlined
 * function moves from its (file, function) entry to the entry (file,
 * "INLINED [inlined into FUNCTION]"), FUNCTION being the profile's name of
 * the function whose code it is.  Its file and line stay the profile's, so
 * every per-line count, the annotated sources' counts and the Annotation
 * summary are those of the plain report; only the two function tables
 * change, and the annotated source gains a breakdown under each line that
 * holds inlined code.
 *
 * An object's chains are all computed before any cost moves: DWARF that
 * turns out corrupt halfway leaves the whole object as the profile
 * records it, never half charged.  Every object that is not read (no
 * object file, another build, no debug information, corrupt DWARF) is
 * listed in the report's Objects section with the reason.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ann.h"
#include "ann_dwarf.h"
#include "prog.h"

/* One object of the profile (same index as the table's objects). */
struct ann_object {
	struct ann_obj *o;   /* NULL: not opened (why says why) */
	char *why;           /* why --inline leaves its costs as recorded, or NULL */
	size_t ninstr;       /* its instructions in the profile */
	size_t ninlined;     /* of them, charged to inlined functions */
	size_t nline_diff;   /* of them, on another line in the DWARF */
};

struct ann_objects {
	struct ann_object *ob;
	size_t n;
	/* --mod-filename applied to the file names of the DWARF: its
	 * results by the address of the DWARF's name (libdw keeps its names
	 * while the object is open). */
	struct ann_ptrmap mod;
	/* The breakdown of lines: parts sorted by (file, line, function,
	 * inlined function, call site), counts in v (nev per part). */
	struct part *part;
	size_t npart;
	int64_t *v;
};

/* One part of a line's cost: the code of one function, or of one inlined
 * function at one call site. */
struct part {
	size_t file;               /* index in the table's files */
	int64_t line;
	const struct cgp_name *fn; /* the profile's function */
	const char *inl;           /* the inlined function (its name as shown), or NULL */
	const char *cfile;         /* its call site, or NULL */
	int64_t cline;
	size_t vi;                 /* its counts: v + vi * nev */
};

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		die(1, "out of memory");
	return d;
}

/* Raw bytes of a hex build-id; n set to their number. */
static unsigned char *unhex(const struct cgp_name *h, size_t *n)
{
	unsigned char *b = xmalloc(h->len / 2 + 1, 1);
	size_t i;

	for (i = 0; i + 1 < h->len; i += 2) {
		char d[3] = { h->s[i], h->s[i + 1], '\0' };
		b[i / 2] = (unsigned char)strtoul(d, NULL, 16);
	}
	*n = h->len / 2;
	return b;
}

void objects_open(struct ann *a)
{
	const struct cgp_table *t = &a->prof.tab;
	struct ann_objects *x = xcalloc(1, sizeof *x);
	int64_t first_run = 0;
	size_t i;

	/* Only files of this machine are read: libdw, when this is set, may
	 * ask a debuginfod server for some (dwz's alternate debug files). */
	unsetenv("DEBUGINFOD_URLS");
	for (i = 0; i < a->prof.nin; i++)
		if (!first_run || a->prof.in[i].mtime_ns < first_run)
			first_run = a->prof.in[i].mtime_ns;
	x->n = t->nobj;
	x->ob = xcalloc(x->n + 1, sizeof *x->ob);
	for (i = 0; i < t->nobj; i++) {
		struct ann_object *ob = &x->ob[i];
		struct ann_obj_opts opts = { a->debug_dirs, NULL, 0, first_run };
		struct cgp_error err = CGP_ERROR_INIT;
		unsigned char *id = NULL;

		if (!strcmp(t->obj[i].name->s, "???")) {
			ob->why = xstrdup("code outside every object file (made at run time)");
			continue;
		}
		if (t->obj[i].build_id) {
			id = unhex(t->obj[i].build_id, &opts.build_id_len);
			opts.build_id = id;
		}
		if (ann_obj_open(&ob->o, t->obj[i].name->s, &opts, &err)) {
			ob->why = xstrdup(err.msg ? err.msg : "cannot be read");
			cgp_error_release(&err);
		} else if (ann_obj_no_dwarf(ob->o)) {
			ob->why = xstrdup(ann_obj_no_dwarf(ob->o));
		} else if (ann_obj_units(ob->o, &err)) {
			ob->why = xstrdup(err.msg ? err.msg : "corrupt DWARF");
			cgp_error_release(&err);
		}
		free(id);
	}
	a->objs = x;
}

const char *objects_file_name(struct ann *a, const char *name)
{
	struct cgp_buf b = CGP_BUF_INIT(CGP_MAX_LINE);
	struct cgp_error err = CGP_ERROR_INIT;
	struct ann_ptrmap_slot *m;

	if (!a->mod_fl || !name)
		return name;
	m = ann_ptrmap_get(&a->objs->mod, name);
	if (m->val)
		return m->val;
	if (cgp_subst_apply(a->mod_fl, name, strlen(name), &b, &err))
		die(1, "--mod-filename: %s", err.msg ? err.msg : "out of memory");
	m->val = xmalloc(b.len + 1, 1);
	if (b.len)
		memcpy(m->val, b.s, b.len);
	m->val[b.len] = '\0';
	cgp_buf_release(&b);
	return m->val;
}

struct ann_obj *objects_get(const struct ann *a, size_t i)
{
	return i < a->objs->n ? a->objs->ob[i].o : NULL;
}

const char *objects_why(const struct ann *a, size_t i)
{
	return i < a->objs->n ? a->objs->ob[i].why : "no such object";
}

void objects_distrust(struct ann *a, size_t i, const char *why)
{
	if (i < a->objs->n && !a->objs->ob[i].why)
		a->objs->ob[i].why = xstrdup(why);
}

void objects_release(struct ann *a)
{
	struct ann_objects *x = a->objs;
	size_t i;

	if (!x)
		return;
	for (i = 0; i < x->n; i++) {
		ann_obj_close(x->ob[i].o);
		free(x->ob[i].why);
	}
	ann_ptrmap_release(&x->mod);
	free(x->ob);
	free(x->part);
	free(x->v);
	free(x);
	a->objs = NULL;
}

/* ---- charging instructions --------------------------------------------------- */

/* What the chain of one instruction row says. */
struct ins {
	size_t cc, row;
	const char *inl, *cfile;   /* innermost inlined function (its name as
				      shown, owned by its object), call site */
	int64_t cline;
};

/* The chains of every instruction of every object with DWARF, into *out.
 * An object whose DWARF fails gets its why and none of its rows. */
static struct ins *chains(struct ann *a, size_t *nout)
{
	struct cgp_table *t = &a->prof.tab;
	struct ann_objects *x = a->objs;
	struct ann_chain c = { NULL, 0, 0 };
	struct ins *in = NULL;
	size_t n = 0, cap = 0, i, r;

	for (i = 0; i < t->ncc; i++) {
		const struct cgp_lines *L = t->cc[i].instrs;
		for (r = 0; L && r < L->n; r++) {
			struct ann_object *ob = &x->ob[L->obj[r]];
			struct cgp_error err = CGP_ERROR_INIT;
			int rc;
			ob->ninstr++;
			if (ob->why)
				continue;
			rc = ann_obj_chain(ob->o, L->addr[r], &c, &err);
			if (rc < 0) {
				ob->why = xstrdup(err.msg);
				cgp_error_release(&err);
				continue;
			}
			if (rc == 0 || !c.n)
				continue;
			if (c.f[0].line && L->line[r] && c.f[0].line != L->line[r])
				ob->nline_diff++;
			if (n == cap) {
				cap = cap ? 2 * cap : 1024;
				in = xrealloc(in, cap, sizeof *in);
			}
			in[n] = (struct ins){ i, r, NULL, NULL, 0 };
			if (c.n > 1 && c.f[0].inlined) {
				in[n].inl = ann_obj_frame_name(ob->o, &c.f[0]);
				if (!in[n].inl)
					in[n].inl = "??";
				in[n].cfile = objects_file_name(a, c.f[1].file);
				in[n].cline = c.f[1].line;
			}
			n++;
		}
	}
	ann_chain_release(&c);
	*nout = n;
	return in;
}

/* The entry "INLINED [inlined into FN]" of file next to cost centre cc. */
static size_t inlined_cc(struct ann *a, size_t cc, const char *inl)
{
	struct cgp_table *t = &a->prof.tab;
	struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);
	long k;

	if (cgp_buf_addf(&b, "%s [inlined into %.*s]", inl, (int)t->cc[cc].fn->len,
			 t->cc[cc].fn->s))
		die(1, "out of memory");
	k = cgp_table_add_cc(t, t->cc[cc].file, b.s, b.len);
	if (k < 0)
		die(1, "out of memory");
	cgp_buf_release(&b);
	return (size_t)k;
}

/* Moves the counts v from cost centre from to to. */
static void move(struct ann *a, size_t from, size_t to, const int64_t *v)
{
	struct cgp_table *t = &a->prof.tab;
	unsigned k;

	for (k = 0; k < a->nev; k++)
		if (__builtin_sub_overflow(t->cc[from].total[k], v[k], &t->cc[from].total[k]) ||
		    __builtin_add_overflow(t->cc[to].total[k], v[k], &t->cc[to].total[k]))
			die(1, "a count of an inlined function does not fit in 64 bits");
}

/* The file entry of each cost centre. */
static size_t *file_of_cc(const struct cgp_table *t)
{
	size_t *f = xcalloc(t->ncc + 1, sizeof *f), i, j;

	for (i = 0; i < t->nfile; i++)
		for (j = 0; j < t->file[i].nccs; j++)
			f[t->file[i].ccs[j]] = i;
	return f;
}

static int cmp_str(const char *x, const char *y)
{
	if (x == y)
		return 0;
	if (!x || !y)
		return x ? 1 : -1;
	return strcmp(x, y);
}

static int cmp_part(const void *p, const void *q)
{
	const struct part *x = p, *y = q;
	int c;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if ((c = cgp_name_cmp(x->fn, y->fn)))
		return c;
	if ((c = cmp_str(x->inl, y->inl)) || (c = cmp_str(x->cfile, y->cfile)))
		return c;
	return (x->cline > y->cline) - (x->cline < y->cline);
}

/* The breakdown's parts: one per instruction row of every cost centre
 * that was in a file (inl from its chain, if any), sorted and merged. */
static void make_parts(struct ann *a, const struct ins *in, size_t nin, size_t ncc,
		       const size_t *file)
{
	const struct cgp_table *t = &a->prof.tab;
	struct ann_objects *x = a->objs;
	size_t i, r, k = 0, n = 0, j;

	for (i = 0; i < ncc; i++)
		n += t->cc[i].instrs && !(t->cc[i].flags & CGP_CC_NOFILE) ? t->cc[i].instrs->n : 0;
	x->part = xmalloc(n + 1, sizeof *x->part);
	x->v = xmalloc((n + 1) * (size_t)a->nev, sizeof *x->v);
	for (i = 0; i < ncc; i++) {
		const struct cgp_lines *L = t->cc[i].instrs;
		if (!L || (t->cc[i].flags & CGP_CC_NOFILE))
			continue;
		for (r = 0; r < L->n; r++) {
			struct part *p = &x->part[x->npart];
			while (k < nin && (in[k].cc < i || (in[k].cc == i && in[k].row < r)))
				k++;
			*p = (struct part){ file[i], L->line[r], t->cc[i].fn, NULL, NULL, 0,
					    x->npart };
			if (k < nin && in[k].cc == i && in[k].row == r &&
			    !x->ob[L->obj[r]].why) {
				p->inl = in[k].inl;
				p->cfile = in[k].cfile;
				p->cline = in[k].cline;
			}
			cgp_lines_get(L, r, x->v + x->npart * a->nev);
			x->npart++;
		}
	}
	if (x->npart)
		qsort(x->part, x->npart, sizeof *x->part, cmp_part);
	/* Merge equal keys, adding their counts into the first's. */
	for (i = j = 0; i < x->npart; i++) {
		if (j && !cmp_part(&x->part[j - 1], &x->part[i])) {
			add_counts(x->v + x->part[j - 1].vi * a->nev,
				   x->v + x->part[i].vi * a->nev, a->nev);
			continue;
		}
		x->part[j++] = x->part[i];
	}
	x->npart = j;
}

void inline_apply(struct ann *a)
{
	struct cgp_table *t = &a->prof.tab;
	struct ann_objects *x = a->objs;
	size_t nin, i, ncc = t->ncc, last_cc = (size_t)-1, to = 0;
	const char *last_inl = NULL;
	struct ins *in = chains(a, &nin);
	size_t *file = file_of_cc(t), *moved = xcalloc(ncc + 1, sizeof *moved);
	int64_t *v = xmalloc(a->nev, sizeof *v);
	unsigned char *drop;

	make_parts(a, in, nin, ncc, file);
	for (i = 0; i < nin; i++) {
		const struct cgp_lines *L = t->cc[in[i].cc].instrs;
		struct ann_object *ob = &x->ob[L->obj[in[i].row]];
		if (!in[i].inl || ob->why)
			continue;
		if (in[i].cc != last_cc || in[i].inl != last_inl) {
			to = inlined_cc(a, in[i].cc, in[i].inl);
			last_cc = in[i].cc;
			last_inl = in[i].inl;
		}
		cgp_lines_get(L, in[i].row, v);
		move(a, in[i].cc, to, v);
		if (L->line[in[i].row] > 0 && (!t->cc[to].line_lo ||
					       L->line[in[i].row] < t->cc[to].line_lo))
			t->cc[to].line_lo = L->line[in[i].row];
		ob->ninlined++;
		moved[in[i].cc]++;
	}
	/* An entry whose instructions all went to inlined functions is left
	 * out of the tables (at --threshold=0 it would be listed with zeros):
	 * its function has no code of its own in that file. */
	drop = xcalloc(t->ncc + 1, 1);
	for (i = 0; i < ncc; i++)
		drop[i] = moved[i] && moved[i] == t->cc[i].instrs->n;
	if (cgp_table_drop_ccs(t, drop))
		die(1, "out of memory");
	free(drop);
	free(moved);
	free(v);
	free(file);
	free(in);
}

/* ---- the report ------------------------------------------------------------ */

void report_objects(struct ann *a)
{
	const struct cgp_table *t = &a->prof.tab;
	struct ann_objects *x = a->objs;
	size_t i;
	char n1[32], n2[32];

	put_fancy("Objects", NULL, 0);
	for (i = 0; i < x->n; i++) {
		const struct ann_object *ob = &x->ob[i];
		size_t j;
		fputs("- ", stdout);
		fwrite(t->obj[i].name->s, 1, t->obj[i].name->len, stdout);
		/* One path with two builds (a library rebuilt while the program
		 * ran): the build-id tells the entries apart. */
		for (j = 0; j < x->n && t->obj[i].build_id; j++)
			if (j != i && !cgp_name_cmp(t->obj[j].name, t->obj[i].name)) {
				printf(" (build-id %.*s)", (int)t->obj[i].build_id->len,
				       t->obj[i].build_id->s);
				break;
			}
		if (ob->why) {
			printf(": %s\n  %s\n", ob->why,
			       a->inline_on ? "its costs stay as the profile records them"
					    : "its instructions are shown without inline information");
			continue;
		}
		printf(": DWARF from %s\n", ann_obj_debug_file(ob->o));
		if (a->inline_on) {
			cgp_fmt_commas(n1, (int64_t)ob->ninstr);
			cgp_fmt_commas(n2, (int64_t)ob->ninlined);
			printf("  %s instructions, %s of them in inlined functions\n", n1, n2);
		}
		if (ob->nline_diff) {
			cgp_fmt_commas(n1, (int64_t)ob->nline_diff);
			printf("  warning: %s %s another line number in the DWARF than in "
			       "the profile (the profile's is shown)\n", n1,
			       ob->nline_diff == 1 ? "instruction has" : "instructions have");
		}
	}
	putchar('\n');
}

/* The report whose primary event orders a line's parts (qsort has no
 * context argument); set by inline_breakdown(), owns nothing. */
static const struct ann *part_ann;

/* By the primary sort event, largest first. */
static int cmp_part_by_cost(const void *p, const void *q)
{
	const struct part *x = p, *y = q;
	const int64_t *v = part_ann->objs->v;
	unsigned e = part_ann->sort[0];
	int64_t a = v[x->vi * part_ann->nev + e], b = v[y->vi * part_ann->nev + e];

	if (a != b)
		return a > b ? -1 : 1;
	return cmp_part(p, q);
}

void inline_breakdown(struct ann *a, const struct cgp_file *f, int64_t line,
		      const struct cols *c)
{
	const struct ann_objects *x = a->objs;
	size_t file = (size_t)(f - a->prof.tab.file), lo = 0, hi, i, n;
	struct cgp_buf label = CGP_BUF_INIT(SIZE_MAX / 2);
	struct part *p;
	int any = 0;

	if (!x || !a->inline_on)
		return;
	hi = x->npart;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct part *m = &x->part[mid];
		if (m->file < file || (m->file == file && m->line < line))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (n = 0; lo + n < x->npart && x->part[lo + n].file == file &&
		    x->part[lo + n].line == line; n++)
		any |= x->part[lo + n].inl != NULL;
	if (!any)
		return;
	p = xmalloc(n, sizeof *p);
	memcpy(p, &x->part[lo], n * sizeof *p);
	part_ann = a;
	qsort(p, n, sizeof *p, cmp_part_by_cost);
	for (i = 0; i < n; i++) {
		int rc;
		cgp_buf_reset(&label);
		if (p[i].inl)
			rc = cgp_buf_addf(&label, "%s [inlined into ", p[i].inl) ||
			     cgp_buf_add(&label, p[i].fn->s, p[i].fn->len) ||
			     cgp_buf_addf(&label, "], called at %s:%lld",
					  p[i].cfile ? p[i].cfile : "??", (long long)p[i].cline);
		else
			rc = cgp_buf_add(&label, p[i].fn->s, p[i].fn->len);
		if (rc)
			die(1, "out of memory");
		put_cells(c, a, x->v + p[i].vi * a->nev, NULL);
		fputs("   | ", stdout);
		fwrite(label.s ? label.s : "", 1, label.len, stdout);
		putchar('\n');
		if (a->html)
			html_src_part(a, x->v + p[i].vi * a->nev, label.s ? label.s : "", label.len);
	}
	cgp_buf_release(&label);
	free(p);
}
