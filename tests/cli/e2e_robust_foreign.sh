#!/usr/bin/env bash
# e2e_robust_foreign.sh BINARY SHARED_DIR — never modify a file that is not ours (issue 11
# item 11): an unrelated SQLite file (user_version 1, like ours; and one with no mark) given
# to `ingest` and `names import` is refused with exit 3 and left byte-identical (cmp), in
# rollback-journal mode. Needs the sqlite3 shell; hand-built PAK bytes, no corpus.
set -u
. "$(dirname "$0")/lib.sh"
need_tools sqlite3
# an empty PAK: version 0x00030005, unused, 0 named, 0 resources, padded to 32 bytes
printf '\x00\x03\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' >"$T/e.pak"
printf '\x00%.0s' $(seq 16) >>"$T/e.pak"
sqlite3 "$T/other.db" "CREATE TABLE t(x); INSERT INTO t VALUES (42); PRAGMA user_version = 1;"
sqlite3 "$T/plain.db" "CREATE TABLE paks(x);"
printf 'ANCS\t0x00000001\tx\n' >"$T/map.tsv"
for f in other plain; do
    cp "$T/$f.db" "$T/$f.orig"
    "$BIN" ingest --quiet --db "$T/$f.db" "$T/e.pak" 2>"$T/err"
    st=$?
    if [ $st != 3 ]; then
        echo "FAIL: ingest into $f.db: exit $st, expected 3"
        fail=1
    fi
    grep -q '^ancsdb: .*not an ancsdb database' "$T/err" || {
        echo "FAIL: ingest into $f.db: no 'not an ancsdb database' message:"
        cat "$T/err"
        fail=1
    }
    cmp "$T/$f.db" "$T/$f.orig" || {
        echo "FAIL: $f.db was modified by ingest"
        fail=1
    }
    jm=$(sqlite3 "$T/$f.db" "PRAGMA journal_mode")
    [ "$jm" = delete ] || {
        echo "FAIL: $f.db journal mode is now '$jm'"
        fail=1
    }
    "$BIN" sql --db "$T/$f.db" "SELECT 1" >/dev/null 2>&1
    st=$?
    [ $st = 3 ] || {
        echo "FAIL: sql on $f.db: exit $st, expected 3"
        fail=1
    }
    cmp "$T/$f.db" "$T/$f.orig" || {
        echo "FAIL: $f.db was modified by sql"
        fail=1
    }
done
# a database of ours carries the mark
"$BIN" ingest --quiet --db "$T/ours.db" "$T/e.pak" 2>/dev/null
appid=$(sqlite3 "$T/ours.db" "PRAGMA application_id")
[ "$appid" = 1095648322 ] || {
    echo "FAIL: application_id of a new database is '$appid', expected 1095648322 ('ANDB')"
    fail=1
}
[ $fail = 0 ] && echo "ok: foreign SQLite files refused (exit 3) and left byte-identical"
finish
