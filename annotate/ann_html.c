/* ann_html.c -- cg_annotate --html=FILE: the report as one self-contained HTML page. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * Notes.
 *
 * The page is written while the text report runs (into a sink, as for
 * --json): each section of the text calls the function here that renders
 * the same data, so the page's numbers, rows and files are the text's by
 * construction -- the File:function and Function:file entries after the
 * threshold and in the text's order (struct outer), the annotated lines
 * as the text reads them, the Annotation summary's buckets after the text
 * checked them.  Nothing is held back but the current section's state:
 * the page streams through the library's buffered output into a temporary
 * file that becomes FILE only when complete (struct cgp_outfile), so an
 * error or a signal leaves no partial page.
 *
 * Escaping.  Every text that comes from a profile, a source file or the
 * command line goes through text(): & < > " ' become entities, and a byte
 * that is not part of valid UTF-8, or a control character other than a
 * tab, is shown as a marked "\xNN".  The only text in attributes is
 * generated here (identifiers, numbers).  The tables' data is JSON inside
 * <script type="application/json">, written by the library's JSON writer
 * in its html mode (< > & and U+2028/U+2029 as \u escapes), so no name
 * can end the element.  The page's Content-Security-Policy allows no
 * network access: only its own inline style and script run.
 *
 * Sizes.  A table shows its first STATIC_ROWS rows as HTML (what a
 * browser without JavaScript shows, with a note when there are more); all
 * of its rows are in its data, which the script sorts, filters and pages.
 * Writing is linear in the report: one pass over each section's entries,
 * escaping in runs, numbers formatted straight into the output.
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ann.h"
#include "ann_html_assets.h"   /* html_css, html_js (annotate/html/) */
#include "prog.h"

/* Rows (outer and inner) of a table written as HTML; the script pages
 * through the rest, a page at a time of the same size. */
#define STATIC_ROWS 1000

/* The page's file: its temporary file is removed if the program dies
 * (prog_outfile.c's exit handler reads it until the end). */
static struct cgp_outfile page;

/* The page while it is written (a->html). */
struct ann_html {
	struct cgp_out *o;         /* &page.out */
	unsigned ntab;             /* tables written */
	size_t nasm;               /* --asm functions written */
	int sources;               /* the sources' heading is written */
	/* The source file or function being written. */
	long file;                 /* index in prof.tab.file */
	uint64_t hot;              /* largest magnitude of the primary event */
	int64_t shown_to;          /* last source line shown */
	int bogus;                 /* a line past the end was written */
};

/* ---- output ------------------------------------------------------------ */

static void rawn(struct ann_html *h, const char *s, size_t n)
{
	cgp_out_add(h->o, s, n);
}

static void raw(struct ann_html *h, const char *s)
{
	cgp_out_add(h->o, s, strlen(s));
}

__attribute__((format(printf, 2, 3)))
static void rawf(struct ann_html *h, const char *fmt, ...)
{
	char b[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b, sizeof b, fmt, ap);
	va_end(ap);
	if (n > 0)
		rawn(h, b, (size_t)n < sizeof b ? (size_t)n : sizeof b - 1);
}

/* s[0..n) as HTML text (see the Notes): runs of plain bytes are copied in
 * one piece. */
static void text(struct ann_html *h, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, run = 0;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		const char *e = NULL;
		if (c >= 0x80) {
			size_t len = cgp_utf8_seq(s + i, n - i);
			if (len) {
				i += len, run += len;
				continue;
			}
		} else if ((c >= 0x20 && c != 0x7f) || c == '\t') {
			switch (c) {
			case '&': e = "&amp;"; break;
			case '<': e = "&lt;"; break;
			case '>': e = "&gt;"; break;
			case '"': e = "&quot;"; break;
			case '\'': e = "&#39;"; break;
			default:
				i++, run++;
				continue;
			}
		}
		rawn(h, s + i - run, run);
		run = 0;
		if (e) {
			raw(h, e);
		} else {
			char b[] = "<span class=\"x\">\\x00</span>";
			b[18] = hex[c >> 4];
			b[19] = hex[c & 15];
			raw(h, b);
		}
		i++;
	}
	rawn(h, s + i - run, run);
}

