/* cgp_reader.c -- the profile library's streaming line reader: universal newlines, a length limit, UTF-8 checked on request. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgp.h"

int cgp_reader_open(struct cgp_reader *r, const char *path, size_t maxline,
		    struct cgp_error *err)
{
	struct stat st;

	memset(r, 0, sizeof *r);
	r->fd = -1;
	r->path = path;
	r->maxline = maxline;
	r->chunk = CGP_READ_CHUNK;
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0)
		return cgp_error_sys(err, CGP_EIO, errno, "cannot open '%s'", path);
	if (fstat(r->fd, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			close(r->fd);
			r->fd = -1;
			return cgp_error_sys(err, CGP_EIO, EISDIR, "cannot open '%s'",
					     path);
		}
		r->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 +
			      st.st_mtim.tv_nsec;
	}
	return 0;
}

/* Reads more input after the unread bytes [pos, end); grows the buffer
 * when a line does not fit.  The CGP_READ_SLACK bytes after end are kept
 * zero (cgp_reader_peek()).  Returns 0, or a negative code. */
static int fill(struct cgp_reader *r, struct cgp_error *err)
{
	size_t keep = r->end - r->pos;
	ssize_t got;

	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, keep);
		r->pos = 0;
		r->end = keep;
	}
	if (r->cap - r->end < r->chunk) {
		size_t ncap = r->cap ? r->cap * 2 : 2 * r->chunk;
		char *p;
		if (keep > r->maxline)
			return cgp_error_set(err, CGP_EPARSE, "%s:%llu: line too long",
					     r->path,
					     (unsigned long long)r->lineno + 1);
		while (ncap - r->end < r->chunk)
			ncap *= 2;
		p = realloc(r->buf, ncap + CGP_READ_SLACK);
		if (!p)
			return cgp_error_set(err, CGP_ENOMEM, "out of memory");
		r->buf = p;
		r->cap = ncap;
	}
	/* At most one chunk per read, so that the reads of a regular file
	 * end at multiples of the chunk size (a small one in the tests). */
	do
		got = read(r->fd, r->buf + r->end, r->chunk);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		memset(r->buf + r->end, 0, CGP_READ_SLACK);
		return cgp_error_sys(err, CGP_EIO, errno, "cannot read '%s'", r->path);
	}
	if (got == 0)
		r->eof = 1;
	r->end += (size_t)got;
	memset(r->buf + r->end, 0, CGP_READ_SLACK);
	return 0;
}

/* Maps the next CGP_MAP_WINDOW bytes of a mapped file (or what is left of
 * it) at their place in the reserved region, after the bytes [0, end)
 * mapped so far (end a multiple of the window, so of the page size).  Only
 * the mapped part is file-backed: the kernel cannot map pages far ahead of
 * the reader (it maps whole large folios on a fault), and the bytes after
 * end are the region's zero pages, the slack of cgp_reader_peek().
 * Returns 0, or CGP_EIO. */
static int map_more(struct cgp_reader *r, struct cgp_error *err)
{
	size_t off = r->end, n = r->cap - off;

	if (n > CGP_MAP_WINDOW)
		n = CGP_MAP_WINDOW;
	if (n && mmap(r->buf + off, n, PROT_READ, MAP_PRIVATE | MAP_FIXED, r->fd,
		      (off_t)off) == MAP_FAILED)
		return cgp_error_sys(err, CGP_EIO, errno, "cannot read '%s'", r->path);
	if (n)
		madvise(r->buf + off, n, MADV_SEQUENTIAL);
	r->end = off + n;
	r->eof = r->end >= r->cap;
	cgp_heap_check();
	return 0;
}

/* Makes the whole reserved region anonymous again (zero pages), nothing
 * of the file mapped: 0, or -1. */
static int map_reset(struct cgp_reader *r)
{
	if (mmap(r->buf, r->maplen, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		 -1, 0) == MAP_FAILED)
		return -1;
	r->pos = r->end = r->dropped = 0;
	r->eof = 0;
	return 0;
}

int cgp_reader_map(struct cgp_reader *r)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size, len;
	struct cgp_error err = CGP_ERROR_INIT;
	struct stat st;
	char *p;

	if (r->buf || fstat(r->fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > SIZE_MAX / 2 || CGP_MAP_WINDOW % page)
		return 0;
	size = (size_t)st.st_size;
	cgp_heap_input((uint64_t)size);
	/* The file's place, and an anonymous page after it: the zero bytes
	 * of the slack even when the file ends at a page boundary.  The file
	 * is mapped into it a window at a time (map_more()). */
	len = (size + page - 1) / page * page + page;
	p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 0;
	r->buf = p;
	r->maplen = len;
	r->cap = size;
	r->end = r->pos = r->dropped = 0;
	if (map_more(r, &err)) {
		cgp_error_release(&err);
		munmap(p, len);
		r->buf = NULL;
		r->maplen = r->cap = r->end = 0;
		r->eof = 0;
		return 0;
	}
	return 1;
}

