/* run_exec.c -- cg_run: finding the program, its platform and the tool; starting a run without address-space randomisation. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * How a run is started, and why (docs/manual/cg_run.md has the numbers).
 * The client's environment is a copy of the tool's, with the core adding
 * LD_PRELOAD=<libdir>/vgpreload_core-<platform>.so and removing
 * VALGRIND_LAUNCHER.  <libdir> is $VALGRIND_LIB if set, else the folder
 * compiled into the core (the distribution's).  So:
 *
 *   - By default cg_run does the launcher's work itself: it picks the
 *     platform from the program's ELF header (through "#!" interpreters,
 *     as the launcher does) and executes cachegrind-<platform> from the
 *     tool folder directly, with VALGRIND_LAUNCHER set and no VALGRIND_LIB.
 *     The client then sees exactly the canonical environment plus the
 *     distribution's LD_PRELOAD: the same as a run of the distribution's
 *     own Cachegrind, wherever cachegrind-ng is installed.
 *   - With --trace-children=yes that cannot work: for a traced exec the
 *     core runs the launcher again with VALGRIND_LIB set to its <libdir>,
 *     which would be the distribution's folder and its Cachegrind.  Then
 *     cg_run runs the launcher program with VALGRIND_LIB set to the tool
 *     folder (which mirrors the distribution's), and the client sees it.
 *
 * Either way the launcher program is started directly, never Debian's
 * bin/valgrind shell script, which adds LD_LIBRARY_PATH,
 * GLIBCPP_FORCE_NEW, GLIBCXX_FORCE_NEW and (the shell) PWD: the last one
 * makes counts depend on the length of the working folder's path.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "prog.h"
#include "run.h"

/* Set by run/local.mk from configure's results. */
#ifndef CG_RUN_BINDIR
#define CG_RUN_BINDIR "/usr/local/bin"
#endif
#ifndef CG_RUN_PKGLIBEXECDIR
#define CG_RUN_PKGLIBEXECDIR "/usr/local/libexec/cachegrind-ng"
#endif
#ifndef CG_RUN_LAUNCHER
#define CG_RUN_LAUNCHER "/usr/bin/valgrind.bin"
#endif
#ifndef CG_RUN_DEFAULT_PLATFORM
#define CG_RUN_DEFAULT_PLATFORM "amd64-linux"
#endif

/* "a/b", xmalloc'd. */
static char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir), m = strlen(name);
	char *p = xmalloc(n + m + 2, 1);

	memcpy(p, dir, n);
	p[n] = '/';
	memcpy(p + n + 1, name, m + 1);
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n, 1), s, n);
}

static int is_exec_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

/* ---- the program ---- */

/* The program's file: the name itself if it holds a '/', else the first
 * executable file of that name in the client's PATH (where Valgrind will
 * look for it too; an empty entry is the working folder).  Dies when
 * there is none. */
static char *find_program(const char *name, const char *path)
{
	struct stat st;
	const char *p, *end;

	if (strchr(name, '/')) {
		if (stat(name, &st))
			die(1, "cannot run '%s': %s", name, strerror(errno));
		if (S_ISDIR(st.st_mode))
			die(1, "cannot run '%s': %s", name, strerror(EISDIR));
		if (access(name, X_OK))
			die(1, "cannot run '%s': %s", name, strerror(errno));
		return xstrdup(name);
	}
	/* An empty element is the working folder, but a PATH that is empty
	 * as a whole holds none: Valgrind finds nothing in it. */
	for (p = path; *path; p = end + 1) {
		char *dir, *cand;
		end = p + strcspn(p, ":");
		dir = end == p ? strdup(".") : strndup(p, (size_t)(end - p));
		if (!dir)
			die(1, "out of memory");
		cand = path_join(dir, name);
		free(dir);
		if (is_exec_file(cand))
			return cand;
		free(cand);
		if (!*end)
			break;
	}
	die(1, "cannot run '%s': not found in the program's PATH (%s)", name, path);
}

/* The Valgrind platform of a program as the launcher picks it: from its
 * ELF header, or that of its "#!" interpreter; the default one when that
 * says nothing (the launcher's rule too). */
