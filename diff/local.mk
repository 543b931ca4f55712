# diff/local.mk -- included by the top-level Makefile.am.
# SPDX-License-Identifier: GPL-2.0-or-later

bin_PROGRAMS += diff/cg_diff
diff_cg_diff_SOURCES = diff/cg_diff.c
diff_cg_diff_CPPFLAGS = -I$(top_srcdir)/lib
diff_cg_diff_CFLAGS = $(HOST_WARN_CFLAGS)
diff_cg_diff_LDADD = $(CGP_LDADD)
man_MANS += diff/cg_diff.1
EXTRA_DIST += diff/cg_diff.1
