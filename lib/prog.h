/* prog.h -- what the three companion programs share besides the profile library: messages, dying, argparse-style options. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef PROG_H
#define PROG_H

#include <stddef.h>

#include "cgp.h"

/* ---- messages (prog_die.c) ---- */

/* Program name used in messages: the basename of argv[0]. */
extern const char *prog_name;
void prog_init(const char *argv0);

/* "<prog>: error: <msg>" on stderr, then exit(status). */
__attribute__((noreturn, format(printf, 2, 3)))
void die(int status, const char *fmt, ...);
/* Dies with status 1 and the library's message. */
__attribute__((noreturn)) void die_cgp(const struct cgp_error *e);
/* fn (NULL: none) runs once when die() is called, after its message and
 * before the exit: what the program must still save.  A die() inside fn
 * ends the program at once. */
void prog_on_die(void (*fn)(void));
/* "<prog>: error: <msg>" on stderr.  Not named error(): an executable's
 * function of that name would take the place of glibc's error() for the
 * libraries (libdw calls it when out of memory, expecting it not to
 * return). */
__attribute__((format(printf, 1, 2))) void prog_error(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void warning(const char *fmt, ...);
/* Makes stdout a fully buffered stream that remembers why a write to it
 * failed; call first in main. */
void prog_stdout_init(void);
/* Flushes stdout; dies (status 1) if anything written to it was lost,
 * with the reason: "cannot write the output: No space left on device". */
void finish_stdout(void);
/* Allocation that dies (status 1) on failure; n * size checked. */
void *xmalloc(size_t n, size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n, size_t size);

/* ---- the output file of -o FILE (prog_outfile.c) ---- */

/* Opens path as cgp_outfile_open() does, dying with its message, and
 * prints its warning when the file is rewritten in place.  Until the
 * commit, the temporary file is removed when the program dies (exit) or a
 * stop signal ends it (SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGXCPU, SIGXFSZ,
 * SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF: the program then
 * dies of that signal).  One such file per program. */
void prog_outfile_open(struct cgp_outfile *of, const char *path);
/* cgp_outfile_commit(): the complete output under its name; dies with its
 * message on failure. */
void prog_outfile_commit(struct cgp_outfile *of);
/* Prints the warning cgp_outfile_commit() gave when the file could not be
 * replaced and was written in place (nothing if none), and releases it. */
void prog_replace_warning(struct cgp_error *warn);

/* Called by prog_init: a fault (SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL,
 * on a stack of its own) removes the output file's temporary file, then
 * the program dies of it as before; between prog_fault_enter() and
 * prog_fault_leave() it ends the program instead with status 1 and
 * "<prog>: error: fatal signal SIGSEGV while <what> <file>: <why>": for
 * a library's faults (libdw's when memory runs out).  The strings must
 * live until the leave. */
void prog_catch_faults(void);
void prog_fault_enter(const char *what, const char *file, const char *why);
void prog_fault_leave(void);

/* ---- argparse-style command lines (prog_args.c) ---- */

/*
 * Python argparse (3.11) as the upstream scripts use it: long options with
 * unique-prefix abbreviations, "--opt value" and "--opt=value", "-o VALUE"
 * and "-oVALUE", options interleaved with positionals, "--" ending the
 * options.  Errors print the usage text and "<prog>: error: ..." and exit
 * with status 2.
 */
struct ap_opt {
	const char *names[3];  /* option strings, NULL-terminated */
	int nargs;             /* 0, 1 or AP_OPT_EQ */
	int id;
};

/* nargs of an option whose value is optional and given only after "="
 * ("--asm" or "--asm=REGEX"): never the next argument, which stays a
 * positional.  The handler gets value NULL without one. */
#define AP_OPT_EQ 2

struct ap_pos {
	const char *name;
	int plus;              /* nargs='+' (else exactly one) */
};

struct ap_spec {
	const char *usage;     /* usage block printed before errors */
	const struct ap_opt *opts; size_t nopts;
	const struct ap_pos *pos; size_t npos;
	/* Options from this index on are matched by their full name only,
	 * never as abbreviations, so that the options added to upstream's do
	 * not change what upstream's abbreviations mean (0: every option may
	 * be abbreviated). */
	size_t nabbrev;
};

/* Called once per option occurrence, in command-line order, with the
 * option string matched (abbreviations resolved) and value NULL for
 * nargs 0.  Returns NULL, or an error message (static or
 * malloc'd with *free_it set) that ap_parse reports as
 * "argument <names>: <message>". */
typedef const char *(*ap_handler)(void *ctx, int id, const char *optstr,
				  const char *value, int *free_it);

/* Parses argv[1..argc); positional values go to *vals (xmalloc'd array,
 * pointers into argv) with counts[i] values for spec->pos[i]. */
void ap_parse(const struct ap_spec *spec, int argc, char **argv,
	      ap_handler h, void *ctx, char ***vals, size_t *counts);
/* Usage error outside the parser: usage block, message, exit 2. */
__attribute__((noreturn, format(printf, 2, 3)))
void ap_usage_error(const struct ap_spec *spec, const char *fmt, ...);
/* Prints usage and help text on stdout and exits 0 (-h, --help). */
__attribute__((noreturn)) void ap_help(const char *usage, const char *help);
/* Prints "<name>-<package version>" on stdout and exits 0 (--version). */
__attribute__((noreturn)) void ap_version(const char *name);
/* Handler work of --mod-filename/--mod-funcname: compiles value into *slot
 * (replacing an earlier one) or returns argparse's message. */
const char *ap_subst(struct cgp_subst **slot, const char *value, int *free_it);
/* Python repr() of a str (for messages), xmalloc'd. */
char *py_repr(const char *s);

#endif
