# annotate/local.mk -- included by the top-level Makefile.am.
# SPDX-License-Identifier: GPL-2.0-or-later

bin_PROGRAMS += annotate/cg_annotate
annotate_cg_annotate_SOURCES = \
	annotate/ann.h \
	annotate/cg_annotate.c \
	annotate/ann_cols.c \
	annotate/ann_summary.c \
	annotate/ann_source.c \
	annotate/ann_side.c
annotate_cg_annotate_CPPFLAGS = -I$(top_srcdir)/lib
annotate_cg_annotate_CFLAGS = $(HOST_WARN_CFLAGS)
annotate_cg_annotate_LDADD = $(CGP_LDADD)
man_MANS += annotate/cg_annotate.1
EXTRA_DIST += annotate/cg_annotate.1
