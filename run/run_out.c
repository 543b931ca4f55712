/* run_out.c -- cg_run: the profiles of a run: their names, comparing two runs' profiles, keeping them. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * A run writes into its own folder with the template "<folder>/%p", so
 * its profiles are named <pid>, <pid>.pre-exec.<k> for images replaced by
 * exec, and with profile parts <pid>.<n> (--dump-every, dump requests:
 * docs/manual/regions.md); with --separate-threads=yes each of them ends
 * in a thread number -<tt>.  Two runs' profiles are paired in one order:
 * by pid (pids grow from run to run, so this holds unless the pids wrap
 * around during a run), a process's pre-exec profiles by k before its
 * other ones, those by part number with the final part (no number) last,
 * then by thread.  Profiles are
 * read and compared by the profile library (MERGE mode keeps every
 * (file, function, line) record).
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgp.h"
#include "prog.h"
#include "run.h"

/* How many differing lines a report shows. */
#define SHOW_DIFFS 10

/* ---- names ---- */

char *run_expand(const char *tmpl, long pid, char *const *env, size_t nenv,
		 const char **why)
{
	struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);
	const char *p = tmpl, *end, *val;
	char *var;

	if (!*tmpl) {
		*why = "no file name given";
		return NULL;
	}
	if (*tmpl == '~') {
		*why = "the name begins with '~' (the shell did not expand it: use $HOME)";
		return NULL;
	}
	for (; *p; p++) {
		if (*p != '%') {
			cgp_buf_add(&b, p, 1);
			continue;
		}
		switch (*++p) {
		case '%':
			cgp_buf_add(&b, "%", 1);
			break;
		case 'p':
			cgp_buf_addf(&b, "%ld", pid);
			break;
		case 'q':
			if (p[1] != '{') {
				*why = "expected '{' after '%q'";
				goto bad;
			}
			end = strchr(p + 2, '}');
			if (!end) {
				*why = "missing '}' in %q specifier";
				goto bad;
			}
			var = strndup(p + 2, (size_t)(end - p - 2));
			if (!var)
				die(1, "out of memory");
			val = run_getenv(env, nenv, var);
			if (!val) {
				struct cgp_buf m = CGP_BUF_INIT(SIZE_MAX / 2);
				cgp_buf_addf(&m, "environment variable '%s' is not set in the "
					     "program's environment (add --env=%s=...)", var, var);
				free(var);
				*why = m.s ? m.s : "an environment variable is not set";
				goto bad;
			}
			free(var);
			cgp_buf_adds(&b, val);
			p = end;
			break;
		default:
			*why = "expected 'p', 'q' or '%' after '%'";
			goto bad;
		}
	}
	cgp_buf_adds(&b, "");
	if (!b.s)
		die(1, "out of memory");
	return b.s;
bad:
	cgp_buf_release(&b);
	return NULL;
}

/* ---- listing ---- */

/* A number the tool prints with %u or, a part's, %llu (no sign; no
 * leading zero unless leading_zero), at most max, at *s, which is moved
 * past it; 0 if there is none. */
static int parse_uint(const char **s, int leading_zero, unsigned long long max,
		      unsigned long long *v)
{
	const char *p = *s;

	if (*p < '0' || *p > '9' || (*p == '0' && !leading_zero))
		return 0;
	*v = 0;
	while (*p >= '0' && *p <= '9') {
		unsigned d = (unsigned)(*p++ - '0');
		if (*v > (max - d) / 10)
			return 0;
		*v = *v * 10 + d;
	}
	*s = p;
	return 1;
}

/* Parses "<pid>.pre-exec.<k>[-<tt>]" or "<pid>[.<n>][-<tt>]" into r's
 * numbers (0 where one is absent); 0 if name is neither.  The tool
 * writes the thread number with at least two digits (%02u). */
static int parse_name(const char *name, struct run_profile *r)
{
	char *e;
	const char *s;

	if (*name < '1' || *name > '9')
		return 0;
	errno = 0;
	r->pid = strtol(name, &e, 10);
	r->preexec = r->part = r->thread = 0;
	if (errno)
		return 0;
	s = e;
	if (!strncmp(s, ".pre-exec.", 10)) {
		s += 10;
		if (!parse_uint(&s, 0, 0xFFFFFFFFULL, &r->preexec))
			return 0;
	} else if (*s == '.') {
		s++;
		if (!parse_uint(&s, 0, (1ULL << 63) - 1, &r->part))
			return 0;
	}
	if (*s == '-') {
		const char *digits = ++s;
		if (!parse_uint(&s, 1, 0xFFFFFFFFULL, &r->thread) || s - digits < 2 || r->thread == 0
		    || (s - digits > 2 && *digits == '0'))
			return 0;
	}
	return !*s;
}