static const char *platform_of(const char *file, int depth)
{
	unsigned char h[256];
	ssize_t n;
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return CG_RUN_DEFAULT_PLATFORM;
	n = read(fd, h, sizeof h - 1);
	close(fd);
	if (n >= 2 && h[0] == '#' && h[1] == '!' && depth < 4) {
		char *interp = (char *)h + 2, *e;
		h[n] = '\0';
		interp += strspn(interp, " \t");
		e = interp + strcspn(interp, " \t\n");
		*e = '\0';
		return platform_of(*interp ? interp : "/bin/sh", depth + 1);
	}
	if (n >= 52 && !memcmp(h, "\177ELF", 4) && h[5] == 1 /* little-endian */) {
		unsigned machine = h[18] | (unsigned)h[19] << 8;
		if (h[4] == 1 && machine == 3)        /* ELFCLASS32, EM_386 */
			return "x86-linux";
		if (h[4] == 2 && n >= 64 && machine == 62) /* ELFCLASS64, EM_X86_64 */
			return "amd64-linux";
	}
	return CG_RUN_DEFAULT_PLATFORM;
}

/* ---- the tool ---- */

static int has_tool(const char *dir, const char *platform)
{
	char name[64], *p;
	int ok;

	snprintf(name, sizeof name, "cachegrind-%s", platform);
	p = path_join(dir, name);
	ok = is_exec_file(p);
	free(p);
	return ok;
}

/* The folder of the running cg_run, xmalloc'd, or NULL. */
static char *own_dir(void)
{
	char buf[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return xstrdup(buf);
}

/* The relative path from folder from to folder to (both absolute):
 * "../libexec/cachegrind-ng" for /usr/local/bin and
 * /usr/local/libexec/cachegrind-ng.  xmalloc'd. */
static char *relative_path(const char *from, const char *to)
{
	struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);
	size_t i = 0, common = 0;

	/* The longest common prefix that ends at a folder boundary. */
	while (from[i] && from[i] == to[i]) {
		i++;
		if ((from[i] == '/' || !from[i]) && (to[i] == '/' || !to[i]))
			common = i;
	}
	for (i = common; from[i]; i++)
		if (from[i] == '/' && from[i + 1] && from[i + 1] != '/')
			cgp_buf_adds(&b, "../");
	cgp_buf_adds(&b, to[common] == '/' ? to + common + 1 : to + common);
	cgp_buf_adds(&b, "");
	if (!b.s)
		die(1, "out of memory");
	return b.s;
}

/* The tool folder (real path, xmalloc'd): --tool-dir; else the build
 * tree's .in_place when cg_run runs from a build tree (run/cg_run beside
 * vg-in-place); else the installed folder, found from where cg_run is
 * (so that an installed tree may move) or where it was to be installed. */
static char *find_tool_dir(const struct run_config *c, const char *platform)
{
	char *here = own_dir(), *cand[3] = { NULL, NULL, NULL }, *found = NULL;
	size_t i;

	if (c->tool_dir) {
		if (!has_tool(c->tool_dir, platform))
			die(1, "--tool-dir=%s: no executable cachegrind-%s in it", c->tool_dir,
			    platform);
		found = realpath(c->tool_dir, NULL);
		if (!found)
			die(1, "--tool-dir=%s: %s", c->tool_dir, strerror(errno));
		return found;
	}
	if (here) {
		char *top = path_join(here, ".."), *vip = path_join(top, "vg-in-place");
		char *rel = relative_path(CG_RUN_BINDIR, CG_RUN_PKGLIBEXECDIR);
		if (is_exec_file(vip))
			cand[0] = path_join(top, ".in_place");
		cand[1] = path_join(here, rel);
		free(top);
		free(vip);
		free(rel);
	}
	cand[2] = path_join(CG_RUN_PKGLIBEXECDIR, ".");
	for (i = 0; i < 3 && !found; i++)
		if (cand[i] && has_tool(cand[i], platform) && !(found = realpath(cand[i], NULL)))
			die(1, "%s: %s", cand[i], strerror(errno));
	if (!found)
		die(1, "cannot find cachegrind-%s in %s%s%s (give --tool-dir)", platform,
		    cand[1] ? cand[1] : "", cand[1] ? " or " : "", cand[2]);
	for (i = 0; i < 3; i++)
		free(cand[i]);
	free(here);
	return found;
}

