#!/usr/bin/env bash
# e2e_robust_memory.sh BINARY SHARED_DIR — ingest's --jobs outside 1–64 and --memory outside
# 1–1048576 MiB are usage errors (exit 2, no database made); --memory=N is accepted (issue 11
# item 6). The budget's effect is tested in tests/db/test_hostile_memory.c.
set -u
. "$(dirname "$0")/lib.sh"
printf '\x00\x03\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' >"$T/e.pak"
printf '\x00%.0s' $(seq 16) >>"$T/e.pak"
for args in "--jobs 0" "--jobs 65" "--jobs=-1" "--memory 0" "--memory x" "--memory=2000000"; do
    # shellcheck disable=SC2086
    "$BIN" ingest --quiet $args --db "$T/u.db" "$T/e.pak" 2>/dev/null
    st=$?
    if [ $st != 2 ] || [ -e "$T/u.db" ]; then
        echo "FAIL: ingest $args: exit $st (expected 2), database made: $([ -e "$T/u.db" ] && echo yes || echo no)"
        fail=1
    fi
    rm -f "$T"/u.db*
done
"$BIN" ingest --quiet --jobs 64 --memory=16 --db "$T/ok.db" "$T/e.pak" 2>/dev/null
st=$?
[ $st = 0 ] || {
    echo "FAIL: ingest --jobs 64 --memory=16: exit $st"
    fail=1
}
[ $fail = 0 ] && echo "ok: --jobs and --memory ranges"
finish
