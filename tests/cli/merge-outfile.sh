#!/bin/bash
# merge-outfile.sh -- cg_merge -o under conditions a .case cannot set up: signals, a read-only folder, a full file system.
# Copyright (C) 2026 the cachegrind-ng developers.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Each case prints PASS, FAIL or SKIP (with the reason); the last line
# counts them.  Exit 0 when nothing failed and something passed, 77 when
# every case was skipped, 1 otherwise.
#
#   signal-INT, -TERM, -PIPE, -USR1
#                            a signal while cg_merge waits for an input
#                            (a FIFO nobody writes): the temporary file it
#                            already created goes, the old output stays, the
#                            exit status is the signal's
#   signal-SEGV, -BUS, -ABRT the same for a fault (a crash, as of a library:
#                            the temporary file was left before)
#   window-CALL-SIG          a signal (SIGSEGV or SIGTERM sent by another
#                            process) at the two moments the temporary
#                            file's name and the handler's copy of it
#                            differ: just after the file is made (CALL
#                            fchmod) and at the commit (rename); sent from
#                            inside that call by a preloaded library
#                            (tests/cli/inject.c).  No temporary
#                            file may be left; the output is the old one
#                            (fchmod) or the complete new one (rename: the
#                            signal waits until it is done)
#   window-sigaction-BUS     a SIGBUS sent while an input is read through
#                            a mapping, whose own SIGBUS handler took it for
#                            a fault elsewhere and dropped it (cg_merge went
#                            on: the signal was lost, and the test, waiting
#                            on a FIFO input, hung about one run in 400)
#   rename-busy              (with the same library) a rename that is
#                            refused (EBUSY, as for a file bind-mounted
#                            into a container): the output copied into the
#                            file in place, with a warning
#   rename-busy-fifo, -link  ... and the name swapped for a FIFO without a
#                            reader or a link before the copy: an error,
#                            neither waited for nor followed, and the
#                            temporary file, the only whole output, kept
#                            and named in the error
#   rename-busy-copy-fails   ... and a copy that fails half-way: the
#                            temporary file, the only whole output, kept
#                            and named in the error
#   signal-XFSZ              the same for a signal in the middle of writing
#                            (a write beyond `ulimit -f`)
#   readonly-*               a folder without write permission: an existing
#                            writable file is rewritten in place with a
#                            warning; otherwise the error names the folder.
#                            Root ignores permission bits, so as root these
#                            run as the user nobody (setpriv)
#   full-fs                  a full file system (a 16 KiB tmpfs in a private
#                            mount namespace): the error gives the reason

set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
merge=$top_builddir/merge/cg_merge
export LC_ALL=C

scratch=$(mktemp -d -t cg-merge-outfile.XXXXXX) || exit 1
trap 'chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
# The read-only cases may run as nobody, who must reach the case folders.
chmod 755 "$scratch"

npass=0 nfail=0 nskip=0
pass() { echo "PASS $1"; npass=$((npass + 1)); }
fail() { echo "FAIL $1 ($2)"; nfail=$((nfail + 1)); [ -s err ] && sed 's/^/     stderr| /' err | head -n 5; }
skip() { echo "SKIP $1 ($2)"; nskip=$((nskip + 1)); }

# A profile of n count lines (about 6 bytes each).
profile() {
    local i=1
    echo 'cmd: ./p'
    echo 'events: Ir'
    echo 'fl=a.c'
    echo 'fn=main'
    while [ "$i" -le "$1" ]; do echo "$i 1"; i=$((i + 1)); done
    echo "summary: $1"
}

# new_case NAME: a fresh folder with p.cgout and an old out.cgout, entered.
new_case() {
    mkdir -m 755 "$scratch/$1" && cd "$scratch/$1" || exit 1
    profile 3 >p.cgout
    echo 'old contents' >out.cgout
}

# The old output is intact and no temporary file is left.
untouched() {
    [ "$(cat out.cgout)" = 'old contents' ] && ! ls out.cgout.tmp.* >/dev/null 2>&1
}

