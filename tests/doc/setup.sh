#!/bin/sh
# setup.sh -- the files an example of the documentation starts from (tests/doc/examples.test).
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: setup.sh NAME...   (in the example's scratch folder, with the
# environment the examples run in: the built tree's programs first in PATH)
# Each NAME makes some files in the current folder, the way the document
# says they were made; profiles are named as the document names them.
# Environment: top_srcdir.
set -eu
: "${top_srcdir:?}"
examples=$top_srcdir/docs/manual/examples
geometry="--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"

# profile OUT PROG ARGS...: a quiet run of the tool, the program's output
# thrown away.
profile() {
    out=$1
    shift
    valgrind --tool=cachegrind -q --cachegrind-out-file="$out" "$@" > /dev/null
}

# two_versions: v1/wordcount.c as it is (4,096 buckets) and v2/wordcount.c
# with 256, each built in its folder.
two_versions() {
    mkdir -p v1 v2
    cp "$top_srcdir/docs/examples/wordcount.c" v1/wordcount.c
    sed 's/^#define TABLE_SIZE 4096$/#define TABLE_SIZE 256/' v1/wordcount.c > v2/wordcount.c
    for v in v1 v2; do
        gcc -g -O2 -o $v/wordcount $v/wordcount.c
    done
}

# example_program NAME OPT: examples/NAME.c of the manual, compiled with
# -g and OPT.
example_program() {
    cp "$examples/$1.c" .
    gcc -g "$2" -o "$1" "$1.c"
}

for name in "$@"; do
    case $name in
        wordcount-source)   # wordcount.c, the example of the manual
            cp "$top_srcdir/docs/examples/wordcount.c" . ;;
        wordcount)          # ... and the program
            cp "$top_srcdir/docs/examples/wordcount.c" .
            gcc -g -O2 -o wordcount wordcount.c ;;
        inline-cpp)         # the C++ example of inline.md
            cp "$examples/inline.cpp" . ;;
        docs-examples)      # docs/examples/ of the source tree
            mkdir -p docs/examples
            cp "$top_srcdir/docs/examples/wordcount.c" docs/examples/ ;;
        copying)            # a second input for wordcount, one that never changes
            cp "$top_srcdir/COPYING" COPYING ;;
        first-run)          # the profile of the manual's first run
            sh "$0" wordcount
            profile cachegrind.out.3805 ./wordcount wordcount.c ;;
        wc-out)             # wordcount with both simulations, fixed caches
            sh "$0" wordcount
            # shellcheck disable=SC2086
            profile wc.out --cache-sim=yes --branch-sim=yes $geometry \
                ./wordcount wordcount.c ;;
        runs)               # wordcount on two inputs
            sh "$0" wordcount copying
            profile run1.out ./wordcount wordcount.c
            profile run2.out ./wordcount COPYING ;;
        before-after)       # two profiles to compare
            sh "$0" wordcount copying
            profile before.out ./wordcount wordcount.c
            profile after.out ./wordcount wordcount.c COPYING ;;
        versions)           # v1 (4,096 buckets) and v2 (256), profiled
            cp "$top_srcdir/docs/examples/wordcount.c" .
            two_versions
            for v in v1 v2; do
                # shellcheck disable=SC2086
                profile $v.out --cache-sim=yes $geometry $v/wordcount wordcount.c
            done ;;
        ci)                 # ci.md: the two versions, and their input
            two_versions
            cp "$top_srcdir/docs/examples/wordcount.c" input.txt ;;
        ci-baseline)        # ... v1's profile as the baseline, v2 as ./wordcount
            sh "$0" ci
            cp v2/wordcount wordcount
            cg_run -q --cachegrind-out-file=baseline.out v1/wordcount input.txt > /dev/null ;;
        moved)              # a profile of sources built in /builds/ci-1234/src,
                            # whose checkout is in ~/src/project
            sh "$0" wordcount
            mkdir -p "$HOME/src/project"
            cp wordcount.c "$HOME/src/project/"
            profile wc.out ./wordcount wordcount.c
            sed "s|^fl=$PWD/|fl=/builds/ci-1234/src/|" wc.out > new.out ;;
        gate)               # the CI gate: a baseline (256 buckets), a new run (4,096)
            cp "$examples/cg-gate.sh" .
            for t in 256 4096; do
                sed "s/^#define TABLE_SIZE 4096\$/#define TABLE_SIZE $t/" \
                    "$top_srcdir/docs/examples/wordcount.c" > wordcount.c
                gcc -g -O2 -o wordcount wordcount.c
                out=new.out
                [ $t = 256 ] && out=baseline.out
                env -i PATH="$PATH" HOME=/nonexistent LC_ALL=C \
                    setarch -R valgrind --tool=cachegrind -q \
                    --cachegrind-out-file=$out ./wordcount wordcount.c > /dev/null
            done ;;
        phases-source)
            cp "$examples/phases.c" . ;;
        harness-source)     # the benchmark harness of regions.md
            cp "$examples/harness.c" . ;;
        phases|forkexec|forker)    # examples/NAME.c, built as its header says
            example_program "$name" -O2 ;;
        model|crash|clock)
            example_program "$name" -O0 ;;
        prog)               # any program
            printf 'int main(void) { return 0; }\n' > prog.c
            gcc -o prog prog.c ;;
        *)
            echo "setup.sh: unknown setup '$name'" >&2
            exit 2 ;;
    esac
done