static void ctext(struct ann_html *h, const char *s)
{
	text(h, s, strlen(s));
}

static void name(struct ann_html *h, const struct cgp_name *n)
{
	text(h, n->s, n->len);
}

/* ---- cells ------------------------------------------------------------- */

/* <td> with value v of column e and, unless percentages are off or e is a
 * ratio, its percentage of the total as the text shows it (plain: none for
 * 0; an outer row of a table: always, and the cumulative one). */
static void cell(struct ann_html *h, const struct ann *a, unsigned e, int64_t v,
		 const int64_t *cumul, int plain)
{
	char b[48];

	raw(h, "<td>");
	rawn(h, b, fmt_count(a, e, b, v));
	if (a->percs && !a->ratio[e] && (!plain || v != 0)) {
		int64_t s = a->summary[e];
		raw(h, "<span class=\"p\">");
		if (s)
			rawn(h, b, fmt_perc(b, v, s)), raw(h, "%");
		else
			raw(h, "n/a");
		raw(h, "</span>");
		if (cumul) {
			raw(h, "<span class=\"c\">");
			if (s)
				rawn(h, b, fmt_perc(b, cumul[e], s)), raw(h, "%");
			else
				raw(h, "n/a");
			raw(h, "</span>");
		}
	}
	raw(h, "</td>");
}

/* The class of a delta: a regression (up), an improvement (dn), none. */
static const char *delta_class(int64_t d, int ratio)
{
	if (d == 0 || (ratio && d == CGP_NA))
		return NULL;
	return d > 0 ? "up" : "dn";
}

/* The four cells old, new, delta, change of each shown event of a diff's
 * model vector, as --show-old-new prints them. */
static void diff_cells(struct ann_html *h, const struct ann *a, const int64_t *full)
{
	char cell4[4][48];
	unsigned i, c;

	for (i = 0; i < a->nshow; i++) {
		unsigned e = a->show[i];
		const char *cls = delta_class(full[2 * (size_t)a->model.ncol + e], a->ratio[e]);
		cgp_gate_cells(&a->model, full, e, cell4);
		for (c = 0; c < 4; c++) {
			if (c >= 2 && cls)
				rawf(h, "<td class=\"%s\">", cls);
			else
				raw(h, c == 0 ? "<td class=\"od\">" : "<td>");
			ctext(h, cell4[c]);
			raw(h, "</td>");
		}
	}
}

/* The cells of a row: its values v (the shown ones) or in a diff its
 * model vector full; cumul for an outer row of a table. */
static void cells(struct ann_html *h, const struct ann *a, const int64_t *v,
		  const int64_t *full, const int64_t *cumul, int plain)
{
	unsigned i;

	if (a->model.diff && full) {
		diff_cells(h, a, full);
		return;
	}
	for (i = 0; i < a->nshow; i++)
		cell(h, a, a->show[i], v[a->show[i]], cumul, plain);
}

/* Column headings of the shown events (th with data-k: the index of the
 * value in a row's data, "c<i>" for a diff's change). */
static void heads(struct ann_html *h, const struct ann *a, int sortable, int diff)
{
	static const char *const part[4] = { "old", "new", "delta", "change" };
	unsigned i, c;

	for (i = 0; i < a->nshow; i++) {
		const char *ev = a->events[a->show[i]];
		if (!diff) {
			if (sortable)
				rawf(h, "<th data-k=\"%u\">", i);
			else
				raw(h, "<th>");
			ctext(h, ev);
			raw(h, "</th>");
			continue;
		}
		for (c = 0; c < 4; c++) {
			if (!sortable)
				raw(h, "<th>");
			else if (c < 3)
				rawf(h, "<th data-k=\"%u\">", 3 * i + c);
			else
				rawf(h, "<th data-k=\"c%u\">", i);
			ctext(h, ev);
			rawf(h, " <span class=\"pt\">%s</span></th>", part[c]);
		}
	}
}

/* The heat class of a source line or instruction by the primary event:
 * its share of the section's hottest (square root, so that small counts
 * still show), in nine steps; a diff's regressions red, improvements
 * green. */
