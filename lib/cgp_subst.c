/* cgp_subst.c -- the s/regex/replacement/flags expressions of --mod-filename and --mod-funcname (Python re.sub on PCRE2). */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
/*
 * Upstream applies Python's re.sub(PATTERN, REPLACEMENT, name, count).
 * The pattern is compiled by PCRE2 with PCRE2_UTF | PCRE2_UCP, which gives
 * Python's Unicode meaning of \w, \d, \s and \b; PCRE2_CASELESS for "i";
 * PCRE2_MATCH_INVALID_UTF for names that are not UTF-8 (which upstream
 * cannot read at all).
 * Where PCRE2 and Python's re differ (documented in docs/companions.md):
 *   - PCRE2 accepts more syntax (\K, recursion, \p{..} classes, ...);
 *   - Python's "{,n}" (= {0,n}) is literal text in PCRE2 10.42;
 *   - Python's \Z is PCRE2's \z (names contain no newline, so the two
 *     agree on every input here);
 *   - (?P<name>...), (?P=name), lazy and possessive quantifiers, atomic
 *     groups and look-arounds mean the same in both.
 * The replacement template is Python's, parsed here: \1..\99 and \g<n>,
 * \g<name> group references (an unmatched group gives ""), \0 and
 * three-digit octal escapes, \a \b \f \n \r \t \v \\; another escaped
 * ASCII letter is an error, any other escaped character stays as it is
 * (backslash included).
 * Matching follows Python 3.7+: with "g" every match is replaced, an empty
 * match is allowed right after a non-empty one, and after an empty match
 * the next match may not be empty at the same place.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "cgp.h"

/* A piece of the parsed replacement: literal text, or group (>= 0). */
struct piece {
	int group;            /* -1 = literal */
	size_t off, len;      /* literal text in struct cgp_subst.lit */
};

struct cgp_subst {
	pcre2_code *re;       /* for any name: PCRE2_MATCH_INVALID_UTF */
	pcre2_code *re_utf;   /* the same for valid UTF-8, checked once */
	pcre2_match_data *md;
	int global;
	struct piece *pieces;
	size_t npieces;
	struct cgp_buf lit;   /* literal text of the template */
	struct cgp_subst *next;  /* applied to this one's result, or NULL */
};

static int add_piece(struct cgp_subst *x, int group, const char *t, size_t n)
{
	struct piece *p;

	if (group < 0 && x->npieces && x->pieces[x->npieces - 1].group < 0) {
		/* Extend the previous literal. */
		if (cgp_buf_add(&x->lit, t, n))
			return -1;
		x->pieces[x->npieces - 1].len += n;
		return 0;
	}
	p = realloc(x->pieces, (x->npieces + 1) * sizeof *p);
	if (!p)
		return -1;
	x->pieces = p;
	p += x->npieces++;
	p->group = group;
	p->off = x->lit.len;
	p->len = n;
	return group < 0 ? cgp_buf_add(&x->lit, t, n) : 0;
}

