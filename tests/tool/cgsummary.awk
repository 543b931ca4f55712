# cgsummary.awk -- extract the end-of-run summary from a Valgrind log and
# undo the known 3.19 differences, so that two summaries compare as text.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: LC_ALL=C awk -f cgsummary.awk -v side=ref|ours \
#            -v events="EVENTS LINE" -v summary="SUMMARY LINE" LOG
# Prints the lines from the first "I refs:" line to the end of the log,
# without the ==PID== / --PID-- prefixes, or "(no summary)".
#
# For side=ref (the 3.19 reference) two differences are normalised, and
# nothing else:
# - the labels "I   refs:" and "D   refs:" become "I refs:  " and
#   "D refs:  " (same width, the newest spelling);
# - 3.19 prints a zero branch total (Bc or Bi, read from the profile's
#   events:/summary: lines) as 1, in the "Branches:" line; the number is
#   put back to its true value in the same field width.  The rate line
#   is computed from the replaced value too and cannot be restored
#   exactly, so in that case it is replaced by a note on both sides.

function commas(n,    s, r) {
    s = sprintf("%d", n)
    r = ""
    while (length(s) > 3) {
        r = "," substr(s, length(s) - 2) r
        s = substr(s, 1, length(s) - 3)
    }
    return s r
}

# The Branches: line "T  (C cond + I ind)" with each number lowered by
# dt, dc and di respectively, every number padded to its old width.
function lower_branches(line, dt, dc, di,    out, rest, idx, dec, num, oldlen) {
    out = ""
    rest = line
    idx = 0
    while (match(rest, /[0-9][0-9,]*/)) {
        idx++
        dec = (idx == 1) ? dt : (idx == 2) ? dc : (idx == 3) ? di : 0
        num = substr(rest, RSTART, RLENGTH)
        oldlen = RLENGTH
        out = out substr(rest, 1, RSTART - 1)
        rest = substr(rest, RSTART + RLENGTH)
        if (dec) {
            gsub(/,/, "", num)
            num = commas(num - dec)
            while (length(num) < oldlen)
                num = " " num
        }
        out = out num
    }
    return out rest
}

BEGIN {
    n = split(events, ev, " ")
    split(summary, sv, " ")
    bc0 = bi0 = 0
    for (i = 2; i <= n; i++) {
        if (ev[i] == "Bc" && sv[i] == "0") bc0 = 1
        if (ev[i] == "Bi" && sv[i] == "0") bi0 = 1
    }
    on = 0
}

{
    line = $0
    sub(/^(==|--)[0-9]+(==|--) ?/, "", line)
}

!on && line ~ /^I( |   )refs:/ {
    on = 1
}

!on {
    next
}

side == "ref" {
    sub(/^I   refs:/, "I refs:  ", line)
    sub(/^D   refs:/, "D refs:  ", line)
    if (line ~ /^Branches:/)
        line = lower_branches(line, bc0 + bi0, bc0, bi0)
}

(bc0 || bi0) && line ~ /^Mispred rate:/ {
    print "(Mispred rate: not compared: a branch total is zero)"
    next
}

{
    print line
}

END {
    if (!on)
        print "(no summary)"
}
