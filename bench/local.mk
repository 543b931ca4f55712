# bench/local.mk -- included by the top-level Makefile.am.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The companions' benchmark (not a test): bench/cgout-gen writes big
# synthetic profiles, bench/bench-companions times the programs against the
# installed 3.19 tools.  Results: docs/companions.md.

noinst_PROGRAMS += bench/cgout-gen
bench_cgout_gen_SOURCES = bench/cgout-gen.c
bench_cgout_gen_CFLAGS = $(HOST_WARN_CFLAGS)
EXTRA_DIST += bench/bench-companions
