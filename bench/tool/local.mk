# bench/tool/local.mk -- the tool benchmark: 'make bench-tool', never part of 'make check'.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Included by the top-level Makefile.am.  The benchmark builds its own
# workloads in a scratch folder at run time, so nothing here is compiled by
# 'make' or 'make check'.  It measures the in-place tool folder of this
# build tree; extra options go in BENCH_TOOL_FLAGS, for example
#   make bench-tool BENCH_TOOL_FLAGS='--quick --modes ir'
# See docs/performance.md.

BENCH_TOOL_FLAGS =

BENCH_TOOL_ENV = VG_LAUNCHER='$(VG_LAUNCHER)' VG_TOOLDIR='$(VG_TOOLDIR)' CC='$(CC)'

bench-tool: all
	$(BENCH_TOOL_ENV) bash $(srcdir)/bench/tool/run \
	    --tooldir '$(abs_top_builddir)/.in_place' $(BENCH_TOOL_FLAGS)

bench-tool-quick: all
	$(BENCH_TOOL_ENV) bash $(srcdir)/bench/tool/run \
	    --tooldir '$(abs_top_builddir)/.in_place' --quick $(BENCH_TOOL_FLAGS)

.PHONY: bench-tool bench-tool-quick

CLEANFILES += bench-tool.tsv bench-tool-runs.tsv bench-tool.tsv.partial bench-tool-runs.tsv.partial

EXTRA_DIST += \
	docs/performance.md \
	bench/tool/run \
	bench/tool/perf-split \
	bench/tool/gen.c \
	bench/tool/interp.c \
	bench/tool/short.py \
	bench/tool/arrays/arrays.h \
	bench/tool/arrays/main.c \
	bench/tool/arrays/matrix.c \
	bench/tool/arrays/particles.c \
	bench/tool/arrays/grid.c \
	bench/tool/arrays/records.c
