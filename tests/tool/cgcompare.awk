# cgcompare.awk -- compare two Cachegrind profiles record by record.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: LC_ALL=C awk -f cgcompare.awk [-v var=value...] REF OURS
#        LC_ALL=C awk -f cgcompare.awk -v cmp=preexec -v src=FILE.c PROFILE
# Prints nothing and exits 0 when the profiles agree; otherwise prints a
# report (at most `maxshow` differing records) and exits 1.
#
# Variables:
#   cmp       full (default), partial, loose or preexec (see diff-cases.list)
#   exact     partial/loose: function-name regex of the records compared
#   absent    partial: function-name regex of records ours must not have
#   cachesim  1 if the runs had --cache-sim=yes: the desc: lines must then
#             be equal; otherwise ours must have none (the 3.19 reference
#             always writes them, the newest Cachegrind only with
#             --cache-sim=yes)
#   ours      "ours" (default) or "ref" when the second file also comes
#             from the reference (self-test)
#   maxshow   how many differing records to print (default 12)
#   src       preexec: the source file whose main must have non-zero Ir
#
# Each file is first checked for well-formedness on its own: known line
# kinds only, one cmd: and events: line before any record, every count
# line after fl= and fn= with exactly one count per event, records in
# strictly ascending (file, function, line) order, and a final summary:
# line equal to the column totals.  A record is keyed by (file, function,
# line); its value is the list of counts.

BEGIN {
    if (cmp == "") cmp = "full"
    if (ours == "") ours = "ours"
    if (maxshow == "") maxshow = 12
    nfiles = 0
    nproblems = 0
    SEP = "\034"
}

function problem(msg) {
    nproblems++
    if (nproblems <= maxshow)
        report = report "  " msg "\n"
}

function bad_line(msg) {
    problem(FILENAME ":" FNR ": " msg ": " substr($0, 1, 120))
}

# The printable form of a key.
function showkey(k,    p) {
    split(k, p, SEP)
    return "fl=" p[1] " fn=" p[2] " line " p[3]
}

# "Ir=1 Dr=2 ..." for the counts string c of file f.
function showcounts(f, c,    n, v, i, s) {
    n = split(c, v, " ")
    s = ""
    for (i = 1; i <= n; i++)
        s = s (i > 1 ? " " : "") evname[f, i] "=" v[i]
    return s
}

# True if record key k of file f sorts strictly after the previous one.
function in_order(f, file, fn, line) {
    if (!(f in lastfile))
        return 1
    if (file != lastfile[f])
        return file > lastfile[f] && !((f, file) in filedone)
    if (fn != lastfn[f])
        return fn > lastfn[f]
    return line + 0 > lastline[f] + 0
}

FNR == 1 {
    nfiles++
    f = nfiles
    fname[f] = FILENAME
    curfile = ""
    curfn = ""
    havefile = 0
    havefn = 0
    nkeys[f] = 0
    ndesc[f] = 0
    nev[f] = -1
}

sumline[f] != "" {
    bad_line("text after the summary: line")
    next
}

/^desc: / {
    if (nkeys[f] > 0 || nev[f] >= 0)
        bad_line("desc: after events: or records")
    desc[f, ++ndesc[f]] = $0
    next
}

/^cmd: / || $0 == "cmd:" {
    if ((f in cmdline) || nev[f] >= 0)
        bad_line("second cmd: line or cmd: after events:")
    cmdline[f] = $0
    next
}

/^events: / {
    if (nev[f] >= 0)
        bad_line("second events: line")
    evline[f] = $0
    nev[f] = NF - 1
    for (i = 1; i <= nev[f]; i++) {
        evname[f, i] = $(i + 1)
        evindex[f, $(i + 1)] = i
    }
    next
}

/^fl=/ {
    if (havefile)
        filedone[f, curfile] = 1
    curfile = substr($0, 4)
    havefile = 1
    havefn = 0
    next
}

/^fn=/ {
    if (!havefile)
        bad_line("fn= before any fl=")
    curfn = substr($0, 4)
    havefn = 1
    next
}