static void heat(struct ann_html *h, const struct ann *a, const int64_t *v)
{
	unsigned e = a->sort[0];
	uint64_t m;
	int lvl;

	if (!v || !h->hot)
		return;
	m = cgp_model_mag(&a->model, e, v[e]);
	if (!m)
		return;
	lvl = 1 + (int)(8.0 * sqrt((double)m / (double)h->hot));
	if (lvl > 9)
		lvl = 9;
	rawf(h, " class=\"%c%d\"", !a->model.diff ? 'h' : v[e] > 0 ? 'r' : 'g', lvl);
}

/* ---- the page ------------------------------------------------------------ */

void html_open(struct ann *a)
{
	struct ann_html *h = xcalloc(1, sizeof *h);

	prog_outfile_open(&page, a->html_path);
	h->o = &page.out;
	a->html = h;
}

/* A data file's header lines. */
static void input(struct ann_html *h, const struct cgp_input *in, size_t i, size_t n)
{
	const char *d = in->desc;

	raw(h, "<tr><th>");
	if (n > 1)
		rawf(h, "Data file %zu", i + 1);
	else
		raw(h, "Data file");
	raw(h, "</th><td><code>");
	ctext(h, in->path);
	raw(h, "</code></td></tr>\n<tr><th>Command</th><td><code>");
	ctext(h, in->cmd);
	raw(h, "</code></td></tr>\n");
	while (d && *d) {
		const char *nl = strchr(d, '\n'), *colon = memchr(d, ':', (size_t)(nl - d));
		raw(h, "<tr><th>");
		text(h, d, colon ? (size_t)(colon - d) : 0);
		raw(h, "</th><td>");
		if (colon)
			for (colon++; *colon == ' '; colon++)
				;
		text(h, colon ? colon : d, (size_t)(nl - (colon ? colon : d)));
		raw(h, "</td></tr>\n");
		d = nl + 1;
	}
}

static void event_names(struct ann_html *h, char **events, const unsigned *idx, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (i)
			raw(h, " ");
		ctext(h, events[idx ? idx[i] : i]);
	}
}

/* Whether the tables show a cumulative share of a derived count (not a
 * ratio: those have no shares; not in a diff: no shares either). */
static int cum_formulas(const struct ann *a)
{
	unsigned i;

	for (i = 0; a->percs && !a->model.diff && i < a->nshow; i++)
		if (a->show[i] >= a->nrec && !a->ratio[a->show[i]])
			return 1;
	return 0;
}

/* The page's settings for the script: events shown, their kinds, the
 * totals percentages are of. */
static void meta(struct ann_html *h, const struct ann *a)
{
	struct cgp_json j;
	unsigned i;

	cgp_json_init(&j, h->o);
	j.html = 1;
	raw(h, "<script type=\"application/json\" id=\"cg-meta\">");
	cgp_json_obj(&j);
	cgp_json_key(&j, "diff");
	cgp_json_bool(&j, a->model.diff);
	cgp_json_key(&j, "percs");
	cgp_json_bool(&j, a->percs);
	cgp_json_key(&j, "page");
	cgp_json_int(&j, STATIC_ROWS);
	cgp_json_key(&j, "events");
	cgp_json_arr(&j);
	for (i = 0; i < a->nshow; i++)
		cgp_json_cstr(&j, a->events[a->show[i]]);
	cgp_json_end(&j, ']');
	cgp_json_key(&j, "ratio");
	cgp_json_arr(&j);
	for (i = 0; i < a->nshow; i++)
		cgp_json_bool(&j, a->ratio[a->show[i]]);
	cgp_json_end(&j, ']');
	cgp_json_key(&j, "total");
	cgp_json_arr(&j);
	for (i = 0; i < a->nshow; i++)
		cgp_json_int(&j, a->summary[a->show[i]]);
	cgp_json_end(&j, ']');
	if (cum_formulas(a)) {
		/* A cumulative share of a derived count is its formula on the
		 * summed counts, never a sum of derived values: the script
		 * gets the formulas and each group's recorded counts. */
		cgp_json_key(&j, "nrec");
		cgp_json_int(&j, a->nrec);
		cgp_json_key(&j, "code");
		cgp_json_arr(&j);
		for (i = 0; i < a->nshow; i++) {
			unsigned e = a->show[i];
			if (e >= a->nrec && !a->ratio[e])
				cgp_derive_code_json(&j, &a->rep.der.d[e - a->nrec]);
			else
				cgp_json_null(&j);
		}
		cgp_json_end(&j, ']');
	}
	cgp_json_end(&j, '}');
	raw(h, "</script>\n");
}

