#!/bin/bash
# run-cli.sh -- runs the data-driven CLI cases of cg_annotate, cg_merge and cg_diff (tests/cli/cases/*.case).
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: run-cli.sh [case-file ...]   (default: every tests/cli/cases/*.case)
# Needs $top_srcdir and $top_builddir (set by `make check`).
#
# A case file is a header of "key: value" lines, then sections:
#   prog: cg_annotate|cg_merge|cg_diff     program to run (as bin/<prog>)
#   args: ...                              shell words (parsed by /bin/sh)
#   exit: N                                expected exit status
#   setup: ...                             optional /bin/sh command run first
#   wrap: ...                              shell text put before the program's
#                                          exec (e.g. "ulimit -f 1;")
#   conformance: yes                       copy ../shared/conformance src/, data/
#   absent: NAME                           NAME must not exist afterwards
#   check: ...                             /bin/sh command run afterwards in
#                                          the case folder; must succeed
#   json: yes                              stdout must be one JSON document
#                                          that docs/manual/report.schema.json
#                                          accepts (tests/cli/json-check; the
#                                          case is skipped, with the reason,
#                                          without python3-jsonschema)
#   --- file NAME                          a file created before the run
#   --- stdout                             expected stdout, exactly
#   --- stdout-re                          grep -E patterns instead, in order
#   --- stderr                             grep -E patterns, each must match
#                                          a line of stderr, in that order
#   --- outfile NAME                       expected contents of NAME
# Sections end at the next "--- " line; every line of a section ends with
# a newline.  Without a "--- stdout" section stdout must be empty when the
# exit status is not 0.  Without a "--- stderr" section stderr must be empty.
# Lines before the header starting with "#" are comments.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
shared=$top_srcdir/../shared/conformance

if [ $# = 0 ]; then
    set -- "$here"/cases/*.case
fi

scratch=$(mktemp -d -t cg-cli.XXXXXX) || exit 1
trap 'rm -rf "$scratch"' EXIT
export LC_ALL=C TZ=UTC

# match_in PATTERNS FILE LABEL: each pattern must match a line of FILE
# after the line the previous pattern matched.
match_in() {
    local from=1 pat at
    while IFS= read -r pat; do
        [ -n "$pat" ] || continue
        at=$(tail -n "+$from" "$2" | grep -n -E -m1 -e "$pat" | cut -d: -f1)
        if [ -z "$at" ]; then
            reasons+=("$3 lacks /$pat/")
            return
        fi
        from=$((from + at))
    done <"$1"
}

npass=0
nfail=0
nskip=0
for case in "$@"; do
    id=$(basename "$case" .case)
    w=$scratch/$id
    rm -rf "$w"
    mkdir -p "$w/bin" "$w/.expect"
    ln -s "$top_builddir/annotate/cg_annotate" "$w/bin/cg_annotate"
    ln -s "$top_builddir/merge/cg_merge" "$w/bin/cg_merge"
    ln -s "$top_builddir/diff/cg_diff" "$w/bin/cg_diff"
    # Split the case into header values and section files.
    awk -v dir="$w" -v xd="$w/.expect" '
        BEGIN { sect = "" }
        /^--- / {
            n = split($0, f, " ")
            if (f[2] == "file") { sect = dir "/" f[3]; system("mkdir -p \"$(dirname \"" sect "\")\"") }
            else if (f[2] == "stdout") sect = xd "/stdout"
            else if (f[2] == "stderr") sect = xd "/stderr"
            else if (f[2] == "stdout-re") sect = xd "/stdout-re"
            else if (f[2] == "outfile") { sect = xd "/outfile"; print f[3] > (xd "/outfile.name") }
            printf "" > sect
            next
        }
        sect == "" && /^#/ { next }
        sect == "" && /^[a-z]+: ?/ {
            key = $0; sub(/:.*/, "", key); val = $0; sub(/^[a-z]+: ?/, "", val)
            print val > (xd "/" key)
            next
        }
        sect != "" { print >> sect }
    ' "$case"
    prog=$(cat "$w/.expect/prog" 2>/dev/null)
    args=$(cat "$w/.expect/args" 2>/dev/null)
    want_rc=$(cat "$w/.expect/exit" 2>/dev/null)
    reasons=()
    if [ -f "$w/.expect/conformance" ]; then
        cp -R "$shared/src" "$shared/data" "$w/"
        find "$w/src" -exec touch -t 200101010000 {} +
        find "$w/data" -exec touch -t 200201010000 {} +
    fi
    if [ -f "$w/.expect/setup" ]; then
        (cd "$w" && /bin/sh -c "$(cat .expect/setup)") >"$w/.expect/setup.log" 2>&1 ||
            reasons+=("setup failed")
    fi
    wrap=$(cat "$w/.expect/wrap" 2>/dev/null)
    (cd "$w" && timeout 60 /bin/sh -c "$wrap exec bin/$prog $args" >"$w/.expect/out" 2>"$w/.expect/err" </dev/null)
    rc=$?
    [ "$rc" = "$want_rc" ] || reasons+=("exit $rc, expected $want_rc")
    if [ -f "$w/.expect/stdout" ]; then
        cmp -s "$w/.expect/stdout" "$w/.expect/out" || reasons+=("stdout differs")
    elif [ ! -f "$w/.expect/stdout-re" ] && [ "$want_rc" != 0 ] && [ -s "$w/.expect/out" ]; then
        reasons+=("stdout not empty")
    fi
    if [ -f "$w/.expect/stdout-re" ]; then
        match_in "$w/.expect/stdout-re" "$w/.expect/out" stdout
    fi
    if [ -f "$w/.expect/stderr" ]; then
        match_in "$w/.expect/stderr" "$w/.expect/err" stderr
    elif [ -s "$w/.expect/err" ]; then
        reasons+=("stderr not empty")
    fi
    if [ -f "$w/.expect/outfile.name" ]; then
        of=$(cat "$w/.expect/outfile.name")
        cmp -s "$w/.expect/outfile" "$w/$of" || reasons+=("$of differs or is missing")
    fi
    if [ -f "$w/.expect/absent" ]; then
        for pat in $(cat "$w/.expect/absent"); do
            # shellcheck disable=SC2086
            if ls -d "$w"/$pat >/dev/null 2>&1; then
                reasons+=("$pat exists")
            fi
        done
    fi
    skipped=
    if [ -f "$w/.expect/json" ]; then
        "$here/json-check" "$top_srcdir/docs/manual/report.schema.json" "$w/.expect/out" \
            2>"$w/.expect/json.err"
        case $? in
            0) ;;
            77) skipped=$(cat "$w/.expect/json.err") ;;
            *) reasons+=("stdout is not a valid report: $(head -n 3 "$w/.expect/json.err")") ;;
        esac
    fi
    if [ -f "$w/.expect/check" ]; then
        (cd "$w" && /bin/sh -c "$(cat .expect/check)") >/dev/null 2>&1 </dev/null ||
            reasons+=("check failed: $(cat "$w/.expect/check")")
    fi
    if [ ${#reasons[@]} = 0 ] && [ -n "$skipped" ]; then
        echo "SKIP $id ($skipped)"
        nskip=$((nskip + 1))
    elif [ ${#reasons[@]} = 0 ]; then
        echo "PASS $id"
        npass=$((npass + 1))
    else
        echo "FAIL $id ($(printf '%s; ' "${reasons[@]}"))"
        echo "     command: bin/$prog $args"
        sed 's/^/     stderr| /' "$w/.expect/err" | head -n 8
        if [ -f "$w/.expect/stdout" ]; then
            diff -u "$w/.expect/stdout" "$w/.expect/out" | head -n 40
        fi
        nfail=$((nfail + 1))
    fi
done
echo "$npass passed, $nfail failed, $nskip skipped"
[ "$nfail" = 0 ] && [ "$npass" -gt 0 ]