/* env plus one more entry: inserted in name order, or appended. */
static char **env_with(char *const *env, size_t n, char *extra, int sorted)
{
	char **e = xmalloc(n + 2, sizeof *e);
	size_t i = 0, k = 0;

	if (sorted)
		for (; i < n && run_env_cmp(env[i], extra) < 0; i++)
			e[k++] = env[i];
	else
		for (; i < n; i++)
			e[k++] = env[i];
	e[k++] = extra;
	for (; i < n; i++)
		e[k++] = env[i];
	e[k] = NULL;
	return e;
}

void run_prepare(const struct run_config *c, struct run_target *t)
{
	const char *path = run_getenv(c->env, c->nenv, "PATH");
	char name[64], *var;

	memset(t, 0, sizeof *t);
	t->prog_path = find_program(c->prog[0], path ? path : "");
	t->platform = platform_of(t->prog_path, 0);
	t->tool_dir = find_tool_dir(c, t->platform);
	if (!is_exec_file(CG_RUN_LAUNCHER))
		die(1, "the Valgrind launcher %s is missing: is the package 'valgrind' installed?",
		    CG_RUN_LAUNCHER);
	t->direct = !c->trace_children;
	if (t->direct) {
		snprintf(name, sizeof name, "cachegrind-%s", t->platform);
		t->exe = path_join(t->tool_dir, name);
		var = xmalloc(strlen(CG_RUN_LAUNCHER) + 20, 1);
		sprintf(var, "VALGRIND_LAUNCHER=%s", CG_RUN_LAUNCHER);
		t->envp = env_with(c->env, c->nenv, var, 0);
	} else {
		t->exe = xstrdup(CG_RUN_LAUNCHER);
		var = xmalloc(strlen(t->tool_dir) + 14, 1);
		sprintf(var, "VALGRIND_LIB=%s", t->tool_dir);
		t->envp = env_with(c->env, c->nenv, var, 1);
	}
}

/* ---- randomisation ---- */

void run_no_aslr(void)
{
	int p = personality(0xffffffff);

	if (p != -1 && !(p & ADDR_NO_RANDOMIZE) &&
	    personality((unsigned long)p | ADDR_NO_RANDOMIZE) == -1)
		p = -1;
	if (p == -1)
		die(1, "cannot turn off address-space randomisation: "
		       "personality(ADDR_NO_RANDOMIZE): %s%s", strerror(errno),
		    errno == EPERM ? " (a seccomp filter forbids it, as in a container "
				     "with the default profile; --aslr=yes runs with it on)" : "");
	p = personality(0xffffffff);
	if (p == -1 || !(p & ADDR_NO_RANDOMIZE))
		die(1, "cannot turn off address-space randomisation: the kernel did not "
		       "keep ADDR_NO_RANDOMIZE");
}

/* ---- signals ---- */

/* The process a run started, while it lives (0 otherwise), for passing a
 * signal on at once; the last signal caught, whether the terminal sent it
 * (to its whole foreground process group), and how many were caught and
 * how many of those were passed on to the whole run. */
static volatile pid_t child;
static volatile sig_atomic_t caught, caught_from_tty, ncaught;
static sig_atomic_t npassed;

static void on_signal(int sig, siginfo_t *info, void *context)
{
	(void)context;
	caught = sig;
	/* Only a terminal's keys make the kernel send SIGINT or SIGQUIT;
	 * a process of the run in cg_run's process group has it already,
	 * and a program that counts them must not get two. */
	caught_from_tty = info && info->si_code == SI_KERNEL &&
			  (sig == SIGINT || sig == SIGQUIT);
	ncaught++;
	if (child > 0 && !caught_from_tty) {
		kill(child, sig);
		kill(child, SIGCONT);    /* stopped, it would not act on it */
	}
}

/* Every signal whose default action ends a program, but SIGPIPE (which
 * cg_run ignores: a closed standard error must not leave the scratch
 * folder behind) and the program's own faults.  Caught for cg_run's whole
 * life: passed on to the run in progress, and cg_run cleans up and ends
 * as the signal would at the next point where that is safe; but one that
 * was ignored when cg_run started is left ignored. */
static const int passed_on[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU,
	SIGVTALRM, SIGPROF
};
#define NPASSED (sizeof passed_on / sizeof passed_on[0])

/* The passed-on signals that cg_run catches (not those it found ignored). */
static sigset_t caught_set;

