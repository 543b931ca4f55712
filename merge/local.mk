# merge/local.mk -- included by the top-level Makefile.am.
# SPDX-License-Identifier: GPL-2.0-or-later

bin_PROGRAMS += merge/cg_merge
merge_cg_merge_SOURCES = merge/cg_merge.c
merge_cg_merge_CPPFLAGS = -I$(top_srcdir)/lib
merge_cg_merge_CFLAGS = $(HOST_WARN_CFLAGS)
merge_cg_merge_LDADD = $(CGP_LDADD)
man_MANS += merge/cg_merge.1
EXTRA_DIST += merge/cg_merge.1