static int is_ident_start(unsigned char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

/*
 * The replacement template is parsed as Python's re module parses it
 * (sre_parse.parse_template).  Each function below handles one kind of
 * escape: *pp points just after its backslash and is moved past the
 * escape; the result is 0, or not 0 with err set (CGP_EUSAGE) -- or with
 * err->msg left NULL when memory ran out.
 */

/* *g = the number of the group named name[0..n), or < 0 if there is none;
 * returns 0, or -1 without memory. */
static int group_by_name(const struct cgp_subst *x, const char *name, size_t n, int *g)
{
	char *nm = strndup(name, n);
	const char *q;

	if (!nm)
		return -1;
	for (q = nm + 1; *q; q++)
		if (!is_ident_start((unsigned char)*q) && !(*q >= '0' && *q <= '9'))
			break;
	*g = *q ? PCRE2_ERROR_NOSUBSTRING
		: pcre2_substring_number_from_name(x->re, (PCRE2_SPTR)nm);
	free(nm);
	return 0;
}

/* \g<name> or \g<number>. */
static int escape_g(struct cgp_subst *x, const char **pp, uint32_t ngroups,
		    struct cgp_error *err)
{
	const char *p = *pp, *name, *end;
	int64_t v;

	if (p[1] != '<')
		return cgp_error_set(err, CGP_EUSAGE, "missing < after \\g in replacement");
	name = p + 2;
	end = strchr(name, '>');
	if (!end)
		return cgp_error_set(err, CGP_EUSAGE, "missing >, unterminated name in replacement");
	if (end == name)
		return cgp_error_set(err, CGP_EUSAGE, "missing group name in replacement");
	if (is_ident_start((unsigned char)*name)) {
		int g;
		if (group_by_name(x, name, (size_t)(end - name), &g))
			return -1;
		if (g < 0)
			return cgp_error_set(err, CGP_EUSAGE,
					     "unknown group name '%.*s' in replacement",
					     (int)(end - name), name);
		v = g;
	} else {
		/* Python: int(name), which allows a sign, "_" and white
		 * space; negative is bad. */
		if (cgp_parse_int(name, (size_t)(end - name), &v) || v < 0)
			return cgp_error_set(err, CGP_EUSAGE,
					     "bad character in group name '%.*s' in replacement",
					     (int)(end - name), name);
		if (v > (int64_t)ngroups)
			return cgp_error_set(err, CGP_EUSAGE,
					     "invalid group reference %.*s in replacement",
					     (int)(end - name), name);
	}
	*pp = end + 1;
	return add_piece(x, (int)v, NULL, 0);
}

/* \0 with up to two more octal digits: that byte. */
static int escape_0(struct cgp_subst *x, const char **pp)
{
	const char *p = *pp + 1;
	unsigned v = 0, k = 0;
	char ch;

	while (k < 2 && *p >= '0' && *p <= '7') {
		v = v * 8 + (unsigned)(*p++ - '0');
		k++;
	}
	ch = (char)v;
	*pp = p;
	return add_piece(x, -1, &ch, 1);
}

/* \ddd, three octal digits: code point 0 to 0o377, as UTF-8. */
static int escape_octal(struct cgp_subst *x, const char **pp, struct cgp_error *err)
{
	const char *p = *pp;
	unsigned v = (unsigned)(p[0] - '0') * 64 + (unsigned)(p[1] - '0') * 8 +
		     (unsigned)(p[2] - '0');
	char u[2];

	if (v > 0377)
		return cgp_error_set(err, CGP_EUSAGE,
				     "octal escape value \\%.3s outside of range 0-0o377 in replacement",
				     p);
	*pp = p + 3;
	if (v < 0x80) {
		u[0] = (char)v;
		return add_piece(x, -1, u, 1);
	}
	u[0] = (char)(0xc0 | (v >> 6));
	u[1] = (char)(0x80 | (v & 0x3f));
	return add_piece(x, -1, u, 2);
}

static int is_octal(char c)
{
	return c >= '0' && c <= '7';
}

/* \1 to \99 (a group), or \ddd (octal, when three octal digits follow). */
static int escape_digits(struct cgp_subst *x, const char **pp, uint32_t ngroups,
			 struct cgp_error *err)
{
	const char *p = *pp;
	int g = p[0] - '0';

	if (p[1] >= '0' && p[1] <= '9') {
		if (is_octal(p[0]) && is_octal(p[1]) && is_octal(p[2]))
			return escape_octal(x, pp, err);
		g = g * 10 + (p[1] - '0');
		if (g > (int)ngroups)
			return cgp_error_set(err, CGP_EUSAGE,
					     "invalid group reference %d in replacement", g);
		*pp = p + 2;
		return add_piece(x, g, NULL, 0);
	}
	if (g > (int)ngroups)
		return cgp_error_set(err, CGP_EUSAGE,
				     "invalid group reference %c in replacement", p[0]);
	*pp = p + 1;
	return add_piece(x, g, NULL, 0);
}

/* \a \b \f \n \r \t \v \\; another ASCII letter is an error, any other
 * character is kept with its backslash. */
static int escape_char(struct cgp_subst *x, const char **pp, struct cgp_error *err)
{
	static const char from[] = "abfnrtv\\", to[] = "\a\b\f\n\r\t\v\\";
	char c = **pp;
	const char *k = c ? strchr(from, c) : NULL;

	if (k) {
		*pp += 1;
		return add_piece(x, -1, &to[k - from], 1);
	}
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		return cgp_error_set(err, CGP_EUSAGE, "bad escape \\%c in replacement", c);
	return add_piece(x, -1, *pp - 1, 1);
}

/* Python's parse_template of r into x's pieces; 0, or see above. */
static int parse_template(struct cgp_subst *x, const char *r, struct cgp_error *err)
{
	uint32_t ngroups = 0;
	const char *p = r;
	int rc;

	pcre2_pattern_info(x->re, PCRE2_INFO_CAPTURECOUNT, &ngroups);
	while (*p) {
		const char *bs = strchr(p, '\\');
		if (!bs)
			return add_piece(x, -1, p, strlen(p)) ? -1 : 0;
		if (bs > p && add_piece(x, -1, p, (size_t)(bs - p)))
			return -1;
		p = bs + 1;
		if (*p == '\0')
			return cgp_error_set(err, CGP_EUSAGE,
					     "bad escape (end of pattern) in replacement");
		if (*p == 'g')
			rc = escape_g(x, &p, ngroups, err);
		else if (*p == '0')
			rc = escape_0(x, &p);
		else if (*p >= '1' && *p <= '9')
			rc = escape_digits(x, &p, ngroups, err);
		else
			rc = escape_char(x, &p, err);
		if (rc)
			return rc;
	}
	return 0;
}

/* Copy of t[0..n) with every backslash-delimiter ("\/" for "/")
 * replaced by the delimiter. */
static char *unescape_slashes(const char *t, size_t n, char delim)
{
	char *d = malloc(n + 1), *q = d;
	size_t i;

	if (!d)
		return NULL;
	for (i = 0; i < n; i++) {
		if (t[i] == '\\' && i + 1 < n && t[i + 1] == delim)
			i++;
		*q++ = t[i];
	}
	*q = '\0';
	return d;
}

/* The delimiter after "s": "/" as upstream has it, or (an extension) any
 * other ASCII punctuation but the backslash, so that "s|/usr/|/opt/|"
 * needs no escapes.  Every text upstream accepts starts with "s/", so its
 * meaning is unchanged; the others were errors there. */
static int is_delim(char c)
{
	return c > ' ' && c < 0x7f && c != '\\' && !(c >= '0' && c <= '9') &&
	       !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z');
}

static int valid_flags(const char *f, size_t n)
{
	return n == 0 || (n == 1 && (*f == 'g' || *f == 'i')) ||
	       (n == 2 && ((f[0] == 'g' && f[1] == 'i') || (f[0] == 'i' && f[1] == 'g')));
}

/* Where the parts of "s/PATTERN/REPLACEMENT/FLAGS" are: in t[0..n), the
 * text after "s/", the pattern ends at pe and the replacement at re;
 * delim is the delimiter ("/", or another, see is_delim). */
struct parts {
	const char *t;
	size_t n, pe, re;
	char delim;
};

/* Finds the parts of expr as upstream's regular expression does: greedy,
 * the longest pattern, then the longest replacement; a delimiter after a
 * backslash is part of the text.  0, or -1 if expr is not of the form. */
static int split_expr(const char *expr, struct parts *x)
{
	size_t n = strlen(expr), pe, re;
	const char *t;
	char delim;

	/* Python's "$" also matches before one final newline; "." never
	 * matches a newline, so no other newline may occur. */
	if (n && expr[n - 1] == '\n')
		n--;
	if (n < 2 || expr[0] != 's' || !is_delim(expr[1]) || memchr(expr, '\n', n))
		return -1;
	delim = expr[1];
	t = expr + 2;
	n -= 2;
	for (pe = n; pe-- > 0;) {
		if (t[pe] != delim || (pe > 0 && t[pe - 1] == '\\'))
			continue;
		for (re = n; re-- > pe + 1;) {
			if (t[re] != delim || t[re - 1] == '\\')
				continue;
			if (valid_flags(t + re + 1, n - re - 1)) {
				*x = (struct parts){ t, n, pe, re, delim };
				return 0;
			}
		}
	}
	return -1;
}

/* Compiles pat into x and parses the template rep: 0, or not 0 with err
 * set (CGP_EUSAGE), or err->msg left NULL without memory. */
static int compile(struct cgp_subst *x, const char *pat, const char *rep,
		   uint32_t opts, struct cgp_error *err)
{
	int ecode;
	PCRE2_SIZE eoff;

	if (!cgp_utf8_valid(pat, strlen(pat)) || !cgp_utf8_valid(rep, strlen(rep)))
		return cgp_error_set(err, CGP_EUSAGE, "invalid UTF-8 in the expression");
	x->re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, opts, &ecode,
			      &eoff, NULL);
	if (!x->re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(ecode, msg, sizeof msg);
		return cgp_error_set(err, CGP_EUSAGE,
				     "bad regular expression '%s': %s at offset %zu",
				     pat, (char *)msg, (size_t)eoff);
	}
	/* With PCRE2_MATCH_INVALID_UTF, every pcre2_match checks the whole
	 * name again (PCRE2_NO_UTF_CHECK is ignored there): with "g", a
	 * name of n bytes with k matches took k * n steps (s/a//g on a
	 * name of 400 KB: 33 s).  A valid name, the usual one, is checked
	 * once and matched by this copy without the option. */
	x->re_utf = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED,
				  opts & ~(uint32_t)PCRE2_MATCH_INVALID_UTF, &ecode, &eoff, NULL);
	x->md = pcre2_match_data_create_from_pattern(x->re, NULL);
	if (!x->re_utf || !x->md)
		return -1;
	return parse_template(x, rep, err);
}

