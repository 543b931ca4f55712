# tests/html/local.mk -- included by the top-level Makefile.am.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cg_annotate --html: the pages checked without a browser (structure,
# escaping, numbers against --json, errors), then in headless Chromium
# (skipped where it is not installed or cannot start).

TESTS += tests/html/report.test tests/html/browser.test
EXTRA_DIST += tests/html/report.test tests/html/browser.test tests/html/html-check \
	tests/html/profiles.sh
