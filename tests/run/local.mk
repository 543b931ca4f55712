# tests/run/local.mk -- included by the top-level Makefile.am.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cg_run under Valgrind: repeated runs, the client environment,
# randomisation, options and errors (tests/run/cg_run.test, which compiles
# its small programs and the seccomp helper itself).

if BUILD_TOOL
TESTS += tests/run/cg_run.test
endif
EXTRA_DIST += tests/run/cg_run.test tests/run/noaslr-forbidden.c
