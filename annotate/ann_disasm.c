/* ann_disasm.c -- the disassembler of cg_annotate's --asm: Capstone, in AT&T syntax. */
/*
 * Copyright (C) 2026 the cachegrind-ng developers.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Capstone rather than elfutils' libasm: Capstone decodes the whole x86
 * instruction set that current compilers emit (AVX2, AVX-512, BMI, ...),
 * and its AT&T syntax is the one objdump and GDB show by default; libasm's
 * x86 disassembler, which eu-objdump uses, has no AVX-512 and its
 * interface is undocumented.  Both are Debian packages.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <capstone/capstone.h>
#include <elf.h>

#include "ann_dwarf.h"
#include "prog.h"

struct ann_disasm {
	csh h;
	cs_insn *insn;   /* Capstone's, for cs_disasm_iter() */
};

int ann_disasm_new(struct ann_disasm **d, int machine, int bits, struct cgp_error *err)
{
	cs_arch arch;
	cs_mode mode;
	csh h;

	*d = NULL;
	if (machine == EM_X86_64 || machine == EM_386) {
		arch = CS_ARCH_X86;
		mode = bits == 64 ? CS_MODE_64 : CS_MODE_32;
	} else if (machine == EM_AARCH64) {
		arch = CS_ARCH_ARM64;
		mode = CS_MODE_ARM;
	} else {
		return cgp_error_set(err, CGP_EUSAGE, "no disassembler for ELF machine %d",
				     machine);
	}
	if (cs_open(arch, mode, &h) != CS_ERR_OK)
		return cgp_error_set(err, CGP_EUSAGE, "Capstone cannot disassemble ELF machine %d",
				     machine);
	if (arch == CS_ARCH_X86)
		cs_option(h, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	*d = xcalloc(1, sizeof **d);
	(*d)->h = h;
	(*d)->insn = cs_malloc(h);
	if (!(*d)->insn) {
		cs_close(&h);
		free(*d);
		*d = NULL;
		return cgp_error_set(err, CGP_ENOMEM, "out of memory");
	}
	return 0;
}

size_t ann_disasm_one(struct ann_disasm *d, const unsigned char **code, size_t *len,
		      uint64_t *addr, char *text, size_t size)
{
	const uint8_t *c = *code;
	size_t n = *len;
	uint64_t a = *addr;

	if (!cs_disasm_iter(d->h, &c, &n, &a, d->insn))
		return 0;
	if (d->insn->op_str[0])
		snprintf(text, size, "%-6s %s", d->insn->mnemonic, d->insn->op_str);
	else
		snprintf(text, size, "%s", d->insn->mnemonic);
	*code = c;
	*len = n;
	*addr = a;
	return d->insn->size;
}

void ann_disasm_free(struct ann_disasm *d)
{
	if (!d)
		return;
	cs_free(d->insn, 1);
	cs_close(&d->h);
	free(d);
}