static int profile_cmp(const void *x, const void *y)
{
	const struct run_profile *a = x, *b = y;
	/* k = 0 (written at exit) comes after every pre-exec profile. */
	unsigned long long ka = a->preexec ? a->preexec : (unsigned long long)-1;
	unsigned long long kb = b->preexec ? b->preexec : (unsigned long long)-1;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (ka != kb)
		return ka < kb ? -1 : 1;
	/* The final part (no number) comes after the numbered ones. */
	if (a->part != b->part)
		return a->part - 1 < b->part - 1 ? -1 : 1;
	return (a->thread > b->thread) - (a->thread < b->thread);
}

/* A name "<profile name>.tmp.<pid>.<random>": the temporary file of a
 * tool that was killed while it wrote that profile (*r: which), or of one
 * still writing it (*alive set: a process that outlived the wait). */
static int is_temporary(const char *name, struct run_profile *r, int *alive)
{
	const char *t = strstr(name, ".tmp.");
	char *head, *end;
	long writer;
	int ok;

	if (!t)
		return 0;
	errno = 0;
	writer = strtol(t + 5, &end, 10);
	if (errno || writer <= 0 || *end != '.')
		return 0;
	*alive = kill((pid_t)writer, 0) == 0 || errno == EPERM;
	head = xmalloc((size_t)(t - name) + 1, 1);
	memcpy(head, name, (size_t)(t - name));
	head[t - name] = '\0';
	ok = parse_name(head, r);
	free(head);
	return ok;
}

static void unlink_quietly(const char *dir, const char *name)
{
	char *path = xmalloc(strlen(dir) + strlen(name) + 2, 1);

	sprintf(path, "%s/%s", dir, name);
	unlink(path);
	free(path);
}

void run_set_list(struct run_set *s, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;
	int alive;

	s->p = NULL;
	s->n = 0;
	if (!d)
		die(1, "cannot read the folder '%s': %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		struct run_profile *r;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (s->n == cap) {
			cap = cap ? cap * 2 : 8;
			s->p = xrealloc(s->p, cap, sizeof *s->p);
		}
		r = &s->p[s->n];
		if (!parse_name(e->d_name, r)) {
			if (!is_temporary(e->d_name, r, &alive))
				die(1, "unexpected file '%s/%s' (not a profile name the "
				    "tool writes)", dir, e->d_name);
			/* Its profile is missing, as when it could not be
			 * written; the others are kept. */
			if (alive) {
				warning("process %ld is still writing its profile: that "
					"profile will be missing", r->pid);
				continue;
			}
			warning("process %ld was killed while its tool wrote its profile: "
				"that profile is lost", r->pid);
			unlink_quietly(dir, e->d_name);
			continue;
		}
		r->path = xmalloc(strlen(dir) + strlen(e->d_name) + 2, 1);
		sprintf(r->path, "%s/%s", dir, e->d_name);
		s->n++;
	}
	closedir(d);
	qsort(s->p, s->n, sizeof *s->p, profile_cmp);
}

void run_set_release(struct run_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->p[i].path);
	free(s->p);
	s->p = NULL;
	s->n = 0;
}

/* Whether the template has a %p: whether two pids give two names. */
static int has_pid(const struct run_config *c)
{
	const char *why = NULL;
	char *a = run_expand(c->out_file, 1, c->env, c->nenv, &why);
	char *b = run_expand(c->out_file, 2, c->env, c->nenv, &why);
	int differ = a && b && strcmp(a, b) != 0;

	free(a);
	free(b);
	return differ;
}

/* Whether the output is a device, FIFO or socket (/dev/stdout, /dev/null):
 * set by run_set_names. */
static int output_is_stream;