struct cgp_subst *cgp_subst_new(const char *expr, struct cgp_error *err)
{
	struct parts pt;
	const char *flags;
	size_t nflags;
	char *pat, *rep;
	struct cgp_subst *x;
	int rc = -1;
	/* Names may hold bytes that are not UTF-8: such a byte matches no
	 * item of a pattern (a barrier no match crosses), the rest of the
	 * name is matched as usual. */
	uint32_t opts = PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF;

	/* \C (one byte, even inside a UTF-8 character) is refused, as
	 * Python refuses it: a match ending inside a character would start
	 * the next one there, undefined with PCRE2_NO_UTF_CHECK. */
	opts |= PCRE2_NEVER_BACKSLASH_C;

	if (split_expr(expr, &pt)) {
		cgp_error_set(err, CGP_EUSAGE, "not of the form s/regex/replacement/[g][i]");
		return NULL;
	}
	x = calloc(1, sizeof *x);
	if (!x) {
		cgp_error_set(err, CGP_ENOMEM, "out of memory");
		return NULL;
	}
	x->lit.max = CGP_MAX_LINE;
	flags = pt.t + pt.re + 1;
	nflags = pt.n - pt.re - 1;
	if (memchr(flags, 'i', nflags))
		opts |= PCRE2_CASELESS;
	x->global = memchr(flags, 'g', nflags) != NULL;
	pat = unescape_slashes(pt.t, pt.pe, pt.delim);
	rep = unescape_slashes(pt.t + pt.pe + 1, pt.re - pt.pe - 1, pt.delim);
	if (pat && rep)
		rc = compile(x, pat, rep, opts, err);
	free(pat);
	free(rep);
	if (!rc)
		return x;
	if (!err->msg)
		cgp_error_set(err, CGP_ENOMEM, "out of memory");
	cgp_subst_free(x);
	return NULL;
}

