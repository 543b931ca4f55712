#!/bin/sh
# run-fuzz.sh -- builds the libFuzzer target of the profile parser with clang and runs it briefly on the seed corpus.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Exit 77 (skipped) only when clang or its libFuzzer runtime is missing
# (Debian: apt-get install clang).  Any crash, leak, hang (-timeout) or
# memory blow-up (-rss_limit_mb) fails the test.
# Environment: FUZZ_SECONDS (default 25), CLANG (default: clang, clang-14).

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
seconds=${FUZZ_SECONDS:-25}

cc=${CLANG:-}
if [ -z "$cc" ]; then
    for c in clang clang-14 clang-15 clang-16; do
        if command -v "$c" >/dev/null 2>&1; then cc=$c; break; fi
    done
fi
if [ -z "$cc" ]; then
    echo "run-fuzz.sh: no clang found: skipped (apt-get install clang)"
    exit 77
fi

work=$(mktemp -d -t cg-fuzz.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT

# libFuzzer present?
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return 0; }\n' >"$work/probe.c"
if ! "$cc" -fsanitize=fuzzer "$work/probe.c" -o "$work/probe" >/dev/null 2>&1; then
    echo "run-fuzz.sh: $cc cannot link with -fsanitize=fuzzer: skipped"
    exit 77
fi

pcre_cflags=$(pkg-config --cflags libpcre2-8 2>/dev/null)
pcre_libs=$(pkg-config --libs libpcre2-8 2>/dev/null || echo -lpcre2-8)
out=$top_builddir/tests/fuzz/fuzz_parse
mkdir -p "$top_builddir/tests/fuzz"
lib=$top_srcdir/lib
# shellcheck disable=SC2086
"$cc" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$top_builddir" -I"$lib" $pcre_cflags \
    "$top_srcdir/tests/fuzz/fuzz_parse.c" "$lib/cgp_buf.c" "$lib/cgp_num.c" \
    "$lib/cgp_table.c" "$lib/cgp_read.c" "$lib/cgp_write.c" "$lib/cgp_subst.c" \
    $pcre_libs -lm -o "$out" || exit 1

mkdir "$work/corpus"
cp "$top_srcdir"/tests/fuzz/corpus/* "$work/corpus/"
cd "$work" || exit 1
"$out" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
    -print_final_stats=1 corpus >"$work/log" 2>&1
rc=$?
tail -n 25 "$work/log"
if [ $rc != 0 ]; then
    echo "run-fuzz.sh: the fuzzer found a problem (exit $rc); the input is above"
    ls crash-* leak-* timeout-* oom-* 2>/dev/null | while read -r f; do
        echo "== $f"; od -c "$f" | head -n 20
    done
    exit 1
fi
echo "run-fuzz.sh: $seconds s of fuzzing, no failure"
exit 0
