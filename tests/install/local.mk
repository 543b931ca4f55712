# tests/install/local.mk -- included by the top-level Makefile.am.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make install / make uninstall: the layout, the installed wrapper, and the
# refusal of the distribution's prefix (tests/install/layout.test).

TESTS += tests/install/layout.test
EXTRA_DIST += tests/install/layout.test
