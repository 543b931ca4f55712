#!/bin/sh
# build.sh -- one-command set-up of cachegrind-ng on Debian 12: dependencies, build, demo, tests.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage:
#   ./build.sh demo    install what is missing (as root), build, profile an
#                      example program with the in-tree tool and show the
#                      cg_annotate report
#   ./build.sh check   the same set-up, then run every test (unit, CLI, tool,
#                      install), make distcheck, and make check-no-tool (the
#                      companions built and tested without the tool, as on a
#                      machine without the Valgrind kit); where this machine cannot
#                      run 32-bit programs, their tests are skipped, with the
#                      reason (CG_RUN32=no or yes forces skipping or running
#                      them: docs/testing.md)
#   ./build.sh deps    only install the Debian packages (as root)
#   ./build.sh build   only set up and build
#
# The build happens in this folder (in-tree).  Missing Debian packages are
# installed with apt-get when running as root; otherwise the script prints
# the apt-get command to run and stops.
set -eu

PACKAGES="gcc g++ make autoconf automake pkg-config valgrind gcc-multilib
g++-multilib libc6-dev libpcre2-dev libelf-dev libdw-dev libcapstone-dev
libiberty-dev elfutils binutils clang
libclang-rt-14-dev time bzip2 sqlite3 file strace man-db jq
python3-jsonschema chromium dwz"

here=$(cd "$(dirname "$0")" && pwd -P)
cd "$here"

log() { printf '== %s\n' "$*"; }

missing_packages() {
    missing=
    for p in $PACKAGES; do
        status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
        case $status in
            *" installed") ;;
            *) missing="$missing $p" ;;
        esac
    done
    echo $missing
}

install_deps() {
    missing=$(missing_packages)
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" != 0 ]; then
        echo "build.sh: missing Debian packages: $missing" >&2
        echo "build.sh: install them with: sudo apt-get install -y $missing" >&2
        exit 1
    fi
    log "installing: $missing"
    # A machine whose image was made while dpkg was busy refuses every
    # install ("dpkg was interrupted") until the pending packages are
    # configured; waiting for the lock covers a package job still running.
    DEBIAN_FRONTEND=noninteractive dpkg --configure -a
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -q
    # shellcheck disable=SC2086
    if ! DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
            install -y -q --no-install-recommends $missing; then
        log "apt-get install failed; repairing broken dependencies and retrying"
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -f install -y -q
        # shellcheck disable=SC2086
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
            install -y -q --no-install-recommends $missing
    fi
}

build() {
    install_deps
    if [ ! -f Makefile ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
        log "configuring"
        autoreconf -fi
        ./configure
    fi
    log "building"
    make -j2
}

demo() {
    build
    dir=$here/demo-output
    mkdir -p "$dir"
    log "building the example program docs/examples/wordcount.c"
    gcc -g -O2 -o "$dir/wordcount" docs/examples/wordcount.c
    log "profiling it: ./vg-in-place --tool=cachegrind --cache-sim=yes --branch-sim=yes"
    ./vg-in-place --tool=cachegrind --cache-sim=yes --branch-sim=yes \
        --cachegrind-out-file="$dir/cachegrind.out.demo" \
        "$dir/wordcount" docs/examples/wordcount.c
    log "the report: annotate/cg_annotate demo-output/cachegrind.out.demo"
    annotate/cg_annotate "$dir/cachegrind.out.demo"
}

check() {
    build
    log "running all tests (make check), then make distcheck, then the companions alone (make check-no-tool)"
    if make -j2 check && CG_DIFF_MODES=ir make -j2 distcheck && make check-no-tool; then
        log "all tests passed"
    else
        [ -f test-suite.log ] && cat test-suite.log
        log "some tests FAILED (details above and in the *.log files)"
        exit 1
    fi
}

usage() { sed -n '/^# Usage:/,/stops\.$/p' "$0"; }

case ${1:-} in
    deps) install_deps ;;
    build) build ;;
    demo) demo ;;
    check) check ;;
    -h|--help) usage ;;
    *) usage >&2; exit 2 ;;
esac
