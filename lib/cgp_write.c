/* cgp_write.c -- diffing profiles and writing cg_merge / cg_diff output, atomically when to a file. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <errno.h>
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

	if (newp->nev != old->nev)
		goto events;
	for (k = 0; k < newp->nev; k++)
		if (strcmp(newp->events[k], old->events[k]))
			goto events;
	for (i = 0; i < old->tab.ncc; i++) {
		const struct cgp_cc *o = &old->tab.cc[i];
		struct cgp_name *f = cgp_names_intern(&newp->tab.names, o->file->s, o->file->len);
		struct cgp_name *fn = cgp_names_intern(&newp->tab.names, o->fn->s, o->fn->len);
		long c = f && fn ? cgp_table_cc(&newp->tab, f, fn, 0) : -1;
		if (c < 0)
			return cgp_error_set(err, CGP_ENOMEM, "out of memory");
		for (k = 0; k < newp->nev; k++)
			if (__builtin_sub_overflow(newp->tab.cc[c].total[k], o->total[k],
						   &newp->tab.cc[c].total[k]))
				goto ovf;
	}
	for (k = 0; k < newp->nev; k++)
		if (__builtin_sub_overflow(newp->summary[k], old->summary[k],
					   &newp->summary[k]))
			goto ovf;
	return 0;
events:
	return cgp_error_set(err, CGP_EEVENTS, "events in data files don't match (%s and %s)",
			     old->in[0].path, newp->in[0].path);
ovf:
	return cgp_error_set(err, CGP_EOVERFLOW,
			     "a difference exceeds the 64-bit range");
}

/* lead + " c1 c2 ...\n", formatted in a local buffer: one stdio call per
 * 512 bytes instead of one per number (stdio locks on every call). */
static void put_counts(FILE *f, const char *lead, const int64_t *v, unsigned n)
{
	char buf[512];
	size_t k = strlen(lead);
	unsigned i;

	memcpy(buf, lead, k); /* "summary:", "0" or a line number */
	for (i = 0; i < n; i++) {
		if (k > sizeof buf - 24) {
			fwrite(buf, 1, k, f);
			k = 0;
		}
		buf[k++] = ' ';
		k += cgp_fmt_int(buf + k, v[i]);
	}
	buf[k++] = '\n';
	fwrite(buf, 1, k, f);
}

static void put_events(FILE *f, const struct cgp_profile *p)
{
	unsigned k;

	fputs("events:", f);
	for (k = 0; k < p->nev; k++) {
		putc(' ', f);
		fputs(p->events[k], f);
	}
	putc('\n', f);
}

static void put_name(FILE *f, const char *kw, const struct cgp_name *n)
{
	fputs(kw, f);
	fwrite(n->s, 1, n->len, f);
	putc('\n', f);
}

/* The table whose cost centres cmp_cc() compares (qsort has no context
 * argument); set by cgp_write_diff() before sorting, owns nothing. */
static const struct cgp_table *sort_tab;

static int cmp_cc(const void *a, const void *b)
{
	const struct cgp_cc *x = &sort_tab->cc[*(const size_t *)a];
	const struct cgp_cc *y = &sort_tab->cc[*(const size_t *)b];
	int c = cgp_name_cmp(x->file, y->file);

	return c ? c : cgp_name_cmp(x->fn, y->fn);
}

int cgp_write_diff(FILE *f, const struct cgp_profile *p, const char *path1,
		   const char *path2, const char *cmd1, const char *cmd2)
{
	size_t *order = malloc((p->tab.ncc + 1) * sizeof *order), i;

	if (!order)
		return CGP_ENOMEM;
	for (i = 0; i < p->tab.ncc; i++)
		order[i] = i;
	sort_tab = &p->tab;
	qsort(order, p->tab.ncc, sizeof *order, cmp_cc);
	fprintf(f, "desc: Files compared:   %s; %s\ncmd: %s; %s\n", path1, path2,
		cmd1, cmd2);
	put_events(f, p);
	for (i = 0; i < p->tab.ncc; i++) {
		const struct cgp_cc *c = &p->tab.cc[order[i]];
		put_name(f, "fl=", c->file);
		put_name(f, "fn=", c->fn);
		put_counts(f, "0", c->total, p->nev);
	}
	put_counts(f, "summary:", p->summary, p->nev);
	free(order);
	return ferror(f) ? CGP_EIO : 0;
}

