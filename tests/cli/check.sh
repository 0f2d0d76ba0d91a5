# check.sh — sourced by the e2e scripts: check DESCRIPTION EXPECTED ACTUAL prints "ok: ..." or
# "FAIL: ..." (expected and actual quoted) and sets fail=1 on a mismatch.
fail=${fail:-0}
check() {
    if [ "$2" != "$3" ]; then
        echo "FAIL: $1: expected '$2', got '$3'"
        fail=1
    else
        echo "ok: $1"
    fi
}