static int expand(const struct cgp_subst *x, const char *s, struct cgp_buf *out)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(x->md);
	uint32_t npairs = pcre2_get_ovector_count(x->md);
	size_t i;

	for (i = 0; i < x->npieces; i++) {
		const struct piece *p = &x->pieces[i];
		int rc;
		if (p->group < 0) {
			rc = cgp_buf_add(out, x->lit.s + p->off, p->len);
		} else if ((uint32_t)p->group < npairs &&
			   ov[2 * p->group] != PCRE2_UNSET) {
			rc = cgp_buf_add(out, s + ov[2 * p->group],
					 ov[2 * p->group + 1] - ov[2 * p->group]);
		} else {
			rc = 0; /* an unmatched group gives "" */
		}
		if (rc)
			return -1;
	}
	return 0;
}

/* One expression of a chain applied to s[0..n), result appended to out. */
static int apply_one(const struct cgp_subst *x, const char *s, size_t n,
		     struct cgp_buf *out, struct cgp_error *err)
{
	size_t pos = 0, copied = 0;
	uint32_t flags = 0, utf = 0;
	const pcre2_code *re = x->re;

	/* (A name that is not UTF-8 is rare: its k matches still take
	 * k * n steps.) */
	if (cgp_utf8_valid(s, n)) {
		re = x->re_utf;
		utf = PCRE2_NO_UTF_CHECK;
	}
	for (;;) {
		PCRE2_SIZE *ov;
		int rc = pcre2_match(re, (PCRE2_SPTR)s, n, pos, flags | utf, x->md, NULL);
		if (rc == PCRE2_ERROR_NOMATCH)
			break;
		if (rc < 0) {
			PCRE2_UCHAR msg[256];
			size_t q = cgp_utf8_cut(s, n, 60);
			pcre2_get_error_message(rc, msg, sizeof msg);
			return cgp_error_set(err, CGP_EUSAGE, "regular expression failed on '%.*s'%s: %s",
					     (int)q, s, q < n ? "..." : "", (char *)msg);
		}
		ov = pcre2_get_ovector_pointer(x->md);
		if (cgp_buf_add(out, s + copied, ov[0] - copied) || expand(x, s, out))
			return cgp_error_set(err, CGP_ENOMEM, "out of memory");
		copied = ov[1];
		if (!x->global)
			break;
		/* After an empty match the next may not be empty here. */
		flags = ov[0] == ov[1] ? PCRE2_NOTEMPTY_ATSTART : 0;
		pos = ov[1];
		if (pos > n)
			break;
	}
	if (cgp_buf_add(out, s + copied, n - copied))
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	return 0;
}

