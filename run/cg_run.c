/* cg_run.c -- cg_run: runs a program under cachegrind-ng's Cachegrind so that its counts repeat; its command line and the runs. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * The command line is Valgrind's, not argparse's: every option that is
 * not cg_run's own goes to Valgrind, so cg_run's options take their value
 * after "=" only and are never abbreviated (an abbreviation could be one of
 * Valgrind's options).  The first argument that is not an option, or the
 * one after "--", is the program.  Messages, --help, --version and usage
 * errors are those of the other companions (prog.h).
 *
 * Every run writes its profiles into its own folder of a private scratch
 * folder, named by pid alone; they are compared there, and the first run's
 * are then copied to the names the --cachegrind-out-file template gives.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cgp.h"
#include "prog.h"
#include "run.h"

static const char usage_text[] =
	"usage: cg_run [-h] [--version] [--repeat=N] [--env=NAME=VALUE]\n"
	"              [--tool-dir=DIR] [--aslr=no|yes] [--expect-exit=N|any]\n"
	"              [VALGRIND-OPTION ...] [--] PROGRAM [ARG ...]\n";

static const char help_text[] =
	"\n"
	"Run PROGRAM under cachegrind-ng's Cachegrind so that its counts repeat: in a\n"
	"fixed minimal environment, without address-space randomisation, with a fixed\n"
	"cache geometry. Every other option goes to Valgrind.\n"
	"\n"
	"options:\n"
	"  -h, --help            show this help message and exit\n"
	"  --version             show program's version number and exit\n"
	"  --repeat=N            run N times (1 to 1000) and fail with status 3 unless\n"
	"                        every run writes the same profiles (default: 1)\n"
	"  --env=NAME=VALUE      add NAME to the program's environment (repeatable); it\n"
	"                        is otherwise LC_ALL=C and\n"
	"                        PATH=/usr/local/bin:/usr/bin:/bin\n"
	"  --tool-dir=DIR        the folder of cachegrind-<platform> (default: the\n"
	"                        installed tool, or .in_place in a build tree)\n"
	"  --aslr=no|yes         yes: leave address-space randomisation on (default: no)\n"
	"  --expect-exit=N|any   the program's exit status that counts as success\n"
	"                        (default: 0)\n"
	"\n"
	"Unless given, the caches are --I1=32768,8,64 --D1=32768,8,64\n"
	"--LL=8388608,16,64. Exit status: 0 success, 1 error (the program's exit status\n"
	"not the expected one included), 2 bad command line, 3 the runs differ.\n";

static const struct ap_spec spec = { usage_text, NULL, 0, NULL, 0, 0 };

/* ---- the client environment ---- */

const char *run_getenv(char *const *env, size_t n, const char *name)
{
	size_t i, len = strlen(name);

	for (i = 0; i < n; i++)
		if (!strncmp(env[i], name, len) && env[i][len] == '=')
			return env[i] + len + 1;
	return NULL;
}

int run_env_cmp(const char *a, const char *b)
{
	for (; *a != '=' && *a == *b; a++, b++)
		;
	return (*a == '=' ? -1 : (unsigned char)*a) - (*b == '=' ? -1 : (unsigned char)*b);
}

static int env_qsort_cmp(const void *x, const void *y)
{
	return run_env_cmp(*(char *const *)x, *(char *const *)y);
}

/* Sets entry "NAME=VALUE" (kept as given), replacing an earlier NAME. */
static void env_set(struct run_config *c, char *entry)
{
	size_t i, len = (size_t)(strchr(entry, '=') - entry);

	for (i = 0; i < c->nenv; i++)
		if (!strncmp(c->env[i], entry, len + 1)) {
			c->env[i] = entry;
			return;
		}
	c->env = xrealloc(c->env, c->nenv + 1, sizeof *c->env);
	c->env[c->nenv++] = entry;
}

/* ---- option values: NULL or the reason a value is bad ---- */

static const char *parse_repeat(const char *v, unsigned long *out)
{
	unsigned long n = 0;
	const char *p = v;

	for (; *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (unsigned long)(*p - '0');
		if (n > RUN_MAX_REPEAT)
			return "must be a number from 1 to 1000";
	}
	if (p == v || *p || n < 1)
		return "must be a number from 1 to 1000";
	*out = n;
	return NULL;
}

