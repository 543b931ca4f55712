#!/bin/sh
# run-fuzz.sh -- builds the libFuzzer target of the profile parser with clang and runs it briefly on the seed corpus.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Exit 77 (skipped) only when clang or its libFuzzer runtime is missing
# (Debian: apt-get install clang).  Any crash, leak, hang (-timeout) or
# memory blow-up (-rss_limit_mb) fails the test; so does a sanitizer report
# from the programs run on the inputs the fuzzer found.
#
# The fuzzer runs FUZZ_RUNS inputs (default 120000), or stops after
# FUZZ_SECONDS (default 70) on a machine too slow or busy for that; the
# number of executions is printed either way.  Inputs are at most 4 KiB:
# the target picks reader chunks from 1 byte up, so the buffer's refill
# paths need no bigger input, and small inputs keep the rate high.
# Environment: FUZZ_RUNS, FUZZ_SECONDS, CLANG (default: clang, clang-14).

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
runs=${FUZZ_RUNS:-120000}
seconds=${FUZZ_SECONDS:-70}
start=$(date +%s)

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
# cg_annotate's --inline and --asm (annotate/ann_dwarf.c and the others).
obj_cflags=$(pkg-config --cflags libdw libelf capstone 2>/dev/null)
obj_libs="$(pkg-config --libs libdw libelf capstone 2>/dev/null || echo -ldw -lelf -lcapstone) -liberty"
out=$top_builddir/tests/fuzz/fuzz_parse
mkdir -p "$top_builddir/tests/fuzz"
lib=$top_srcdir/lib
# shellcheck disable=SC2086
"$cc" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$top_builddir" -I"$lib" -I"$top_srcdir/tests/unit" $pcre_cflags \
    "$top_srcdir/tests/fuzz/fuzz_parse.c" "$lib"/cgp_*.c \
    $pcre_libs -lm -o "$out" || exit 1

