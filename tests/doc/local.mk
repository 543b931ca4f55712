# tests/doc/local.mk -- included by the top-level Makefile.am.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The examples of the README and the manual, run and compared with the
# output they show (tests/doc/examples.test; docs/testing.md says how
# examples are marked).

if BUILD_TOOL
TESTS += tests/doc/examples.test
endif
EXTRA_DIST += \
	tests/doc/examples.test \
	tests/doc/blocks.awk \
	tests/doc/match.awk \
	tests/doc/setup.sh
