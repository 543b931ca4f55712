# tests/ci/local.mk -- included by the top-level Makefile.am.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The regression check of a CI job, end to end: real builds
# profiled with cg_run, gated with cg_diff and cg_annotate, JSON validated.

if BUILD_TOOL
TESTS += tests/ci/ci-flow.test
endif
EXTRA_DIST += tests/ci/ci-flow.test
