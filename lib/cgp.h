/* cgp.h -- the Cachegrind profile-format library shared by cg_annotate, cg_merge, cg_diff and cg_run. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef CGP_H
#define CGP_H

/*
 * The format read and written here (a Cachegrind output file), one item per
 * line, lines ending in "\n", "\r\n" or "\r", text in UTF-8 -- except
 * that TEXT, FILENAME, FUNCNAME and NAME may hold any bytes but NUL (the
 * tool writes names as the debug information has them), which the writers
 * pass on unchanged:
 *
 *   file     ::= desc* cmd positions? events body
 *   desc     ::= "desc:" WS+ TEXT          (optional; 3.19 always wrote three)
 *   cmd      ::= "cmd:" WS+ TEXT
 *   positions ::= "positions:" WS+ ("line" | "instr" WS+ "line") WS*
 *                absent or "line": a line-level profile; "instr line": an
 *                instruction-level one (the tool's --dump-instr=yes)
 *   events   ::= "events:" WS+ NAME (WS+ NAME)*
 *   body     ::= (fl | fi | fn | ob | count | summary | blank | comment)*
 *   fl       ::= "fl=" FILENAME            (function becomes the "no fn=" name)
 *   fi       ::= ("fi=" | "fe=") FILENAME  (instruction-level only: the file
 *                of the count lines that follow, the function unchanged;
 *                inlined code.  The next fn= goes back to the fl= file)
 *   fn       ::= "fn=" FUNCNAME
 *   ob       ::= "ob=" OBJNAME [NL buildid]   (instruction-level only)
 *                In an instruction-level file, an OBJNAME, FILENAME or
 *                FUNCNAME that starts with "(" and a digit is the Callgrind
 *                format's name compression: "(ID) NAME" is NAME and
 *                defines ID, "(ID)" is the NAME defined last for ID; one
 *                series of IDs each for ob=, for fl=/fi=/fe=, for fn=
 *   buildid  ::= "# build-id: " HEX+       (right after its ob= line: the
 *                object is (OBJNAME, HEX+); an even number of lower-case hex
 *                digits; elsewhere the line is a plain comment)
 *   count    ::= DIGIT ... : LINE (WS+ COUNT){0,nevents}
 *                missing trailing counts are zero
 *              | ADDR WS+ LINEPOS (WS+ COUNT){0,nevents}   (instruction-level)
 *   ADDR, LINEPOS ::= NUMBER | "+" NUMBER | "-" NUMBER | "*"
 *                the Callgrind format's subpositions: "+N"/"-N" are relative
 *                to the address (line) of the previous count line of the
 *                file, "*" is the same; 0 before the first.  ADDR is the
 *                instruction's address in its object (ob=), as the object's
 *                file numbers it (the load bias taken off)
 *   NUMBER   ::= "0x" HEXDIGIT+ | DIGIT+    (at most 2^64 - 1; a line at most
 *                2^62)
 *   summary  ::= "summary:" WS+ COUNT (WS+ COUNT)*   (at least one per file)
 *   blank    ::= ""                        (a line of spaces is NOT blank)
 *   comment  ::= "#" TEXT
 *   LINE, COUNT ::= Python int() syntax: [+-] digits with single "_" between
 *                digits, leading zeros allowed; ASCII digits only here
 *   WS       ::= Python str.split() white space (ASCII and the Unicode
 *                space characters)
 *
 * Every read attempt counts as a line, the final one returning end of file
 * included, so an error "at end of file" names the number of lines plus one
 * (as upstream does).
 *
 * The three programs read the body slightly differently, as upstream's
 * three scripts do: struct cgp_rules below, one row per program, says how.
 * Each reads an instruction-level profile at line level (a count line's
 * line number and counts, its object and address aside); cg_merge, and a
 * program that asks for it (cgp_read_opts.keep_instrs), keep its
 * instruction rows besides.
 *
 * Ownership: every object belongs to the structure that contains it; a
 * struct cgp_profile owns its table, names and inputs and frees them all in
 * cgp_profile_release().  Functions returning int return 0 on success and a
 * negative CGP_E* code on failure, with a message in the struct cgp_error
 * passed to them.  Nothing here prints or exits.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ------------------------------------------------------------------------ */
/* Errors (cgp_buf.c)                                                        */
/* ------------------------------------------------------------------------ */

enum {
	CGP_OK = 0,
	CGP_EIO = -1,       /* cannot open/read/write a file */
	CGP_EPARSE = -2,    /* malformed input: message is "file:line: ..." */
	CGP_ENOMEM = -3,    /* out of memory or a size limit exceeded */
	CGP_EEVENTS = -4,   /* inputs with different events */
	CGP_EOVERFLOW = -5, /* a count or sum does not fit in int64 */
	CGP_EUSAGE = -6,    /* bad argument (e.g. a bad --mod-* expression) */
};