void html_header(struct ann *a)
{
	struct ann_html *h = a->html;
	const struct cgp_profile *p = &a->prof;
	size_t i;
	char thr[40];

	raw(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	       "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	       "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
	       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	       "<meta name=\"generator\" content=\"cg_annotate " PACKAGE_VERSION "\">\n<title>");
	ctext(h, a->diff ? "cg_annotate --diff: " : "cg_annotate: ");
	ctext(h, p->in[p->nin - 1].cmd);
	raw(h, "</title>\n<style>\n");
	raw(h, html_css);
	raw(h, "</style>\n</head>\n<body>\n<header>\n<h1>");
	raw(h, a->diff ? "Cachegrind profile difference" : "Cachegrind profile");
	raw(h, "</h1>\n<nav><a href=\"#summary\">Summary</a> <a href=\"#file-function\">"
	       "File:function</a> <a href=\"#function-file\">Function:file</a>");
	if (a->annotate)
		raw(h, " <a href=\"#annotation-summary\">Annotation summary</a>");
	raw(h, "</nav>\n</header>\n<main>\n<section id=\"metadata\">\n<table class=\"md\">\n"
	       "<tr><th>Invocation</th><td><code>");
	for (i = 0; i < (size_t)a->argc; i++) {
		if (i)
			raw(h, " ");
		ctext(h, a->argv[i]);
	}
	raw(h, "</code></td></tr>\n");
	for (i = 0; i < p->nin; i++)
		input(h, &p->in[i], i, p->nin);
	raw(h, "<tr><th>Events recorded</th><td>");
	event_names(h, p->events, NULL, p->nev);
	raw(h, "</td></tr>\n<tr><th>Events shown</th><td>");
	event_names(h, a->events, a->show, a->nshow);
	raw(h, "</td></tr>\n<tr><th>Event sort order</th><td>");
	event_names(h, a->events, a->sort, a->nsort);
	cgp_fmt_pyfloat(thr, a->threshold);
	rawf(h, "</td></tr>\n<tr><th>Threshold</th><td>%s%%</td></tr>\n"
		"<tr><th>Annotation</th><td>%s</td></tr>\n</table>\n</section>\n", thr,
	     a->annotate ? "on" : "off");
	raw(h, "<section id=\"summary\">\n<h2>Summary</h2>\n<table class=\"t sum\">\n<thead><tr>");
	heads(h, a, 0, a->model.diff);
	raw(h, "<th class=\"nm\"></th></tr></thead>\n<tbody><tr>");
	cells(h, a, a->summary, a->model.total, NULL, 1);
	raw(h, "<td class=\"nm\">PROGRAM TOTALS</td></tr></tbody>\n</table>\n</section>\n");
	meta(h, a);
	raw(h, "<pre id=\"cg-errors\" hidden></pre>\n");
}

void html_pre(struct ann *a, const char *id, const char *title, const char *s, size_t len)
{
	struct ann_html *h = a->html;

	const char *end = s + len, *nl;

	rawf(h, "<section id=\"%s\">\n<h2>%s</h2>\n<pre>", id, title);
	/* Line by line: a line break is the text's own, not a control
	 * character of a name to mark. */
	for (; s < end; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			nl = end;
		text(h, s, (size_t)(nl - s));
		if (nl < end)
			raw(h, "\n");
	}
	raw(h, "</pre>\n</section>\n");
}

/* ---- the File:function and Function:file tables --------------------------- */

/* The file index an entry links to (its annotated source), or -1: the
 * file must be above the threshold and annotated. */
static long target(const struct ann *a, long file)
{
	const struct cgp_file *f = file >= 0 ? &a->prof.tab.file[file] : NULL;

	if (!f || !a->annotate || !a->selected[file] ||
	    (f->name->len == 3 && !memcmp(f->name->s, "???", 3)))
		return -1;
	return file;
}