void run_signals_init(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&caught_set);
	for (i = 0; i < NPASSED; i++) {
		/* One ignored when cg_run started stays ignored, and the
		 * program inherits that (nohup, a shell's background job). */
		if (sigaction(passed_on[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaddset(&caught_set, passed_on[i]);
	}
	/* All handlers share one mask: no handler interrupts another. */
	sa.sa_mask = caught_set;
	for (i = 0; i < NPASSED; i++)
		if (sigismember(&caught_set, passed_on[i]))
			sigaction(passed_on[i], &sa, NULL);
	/* Held when cg_run started (a parent's mask is inherited), they
	 * would never reach the handlers: a SIGTERM neither ended cg_run nor
	 * reached the program.  (The program starts with none held.) */
	sigprocmask(SIG_UNBLOCK, &caught_set, NULL);
	/* An ignored SIGCHLD reaps the runs' processes unseen, and cg_run
	 * could not wait for them: the default action, also for the program
	 * (Valgrind's child), as for SIGPIPE. */
	signal(SIGCHLD, SIG_DFL);
}

int run_caught(void)
{
	return caught;
}

void run_end_by_signal(int sig)
{
	sigset_t one;

	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	/* A signal whose default action does not end cg_run (none of
	 * passed_on) would come back here: the shell's status for it. */
	exit(128 + sig);
}

/* Reads up to size - 1 bytes of /proc/<pid>/<what> into buf, terminated;
 * their number, or 0 (none, or the process ended meanwhile). */
static size_t read_proc(long pid, const char *what, char *buf, size_t size)
{
	char path[64];
	ssize_t got;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/%s", pid, what);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	got = read(fd, buf, size - 1);
	close(fd);
	if (got <= 0)
		return 0;
	buf[got] = '\0';
	return (size_t)got;
}

/* The pid, parent pid and process group of every process, from
 * /proc/<pid>/stat; fills *pids (triples) and returns their number, 0 when
 * /proc cannot be read. */
static size_t list_processes(long **pids)
{
	size_t n = 0, cap = 0;
	struct dirent *e;
	long *v = NULL;
	DIR *d = opendir("/proc");

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		char buf[512], *close_paren, *end;
		long pid, ppid, pgrp;

		pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0 || !read_proc(pid, "stat", buf, sizeof buf))
			continue;       /* (ended meanwhile) */
		/* "pid (comm) state ppid ...": comm may hold any byte, so
		 * the last ')' ends it. */
		close_paren = strrchr(buf, ')');
		if (!close_paren ||
		    sscanf(close_paren + 1, " %*c %ld %ld", &ppid, &pgrp) != 2)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			v = xrealloc(v, cap, 3 * sizeof *v);
		}
		v[3 * n] = pid;
		v[3 * n + 1] = ppid;
		v[3 * n + 2] = pgrp;
		n++;
	}
	closedir(d);
	*pids = v;
	return n;
}

/* Sends sig to every descendant of cg_run: the processes of the run in
 * progress, those that outlived the program included (cg_run is their
 * subreaper).  The tool in each of them writes its profile as it ends.
 * Those in process group skip (a terminal's, which sent it to them too)
 * and the process skip_pid (which cg_run's handler sent it to) are left
 * out; -1 for none.  Every one of them, those left out included, then
 * gets a SIGCONT. */
static void signal_run(int sig, long skip, long skip_pid)
{
	long *procs = NULL, *sent = NULL, self = (long)getpid();
	size_t nsent = 0, round;

	/* Again while a round finds new ones (forked meanwhile). */
	for (round = 0; round < 8; round++) {
		size_t n = list_processes(&procs), i, j, before = nsent;
		char *ours = xmalloc(n + 1, 1);
		int grew;

		/* The descendants: the closure of "its parent is cg_run or
		 * one of them" over the list. */
		memset(ours, 0, n + 1);
		do {
			grew = 0;
			for (i = 0; i < n; i++) {
				long parent = procs[3 * i + 1];
				int found = parent == self;
				for (j = 0; j < n && !found; j++)
					found = ours[j] && procs[3 * j] == parent;
				if (found && !ours[i])
					ours[i] = grew = 1;
			}
		} while (grew);
		for (i = 0; i < n; i++) {
			int done = !ours[i];
			for (j = 0; j < nsent && !done; j++)
				done = sent[j] == procs[3 * i];
			if (done)
				continue;
			sent = xrealloc(sent, nsent + 1, sizeof *sent);
			sent[nsent++] = procs[3 * i];
			if (procs[3 * i + 2] != skip && procs[3 * i] != skip_pid)
				kill((pid_t)procs[3 * i], sig);
			/* A stopped process (raise(SIGSTOP), a debugger's
			 * stop) acts on it only when continued: it was
			 * waited for until someone sent SIGCONT. */
			kill((pid_t)procs[3 * i], SIGCONT);
		}
		free(ours);
		free(procs);
		procs = NULL;
		if (nsent == before)
			break;
	}
	free(sent);
}

