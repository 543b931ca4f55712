/* ann_asm.c -- cg_annotate's annotated disassembly (--asm). */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * Notes.
 *
 * The text of an instruction comes from Capstone (ann_disasm.c), its code
 * bytes from the object file through libelf (ann_obj_code()).  A function is a function symbol
 * of the object holding instructions of the profile (or, where the object
 * has no symbol there, a run of instructions of one profile function).
 * Every instruction of it is shown, those the profile has with their
 * counts, the others with dots, as an annotated source shows lines.  The
 * profile's addresses are the truth: where one falls inside an
 * instruction decoded before it (data in the code, or code that overlaps),
 * decoding starts again at that address.
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "ann.h"
#include "ann_dwarf.h"
#include "prog.h"

/* ---- --asm ------------------------------------------------------------------ */

struct ann_asm_regex {
	pcre2_code *re;
	pcre2_match_data *md;
};

const char *asm_set_regex(struct ann *a, const char *re, int *free_it)
{
	struct ann_asm_regex *x = xcalloc(1, sizeof *x);
	struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	int code;
	char *r;

	x->re = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
			      PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF, &code, &off, NULL);
	if (!x->re) {
		free(x);
		pcre2_get_error_message(code, msg, sizeof msg);
		r = py_repr(re);
		cgp_buf_addf(&b, "invalid regular expression %s: %s at offset %zu", r,
			     (char *)msg, (size_t)off);
		free(r);
		*free_it = 1;
		return b.s ? b.s : "invalid regular expression";
	}
	x->md = pcre2_match_data_create_from_pattern(x->re, NULL);
	if (!x->md)
		die(1, "out of memory");
	if (a->asm_regex) {
		pcre2_match_data_free(a->asm_regex->md);
		pcre2_code_free(a->asm_regex->re);
		free(a->asm_regex);
	}
	a->asm_regex = x;
	return NULL;
}

void asm_release(struct ann *a)
{
	if (!a->asm_regex)
		return;
	pcre2_match_data_free(a->asm_regex->md);
	pcre2_code_free(a->asm_regex->re);
	free(a->asm_regex);
	a->asm_regex = NULL;
}

/* One instruction of the profile (rows of one address added up). */
struct ains {
	size_t obj;
	uint64_t addr;
	const struct cgp_name *file, *fn;   /* the profile's */
	int64_t line;
	size_t vi;                          /* counts: v + vi * nev */
};

/* One function to disassemble: instructions first..first+n-1. */
struct afn {
	size_t obj;
	struct ann_sym sym;                 /* name NULL: no symbol */
	const struct cgp_name *fn;          /* the profile's name of its first */
	size_t first, n;
	int64_t *total;
};

/* The state of the --asm report. */
struct asm_rep {
	struct ann *a;
	struct ains *in;
	size_t nin;
	int64_t *v;
	struct afn *fn;
	size_t nfn;
};

