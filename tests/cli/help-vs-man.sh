#!/bin/sh
# help-vs-man.sh -- checks that the --help and the manual page of each program name the same options.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# For cg_annotate, cg_merge, cg_diff and cg_run, and for the tool (its
# section of "vg-in-place --tool=cachegrind --help" against cachegrind-ng.1):
#   - every option that --help lists must be a tag of the page's OPTIONS
#     section (".TP" items), and every option tagged there must be listed by
#     --help;
#   - a default that --help gives must appear in the paragraph of the same
#     option on the page: a companion's numeric "(default: 8)" as the
#     number, the tool's "[no]" as "Default: no".
# Then the check is run on doctored copies of a page (an option removed, an
# option added, a default changed) and must fail each time, so that a check
# that can never fail is caught too.
#
# Usage: help-vs-man.sh                       all five programs (make check)
#        help-vs-man.sh --check PROG PAGE     one companion against one page
#        help-vs-man.sh --check-tool PAGE     the in-tree tool against a page
# Environment: top_srcdir and top_builddir (set by make check; default: the
# tree this script is in).  Exit status 0 if all agree, 1 otherwise.

me=help-vs-man
here=$(cd "$(dirname "$0")" && pwd) || exit 1
: "${top_srcdir:=$here/../..}"
: "${top_builddir:=$top_srcdir}"

# help_entries PROG: one line per option entry of PROG --help, "OPTS<TAB>TEXT",
# where OPTS is the space-separated option names of the entry and TEXT its
# description (continuation lines joined).
help_entries() {
    "$1" --help | awk '
        function flush() {
            if (opts != "")
                printf "%s\t%s\n", opts, text
            opts = ""; text = ""
        }
        /^[^ ]/ { flush(); in_opts = ($0 ~ /^options:/); next }
        !in_opts { next }
        /^  -/ {
            flush()
            line = substr($0, 3)
            # The option column ends at two spaces (or at the end).
            col = line; desc = ""
            if ((i = index(line, "  ")) > 0) {
                col = substr(line, 1, i - 1)
                desc = substr(line, i)
            }
            n = split(col, parts, ", ")
            for (k = 1; k <= n; k++) {
                split(parts[k], w, " ")   # "-o FILE" -> "-o"
                sub(/=.*/, "", w[1])      # "--repeat=N" -> "--repeat"
                opts = opts (opts == "" ? "" : " ") w[1]
            }
            text = desc
            next
        }
        /^   / { text = text " " $0; next }
        END { flush() }'
}

# tool_help: the in-tree tool's --help, in an environment without
# ~/.valgrindrc or $VALGRIND_OPTS.
tool_help() {
    env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C \
        "$top_builddir/vg-in-place" --tool=cachegrind --help
}

# tool_help_entries: "OPTS<TAB>TEXT" for each option of the tool's section
# of --help ("  user options for Cachegrind:" up to a blank line): OPTS is
# the name before "=", TEXT the description, "[default]" included.
tool_help_entries() {
    tool_help | awk '
        /^  user options for Cachegrind:$/ { in_opts = 1; next }
        in_opts && /^$/ { exit }
        in_opts && /^    -/ {
            line = substr($0, 5)
            col = line; desc = ""
            if ((i = index(line, "  ")) > 0) {
                col = substr(line, 1, i - 1)
                desc = substr(line, i)
            }
            sub(/=.*/, "", col)
            printf "%s\t%s\n", col, desc
        }'
}