# --- a signal while an input blocks --------------------------------------
# The shell starts a background job with SIGINT ignored (and cg_merge
# rightly keeps it ignored), so it is restored with env --default-signal.
signal_case() {
    local sig=$1 num=$2 pid rc i
    new_case "signal-$sig"
    if ! env --default-signal="$sig" true 2>/dev/null; then
        skip "signal-$sig" "env --default-signal is missing (coreutils < 8.31)"
        return
    fi
    mkfifo in.fifo
    (ulimit -c 0 && exec env --default-signal="$sig" "$merge" -o out.cgout p.cgout in.fifo 2>err) &
    pid=$!
    # cg_merge creates the temporary file before it reads, then blocks
    # opening the FIFO: wait for the file (bounded), then signal.
    for i in $(seq 500); do
        ls out.cgout.tmp.* >/dev/null 2>&1 && break
        sleep 0.02
    done
    if ! ls out.cgout.tmp.* >/dev/null 2>&1; then
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        fail "signal-$sig" "no temporary file appeared within 10 s"
        return
    fi
    kill -s "$sig" "$pid"
    # Bounded: a signal that does not end cg_merge is a failure with the
    # process's state, not a hung test.
    for i in $(seq 400); do
        grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null || [ ! -e "/proc/$pid" ] && break
        sleep 0.05
    done
    if [ -e "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; then
        state=$(grep -E '^(State|SigPnd|ShdPnd|SigBlk|SigIgn|SigCgt):' "/proc/$pid/status" | tr '\n\t' '  ')
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        fail "signal-$sig" "still running 20 s after the signal: $state"
        return
    fi
    wait "$pid"
    rc=$?
    if [ "$rc" != $((128 + num)) ]; then
        fail "signal-$sig" "exit $rc, expected $((128 + num))"
    elif ! untouched; then
        fail "signal-$sig" "temporary file left or output changed: $(ls)"
    else
        pass "signal-$sig"
    fi
}
signal_case INT 2
signal_case TERM 15
signal_case PIPE 13
signal_case USR1 10
signal_case SEGV 11
signal_case BUS 7
signal_case ABRT 6

# --- a signal while the temporary file is being made or renamed -----------
# Another process's kill -SEGV in that window left the temporary file
# (faults were not blocked there, as the stop signals were): about one run
# in five under load.  The preloaded library makes the moment certain.
window_dir=$scratch/window-lib
mkdir "$window_dir"
if ! ${CC:-cc} -shared -fPIC -o "$window_dir/inject.so" "$here/inject.c" -ldl \
        2>"$window_dir/cc.err"; then
    for c in fchmod-SEGV fchmod-TERM rename-SEGV rename-TERM sigaction-BUS; do
        skip "window-$c" "cannot build a preloaded library with ${CC:-cc}: $(head -n 1 "$window_dir/cc.err")"
    done
else
    for c in fchmod:SEGV:11 fchmod:TERM:15 rename:SEGV:11 rename:TERM:15 sigaction:BUS:7; do
        call=${c%%:*} sig=${c#*:} num=${sig#*:} sig=${sig%:*}
        new_case "window-$call-$sig"
        { (ulimit -c 0 && INJECT_SIGNAL_IN=$call INJECT_SIGNAL=$num LD_PRELOAD="$window_dir/inject.so" \
            exec "$merge" -o out.cgout p.cgout 2>err); } 2>/dev/null
        rc=$?
        if [ "$rc" != $((128 + num)) ]; then
            fail "window-$call-$sig" "exit $rc, expected $((128 + num))"
        elif ls out.cgout.tmp.* >/dev/null 2>&1; then
            fail "window-$call-$sig" "temporary file left: $(ls)"
        elif [ "$call" != rename ] && [ "$(cat out.cgout)" != 'old contents' ]; then
            fail "window-$call-$sig" "out.cgout changed before anything was written"
        elif [ "$call" = rename ] && ! cmp -s out.cgout p.cgout; then
            fail "window-$call-$sig" "out.cgout is not the new output, complete (the signal waits for the rename)"
        else
            pass "window-$call-$sig"
        fi
    done
    # A rename refused (EBUSY: a file bind-mounted into a container): the
    # output is copied into the file in place, with a warning.
    new_case rename-busy
    INJECT_RENAME_ERRNO=16 LD_PRELOAD="$window_dir/inject.so" "$merge" -o out.cgout p.cgout 2>err
    rc=$?
    if [ "$rc" != 0 ] || ! cmp -s out.cgout p.cgout || ls out.cgout.tmp.* >/dev/null 2>&1 ||
       ! grep -q -x "cg_merge: warning: cannot replace 'out.cgout': Device or resource busy; writing it in place, not atomically" err; then
        fail rename-busy "exit $rc, files: $(ls | tr '\n' ' ')"
    else
        pass rename-busy
    fi
    # ... and the name became a FIFO without a reader, or a link, before the
    # copy: neither waited for (for ever) nor followed.
    for swap in fifo link; do
        new_case "rename-busy-$swap"
        echo 'victim contents' > victim
        INJECT_RENAME_ERRNO=16 INJECT_RENAME_SWAP=$swap LD_PRELOAD="$window_dir/inject.so" \
            timeout -s KILL 20 "$merge" -o out.cgout p.cgout 2>err
        rc=$?
        kept=$(ls out.cgout.tmp.* 2>/dev/null)
        if [ "$rc" != 1 ] || [ "$(cat victim)" != 'victim contents' ] || [ -z "$kept" ] || ! cmp -s "$kept" p.cgout ||
           ! grep -q -x "cg_merge: error: cannot write 'out.cgout' (the output is kept in '$kept'): .*" err; then
            fail "rename-busy-$swap" "exit $rc (137: waited for a reader), files: $(ls | tr '\n' ' ')"
        else
            pass "rename-busy-$swap"
        fi
    done
    # ... and the copy fails half-way (EIO): the file was cut, so the
    # temporary file, the only whole output, is kept and named.
    new_case rename-busy-copy-fails
    INJECT_RENAME_ERRNO=16 INJECT_WRITE_ERRNO=5 LD_PRELOAD="$window_dir/inject.so" \
        "$merge" -o out.cgout p.cgout 2>err
    rc=$?
    kept=$(ls out.cgout.tmp.* 2>/dev/null)
    if [ "$rc" != 1 ] || [ -z "$kept" ] || ! cmp -s "$kept" p.cgout ||
       ! grep -q -x "cg_merge: error: cannot write 'out.cgout' in place (the output is kept in '$kept'): Input/output error" err; then
        fail rename-busy-copy-fails "exit $rc, files: $(ls | tr '\n' ' ')"
    else
        pass rename-busy-copy-fails
    fi
fi

# --- a signal in the middle of writing ------------------------------------
# `ulimit -f 4` (4 KiB) makes the write that crosses it raise SIGXFSZ.
new_case signal-XFSZ
profile 3000 >big.cgout
{ (ulimit -c 0 && ulimit -f 4 && exec "$merge" -o out.cgout big.cgout) 2>err; } 2>/dev/null
rc=$?
if [ "$rc" != $((128 + 25)) ]; then
    fail signal-XFSZ "exit $rc, expected $((128 + 25))"
elif ! untouched; then
    fail signal-XFSZ "temporary file left or output changed: $(ls)"
else
    pass signal-XFSZ
fi

# --- a read-only folder ---------------------------------------------------
runas=
ro_skip=
if [ "$(id -u)" = 0 ]; then
    if ! command -v setpriv >/dev/null 2>&1; then
        ro_skip="running as root, which ignores permissions, and setpriv is missing"
    else
        runas="setpriv --reuid=65534 --regid=65534 --clear-groups"
        $runas test -x "$merge" ||
            ro_skip="running as root, and the user nobody cannot run $merge"
    fi
fi

# ro_case NAME EXIT STDERR-PATTERN CHECK SETUP [INPUT]: cg_merge -o
# ro/out.cgout p.cgout [INPUT] in a folder ro made read-only after SETUP
# (shell text run inside ro); then CHECK must succeed.
ro_case() {
    local name=$1 want=$2 pat=$3 check=$4 setup=$5 input=${6:-} rc
    new_case "readonly-$name"
    if [ -n "$ro_skip" ]; then
        skip "readonly-$name" "$ro_skip"
        return
    fi
    mkdir ro && (cd ro && eval "$setup") && chmod 555 ro
    echo bad >bad.cgout
    # shellcheck disable=SC2086
    $runas "$merge" -o ro/out.cgout p.cgout $input >out 2>err
    rc=$?
    chmod 755 ro
    if [ "$rc" != "$want" ]; then
        fail "readonly-$name" "exit $rc, expected $want"
    elif ! grep -q -E -e "$pat" err; then
        fail "readonly-$name" "stderr lacks /$pat/"
    elif ! (eval "$check"); then
        fail "readonly-$name" "check failed: $check"
    else
        pass "readonly-$name"
    fi
}
ro_case in-place 0 \
    "^cg_merge: warning: cannot create a temporary file in 'ro': Permission denied; writing 'ro/out.cgout' in place, not atomically\$" \
    'cmp -s ro/out.cgout p.cgout && [ "$(ls ro)" = out.cgout ]' \
    'printf "old contents, longer than the new ones: %0200d\n" 0 >out.cgout; chmod 666 out.cgout'
ro_case new-file 1 \
    "^cg_merge: error: cannot create 'ro/out.cgout': cannot create a file in 'ro': Permission denied\$" \
    '[ -z "$(ls ro)" ]' ':'
ro_case not-writable 1 \
    "^cg_merge: error: cannot create 'ro/out.cgout': cannot create a temporary file in 'ro', nor write the file in place: Permission denied\$" \
    '[ "$(cat ro/out.cgout)" = old ]' 'echo old >out.cgout; chmod 644 out.cgout'
# In place, the file is left alone until every input has been read.
ro_case in-place-bad-input 1 \
    "^cg_merge: error: bad.cgout:1: missing a \`cmd:\` line\$" \
    '[ "$(cat ro/out.cgout)" = old ]' 'echo old >out.cgout; chmod 666 out.cgout' \
    bad.cgout

# ... with standard error closed where /dev/null cannot be opened (a bare
# chroot): the output was opened as descriptor 2, and the in-place
# warning went into it.
new_case readonly-no-stderr-no-devnull
if [ -n "$ro_skip" ]; then
    skip readonly-no-stderr-no-devnull "$ro_skip"
elif [ ! -f "$window_dir/inject.so" ]; then
    skip readonly-no-stderr-no-devnull "no preloaded library (see the window cases)"
else
    mkdir ro && printf 'old contents, longer than the new ones: %0200d\n' 0 > ro/out.cgout &&
        chmod 666 ro/out.cgout && chmod 555 ro
    # shellcheck disable=SC2086
    INJECT_NO_DEVNULL=1 LD_PRELOAD="$window_dir/inject.so" $runas "$merge" -o ro/out.cgout p.cgout > out 2>&-
    rc=$?
    chmod 755 ro
    if [ "$rc" != 0 ] || ! cmp -s ro/out.cgout p.cgout; then
        fail readonly-no-stderr-no-devnull "exit $rc, or ro/out.cgout is not the output: $(head -c 80 ro/out.cgout)"
    else
        pass readonly-no-stderr-no-devnull
    fi
fi

# --- a full file system ---------------------------------------------------
new_case full-fs
profile 5000 >big.cgout
mkdir mnt
if [ "$(id -u)" = 0 ]; then ns="unshare -m --propagation private"; else ns="unshare -r -m --propagation private"; fi
# shellcheck disable=SC2016
$ns sh -c 'mount -t tmpfs -o size=16k tmpfs mnt || exit 99
    echo "old contents" >mnt/out.cgout
    "$1" -o mnt/out.cgout big.cgout 2>err
    rc=$?
    cat mnt/out.cgout >kept
    ls mnt >left
    exit $rc' sh "$merge" 2>mount.err
rc=$?
if [ "$rc" = 99 ] || { [ "$rc" != 1 ] && [ -s mount.err ]; }; then
    skip full-fs "cannot mount a tmpfs in a private mount namespace: $(head -n 1 mount.err)"
elif [ "$rc" != 1 ]; then
    fail full-fs "exit $rc, expected 1"
elif ! grep -q -x "cg_merge: error: cannot write 'mnt/out.cgout': No space left on device" err; then
    fail full-fs "stderr lacks the reason"
elif [ "$(cat kept)" != 'old contents' ] || [ "$(cat left)" != out.cgout ]; then
    fail full-fs "the output changed or a temporary file is left: $(cat left)"
else
    pass full-fs
fi

echo "$npass passed, $nfail failed, $nskip skipped"
[ "$nfail" = 0 ] || exit 1
[ "$npass" -gt 0 ] || exit 77
exit 0
