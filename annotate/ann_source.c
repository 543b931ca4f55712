/* ann_source.c -- cg_annotate's annotated source files and the Annotation summary. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ann.h"
#include "prog.h"

static const char at_line[] =
	"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n";
static const char warn_line[] =
	"@@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@\n";

static int cmp_name_ptr(const void *p, const void *q)
{
	return cgp_name_cmp(*(const struct cgp_name *const *)p,
			    *(const struct cgp_name *const *)q);
}

/* Adds every row of t to bucket b.  Without derived events, in one pass
 * over the table (the bucket's derived values need no update). */
static void add_all(struct ann *a, const struct cgp_lines *t, int b)
{
	int64_t *v;
	size_t i;

	if (a->nev == a->nrec) {
		if (cgp_lines_sum(t, a->bucket[b]))
			die(1, "a total exceeds the 64-bit range");
		return;
	}
	v = xmalloc(a->nev, sizeof *v);
	for (i = 0; i < t->n; i++) {
		line_values(a, t, i, v);
		add_row(a, a->bucket[b], v);
	}
	free(v);
}

/* Whether path is a FIFO or a socket, which a source file cannot be:
 * opening a FIFO would wait for a writer. */
static int is_pipe(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

/* Python filecmp.cmp(x, y, shallow=False): 1 same, 0 different, -1 error. */
static int same_file(const char *x, const char *y)
{
	struct stat sx, sy;
	int fx = -1, fy = -1, rc = -1;
	char bx[65536], by[65536];

	if (stat(x, &sx) || stat(y, &sy))
		return -1;
	if (!S_ISREG(sx.st_mode) || !S_ISREG(sy.st_mode) || sx.st_size != sy.st_size)
		return 0;
	fx = open(x, O_RDONLY | O_CLOEXEC);
	fy = open(y, O_RDONLY | O_CLOEXEC);
	if (fx < 0 || fy < 0)
		goto out;
	for (;;) {
		ssize_t nx = read(fx, bx, sizeof bx), ny, got = 0;
		if (nx < 0)
			goto out;
		while (got < nx) {
			ny = read(fy, by + got, (size_t)(nx - got));
			if (ny < 0)
				goto out;
			if (ny == 0)
				break;
			got += ny;
		}
		if (got != nx || memcmp(bx, by, (size_t)nx)) {
			rc = 0;
			goto out;
		}
		if (nx == 0) {
			rc = 1;
			goto out;
		}
	}
out:
	if (fx >= 0)
		close(fx);
	if (fy >= 0)
		close(fy);
	return rc;
}

static void list_originals(struct ann *a, const struct cgp_file *f, const char *why)
{
	size_t i;

	printf("Unannotated because %s:\n", why);
	if (a->html)
		html_src_unannotated(a, f, why);
	for (i = 0; i < f->norig; i++) {
		fputs("- ", stdout);
		fwrite(f->orig[i]->s, 1, f->orig[i]->len, stdout);
		putchar('\n');
	}
	putchar('\n');
}

/* The warning for data files older than the sources. */
static void newer_warning(struct ann *a, const struct cgp_file *f)
{
	int64_t m = INT64_MAX;
	size_t i, j;
	struct stat st;

	for (i = 0; i < f->norig; i++) {
		char *path = source_path(a, f->orig[i]);
		if (stat(path, &st) == 0) {
			int64_t t = (int64_t)st.st_mtim.tv_sec * 1000000000 +
				    st.st_mtim.tv_nsec;
			if (t < m)
				m = t;
		}
		free(path);
	}
	for (i = 0; i < a->prof.nin; i++) {
		if (a->prof.in[i].mtime_ns >= m)
			continue;
		fputs(at_line, stdout);
		fputs(warn_line, stdout);
		fputs(at_line, stdout);
		printf("@ Original source files are all newer than data file '%s':\n",
		       a->prof.in[i].path);
		if (a->html)
			html_src_newer(a, f, a->prof.in[i].path);
		for (j = 0; j < f->norig; j++) {
			fputs("@ - ", stdout);
			fwrite(f->orig[j]->s, 1, f->orig[j]->len, stdout);
			putchar('\n');
		}
		fputs("@ Annotations may not be correct.\n", stdout);
		fputs(at_line, stdout);
		putchar('\n');
	}
}

/* Reads the next source line: 1, or 0 at end of file.  The file was read
 * once already without error (prescan); should it fail now (it changed in
 * between), that is said, and the rest of the file is taken as missing:
 * its counts become "bogus lines", so the report stays whole. */
static int src_line(struct cgp_reader *r, const char **line, size_t *len)
{
	struct cgp_error err = CGP_ERROR_INIT;
	int rc = cgp_reader_next(r, line, len, &err);

	if (rc < 0) {
		warning("%s; the rest of the file is not annotated", err.msg);
		cgp_error_release(&err);
		return 0;
	}
	return rc;
}

static void marker(int64_t n)
{
	printf("-- line %lld ----------------------------------------\n", (long long)n);
}

/* The rows of a file's line table sorted by line number, without line 0
 * (counts with no line, printed apart as "<unknown (line 0)>"). */
struct rows {
	struct cgp_line_row *row;
	size_t n;
	long line0;   /* row of line 0 in the line table, or -1 */
};

static void rows_init(struct rows *x, const struct cgp_lines *t)
{
	size_t i;

	x->row = xmalloc(t->n + 1, sizeof *x->row);
	x->n = 0;
	x->line0 = -1;
	cgp_lines_order(t, x->row);
	for (i = 0; i < t->n; i++) {
		if (x->row[i].line == 0)
			x->line0 = (long)x->row[i].row;
		else
			x->row[x->n++] = x->row[i];
	}
}

/* The range of source lines [*lo, *hi] that starts at row i: ctx lines
 * before row i's line (from line 1 on) to ctx lines after the last row
 * whose line is at most 2 * ctx after the one before it (so ranges that
 * would overlap become one).  Returns the first row after it. */
static size_t next_range(const struct rows *x, size_t i, int64_t ctx, int64_t *lo,
			 int64_t *hi)
{
	int64_t cur = x->row[i].line;

	*lo = cur - ctx > 1 ? cur - ctx : 1;
	for (i++; i < x->n && cur + 2 * ctx >= x->row[i].line; i++)
		cur = x->row[i].line;
	*hi = cur + ctx;
	return i;
}

/* The last line the annotation reads: the end of a range, or the line
 * before a range, whichever is further (a negative --context makes a
 * range end before it starts). */
static int64_t last_line_read(const struct rows *x, int64_t ctx)
{
	int64_t last = 0, lo, hi;
	size_t i = 0;

	while (i < x->n) {
		i = next_range(x, i, ctx, &lo, &hi);
		if (lo - 1 > last)
			last = lo - 1;
		if (hi > last)
			last = hi;
	}
	return last;
}

/*
 * Reads the lines 1..last as the annotation will, and goes back to the
 * start.  0, or an error (with its message): invalid UTF-8, a line over
 * the length limit, a read error.  Only the lines that are read count, so
 * a file upstream annotates is annotated the same here.
 */
static int prescan(struct cgp_reader *r, int64_t last, struct cgp_error *err)
{
	const char *line;
	size_t len;
	int rc = 1;

	while ((int64_t)r->lineno < last && (rc = cgp_reader_next(r, &line, &len, err)) > 0)
		;
	if (rc < 0)
		return rc;
	return cgp_reader_rewind(r, err);
}

/* The state of annotating one readable source file. */
struct annot {
	struct ann *a;
	const struct cgp_file *f;
	const struct rows *x;
	struct cgp_reader *r;      /* the source file */
	int64_t k;                 /* source lines read so far */
	struct cols c;
	unsigned char *printed;    /* per row of x: shown beside its line */
	int64_t *v;                /* the counts of one row */
};

/* The next source line, counted in st->k: 1, or 0 at the end. */
static int next_src(struct annot *st, const char **line, size_t *len)
{
	if (!src_line(st->r, line, len))
		return 0;
	st->k++;
	return 1;
}

/* Prints the source lines lo..hi between markers, each with the counts of
 * its row (rows from first on) or dots.  1, or 0 when the file ended
 * before hi: then the annotation stops there. */
static int print_range(struct annot *st, size_t first, int64_t lo, int64_t hi)
{
	const struct rows *x = st->x;
	const char *line;
	size_t len;
	int64_t j;

	while (st->k < lo - 1)
		if (!next_src(st, &line, &len))
			return 0;
	if (lo != 1)
		marker(lo);
	if (st->a->html)
		html_src_range(st->a, lo, hi);
	for (j = lo; j <= hi; j++) {
		if (!next_src(st, &line, &len))
			return 0;
		while (first < x->n && x->row[first].line < j)
			first++;
		if (first < x->n && x->row[first].line == j) {
			line_values(st->a, &st->f->lines, x->row[first].row, st->v);
			put_cells(&st->c, st->a, st->v, NULL);
			add_row(st->a, st->a->bucket[B_KNOWN], st->v);
			st->printed[first] = 1;
		} else {
			put_missing_cells(&st->c, st->a);
		}
		putchar(' ');
		fwrite(line, 1, len, stdout);
		putchar('\n');
		if (st->a->html)
			html_src_line(st->a, j, line, len,
				      first < x->n && x->row[first].line == j ? st->v : NULL);
		if (first < x->n && x->row[first].line == j)
			inline_breakdown(st->a, st->f, j, &st->c);
	}
	marker(hi);
	return 1;
}

/* The rows no source line showed (past the end of the file), with the
 * warning that says so. */
static void print_bogus(struct annot *st)
{
	const struct rows *x = st->x;
	size_t i, nbogus = 0;

	for (i = 0; i < x->n; i++)
		nbogus += !st->printed[i];
	if (!nbogus)
		return;
	putchar('\n');
	for (i = 0; i < x->n; i++) {
		if (st->printed[i])
			continue;
		line_values(st->a, &st->f->lines, x->row[i].row, st->v);
		put_cells(&st->c, st->a, st->v, NULL);
		printf(" <bogus line %lld>\n", (long long)x->row[i].line);
		if (st->a->html)
			html_src_bogus(st->a, x->row[i].line, st->v);
		add_row(st->a, st->a->bucket[B_KNOWN], st->v);
	}
	putchar('\n');
	fputs(at_line, stdout);
	fputs(warn_line, stdout);
	fputs(at_line, stdout);
	printf("@@ Information recorded about lines past the end of '%s'.\n",
	       st->f->orig[0]->s);
	fputs(at_line, stdout);
}

/*
 * Annotates one readable source file: the column header, the counts of
 * line 0, then the ranges of lines around lines with counts (each range
 * widened by --context, ranges that overlap or touch merged), and last
 * the lines past the end of the file.
 */
static void annotate_file(struct ann *a, const struct cgp_file *f,
			  const struct rows *x, struct cgp_reader *r)
{
	struct annot st = { .a = a, .f = f, .x = x, .r = r };
	size_t i, nranges = 0;

	st.printed = xcalloc(x->n + 1, 1);
	st.v = xmalloc(a->nev, sizeof *st.v);
	cols_init(&st.c, a, 0);
	for (i = 0; i < f->lines.n; i++) {
		line_values(a, &f->lines, i, st.v);
		cols_see(&st.c, a, st.v);
	}
	cols_finish(&st.c, a);
	put_header(&st.c, a, "", "");
	putchar('\n');
	if (a->html)
		html_src_table(a, f);
	if (x->line0 >= 0) {
		line_values(a, &f->lines, (size_t)x->line0, st.v);
		put_cells(&st.c, a, st.v, NULL);
		fputs(" <unknown (line 0)>\n\n", stdout);
		if (a->html)
			html_src_line0(a, st.v);
		add_row(a, a->bucket[B_LINE0], st.v);
	}
	for (i = 0; i < x->n;) {
		size_t first = i;
		int64_t lo, hi;
		i = next_range(x, i, a->context, &lo, &hi);
		nranges++;
		if (!print_range(&st, first, lo, hi))
			break;
	}
	print_bogus(&st);
	if (a->html)
		html_src_end(a, memchr(st.printed, 0, x->n) != NULL);
	if (nranges)
		putchar('\n');
	cols_release(&st.c);
	free(st.printed);
	free(st.v);
}

/*
 * One file of the report.  Upstream calls a file that cannot be opened
 * "unreadable"; so is one whose annotated lines cannot be shown (invalid
 * UTF-8, which upstream's Python dies on mid-report, or a line over the
 * length limit), with a warning naming the file and line, so that the
 * report is still finished.
 */
static void one_file(struct ann *a, struct cgp_file *f)
{
	struct cgp_reader r;
	struct cgp_error err = CGP_ERROR_INIT;
	struct rows x;
	size_t i;
	int same = 1;
	char *path;

	qsort(f->orig, f->norig, sizeof *f->orig, cmp_name_ptr);
	for (i = 1; i < f->norig && same == 1; i++) {
		char *p1 = source_path(a, f->orig[i - 1]), *p2 = source_path(a, f->orig[i]);
		same = same_file(p1, p2);
		free(p1);
		free(p2);
	}
	rows_init(&x, &f->lines);
	path = source_path(a, f->orig[0]);
	if (same == 1 && (is_pipe(path) || cgp_reader_open(&r, path, CGP_MAX_LINE, &err))) {
		cgp_error_release(&err);
		same = -1;
	} else if (same == 1) {
		r.check_utf8 = 1;
		if (prescan(&r, last_line_read(&x, a->context), &err)) {
			/* Out of memory stops cg_annotate, as everywhere (it
			 * left a file unannotated, with status 0 and a warning
			 * that named no file). */
			if (err.code == CGP_ENOMEM)
				die(1, "out of memory while reading %s", path);
			warning("%s; the file is not annotated", err.msg);
			cgp_error_release(&err);
			cgp_reader_release(&r);
			same = -1;
		}
	}
	put_fancy("Annotated source file: ", f->name->s, f->name->len);
	if (a->html)
		html_src_begin(a, f);
	if (same == -1) {
		list_originals(a, f, "one or more of these original files are unreadable");
		add_all(a, &f->lines, B_UNREADABLE);
	} else if (same == 0) {
		list_originals(a, f, "two or more of these original files are not identical");
		add_all(a, &f->lines, B_NONIDENT);
	} else {
		newer_warning(a, f);
		annotate_file(a, f, &x, &r);
		cgp_reader_release(&r);
	}
	free(x.row);
	free(path);
}

static int cmp_file_ptr(const void *p, const void *q)
{
	return cgp_name_cmp((*(struct cgp_file *const *)p)->name,
			    (*(struct cgp_file *const *)q)->name);
}

void report_sources(struct ann *a)
{
	struct cgp_table *t = &a->prof.tab;
	struct cgp_file **order = xmalloc(t->nfile + 1, sizeof *order);
	size_t i;

	for (i = 0; i < t->nfile; i++)
		order[i] = &t->file[i];
	qsort(order, t->nfile, sizeof *order, cmp_file_ptr);
	for (i = 0; i < t->nfile; i++) {
		struct cgp_file *f = order[i];
		if (f->name->len == 3 && !memcmp(f->name->s, "???", 3))
			add_all(a, &f->lines, B_UNKNOWN);
		else if (!a->selected[f - t->file])
			add_all(a, &f->lines, B_BELOW);
		else if (a->annotate)
			one_file(a, f);
	}
	free(order);
}

const char *const asum_label[B_COUNT] = {
	"  annotated: files known & above threshold & readable, line numbers known",
	"  annotated: files known & above threshold & readable, line numbers unknown",
	"unannotated: files known & above threshold & two or more non-identical",
	"unannotated: files known & above threshold & unreadable ",
	"unannotated: files known & below threshold",
	"unannotated: files unknown",
};

void report_annotation_summary(struct ann *a)
{
	const char *const *label = asum_label;
	struct cols c;
	int b;
	int64_t *sum = xcalloc(a->nev, sizeof *sum);

	cols_init(&c, a, 0);
	for (b = 0; b < B_COUNT; b++)
		cols_see(&c, a, a->bucket[b]);
	cols_finish(&c, a);
	put_fancy("Annotation summary", NULL, 0);
	put_header(&c, a, "", "");
	putchar('\n');
	for (b = 0; b < B_COUNT; b++) {
		put_cells(&c, a, a->bucket[b], NULL);
		printf(" %s\n", label[b]);
		add_row(a, sum, a->bucket[b]);
	}
	putchar('\n');
	cols_release(&c);
	if (memcmp(sum, a->summary, a->nrec * sizeof *sum)) {
		struct cgp_buf s1 = CGP_BUF_INIT(SIZE_MAX / 2), s2 = CGP_BUF_INIT(SIZE_MAX / 2);
		cgp_buf_add_pylist(&s1, a->summary, a->nrec);
		cgp_buf_add_pylist(&s2, sum, a->nrec);
		finish_stdout();
		die(1, "`summary:` line doesn't match computed annotated counts\n"
		       "- summary:   %s\n- annotated: %s", s1.s ? s1.s : "[]",
		    s2.s ? s2.s : "[]");
	}
	free(sum);
}
