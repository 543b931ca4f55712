# match.awk -- compare the output a document shows with the output a command gave.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: awk -f match.awk -v expf=EXPECTED -v actf=ACTUAL [-v counts=1] [-v excerpt=1]
#            [-v pids=N,M] [-v mapin=F] [-v mapout=F] [-v real=DIR -v shown=DOCDIR]
# EXPECTED holds the lines the document shows; a line "..." stands for any
# number of lines (none included).  Without "..." at its start (end), the
# first (last) lines must be the first (last) lines of ACTUAL, unless
# EXCERPT=1 (then EXPECTED may be any part of ACTUAL).  Lines are
# compared after these normalisations, and no others:
#  - trailing blanks are removed (the documents do not show them), and so
#    are blank lines at the end (a blank line separates two commands);
#  - in ACTUAL, the real working folder REAL is written as the folder the
#    document shows, SHOWN;
#  - process ids: the number N of a line starting "==N==", "--N--" or
#    "**N**", and every number listed in PIDS, matches any number, which
#    it is then bound to (two document pids cannot bind one real pid).  A
#    bound number must then match its real pid wherever it appears.  MAPIN
#    holds the bindings of earlier commands ("doc real" lines), MAPOUT
#    receives them all at the end;
#  - with COUNTS=1, for outputs whose numbers depend on the machine (the
#    C library's CPU-specific functions, the environment, the detected
#    caches): every number that does not continue a word or a name
#    ("389,163", "24.2" of "24.2%", "8" of "8-way"; not "L3", "x86",
#    "==3805==", "out.3805", "--I1=32768,8,64") becomes "#", runs of blanks
#    become one space and runs of "_" one "_"; and the cache
#    auto-detection warnings, which some machines print and others do not,
#    are left out on both sides.
# Exit status 0 if ACTUAL matches, else 1 with a report on stdout.

function rstrip(s) {
    sub(/[ \t\r]+$/, "", s)
    return s
}

function replace_all(s, from, to,    res, i) {
    if (from == "")
        return s
    res = ""
    while ((i = index(s, from)) > 0) {
        res = res substr(s, 1, i - 1) to
        s = substr(s, i + length(from))
    }
    return res s
}

function detection_warning(s) {
    sub(/^(==|--)[0-9]+(==|--) ?/, "", s)
    return s ~ /^warning: L[0-9] cache found, using its data for the LL simulation\.$/ ||
           s ~ /^warning: (specified|simulated) LL cache: line_size / ||
           s ~ /^warning: L2 cache not installed, ignore LL results\.$/ ||
           s ~ /^Warning: Cannot auto-detect cache config, using defaults\.$/ ||
           s ~ /^ +Run with -v to see\.$/ ||
           s ~ /^warning: Pentium 4 with [0-9]+ KB micro-op instruction trace cache$/ ||
           s ~ /^ +Simulating a [0-9]+ KB I-cache with 32 B lines$/
}

function norm_counts(s,    res, prev) {
    res = ""
    prev = ""
    while (s != "") {
        if (prev !~ /[A-Za-z0-9_.=\/]/ && match(s, /^[0-9]+([,.][0-9]+)*/)) {
            res = res "#"
            prev = "#"
            s = substr(s, RLENGTH + 1)
            continue
        }
        prev = substr(s, 1, 1)
        res = res prev
        s = substr(s, 2)
    }
    gsub(/[ \t]+/, " ", res)
    gsub(/__+/, "_", res)
    return res
}

# tokens S, T: splits S into runs of digits and runs of other characters.
function tokens(s, t,    n) {
    n = 0
    while (s != "") {
        if (match(s, /^[0-9]+/) || match(s, /^[^0-9]+/)) {
            t[++n] = substr(s, 1, RLENGTH)
            s = substr(s, RLENGTH + 1)
        }
    }
    return n
}

function bind(d, r) {
    map[d] = r
    rmap[r] = d
    trail[++ntrail] = d
}

function unbind_to(mark) {
    while (ntrail > mark) {
        delete rmap[map[trail[ntrail]]]
        delete map[trail[ntrail]]
        ntrail--
    }
}