static const char *parse_env(const char *v)
{
	const char *p = v;

	if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_'))
		return *p == '=' || !*p ? "expected NAME=VALUE"
					: "NAME must start with a letter or '_'";
	for (p++; *p && *p != '='; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return "NAME may hold only letters, digits and '_'";
	if (!*p)
		return "expected NAME=VALUE";
	if (!strncmp(v, "VALGRIND_LIB=", 13) || !strncmp(v, "VALGRIND_LAUNCHER=", 18))
		return "cg_run sets this variable itself (use --tool-dir)";
	/* Valgrind reads it, behind cg_run's back (--trace-children=yes
	 * there ran an exec'd program under another Cachegrind). */
	if (!strncmp(v, "VALGRIND_OPTS=", 14))
		return "Valgrind would read it: put Valgrind's options on cg_run's "
		       "command line";
	return NULL;
}

static const char *parse_exit(const char *v, int *out)
{
	int n = 0;
	const char *p = v;

	if (!strcmp(v, "any")) {
		*out = -1;
		return NULL;
	}
	for (; *p >= '0' && *p <= '9' && n <= 255; p++)
		n = n * 10 + (*p - '0');
	if (p == v || *p || n > 255)
		return "must be a number from 0 to 255, or 'any'";
	*out = n;
	return NULL;
}

/* ---- the command line ---- */

enum { O_REPEAT, O_ENV, O_TOOLDIR, O_ASLR, O_EXPECT, O_NONE };

static const char *const own_options[] = {
	"--repeat", "--env", "--tool-dir", "--aslr", "--expect-exit",
};

/* Which of cg_run's options arg is (O_NONE if none); *value is the text
 * after "=".  An own option without "=" is a usage error. */
static int own_option(const char *arg, const char **value)
{
	int i;

	for (i = 0; i < O_NONE; i++) {
		size_t n = strlen(own_options[i]);
		if (strncmp(arg, own_options[i], n))
			continue;
		if (arg[n] == '=') {
			*value = arg + n + 1;
			return i;
		}
		if (!arg[n])
			ap_usage_error(&spec, "argument %s: expected a value after '='",
				       own_options[i]);
	}
	return O_NONE;
}

static void own_value(struct run_config *c, int id, const char *v)
{
	const char *why = NULL;

	switch (id) {
	case O_REPEAT:
		why = parse_repeat(v, &c->repeat);
		break;
	case O_ENV:
		if (!(why = parse_env(v)))
			env_set(c, (char *)v);
		break;
	case O_TOOLDIR:
		if (!*v)
			why = "expected a folder";
		c->tool_dir = v;
		break;
	case O_ASLR:
		if (strcmp(v, "yes") && strcmp(v, "no"))
			why = "expected 'yes' or 'no'";
		c->aslr = !strcmp(v, "yes");
		break;
	case O_EXPECT:
		why = parse_exit(v, &c->expect_exit);
		break;
	}
	if (why) {
		char *r = py_repr(v);
		ap_usage_error(&spec, "argument %s: invalid value %s: %s", own_options[id], r, why);
	}
}

/* A Valgrind option: noted where cg_run needs it, kept for Valgrind
 * unless cg_run gives it itself. */
static void valgrind_option(struct run_config *c, char *arg)
{
	if (!strncmp(arg, "--tool=", 7)) {
		if (strcmp(arg + 7, "cachegrind"))
			ap_usage_error(&spec, "argument --tool: cg_run runs only cachegrind, not %s",
				       arg + 7);
		return; /* cg_run gives it */
	}
	if (!strncmp(arg, "--cachegrind-out-file=", 22)) {
		c->out_file = arg + 22;
		return; /* cg_run gives its own */
	}
	if (!strncmp(arg, "--trace-children=", 17))
		c->trace_children = !strcmp(arg + 17, "yes");
	if (!strcmp(arg, "-q") || !strcmp(arg, "--quiet"))
		c->quiet = 1;
	c->vg_args[c->nvg++] = arg;
}

static void parse_command_line(struct run_config *c, int argc, char **argv)
{
	int i;
	const char *why;
	char *name;

	memset(c, 0, sizeof *c);
	c->repeat = 1;
	c->out_file = "cachegrind.out.%p";
	c->vg_args = xmalloc((size_t)argc, sizeof *c->vg_args);
	env_set(c, (char *)RUN_ENV_LC_ALL);
	env_set(c, (char *)RUN_ENV_PATH);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		int id;
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			ap_help(usage_text, help_text);
		if (!strcmp(a, "--version"))
			ap_version("cg_run");
		id = own_option(a, &v);
		if (id != O_NONE)
			own_value(c, id, v);
		else
			valgrind_option(c, argv[i]);
	}
	if (i >= argc)
		ap_usage_error(&spec, "the following arguments are required: PROGRAM");
	c->prog = argv + i;
	c->nprog = (size_t)(argc - i);
	qsort(c->env, c->nenv, sizeof *c->env, env_qsort_cmp);
	/* The template is checked now, not after the runs as the tool does. */
	name = run_expand(c->out_file, 1, c->env, c->nenv, &why);
	if (!name) {
		char *r = py_repr(c->out_file);
		ap_usage_error(&spec, "argument --cachegrind-out-file: invalid value %s: %s", r, why);
	}
	free(name);
}

