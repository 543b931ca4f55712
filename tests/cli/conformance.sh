#!/bin/sh
# conformance.sh -- runs ../shared/conformance/run.sh on the built cg_annotate, cg_merge and cg_diff.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Needs $top_srcdir and $top_builddir (set by `make check`); the shared
# folder lies beside the source tree.

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
runner=$top_srcdir/../shared/conformance/run.sh
if [ ! -f "$runner" ]; then
    # A release tarball (make distcheck) has no ../shared: skip there.  In
    # a git checkout the set must be present, so a wrong layout fails.
    if [ ! -e "$top_srcdir/.git" ]; then
        echo "conformance.sh: $runner not found outside a git checkout: skipped"
        exit 77
    fi
    echo "conformance.sh: $runner not found (../shared must lie beside the source tree)" >&2
    exit 1
fi
bin=$(mktemp -d -t cg-bin.XXXXXX) || exit 1
trap 'rm -rf "$bin"' EXIT
ln -s "$top_builddir/annotate/cg_annotate" "$bin/cg_annotate" &&
ln -s "$top_builddir/merge/cg_merge" "$bin/cg_merge" &&
ln -s "$top_builddir/diff/cg_diff" "$bin/cg_diff" || exit 1
bash "$runner" "$bin"
