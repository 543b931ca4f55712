#!/bin/bash
# exports.sh -- no companion defines a function that the shared libraries it loads would call instead of their own.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# An executable exports (in its dynamic symbol table) the functions it
# defines whose names a shared library it loads looks up: a function of
# ours named like a library's (glibc's error(), say) then takes its place
# for every library.  libdw calls error() when it runs out of memory,
# expecting glibc's, which never returns; cg_annotate's own error() took
# the call and crashed.  So no companion may export a function, versioned
# symbols apart (glibc's stdout and stderr are copied into the executable
# by copy relocations and carry their version).  Exit 77 (skipped) when
# nm is missing.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
export LC_ALL=C

if ! command -v nm >/dev/null 2>&1; then
    echo "exports: nm (binutils) is missing: skipped"
    exit 77
fi

nfail=0 nchecked=0
for prog in annotate/cg_annotate merge/cg_merge diff/cg_diff run/cg_run; do
    p=$top_builddir/$prog
    if [ ! -x "$p" ]; then
        # cg_run is built with the tool only.
        [ "$prog" = run/cg_run ] && [ "${CG_BUILD_TOOL:-yes}" = no ] && continue
        echo "FAIL $prog: not built"
        nfail=$((nfail + 1))
        continue
    fi
    if ! out=$(nm -D --defined-only "$p" 2>&1); then
        echo "FAIL $prog: nm -D failed: $out"
        nfail=$((nfail + 1))
        continue
    fi
    bad=$(printf '%s\n' "$out" | awk 'NF >= 3 && $3 !~ /@/ { print $3 }')
    if [ -n "$bad" ]; then
        echo "FAIL $prog exports, in place of the libraries' own:" $bad
        nfail=$((nfail + 1))
    else
        echo "PASS $prog exports no function of its own"
    fi
    nchecked=$((nchecked + 1))
done
[ "$nfail" = 0 ] || exit 1
[ "$nchecked" -gt 0 ] || exit 77
exit 0
