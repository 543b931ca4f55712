# annotate/local.mk -- included by the top-level Makefile.am.
# SPDX-License-Identifier: GPL-2.0-or-later

# Objects, DWARF and disassembly (--inline, --asm): also linked into the
# test driver tests/inline/chains.
ANN_OBJ_SOURCES = \
	annotate/ann_dwarf.h \
	annotate/ann_dwarf.c \
	annotate/ann_demangle.c \
	annotate/ann_disasm.c
ANN_OBJ_CFLAGS = $(LIBDW_CFLAGS) $(CAPSTONE_CFLAGS) $(PCRE2_CFLAGS)
ANN_OBJ_LIBS = $(LIBDW_LIBS) $(CAPSTONE_LIBS) $(LIBIBERTY_LIBS)

bin_PROGRAMS += annotate/cg_annotate
annotate_cg_annotate_SOURCES = \
	annotate/ann.h \
	annotate/cg_annotate.c \
	annotate/ann_cols.c \
	annotate/ann_summary.c \
	annotate/ann_source.c \
	annotate/ann_inline.c \
	annotate/ann_asm.c \
	annotate/ann_model.c \
	annotate/ann_side.c \
	$(ANN_OBJ_SOURCES)
annotate_cg_annotate_CPPFLAGS = -I$(top_srcdir)/lib $(PCRE2_CFLAGS)
annotate_cg_annotate_CFLAGS = $(HOST_WARN_CFLAGS) $(ANN_OBJ_CFLAGS)
annotate_cg_annotate_LDADD = $(CGP_LDADD) $(ANN_OBJ_LIBS)
man_MANS += annotate/cg_annotate.1
EXTRA_DIST += annotate/cg_annotate.1
