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
	annotate/ann_html.c \
	$(ANN_OBJ_SOURCES)
nodist_annotate_cg_annotate_SOURCES = annotate/ann_html_assets.h
annotate_cg_annotate_CPPFLAGS = -I$(top_srcdir)/lib -I$(top_builddir)/annotate $(PCRE2_CFLAGS)
annotate_cg_annotate_CFLAGS = $(HOST_WARN_CFLAGS) $(ANN_OBJ_CFLAGS)
annotate_cg_annotate_LDADD = $(CGP_LDADD) $(ANN_OBJ_LIBS)
man_MANS += annotate/cg_annotate.1
EXTRA_DIST += annotate/cg_annotate.1

# The style and script of --html pages, written as files of their own and
# compiled in as C strings (ann_html.c includes the header).
ANN_HTML_ASSETS = annotate/html/report.css annotate/html/report.js
annotate/ann_html_assets.h: $(ANN_HTML_ASSETS:%=$(srcdir)/%) $(srcdir)/annotate/html/embed.awk
	$(AM_V_GEN)$(MKDIR_P) annotate && \
	  $(AWK) -f $(srcdir)/annotate/html/embed.awk $(ANN_HTML_ASSETS:%=$(srcdir)/%) > $@.tmp && \
	  mv $@.tmp $@
BUILT_SOURCES += annotate/ann_html_assets.h
CLEANFILES += annotate/ann_html_assets.h
EXTRA_DIST += $(ANN_HTML_ASSETS) annotate/html/embed.awk
