/* cgp_num.c -- number parsing and formatting with Python's semantics for the profile library. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cgp.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Trims Python white space from both ends of [*s, *e). */
static void trim(const char **s, const char **e)
{
	size_t k;

	while (*s < *e && (k = cgp_space_len(*s, *e)) > 0)
		*s += k;
	/* Scan back: white space is 1 to 3 bytes long. */
	for (;;) {
		const char *p;
		int found = 0;
		for (p = *e - 1; p >= *s && p >= *e - 3; p--) {
			if (cgp_space_len(p, *e) == (size_t)(*e - p)) {
				*e = p;
				found = 1;
				break;
			}
		}
		if (!found)
			return;
	}
}

int cgp_parse_int(const char *str, size_t n, int64_t *out)
{
	const char *s = str, *e = str + n;
	int neg = 0;
	uint64_t v = 0, lim;

	trim(&s, &e);
	if (s < e && (*s == '+' || *s == '-'))
		neg = *s++ == '-';
	if (s == e || !is_digit(*s))
		return -1;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; s < e; s++) {
		unsigned d;
		if (*s == '_') {
			/* One "_" between two digits only. */
			if (s + 1 == e || !is_digit(s[1]))
				return -1;
			continue;
		}
		if (!is_digit(*s))
			return -1;
		d = (unsigned)(*s - '0');
		if (v > (lim - d) / 10) {
			/* Still reject malformed text before saying "range". */
			for (s++; s < e; s++)
				if (!is_digit(*s) && !(*s == '_' && s + 1 < e &&
						       is_digit(s[1])))
					return -1;
			return -2;
		}
		v = v * 10 + d;
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

/* Digits with single "_" separators; returns the end or NULL if none. */
static const char *digitpart(const char *s, const char *e)
{
	if (s >= e || !is_digit(*s))
		return NULL;
	s++;
	while (s < e) {
		if (is_digit(*s))
			s++;
		else if (*s == '_' && s + 1 < e && is_digit(s[1]))
			s += 2;
		else
			break;
	}
	return s;
}

static int word(const char *s, const char *e, const char *w)
{
	size_t n = strlen(w), i;

	if ((size_t)(e - s) != n)
		return 0;
	for (i = 0; i < n; i++)
		if ((s[i] | 0x20) != w[i])
			return 0;
	return 1;
}

int cgp_parse_float(const char *str, double *out)
{
	const char *s = str, *e = str + strlen(str), *p, *q;
	char *buf;
	size_t k = 0;
	int neg = 0;

	trim(&s, &e);
	if (s < e && (*s == '+' || *s == '-'))
		neg = *s++ == '-';
	if (word(s, e, "inf") || word(s, e, "infinity")) {
		*out = neg ? -HUGE_VAL : HUGE_VAL;
		return 0;
	}
	if (word(s, e, "nan")) {
		*out = neg ? -NAN : NAN;
		return 0;
	}
	p = digitpart(s, e);
	if (p) {
		if (p < e && *p == '.') {
			q = digitpart(p + 1, e);
			p = q ? q : p + 1;
		}
	} else {
		if (s >= e || *s != '.' || !(p = digitpart(s + 1, e)))
			return -1;
	}
	if (p < e && (*p == 'e' || *p == 'E')) {
		q = p + 1;
		if (q < e && (*q == '+' || *q == '-'))
			q++;
		if (!(p = digitpart(q, e)))
			return -1;
	}
	if (p != e)
		return -1;
	/* Copy without the separators. */
	buf = malloc((size_t)(e - s) + 2);
	if (!buf)
		return -1;
	if (neg)
		buf[k++] = '-';
	for (; s < e; s++)
		if (*s != '_')
			buf[k++] = *s;
	buf[k] = '\0';
	*out = strtod(buf, NULL);
	free(buf);
	return 0;
}

/* "00" to "99": two digits at a time. */
static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

size_t cgp_fmt_int(char *buf, int64_t v)
{
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v, t;
	size_t n = v < 0, len;
	char *p;

	for (t = u; t >= 10; t /= 10)  /* the length first: no copy after */
		n++;
	len = n + 1;
	buf[len] = '\0';
	p = buf + len;
	while (u >= 100) {
		p -= 2;
		memcpy(p, digit_pairs + u % 100 * 2, 2);
		u /= 100;
	}
	if (u >= 10) {
		p -= 2;
		memcpy(p, digit_pairs + u * 2, 2);
	} else {
		*--p = (char)('0' + u);
	}
	if (v < 0)
		*--p = '-';
	return len;
}

size_t cgp_fmt_commas(char *buf, int64_t v)
{
	char tmp[32];
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t n = 0, k = 0, digits = 0;

	do {
		if (digits && digits % 3 == 0)
			tmp[n++] = ',';
		tmp[n++] = (char)('0' + u % 10);
		digits++;
		u /= 10;
	} while (u);
	if (v < 0)
		buf[k++] = '-';
	while (n)
		buf[k++] = tmp[--n];
	buf[k] = '\0';
	return k;
}

/*
 * a/b correctly rounded to the nearest double (ties to even), for a >= 0,
 * b > 0, a < 2^72, b < 2^64.  Produces 64 significant quotient bits plus a
 * sticky bit by long division, then rounds them to 53.
 */
static double div_round(unsigned __int128 a, unsigned __int128 b)
{
	unsigned __int128 q = a / b, r = a % b;
	uint64_t m;
	int exp = 0, nb = 0, sticky;
	unsigned low;

	if (a == 0)
		return 0.0;
	for (unsigned __int128 t = q; t; t >>= 1)
		nb++;
	if (nb > 64) {
		int sh = nb - 64;
		sticky = (q & (((unsigned __int128)1 << sh) - 1)) != 0 || r != 0;
		m = (uint64_t)(q >> sh);
		exp = sh;
	} else {
		m = (uint64_t)q;
		while (!(m >> 63)) {
			r <<= 1;
			m <<= 1;
			if (r >= b) {
				r -= b;
				m |= 1;
			}
			exp--;
		}
		sticky = r != 0;
	}
	low = (unsigned)(m & 0x7ff);
	m >>= 11;
	exp += 11;
	if (low > 0x400 || (low == 0x400 && (sticky || (m & 1))))
		m++;
	return ldexp((double)m, exp);
}

double cgp_percent(int64_t v, int64_t s)
{
	__int128 n = (__int128)v * 100;
	unsigned __int128 a = n < 0 ? (unsigned __int128)(-n) : (unsigned __int128)n;
	unsigned __int128 b = s < 0 ? (unsigned __int128)(-(__int128)s)
				    : (unsigned __int128)s;
	double q = div_round(a, b);

	/* The sign of a zero result follows the operands, as in Python. */
	return ((n < 0) != (s < 0)) ? -q : q;
}

size_t cgp_fmt_pyfloat(char *buf, double x)
{
	char e[40], digits[24];
	int prec, exp10, nd = 0, neg;
	size_t k = 0;
	const char *p;

	if (x == 0) {
		const char *z = signbit(x) ? "-0.0" : "0.0";
		memcpy(buf, z, strlen(z) + 1);
		return strlen(z);
	}
	/* Shortest precision that reads back as x. */
	for (prec = 0; prec < 17; prec++) {
		snprintf(e, sizeof e, "%.*e", prec, x);
		if (strtod(e, NULL) == x)
			break;
	}
	neg = e[0] == '-';
	for (p = e + neg; *p && *p != 'e'; p++)
		if (is_digit(*p))
			digits[nd++] = *p;
	exp10 = (int)strtol(p + 1, NULL, 10);
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	if (neg)
		buf[k++] = '-';
	/* repr: positional notation for 1e-4 <= |x| < 1e16. */
	if (exp10 >= -4 && exp10 < 16) {
		int i;
		if (exp10 < 0) {
			buf[k++] = '0';
			buf[k++] = '.';
			for (i = -1; i > exp10; i--)
				buf[k++] = '0';
			for (i = 0; i < nd; i++)
				buf[k++] = digits[i];
		} else {
			for (i = 0; i <= exp10; i++)
				buf[k++] = i < nd ? digits[i] : '0';
			buf[k++] = '.';
			if (nd > exp10 + 1)
				for (i = exp10 + 1; i < nd; i++)
					buf[k++] = digits[i];
			else
				buf[k++] = '0';
		}
		buf[k] = '\0';
		return k;
	}
	buf[k++] = digits[0];
	if (nd > 1) {
		buf[k++] = '.';
		memcpy(buf + k, digits + 1, (size_t)nd - 1);
		k += (size_t)nd - 1;
	}
	k += (size_t)snprintf(buf + k, 8, "e%c%02d", exp10 < 0 ? '-' : '+',
			      exp10 < 0 ? -exp10 : exp10);
	return k;
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