/* The pages behind the reader are replaced with the region's zero pages
 * (not just released with MADV_DONTNEED): a fault on a mapped file may
 * map the pages of the whole large folio around it (up to 2 MiB on Linux
 * 6), and pages already released but still in the file's mapping would
 * come back with it.  Only the lines behind pos go: a line returned by
 * cgp_reader_next() stays until the next call, as documented. */
void cgp_reader_drop(struct cgp_reader *r)
{
	size_t upto = r->pos & ~((size_t)sysconf(_SC_PAGESIZE) - 1);

	if (!r->maplen || upto <= r->dropped)
		return;
	if (mmap(r->buf + r->dropped, upto - r->dropped, PROT_READ,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		madvise(r->buf + r->dropped, upto - r->dropped, MADV_DONTNEED);
	r->dropped = upto;
}

int cgp_reader_next(struct cgp_reader *r, const char **line, size_t *len,
		    struct cgp_error *err)
{
	size_t scanned = 0;

	if (r->maplen && r->pos - r->dropped >= CGP_MAP_WINDOW)
		cgp_reader_drop(r);
	if (!r->buf) {
		int rc = fill(r, err);
		if (rc)
			return rc;
	}
	for (;;) {
		char *p = r->buf + r->pos, *e = r->buf + r->end;
		char *nl = memchr(p + scanned, '\n', (size_t)(e - p) - scanned);
		char *stop = nl ? nl : e;
		char *cr = memchr(p + scanned, '\r', (size_t)(stop - p) - scanned);
		size_t n, skip;
		int rc;

		if (cr && (cr + 1 < e || r->eof)) {
			/* "\r\n" or a lone "\r" ends the line. */
			n = (size_t)(cr - p);
			skip = n + 1 + (cr + 1 < e && cr[1] == '\n');
			r->had_nl = 1;
		} else if (nl && !cr) {
			n = (size_t)(nl - p);
			skip = n + 1;
			r->had_nl = 1;
		} else if (r->eof) {
			if (p == e) {
				r->lineno++;
				return 0;
			}
			n = skip = (size_t)(e - p);
			r->had_nl = 0;
		} else {
			/* Need more: remember how far we looked (minus a
			 * trailing "\r", which may pair with a "\n"). */
			scanned = (size_t)(e - p);
			if (cr)
				scanned = (size_t)(cr - p);
			rc = r->maplen ? map_more(r, err) : fill(r, err);
			if (rc)
				return rc;
			continue;
		}
		r->lineno++;
		if (n > r->maxline)
			return cgp_error_set(err, CGP_EPARSE, "%s:%llu: line too long",
					     r->path, (unsigned long long)r->lineno);
		if (r->check_utf8 && !cgp_utf8_valid(p, n))
			return cgp_error_set(err, CGP_EPARSE,
					     "%s:%llu: invalid UTF-8 text", r->path,
					     (unsigned long long)r->lineno);
		r->pos += skip;
		*line = p;
		*len = n;
		return 1;
	}
}

int cgp_reader_rewind(struct cgp_reader *r, struct cgp_error *err)
{
	if (r->maplen) {
		/* Windows of the end of the file may still be mapped where
		 * the slack of the first must be zero: start again. */
		if (map_reset(r))
			return cgp_error_sys(err, CGP_EIO, errno, "cannot read '%s' again",
					     r->path);
		r->lineno = 0;
		r->had_nl = 0;
		return map_more(r, err);
	}
	if (lseek(r->fd, 0, SEEK_SET) < 0)
		return cgp_error_sys(err, CGP_EIO, errno, "cannot read '%s' again", r->path);
	r->pos = r->end = 0;
	if (r->buf)
		memset(r->buf, 0, CGP_READ_SLACK);
	r->eof = 0;
	r->lineno = 0;
	r->had_nl = 0;
	return 0;
}

void cgp_reader_release(struct cgp_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	if (r->maplen)
		munmap(r->buf, r->maplen);
	else
		free(r->buf);
	r->buf = NULL;
	r->maplen = 0;
}
