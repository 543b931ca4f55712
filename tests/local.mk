# tests/local.mk -- included by the top-level Makefile.am.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What every tier shares: whether this machine runs 32-bit programs
# (tests/run32; docs/testing.md, "Machines that cannot run 32-bit
# programs").  Where it does not, the 32-bit tests are skipped.  Without the
# tool there are no 32-bit tests: a note says which tests are left out.

EXTRA_DIST += tests/run32 tests/run32.test
.PHONY: no-tool-note run32-probe check-no-tool

# The companions alone: configure --disable-tool, and configure where no
# Valgrind kit is installed, each building and testing only them in a
# scratch folder (tests/no-tool-check).  Not a part of make check, as it
# runs a configure, make and make check of its own; ./build.sh check (CI)
# runs it.
check-no-tool:
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	  $(srcdir)/tests/no-tool-check
EXTRA_DIST += tests/no-tool-check

# Writing an output file: the tool, cg_merge -o and cg_diff -o in the same
# situations, against one contract (docs/design.md); without the tool,
# the companions' half.
TESTS += tests/outfile.test
EXTRA_DIST += tests/outfile.test

if !BUILD_TOOL
$(TEST_LOGS): | no-tool-note
no-tool-note:
	@echo "$(NO_TOOL_REASON): only the companions' tests run (the tool's" \
	  "unit and tool-tier tests are not registered, and the install test" \
	  "checks the companions only); docs/testing.md, \"Without the tool\""
else

# Probe once, before the tests run, and say why the 32-bit tests will be
# skipped if they will.  The script keeps the answer in tests/run32.cache
# (per boot) and honours CG_RUN32=yes|no, so this runs at every make check:
# an order-only prerequisite of the test logs, so that it neither runs twice
# (check_SCRIPTS are made twice) nor makes the logs out of date.
CLEANFILES += tests/run32.cache
$(TEST_LOGS): | run32-probe
run32-probe:
	@$(MKDIR_P) tests && \
	if why=`CC='$(CC)' top_builddir='$(abs_top_builddir)' $(srcdir)/tests/run32 probe`; then :; \
	elif test -n "$$why"; then echo "$$why: the 32-bit tests are skipped"; \
	else exit 1; fi

# The test programs without an extension (the unit tests, host C) run
# through tests/run32: a 32-bit one is skipped (exit 77) where 32-bit
# programs cannot run, every other program runs as it is.
LOG_COMPILER = $(srcdir)/tests/run32
AM_LOG_FLAGS = exec

# The skip path itself, with CG_RUN32=no.  It runs layout.test again, so not
# at the same time as the real one: two installs from one build tree at once
# would share its temporary files.
TESTS += tests/run32.test
tests/run32.log: tests/install/layout.log
endif