/* Passes a signal caught since the last call on to the whole run, but
 * not again to whoever had it already: the terminal's process group, or
 * the process the run started (on_signal). */
static void pass_on_caught(void)
{
	if (npassed != ncaught) {
		npassed = ncaught;
		if (caught_from_tty)
			signal_run(caught, (long)getpgrp(), -1);
		else
			signal_run(caught, -1, child > 0 ? (long)child : -1);
	}
}

/* ---- a run ---- */

/* How long a run's processes that outlive the program are waited for. */
#define RUN_ORPHAN_WAIT_MS 10000

/* How many of the processes still running the warning names. */
#define RUN_ORPHANS_NAMED 5

/* Adds to b ": " and the command line of process pid (for a process under
 * Valgrind, the program's: its arguments after the launcher's options), at
 * most 80 characters of it, or nothing if it cannot be read. */
static void add_command(struct cgp_buf *b, long pid)
{
	char line[4096];
	size_t n = read_proc(pid, "cmdline", line, sizeof line), i, start = 0, shown;
	const char *base;

	if (!n)
		return;
	base = strrchr(line, '/');
	base = base ? base + 1 : line;
	i = strlen(base);
	/* Under Valgrind: the launcher (valgrind, valgrind.bin) or a tool
	 * started directly (cachegrind-amd64-linux, as cg_run starts it). */
	if (!strncmp(base, "valgrind", 8) || (i > 6 && !strcmp(base + i - 6, "-linux"))) {
		/* Past it and every option before the program, "--" too. */
		for (i = strlen(line) + 1; i < n && line[i] == '-'; i += strlen(line + i) + 1)
			if (!strcmp(line + i, "--")) {
				i += 3;
				break;
			}
		if (i >= n)
			return;
		start = i;
	}
	for (i = start; i < n; i++)
		if (line[i] == '\0')
			line[i] = ' ';
	while (n > start && line[n - 1] == ' ')
		n--;
	shown = cgp_utf8_cut(line + start, n - start, 80);
	cgp_buf_addf(b, ": %.*s%s", (int)shown, line + start, shown < n - start ? "..." : "");
}

/* The processes an earlier run left running after its wait (a server that
 * never ends): not this run's, neither waited for nor named again; a pid
 * leaves the table when it is reaped (it may be reused).  Kept for
 * cg_run's life. */
static long *left_over;
static size_t nleft_over;

/* pid's place in left_over, or nleft_over if it is not there. */
static size_t left_over_index(long pid)
{
	size_t i = 0;

	while (i < nleft_over && left_over[i] != pid)
		i++;
	return i;
}

static int is_left_over(long pid)
{
	return left_over_index(pid) < nleft_over;
}

static void forget_left_over(long pid)
{
	size_t i = left_over_index(pid);

	if (i < nleft_over)
		left_over[i] = left_over[--nleft_over];
}

/* How many of cg_run's children (the subreaper's: the program's own
 * children that outlived it) belong to this run; with keep, they are
 * remembered as left over. */
static size_t run_children(int keep)
{
	long *procs = NULL, self = (long)getpid();
	size_t n = list_processes(&procs), i, mine = 0;

	for (i = 0; i < n; i++) {
		if (procs[3 * i + 1] != self || is_left_over(procs[3 * i]))
			continue;
		mine++;
		if (keep) {
			left_over = xrealloc(left_over, nleft_over + 1, sizeof *left_over);
			left_over[nleft_over++] = procs[3 * i];
		}
	}
	free(procs);
	return mine;
}

/* The processes of the run still running (children of cg_run, the
 * subreaper: the program's own children that outlived it), for the
 * warning: "pid 123: ./server --port 8000, pid 124: ...". */