# man_entries PAGE: the same for the tags of the OPTIONS section of PAGE.
# Roff escapes are undone ("\-" is "-"); what follows "=" in a tag word
# ("--context=" followed by an italic N, "--aslr=no") is dropped.
man_entries() {
    sed -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\(bu/*/g' "$1" | awk '
        function flush() {
            if (opts != "")
                printf "%s\t%s\n", opts, text
            opts = ""; text = ""
        }
        /^\.SH/ { flush(); in_opts = ($0 ~ /^\.SH +"?OPTIONS/); next }
        !in_opts { next }
        /^\.TP/ { flush(); want_tag = 1; next }
        want_tag {
            want_tag = 0
            line = $0
            sub(/^\.[A-Z]+[ \t]*/, "", line)
            gsub(/"/, " ", line)
            n = split(line, w, /[ \t,]+/)
            for (k = 1; k <= n; k++) {
                if (w[k] !~ /^--?[A-Za-z0-9]/)
                    continue
                sub(/=.*/, "", w[k])
                opts = opts (opts == "" ? "" : " ") w[k]
            }
            next
        }
        /^\.(PP|LP|P)([ \t]|$)/ { flush(); next }
        { line = $0; sub(/^\.[A-Z]+[ \t]*/, "", line); gsub(/"/, "", line)
          text = text " " line }
        END { flush() }'
}

# check PROG PAGE: prints one line per disagreement; returns 1 if any.
# PROG "tool" stands for the in-tree tool.
check() {
    prog=$1 page=$2 name=${1##*/}
    tmp=${TMPDIR:-/tmp}/$me.$$
    mkdir -p "$tmp" || return 1
    if [ "$prog" = tool ]; then
        name=cachegrind
        tool_help_entries > "$tmp/help"
        cstatus=$?
    else
        help_entries "$prog" > "$tmp/help"
        cstatus=$?
    fi
    if [ $cstatus -ne 0 ]; then
        echo "$me: $name: '$prog --help' failed"
        rm -rf "$tmp"
        return 1
    fi
    man_entries "$page" > "$tmp/man"
    cstatus=0
    if ! [ -s "$tmp/help" ]; then
        echo "$me: $name: no options found in '$prog --help'"
        cstatus=1
    fi
    if ! [ -s "$tmp/man" ]; then
        echo "$me: $name: no options found in the OPTIONS section of $page"
        cstatus=1
    fi
    cut -f1 "$tmp/help" | tr ' ' '\n' | sort -u > "$tmp/help.opts"
    cut -f1 "$tmp/man" | tr ' ' '\n' | sort -u > "$tmp/man.opts"
    for o in $(comm -23 "$tmp/help.opts" "$tmp/man.opts"); do
        echo "$me: $name: option $o is listed by --help but not documented in $page"
        cstatus=1
    done
    for o in $(comm -13 "$tmp/help.opts" "$tmp/man.opts"); do
        echo "$me: $name: option $o is documented in $page but not listed by --help"
        cstatus=1
    done
    # Defaults: a companion's "(default: 0.1)" must be in the page's
    # paragraph of the same option, the tool's "[no]" as "Default: no".
    while IFS="$(printf '\t')" read -r opts text; do
        if [ "$prog" = tool ]; then
            def=$(printf '%s\n' "$text" | sed -n 's/.*\[\(.*\)\]$/\1/p')
        else
            def=$(printf '%s\n' "$text" | sed -n 's/.*(default: \([0-9][0-9.]*\)).*/\1/p')
        fi
        [ -n "$def" ] || continue
        first=${opts%% *}
        para=$(awk -F '\t' -v o="$first" '
            { n = split($1, w, " "); for (k = 1; k <= n; k++) if (w[k] == o) print $2 }' "$tmp/man")
        [ -n "$para" ] || continue   # already reported as undocumented
        if [ "$prog" = tool ]; then
            printf '%s\n' "$para" | grep -qF "Default: $def." && continue
        else
            printf ' %s \n' "$para" | grep -q "[^0-9.]$def[^0-9]" && continue
        fi
        echo "$me: $name: option $first has default $def in --help, but $page does not say so"
        cstatus=1
    done < "$tmp/help"
    rm -rf "$tmp"
    return $cstatus
}

# must_fail WHAT PROG PAGE: the check of a doctored page must fail.
must_fail() {
    if out=$(check "$2" "$3"); then
        echo "$me: self-test: the check passed a page with $1 ($3)"
        return 1
    fi
    case $out in
        *"$me: "*) return 0 ;;
    esac
    echo "$me: self-test: the check failed without a message for $1"
    return 1
}

if [ "${1:-}" = --check ]; then
    [ $# -eq 3 ] || { echo "usage: $0 --check PROG PAGE" >&2; exit 2; }
    check "$2" "$3"
    exit $?
fi
if [ "${1:-}" = --check-tool ]; then
    [ $# -eq 2 ] || { echo "usage: $0 --check-tool PAGE" >&2; exit 2; }
    check tool "$2"
    exit $?
fi

status=0
# Without the tool (configure --disable-tool), cg_run and the tool are not
# built: only the three companions are checked.
progs="annotate/cg_annotate merge/cg_merge diff/cg_diff"
if [ "${CG_BUILD_TOOL:-yes}" = no ]; then
    echo "$me: no tool built (${CG_NO_TOOL_REASON:-configured without it}): cg_run and the tool not checked"
else
    progs="$progs run/cg_run"
fi
for p in $progs; do
    prog=$top_builddir/$p
    page=$top_srcdir/$p.1
    if ! [ -x "$prog" ]; then
        echo "$me: $prog is missing: build it first"
        status=1
        continue
    fi
    if ! [ -f "$page" ]; then
        echo "$me: $page is missing"
        status=1
        continue
    fi
    if check "$prog" "$page"; then
        echo "PASS: ${p##*/}: --help and ${p##*/}.1 agree"
    else
        echo "FAIL: ${p##*/}: --help and ${p##*/}.1 disagree"
        status=1
    fi
done

# The tool.
page=$top_srcdir/cachegrind-ng.1
if [ "${CG_BUILD_TOOL:-yes}" = no ]; then
    :
elif ! [ -x "$top_builddir/vg-in-place" ] || ! [ -d "$top_builddir/.in_place" ]; then
    echo "$me: $top_builddir/vg-in-place or .in_place is missing: build first"
    status=1
elif ! [ -f "$page" ]; then
    echo "$me: $page is missing"
    status=1
elif check tool "$page"; then
    echo "PASS: cachegrind: --help and cachegrind-ng.1 agree"
else
    echo "FAIL: cachegrind: --help and cachegrind-ng.1 disagree"
    status=1
fi

# Self-test on doctored copies of cg_annotate.1.
prog=$top_builddir/annotate/cg_annotate
page=$top_srcdir/annotate/cg_annotate.1
if [ -x "$prog" ] && [ -f "$page" ]; then
    tmp=${TMPDIR:-/tmp}/$me.self.$$
    mkdir -p "$tmp" || exit 1
    # An option missing: the tag of --diff and its paragraph removed.
    awk '/^\.TP/ { held = $0; next }
         held != "" { if ($0 ~ /^\.B \\-\\-diff$/) { skip = 1; held = ""; next }
                      print held; held = "" }
         skip && /^\.TP/ { skip = 0 }
         !skip' "$page" > "$tmp/missing.1"
    # An option too many.
    sed 's/^\.BR \\-h ", " \\-\\-help$/.BR \\-h ", " \\-\\-help ", " \\-\\-frobnicate/' \
        "$page" > "$tmp/extra.1"
    # A default changed.
    sed 's/default 8)/default 9)/' "$page" > "$tmp/default.1"
    for f in missing extra default; do
        if cmp -s "$page" "$tmp/$f.1"; then
            echo "$me: self-test: doctoring '$f' changed nothing (is the page's layout new?)"
            status=1
        fi
    done
    must_fail "--diff removed" "$prog" "$tmp/missing.1" || status=1
    must_fail "an unknown --frobnicate" "$prog" "$tmp/extra.1" || status=1
    must_fail "a wrong --context default" "$prog" "$tmp/default.1" || status=1
    [ $status -eq 0 ] && echo "PASS: self-test: doctored copies of cg_annotate.1 fail"
    rm -rf "$tmp"
fi

# Self-test on doctored copies of cachegrind-ng.1.
page=$top_srcdir/cachegrind-ng.1
if [ -x "$top_builddir/vg-in-place" ] && [ -f "$page" ]; then
    tmp=${TMPDIR:-/tmp}/$me.self.$$
    mkdir -p "$tmp" || exit 1
    selfstatus=0
    # An option missing: the tag of --instr-at-start and its paragraph.
    awk '/^\.TP/ { held = $0; next }
         held != "" { if ($0 ~ /^\.BR \\-\\-instr\\-at\\-start=/) { skip = 1; held = ""; next }
                      print held; held = "" }
         skip && /^\.(TP|PP)/ { skip = 0 }
         !skip' "$page" > "$tmp/missing.1"
    # An option too many.
    sed 's/^\.BI \\-\\-D1= size , assoc , line_size$/.BI \\-\\-D1= size , assoc , line_size " " \\-\\-frobnicate/' \
        "$page" > "$tmp/extra.1"
    # A default changed: --branch-sim's "Default: no." becomes "yes".
    awk '/^\.BR \\-\\-branch\\-sim=/ { in_b = 1 }
         /^\.TP/ { in_b = 0 }
         in_b && $0 == "Default: no." { $0 = "Default: yes." }
         { print }' "$page" > "$tmp/default.1"
    for f in missing extra default; do
        if cmp -s "$page" "$tmp/$f.1"; then
            echo "$me: self-test: doctoring '$f' of cachegrind-ng.1 changed nothing (is the page's layout new?)"
            selfstatus=1
        fi
    done
    must_fail "--instr-at-start removed" tool "$tmp/missing.1" || selfstatus=1
    must_fail "an unknown --frobnicate" tool "$tmp/extra.1" || selfstatus=1
    must_fail "a wrong --branch-sim default" tool "$tmp/default.1" || selfstatus=1
    [ $selfstatus -eq 0 ] && echo "PASS: self-test: doctored copies of cachegrind-ng.1 fail"
    [ $selfstatus -eq 0 ] || status=1
    rm -rf "$tmp"
fi
exit $status
