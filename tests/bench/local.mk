# tests/bench/local.mk -- included by the top-level Makefile.am.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The benchmarks' own checks (they are not tests themselves): the
# companions' benchmark and its generator on small profiles
# (tests/bench/companions.test), bench/tool/perf-split on the reports of a
# stand-in perf (tests/bench/perf-split.test), and the tool benchmark
# bench/tool/run on its smallest workload (tests/bench/run.test),
# registered with the tool only.

TESTS += tests/bench/companions.test tests/bench/perf-split.test
if BUILD_TOOL
TESTS += tests/bench/run.test
endif
EXTRA_DIST += tests/bench/run.test tests/bench/companions.test tests/bench/perf-split.test