/* A name cell, linked to the annotated source of its file, or from a
 * function's entry (row >= 0) to the first line of its code there. */
static void name_cell(struct ann_html *h, const struct ann *a, const struct cgp_name *n,
		      long file, long row)
{
	int64_t line = row >= 0 ? a->prof.tab.cc[row].line_lo : 0;

	file = target(a, file);
	if (file < 0)
		raw(h, "<td class=\"nm\">");
	else if (line > 0)
		rawf(h, "<td class=\"nm\"><a href=\"#f%ld-l%" PRId64 "\">", file, line);
	else
		rawf(h, "<td class=\"nm\"><a href=\"#f%ld\">", file);
	name(h, n);
	raw(h, file < 0 ? "</td>" : "</a></td>");
}

static size_t group_rows(struct ann_html *h, const struct ann *a, const struct outer *o,
			 const int64_t *cumul, size_t max)
{
	size_t j;

	raw(h, "<tbody><tr class=\"o\">");
	name_cell(h, a, o->name, o->file, -1);
	cells(h, a, o->total, o->full, cumul, 0);
	raw(h, "</tr>\n");
	for (j = 0; j < o->nin && 1 + j < max; j++) {
		raw(h, "<tr class=\"i\">");
		name_cell(h, a, o->in[j].name, o->in[j].file, o->in[j].row);
		cells(h, a, o->in[j].v, o->in[j].full, NULL, 1);
		raw(h, "</tr>\n");
	}
	raw(h, "</tbody>\n");
	return 1 + j;
}

/* The values of a row in the table's data: the shown ones, or a diff's
 * old, new and delta of each; ratios in thousandths, null without one. */
static void data_vals(struct cgp_json *j, const struct ann *a, const int64_t *v,
		      const int64_t *full)
{
	unsigned i, s;

	cgp_json_arr(j);
	for (i = 0; i < a->nshow; i++) {
		unsigned e = a->show[i];
		for (s = 0; s < (a->model.diff ? 3u : 1u); s++) {
			int64_t x = a->model.diff ? full[s * (size_t)a->model.ncol + e] : v[e];
			if (a->ratio[e] && x == CGP_NA)
				cgp_json_null(j);
			else
				cgp_json_int(j, x);
		}
	}
	cgp_json_end(j, ']');
}

/* The link target of an entry in the data: file, line (-1, 0: none). */
static void data_link(struct cgp_json *j, const struct ann *a, long file, long row)
{
	file = target(a, file);
	cgp_json_int(j, file);
	cgp_json_int(j, file >= 0 && row >= 0 ? a->prof.tab.cc[row].line_lo : 0);
}

/* Every entry of the table as JSON: [name, file, line, values, inner],
 * inner entries [name, file, line, values]. */
static void table_data(struct ann_html *h, const struct ann *a, const struct outer *o,
		       size_t n, unsigned t)
{
	struct cgp_json j;
	size_t i, k;
	int cum = cum_formulas(a);

	cgp_json_init(&j, h->o);
	j.html = 1;
	rawf(h, "<script type=\"application/json\" id=\"cg-t%u\">", t);
	cgp_json_arr(&j);
	for (i = 0; i < n; i++) {
		cgp_json_arr(&j);
		cgp_json_str(&j, o[i].name->s, o[i].name->len);
		data_link(&j, a, o[i].file, -1);
		data_vals(&j, a, o[i].total, o[i].full);
		cgp_json_arr(&j);
		for (k = 0; k < o[i].nin; k++) {
			const struct inner *x = &o[i].in[k];
			cgp_json_arr(&j);
			cgp_json_str(&j, x->name->s, x->name->len);
			data_link(&j, a, x->file, x->row);
			data_vals(&j, a, x->v, x->full);
			cgp_json_end(&j, ']');
		}
		cgp_json_end(&j, ']');
		if (cum) {
			cgp_json_arr(&j);
			for (k = 0; k < a->nrec; k++)
				cgp_json_int(&j, o[i].total[k]);
			cgp_json_end(&j, ']');
		}
		cgp_json_end(&j, ']');
	}
	cgp_json_end(&j, ']');
	raw(h, "</script>\n");
}

