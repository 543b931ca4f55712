/* cgp_buf.c -- errors, the growable buffer and the streaming line reader of the profile library. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgp.h"

/* Returned text when even the message cannot be allocated. */
static char nomem_msg[] = "out of memory";

/* Sets e to code and the message fmt/ap, followed by ": strerror(errnum)"
 * when errnum is not 0. */
static int error_vset(struct cgp_error *e, int code, int errnum, const char *fmt,
		      va_list ap)
{
	va_list aq;
	const char *why = errnum ? strerror(errnum) : NULL;
	size_t extra = why ? strlen(why) + 2 : 0;
	int n;
	char *m;

	cgp_error_release(e);
	e->code = code;
	e->errnum = errnum;
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	m = n < 0 ? NULL : malloc((size_t)n + extra + 1);
	if (!m) {
		e->msg = nomem_msg;
		return code;
	}
	vsnprintf(m, (size_t)n + 1, fmt, ap);
	if (why) {
		memcpy(m + n, ": ", 2);
		memcpy(m + n + 2, why, extra - 1); /* with its NUL */
	}
	e->msg = m;
	return code;
}

int cgp_error_set(struct cgp_error *e, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(e, code, 0, fmt, ap);
	va_end(ap);
	return code;
}

int cgp_error_sys(struct cgp_error *e, int code, int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(e, code, errnum, fmt, ap);
	va_end(ap);
	return code;
}

void cgp_error_release(struct cgp_error *e)
{
	if (e->msg != nomem_msg)
		free(e->msg);
	e->msg = NULL;
	e->code = 0;
	e->errnum = 0;
}

int cgp_buf_grow(struct cgp_buf *b, size_t extra)
{
	size_t need, ncap;
	char *p;

	if (extra > b->max || b->len > b->max - extra)
		return -1;
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	ncap = b->cap ? b->cap : 64;
	while (ncap < need)
		ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
	p = realloc(b->s, ncap);
	if (!p)
		return -1;
	b->s = p;
	b->cap = ncap;
	return 0;
}

int cgp_buf_add(struct cgp_buf *b, const void *p, size_t n)
{
	if (cgp_buf_grow(b, n))
		return -1;
	if (n)
		memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

int cgp_buf_adds(struct cgp_buf *b, const char *s)
{
	return cgp_buf_add(b, s, strlen(s));
}

int cgp_buf_addf(struct cgp_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || cgp_buf_grow(b, (size_t)n))
		return -1;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

void cgp_buf_reset(struct cgp_buf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

void cgp_buf_release(struct cgp_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

int cgp_buf_add_pylist(struct cgp_buf *b, const int64_t *v, unsigned n)
{
	unsigned i;
	char num[32];

	if (cgp_buf_add(b, "[", 1))
		return -1;
	for (i = 0; i < n; i++) {
		if (i && cgp_buf_add(b, ", ", 2))
			return -1;
		if (cgp_buf_add(b, num, cgp_fmt_int(num, v[i])))
			return -1;
	}
	return cgp_buf_add(b, "]", 1);
}

/* ------------------------------------------------------------------------ */
/* UTF-8 and white space                                                     */
/* ------------------------------------------------------------------------ */

/* Length of the valid UTF-8 sequence (as Python's strict decoder defines
 * it: no overlong forms, no surrogates, nothing above U+10FFFF) that
 * starts a non-ASCII byte at s, or 0 if none does. */
static size_t utf8_seq(const unsigned char *s, const unsigned char *end)
{
	unsigned c = *s;

	if (c >= 0xc2 && c <= 0xdf)
		return end - s >= 2 && (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		unsigned lo = c == 0xe0 ? 0xa0 : 0x80;
		unsigned hi = c == 0xed ? 0x9f : 0xbf; /* no surrogates */
		return end - s >= 3 && s[1] >= lo && s[1] <= hi &&
		       (s[2] & 0xc0) == 0x80 ? 3 : 0;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		unsigned lo = c == 0xf0 ? 0x90 : 0x80;
		unsigned hi = c == 0xf4 ? 0x8f : 0xbf;
		return end - s >= 4 && s[1] >= lo && s[1] <= hi &&
		       (s[2] & 0xc0) == 0x80 && (s[3] & 0xc0) == 0x80 ? 4 : 0;
	}
	return 0;
}

int cgp_utf8_valid(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + n;

	while (s < end) {
		size_t k;
		/* Fast path: eight ASCII bytes at a time. */
		if (*s < 0x80) {
			while (end - s >= 8) {
				uint64_t w;
				memcpy(&w, s, 8);
				if (w & 0x8080808080808080ull)
					break;
				s += 8;
			}
			if (s < end && *s < 0x80)
				s++;
			continue;
		}
		k = utf8_seq(s, end);
		if (!k)
			return 0;
		s += k;
	}
	return 1;
}

size_t cgp_utf8_len(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + n;
	size_t k = 0, q;

	while (s < end) {
		q = *s < 0x80 ? 1 : utf8_seq(s, end);
		s += q ? q : 1;   /* an invalid byte counts alone */
		k++;
	}
	return k;
}

size_t cgp_space_len(const char *s, const char *end)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = (size_t)(end - s);
	unsigned cp;

	if (!left)
		return 0;
	/* ASCII: \t \n \v \f \r, 0x1c-0x1f and the space (Python's set). */
	if (p[0] < 0x80)
		return (p[0] >= 0x09 && p[0] <= 0x0d) ||
		       (p[0] >= 0x1c && p[0] <= 0x20);
	if (p[0] == 0xc2 && left >= 2)
		return (p[1] == 0x85 || p[1] == 0xa0) ? 2 : 0;
	/* Names may hold any bytes: only a valid sequence is a space. */
	if ((p[0] & 0xf0) != 0xe0 || utf8_seq(p, p + left) != 3)
		return 0;
	cp = ((p[0] & 0x0fu) << 12) | ((p[1] & 0x3fu) << 6) | (p[2] & 0x3fu);
	if (cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 ||
	    cp == 0x2029 || cp == 0x202f || cp == 0x205f || cp == 0x3000)
		return 3;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Line reader                                                               */
/* ------------------------------------------------------------------------ */

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
 * when a line does not fit.  Returns 0, or a negative code. */
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
		p = realloc(r->buf, ncap);
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
	if (got < 0)
		return cgp_error_sys(err, CGP_EIO, errno, "cannot read '%s'", r->path);
	if (got == 0)
		r->eof = 1;
	r->end += (size_t)got;
	return 0;
}

int cgp_reader_next(struct cgp_reader *r, const char **line, size_t *len,
		    struct cgp_error *err)
{
	size_t scanned = 0;

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
	if (lseek(r->fd, 0, SEEK_SET) < 0)
		return cgp_error_sys(err, CGP_EIO, errno, "cannot read '%s' again", r->path);
	r->pos = r->end = 0;
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
	free(r->buf);
	r->buf = NULL;
}