/* Whether path names an open descriptor: /dev/fd/N, /proc/<p>/fd/N. */
static int fd_link(const char *path)
{
	const char *p = NULL;

	if (!strncmp(path, "/dev/fd/", 8))
		p = path + 8;
	else if (!strncmp(path, "/proc/", 6) && (p = strchr(path + 6, '/')) &&
		 !strncmp(p, "/fd/", 4))
		p += 4;
	else
		return 0;
	if (!*p)
		return 0;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

/* A malloc'd copy of s. */
static char *copy_of(const char *s)
{
	return strcpy(xmalloc(strlen(s) + 1, 1), s);
}

/* As the tool decides it: whether path, its links followed up to a link
 * of an open descriptor (/dev/stdout is /proc/self/fd/1, whatever that
 * names: cg_run's own standard output is the run's), is a descriptor's
 * link, a device, a FIFO or a socket. */
static int is_stream(const char *path)
{
	char *cur = copy_of(path);
	struct stat st;
	int hops, stream = 0;

	for (hops = 0; cur && hops < 40 && !(stream = fd_link(cur)); hops++) {
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			break;
		cur = cgp_follow_link(cur);
	}
	if (cur && !stream && stat(cur, &st) == 0)
		stream = !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
	free(cur);
	return stream;
}

int run_output_is_stream(void)
{
	return output_is_stream;
}

char **run_set_names(const struct run_set *s, const struct run_config *c)
{
	char **names = xmalloc(s->n + 1, sizeof *names);
	size_t i, j;
	/* As the tool does, a forked process adds ".child.<pid>" to a name
	 * without %p. */
	int child_suffix = !has_pid(c);

	for (i = 0; i < s->n; i++) {
		const char *why = NULL;
		char *base = run_expand(c->out_file, s->p[i].pid, c->env, c->nenv, &why);
		if (!base)
			die(1, "--cachegrind-out-file: %s", why);
		/* As the tool does, every profile of a run whose output is
		 * a device or FIFO goes to it, in order, under no other
		 * name: no file is made beside /dev/stdout. */
		if (i == 0)
			output_is_stream = is_stream(base);
		if (output_is_stream) {
			names[i] = base;
			continue;
		}
		const struct run_profile *r = &s->p[i];
		char *end = names[i] = xmalloc(strlen(base) + 96, 1);
		end += sprintf(end, "%s", base);
		if (child_suffix && r->pid != s->root)
			end += sprintf(end, ".child.%ld", r->pid);
		if (r->preexec)
			end += sprintf(end, ".pre-exec.%llu", r->preexec);
		if (r->part)
			end += sprintf(end, ".%llu", r->part);
		if (r->thread)
			sprintf(end, "-%02llu", r->thread);
		free(base);
		for (j = 0; j < i; j++)
			if (!strcmp(names[i], names[j]))
				warning("two profiles of run 1 are named '%s' (is %%p missing "
					"from --cachegrind-out-file?): the one of pid %ld is kept",
					names[i], s->p[i].pid);
	}
	names[s->n] = NULL;
	return names;
}

/* ---- comparing ---- */

/* The report of the differing lines of one pair of profiles. */
struct report {
	char *const *events;
	struct cgp_buf text;
	long shown;
	unsigned long k;
};

static void add_count(struct cgp_buf *b, const int64_t *c, unsigned i)
{
	if (c)
		cgp_buf_addf(b, "%lld", (long long)c[i]);
	else
		cgp_buf_adds(b, "(absent)");
}

static void on_diff(void *ctx, const char *file, const char *fn, int64_t line,
		    const int64_t *ca, const int64_t *cb, unsigned nev)
{
	struct report *r = ctx;
	unsigned i, n = 0;

	if (r->shown++ >= SHOW_DIFFS)
		return;
	cgp_buf_addf(&r->text, "  %s:%lld %s:", file, (long long)line, fn);
	for (i = 0; i < nev; i++) {
		if (ca && cb && ca[i] == cb[i])
			continue;
		cgp_buf_addf(&r->text, "%s %s ", n++ ? "," : "", r->events[i]);
		add_count(&r->text, ca, i);
		cgp_buf_adds(&r->text, " in run 1, ");
		add_count(&r->text, cb, i);
		cgp_buf_addf(&r->text, " in run %lu", r->k);
	}
	cgp_buf_adds(&r->text, "\n");
}

/* Compares one pair; 1 (after a report) if they differ. */
static int compare_pair(const char *pa, const char *pb, unsigned long k, const char *name)
{
	struct cgp_profile a, b;
	struct cgp_read_opts ro;
	struct cgp_error err = CGP_ERROR_INIT;
	struct report r = { NULL, CGP_BUF_INIT(SIZE_MAX / 2), 0, k };
	long n;
	int summary_differs;

	memset(&ro, 0, sizeof ro);
	cgp_profile_init(&a, CGP_MODE_MERGE);
	cgp_profile_init(&b, CGP_MODE_MERGE);
	if (cgp_profile_read(&a, pa, &ro, &err) || cgp_profile_read(&b, pb, &ro, &err))
		die_cgp(&err);
	r.events = a.events;
	n = cgp_compare(&a, &b, on_diff, &r, &err);
	if (n == CGP_EEVENTS && output_is_stream) {
		prog_error("runs 1 and %lu differ: their profiles record different events", k);
		n = 1;
		goto out;
	}
	if (n == CGP_EEVENTS) {
		prog_error("runs 1 and %lu differ: their profiles %s and %s.run%lu record different "
		      "events", k, name, name, k);
		n = 1;
		goto out;
	}
	if (n < 0)
		die_cgp(&err);
	summary_differs = memcmp(a.summary, b.summary, a.nev * sizeof *a.summary) != 0;
	if (n || summary_differs) {
		if (output_is_stream)
			prog_error("runs 1 and %lu differ: %ld line%s of %s (run %lu's not kept: "
				   "the output is not a file)%s", k, n, n == 1 ? "" : "s", name,
				   k, n ? "" : ": only their summary: lines");
		else
			prog_error("runs 1 and %lu differ: %ld line%s of %s (run %lu's kept as "
				   "%s.run%lu)%s", k, n, n == 1 ? "" : "s", name, k, name, k,
				   n ? "" : ": only their summary: lines");
		if (r.text.s)
			fputs(r.text.s, stderr);
		if (n > SHOW_DIFFS)
			fprintf(stderr, "  ... and %ld more\n", n - SHOW_DIFFS);
		if (!output_is_stream)
			fprintf(stderr, "  compare them with: cg_annotate --diff %s %s.run%lu\n",
				name, name, k);
		n = 1;
	}
out:
	cgp_buf_release(&r.text);
	cgp_profile_release(&a);
	cgp_profile_release(&b);
	cgp_error_release(&err);
	return n != 0;
}

int run_set_compare(const struct run_set *a, const struct run_set *b,
		    unsigned long k, char *const *names)
{
	size_t i;

	if (a->n != b->n) {
		prog_error("runs 1 and %lu differ: run 1 wrote %zu profile%s, run %lu wrote %zu", k,
		      a->n, a->n == 1 ? "" : "s", k, b->n);
		return RUN_SET_SHAPE;
	}
	for (i = 0; i < a->n; i++)
		if (a->p[i].preexec != b->p[i].preexec || a->p[i].part != b->p[i].part
		    || a->p[i].thread != b->p[i].thread) {
			/* The tool's names in the runs' folders: pid, and the
			 * pre-exec, part and thread numbers. */
			prog_error("runs 1 and %lu differ: their profiles do not pair up (run 1's %s "
			      "against run %lu's %s)", k, strrchr(a->p[i].path, '/') + 1, k,
			      strrchr(b->p[i].path, '/') + 1);
			return RUN_SET_SHAPE;
		}
	for (i = 0; i < a->n; i++)
		if (compare_pair(a->p[i].path, b->p[i].path, k, names[i]))
			return RUN_SET_COUNTS;
	return RUN_SET_SAME;
}

/* ---- keeping ---- */

/* Adds the contents of the file from to the output o (a failed write is
 * kept by the output and reported by the commit). */
static void copy_into(struct cgp_outfile *o, const char *from)
{
	char buf[1 << 16];
	size_t n;
	FILE *in = fopen(from, "rb");

	if (!in) {
		int e = errno;
		cgp_outfile_abort(o);
		die(1, "cannot open '%s': %s", from, strerror(e));
	}
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		cgp_out_add(&o->out, buf, n);
	if (ferror(in)) {
		int e = errno;
		fclose(in);
		cgp_outfile_abort(o);
		die(1, "cannot read '%s': %s", from, strerror(e));
	}
	fclose(in);
}

int run_scratch_kept;

/* The output cannot be written (err): the run's profiles, from's folder,
 * are the only ones, so the scratch folder stays, and the error names it
 * (it was removed, and a whole run lost for an unwritable name). */
static void die_keeping(const struct cgp_error *err, const char *from)
{
	const char *slash = strrchr(from, '/');

	run_scratch_kept = 1;
	die(1, "%s; the run's profiles are kept in '%.*s'", err->msg ? err->msg : "unknown failure",
	    slash ? (int)(slash - from) : 1, slash ? from : ".");
}

/* Copies the n files from[] into the one file to, in order, complete or
 * not at all. */
static void copy_files(char *const *from, size_t n, const char *to)
{
	struct cgp_outfile o;
	struct cgp_error err = CGP_ERROR_INIT, warn = CGP_ERROR_INIT;
	size_t i;

	if (cgp_outfile_open(&o, to, &err))
		die_keeping(&err, from[0]);
	if (o.inplace)
		warning("%s", o.warning.s);
	for (i = 0; i < n; i++)
		copy_into(&o, from[i]);
	if (cgp_outfile_commit(&o, &warn, &err))
		die_keeping(&err, from[0]);
	prog_replace_warning(&warn);
}

void run_set_keep(const struct run_set *s, char *const *names, const char *suffix)
{
	size_t i;

	/* A stream (a FIFO, /dev/stdout) is opened once for all: reopened
	 * per profile, a FIFO showed its reader an end of file after the
	 * first, and the next open waited for a reader that had gone. */
	if (output_is_stream && s->n) {
		char **from = xmalloc(s->n, sizeof *from);
		for (i = 0; i < s->n; i++)
			from[i] = s->p[i].path;
		copy_files(from, s->n, names[0]);
		free(from);
		return;
	}
	for (i = 0; i < s->n; i++) {
		char *to = xmalloc(strlen(names[i]) + strlen(suffix) + 1, 1);
		sprintf(to, "%s%s", names[i], suffix);
		copy_files(&s->p[i].path, 1, to);
		free(to);
	}
}
