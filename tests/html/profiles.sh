# profiles.sh -- the profiles and source files of the --html tests (sourced by report.test and browser.test).
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make_profiles DIR writes into DIR:
#   src/prog.c    a readable source file (40 lines)
#   p1.cgout      its profile: desc: lines, a command and file and function
#                 names that are hostile to HTML (markup, entities, quotes,
#                 "</script>", "<!--", bytes that are not UTF-8, a control
#                 character), lines past the end of prog.c, line 0
#   p2.cgout      the same program later: main grew, work shrank, a new
#                 function, a function gone
#   big.cgout     700 files of 3 functions (more rows than a page shows)
#   badsum.cgout  counts before any fl=: the Annotation summary check fails
#                 at the end of the report

# The lines both profiles of prog begin with: desc:, cmd:, events:, main's
# file and its line 0.
prof_head() {
    printf '%s\n' \
        'desc: I1 cache:         32768 B, 64 B, 8-way associative' \
        'desc: D1 cache:         32768 B, 64 B, 8-way associative' \
        'desc: LL cache:         8388608 B, 64 B, 16-way <associative> & "more"' \
        "cmd: ./prog <script>document.body.setAttribute('data-pwned','0')</script> &amp; x" \
        'events: Ir Dr Dw' "fl=$1/src/prog.c" 'fn=main' '0 7 0 0'
}

# The files with hostile names that both profiles end with.
prof_tail() {
    printf '%s\n' \
        "fl=$1/src/<script>document.body.setAttribute('data-pwned','1')</script>.c" \
        "fn=</script><script>document.body.setAttribute('data-pwned','2')</script>" \
        '1 3000 300 30' "fl=$1/src/q\"uote's&amp;.c" 'fn=<!--' '2 900 9 0'
    printf 'fn=caf\351\n5 800 8 8\nfn=tab\001x\n6 700 7 7\n'
}

make_profiles() {
    local d=$1 i
    mkdir -p "$d/src"
    for i in $(seq 1 40); do echo "    line_$i(); /* <b>&amp; \"q\" 'a' */"; done > "$d/src/prog.c"
    { prof_head "$d"
      printf '%s\n' '3 1000 100 10' '4 500 50 0' '20 300 0 30' \
          'fn=work' '9 4000 1000 200' '10 2000 0 0' '45 10 1 1' 'fn=gone' '30 600 60 6'
      prof_tail "$d"
      echo 'summary: 13817 1535 292'; } > "$d/p1.cgout"
    { prof_head "$d"
      printf '%s\n' '3 1500 150 10' '4 500 50 0' '20 300 0 30' \
          'fn=work' '9 3950 1000 200' '10 1950 0 0' '45 10 1 1' 'fn=fresh' '31 200 20 2'
      prof_tail "$d"
      echo 'summary: 13817 1545 288'; } > "$d/p2.cgout"

    awk 'BEGIN {
        print "cmd: ./big"; print "events: Ir Dr"
        for (f = 0; f < 700; f++) {
            printf "fl=dir/file%03d.c\n", f
            for (g = 0; g < 3; g++) {
                printf "fn=fn%03d_%d\n", f, g
                ir = (f * 7919 + g * 104729) % 100000 + 1; dr = ir % 977
                printf "%d %d %d\n", g * 10 + 1, ir, dr
                si += ir; sd += dr
            }
        }
        printf "summary: %d %d\n", si, sd
    }' > "$d/big.cgout"

    printf '%s\n' 'cmd: x' 'events: A' '1 3' 'fn=early' '2 4' 'fl=a.c' 'fn=f' '1 5' \
        'summary: 12' > "$d/badsum.cgout"
}
