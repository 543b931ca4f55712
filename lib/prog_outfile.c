/* prog_outfile.c -- a companion's output file (-o FILE): complete or absent, also when the program dies or a signal stops it. */
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

/* Blocks (how = SIG_BLOCK) or unblocks the stop signals. */
static void block_stop_signals(int how)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < NSTOP; i++)
		sigaddset(&set, stop_signals[i]);
	sigprocmask(how, &set, NULL);
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

/* Installs on_stop_signal where the signal has its default action: not
 * for signals ignored from the start (a program run in the background by a
 * shell keeps SIGINT ignored), nor caught already (SIGPROF by a -pg
 * build's profiler). */
static void catch_stop_signals(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal;
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < NSTOP; i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	for (i = 0; i < NSTOP; i++)
		if (sigaction(stop_signals[i], NULL, &old) == 0 &&
		    !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
			sigaction(stop_signals[i], &sa, NULL);
}

/* At exit after an error: the temporary file goes, signals or not (after
 * the commit this does nothing). */
static void remove_partial_output(void)
{
	block_stop_signals(SIG_BLOCK);
	tmp_to_remove = NULL;
	cgp_outfile_abort(current);
	block_stop_signals(SIG_UNBLOCK);
}

void prog_outfile_open(struct cgp_outfile *of, const char *path)
{
	struct cgp_error err = CGP_ERROR_INIT;
	int rc;

	block_stop_signals(SIG_BLOCK);
	rc = cgp_outfile_open(of, path, &err);
	if (rc == 0) {
		tmp_to_remove = of->tmp;
		catch_stop_signals();
	}
	block_stop_signals(SIG_UNBLOCK);
	if (rc)
		die_cgp(&err);
	current = of;
	atexit(remove_partial_output);
	if (of->inplace)
		warning("%s", of->warning.s);
}

void prog_outfile_commit(struct cgp_outfile *of)
{
	struct cgp_error err = CGP_ERROR_INIT;
	int rc;

	/* A signal now finds either the temporary file or the complete
	 * output under its name. */
	block_stop_signals(SIG_BLOCK);
	tmp_to_remove = NULL;
	rc = cgp_outfile_commit(of, &err);
	block_stop_signals(SIG_UNBLOCK);
	if (rc)
		die_cgp(&err);
}
