/* prog_die.c -- the companions' start, die/error/warning messages and checked allocation. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE /* fopencookie */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prog.h"

const char *prog_name = "cg";

/* Descriptors 0, 1 and 2 that the program was started without are held
 * by /dev/null (where it cannot be opened, by the root folder), opened so
 * that they still fail as closed ones do (a
 * write to 1 or 2, a read from 0: EBADF): otherwise the next file opened
 * would get the number, and a message meant for standard error, or a
 * report meant for standard output, would go into it (an output
 * profile, say). */
static void hold_std_descriptors(void)
{
	/* Close-on-exec: a program that cg_run starts gets them closed, as
	 * they were. */
	static const int flags[3] = { O_WRONLY | O_CLOEXEC, O_RDONLY | O_CLOEXEC,
				      O_RDONLY | O_CLOEXEC };
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		int got = open("/dev/null", flags[fd]);
		/* No /dev/null (a bare chroot): the root folder, read-only,
		 * which no write reaches either (a read gets EISDIR). */
		if (got < 0)
			got = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (got >= 0 && got != fd)
			close(got);
		if (got != fd)
			return;     /* nothing to hold them with */
	}
}

void prog_init(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	hold_std_descriptors();
	if (argv0 && *argv0)
		prog_name = slash ? slash + 1 : argv0;
	prog_catch_faults();
}

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s: ", prog_name, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static void (*die_hook)(void);

void prog_on_die(void (*fn)(void))
{
	die_hook = fn;
}

void die(int status, const char *fmt, ...)
{
	void (*fn)(void) = die_hook;
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", fmt, ap);
	va_end(ap);
	die_hook = NULL;
	if (fn)
		fn();
	exit(status);
}

void die_cgp(const struct cgp_error *e)
{
	die(1, "%s", e->msg ? e->msg : "unknown failure");
}

void prog_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", fmt, ap);
	va_end(ap);
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning", fmt, ap);
	va_end(ap);
}

/* Why standard output failed: the errno of the first failed write. */
static int stdout_errnum;

/* The write function of the stdio stream that stands in for stdout:
 * fopencookie wants the count written, or 0 for an error. */
static ssize_t stdout_write(void *cookie, const char *p, size_t n)
{
	int e = cgp_write_all(STDOUT_FILENO, p, n);

	if (e) {
		if (!stdout_errnum)
			stdout_errnum = e;
		errno = e;
		return 0;
	}
	return (ssize_t)n;
}

void prog_stdout_init(void)
{
	static char buf[1 << 16];
	cookie_io_functions_t io = { NULL, stdout_write, NULL, NULL };
	FILE *f = fopencookie(NULL, "w", io);

	/* glibc lets a program assign stdout; without memory the plain
	 * stdout stays (its errors are still caught, without a reason). */
	if (f && setvbuf(f, buf, _IOFBF, sizeof buf) == 0)
		stdout = f;
}

void finish_stdout(void)
{
	int bad = fflush(stdout) != 0 || ferror(stdout);

	if (bad && stdout_errnum)
		die(1, "cannot write the output: %s", strerror(stdout_errnum));
	if (bad)
		die(1, "cannot write the output: %s", "write error");
}

void *xmalloc(size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		die(1, "out of memory");
	p = malloc(n && size ? n * size : 1);
	if (!p)
		die(1, "out of memory");
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die(1, "out of memory");
	return p;
}

void *xrealloc(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		die(1, "out of memory");
	p = realloc(p, n && size ? n * size : 1);
	if (!p)
		die(1, "out of memory");
	return p;
}
