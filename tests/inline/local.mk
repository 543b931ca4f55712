# tests/inline/local.mk -- included by the top-level Makefile.am.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cg_annotate's objects, DWARF and disassembly (--inline, --asm): the inline
# chains of a corpus of programs against addr2line and eu-addr2line.

check_PROGRAMS += tests/inline/chains
tests_inline_chains_SOURCES = tests/inline/chains.c $(ANN_OBJ_SOURCES)
tests_inline_chains_CPPFLAGS = -I$(top_srcdir)/lib -I$(top_srcdir)/annotate
tests_inline_chains_CFLAGS = $(HOST_WARN_CFLAGS) $(ANN_OBJ_CFLAGS)
tests_inline_chains_LDADD = $(CGP_LDADD) $(ANN_OBJ_LIBS)

TESTS += tests/inline/chains.test tests/inline/objects.test
EXTRA_DIST += tests/inline/chains.test tests/inline/objects.test \
	tests/inline/cmp-chains.awk tests/inline/failalloc.c \
	tests/inline/corpus

# The tool's --dump-instr=yes profiles through --inline, --asm and cg_merge.
if BUILD_TOOL
TESTS += tests/inline/e2e.test
endif
EXTRA_DIST += tests/inline/e2e.test