/^summary:/ {
    sumline[f] = $0
    if (NF - 1 != nev[f])
        bad_line("summary: has " (NF - 1) " counts for " nev[f] " events")
    for (i = 1; i <= NF - 1; i++)
        if ($(i + 1) !~ /^[0-9]+$/)
            bad_line("summary: count is not a number")
        else if ($(i + 1) + 0 != total[f, i])
            problem(FILENAME ": summary " evname[f, i] " = " $(i + 1) \
                    " but the records add up to " total[f, i])
    next
}

/^-?[0-9]+( [0-9]+)*$/ {
    if (nev[f] < 0 || !havefile || !havefn) {
        bad_line("count line before events:, fl= or fn=")
        next
    }
    if (NF - 1 != nev[f]) {
        bad_line((NF - 1) " counts for " nev[f] " events")
        next
    }
    k = curfile SEP curfn SEP $1
    if ((f, k) in counts) {
        bad_line("second record for the same file, function and line")
        next
    }
    if (!in_order(f, curfile, curfn, $1))
        bad_line("record out of (file, function, line) order")
    lastfile[f] = curfile
    lastfn[f] = curfn
    lastline[f] = $1
    c = $2
    for (i = 3; i <= NF; i++)
        c = c " " $i
    counts[f, k] = c
    key[f, ++nkeys[f]] = k
    for (i = 1; i <= nev[f]; i++)
        total[f, i] += $(i + 1)
    next
}

{
    bad_line("unexpected line")
}

# --- checks on the pair -----------------------------------------------

# 1 if, for each event named in evs (space-separated) that both files
# have, ours's count of key k is equal to the reference's (op "eq") or not
# above it (op "le").
function events_ok(k, evs, op,    n, e, i, a, b, j1, j2) {
    n = split(evs, e, " ")
    split(counts[1, k], a, " ")
    split(counts[2, k], b, " ")
    for (i = 1; i <= n; i++) {
        j1 = evindex[1, e[i]]
        j2 = evindex[2, e[i]]
        if (j1 == "" || j2 == "")
            continue
        if (op == "eq" ? a[j1] != b[j2] : b[j2] + 0 > a[j1] + 0)
            return 0
    }
    return 1
}

function differs(k, what) {
    ndiffer++
    problem(what " " showkey(k))
    if (nproblems <= maxshow) {
        report = report "      ref : " showcounts(1, counts[1, k]) "\n"
        report = report "      ours: " showcounts(2, counts[2, k]) "\n"
    }
}

function fn_of(k,    p) {
    split(k, p, SEP)
    return p[2]
}

# The number of records of the reference whose function matches re.
function count_matching(re,    i, n) {
    n = 0
    for (i = 1; i <= nkeys[1]; i++)
        if (fn_of(key[1, i]) ~ re)
            n++
    return n
}

function check_preexec(    i, k, p, v, irx, found) {
    irx = evindex[1, "Ir"]
    if (irx == "") {
        problem(fname[1] ": no Ir event")
        return
    }
    found = 0
    for (i = 1; i <= nkeys[1]; i++) {
        k = key[1, i]
        split(k, p, SEP)
        if (p[2] != "main")
            continue
        if (p[1] != src && substr(p[1], length(p[1]) - length(src)) != "/" src)
            continue
        split(counts[1, k], v, " ")
        if (v[irx] + 0 > 0)
            found++
    }
    if (found == 0)
        problem(fname[1] ": no line of main in " src " with non-zero Ir")
}

