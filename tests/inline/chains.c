/* chains.c -- prints the inline chain of every instruction of an object's functions, as cg_annotate computes it, in addr2line's format. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Usage: chains [--symbols] [--debug-dirs=DIRS] OBJECT [FUNCTION...]
 *
 * For each function symbol of OBJECT (those named, else all), every
 * instruction is decoded with cg_annotate's disassembler, and for each
 * one its address and inline chain are printed as `addr2line -a -i -f`
 * prints them:
 *
 *   0x0000000000001180
 *   <innermost function>
 *   <file>:<line>
 *   <function it was inlined into>
 *   <call file>:<call line>
 *   ...
 *
 * ("??" for a name or file that is not known, 0 for a line.)  With
 * --symbols, a line "# SYMBOL" after each address names the function
 * symbol it belongs to.  The test
 * compares this with addr2line and eu-addr2line (tests/inline/chains.test).
 * Exit 1 with a message if the object cannot be read, its DWARF is
 * missing or corrupt, or a named function is not in it.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ann_dwarf.h"
#include "prog.h"

/* --symbols */
static int show_symbols;

static void print_chain(uint64_t addr, const char *sym, const struct ann_chain *c)
{
	size_t i;

	printf("0x%016llx\n", (unsigned long long)addr);
	if (show_symbols)
		printf("# %s\n", sym);
	if (!c->n)
		fputs("??\n??:0\n", stdout);
	for (i = 0; i < c->n; i++)
		printf("%s\n%s:%lld\n", c->f[i].fn ? c->f[i].fn : "??",
		       c->f[i].file ? c->f[i].file : "??", (long long)c->f[i].line);
}

/* Every instruction of s; dies on an error. */
static void one_function(struct ann_obj *o, const char *path, struct ann_disasm *d,
			 const struct ann_sym *s)
{
	struct cgp_error err = CGP_ERROR_INIT;
	struct ann_chain c = { NULL, 0, 0 };
	const unsigned char *code;
	size_t len;
	uint64_t addr = s->lo;
	char text[256];

	if (ann_obj_code(o, s->lo, &code, &len, &err))
		die(1, "%s: %s", s->name, err.msg);
	if (len > s->hi - s->lo)
		len = (size_t)(s->hi - s->lo);
	while (len) {
		uint64_t at = addr;
		if (!ann_disasm_one(d, &code, &len, &addr, text, sizeof text))
			die(1, "%s: no valid instruction at 0x%llx", s->name,
			    (unsigned long long)at);
		if (ann_obj_chain(o, at, &c, &err) < 0)
			die(1, "%s: %s", path, err.msg);
		print_chain(at, s->name, &c);
	}
	ann_chain_release(&c);
}

int main(int argc, char **argv)
{
	struct ann_obj_opts opts = { NULL, NULL, 0, 0 };
	struct cgp_error err = CGP_ERROR_INIT;
	struct ann_obj *o;
	struct ann_disasm *d;
	const struct ann_sym *sym;
	size_t nsym, i;
	int a = 1, k, bits, machine;

	prog_init(argv[0]);
	prog_stdout_init();
	if (a < argc && !strcmp(argv[a], "--symbols"))
		show_symbols = 1, a++;
	if (a < argc && !strncmp(argv[a], "--debug-dirs=", 13))
		opts.debug_dirs = argv[a++] + 13;
	if (a >= argc) {
		fputs("usage: chains [--symbols] [--debug-dirs=DIRS] OBJECT [FUNCTION...]\n", stderr);
		return 2;
	}
	if (ann_obj_open(&o, argv[a], &opts, &err))
		die(1, "%s: %s", argv[a], err.msg);
	if (ann_obj_no_dwarf(o))
		die(1, "%s: %s", argv[a], ann_obj_no_dwarf(o));
	machine = ann_obj_machine(o, &bits);
	if (ann_disasm_new(&d, machine, bits, &err))
		die(1, "%s: %s", argv[a], err.msg);
	sym = ann_obj_symbols(o, &nsym);
	if (a + 1 == argc)
		for (i = 0; i < nsym; i++)
			one_function(o, argv[a], d, &sym[i]);
	for (k = a + 1; k < argc; k++) {
		for (i = 0; i < nsym && strcmp(sym[i].name, argv[k]); i++)
			;
		if (i == nsym)
			die(1, "%s: no function symbol '%s'", argv[a], argv[k]);
		one_function(o, argv[a], d, &sym[i]);
	}
	ann_disasm_free(d);
	ann_obj_close(o);
	finish_stdout();
	return 0;
}