void html_table(struct ann *a, const struct outer *o, size_t n, int by_fn)
{
	struct ann_html *h = a->html;
	int64_t *cumul = xcalloc(a->nev, sizeof *cumul);
	unsigned t = h->ntab++;
	size_t i, rows = 0, inner = 0, rows_all = 0;

	for (i = 0; i < n; i++)
		inner += o[i].nin;
	rawf(h, "<section id=\"%s\">\n<h2>%s summary</h2>\n", by_fn ? "function-file" :
	     "file-function", by_fn ? "Function:file" : "File:function");
	rawf(h, "<p class=\"count\">%zu %s, %zu %s above the threshold.", n,
	     by_fn ? "functions" : "files", inner,
	     by_fn ? "function:file pairs" : "file:function pairs");
	if (a->percs && !a->model.diff)
		rawf(h, " Beside each count: its share of the total, and on a %s's row the "
			"cumulative share of the %ss listed so far.", by_fn ? "function" : "file",
		     by_fn ? "function" : "file");
	raw(h, "</p>\n");
	/* The rows as HTML: STATIC_ROWS at most, the last group cut short if
	 * it would pass them (one file may have thousands of functions). */
	rows_all = n + inner;
	rawf(h, "<div class=\"tw\"><table class=\"t\" id=\"t%u\" data-t=\"%u\" data-n=\"%zu\" "
		"data-rows=\"%zu\">\n<thead><tr><th class=\"nm\" data-k=\"name\">%s</th>", t, t,
	     n, rows_all, by_fn ? "function:file" : "file:function");
	heads(h, a, 1, a->model.diff);
	raw(h, "</tr></thead>\n");
	for (i = 0; i < n && rows < STATIC_ROWS; i++) {
		add_row(a, cumul, o[i].total);
		rows += group_rows(h, a, &o[i], cumul, STATIC_ROWS - rows);
	}
	raw(h, "</table></div>\n");
	if (rows < rows_all)
		rawf(h, "<p class=\"more\">The first %zu of the %zu rows (%zu of %zu %s) are shown "
			"here; all of them are in the page's data, which the page's script shows "
			"on demand.</p>\n", rows, rows_all, i, n, by_fn ? "functions" : "files");
	table_data(h, a, o, n, t);
	raw(h, "</section>\n");
	free(cumul);
}

/* ---- annotated sources -------------------------------------------------- */

void html_src_begin(struct ann *a, const struct cgp_file *f)
{
	struct ann_html *h = a->html;

	if (!h->sources) {
		raw(h, "<h2 id=\"sources\">Annotated source files</h2>\n");
		h->sources = 1;
	}
	h->file = (long)(f - a->prof.tab.file);
	rawf(h, "<section class=\"src\" id=\"f%ld\">\n<h3>", h->file);
	name(h, f->name);
	raw(h, "</h3>\n");
}

/* Anchors for the links to the code of the file's functions, where the
 * file is not annotated, so that they lead to its section. */
static void function_anchors(struct ann_html *h, const struct ann *a, const struct cgp_file *f)
{
	const struct cgp_table *t = &a->prof.tab;
	size_t i, k;

	for (i = 0; i < f->nccs; i++) {
		int64_t line = t->cc[f->ccs[i]].line_lo;
		for (k = 0; k < i && t->cc[f->ccs[k]].line_lo != line; k++)
			;
		if (line > 0 && k == i)
			rawf(h, "<span id=\"f%ld-l%" PRId64 "\"></span>", h->file, line);
	}
}

void html_src_unannotated(struct ann *a, const struct cgp_file *f, const char *why)
{
	struct ann_html *h = a->html;
	size_t i;

	function_anchors(h, a, f);
	rawf(h, "<p class=\"warn\">Unannotated because %s:", why);
	for (i = 0; i < f->norig; i++) {
		raw(h, i ? ", <code>" : " <code>");
		name(h, f->orig[i]);
		raw(h, "</code>");
	}
	raw(h, "</p>\n</section>\n");
}

