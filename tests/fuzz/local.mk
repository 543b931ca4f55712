# tests/fuzz/local.mk -- included by the top-level Makefile.am.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The libFuzzer target of the profile library (fuzz_parse.c: the reader in
# the three programs' modes, the writers, s/// expressions), built by
# run-fuzz.sh with clang and run briefly on the seed corpus, then the three
# programs, built with the sanitizers, on some of the inputs it kept (with
# the options of the model, the gate and --json too; every JSON report is
# validated against docs/manual/report.schema.json).
# Skipped when clang or libFuzzer is missing (docs/companions.md, "Tests").

TESTS += tests/fuzz/run-fuzz.sh
EXTRA_DIST += tests/fuzz/run-fuzz.sh tests/fuzz/fuzz_parse.c tests/fuzz/corpus
CLEANFILES += tests/fuzz/fuzz_parse
