/* signal-in-window.c -- preloaded into cg_merge by merge-outfile.sh: sends
 * the process a signal from inside fchmod() (called right after the
 * temporary file is made) or rename() (the commit), the two moments when
 * the temporary file's name and the signal handler's copy of it disagree.
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * SIGNAL_IN_CALL: "fchmod" or "rename"; SIGNAL_IN_NUM: the signal number.
 * The signal is sent once, before the real call is made.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void maybe_signal(const char *call)
{
	static int sent;
	const char *want = getenv("SIGNAL_IN_CALL"), *num = getenv("SIGNAL_IN_NUM");

	if (sent || !want || !num || strcmp(want, call) != 0)
		return;
	sent = 1;
	kill(getpid(), atoi(num));
}

int fchmod(int fd, mode_t mode)
{
	int (*real)(int, mode_t) = (int (*)(int, mode_t))dlsym(RTLD_NEXT, "fchmod");

	maybe_signal("fchmod");
	return real(fd, mode);
}

int rename(const char *from, const char *to)
{
	int (*real)(const char *, const char *) =
		(int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");

	maybe_signal("rename");
	return real(from, to);
}