static int cmp_ains(const void *p, const void *q)
{
	const struct ains *x = p, *y = q;

	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* Every instruction row of the profile, sorted by (object, address), the
 * rows of one address added up. */
static void collect(struct asm_rep *r)
{
	const struct cgp_table *t = &r->a->prof.tab;
	unsigned nev = r->a->nev;
	size_t i, k, n = 0, j;

	for (i = 0; i < t->ncc; i++)
		n += t->cc[i].instrs ? t->cc[i].instrs->n : 0;
	r->in = xmalloc(n + 1, sizeof *r->in);
	r->v = xmalloc((n + 1) * (size_t)nev, sizeof *r->v);
	for (i = 0; i < t->ncc; i++) {
		const struct cgp_lines *L = t->cc[i].instrs;
		for (k = 0; L && k < L->n; k++) {
			r->in[r->nin] = (struct ains){ L->obj[k], L->addr[k], t->cc[i].file,
						       t->cc[i].fn, L->line[k], r->nin };
			cgp_lines_get(L, k, r->v + r->nin * nev);
			r->nin++;
		}
	}
	if (r->nin)
		qsort(r->in, r->nin, sizeof *r->in, cmp_ains);
	for (i = j = 0; i < r->nin; i++) {
		if (j && !cmp_ains(&r->in[j - 1], &r->in[i])) {
			add_counts(r->v + r->in[j - 1].vi * nev, r->v + r->in[i].vi * nev, nev);
			continue;
		}
		r->in[j++] = r->in[i];
	}
	r->nin = j;
}

/* Splits the instructions into functions: by symbol, else by runs of one
 * profile function. */
static void group(struct asm_rep *r)
{
	size_t i = 0, cap = 0;

	while (i < r->nin) {
		struct ann_obj *o = objects_get(r->a, r->in[i].obj);
		struct afn f = { r->in[i].obj, { NULL, 0, 0 }, r->in[i].fn, i, 0, NULL };
		struct ann_sym other;
		int has = o && ann_obj_symbol(o, r->in[i].addr, &f.sym);
		if (!has)
			f.sym.name = NULL;
		f.total = xcalloc(r->a->nev, sizeof *f.total);
		for (; i < r->nin && r->in[i].obj == f.obj; i++) {
			if (has ? r->in[i].addr >= f.sym.hi
				: r->in[i].fn != f.fn ||
				  (o && ann_obj_symbol(o, r->in[i].addr, &other)))
				break;
			add_counts(f.total, r->v + r->in[i].vi * r->a->nev, r->a->nev);
			f.n++;
		}
		if (r->nfn == cap) {
			cap = cap ? 2 * cap : 64;
			r->fn = xrealloc(r->fn, cap, sizeof *r->fn);
		}
		r->fn[r->nfn++] = f;
	}
}

/* The name a function is shown and matched by. */
static char *fn_name(const struct afn *f)
{
	char *d;

	if (f->sym.name) {
		d = ann_demangle(f->sym.name);
	} else {
		d = malloc(f->fn->len + 1);
		if (d)
			memcpy(d, f->fn->s, f->fn->len + 1);
	}
	if (!d)
		die(1, "out of memory");
	return d;
}

/* Whether s matches --asm=REGEX; a match that PCRE2 gives up on (its
 * match limit) is an error, as in --mod-funcname, not "no match". */
static int matches(const struct ann *a, const char *s, size_t n)
{
	int rc = pcre2_match(a->asm_regex->re, (PCRE2_SPTR)s, n, 0, 0, a->asm_regex->md,
			     NULL);

	if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
		PCRE2_UCHAR msg[256];
		size_t q = cgp_utf8_cut(s, n, 60);
		pcre2_get_error_message(rc, msg, sizeof msg);
		die(1, "--asm: the regular expression failed on '%.*s'%s: %s", (int)q, s,
		    q < n ? "..." : "", (char *)msg);
	}
	return rc >= 0;
}

/* 1 if f is shown: it matches --asm=REGEX (its symbol, demangled, or its
 * profile name), or without one it reaches the threshold. */
static int selected(const struct ann *a, const struct afn *f)
{
	int64_t v = f->total[a->sort[0]], s = a->summary[a->sort[0]];
	char *name;
	int m;

	if (!a->asm_regex)
		return fabs((double)v) >= a->threshold * fabs((double)s) / 100;
	name = fn_name(f);
	m = matches(a, name, strlen(name)) || matches(a, f->fn->s, f->fn->len);
	free(name);
	return m;
}

/* The sort of functions: by the sort events, largest first, then name. */
static const struct ann *afn_ann;

static int cmp_afn(const void *p, const void *q)
{
	const struct afn *x = p, *y = q;
	unsigned i;

	for (i = 0; i < afn_ann->nsort; i++) {
		int64_t a = llabs(x->total[afn_ann->sort[i]]), b = llabs(y->total[afn_ann->sort[i]]);
		if (a != b)
			return a > b ? -1 : 1;
	}
	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	return (x->first > y->first) - (x->first < y->first);
}

/* Prints a source-line marker when (file, line) changes. */
static void line_marker(struct ann *a, const char **pfile, int64_t *pline, const char *file,
			size_t flen, int64_t line, const char *inl, const struct cgp_name *fn)
{
	struct cgp_buf *b = &a->prof.tmp;

	if (*pfile && !strncmp(*pfile, file, flen) && !(*pfile)[flen] && *pline == line)
		return;
	*pfile = file;
	*pline = line;
	cgp_buf_reset(b);
	if (cgp_buf_add(b, file, flen) || cgp_buf_addf(b, ":%lld", (long long)line) ||
	    (inl && (cgp_buf_addf(b, " (%s [inlined into ", inl) ||
		     cgp_buf_add(b, fn->s, fn->len) || cgp_buf_adds(b, "])"))))
		die(1, "out of memory");
	fputs("-- ", stdout);
	fwrite(b->s, 1, b->len, stdout);
	putchar('\n');
	if (a->html)
		html_asm_marker(a, b->s, b->len);
}

/* The line and inlined function of an address from the DWARF. */
static void dwarf_line(struct ann *a, size_t obj, struct ann_obj *o, uint64_t addr,
		       struct ann_chain *c, const char **file, int64_t *line,
		       const char **inl)
{
	struct cgp_error err = CGP_ERROR_INIT;
	int rc;

	*file = NULL;
	*line = 0;
	*inl = NULL;
	if (objects_why(a, obj))
		return;
	rc = ann_obj_chain(o, addr, c, &err);
	if (rc < 0) {
		/* The object's DWARF is not trusted after an error
		 * (ann_dwarf.h); the Objects section is already out. */
		warning("%s: %s (at 0x%llx); the rest of its instructions are shown "
			"without source lines", a->prof.tab.obj[obj].name->s,
			err.msg ? err.msg : "corrupt DWARF", (unsigned long long)addr);
		objects_distrust(a, obj, err.msg ? err.msg : "corrupt DWARF");
	}
	cgp_error_release(&err);
	if (rc <= 0 || !c->n)
		return;
	*file = objects_file_name(a, c->f[0].file);
	*line = c->f[0].line;
	if (a->inline_on && c->n > 1 && c->f[0].inlined)
		*inl = ann_obj_frame_name(o, &c->f[0]);
}