# line_eq E A: whether expected line E matches actual line A (both
# normalised), binding pids on the way.
function line_eq(e, a,    E, A, ne, na, k, mark, pidpos) {
    if (e == a && e !~ /[0-9]/)
        return 1
    ne = tokens(e, E)
    na = tokens(a, A)
    if (ne != na)
        return 0
    mark = ntrail
    pidpos = (ne >= 3 && (E[1] == "==" || E[1] == "--" || E[1] == "**") &&
              substr(E[3], 1, 2) == E[1]) ? 2 : 0
    for (k = 1; k <= ne; k++) {
        if (E[k] !~ /^[0-9]/ || A[k] !~ /^[0-9]/) {
            if (E[k] != A[k]) {
                unbind_to(mark)
                return 0
            }
        } else if (E[k] in map) {
            if (map[E[k]] != A[k]) {
                unbind_to(mark)
                return 0
            }
        } else if (k == pidpos || ("," pids ",") ~ ("," E[k] ",")) {
            if ((A[k] in rmap) && rmap[A[k]] != E[k]) {
                unbind_to(mark)
                return 0
            }
            bind(E[k], A[k])
        } else if (E[k] != A[k]) {
            unbind_to(mark)
            return 0
        }
    }
    return 1
}

# seg_try S P: how many lines of segment S match from actual line P on
# (all of them, or the number before the first mismatch, bindings undone).
function seg_try(s, p,    i, mark) {
    mark = ntrail
    for (i = 1; i <= seglen[s]; i++)
        if (p + i - 1 > nact || !line_eq(seg[s, i], actn[p + i - 1])) {
            unbind_to(mark)
            return i - 1
        }
    return seglen[s]
}

function report(s, best, bestpos) {
    printf "  the output does not match the document"
    if (nseg > 1)
        printf " (part %d of %d, between \"...\" lines)", s, nseg
    print ":"
    if (bestpos > 0 && best < seglen[s]) {
        printf "  document: %s\n", seg[s, best + 1]
        if (bestpos + best <= nact)
            printf "  output  : %s  (line %d)\n", actn[bestpos + best], bestpos + best
        else
            print "  output  : (ended)"
    } else {
        printf "  document: %s\n", seg[s, 1]
        print "  output  : (no line matches it where it should be)"
    }
    if (counts)
        print "  (numbers shown as #: this example's counts depend on the machine)"
}

BEGIN {
    if (mapin != "")
        while ((getline l < mapin) > 0) {
            split(l, f, " ")
            map[f[1]] = f[2]
            rmap[f[2]] = f[1]
        }
    ntrail = 0

    # The expected lines, cut into segments at "..." lines.
    nseg = 1
    seglen[1] = 0
    lead = 0
    trailing = 0
    n = 0
    while ((getline l < expf) > 0) {
        l = rstrip(l)
        n++
        if (l == "...") {
            if (n == 1)
                lead = 1
            trailing = 1
            if (seglen[nseg] > 0)
                seglen[++nseg] = 0
            continue
        }
        trailing = 0
        if (counts && detection_warning(l))
            continue
        seg[nseg, ++seglen[nseg]] = counts ? norm_counts(l) : l
    }
    while (seglen[nseg] > 0 && seg[nseg, seglen[nseg]] == "")
        seglen[nseg]--
    if (seglen[nseg] == 0 && nseg > 1)
        nseg--
    if (excerpt)
        lead = trailing = 1

    nact = 0
    while ((getline l < actf) > 0) {
        l = rstrip(replace_all(l, real, shown))
        if (counts && detection_warning(l))
            continue
        actn[++nact] = counts ? norm_counts(l) : l
    }
    while (nact > 0 && actn[nact] == "")
        nact--

    ok = 1
    pos = 1
    for (s = 1; s <= nseg && ok; s++) {
        first_fixed = (s == 1 && !lead)
        last_fixed = (s == nseg && !trailing)
        best = -1
        bestpos = 0
        found = 0
        for (p = pos; p <= nact - seglen[s] + 1; p++) {
            if (first_fixed && p != 1)
                break
            if (last_fixed && p + seglen[s] - 1 != nact)
                continue
            m = seg_try(s, p)
            if (m == seglen[s]) {
                found = 1
                pos = p + seglen[s]
                break
            }
            if (m > best) {
                best = m
                bestpos = p
            }
        }
        if (!found && seglen[s] == 0 && (!last_fixed || pos > nact))
            found = 1
        if (!found) {
            if (seglen[s] == 0)
                print "  the document shows no output, but there was some"
            else
                report(s, best, bestpos)
            ok = 0
        }
    }
    if (ok && nseg == 1 && seglen[1] == 0 && !lead && nact > 0) {
        print "  the document shows no output, but there was some"
        ok = 0
    }

    if (mapout != "") {
        printf "" > mapout
        for (d in map)
            print d, map[d] > mapout
        close(mapout)
    }
    exit !ok
}
