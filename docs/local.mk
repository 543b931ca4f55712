# docs/local.mk -- included by the top-level Makefile.am.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The user manual (docs/manual/) is installed flat in $(docdir), its examples
# in $(docdir)/examples, so that the manual's relative links work both in the
# source tree and installed.  The developer notes (companions.md, testing.md,
# performance.md, design.md) are shipped by the folders they describe, not
# installed.

dist_doc_DATA += \
	docs/manual/manual.md \
	docs/manual/installing.md \
	docs/manual/measuring.md \
	docs/manual/running.md \
	docs/manual/client-requests.md \
	docs/manual/regions.md \
	docs/manual/profile-format.md \
	docs/manual/cg_annotate.md \
	docs/manual/inline.md \
	docs/manual/html.md \
	docs/manual/cg_merge.md \
	docs/manual/cg_diff.md \
	docs/manual/cg_run.md \
	docs/manual/ci.md \
	docs/manual/simulation.md \
	docs/manual/differences.md \
	docs/manual/report.schema.json

manualexamplesdir = $(docdir)/examples
dist_manualexamples_DATA = \
	docs/manual/examples/phases.c \
	docs/manual/examples/harness.c \
	docs/manual/examples/cg-gate.sh \
	docs/manual/examples/model.c \
	docs/manual/examples/forkexec.c \
	docs/manual/examples/forker.c \
	docs/manual/examples/clock.c \
	docs/manual/examples/crash.c \
	docs/manual/examples/inline.cpp

# The manual's images, beside it.
manualimagesdir = $(docdir)/images
dist_manualimages_DATA = \
	docs/manual/images/kcachegrind-machine-code.png \
	docs/manual/images/cg-annotate-html.png

# The example program of the demo (build.sh demo) and of the manual.
EXTRA_DIST += docs/examples/wordcount.c
