# farm.sh -- tool folders of one path length for comparing two Cachegrinds (sourced by difftest and stats.test).
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A farm is a copy of the distribution's tool folder ($VG_TOOLDIR) made
# of symlinks, whose cachegrind-* entries point into another folder.  Two
# farms whose paths have one length (say $scratch/r and $scratch/o) give
# VALGRIND_LIB (and LD_PRELOAD, derived from it) the same length in both
# runs, so the client's start-up code executes the same instructions.  A
# cachegrind-* that the other folder lacks (a platform not built) is a
# dangling link: [ -e ] tells.

make_farm() { # make_farm DIR CACHEGRIND-DIR
    local f
    mkdir "$1" || return 1
    for f in "$VG_TOOLDIR"/*; do
        case ${f##*/} in cachegrind-*) continue ;; esac
        ln -s "$f" "$1/" || return 1
    done
    for f in "$VG_TOOLDIR"/cachegrind-*; do
        ln -s "$2/${f##*/}" "$1/${f##*/}" || return 1
    done
}
