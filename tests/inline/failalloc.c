/* failalloc.c -- an LD_PRELOAD library for tests: the Nth allocation that libdw itself asks for fails. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * FAILALLOC_NTH=N: the Nth call of malloc, calloc or realloc made from
 * code of libdw (its caller's address lies in an object whose name holds
 * "libdw") returns NULL with errno ENOMEM; every other call is served as
 * usual.  FAILALLOC_COUNT=FILE: at exit, the number of such calls is
 * written to FILE (run with N = 0 first to learn how many there are).
 * libdw's unchecked allocations are the ones this finds.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

static long nth = -1, seen;
static int ready;

static void init(void)
{
	const char *n = getenv("FAILALLOC_NTH");

	ready = 1;
	nth = n ? atol(n) : 0;
}

/* 1 if this call, made from ret, is to fail. */
static int fails(void *ret)
{
	Dl_info info;

	if (!ready)
		init();
	if (!dladdr(ret, &info) || !info.dli_fname || !strstr(info.dli_fname, "libdw"))
		return 0;
	if (++seen != nth)
		return 0;
	errno = ENOMEM;
	return 1;
}

void *malloc(size_t n)
{
	return fails(__builtin_return_address(0)) ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	return fails(__builtin_return_address(0)) ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	return fails(__builtin_return_address(0)) ? NULL : __libc_realloc(p, n);
}

__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("FAILALLOC_COUNT");
	FILE *f;

	if (path && (f = fopen(path, "w"))) {
		fprintf(f, "%ld\n", seen);
		fclose(f);
	}
}