int cgp_subst_apply(const struct cgp_subst *x, const char *s, size_t n,
		    struct cgp_buf *out, struct cgp_error *err)
{
	struct cgp_buf a = CGP_BUF_INIT(CGP_MAX_LINE), b = CGP_BUF_INIT(CGP_MAX_LINE), t;
	int rc;

	if (!x->next)
		return apply_one(x, s, n, out, err);
	/* A chain: each result is the next one's input. */
	rc = apply_one(x, s, n, &a, err);
	for (x = x->next; !rc && x->next; x = x->next) {
		cgp_buf_reset(&b);
		rc = apply_one(x, a.s ? a.s : "", a.len, &b, err);
		t = a, a = b, b = t;
	}
	if (!rc)
		rc = apply_one(x, a.s ? a.s : "", a.len, out, err);
	cgp_buf_release(&a);
	cgp_buf_release(&b);
	return rc;
}

struct cgp_subst *cgp_subst_chain(struct cgp_subst *first, struct cgp_subst *then)
{
	struct cgp_subst *x = first;

	if (!first)
		return then;
	while (x->next)
		x = x->next;
	x->next = then;
	return first;
}

void cgp_subst_free(struct cgp_subst *x)
{
	if (!x)
		return;
	cgp_subst_free(x->next);
	pcre2_match_data_free(x->md);
	pcre2_code_free(x->re);
	pcre2_code_free(x->re_utf);
	free(x->pieces);
	cgp_buf_release(&x->lit);
	free(x);
}
