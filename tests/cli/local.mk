# tests/cli/local.mk -- included by the top-level Makefile.am.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Golden tests of cg_annotate, cg_merge and cg_diff: the shared conformance
# set (../shared/conformance beside the source tree) and our own
# data-driven cases (tests/cli/cases/*.case, run by run-cli.sh).

TESTS += tests/cli/conformance.sh tests/cli/run-cli.sh
EXTRA_DIST += tests/cli/conformance.sh tests/cli/run-cli.sh tests/cli/cases \
	tests/cli/json-check

# cg_merge -o under signals, a read-only folder and a full file system.
TESTS += tests/cli/merge-outfile.sh
EXTRA_DIST += tests/cli/merge-outfile.sh tests/cli/inject.c

# A source file name that is not UTF-8, from the in-tree tool through the
# three companions.
TESTS += tests/cli/names-latin1.sh
EXTRA_DIST += tests/cli/names-latin1.sh

# No companion exports a function (which would replace a library's own
# for the shared libraries it loads).
TESTS += tests/cli/exports.sh
EXTRA_DIST += tests/cli/exports.sh

# --help of each companion against its manual page (and a self-test on
# doctored copies of a page).
TESTS += tests/cli/help-vs-man.sh
EXTRA_DIST += tests/cli/help-vs-man.sh
