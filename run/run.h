/* run.h -- what the files of cg_run share: its configuration, the program to start, the profiles of a run. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef RUN_H
#define RUN_H

#include <stddef.h>

/* Exit statuses of cg_run (cg_run.1, docs/manual/cg_run.md). */
enum {
	RUN_OK = 0,
	RUN_ERROR = 1,   /* cannot run, read or write; the program's status
			    was not the one expected */
	RUN_USAGE = 2,   /* bad command line */
	RUN_DIFFER = 3,  /* --repeat: the runs were not the same */
};

/* The cache geometry cg_run gives unless the command line gives one (that
 * of the tests' "cache" mode: a common 32 KiB L1, an 8 MiB LL). */
#define RUN_GEOMETRY_I1 "--I1=32768,8,64"
#define RUN_GEOMETRY_D1 "--D1=32768,8,64"
#define RUN_GEOMETRY_LL "--LL=8388608,16,64"

/* The client's environment before --env additions (justified in
 * docs/manual/cg_run.md), in name order. */
#define RUN_ENV_LC_ALL "LC_ALL=C"
#define RUN_ENV_PATH "PATH=/usr/local/bin:/usr/bin:/bin"

/* The command line, filled by cg_run.c.  Strings point into argv or are
 * xmalloc'd; all of it lives until exit. */
struct run_config {
	unsigned long repeat;      /* --repeat, 1 to RUN_MAX_REPEAT */
	char **env;                /* the client's NAME=VALUE, sorted by NAME */
	size_t nenv;
	const char *tool_dir;      /* --tool-dir, or NULL */
	int aslr;                  /* --aslr=yes: randomisation left on */
	int expect_exit;           /* --expect-exit, -1 for any */
	const char *out_file;      /* the --cachegrind-out-file template */
	int trace_children;        /* the last --trace-children= was yes */
	int quiet;                 /* -q or --quiet was given */
	char **vg_args;            /* options for Valgrind, in order */
	size_t nvg;
	char **prog;               /* the program and its arguments */
	size_t nprog;
};

#define RUN_MAX_REPEAT 1000ul

/* Value of NAME in a NAME=VALUE list, or NULL. */
const char *run_getenv(char *const *env, size_t n, const char *name);
/* Order of two NAME=VALUE entries by NAME (strcmp of the names). */
int run_env_cmp(const char *a, const char *b);

/* ---- run_exec.c: finding and starting the tool ---- */

/* What every run starts, found once before the first. */
struct run_target {
	char *prog_path;       /* the program as found (PATH searched) */
	const char *platform;  /* "amd64-linux", "x86-linux" */
	char *tool_dir;        /* the folder of cachegrind-<platform> */
	char *exe;             /* what is executed: the tool or the launcher */
	char **envp;           /* its environment, NULL-terminated */
	int direct;            /* 1: exe is the tool itself (no VALGRIND_LIB) */
};

/* Finds the program, its platform, the tool and the launcher, and builds
 * the environment; dies (status 1) with the reason when one is missing. */
void run_prepare(const struct run_config *c, struct run_target *t);
/* Turns address-space randomisation off for cg_run and what it starts;
 * dies (status 1) when the system forbids it. */
void run_no_aslr(void);
/* Catches, for cg_run's whole life, the signals that would end it
 * (SIGINT, SIGTERM, SIGHUP and the others of docs/manual/cg_run.md), but
 * those ignored when it started: a run in progress gets them, and
 * run_caught() tells that one came. */
void run_signals_init(void);
/* The last signal caught, or 0. */
int run_caught(void);
/* Ends cg_run as signal sig would (its default action). */
void run_end_by_signal(int sig);
/* Runs the program once, its profiles going to out_template (a
 * --cachegrind-out-file value); *root_pid gets the pid of the process
 * started (the others of the run are its descendants).  Returns its exit
 * status as a shell shows it (128 + N for signal N); dies if it cannot be
 * started.  A caught signal is passed on to every process of the run, and
 * -N is returned for signal N once they all ended; with one caught before,
 * nothing is started and *root_pid is 0. */
int run_once(const struct run_config *c, const struct run_target *t,
	     const char *out_template, long *root_pid);

/* ---- run_out.c: the profiles of a run ---- */

/* The template with %p as pid and %q{VAR} from env, xmalloc'd; or NULL
 * with *why set to a static or xmalloc'd message (the tool's wording). */
char *run_expand(const char *tmpl, long pid, char *const *env, size_t nenv,
		 const char **why);

/* One profile a run wrote, in its folder: <pid>.pre-exec.<k> before an
 * exec, else <pid> or a part <pid>.<n>; any of them with -<tt> for a
 * thread's (--separate-threads=yes). */
struct run_profile {
	long pid;
	unsigned long long preexec;  /* k, or 0 for the profile written at exit */
	unsigned long long part;     /* n, or 0 for none */
	unsigned long long thread;   /* tt, or 0 for none */
	char *path;             /* in the run's folder, xmalloc'd */
};

/* The profiles of one run, in an order that pairs them between runs: by
 * pid; a process's pre-exec profiles by k before its other ones, which
 * go by part number, the final part last; then by thread. */
struct run_set {
	struct run_profile *p;
	size_t n;
	long root;  /* the pid of the process the run started */
};

/* Lists the profiles in dir; dies on a file of another name. */
void run_set_list(struct run_set *s, const char *dir);
void run_set_release(struct run_set *s);
/* The names the profiles of s are kept under, as the tool names them:
 * the template expanded with each one's pid (with ".child.<pid>" after it
 * for a process other than s->root if the template has no %p), plus
 * ".pre-exec.<k>" for those written before an exec, then the part and
 * thread suffixes.
 * An xmalloc'd array of xmalloc'd names. */
char **run_set_names(const struct run_set *s, const struct run_config *c);
/* Whether run_set_names found the output a device, FIFO or socket: every
 * name is that output, and no run's profiles are kept beside it. */
int run_output_is_stream(void);
/* What run_set_compare finds: the same profiles, profiles that pair up
 * but whose records differ, or profiles that do not pair up (another
 * number of them, or of parts or threads). */
enum { RUN_SET_SAME, RUN_SET_COUNTS, RUN_SET_SHAPE };
/* Compares the profiles of run 1 (a, kept as names) and run k (b),
 * reporting the first differences on stderr. */
int run_set_compare(const struct run_set *a, const struct run_set *b,
		    unsigned long k, char *const *names);
/* Copies each profile of s to names[i] plus suffix, complete or not at
 * all; dies on an I/O error. */
void run_set_keep(const struct run_set *s, char *const *names, const char *suffix);
/* Set when a profile could not be written under its name: the scratch
 * folder, which holds the run's profiles, is then not removed. */
extern int run_scratch_kept;

#endif
