/* prog_outfile.c -- a companion's output file (-o FILE): complete or absent, also when the program dies, crashes or a signal stops it. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prog.h"

/* The output file while it is being written (the program's; one at a
 * time), for the exit handler. */
static struct cgp_outfile *current;

/* The signals whose default action ends the program and that a user or the
 * system sends to stop it, not faults of the program itself: SIGXFSZ (a
 * write beyond ulimit -f) and SIGPIPE (a closed standard output:
 * cg_annotate --html ... | head) included. */
static const int stop_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGXCPU, SIGXFSZ, SIGPIPE, SIGALRM,
	SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF
};
#define NSTOP (sizeof stop_signals / sizeof stop_signals[0])

/* The temporary file's name (current->tmp) while it exists, for the
 * signal handler; changed only with those signals blocked. */
static const char *volatile tmp_to_remove;

/* The faults that end a program (its own bugs, or a library's). */
static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
#define NFAULT (sizeof fault_signals / sizeof fault_signals[0])

/* Blocks the stop signals and the faults (their mask before goes to
 * *old, for restore_signals) while the temporary file's name and
 * tmp_to_remove disagree: a fault signal sent by another process (kill
 * -SEGV) then waits until the handler knows the file.  A real fault in
 * that window still ends the program (the kernel does not let a blocked
 * fault be held). */
static void block_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < NSTOP; i++)
		sigaddset(&set, stop_signals[i]);
	for (i = 0; i < NFAULT; i++)
		sigaddset(&set, fault_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* The mask as it was before block_signals: signals the program was started
 * with blocked stay blocked. */
static void restore_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* Async-signal-safe: removes the partial temporary file, then lets the
 * signal end the program as it would have (the handler was reset to the
 * default on entry, and the signal stays blocked until we return). */
static void on_stop_signal(int sig)
{
	const char *t = tmp_to_remove;

	if (t)
		unlink(t);
	raise(sig);
}

/* Installs sa for each of the n signals sigs that has its default action:
 * not for signals ignored from the start (a program run in the background
 * by a shell keeps SIGINT ignored), nor caught already (SIGPROF by a -pg
 * build's profiler, SIGSEGV by a sanitizer). */
static void catch_where_default(const int *sigs, size_t n, const struct sigaction *sa)
{
	struct sigaction old;
	size_t i;

	for (i = 0; i < n; i++)
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
			sigaction(sigs[i], sa, NULL);
}

/* A handler's action: reset to the default on entry, the stop signals
 * blocked while it runs. */
static void handler_action(struct sigaction *sa, void (*handler)(int))
{
	size_t i;

	memset(sa, 0, sizeof *sa);
	sa->sa_handler = handler;
	sa->sa_flags = SA_RESETHAND;
	for (i = 0; i < NSTOP; i++)
		sigaddset(&sa->sa_mask, stop_signals[i]);
}

static void catch_stop_signals(void)
{
	struct sigaction sa;

	handler_action(&sa, on_stop_signal);
	catch_where_default(stop_signals, NSTOP, &sa);
}

/* At exit after an error: the temporary file goes, signals or not (after
 * the commit this does nothing). */
static void remove_partial_output(void)
{
	sigset_t old;

	block_signals(&old);
	tmp_to_remove = NULL;
	cgp_outfile_abort(current);
	restore_signals(&old);
}

void prog_outfile_open(struct cgp_outfile *of, const char *path)
{
	struct cgp_error err = CGP_ERROR_INIT;
	sigset_t old;
	int rc;

	block_signals(&old);
	rc = cgp_outfile_open(of, path, &err);
	if (rc == 0) {
		tmp_to_remove = of->tmp;
		catch_stop_signals();
	}
	restore_signals(&old);
	if (rc)
		die_cgp(&err);
	current = of;
	atexit(remove_partial_output);
	if (of->inplace)
		warning("%s", of->warning.s);
}

/* ---- faults ---------------------------------------------------------------- */

/* prog_fault_enter()'s text while a library works (NULL otherwise). */
static const char *volatile fault_what, *volatile fault_file, *volatile fault_why;

/* A stack for the handler, so that a stack overflow is caught too. */
static char fault_stack[64 * 1024];

static void put(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	ssize_t w;

	while (n > 0 && (w = write(2, s, n)) > 0) {
		s += w;
		n -= (size_t)w;
	}
}

static const char *fault_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGABRT: return "SIGABRT";
	case SIGFPE: return "SIGFPE";
	default: return "SIGILL";
	}
}

/* Async-signal-safe (write, unlink, _exit): the partial temporary file
 * goes; in a library's work, a message and status 1; otherwise the
 * program dies of the signal as it would have, core dump and all (the
 * handler was reset to the default on entry). */
static void on_fault(int sig)
{
	const char *t = tmp_to_remove, *what = fault_what;

	if (t)
		unlink(t);
	if (what) {
		put(prog_name);
		put(": error: fatal signal ");
		put(fault_name(sig));
		put(" while ");
		put(what);
		put(" ");
		put(fault_file);
		put(": ");
		put(fault_why);
		put("\n");
		_exit(1);
	}
	raise(sig);
}

void prog_catch_faults(void)
{
	struct sigaction sa;
	stack_t st;

	memset(&st, 0, sizeof st);
	st.ss_sp = fault_stack;
	st.ss_size = sizeof fault_stack;
	handler_action(&sa, on_fault);
	if (sigaltstack(&st, NULL) == 0)
		sa.sa_flags |= SA_ONSTACK;
	catch_where_default(fault_signals, NFAULT, &sa);
}

void prog_fault_enter(const char *what, const char *file, const char *why)
{
	fault_file = file;
	fault_why = why;
	fault_what = what;
}

void prog_fault_leave(void)
{
	fault_what = NULL;
}

void prog_outfile_commit(struct cgp_outfile *of)
{
	struct cgp_error err = CGP_ERROR_INIT, warn = CGP_ERROR_INIT;
	sigset_t old;
	int rc;

	/* A signal now finds either the temporary file or the complete
	 * output under its name.  A warning that it was written in place is
	 * printed before a signal held meanwhile ends the program. */
	block_signals(&old);
	tmp_to_remove = NULL;
	rc = cgp_outfile_commit(of, &warn, &err);
	prog_replace_warning(&warn);
	restore_signals(&old);
	if (rc)
		die_cgp(&err);
}

void prog_replace_warning(struct cgp_error *warn)
{
	if (warn->msg)
		warning("%s; writing it in place, not atomically", warn->msg);
	cgp_error_release(warn);
}