void html_src_newer(struct ann *a, const struct cgp_file *f, const char *data_file)
{
	struct ann_html *h = a->html;
	size_t i;

	raw(h, "<div class=\"warn\"><p>Warning: the original source files are all newer than "
	       "data file <code>");
	ctext(h, data_file);
	raw(h, "</code>; the annotations may not be correct:</p>\n<ul>\n");
	for (i = 0; i < f->norig; i++) {
		raw(h, "<li><code>");
		name(h, f->orig[i]);
		raw(h, "</code></li>\n");
	}
	raw(h, "</ul></div>\n");
}

/* The largest magnitude of the primary event over a file's lines. */
static uint64_t file_hot(const struct ann *a, const struct cgp_file *f)
{
	int64_t *v = xmalloc(a->nev, sizeof *v);
	uint64_t hot = 0, m;
	size_t i;

	for (i = 0; i < f->lines.n; i++) {
		line_values(a, &f->lines, i, v);
		m = cgp_model_mag(&a->model, a->sort[0], v[a->sort[0]]);
		if (m > hot)
			hot = m;
	}
	free(v);
	return hot;
}

void html_src_table(struct ann *a, const struct cgp_file *f)
{
	struct ann_html *h = a->html;

	h->hot = file_hot(a, f);
	h->shown_to = 0;
	h->bogus = 0;
	raw(h, "<div class=\"tw\"><table class=\"code\">\n<thead><tr>");
	heads(h, a, 0, 0);
	raw(h, "<th class=\"ln\">line</th><th class=\"s\">source</th></tr></thead>\n<tbody>\n");
}

/* The cells of a source line or instruction: its counts, or dots. */
static void line_cells(struct ann_html *h, const struct ann *a, const int64_t *v)
{
	unsigned i;

	for (i = 0; i < a->nshow; i++)
		if (v)
			cell(h, a, a->show[i], v[a->show[i]], NULL, 1);
		else
			raw(h, "<td class=\"d\">.</td>");
}

void html_src_line0(struct ann *a, const int64_t *v)
{
	struct ann_html *h = a->html;

	rawf(h, "<tr id=\"f%ld-l0\"", h->file);
	heat(h, a, v);
	raw(h, ">");
	line_cells(h, a, v);
	raw(h, "<td class=\"ln\"></td><td class=\"s\"><i>&lt;unknown (line 0)&gt;</i></td></tr>\n");
}

void html_src_range(struct ann *a, int64_t lo, int64_t hi)
{
	struct ann_html *h = a->html;

	if (lo > h->shown_to + 1)
		rawf(h, "<tr class=\"gap\"><td colspan=\"%u\">&#8943; lines %" PRId64 "&#8211;%"
			PRId64 " not shown</td></tr>\n", a->nshow + 2, h->shown_to + 1, lo - 1);
	if (hi > h->shown_to)
		h->shown_to = hi;
}

void html_src_line(struct ann *a, int64_t n, const char *s, size_t len, const int64_t *v)
{
	struct ann_html *h = a->html;

	rawf(h, "<tr id=\"f%ld-l%" PRId64 "\"", h->file, n);
	heat(h, a, v);
	raw(h, ">");
	line_cells(h, a, v);
	rawf(h, "<td class=\"ln\"><a href=\"#f%ld-l%" PRId64 "\">%" PRId64 "</a></td>"
		"<td class=\"s\">", h->file, n, n);
	text(h, s, len);
	raw(h, "</td></tr>\n");
}

void html_src_part(struct ann *a, const int64_t *v, const char *label, size_t len)
{
	struct ann_html *h = a->html;

	raw(h, "<tr class=\"part\">");
	line_cells(h, a, v);
	raw(h, "<td class=\"ln\"></td><td class=\"s\">&#9474; ");
	text(h, label, len);
	raw(h, "</td></tr>\n");
}

