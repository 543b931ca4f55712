/* prog_die.c -- the companions' die/error/warning messages and checked allocation. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"

const char *prog_name = "cg";

void prog_init(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	if (argv0 && *argv0)
		prog_name = slash ? slash + 1 : argv0;
}

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s: ", prog_name, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", fmt, ap);
	va_end(ap);
	exit(status);
}

void die_cgp(const struct cgp_error *e)
{
	die(1, "%s", e->msg ? e->msg : "unknown failure");
}

void error(const char *fmt, ...)
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

void finish_stdout(void)
{
	if (fflush(stdout) || ferror(stdout))
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
