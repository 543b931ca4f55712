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

int cgp_reader_map(struct cgp_reader *r)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size, len;
	struct stat st;
	char *p;

	if (r->buf || fstat(r->fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > SIZE_MAX / 2)
		return 0;
	size = (size_t)st.st_size;
	/* An anonymous page after the file's: the zero bytes of the slack
	 * even when the file ends at a page boundary. */
	len = (size + page - 1) / page * page + page;
	p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 0;
	if (mmap(p, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, r->fd, 0) == MAP_FAILED) {
		munmap(p, len);
		return 0;
	}
	madvise(p, size, MADV_SEQUENTIAL);
	r->buf = p;
	r->maplen = len;
	r->cap = r->end = size;
	r->eof = 1;
	return 1;
}

void cgp_reader_drop(struct cgp_reader *r)
{
	size_t upto = r->pos & ~((size_t)sysconf(_SC_PAGESIZE) - 1);

	if (!r->maplen || upto <= r->dropped)
		return;
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
			rc = fill(r, err);
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
		r->pos = r->dropped = 0;
		r->lineno = 0;
		r->had_nl = 0;
		return 0;
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