void html_src_bogus(struct ann *a, int64_t line, const int64_t *v)
{
	struct ann_html *h = a->html;

	if (!h->bogus)
		rawf(h, "<tr class=\"gap\"><td colspan=\"%u\">lines past the end of the file"
			"</td></tr>\n", a->nshow + 2);
	h->bogus = 1;
	rawf(h, "<tr id=\"f%ld-l%" PRId64 "\"", h->file, line);
	heat(h, a, v);
	raw(h, ">");
	line_cells(h, a, v);
	rawf(h, "<td class=\"ln\">%" PRId64 "</td><td class=\"s\"><i>&lt;bogus line %" PRId64
		"&gt;</i></td></tr>\n", line, line);
}

void html_src_end(struct ann *a, int past_end)
{
	struct ann_html *h = a->html;

	raw(h, "</tbody>\n</table></div>\n");
	if (past_end) {
		raw(h, "<p class=\"warn\">Information recorded about lines past the end of <code>");
		name(h, a->prof.tab.file[h->file].orig[0]);
		raw(h, "</code>.</p>\n");
	}
	raw(h, "</section>\n");
}

/* ---- the Annotation summary ---------------------------------------------- */

void html_asum(struct ann *a)
{
	struct ann_html *h = a->html;
	int b;

	raw(h, "<section id=\"annotation-summary\">\n<h2>Annotation summary</h2>\n"
	       "<table class=\"t asum\">\n<thead><tr>");
	heads(h, a, 0, 0);
	raw(h, "<th class=\"nm\"></th></tr></thead>\n<tbody>\n");
	for (b = 0; b < B_COUNT; b++) {
		const char *l = asum_label[b] + strspn(asum_label[b], " ");
		raw(h, "<tr>");
		line_cells(h, a, a->bucket[b]);
		raw(h, "<td class=\"nm\">");
		text(h, l, strlen(l) - (l[strlen(l) - 1] == ' '));
		raw(h, "</td></tr>\n");
	}
	raw(h, "</tbody>\n</table>\n</section>\n");
}

/* ---- --asm ------------------------------------------------------------ */

void html_asm_begin(struct ann *a, const char *title, size_t len, int64_t hot)
{
	struct ann_html *h = a->html;

	if (!h->nasm)
		raw(h, "<h2 id=\"disassembly\">Annotated disassembly</h2>\n");
	rawf(h, "<section class=\"src asm\" id=\"a%zu\">\n<h3>", h->nasm++);
	text(h, title, len);
	raw(h, "</h3>\n<div class=\"tw\"><table class=\"code\">\n<thead><tr>");
	heads(h, a, 0, 0);
	raw(h, "<th class=\"ln\">address</th><th class=\"s\">instruction</th></tr></thead>\n"
	       "<tbody>\n");
	h->hot = (uint64_t)hot;
}

void html_asm_note(struct ann *a, const char *s, size_t len)
{
	struct ann_html *h = a->html;

	rawf(h, "<tr class=\"gap\"><td colspan=\"%u\">", a->nshow + 2);
	text(h, s, len);
	raw(h, "</td></tr>\n");
}

void html_asm_marker(struct ann *a, const char *s, size_t len)
{
	struct ann_html *h = a->html;

	rawf(h, "<tr class=\"mark\"><td colspan=\"%u\">", a->nshow + 2);
	text(h, s, len);
	raw(h, "</td></tr>\n");
}

void html_asm_insn(struct ann *a, const int64_t *v, uint64_t addr, const char *s)
{
	struct ann_html *h = a->html;

	raw(h, "<tr");
	heat(h, a, v);
	raw(h, ">");
	line_cells(h, a, v);
	rawf(h, "<td class=\"ln\">%" PRIx64 "</td><td class=\"s\">", addr);
	ctext(h, s);
	raw(h, "</td></tr>\n");
}

void html_asm_end(struct ann *a)
{
	raw(a->html, "</tbody>\n</table></div>\n</section>\n");
}

/* ---- the end ------------------------------------------------------------ */

void html_finish(struct ann *a)
{
	struct ann_html *h = a->html;

	raw(h, "</main>\n<footer>Written by cg_annotate " PACKAGE_VERSION
	       " (cachegrind-ng). The page works offline; its script only sorts, filters and "
	       "pages the tables.</footer>\n<script>\n");
	raw(h, html_js);
	raw(h, "</script>\n</body>\n</html>\n");
	prog_outfile_commit(&page);
	free(h);
	a->html = NULL;
}