/* ---- the runs ---- */

/* The private scratch folder, <TMPDIR>/cg_run.XXXXXX, holding one folder
 * per run, <k>, with that run's profiles; removed at exit. */
static char *scratch;

/* Removes dir and what is in it, down to depth levels of folders; never
 * dies (it runs at exit). */
static void remove_tree(const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path)
			continue;
		if (unlink(path) && errno == EISDIR && depth > 0)
			remove_tree(path, depth - 1);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static void remove_scratch(void)
{
	if (scratch && !run_scratch_kept)
		remove_tree(scratch, 1);
}

static char *make_scratch(void)
{
	const char *tmp = getenv("TMPDIR");
	char *d;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	d = xmalloc(strlen(tmp) + 16, 1);
	sprintf(d, "%s/cg_run.XXXXXX", tmp);
	/* mkdtemp's 0700 is cut by the umask too (0177: no search
	 * permission, nothing could be made in it): set whole. */
	if (!mkdtemp(d) || chmod(d, 0700))
		die(1, "cannot create a scratch folder in %s: %s", tmp, strerror(errno));
	return d;
}

/* The folder of run k, xmalloc'd. */
static char *run_dir(unsigned long k)
{
	char *dir = xmalloc(strlen(scratch) + 24, 1);

	sprintf(dir, "%s/%lu", scratch, k);
	return dir;
}

/* Run 1's profiles (the runs' first: what is kept) and their names, once
 * run 1 ended; for end_interrupted. */
static const struct run_set *first_set;
static char **first_names;

/* A signal came (run_caught) while run k ran or before it started: run 1's
 * profiles are kept under their names (those it wrote before it ended if k
 * is 1), the scratch folder removed, and cg_run ends as the signal would.
 * A run 2 or later that did not end is said on stderr (unless -q). */
static void end_interrupted(const struct run_config *c, int sig, unsigned long k)
{
	prog_on_die(NULL);      /* (this keeps them: not twice on an error) */
	if (first_set && first_set->n) {
		if (!first_names)
			first_names = run_set_names(first_set, c);
		run_set_keep(first_set, first_names, "");
		if (k > 1 && k <= c->repeat && !c->quiet) {
			char compared[64];
			if (k == 2)
				strcpy(compared, ", not compared with another run");
			else if (k == 3)
				strcpy(compared, " (run 2 was the same)");
			else
				snprintf(compared, sizeof compared,
					 " (runs 2 to %lu were the same)", k - 1);
			fprintf(stderr, "cg_run: signal %d before run %lu of %lu ended: kept "
				"the profiles of run 1%s\n", sig, k, c->repeat, compared);
		}
	}
	remove_scratch();
	run_end_by_signal(sig);
}

