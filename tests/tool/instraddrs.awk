# instraddrs.awk -- the count lines of an instruction-level profile
# (--dump-instr=yes), one a line, with their object, function and absolute
# address, for the instr-* tests and kcachegrind.test.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: LC_ALL=C awk -f instraddrs.awk PROFILE
# Prints, tab-separated, for every count line:
#   OBJECT  BUILD-ID  FUNCTION  ADDRESS  LINE  COUNTS...
# OBJECT and FUNCTION as their last ob= and fn= lines give them (names
# with a compression ID "(N) " are not expected here), BUILD-ID that of
# the "# build-id:" line right after the ob= line or "-", ADDRESS in hex,
# lower case, without 0x, made absolute from the relative forms "+N",
# "-N" and "*" (the previous count line's address), LINE the line number
# and COUNTS the event counts, separated by spaces.

function hexval(s,    i, v) {
    s = tolower(s)
    v = 0
    for (i = 1; i <= length(s); i++)
        v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
    return v
}

/^ob=/ { ob = substr($0, 4); id = "-"; after_ob = 1; next }
after_ob && /^# build-id: / { id = substr($0, 13) }
{ after_ob = 0 }
/^fn=/ { fn = substr($0, 4); next }
/^(0x|\+|-|\*)/ {
    if ($1 ~ /^0x/) a = hexval(substr($1, 3))
    else if ($1 != "*") a += $1 + 0
    counts = $3
    for (i = 4; i <= NF; i++)
        counts = counts " " $i
    printf "%s\t%s\t%s\t%x\t%s\t%s\n", ob, id, fn, a, $2, counts
}
