/* test_lib_heap.c -- unit test of cgp_heap.c: the heap of a program that opted in is populated as it grows, from the first large mapped input on.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   A program of its own: opting in changes malloc's settings for the whole
   process.  Exit 77 (SKIP) when the kernel does not know
   MADV_POPULATE_WRITE (before Linux 5.14), after the checks that do not
   need it. */

#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cgp.h"
#include "unit_check.h"

static char tmpdir[] = "/tmp/test_lib_heap.XXXXXX";

/* A scratch file of n bytes of short lines; returns its path (static). */
static const char *put_lines(const char *name, size_t n)
{
	static char path[256];
	FILE *f;
	size_t i;

	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(2);
	}
	for (i = 0; i < n; i++)
		putc(i % 64 == 63 ? '\n' : 'x', f);
	if (fclose(f)) {
		perror(path);
		exit(2);
	}
	return path;
}

/* Maps the file and reads it to the end, as the programs do. */
static void read_mapped(const char *path)
{
	struct cgp_reader r;
	struct cgp_error err = CGP_ERROR_INIT;
	const char *line;
	size_t len, n = 0;

	CHECKF(cgp_reader_open(&r, path, 1 << 20, &err) == 0, "open %s", path);
	CHECK(cgp_reader_map(&r) == 1);
	while (cgp_reader_next(&r, &line, &len, &err) == 1)
		n++;
	CHECKF(n > 0 && !err.msg, "%zu lines of %s", n, path);
	cgp_reader_release(&r);
	cgp_error_release(&err);
}

/* The pages of [lo, hi) that are not resident. */
static size_t absent_pages(uintptr_t lo, uintptr_t hi)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n, i, absent = 0;
	unsigned char *v;

	lo &= ~(uintptr_t)(page - 1);
	n = (hi - lo + page - 1) / page;
	v = malloc(n + 1);
	if (!v || mincore((void *)lo, hi - lo, v) != 0) {
		perror("mincore");
		exit(2);
	}
	for (i = 0; i < n; i++)
		absent += !(v[i] & 1);
	free(v);
	return absent;
}

/* Blocks of 100 KiB (below malloc's own-mapping threshold: from the heap)
 * of which only malloc's header is touched; 12 MiB in all. */
#define NBLOCKS 120
static void *blocks[NBLOCKS];

static uintptr_t grow_heap(void)
{
	uintptr_t before = (uintptr_t)sbrk(0);
	unsigned i;

	for (i = 0; i < NBLOCKS; i++) {
		blocks[i] = malloc(100 << 10);
		if (!blocks[i]) {
			perror("malloc");
			exit(2);
		}
	}
	return before;
}

static void free_blocks(void)
{
	unsigned i;

	for (i = 0; i < NBLOCKS; i++)
		free(blocks[i]);
}

int main(void)
{
	uintptr_t from, to;
	size_t absent, pages;
	int populated;

	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}

	/* Not opted in: a large input changes nothing. */
	unit_tests++;
	read_mapped(put_lines("large1", 2 << 20));
	CHECK(!cgp_heap_prefaulting());

	/* Opted in: an input below the minimum changes nothing ... */
	unit_tests++;
	cgp_heap_prefault(1 << 20);
	read_mapped(put_lines("small", 512 << 10));
	CHECK(!cgp_heap_prefaulting());

	/* ... and without population, most of a grown heap is absent (what
	 * the next check tells apart). */
	unit_tests++;
	from = grow_heap();
	to = (uintptr_t)sbrk(0);
	pages = (to - from) / (size_t)sysconf(_SC_PAGESIZE);
	absent = absent_pages(from, to);
	CHECKF(to - from >= (size_t)10 << 20 && absent > pages / 2,
	       "heap grew by %zu bytes, %zu of %zu pages absent", (size_t)(to - from),
	       absent, pages);
	free_blocks();

	/* The first large input starts it, and what the heap grows by from
	 * then on is resident at the next window the reader maps. */
	unit_tests++;
	read_mapped(put_lines("large2", 2 << 20));
	populated = cgp_heap_prefaulting();
#ifdef MADV_POPULATE_WRITE
	CHECK(populated);
#else
	CHECK(!populated);
#endif
	from = grow_heap();
	read_mapped(put_lines("large3", 256 << 10));
	to = (uintptr_t)sbrk(0);
	if (cgp_heap_prefaulting()) {
		absent = absent_pages(from, to);
		CHECKF(to > from && absent <= 1, "heap grew by %zu bytes, %zu pages absent",
		       (size_t)(to - from), absent);
	}
	free_blocks();

	{
		char cmd[300];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", tmpdir);
	}
	if (unit_finish("test_lib_heap"))
		return 1;
	if (!cgp_heap_prefaulting()) {
		printf("SKIP: this kernel does not populate with MADV_POPULATE_WRITE "
		       "(Linux 5.14 or later): the heap faults in as before\n");
		return 77;
	}
	return 0;
}