/* Runs run k into its folder; returns its exit status. */
static int one_run(const struct run_config *c, const struct run_target *t,
		   unsigned long k, struct run_set *s)
{
	char *dir = run_dir(k), *out;
	int status;
	long root;

	if (run_caught())
		end_interrupted(c, run_caught(), k);
	/* Private, whatever the umask (0177 left it without the search
	 * permission, and nothing could be made in it). */
	if (mkdir(dir, 0700) || chmod(dir, 0700))
		die(1, "cannot create '%s': %s", dir, strerror(errno));
	/* The tool expands the template: a '%' of the folder's own name
	 * (TMPDIR=/tmp/a%b) is written "%%". */
	out = xmalloc(2 * strlen(dir) + 4, 1);
	{
		char *o = out;
		const char *d;
		for (d = dir; *d; d++) {
			if (*d == '%')
				*o++ = '%';
			*o++ = *d;
		}
		strcpy(o, "/%p");
	}
	status = run_once(c, t, out, &root);
	/* Interrupted: run 1 keeps what it wrote, as the tool leaves its
	 * profile when killed. */
	if (status < 0 && k > 1)
		end_interrupted(c, -status, k);
	run_set_list(s, dir);
	s->root = root;
	if (status < 0)
		end_interrupted(c, -status, k);
	free(out);
	free(dir);
	return status;
}

/* Standard input: a regular file is read again from the same place by
 * every run; anything else is shared (the first run may consume it). */
static off_t stdin_start = -1;

static void rewind_stdin(void)
{
	struct stat st;

	if (stdin_start < 0) {
		if (fstat(0, &st) == 0 && S_ISREG(st.st_mode))
			stdin_start = lseek(0, 0, SEEK_CUR);
		return;
	}
	if (lseek(0, stdin_start, SEEK_SET) < 0)
		die(1, "cannot read standard input again: %s", strerror(errno));
}

/* buf: room for 64 bytes; returns it. */
static const char *status_text(int status, char *buf)
{
	/* A shell's 128 + N for signal N; above the last signal, a plain
	 * exit status (exit(200) is no signal 72). */
	if (status > 128 && status - 128 < NSIG)
		snprintf(buf, 64, "status %d (signal %d)", status, status - 128);
	else
		snprintf(buf, 64, "status %d", status);
	return buf;
}

/* The free bytes of the scratch folder's file system, and (*need) the
 * size of the largest of run 1's profiles (first); 0 if unknown. */
static unsigned long long scratch_room(const struct run_set *first,
				       unsigned long long *need)
{
	struct statvfs v;
	struct stat st;
	size_t i;

	*need = 0;
	if (statvfs(scratch, &v) != 0)
		return 0;
	for (i = 0; i < first->n; i++)
		if (stat(first->p[i].path, &st) == 0 && (unsigned long long)st.st_size > *need)
			*need = (unsigned long long)st.st_size;
	return (unsigned long long)v.f_bavail * v.f_frsize;
}

/* Run k wrote fewer profiles than run 1 (first): if the scratch folder's
 * file system has no room left for the largest of run 1's, the tool could
 * not write them (its message says so above), which is an error, not a
 * difference between the runs: dies with status 1. */
static void check_room(const struct run_set *first, const struct run_set *s,
		       unsigned long k)
{
	unsigned long long room, need;

	if (s->n >= first->n)
		return;
	room = scratch_room(first, &need);
	if (need && room < need)
		die(1, "run %lu wrote %zu profile%s, run 1 %zu, and the file system of the "
		       "scratch folder %s is full (%llu bytes free, run 1's largest profile "
		       "has %llu): set TMPDIR to a folder with room", k, s->n,
		    s->n == 1 ? "" : "s", first->n, scratch, room, need);
}

/* After run 1: a scratch folder's file system with no room for another
 * profile as large as its largest means that one of its processes may
 * have failed to write its profile (the tool's message says so above).
 * cg_run cannot tell that from a process that wrote none, or from a last
 * profile that just fitted: a warning, and the status is left alone (an
 * error would fail runs whose profiles are all there). */
static void check_room_first(const struct run_set *first)
{
	unsigned long long room, need;

	room = scratch_room(first, &need);
	if (need && room < need)
		warning("the file system of the scratch folder %s is full after run 1 "
			"(%llu bytes free, its largest profile has %llu): a profile may be "
			"missing (see the tool's messages); set TMPDIR to a folder with room",
			scratch, room, need);
}