/* One shown instruction: counts (or dots), address, text. */
static void put_insn(const struct asm_rep *r, const struct cols *c, const struct ains *in,
		     uint64_t addr, int aw, const char *text)
{
	const int64_t *v = in ? r->v + in->vi * r->a->nev : NULL;

	if (v)
		put_cells(c, r->a, v, NULL);
	else
		put_missing_cells(c, r->a);
	printf("  %*" PRIx64 ":  %s\n", aw, addr, text);
	if (r->a->html)
		html_asm_insn(r->a, v, addr, text);
}

/* A line of text in the disassembly (no code, decoding again). */
static void asm_note(struct ann *a, const char *text)
{
	printf("%s\n", text);
	if (a->html)
		html_asm_note(a, text, strlen(text));
}

/* The largest magnitude of the primary event among n instructions. */
static int64_t hottest(const struct asm_rep *r, const struct ains *in, size_t n)
{
	uint64_t hot = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t m = cgp_model_mag(&r->a->model, r->a->sort[0],
					   r->v[in[i].vi * r->a->nev + r->a->sort[0]]);
		if (m > hot)
			hot = m;
	}
	return hot > INT64_MAX ? INT64_MAX : (int64_t)hot;
}

/* In a run of instructions without a symbol, a gap of more bytes than
 * this between two instructions of the profile is not decoded. */
#define ASM_GAP 64

/* The code of o at pos (ann_obj_code), at most up to lim. */
static int code_from(struct ann_obj *o, uint64_t pos, const unsigned char **code, size_t *len,
		     uint64_t lim, struct cgp_error *err)
{
	if (ann_obj_code(o, pos, code, len, err))
		return -1;
	if (*len > lim - pos)
		*len = (size_t)(lim - pos);
	return 0;
}

/* Says that the code from *pos up to to is not shown (why), and goes on
 * decoding at to; -1 if there is no code there. */
static int skip_to(struct ann *a, struct ann_obj *o, uint64_t to, const char *why,
		   uint64_t *pos, const unsigned char **code, size_t *len, uint64_t lim)
{
	struct cgp_error err = CGP_ERROR_INIT;
	char text[128];

	snprintf(text, sizeof text, "-- %" PRIx64 "..%" PRIx64 " not shown (%s)", *pos, to - 1,
		 why);
	asm_note(a, text);
	*pos = to;
	if (code_from(o, to, code, len, lim, &err)) {
		cgp_error_release(&err);
		return -1;
	}
	return 0;
}