/* A message, owned by the struct; msg is NULL while no error was set.
 * errnum is the errno value behind a failed system call (the reason the
 * message ends with), 0 for errors of the data. */
struct cgp_error {
	int code;
	int errnum;
	char *msg;
};

#define CGP_ERROR_INIT { 0, 0, NULL }

/* Sets the message (printf-style) and returns code.  On allocation failure
 * the message becomes a fixed "out of memory" text. */
int cgp_error_set(struct cgp_error *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same for a failed system call: the message gets ": " and
 * strerror(errnum) appended, and errnum is kept in e->errnum. */
int cgp_error_sys(struct cgp_error *e, int code, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void cgp_error_release(struct cgp_error *e);

/* ------------------------------------------------------------------------ */
/* Growable buffer with a maximum size (cgp_buf.c)                           */
/* ------------------------------------------------------------------------ */

/* s is NUL-terminated whenever len > 0 or s != NULL; owned by the buffer. */
struct cgp_buf {
	char *s;
	size_t len, cap, max;
};

#define CGP_BUF_INIT(maxsize) { NULL, 0, 0, (maxsize) }

/* Make room for extra more bytes (plus the NUL); -1 past max or without
 * memory, the buffer then unchanged. */
int cgp_buf_grow(struct cgp_buf *b, size_t extra);
int cgp_buf_add(struct cgp_buf *b, const void *p, size_t n);
int cgp_buf_adds(struct cgp_buf *b, const char *s);
int cgp_buf_addf(struct cgp_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cgp_buf_reset(struct cgp_buf *b);
void cgp_buf_release(struct cgp_buf *b);

/* ------------------------------------------------------------------------ */
/* UTF-8 and white space (cgp_utf8.c)                                        */
/* ------------------------------------------------------------------------ */

/* 1 if s[0..n) is valid UTF-8 as Python's strict decoder defines it. */
int cgp_utf8_valid(const char *s, size_t n);
/* The length (2 to 4) of the valid UTF-8 sequence that starts s[0..n), or
 * 0 when s[0] is ASCII or starts no valid sequence there. */
size_t cgp_utf8_seq(const char *s, size_t n);
/* Number of characters in s[0..n): code points of valid UTF-8, and one
 * per byte that is not part of a valid sequence (Python's len() of the
 * text decoded with errors="surrogateescape"). */
size_t cgp_utf8_len(const char *s, size_t n);
/* How many bytes of s[0..n) to quote in a message that shows at most max
 * of them: n if it fits, else max or up to 4 fewer, so that the cut is
 * not inside a UTF-8 sequence. */
size_t cgp_utf8_cut(const char *s, size_t n, size_t max);
/* Byte length of the white-space character at s (Python str.isspace()),
 * 0 if s[0] does not start one. */
size_t cgp_space_len(const char *s, const char *end);

/* ------------------------------------------------------------------------ */
/* Numbers with Python's syntax and formatting (cgp_num.c)                   */
/* ------------------------------------------------------------------------ */

/* Python int() of s[0..n) restricted to ASCII digits, into int64.  Returns
 * 0, -1 when the text is not an int, -2 when it is out of range. */
int cgp_parse_int(const char *s, size_t n, int64_t *out);
/* Python float() of a NUL-terminated text (no hex floats); 0 or -1. */
int cgp_parse_float(const char *s, double *out);
/* Overflow-checked a += b: 0, or -1 leaving a unchanged. */
static inline int cgp_add(int64_t *a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(*a, b, &r))
		return -1;
	*a = r;
	return 0;
}
/* Decimal text of v into buf (>= 21 bytes), returns the length. */
size_t cgp_fmt_int(char *buf, int64_t v);
/* Decimal text with "," every three digits (buf >= 28 bytes). */
size_t cgp_fmt_commas(char *buf, int64_t v);
/* v*100/s as Python's true division gives it: correctly rounded double,
 * sign of zero kept (s != 0). */
double cgp_percent(int64_t v, int64_t s);
/* Python repr(float)/str(float) of a finite x into buf (>= 32 bytes). */
size_t cgp_fmt_pyfloat(char *buf, double x);
/* Python list repr of v[0..n) ("[1, -2, 3]") appended to b;
 * 0, or -1 past the buffer's maximum or without memory. */
int cgp_buf_add_pylist(struct cgp_buf *b, const int64_t *v, unsigned n);

/* ------------------------------------------------------------------------ */
/* Streaming line reader (cgp_reader.c)                                      */
/* ------------------------------------------------------------------------ */

#define CGP_MAX_LINE (64u << 20) /* longest line accepted: 64 MiB */
/* Most events an events: line may name.  Cachegrind writes at most 13;
 * every count line costs memory in proportion, so a corrupt events: line
 * fails here instead of eating memory. */
#define CGP_MAX_EVENTS 1024u

/* Bytes asked for by each read(2) of the line reader. */
#define CGP_READ_CHUNK (1u << 20)
/* Zero bytes the reader keeps after the unread ones (cgp_reader_peek()),
 * so that a parser may load 8 bytes at a time and stop at the NUL. */
#define CGP_READ_SLACK 16u

struct cgp_reader {
	int fd;
	const char *path;  /* borrowed, for messages */
	char *buf;         /* owned */
	size_t cap, pos, end, maxline;
	size_t chunk;      /* bytes per read(2), >= 1; CGP_READ_CHUNK */
	int eof;
	uint64_t lineno;   /* read attempts so far, EOF included */
	int64_t mtime_ns;  /* of the open file */
	int had_nl;        /* the last line returned ended with a newline */
	int check_utf8;    /* refuse lines that are not UTF-8 (default: no) */
	size_t maplen;     /* mapped (cgp_reader_map()): buf's mapping, else 0 */
	size_t dropped;    /* mapped: the bytes before it left memory */
};

/* Opens path for reading; on failure returns CGP_EIO with
 * "cannot open 'path': strerror" (directories included).  Set check_utf8
 * before the first cgp_reader_next() to have lines checked, or a smaller
 * chunk (the tests do, to reach the refilling of the buffer with small
 * inputs). */
int cgp_reader_open(struct cgp_reader *r, const char *path, size_t maxline,
		    struct cgp_error *err);
/* Maps the file into memory instead of reading it, if it is a regular
 * file that is not empty and the mapping succeeds: 1, else 0 (it is then
 * read as before).  Call it before the first cgp_reader_next().  Lines
 * are then read where the file is mapped, without a copy; the file is
 * mapped a window at a time as reading goes on, and the pages behind the
 * reader are released.  A file that shrinks while
 * it is mapped makes reading past its new end raise SIGBUS: the caller
 * must catch it (cgp_profile_read() does) or not map. */
int cgp_reader_map(struct cgp_reader *r);

/* The heap of the programs that hold a whole profile in memory, faulted
 * in a step at a time (cgp_heap.c).  cgp_heap_prefault(), at start-up,
 * opts in: from the first input of at least min_input bytes that
 * cgp_reader_map() maps (it calls cgp_heap_input()), what the heap grows
 * by is made present in one call (cgp_heap_check(), called at every window
 * the reader maps).  cgp_heap_prefaulting() says whether that has started. */
#define CGP_HEAP_MIN_INPUT ((size_t)16 << 20)
void cgp_heap_prefault(size_t min_input);
void cgp_heap_input(uint64_t size);
void cgp_heap_check(void);
int cgp_heap_prefaulting(void);

/* Returns 1 with *line and *len set to the next line (no terminator; valid
 * until the next call), 0 at end of file, or a negative code: CGP_EIO on
 * a read error, CGP_EPARSE for a line longer than maxline or, with
 * check_utf8, invalid UTF-8 (message "path:N: ..."). */
int cgp_reader_next(struct cgp_reader *r, const char **line, size_t *len,
		    struct cgp_error *err);
/* A mapped file is mapped CGP_MAP_WINDOW bytes at a time, as reading
 * reaches them, and its pages behind the line being read are released
 * every CGP_MAP_WINDOW bytes (cgp_reader_drop()): mapped pages count in the
 * resident memory, and should not outweigh the read buffer they replace
 * (at most about two windows are mapped).  A multiple of the page size. */
#define CGP_MAP_WINDOW ((size_t)128 << 10)

/* Releases a mapped file's pages before the line at pos. */
void cgp_reader_drop(struct cgp_reader *r);

/* The unread bytes already in the buffer: their number, *p set to the
 * first (0, and *p not to be read, before the first cgp_reader_next()).
 * CGP_READ_SLACK zero bytes follow them.  For a parser's fast path: it may
 * find a whole line there, ending in "\n", and take it.  (Inline: called
 * for every line.) */
static inline size_t cgp_reader_peek(const struct cgp_reader *r, const char **p)
{
	static const char none[CGP_READ_SLACK];

	*p = r->buf ? r->buf + r->pos : none;
	return r->end - r->pos;
}

/* Consumes the next line as cgp_reader_next() would have returned it:
 * n bytes from cgp_reader_peek()'s, its "\n" the last, with no "\r" and no
 * more than maxline bytes before it (the caller checks). */
static inline void cgp_reader_take(struct cgp_reader *r, size_t n)
{
	r->pos += n;
	r->lineno++;
	r->had_nl = 1;
	if (r->maplen && r->pos - r->dropped >= CGP_MAP_WINDOW)
		cgp_reader_drop(r);
}
/* Goes back to the start of the file (line 1 next); 0, or CGP_EIO with
 * "cannot read 'path' again: strerror" (a pipe, say). */
int cgp_reader_rewind(struct cgp_reader *r, struct cgp_error *err);
void cgp_reader_release(struct cgp_reader *r);

/* ------------------------------------------------------------------------ */
/* Interned names                                                            */
/* ------------------------------------------------------------------------ */

/* One distinct string: a profile interns each name once, so names compare
 * by pointer.  s is NUL-terminated (comparisons use len).  Owned by the
 * profile's table; what the library keeps about a name besides (its hash
 * chain, --mod-* results, file entry) is its own, in cgp_int.h. */
struct cgp_name {
	const char *s;
	uint32_t len;
};

/* The interned names of a table (the library's; cgp_int.h). */
struct cgp_names {
	struct cgp_name_ent **tab;      /* hash chains */
	size_t mask, count;
	struct cgp_arena_chunk *arena;  /* names and their text */
	size_t arena_left;
	char *arena_ptr;
};

/* Code-point order of two names (= byte order of their UTF-8). */
int cgp_name_cmp(const struct cgp_name *a, const struct cgp_name *b);

/* ------------------------------------------------------------------------ */
/* Line tables: line number -> counts, in first-seen order                  */
/* ------------------------------------------------------------------------ */

/* Counts are kept a byte each when a row's are small (cgp_table.c): most
 * per-line counts are, and the memory of big profiles is mostly their
 * line tables.  The same table holds instruction rows, keyed
 * (line, object, address), when rows are added by cgp_instrs_add(): then
 * addr and obj are set (a table holds one kind of row or the other). */
/* Rows first .. first + n - 1 of a line table, their lines growing from lo
 * to hi. */
struct cgp_run {
	int64_t lo, hi;
	uint32_t first, n;
};

struct cgp_lines {
	int64_t *line;     /* line numbers, first-seen order */
	uint64_t *addr;    /* instruction rows: the address in the object */
	uint32_t *obj;     /* instruction rows: index in the table's objects */
	uint32_t *fn_cc;   /* instruction rows: the cost centre of the row's
			      function, (its fl= file, its fn=), which is
			      not the row's own for code inlined from
			      another file (fi=); that of the row's first
			      count line */
	unsigned char *data;  /* the counts, a slot of bytes per row (in the
			      block of line; cgp_table.c) */
	int64_t *wide;     /* the rows whose counts do not fit in bytes */
	size_t nwide, widecap;
	uint32_t *index;   /* open addressing: row + 1, 0 = empty; NULL while
			      the rows are in runs of growing lines */
	struct cgp_run *runs;  /* those runs, when more than one (cgp_table.c) */
	size_t nruns, runcap, cur;  /* cur: the run that ends with the last row */
	size_t n, cap, imask;
	size_t hint;       /* the row to try first */
	unsigned nev;
};

/* Adds (sign = +1) or subtracts (sign = -1) c[0..nev) to the row of line;
 * CGP_EOVERFLOW or CGP_ENOMEM on failure. */
int cgp_lines_add(struct cgp_lines *t, unsigned nev, int64_t line,
		  const int64_t *c, int sign);
/* The same when every c[i] is known to be in [0, bound]: small counts
 * then take a shorter way (the reader's fast path knows a bound). */
int cgp_lines_add_bounded(struct cgp_lines *t, unsigned nev, int64_t line,
			  const int64_t *c, int sign, uint64_t bound);
/* The same for the instruction row (line, obj, addr), of the function of
 * cost centre fn_cc (kept from the row's first addition); the table must
 * hold instruction rows only (CGP_EUSAGE otherwise). */
int cgp_instrs_add(struct cgp_lines *t, unsigned nev, int64_t line,
		   uint32_t obj, uint64_t addr, uint32_t fn_cc, const int64_t *c,
		   int sign);
/* Counts of row i into out[0..nev). */
void cgp_lines_get(const struct cgp_lines *t, size_t i, int64_t *out);
/* A row of a line table and its line, for walking the table in line order
 * (the table keeps its rows in the order first seen). */
struct cgp_line_row {
	int64_t line;
	size_t row;
};
/* Fills out (room for t->n) with t's rows in line order, equal lines in
 * the order first seen. */
void cgp_lines_order(const struct cgp_lines *t, struct cgp_line_row *out);
/* Row i's counts as text, each after a space (" 1 0 25"), into buf (room
 * for 21 bytes per count); returns the length (no NUL). */
size_t cgp_lines_text(const struct cgp_lines *t, size_t i, char *buf);
/* Adds the counts of every row, in order, to sum[0..nev): 0, or -1 when a
 * sum left the int64 range on the way (sum is then spoilt). */
int cgp_lines_sum(const struct cgp_lines *t, int64_t *sum);
void cgp_lines_release(struct cgp_lines *t);

/* ------------------------------------------------------------------------ */
/* Cost table keyed (file, function[, line])                                */
/* ------------------------------------------------------------------------ */

/* Flags of a cost centre made by lines before any fl= (the rule
 * scratch_before_fl): its file side (or function side, before any fn=) is
 * a scratch entry never reported. */
#define CGP_CC_NOFILE 1u
#define CGP_CC_NOFN   2u

struct cgp_cc {
	const struct cgp_name *file, *fn;
	unsigned flags;
	int64_t *total;           /* nev counts, in the table's arena */
	struct cgp_lines *lines;  /* CGP_LINES_PER_CC only, else NULL */
	struct cgp_lines *instrs; /* its instruction rows when they are kept
				     (cgp_profile.keep_instrs), else NULL */
	int64_t line_lo;          /* the smallest line number above 0 of its
				     count lines, 0 if none: where its code
				     starts (links of cg_annotate --html) */
};

/* An object file of an instruction-level profile: its ob= name and the
 * build-id line after it.  One object per (name, build-id): two builds of
 * one file are two objects (their addresses do not correspond).  "???" is
 * the unknown object, which count lines before any ob= line belong to. */
struct cgp_object {
	const struct cgp_name *name;
	const struct cgp_name *build_id;  /* hex text, NULL if none was given */
	long next;                        /* the next object of that name, or -1 */
};

struct cgp_file {
	const struct cgp_name *name;
	struct cgp_lines lines;             /* CGP_LINES_PER_FILE only */
	const struct cgp_name **orig;       /* original names mapped here
					       (the rule keep_originals) */
	size_t norig, origcap;
	size_t *ccs;                        /* its cost centres, first-seen */
	size_t nccs, cccap;
};

/* Zeroed int64 vectors carved from blocks that are freed together (a
 * table's totals, a report model's values); cgp_int.h has its functions.
 * All zero is an empty pool. */
struct cgp_pool {
	int64_t *next; size_t left;               /* the current block's rest */
	struct cgp_pool_block *blocks;
};

struct cgp_table {
	unsigned nev;
	struct cgp_names names;
	struct cgp_cc *cc;  size_t ncc, cccap;
	uint32_t *ccindex;  size_t ccmask;       /* hash of cc: index + 1 */
	struct cgp_file *file; size_t nfile, filecap;
	struct cgp_pool totals;                   /* of the cost centres */
	struct cgp_object *obj; size_t nobj, objcap;  /* first-seen order */
};

/* Index of the cost centre (file, fn): file is the name of one of t's file
 * entries, fn the text fn[0..len) (interned here); the entry is created
 * with zero totals if absent.  -1 without memory.  May move t->cc and the
 * file's ccs.  (cg_annotate --inline adds inlined functions this way.) */
long cgp_table_add_cc(struct cgp_table *t, const struct cgp_name *file,
		      const char *fn, size_t len);
/* Leaves the cost centres i with drop[i] set (drop: t->ncc flags) out of
 * their files' lists and out of the functions' (they become CGP_CC_NOFN):
 * for entries whose costs all went to others.  0, or -1 without memory. */
int cgp_table_drop_ccs(struct cgp_table *t, const unsigned char *drop);

/* ------------------------------------------------------------------------ */
/* --mod-filename / --mod-funcname: Python re.sub with PCRE2               */
/* ------------------------------------------------------------------------ */

struct cgp_subst;  /* opaque, see cgp_subst.c */

/* Parses "s/PATTERN/REPLACEMENT/FLAGS" (FLAGS: "", "g", "i", "gi" or "ig";
 * "\/" stands for "/" in PATTERN and REPLACEMENT), compiles the pattern
 * and checks the replacement template.  Another ASCII punctuation
 * character than "/" may stand for the delimiter ("s|a|b|", an extension;
 * "\|" is then a literal "|").  Returns NULL with a message
 * (CGP_EUSAGE) when the text is not of that form ("not of the form
 * s/regex/replacement/[gi]") or the regex or template is bad. */
struct cgp_subst *cgp_subst_new(const char *expr, struct cgp_error *err);
/* Applies it to s[0..n): result appended to out.  CGP_ENOMEM, or
 * CGP_EUSAGE if matching fails (e.g. the match limit). */
int cgp_subst_apply(const struct cgp_subst *x, const char *s, size_t n,
		    struct cgp_buf *out, struct cgp_error *err);
/* Makes then run on the result of first (and of whatever first already
 * chains to); returns the chain's head (then, if first is NULL).  The
 * chain owns then: cgp_subst_free() of the head frees all. */
struct cgp_subst *cgp_subst_chain(struct cgp_subst *first, struct cgp_subst *then);
void cgp_subst_free(struct cgp_subst *x);

/* ------------------------------------------------------------------------ */
/* Reading profiles                                                          */
/* ------------------------------------------------------------------------ */

/* Which program's rules a profile is read with. */
enum cgp_mode { CGP_MODE_ANNOTATE, CGP_MODE_MERGE, CGP_MODE_DIFF };

/* Where the counts of each line number are kept. */
enum cgp_lines_at {
	CGP_LINES_NONE,      /* nowhere: only the totals of each entry */
	CGP_LINES_PER_FILE,  /* struct cgp_file.lines, per file after --mod-filename */
	CGP_LINES_PER_CC,    /* struct cgp_cc.lines, per (file, function) entry */
};

/* What the summary: lines of a file are for. */
enum cgp_summary_rule {
	/* Each must equal the file's counts so far; all are added (negated
	 * with cgp_read_opts.negate) to the profile's summary. */
	CGP_SUMMARY_CHECK_EACH,
	/* Added to the profile's summary, never checked. */
	CGP_SUMMARY_ADD,
	/* The last one counts (struct cgp_input.summary): at end of file it
	 * must equal the sum of all the file's counts, then it becomes the
	 * profile's summary. */
	CGP_SUMMARY_LAST,
};

/*
 * How a program reads the body of a file.  cgp_read.c holds the table, one
 * row per enum cgp_mode; every difference between the programs' reading is
 * a field here, and the reader tests these fields, never the mode.
 *
 *                       ANNOTATE         MERGE           DIFF
 *   line_numbers        parsed           parsed          ignored
 *   fl_function         "<unspecified>"  "???"           "???"
 *   names_make_entries  yes              no              no
 *   scratch_before_fl   yes              no              no
 *   keep_originals      yes              no              no
 *   lines               per file         per entry       none
 *   summary             check each       add             last
 *   events_at_once      yes              no              no
 *   keep_instrs         no (an option)   yes             no
 */
struct cgp_rules {
	/* Line numbers are parsed and checked; else every count line counts
	 * as line 0, whatever its first token is. */
	int line_numbers;
	/* The function of the counts after an fl= line, until an fn= line. */
	const char *fl_function;
	/* fl= and fn= lines create their (file, function) entry, so one with
	 * no counts is listed; else the first count line creates it. */
	int names_make_entries;
	/* Counts before the first fl= go to an entry that is never reported
	 * (flags CGP_CC_NOFILE | CGP_CC_NOFN); else to file "", function "". */
	int scratch_before_fl;
	/* Each file entry lists the fl= names mapped to it, as they were
	 * before --mod-filename (struct cgp_file.orig): the source files. */
	int keep_originals;
	enum cgp_lines_at lines;
	enum cgp_summary_rule summary;
	/* A file whose events differ from the first file's is an error at its
	 * events: line; else only after it was read (so that its own errors
	 * come first). */
	int events_at_once;
	/* The instruction rows of an instruction-level profile are kept per
	 * (file, function) entry (struct cgp_cc.instrs); all inputs must then
	 * be of one level, and an object's build-ids must agree. */
	int keep_instrs;
};

/* The row of the table for mode (static: never freed). */
const struct cgp_rules *cgp_rules_of(enum cgp_mode mode);

/* What one input file said in its header. */
struct cgp_input {
	char *path;               /* copy of the name as given */
	char *desc;               /* desc: texts, each followed by "\n" */
	size_t ndesc;
	char *cmd;
	char **events;  unsigned nev;
	int instr;                /* positions: instr line */
	int64_t mtime_ns;
	int64_t *summary;         /* CGP_SUMMARY_LAST: the last summary: line */
};

/* How one file is read into a profile (the rules come with the profile). */
struct cgp_read_opts {
	int negate;                      /* subtract this file's counts */
	/* --mod-filename / --mod-funcname, or NULL.  Results are cached per
	 * name in the profile, so every file read into one profile must use
	 * the same expressions (or none until the first one is used). */
	const struct cgp_subst *mod_fl;
	const struct cgp_subst *mod_fn;
	/* Called with each file's events right after its events: line, before
	 * the check that they equal the first file's; may set err and return
	 * a negative code to stop.  May be NULL. */
	int (*check_events)(void *ctx, char **events, unsigned nev,
			    struct cgp_error *err);
	void *ctx;
	size_t read_chunk;               /* the reader's chunk; 0 = default */
	/* Read every count line the general way, never by the fast path of
	 * lines as the tool writes them (the tests compare the two). */
	int general_only;
	/* Keep instruction rows although the rules do not (every file read
	 * into one profile must ask the same). */
	int keep_instrs;
};

struct cgp_profile {
	const struct cgp_rules *rules;  /* cgp_rules_of() the mode, static */
	unsigned nev;
	char **events;            /* the first file's, borrowed from input 0 */
	int instr;                /* the first file is instruction-level */
	int keep_instrs;          /* instruction rows are kept (rules or
				     options): then every file's level is
				     the first's */
	struct cgp_input *in; size_t nin, incap;
	int64_t *summary;         /* global summary (sum over files) */
	struct cgp_table tab;
	struct cgp_buf tmp;       /* scratch for --mod-* results */
	char **own_events;        /* nev names of its own (side by side), which
				     events points to; NULL otherwise */
};

/* An empty profile whose files will be read with the rules of mode. */
void cgp_profile_init(struct cgp_profile *p, enum cgp_mode mode);
/* Reads one more file into p, with p->rules.  On failure p stays valid for
 * cgp_profile_release() only. */
int cgp_profile_read(struct cgp_profile *p, const char *path,
		     const struct cgp_read_opts *o, struct cgp_error *err);
void cgp_profile_release(struct cgp_profile *p);

/* ------------------------------------------------------------------------ */
/* Diffing and writing                                                       */
/* ------------------------------------------------------------------------ */

/* DIFF: new := new - old for every (file, function) of old, summary too.
 * Fails with CGP_EEVENTS when the events differ, CGP_EOVERFLOW. */
int cgp_diff(struct cgp_profile *newp, const struct cgp_profile *old,
	     struct cgp_error *err);
/* Buffered output to a file descriptor, for the writers below.  Output
 * goes into buf and on with write(2) when it is full or flushed.  The first
 * failed write(2) is remembered (errnum) and later output dropped, so the
 * error reported is the first one, with its reason. */
struct cgp_out {
	int fd;               /* borrowed: never closed here */
	const char *name;     /* borrowed, for messages; NULL = "the output" */
	size_t len;           /* bytes waiting in buf */
	uint64_t written;     /* bytes that reached fd */
	int errnum;           /* errno of the first failure, 0 if none */
	/* A file to be synced when complete: its writing back to disk is
	 * started every CGP_OUT_SYNC_AHEAD bytes (sync_file_range(2)), so
	 * that the final fsync waits less.  Set by cgp_outfile_open(). */
	int sync_ahead;
	uint64_t synced;      /* bytes whose writing back was started */
	/* Output held in memory instead of written (hold set): a file
	 * rewritten in place keeps its old contents until the commit writes
	 * the new ones. */
	int hold;
	struct cgp_buf held;
	char buf[1 << 16];
};

#define CGP_OUT_SYNC_AHEAD ((uint64_t)8 << 20)

void cgp_out_init(struct cgp_out *o, int fd, const char *name);
/* Appends n bytes (written out when the buffer is full); never fails: a
 * failure is kept for cgp_out_flush(). */
void cgp_out_add(struct cgp_out *o, const void *p, size_t n);
/* Room for n more bytes (n at most the buffer's size), writing out what
 * is buffered if needed: where to put them; add what was put to len. */
char *cgp_out_room(struct cgp_out *o, size_t n);
/* Writes what is buffered.  0, or CGP_EIO with "cannot write 'name':
 * strerror" ("cannot write the output: ..." without a name) and errnum
 * set, if this or any earlier write failed. */
int cgp_out_flush(struct cgp_out *o, struct cgp_error *err);
/* write(2) of all n bytes, retried after EINTR and short writes: 0, or the
 * errno value of the failure. */
int cgp_write_all(int fd, const void *p, size_t n);

/* cg_diff output of a diffed profile: keys sorted by (file, function),
 * one line-0 record each; written and flushed.  0, or CGP_ENOMEM or
 * cgp_out_flush()'s CGP_EIO with its message. */
int cgp_write_diff(struct cgp_out *o, const struct cgp_profile *p,
		   const char *path1, const char *path2, const char *cmd1,
		   const char *cmd2, struct cgp_error *err);
/* cg_merge output (current format, first-seen order); the same results.
 * Instruction-level when instruction rows were kept from instruction-level
 * inputs (positions: instr line, ob= and build-id lines; each function,
 * (fl= file, fn= name), one block, the functions in first-seen order,
 * each one's rows by object, address and line, with fi= and fe= where
 * the row's file is not the one of the row before; addresses in hex
 * after every ob=, fl= and fn= line and relative otherwise). */
int cgp_write_merge(struct cgp_out *o, const struct cgp_profile *p,
		    struct cgp_error *err);

/* ------------------------------------------------------------------------ */
/* Comparing two profiles record by record (cg_run --repeat)                */
/* ------------------------------------------------------------------------ */

/* Called for one (file, function, line) record that differs: ca and cb are
 * the counts (nev each) of the two profiles, NULL where the record is
 * absent from that profile; they are valid only during the call. */
typedef void (*cgp_cmp_fn)(void *ctx, const char *file, const char *fn,
			   int64_t line, const int64_t *ca, const int64_t *cb,
			   unsigned nev);
/* Compares two MERGE-mode profiles: calls fn for every record that is
 * absent from one of them or has other counts, in (file, function, line)
 * order (names in code-point order), and returns how many there were (0:
 * the same records with the same counts).  Fails with CGP_EEVENTS when the
 * events differ, CGP_EUSAGE for another mode, CGP_ENOMEM.  Summaries are
 * not compared. */
long cgp_compare(const struct cgp_profile *a, const struct cgp_profile *b,
		 cgp_cmp_fn fn, void *ctx, struct cgp_error *err);

/*
 * An output file that is complete or absent: written to a temporary name
 * in the same folder and renamed over path by cgp_outfile_commit().  A
 * symbolic link is followed (the link stays); an existing non-regular file
 * (device, FIFO) is written in place instead, never replaced.  When no
 * temporary file can be created beside an existing file (a read-only
 * folder), that file is written in place (inplace set, and a warning text
 * for the program to print); it is truncated only by the commit.
 *
 * The tool writes its profile by the same contract with code of its own
 * (cg_output.c has no libc): docs/design.md, "Writing an output
 * file", states it, and tests/outfile.test checks both writers.
 */
struct cgp_outfile {
	struct cgp_out out;   /* where the contents go */
	char *tmp;            /* the temporary file, NULL when writing in place */
	char *path;           /* the file replaced (symbolic links resolved) */
	char *name;           /* the name as given, for messages */
	int inplace;          /* an existing file rewritten in place */
	struct cgp_buf warning;  /* why it is in place ("" otherwise) */
};
/* Creates the temporary file (or opens a device, FIFO or, as above, the
 * file itself).  On failure returns CGP_EIO with "cannot create 'name':
 * strerror", naming the folder when it is the cause (or CGP_ENOMEM), and
 * o holds nothing.  o->tmp is a stable C string until the commit or abort:
 * a signal handler may unlink() it. */
int cgp_outfile_open(struct cgp_outfile *o, const char *path, struct cgp_error *err);
/* Flushes, syncs and renames (in place: truncates to the new length); on
 * a failure before the rename removes the temporary and returns CGP_EIO
 * with "cannot write 'name': strerror".  Where the rename is refused (a
 * sticky folder, the file another user's: EPERM; a mount point: EBUSY) the
 * temporary file is copied into the file in place, and warn gets "cannot
 * replace 'name': strerror" (for the program to print, with "writing it in
 * place").  When the rename fails and the copy cannot be made, the
 * temporary file, the only whole output, is kept and err names it.  o
 * holds nothing afterwards. */
int cgp_outfile_commit(struct cgp_outfile *o, struct cgp_error *warn,
		       struct cgp_error *err);
/* What the symbolic link cur names (a relative link taken from cur's
 * folder), malloc'd; NULL if cur is no link, or on an error.  cur, a
 * malloc'd string, is freed. */
char *cgp_follow_link(char *cur);
/* Removes the temporary (no-op after a commit or abort); only for an o
 * that cgp_outfile_open() succeeded on. */
void cgp_outfile_abort(struct cgp_outfile *o);

/* ------------------------------------------------------------------------ */
/* Profiles side by side (cgp_side.c)                                        */
/* ------------------------------------------------------------------------ */

/*
 * cg_annotate --per-file: dst (cgp_profile_init'ed in ANNOTATE mode,
 * nothing read into it) becomes one profile of the n profiles src[0..n)
 * (each read in ANNOTATE mode, with the same events), their counts side by
 * side: event e of src[g] is event g * nev + e of dst, named
 * "<event>:<labels[g]>", and event n * nev + e, named "<event>", is the sum
 * over the n profiles.  Every (file, function) entry, file, line and
 * original file name of any src is in dst; the inputs of the src move to
 * dst (in order), so that each src keeps only its table, for
 * cgp_profile_release().  Fails with CGP_EEVENTS when the events differ,
 * CGP_EUSAGE when there would be more than CGP_MAX_EVENTS events,
 * CGP_EOVERFLOW or CGP_ENOMEM; dst is then valid for
 * cgp_profile_release() only.
 */
int cgp_profile_side_by_side(struct cgp_profile *dst, struct cgp_profile *src, size_t n,
			     const char *const *labels, struct cgp_error *err);

#endif
