# tests/install/local.mk -- included by the top-level Makefile.am.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make install / make uninstall: the layout, the installed wrapper, and the
# refusal of the distribution's prefix (tests/install/layout.test).

TESTS += tests/install/layout.test
EXTRA_DIST += tests/install/layout.test

# The recipes that use the build folder's absolute path quote it
# (tests/install/space-path.test).
TESTS += tests/install/space-path.test
EXTRA_DIST += tests/install/space-path.test

# A user's CFLAGS cannot undo the tool's -fno-stack-protector and -fno-pie
# (tests/install/user-flags.test).
TESTS += tests/install/user-flags.test
EXTRA_DIST += tests/install/user-flags.test

# build.sh's --help, a bad command, and the apt-get command it prints for
# a user who is not root (tests/install/build-sh.test).
TESTS += tests/install/build-sh.test
EXTRA_DIST += tests/install/build-sh.test