/* An error during run 2 or later (a full scratch file system, a profile
 * that cannot be read) does not lose run 1's complete profiles: they are
 * kept under their names before cg_run exits. */
static void keep_first_on_die(void)
{
	if (first_set && first_set->n && first_names)
		run_set_keep(first_set, first_names, "");
}

/* Runs 2..N, each compared with run 1 (whose profiles are first, to be
 * kept under names); returns RUN_OK or RUN_DIFFER, having kept the
 * profiles of a run that differs beside run 1's. */
static int repeat_runs(const struct run_config *c, const struct run_target *t,
		       const struct run_set *first, int status1, char **names)
{
	unsigned long k;

	for (k = 2; k <= c->repeat; k++) {
		struct run_set s = { NULL, 0, 0 };
		int status, rc;
		char *dir;

		rewind_stdin();
		status = one_run(c, t, k, &s);
		if (status != status1) {
			char t1[64], tk[64];
			prog_error("runs 1 and %lu differ: run 1 exited with %s, run %lu with %s",
			      k, status_text(status1, t1), k, status_text(status, tk));
			return RUN_DIFFER;
		}
		check_room(first, &s, k);
		rc = run_set_compare(first, &s, k, names);
		if (rc) {
			char suffix[32];
			snprintf(suffix, sizeof suffix, ".run%lu", k);
			/* Only profiles that pair up are kept under run 1's
			 * names. */
			if (rc == RUN_SET_COUNTS && !run_output_is_stream())
				run_set_keep(&s, names, suffix);
			return RUN_DIFFER;
		}
		run_set_release(&s);
		dir = run_dir(k);
		remove_tree(dir, 0);
		free(dir);
		if (run_caught())
			end_interrupted(c, run_caught(), k + 1);
	}
	return RUN_OK;
}

int main(int argc, char **argv)
{
	struct run_config c;
	struct run_target t;
	struct run_set first = { NULL, 0, 0 };
	char **names;
	int status1, rc;
	char t1[64];

	prog_init(argv[0]);
	parse_command_line(&c, argc, argv);
	/* Valgrind reads ./.valgrindrc only where HOME is set, which the
	 * program's environment has only by --env. */
	if (run_getenv(c.env, c.nenv, "HOME") && access(".valgrindrc", F_OK) == 0)
		warning("./.valgrindrc is read by Valgrind: its options apply to every run");
	run_prepare(&c, &t);
	if (!c.aslr)
		run_no_aslr();
	/* Orphans of a run become cg_run's, to be waited for (run_once), and
	 * a closed standard error must not end cg_run before it cleans up. */
	prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL);
	signal(SIGPIPE, SIG_IGN);
	/* From here to the end, a signal that would end cg_run lets it
	 * clean up first (end_interrupted). */
	run_signals_init();
	scratch = make_scratch();
	atexit(remove_scratch);

	rewind_stdin();
	first_set = &first;
	status1 = one_run(&c, &t, 1, &first);
	if (!first.n)
		die(1, "run 1 exited with %s and wrote no profile", status_text(status1, t1));
	names = first_names = run_set_names(&first, &c);
	if (run_caught())
		end_interrupted(&c, run_caught(), 2);
	if (c.expect_exit >= 0 && status1 != c.expect_exit) {
		run_set_keep(&first, names, "");
		die(1, "run 1: the program exited with %s, expected %d", status_text(status1, t1),
		    c.expect_exit);
	}
	prog_on_die(keep_first_on_die);
	check_room_first(&first);
	rc = repeat_runs(&c, &t, &first, status1, names);
	prog_on_die(NULL);
	run_set_keep(&first, names, "");
	/* A signal while the profiles were copied: they were all kept. */
	if (run_caught()) {
		remove_scratch();
		run_end_by_signal(run_caught());
	}
	if (rc == RUN_OK && c.repeat > 1 && !c.quiet)
		fprintf(stderr, "cg_run: %lu runs, the same profiles; kept those of run 1: %s%s\n",
			c.repeat, names[0], first.n > 1 ? " ..." : "");
	run_set_release(&first);
	return rc;
}
