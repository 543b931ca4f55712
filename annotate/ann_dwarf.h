/* ann_dwarf.h -- the objects of an instruction-level profile: ELF file, build-id, debug file, symbols, code bytes and inline chains. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ANN_DWARF_H
#define ANN_DWARF_H

#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdw.h>

#include "cgp.h"

/*
 * An object (executable or shared library) as cg_annotate's --inline and
 * --asm read it: the file is opened with libelf, checked against what the
 * profile recorded (build-id, or the time of the run), and its DWARF is
 * read with libdw, from the file itself, from a separate debug file found
 * by build-id (<dir>/.build-id/xx/yyyy.debug) or .gnu_debuglink, and from
 * split DWARF units (.dwo files), which libdw finds itself.
 *
 * Addresses are the object's own virtual addresses, as objdump shows
 * them.  Nothing here prints or exits; failures come back as CGP_E*
 * codes with a message that does not repeat the object's path (the caller
 * puts it first).  Strings returned point into libelf's and libdw's data
 * and stay valid until ann_obj_close().
 */

struct ann_obj;

/* One frame of an inline chain. */
struct ann_frame {
	const char *fn;      /* linkage name, else name; NULL: not known */
	const char *file;    /* full path; NULL: not known */
	int64_t line;        /* 0: not known */
	int inlined;         /* fn is an inlined instance, not the function
				whose code this is */
	Dwarf_Die die;       /* the function's DIE (valid when fn is set) */
};

/*
 * The inline chain of an address, innermost first: f[0] names the
 * innermost function (an inlined one, or the function itself) and the
 * line of the address from the line table; each following frame names the
 * function that the previous one was inlined into and the call site in it
 * (DW_AT_call_file, DW_AT_call_line).  The last frame is the function
 * whose code it is.  This is what `addr2line -i -f` prints.
 */
struct ann_chain {
	struct ann_frame *f;   /* owned */
	size_t n, cap;
};

void ann_chain_release(struct ann_chain *c);

/* A map from pointers (never NULL) to malloc'd strings, by open
 * addressing; zeroed, it is empty. */
struct ann_ptrmap {
	struct ann_ptrmap_slot {
		const void *key;
		char *val;            /* owned; NULL until the caller sets it */
	} *slot;
	size_t n, mask;
};

/* The slot of key, added (with val NULL) if it is not there; valid until
 * the next call. */
struct ann_ptrmap_slot *ann_ptrmap_get(struct ann_ptrmap *m, const void *key);
void ann_ptrmap_release(struct ann_ptrmap *m);

/* Where an object's debug files are looked for, and what the profile
 * says about it. */
struct ann_obj_opts {
	/* Folders holding .build-id/ trees and debuglink copies, separated
	 * by ":"; NULL means "/usr/lib/debug". */
	const char *debug_dirs;
	/* The build-id the profile recorded (raw bytes), or NULL. */
	const unsigned char *build_id;
	size_t build_id_len;
	/* Without a recorded build-id: an object modified after this time
	 * (ns since the epoch) changed since the run; 0: not checked. */
	int64_t run_time_ns;
};

/*
 * Opens path.  Fails with CGP_EIO ("cannot open: No such file or
 * directory", a read error), or CGP_EPARSE when the file is not an ELF
 * object, its ELF cannot be read, or it is not the object of the run:
 * another build-id than the recorded one, none where one was recorded, or
 * (without one) modified after the run.  An object without usable DWARF
 * still opens: ann_obj_no_dwarf() then says why.  *out is owned by the
 * caller (ann_obj_close()).
 */
int ann_obj_open(struct ann_obj **out, const char *path,
		 const struct ann_obj_opts *opts, struct cgp_error *err);
void ann_obj_close(struct ann_obj *o);

/* NULL if the object has DWARF; else why not ("no debug information
 * (...)", "corrupt DWARF: ..."), owned by o. */
const char *ann_obj_no_dwarf(const struct ann_obj *o);
/* The file the DWARF is read from (the object or its debug file), or
 * NULL. */
const char *ann_obj_debug_file(const struct ann_obj *o);
/* The object's ELF machine (EM_X86_64, EM_386, ...) and class (32/64). */
int ann_obj_machine(const struct ann_obj *o, int *bits);

/*
 * Reads the table of the DWARF's units (once; ann_obj_chain() does it
 * when first called).  0, or CGP_EPARSE for DWARF that cannot be read (a
 * split unit's missing .dwo file, corrupt DWARF), returned again by every
 * later call of this and of ann_obj_chain().
 */
int ann_obj_units(struct ann_obj *o, struct cgp_error *err);
/*
 * The inline chain of addr into c (replacing its frames).  Returns 1, 0
 * when no unit of the DWARF covers addr (c then empty), or CGP_EPARSE for
 * DWARF that cannot be read ("corrupt DWARF: ..."); after such an error
 * the object's DWARF must not be trusted for any address.
 */
int ann_obj_chain(struct ann_obj *o, uint64_t addr, struct ann_chain *c,
		  struct cgp_error *err);

/*
 * The name a report shows for frame f: a linkage name demangled (as
 * Valgrind spells names), else the DWARF's name qualified by its scopes:
 * "std::__sort<...>", "main::<lambda(int, int)>::operator()" (GCC gives
 * some functions, such as those of lambdas, no linkage name).  Owned by o
 * (one string per function); NULL for a frame without a name.
 */
const char *ann_obj_frame_name(struct ann_obj *o, const struct ann_frame *f);

/* A function symbol: [lo, hi), its name as the symbol table has it. */
struct ann_sym {
	const char *name;
	uint64_t lo, hi;
};

/* The function symbol containing addr (the object's symbol table, else
 * its debug file's, else the dynamic one): 1 with *s set, 0 if none. */
int ann_obj_symbol(const struct ann_obj *o, uint64_t addr, struct ann_sym *s);
/* The n function symbols, sorted by address (aliases left out): for
 * callers that walk them all. */
const struct ann_sym *ann_obj_symbols(const struct ann_obj *o, size_t *n);

/*
 * The code at addr: *p points at its bytes in the object's section that
 * holds addr, *len how many there are to the end of that section.  0, or
 * CGP_EPARSE when no section with contents holds addr, or it cannot be
 * read.
 */
int ann_obj_code(struct ann_obj *o, uint64_t addr, const unsigned char **p,
		 size_t *len, struct cgp_error *err);

/* ---- Disassembly (ann_disasm.c) ---- */

/* A disassembler for one machine: Capstone, in AT&T syntax (objdump's). */
struct ann_disasm;

/* For ann_obj_machine()'s machine and bits: 0, or CGP_EUSAGE for a
 * machine it does not know ("no disassembler for ELF machine 183"). */
int ann_disasm_new(struct ann_disasm **d, int machine, int bits,
		   struct cgp_error *err);
/*
 * Decodes the instruction at *addr from the *len bytes at *code: its text
 * ("mov    %rdi,%rax", NUL-terminated, cut to size) into text, and
 * advances *code, *len and *addr past it.  Returns its length in bytes,
 * or 0 when the bytes are not a valid instruction (nothing advanced).
 */
size_t ann_disasm_one(struct ann_disasm *d, const unsigned char **code, size_t *len,
		      uint64_t *addr, char *text, size_t size);
void ann_disasm_free(struct ann_disasm *d);

/* The demangled C++ name (as Valgrind demangles: with parameters), or a
 * copy of name if it is not a mangled one; malloc'd, NULL without memory. */
char *ann_demangle(const char *name);

#endif
