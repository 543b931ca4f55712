/* inject.c -- preloaded into cg_merge by merge-outfile.sh: makes the
 * moments of writing an output file happen on demand.
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * INJECT_SIGNAL_IN=fchmod|rename|sigaction, INJECT_SIGNAL=N: sends the
 * process signal N once, from inside fchmod() (called right after the
 * temporary file is made) or rename() (the commit), the two moments when
 * the temporary file's name and the signal handler's copy of it disagree,
 * or right after a sigaction() that installs a SA_SIGINFO handler for N
 * (the handler of SIGBUS on a mapped input).
 * INJECT_RENAME_ERRNO=N: rename() fails with errno N without renaming (as
 * over a file bind-mounted into a container: EBUSY).  With
 * INJECT_RENAME_SWAP=fifo or link, the target is first replaced by a FIFO
 * or by a symbolic link to "victim" (what the other user may do in a
 * sticky folder between the rename and the writing in place).
 * INJECT_WRITE_ERRNO=N: after a rename() failed so, every write() fails
 * with errno N (a device failing in the middle of the in-place copy).
 * INJECT_NO_DEVNULL=1: /dev/null cannot be opened (ENOENT), as in a bare
 * chroot or container.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int renamed_failed;

/* The number in the environment variable name, or 0. */
static int env_number(const char *name)
{
	const char *s = getenv(name);

	return s ? (int)strtol(s, NULL, 10) : 0;
}

static void maybe_signal(const char *call)
{
	static int sent;
	const char *want = getenv("INJECT_SIGNAL_IN");
	int sig = env_number("INJECT_SIGNAL");

	if (sent || !want || sig <= 0 || strcmp(want, call) != 0)
		return;
	sent = 1;
	kill(getpid(), sig);
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	int (*real)(int, const struct sigaction *, struct sigaction *) =
		(int (*)(int, const struct sigaction *, struct sigaction *))
		dlsym(RTLD_NEXT, "sigaction");
	int rc = real(sig, act, old);

	if (rc == 0 && act && (act->sa_flags & SA_SIGINFO) &&
	    sig == env_number("INJECT_SIGNAL"))
		maybe_signal("sigaction");
	return rc;
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
	int e = env_number("INJECT_RENAME_ERRNO");

	const char *swap = getenv("INJECT_RENAME_SWAP");

	maybe_signal("rename");
	if (e > 0 && swap && unlink(to) == 0) {
		if (!strcmp(swap, "fifo"))
			mkfifo(to, 0666);
		else
			symlink("victim", to);
	}
	if (e > 0) {
		renamed_failed = 1;
		errno = e;
		return -1;
	}
	return real(from, to);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	ssize_t (*real)(int, const void *, size_t) =
		(ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	int e = env_number("INJECT_WRITE_ERRNO");

	if (renamed_failed && e > 0 && fd > 2) {
		errno = e;
		return -1;
	}
	return real(fd, buf, n);
}

/* open(), open64(), openat() and openat64() of "/dev/null" fail with
 * ENOENT under INJECT_NO_DEVNULL; anything else is opened. */
static int no_devnull(const char *path)
{
	if (getenv("INJECT_NO_DEVNULL") && path && !strcmp(path, "/dev/null")) {
		errno = ENOENT;
		return 1;
	}
	return 0;
}

#define INJECT_OPEN(name, params, args)                                     \
	int name params                                                     \
	{                                                                   \
		__typeof__(&name) real = (__typeof__(&name))dlsym(RTLD_NEXT, #name); \
		va_list ap;                                                 \
		mode_t mode;                                                \
		if (no_devnull(path))                                       \
			return -1;                                          \
		va_start(ap, flags);                                        \
		mode = (mode_t)va_arg(ap, int);                             \
		va_end(ap);                                                 \
		return real args;                                           \
	}
INJECT_OPEN(open, (const char *path, int flags, ...), (path, flags, mode))
INJECT_OPEN(open64, (const char *path, int flags, ...), (path, flags, mode))
INJECT_OPEN(openat, (int dir, const char *path, int flags, ...), (dir, path, flags, mode))
INJECT_OPEN(openat64, (int dir, const char *path, int flags, ...), (dir, path, flags, mode))
