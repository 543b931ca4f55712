#!/bin/sh
# cg-gate.sh -- fails when the instruction count of a profiled run grew too much.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: cg-gate.sh BASELINE NEW [PERCENT]
#   BASELINE, NEW  Cachegrind output files of the same program and input
#   PERCENT        how much the Ir total may grow, in percent (default 0:
#                  any increase fails; a decrease always passes)
# Exit status: 0 pass, 1 fail, 2 usage or unreadable file.  On failure the
# functions that changed most are listed with cg_annotate --diff.
set -eu

[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 BASELINE NEW [PERCENT]" >&2; exit 2; }
base=$1 new=$2 limit=${3:-0}
case $limit in
    ''|*[!0-9.]*|*.*.*|.) echo "cg-gate: PERCENT must be a number, such as 0.5 (no %): $limit" >&2; exit 2 ;;
esac

# The Ir total: the summary: count in the column that events: names Ir.
ir_total() {
    awk '/^events:/  { for (i = 2; i <= NF; i++) if ($i == "Ir") col = i }
         /^summary:/ { if (col) total = $col }
         END         { if (total == "") exit 1; print total }' "$1"
}
old_ir=$(ir_total "$base") || { echo "cg-gate: no Ir total in $base" >&2; exit 2; }
new_ir=$(ir_total "$new") || { echo "cg-gate: no Ir total in $new" >&2; exit 2; }

if awk -v o="$old_ir" -v n="$new_ir" -v l="$limit" 'BEGIN {
        change = o > 0 ? (n - o) * 100 / o : (n > 0 ? 100 : 0)
        printf "cg-gate: Ir %s -> %s (%+.3f%%, limit +%s%%)\n", o, n, change, l
        exit !(change <= l) }'; then
    exit 0
fi
# What grew: the File:function summary of the difference.
cg_annotate --diff --show=Ir --no-annotate --threshold=1 "$base" "$new" |
    sed -n '/^-- File:function summary/,/^-- Function:file summary/p' |
    grep -v '^--'
exit 1
