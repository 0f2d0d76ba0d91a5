#!/usr/bin/env bash
# e2e_robust_lock.sh BINARY SHARED_DIR — two ingests at once both finish (issue 11 item 12):
# two processes ingest the sample corpus into one new database at the same time; both exit 0,
# one of them says it waits, and the database holds each PAK once with the schema complete
# (checked with the sqlite3 shell against the folder listing).
set -u
. "$(dirname "$0")/lib.sh"
need_corpus mp1
need_tools sqlite3
want=$(ls "$CORPUS"/mp1/*.pak | wc -l)
"$BIN" ingest --jobs 1 --db "$T/a.db" "$CORPUS/mp1" 2>"$T/e1" &
p1=$!
"$BIN" ingest --jobs 1 --db "$T/a.db" "$CORPUS/mp1" 2>"$T/e2" &
p2=$!
wait $p1
s1=$?
wait $p2
s2=$?
if [ $s1 != 0 ] || [ $s2 != 0 ]; then
    echo "FAIL: exit statuses $s1 and $s2, expected 0 and 0"
    cat "$T/e1" "$T/e2"
    fail=1
fi
if ! grep -qh "^ancsdb: waiting for another ingest of $T/a.db" "$T/e1" "$T/e2"; then
    echo "FAIL: neither ingest said it was waiting (they may not have overlapped):"
    cat "$T/e1" "$T/e2"
    fail=1
fi
got=$(sqlite3 "$T/a.db" "SELECT count(*), count(DISTINCT path) FROM paks")
[ "$got" = "$want|$want" ] || {
    echo "FAIL: paks rows '$got', expected '$want|$want'"
    fail=1
}
ic=$(sqlite3 "$T/a.db" "PRAGMA integrity_check")
[ "$ic" = ok ] || {
    echo "FAIL: integrity_check: $ic"
    fail=1
}
[ $fail = 0 ] && echo "ok: two concurrent ingests both finished; one waited"
finish
