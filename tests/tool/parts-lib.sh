# parts-lib.sh -- what the tests of regions, phases and threads share (sourced, not run).
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The sourcing script sets T (its scratch folder) and name (for messages),
# and has top_srcdir and top_builddir in its environment (make check sets
# them).  Each check prints one PASS/FAIL/SKIP line; finish prints the
# closing "N passed, N failed, N skipped" and exits with the status.

: "${top_builddir:?}" "${top_srcdir:?}" "${VG_LAUNCHER:=/usr/bin/valgrind}"
passes=0 fails=0 skips=0
progs=$top_srcdir/tests/tool/progs

pass() { echo "PASS: $*"; passes=$((passes + 1)); }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
skip() { echo "SKIP: $*"; skips=$((skips + 1)); }
finish() {
    echo "$passes passed, $fails failed, $skips skipped"
    [ "$fails" = 0 ]
    exit
}

# vg DIR OPTIONS... PROGRAM ARGS...: our tool in a fixed environment, in
# folder DIR (created), stdout to DIR/stdout, stderr to DIR/stderr, status
# in DIR/rc.  Profiles go to DIR/out unless the options say otherwise.
vg() {
    local dir=$1
    shift
    mkdir -p "$dir"
    (cd "$dir" && setarch -R env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C \
        VALGRIND_LIB="$top_builddir/.in_place" "$VG_LAUNCHER" --tool=cachegrind \
        --cachegrind-out-file=out "$@" > stdout 2> stderr < /dev/null)
    echo $? > "$dir/rc"
}

# records FILE: one line per count line of a profile,
# "FILE<TAB>FUNCTION<TAB>LINE<TAB>COUNTS".
records() {
    awk '/^fl=/ { fl = substr($0, 4); next }
         /^fn=/ { fn = substr($0, 4); next }
         /^-?[0-9]/ { line = $1; $1 = ""; sub(/^ /, ""); print fl "\t" fn "\t" line "\t" $0 }' "$1"
}

# summary FILE: the counts of its summary: line.
summary() {
    sed -n 's/^summary: //p' "$1"
}

# is_zero COUNTS...: every count is 0.
is_zero() {
    local c
    for c in "$@"; do
        [ "$c" = 0 ] || return 1
    done
}

# sum_summaries FILE...: the sums of the summary: lines of the files,
# event by event.
sum_summaries() {
    local f
    for f in "$@"; do summary "$f"; done |
        awk '{ for (i = 1; i <= NF; i++) s[i] += $i; if (NF > n) n = NF }
             END { for (i = 1; i <= n; i++) printf "%s%d", (i > 1 ? " " : ""), s[i]; print "" }'
}

# printed_ir STDERR: the "I refs:" total of an end-of-run summary, digits
# only.
printed_ir() {
    sed -n 's/^==[0-9]*== I refs: *//p' "$1" | tr -d ,
}

# well_formed FILE: its summary: line equals the sums of its count lines.
well_formed() {
    awk '/^summary:/ { for (i = 2; i <= NF; i++) if ($i != s[i - 1]) bad = 1; seen = 1; next }
         /^-?[0-9]/ { for (i = 2; i <= NF; i++) s[i - 1] += $i }
         END { exit !(seen && !bad) }' "$1"
}

# no32: empty where 32-bit programs run, else the reason (tests/run32).
no32=$("$top_srcdir/tests/run32" probe)
[ $? -le 1 ] || { echo "$name: cannot tell whether 32-bit programs run here (tests/run32 probe)"; exit 99; }
