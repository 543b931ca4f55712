# run/local.mk -- included by the top-level Makefile.am.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cg_run: runs a program under the tool with counts that repeat.  It is
# told where the tool is to be installed (and finds it from its own place
# when the installed tree moved, see run/run_exec.c), which launcher
# program to run and the default platform.

if BUILD_TOOL
bin_PROGRAMS += run/cg_run
man_MANS += run/cg_run.1
endif
run_cg_run_SOURCES = run/cg_run.c run/run_exec.c run/run_out.c run/run.h
# Each path as a C string literal in one single-quoted shell word, so that
# a prefix holding a quote, a backslash or a double quote gives cg_run the
# path itself.
cg_run_path = '$(call shell_quote,"$(subst ",\",$(subst \,\\,$(1)))")'
run_cg_run_CPPFLAGS = -I$(top_srcdir)/lib \
	-DCG_RUN_BINDIR=$(call cg_run_path,$(bindir)) \
	-DCG_RUN_PKGLIBEXECDIR=$(call cg_run_path,$(pkglibexecdir)) \
	-DCG_RUN_LAUNCHER=$(call cg_run_path,$(VG_LAUNCHER_BIN)) \
	-DCG_RUN_DEFAULT_PLATFORM=$(call cg_run_path,$(VG_PLATFORM))
run_cg_run_CFLAGS = $(HOST_WARN_CFLAGS)
run_cg_run_LDADD = $(CGP_LDADD)
EXTRA_DIST += run/cg_run.1