/* The annotated disassembly of one function. */
static void one_fn(struct asm_rep *r, const struct afn *f, struct ann_disasm *d,
		   const char *nocode)
{
	struct ann *a = r->a;
	struct ann_obj *o = objects_get(a, f->obj);
	const struct cgp_table *t = &a->prof.tab;
	struct ann_chain ch = { NULL, 0, 0 };
	struct cgp_error err = CGP_ERROR_INIT;
	const struct ains *in = r->in + f->first, *end = in + f->n;
	const unsigned char *code = NULL;
	size_t len = 0;
	uint64_t pos = f->sym.name ? f->sym.lo : in->addr;
	/* Decoding goes on while pos < hi, reading code below lim: a
	 * symbol's end, or past the last instruction of a run without one
	 * (its length unknown until decoded: at most 15 bytes). */
	uint64_t hi = f->sym.name ? f->sym.hi : end[-1].addr + 1;
	uint64_t lim = f->sym.name ? f->sym.hi : end[-1].addr + 15;
	const char *pfile = NULL, *file, *inl;
	int64_t pline = 0, line;
	struct cols c;
	char text[256], *name = fn_name(f), buf[40];
	size_t i;
	int aw = snprintf(buf, sizeof buf, "%" PRIx64, lim);

	cgp_buf_reset(&a->prof.tmp);
	cgp_buf_addf(&a->prof.tmp, "%s (%.*s)", name, (int)t->obj[f->obj].name->len,
		     t->obj[f->obj].name->s);
	put_fancy("Annotated disassembly: ", a->prof.tmp.s, a->prof.tmp.len);
	if (a->html)
		html_asm_begin(a, a->prof.tmp.s, a->prof.tmp.len, hottest(r, in, f->n));
	free(name);
	cols_init(&c, a, 0);
	for (i = 0; i < f->n; i++)
		cols_see(&c, a, r->v + in[i].vi * a->nev);
	cols_finish(&c, a);
	put_header(&c, a, "", "");
	putchar('\n');
	if (!nocode && code_from(o, pos, &code, &len, lim, &err))
		nocode = err.msg;
	if (nocode) {
		cgp_buf_reset(&a->prof.tmp);
		cgp_buf_addf(&a->prof.tmp, "No code: %s", nocode);
		asm_note(a, a->prof.tmp.s ? a->prof.tmp.s : "No code");
		putchar('\n');
	}
	while (pos < hi && (nocode ? in < end : 1)) {
		uint64_t at = pos;
		const struct ains *here = in < end && in->addr == pos ? in : NULL;
		if (!nocode && !len) {
			/* The end of a section's code: on at the same address
			 * in another section, else at the profile's next
			 * instruction. */
			if (!code_from(o, pos, &code, &len, lim, &err))
				continue;
			cgp_error_release(&err);
			if (in == end || in->addr <= pos)
				break;
			if (skip_to(a, o, in->addr, "no code", &pos, &code, &len, lim))
				break;
			continue;
		}
		if (!nocode && !f->sym.name && !here && in < end && in->addr - pos > ASM_GAP) {
			/* A run without a symbol (a stripped object: it may span
			 * the whole code) is decoded where the profile has
			 * instructions, not across its large gaps. */
			if (skip_to(a, o, in->addr, "no instruction of the profile", &pos, &code,
				    &len, lim))
				break;
			continue;
		}
		if (nocode) {
			at = pos = in->addr;
			here = in;
			snprintf(text, sizeof text, "(no code)");
		} else if (!ann_disasm_one(d, &code, &len, &pos, text, sizeof text)) {
			snprintf(text, sizeof text, "(bad)  .byte 0x%02x", code[0]);
			code++, len--, pos++;
		}
		/* The line: the profile's where it has the instruction, else
		 * the DWARF's; the inlined function: the DWARF's. */
		dwarf_line(a, f->obj, o, at, &ch, &file, &line, &inl);
		if (here)
			line_marker(a, &pfile, &pline, here->file->s, here->file->len, here->line,
				    inl, here->fn);
		else if (file)
			line_marker(a, &pfile, &pline, file, strlen(file), line, inl, f->fn);
		put_insn(r, &c, here, here ? here->addr : at, aw, text);
		if (here)
			in++;
		if (nocode) {
			pos++;
			continue;
		}
		/* A profile address inside the instruction just decoded: the
		 * profile is right, decoding starts again there. */
		if (in < end && in->addr < pos && in->addr > at) {
			snprintf(text, sizeof text, "-- decoding again from %" PRIx64
				 ", where the profile has an instruction", in->addr);
			asm_note(a, text);
			len += (size_t)(pos - in->addr);
			code -= pos - in->addr;
			pos = in->addr;
		}
	}
	for (; in < end; in++)
		put_insn(r, &c, in, in->addr, aw, "(outside the code decoded)");
	putchar('\n');
	if (a->html)
		html_asm_end(a);
	cols_release(&c);
	ann_chain_release(&ch);
	cgp_error_release(&err);
}

void report_asm(struct ann *a)
{
	struct asm_rep r = { .a = a };
	size_t nobj = a->prof.tab.nobj, i;
	struct ann_disasm **dis = xcalloc(nobj + 1, sizeof *dis);
	char **nocode = xcalloc(nobj + 1, sizeof *nocode);

	collect(&r);
	group(&r);
	for (i = 0; i < nobj; i++) {
		struct ann_obj *o = objects_get(a, i);
		struct cgp_error err = CGP_ERROR_INIT;
		int bits, m;
		if (!o) {
			nocode[i] = strdup(objects_why(a, i));
			continue;
		}
		m = ann_obj_machine(o, &bits);
		if (ann_disasm_new(&dis[i], m, bits, &err)) {
			nocode[i] = strdup(err.msg);
			cgp_error_release(&err);
		}
	}
	afn_ann = a;
	if (r.nfn)
		qsort(r.fn, r.nfn, sizeof *r.fn, cmp_afn);
	for (i = 0; i < r.nfn; i++)
		if (selected(a, &r.fn[i]))
			one_fn(&r, &r.fn[i], dis[r.fn[i].obj], nocode[r.fn[i].obj]);
	for (i = 0; i < nobj; i++) {
		ann_disasm_free(dis[i]);
		free(nocode[i]);
	}
	for (i = 0; i < r.nfn; i++)
		free(r.fn[i].total);
	free(dis);
	free(nocode);
	free(r.fn);
	free(r.in);
	free(r.v);
}
