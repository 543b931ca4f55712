/* cgp_utf8.c -- UTF-8 as Python's strict decoder defines it, and Python's white space, for the profile library. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <stdint.h>
#include <string.h>

#include "cgp.h"

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

size_t cgp_utf8_seq(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	return n && *p >= 0x80 ? utf8_seq(p, p + n) : 0;
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

size_t cgp_utf8_cut(const char *s, size_t n, size_t max)
{
	size_t q = max;

	if (n <= max)
		return n;
	while (q + 4 > max && q > 0 && ((unsigned char)s[q] & 0xc0) == 0x80)
		q--;
	return q;
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
