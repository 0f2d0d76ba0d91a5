# lib.sh — what every tests/cli/e2e_*.sh shares. Source it first thing:
#
#     . "$(dirname "$0")/lib.sh"
#
# It reads the script's arguments as tests/CMakeLists.txt passes them (BINARY [SHARED_DIR])
# and sets
#   BIN     the binary under test, as an absolute path
#   SHARED  the shared folder ("" when not given); CORPUS is $SHARED/corpus
#   ROOT    the checkout (tests/cli/../..)
#   T       a fresh temporary folder, made writable again and removed when the script exits
#   fail    0; check and bad set it to 1
# and defines
#   check WHAT WANT GOT    compare two strings: "ok: WHAT", or "FAIL: WHAT: expected 'WANT',
#                          got 'GOT'" and fail=1
#   bad MESSAGE            "FAIL: MESSAGE", fail=1, and go on
#   die MESSAGE            "FAIL: MESSAGE" and exit 1 at once
#   same_file WHAT A B     "ok: WHAT" when files A (wanted) and B (got) are equal, else bad
#                          with their first differences
#   skip REASON            the test cannot run: "SKIP: REASON", exit 77 (ctest reports it as
#                          skipped; SKIP_RETURN_CODE in tests/CMakeLists.txt) unless a check
#                          already failed (then exit 1)
#   skip_part REASON       part of the test cannot run: "SKIP: REASON"; the script goes on, and
#                          finish then reports skipped rather than passed
#   need_corpus [PATH...]  skip unless the sample corpus (truth.json, and each PATH inside it)
#                          is there
#   have_corpus [PATH...]  the same test, as a status (for a part of a script)
#   need_tools TOOL...     skip unless each TOOL is on PATH
#   on_exit COMMAND        run COMMAND (eval'd) when the script exits, before T is removed
#   wait_stopped PID       until the process has stopped itself (state T: a test hook's
#                          SIGSTOP, docs/testing.md) or ended; status 0 when stopped
#   finish                 "NAME: passed" / "NAME: FAILED" / "NAME: skipped ..." and exit
#                          with 0, 1 or 77
# A test that did not run never reports passed. With LIB_FUNCTIONS_ONLY=1 set before sourcing,
# only the functions are defined (check.sh does this for scripts that make their own T).

LIB_NAME=$(basename "$0" .sh)
fail=${fail:-0}
LIB_SKIPPED=
LIB_AT_EXIT=()
if [ "${LIB_FUNCTIONS_ONLY:-0}" != 1 ]; then
    BIN=${1:?usage: $LIB_NAME.sh BINARY [SHARED_DIR]}
    case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
    SHARED=${2:-}
    CORPUS=$SHARED/corpus
    ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    T=$(mktemp -d "${TMPDIR:-/tmp}/$LIB_NAME.XXXXXX") || { echo "FAIL: mktemp"; exit 1; }
    function lib_cleanup {
        local c
        for c in "${LIB_AT_EXIT[@]}"; do
            eval "$c"
        done
        chmod -R u+rwx "$T" 2>/dev/null
        rm -rf "$T"
    }
    trap lib_cleanup EXIT
fi

on_exit() { LIB_AT_EXIT+=("$1"); }

wait_stopped() {
    local st
    while :; do
        st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
        case $st in T | t) return 0 ;; Z | X | "") return 1 ;; esac
        sleep 0.05
    done
}

check() {
    if [ "$2" != "$3" ]; then
        echo "FAIL: $1: expected '$2', got '$3'"
        fail=1
    else
        echo "ok: $1"
    fi
}

bad() {
    echo "FAIL: $*"
    fail=1
}

# same_file WHAT WANT_FILE GOT_FILE: ok when the two files are equal; else FAIL with their
# first differences (want < > got).
same_file() {
    if cmp -s "$2" "$3"; then
        echo "ok: $1"
    else
        bad "$1 (want < > got):"
        diff "$2" "$3" | head -20
    fi
}

die() {
    echo "FAIL: $*"
    exit 1
}

skip() {
    echo "SKIP: $*"
    [ "$fail" = 0 ] || exit 1
    exit 77
}

skip_part() {
    echo "SKIP: $*"
    LIB_SKIPPED="${LIB_SKIPPED:+$LIB_SKIPPED; }$*"
}

have_corpus() {
    [ -n "$SHARED" ] && [ -f "$CORPUS/truth.json" ] || return 1
    local p
    for p in "$@"; do
        [ -e "$CORPUS/$p" ] || return 1
    done
}

need_corpus() {
    have_corpus "$@" || skip "no sample corpus${*:+ with $*} at ${CORPUS}"
}

need_tools() {
    local t
    for t in "$@"; do
        command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
    done
}

finish() {
    if [ "$fail" != 0 ]; then
        echo "$LIB_NAME: FAILED"
        exit 1
    fi
    if [ -n "$LIB_SKIPPED" ]; then
        echo "$LIB_NAME: skipped in part ($LIB_SKIPPED)"
        exit 77
    fi
    echo "$LIB_NAME: passed"
    exit 0
}
