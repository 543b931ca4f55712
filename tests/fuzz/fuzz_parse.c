/* fuzz_parse.c -- libFuzzer target: the profile parser in its three modes, the writers and s/// expressions. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * The first input byte chooses what is exercised: its value modulo 4
 *   0-2  the rest is a profile read in ANNOTATE, MERGE or DIFF mode (twice,
 *        the second time negated or as a second file), then written out
 *        the way cg_merge / cg_diff would;
 *   3    the rest (up to a NUL) is a --mod-* expression, applied to the
 *        text after the NUL.
 * The profile is handed over through a memfd so that the real streaming
 * reader is what gets fuzzed.  Its chunk size is x * x bytes for x = the
 * first byte / 4 (1, 4, 9, ... 3969), or for x = 0 the default, with
 * which a regular file such as the memfd is mapped (cgp_reader_map()):
 * small inputs then reach every path of the buffer's refilling ("\r\n"
 * split across two reads, a line longer than the buffer) and of the
 * mapping, no input pays for a 2 MiB buffer, and few pay for a read(2)
 * per byte, which is where most of the time goes.  The seeds named
 * chunk-* start with such bytes.  ANNOTATE reads with an odd chunk size
 * keep the instruction rows of an instruction-level profile (MERGE reads
 * always do).  Each profile is also read a second time with
 * general_only, and the two reads must agree (prof_same.h): the fast path
 * of count lines against the general one.
 */
#define _GNU_SOURCE
#include <config.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cgp.h"
#include "prof_same.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fd = -1;
static char path[64];
static struct cgp_out sink;
/* --mod-* expressions applied on the second read of a profile. */
static struct cgp_subst *mod_fl, *mod_fn;

/* A failure must always come with a message. */
static void check(int rc, const struct cgp_error *err)
{
	if (rc && !err->msg)
		abort();
}

/* Reads the file again with opts o and general_only, with mode: the result
 * must be p's (rc, err) exactly. */
static void same_as_general(enum cgp_mode mode, struct cgp_read_opts o, int rc,
			    const struct cgp_error *err, const struct cgp_profile *p)
{
	struct cgp_profile g;
	struct cgp_error e = CGP_ERROR_INIT;
	int rg;

	o.general_only = 1;
	cgp_profile_init(&g, mode);
	rg = cgp_profile_read(&g, path, &o, &e);
	if (rg != rc || (rc ? strcmp(e.msg, err->msg) : !prof_same(p, &g)))
		abort();
	cgp_error_release(&e);
	cgp_profile_release(&g);
}

static void read_profile(enum cgp_mode mode, size_t chunk, const uint8_t *data,
			 size_t size)
{
	struct cgp_profile p, q;
	struct cgp_read_opts o;
	struct cgp_error err = CGP_ERROR_INIT;
	int rc;

	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	memset(&o, 0, sizeof o);
	o.read_chunk = chunk;
	o.keep_instrs = mode == CGP_MODE_ANNOTATE && chunk % 2;
	cgp_profile_init(&p, mode);
	rc = cgp_profile_read(&p, path, &o, &err);
	check(rc, &err);
	same_as_general(mode, o, rc, &err, &p);
	if (rc == 0 && mode == CGP_MODE_DIFF) {
		cgp_profile_init(&q, mode);
		rc = cgp_profile_read(&q, path, &o, &err);
		check(rc, &err);
		if (rc == 0) {
			rc = cgp_diff(&q, &p, &err);
			check(rc, &err);
		}
		if (rc == 0)
			check(cgp_write_diff(&sink, &q, "a", "b", "c", "d", &err), &err);
		cgp_profile_release(&q);
	} else if (rc == 0) {
		o.negate = mode == CGP_MODE_ANNOTATE;
		o.mod_fl = mod_fl;
		o.mod_fn = mod_fn;
		rc = cgp_profile_read(&p, path, &o, &err);
		check(rc, &err);
		if (rc == 0 && mode == CGP_MODE_MERGE)
			check(cgp_write_merge(&sink, &p, &err), &err);
	}
	cgp_error_release(&err);
	cgp_profile_release(&p);
}

static void subst(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	size_t n;
	struct cgp_error err = CGP_ERROR_INIT;
	struct cgp_subst *x;

	memcpy(text, data, size);
	text[size] = '\0';
	n = strlen(text);
	x = cgp_subst_new(text, &err);
	if (x) {
		struct cgp_buf b = CGP_BUF_INIT(1 << 20);
		const char *in = n < size ? text + n + 1 : "";
		/* Any bytes: names need not be UTF-8. */
		cgp_subst_apply(x, in, strlen(in), &b, &err);
		cgp_buf_release(&b);
		cgp_subst_free(x);
	} else if (!err.msg) {
		abort(); /* a failure must come with a message */
	}
	cgp_error_release(&err);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t chunk;

	if (fd < 0) {
		struct cgp_error e = CGP_ERROR_INIT;
		fd = memfd_create("profile", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		cgp_out_init(&sink, open("/dev/null", O_WRONLY), "/dev/null");
		mod_fl = cgp_subst_new("s/^(.)(.*)$/\\2\\1/", &e);
		mod_fn = cgp_subst_new("s/[0-9]*/#/g", &e);
		if (sink.fd < 0 || !mod_fl || !mod_fn)
			abort();
	}
	if (size == 0)
		return 0;
	chunk = (size_t)(data[0] / 4u) * (data[0] / 4u);
	switch (data[0] % 4) {
	case 0: read_profile(CGP_MODE_ANNOTATE, chunk, data + 1, size - 1); break;
	case 1: read_profile(CGP_MODE_MERGE, chunk, data + 1, size - 1); break;
	case 2: read_profile(CGP_MODE_DIFF, chunk, data + 1, size - 1); break;
	case 3: subst(data + 1, size - 1); break;
	}
	return 0;
}