static char *orphans_text(void)
{
	struct cgp_buf b = CGP_BUF_INIT(SIZE_MAX / 2);
	long *procs = NULL, self = (long)getpid();
	size_t n = list_processes(&procs), i;
	int named = 0, more = 0;

	for (i = 0; i < n; i++) {
		if (procs[3 * i + 1] != self || is_left_over(procs[3 * i]))
			continue;
		if (named == RUN_ORPHANS_NAMED) {
			more++;
			continue;
		}
		cgp_buf_addf(&b, "%spid %ld", named ? ", " : "", procs[3 * i]);
		add_command(&b, procs[3 * i]);
		named++;
	}
	free(procs);
	if (more)
		cgp_buf_addf(&b, " and %d more", more);
	return b.s;
}

/* A monotonic clock in milliseconds: the wait for what outlives the
 * program lasts its 10 s of time, however loaded the machine. */
static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int run_once(const struct run_config *c, const struct run_target *t,
	     const char *out_template, long *root_pid)
{
	long long start_ms;
	char **argv = xmalloc(c->nvg + c->nprog + 8, sizeof *argv), *out;
	sigset_t prev, none, deflt;
	posix_spawnattr_t attr;
	size_t i, k = 0;
	pid_t pid;
	int rc, st;

	out = xmalloc(strlen(out_template) + 24, 1);
	sprintf(out, "--cachegrind-out-file=%s", out_template);
	argv[k++] = t->exe;
	argv[k++] = (char *)"--tool=cachegrind";
	/* First, so that the command line's own --I1/--D1/--LL win. */
	argv[k++] = (char *)RUN_GEOMETRY_I1;
	argv[k++] = (char *)RUN_GEOMETRY_D1;
	argv[k++] = (char *)RUN_GEOMETRY_LL;
	for (i = 0; i < c->nvg; i++)
		argv[k++] = c->vg_args[i];
	argv[k++] = out;
	argv[k++] = (char *)"--";
	for (i = 0; i < c->nprog; i++)
		argv[k++] = c->prog[i];
	argv[k] = NULL;

	/* Signals are held until the child's pid is known, and the child
	 * starts with none held; none is started after one. */
	sigemptyset(&none);
	sigemptyset(&deflt);
	sigaddset(&deflt, SIGPIPE);
	sigprocmask(SIG_BLOCK, &caught_set, &prev);
	if (caught) {
		sigprocmask(SIG_SETMASK, &prev, NULL);
		free(out);
		free(argv);
		*root_pid = 0;
		return -caught;
	}
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &none);
	/* The program gets SIGPIPE's default action back (cg_run ignores it). */
	posix_spawnattr_setsigdefault(&attr, &deflt);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawn(&pid, t->exe, NULL, &attr, argv, t->envp);
	posix_spawnattr_destroy(&attr);
	if (rc)
		die(1, "cannot run '%s': %s", t->exe, strerror(rc));
	child = pid;
	*root_pid = pid;
	sigprocmask(SIG_SETMASK, &prev, NULL);
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			die(1, "cannot wait for the run: %s", strerror(errno));
		pass_on_caught();
	}
	/* Reaped: its pid may be another process's from now on. */
	sigprocmask(SIG_BLOCK, &caught_set, NULL);
	child = 0;
	sigprocmask(SIG_SETMASK, &prev, NULL);
	/* Processes of the run that outlived it (a daemon's child) are
	 * cg_run's now (a subreaper: main): their profiles are still to be
	 * written into the run's folder.  They are waited for up to
	 * RUN_ORPHAN_WAIT_MS, never for ever (a server the program started
	 * may never end); a signal caught meanwhile is passed on to them. */
	start_ms = now_ms();
	for (;;) {
		int ost;
		pid_t w;

		pass_on_caught();
		w = waitpid(-1, &ost, WNOHANG);
		if (w > 0)
			forget_left_over((long)w);
		if (w > 0 || (w < 0 && errno == EINTR))
			continue;
		if (w < 0 || (nleft_over && !run_children(0)))
			break;          /* none left (but an earlier run's) */
		if (now_ms() - start_ms >= RUN_ORPHAN_WAIT_MS) {
			char *who = orphans_text();

			warning("a process the program started is still running after %d s "
				"(%s): its profile will be missing", RUN_ORPHAN_WAIT_MS / 1000,
				who ? who : "it could not be named");
			free(who);
			run_children(1);
			break;
		}
		usleep(10000);
	}
	free(out);
	free(argv);
	if (caught)
		return -caught;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
