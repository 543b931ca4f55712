/* cgp_buf.c -- the profile library's errors and its growable buffer with a maximum size. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