function compare_pair(    i, k, access, nmatch_exact, fn) {
    if (cmdline[1] != cmdline[2])
        problem("cmd: lines differ:\n      ref : " cmdline[1] "\n      ours: " cmdline[2])
    if (evline[1] != evline[2])
        problem("events: lines differ:\n      ref : [" evline[1] "]\n      ours: [" evline[2] "]")
    if (cachesim || ours == "ref") {
        if (ndesc[1] != ndesc[2])
            problem("ref has " ndesc[1] " desc: lines, ours " ndesc[2])
        else
            for (i = 1; i <= ndesc[1]; i++)
                if (desc[1, i] != desc[2, i])
                    problem("desc: lines differ:\n      ref : " desc[1, i] "\n      ours: " desc[2, i])
    } else if (ndesc[2] != 0)
        problem("ours has desc: lines without --cache-sim=yes")
    access = "Ir Dr Dw Bc Bi"
    ndiffer = 0
    nonly1 = 0
    nonly2 = 0

    if (cmp == "full") {
        # A case written for cmp=partial runs as full in the self-test:
        # its regexes must still name records, or the case proves nothing.
        if (exact != "" && count_matching(exact) == 0)
            problem("no record of the reference has a function matching /" exact "/")
        if (absent != "" && count_matching(absent) == 0)
            problem("no record of the reference has a function matching /" absent "/")
        if (sumline[1] != sumline[2])
            problem("summary: lines differ:\n      ref : " sumline[1] "\n      ours: " sumline[2])
        for (i = 1; i <= nkeys[1]; i++) {
            k = key[1, i]
            if (!((2, k) in counts)) {
                nonly1++
                problem("only in ref:  " showkey(k) ": " showcounts(1, counts[1, k]))
            } else if (counts[1, k] != counts[2, k])
                differs(k, "differs:")
        }
        for (i = 1; i <= nkeys[2]; i++) {
            k = key[2, i]
            if (!((1, k) in counts)) {
                nonly2++
                problem("only in ours: " showkey(k) ": " showcounts(2, counts[2, k]))
            }
        }
        return
    }

    # partial and loose: the records of exact= must agree
    nmatch_exact = 0
    for (i = 1; i <= nkeys[1]; i++) {
        k = key[1, i]
        fn = fn_of(k)
        if (fn !~ exact)
            continue
        nmatch_exact++
        if (!((2, k) in counts)) {
            nonly1++
            problem("only in ref:  " showkey(k) ": " showcounts(1, counts[1, k]))
        } else if (cmp == "loose" && counts[1, k] != counts[2, k])
            differs(k, "differs:")
        else if (cmp == "partial" && !events_ok(k, access, "eq"))
            differs(k, "access counts differ:")
    }
    if (nmatch_exact == 0)
        problem("no record of the reference has a function matching /" exact "/")
    for (i = 1; i <= nkeys[2]; i++) {
        k = key[2, i]
        fn = fn_of(k)
        if (fn ~ exact && !((1, k) in counts)) {
            nonly2++
            problem("only in ours: " showkey(k) ": " showcounts(2, counts[2, k]))
        }
    }
    if (cmp != "partial")
        return

    if (count_matching(absent) == 0)
        problem("no record of the reference has a function matching /" absent "/")
    for (i = 1; i <= nkeys[2]; i++) {
        k = key[2, i]
        fn = fn_of(k)
        if (fn ~ exact)
            continue
        if (fn ~ absent)
            problem("ours counts code run while instrumentation was off: " \
                    showkey(k) ": " showcounts(2, counts[2, k]))
        else if (!((1, k) in counts)) {
            nonly2++
            problem("only in ours: " showkey(k) ": " showcounts(2, counts[2, k]))
        } else if (!events_ok(k, access, "le"))
            differs(k, "ours counts more than the reference:")
    }
}

END {
    want = (cmp == "preexec") ? 1 : 2
    if (nfiles != want) {
        print "cgcompare: expected " want " non-empty profiles, got " nfiles
        exit 2
    }
    for (f = 1; f <= nfiles; f++) {
        if (nev[f] < 0)
            problem(fname[f] ": no events: line")
        if (!(f in cmdline))
            problem(fname[f] ": no cmd: line")
        if (sumline[f] == "")
            problem(fname[f] ": no summary: line (truncated profile?)")
    }
    if (cmp == "preexec")
        check_preexec()
    else
        compare_pair()
    if (nproblems == 0)
        exit 0
    if (cmp != "preexec")
        printf "  records: ref %d, ours %d; %d differ, %d only in ref, %d only in ours\n",
               nkeys[1], nkeys[2], ndiffer, nonly1, nonly2
    printf "%s", report
    if (nproblems > maxshow)
        printf "  ... and %d more problems\n", nproblems - maxshow
    exit 1
}