int cgp_write_merge(FILE *f, const struct cgp_profile *p)
{
	const struct cgp_input *in = &p->in[0];
	const char *d = in->desc;
	int64_t *row = malloc(p->nev * sizeof *row);
	size_t i, j, r;

	if (!row)
		return CGP_ENOMEM;
	while (*d) {
		const char *nl = strchr(d, '\n');
		fputs("desc: ", f);
		fwrite(d, 1, (size_t)(nl - d) + 1, f);
		d = nl + 1;
	}
	fprintf(f, "cmd: %s\n", in->cmd);
	put_events(f, p);
	for (i = 0; i < p->tab.nfile; i++) {
		const struct cgp_file *fl = &p->tab.file[i];
		if (!fl->nccs)
			continue;
		put_name(f, "fl=", fl->name);
		for (j = 0; j < fl->nccs; j++) {
			const struct cgp_cc *c = &p->tab.cc[fl->ccs[j]];
			char num[32];
			put_name(f, "fn=", c->fn);
			for (r = 0; c->lines && r < c->lines->n; r++) {
				cgp_fmt_int(num, c->lines->line[r]);
				cgp_lines_get(c->lines, r, row);
				put_counts(f, num, row, p->nev);
			}
		}
	}
	put_counts(f, "summary:", p->summary, p->nev);
	free(row);
	return ferror(f) ? CGP_EIO : 0;
}

/*
 * Where the output really goes: a symbolic link is followed so that the
 * link stays and its target is replaced.  Returns a malloc'd path, or NULL
 * with *direct set when the output must be written in place: an existing
 * file that is not a regular file (a device such as /dev/null, a FIFO),
 * which renaming over would destroy, or a dangling link.
 */
static char *real_target(const char *path, int *direct, mode_t *mode, int *exists)
{
	struct stat st;

	*direct = 0;
	*exists = 0;
	if (lstat(path, &st) != 0)
		return strdup(path);          /* a new file */
	if (S_ISLNK(st.st_mode)) {
		char *r = realpath(path, NULL);
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

int cgp_outfile_open(struct cgp_outfile *o, const char *path, struct cgp_error *err)
{
	int fd, direct, exists;
	mode_t mode = 0;
	size_t n;

	memset(o, 0, sizeof *o);
	o->path = real_target(path, &direct, &mode, &exists);
	if (direct) {
		o->path = strdup(path); /* for messages; no temporary */
		o->f = fopen(path, "w");
		if (!o->f || !o->path) {
			int e = errno;
			cgp_outfile_abort(o);
			return cgp_error_set(err, CGP_EIO, "cannot create '%s': %s", path,
					     strerror(e));
		}
		return 0;
	}
	if (!o->path)
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	n = strlen(o->path);
	o->tmp = malloc(n + 16);
	if (!o->tmp) {
		cgp_outfile_abort(o);
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	}
	memcpy(o->tmp, o->path, n);
	memcpy(o->tmp + n, ".tmp.XXXXXX", 12);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		cgp_outfile_abort(o);
		return cgp_error_set(err, CGP_EIO, "cannot create '%s': %s", path,
				     strerror(e));
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
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		cgp_outfile_abort(o);
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	}
	return 0;
}

int cgp_outfile_commit(struct cgp_outfile *o, struct cgp_error *err)
{
	int bad = ferror(o->f) != 0, e = EIO;

	if (fflush(o->f) || (o->tmp && fsync(fileno(o->f))))
		bad = 1, e = errno;
	if (fclose(o->f) && !bad)
		bad = 1, e = errno;
	o->f = NULL;
	if (!bad && o->tmp && rename(o->tmp, o->path))
		bad = 1, e = errno;
	if (bad) {
		cgp_error_set(err, CGP_EIO, "cannot write '%s': %s", o->path,
			      strerror(e));
		cgp_outfile_abort(o);
		return CGP_EIO;
	}
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return 0;
}

void cgp_outfile_abort(struct cgp_outfile *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof *o);
}