mkdir "$work/corpus"
cp "$top_srcdir"/tests/fuzz/corpus/* "$work/corpus/"
cd "$work" || exit 1
built=$(date +%s)
"$out" -runs="$runs" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -max_len=4096 -print_final_stats=1 corpus >"$work/log" 2>&1
rc=$?
tail -n 25 "$work/log"
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
echo "run-fuzz.sh: ${execs:-?} executions in $(($(date +%s) - built)) s (target built in $((built - start)) s)"
if [ $rc != 0 ]; then
    echo "run-fuzz.sh: the fuzzer found a problem (exit $rc); the input is above"
    ls crash-* leak-* timeout-* oom-* 2>/dev/null | while read -r f; do
        echo "== $f"; od -c "$f" | head -n 20
    done
    exit 1
fi
echo "run-fuzz.sh: no failure"

# Second phase: the three programs themselves, built with ASan and UBSan,
# on (at most 100 of) the inputs the fuzzer kept, with options that reach
# every report section, the model and the JSON writer; each must exit 0, 1
# or 2 without a sanitizer report (the limits hold: a file against itself).
phase2=$(date +%s)
mkdir "$work/bin" "$work/run" "$work/obj"
san="-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined"
# The library once, then each program linked with it.
(
    cd "$work/obj" || exit 1
    # shellcheck disable=SC2086
    "$cc" $san -I"$top_builddir" -I"$lib" $pcre_cflags -c "$lib"/cgp_*.c "$lib"/prog_*.c
) || exit 1
ann=annotate/cg_annotate.c:annotate/ann_cols.c:annotate/ann_summary.c:annotate/ann_source.c:annotate/ann_model.c
ann=$ann:annotate/ann_inline.c:annotate/ann_asm.c:annotate/ann_dwarf.c
ann=$ann:annotate/ann_demangle.c:annotate/ann_disasm.c:annotate/ann_side.c:annotate/ann_html.c
for p in $ann merge/cg_merge.c diff/cg_diff.c; do
    srcs=
    for s in $(echo "$p" | tr ':' ' '); do srcs="$srcs $top_srcdir/$s"; done
    name=$(basename "${p%%:*}" .c)
    # shellcheck disable=SC2086
    "$cc" $san -I"$top_builddir" -I"$top_builddir/annotate" -I"$lib" $pcre_cflags $obj_cflags \
        $srcs "$work"/obj/*.o \
        $pcre_libs $obj_libs -lm -o "$work/bin/$name" || exit 1
done
cd "$work/run" || exit 1
printf 'one\ntwo\nthree\n' >a.c
touch -t 200101010000 a.c
n=0
bad=0
for f in $(ls -S "$work/corpus" | head -n 100); do
    tail -c +2 "$work/corpus/$f" >p.cgout
    for cmd in "cg_annotate p.cgout" \
               "cg_annotate --threshold=0 --context=1 --show-percs=no p.cgout" \
               "cg_annotate --diff --mod-filename=s/^.*$/a.c/ p.cgout p.cgout" \
               "cg_annotate --mod-funcname=s/x*/-/g --context=-2 p.cgout" \
               "cg_annotate --inline=yes --asm --threshold=0 p.cgout" \
               "cg_annotate --per-file --threshold=0 p.cgout p.cgout" \
               "cg_annotate --html=r.html --threshold=0 --context=1 p.cgout" \
               "cg_annotate --html=r.html --diff --mod-filename=s/^.*$/a.c/ p.cgout p.cgout" \
               "cg_merge -o m.cgout p.cgout p.cgout" \
               "cg_diff --mod-filename=s/a/b/g p.cgout p.cgout" \
               "cg_annotate --json --json-lines --normalize=rust,clones p.cgout" \
               "cg_annotate --diff --show-old-new --fail-above=each-fn=.:Ir:+0 --json p.cgout p.cgout" \
               "cg_diff --json --fail-above=Ir:+0% --fail-above=fn=a:Ir:0 p.cgout p.cgout"; do
        n=$((n + 1))
        rm -f r.html
        # shellcheck disable=SC2086
        timeout 20 "$work/bin/"$cmd >out 2>err
        rc=$?
        if [ $rc -gt 2 ] || grep -q -e Sanitizer -e 'runtime error' err; then
            bad=$((bad + 1))
            echo "FAIL (exit $rc): $cmd on corpus file $f"
            head -n 12 err
            od -c p.cgout | head -n 10
        fi
        # A JSON report, kept for the validation below; after an error
        # nothing may have been written.
        case $cmd in
            *--json*)
                if [ $rc = 0 ]; then
                    cp out "$work/json.$n"
                elif [ -s out ]; then
                    bad=$((bad + 1))
                    echo "FAIL (exit $rc, output written): $cmd on corpus file $f"
                fi ;;
            *--html*)   # a page only when complete
                if [ $rc != 0 ] && [ -e r.html ]; then
                    bad=$((bad + 1))
                    echo "FAIL (exit $rc, r.html written): $cmd on corpus file $f"
                fi ;;
        esac
    done
done
# Every JSON report against the schema, in one run of the validator.
if ls "$work"/json.* > /dev/null 2>&1; then
    "$top_srcdir/tests/cli/json-check" "$top_srcdir/docs/manual/report.schema.json" "$work"/json.* \
        > "$work/json.err" 2>&1
    case $? in
        0) echo "run-fuzz.sh: $(ls "$work"/json.* | wc -l) JSON reports valid against the schema" ;;
        77) echo "run-fuzz.sh: JSON reports not validated: $(cat "$work/json.err")" ;;
        *) bad=$((bad + 1)); echo "FAIL: JSON reports not valid:"; head -n 20 "$work/json.err" ;;
    esac
fi
echo "run-fuzz.sh: $n sanitized program runs on fuzzer inputs, $bad failed ($(($(date +%s) - phase2)) s; $(($(date +%s) - start)) s in all)"
[ $bad = 0 ]
