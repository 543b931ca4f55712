#!/bin/bash
# names-latin1.sh -- end to end: a program whose source file name is not UTF-8, profiled by the in-tree tool, then read by the three companions.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The tool writes file names as the debug information has them, bytes that
# are not UTF-8 included (so does upstream's).  The companions must read
# such a profile, print the name as it is, annotate the source file under
# that name, and pass the name on unchanged in what cg_merge and cg_diff
# write.  Exit 77 (skipped) when there is no C compiler or no in-place tool.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
export LC_ALL=C
cc=${CC:-gcc}
vg=$top_builddir/vg-in-place

if ! command -v "${cc%% *}" >/dev/null 2>&1; then
    echo "names-latin1: no C compiler ($cc): skipped"
    exit 77
fi
if [ "${CG_BUILD_TOOL:-yes}" = no ]; then
    echo "names-latin1: no tool built (${CG_NO_TOOL_REASON:-configured without it}): skipped"
    exit 77
fi
if [ ! -x "$vg" ] || [ ! -d "$top_builddir/.in_place" ]; then
    echo "names-latin1: $vg is not built: skipped"
    exit 77
fi

scratch=$(mktemp -d -t cg-latin1.XXXXXX) || exit 1
trap 'rm -rf "$scratch"' EXIT
cd "$scratch" || exit 1

nfail=0
check() { # check WHAT COMMAND...: COMMAND must succeed
    local what=$1
    shift
    if "$@"; then
        echo "PASS $what"
    else
        echo "FAIL $what"
        nfail=$((nfail + 1))
    fi
}

# runs WHAT OUT ERR COMMAND...: COMMAND, with stdout to OUT and stderr to
# ERR, must exit 0 and print nothing on stderr.
runs() {
    local what=$1 out=$2 err=$3 rc
    shift 3
    "$@" >"$out" 2>"$err"
    rc=$?
    check "$what (exit $rc)" test "$rc" = 0 -a ! -s "$err"
}

src=$(printf 'caf\351.c')          # "café.c" in Latin-1
cat >"$src" <<'EOF'
static int square(int x) { return x * x; }
int main(void)
{
    int s = 0;
    for (int i = 0; i < 100; i++)
        s += square(i);
    return s == 328350 ? 0 : 1;
}
EOF
touch -d 2001-01-01 "$src"
$cc -g -O0 -o prog "$src" || { echo "FAIL compiling $src"; exit 1; }
"$vg" --tool=cachegrind -q --cachegrind-out-file=prof.out ./prog 2>vg.err
rc=$?
check "the tool runs the program (exit $rc)" test "$rc" = 0 -a -s prof.out
fl="fl=$scratch/$src"
check "the profile names the file with its Latin-1 byte" grep -q -x -F -e "$fl" prof.out

../() { :; } 2>/dev/null # (no-op: keeps shellcheck quiet about the name)

bin=$top_builddir
runs "cg_annotate reads it" ann.out ann.err "$bin/annotate/cg_annotate" prof.out
check "cg_annotate prints the name as it is" \
    grep -q -x -F -e "-- Annotated source file: $scratch/$src" ann.out
check "cg_annotate annotates the source file" \
    grep -q -E '^ *[1-9][0-9,]* \([0-9.]+%\) +        s \+= square\(i\);$' ann.out
check "cg_annotate does not call the source unreadable" \
    test -z "$(grep -A 3 -x -F -e "-- Annotated source file: $scratch/$src" ann.out | grep Unannotated)"

runs "cg_merge merges it" merge.std merge.err \
    "$bin/merge/cg_merge" -o merged.out prof.out prof.out
check "cg_merge writes the name unchanged" grep -q -x -F -e "$fl" merged.out
runs "cg_annotate reads cg_merge's output" ann2.out ann2.err \
    "$bin/annotate/cg_annotate" merged.out

runs "cg_diff diffs it" diff.out diff.err "$bin/diff/cg_diff" prof.out merged.out
check "cg_diff writes the name unchanged" grep -q -x -F -e "$fl" diff.out
runs "cg_annotate reads cg_diff's output" ann3.out ann3.err \
    "$bin/annotate/cg_annotate" diff.out

if [ "$nfail" != 0 ]; then
    for f in vg.err ann.err merge.err diff.err ann2.err ann3.err; do
        [ -s "$f" ] && sed "s/^/     $f| /" "$f" | head -n 5
    done
    exit 1
fi
exit 0
