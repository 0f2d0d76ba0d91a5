#!/usr/bin/env bash
# e2e_robust_lock.sh BINARY SHARED_DIR — two ingests of one new database (issue 11 item 12),
# their order set by the test hooks (docs/testing.md), not by timing:
# - one ingest stopped after its first PAK (ANCSDB_TEST_STOP_AFTER=pak:1) holds the writer
#   lock; a second one says it waits; once the first goes on, both exit 0 and the database
#   holds each PAK once with the schema complete (the sqlite3 shell against the folder);
# - an ingest stopped just after finding no file at the database path
#   (db_path_missing:1), which another ingest then creates, still takes the lock and loads
#   (it failed with "cannot resolve the database path" before);
# - and two started at once both exit 0 with each PAK once, however they overlap.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus mp1
need_tools sqlite3
want=$(ls "$CORPUS"/mp1/*.pak | wc -l)
STOPPED=
on_exit '[ -n "$STOPPED" ] && kill -9 "$STOPPED" 2>/dev/null'

# each PAK once, the database whole
holds_all() { # WHAT DB
    check "$1: each PAK once" "$want|$want" \
        "$(sqlite3 "$2" "SELECT count(*), count(DISTINCT path) FROM paks")"
    check "$1: integrity_check" ok "$(sqlite3 "$2" "PRAGMA integrity_check")"
}

# ---- the second waits for the first ------------------------------------------------------
ANCSDB_TEST_STOP_AFTER=pak:1 "$BIN" ingest --jobs 1 --db "$T/a.db" "$CORPUS/mp1" 2>"$T/e1" &
p1=$!
wait_stopped $p1 || die "the first ingest ended before its first PAK was done: $(cat "$T/e1")"
STOPPED=$p1
"$BIN" ingest --jobs 1 --db "$T/a.db" "$CORPUS/mp1" 2>"$T/e2" &
p2=$!
# until the second says it waits (or ends, which it must not while the lock is held)
while kill -0 $p2 2>/dev/null && ! grep -q "^ancsdb: waiting for another ingest of $T/a.db" "$T/e2"; do
    sleep 0.05
done
grep -q "^ancsdb: waiting for another ingest of $T/a.db" "$T/e2"
check "the second ingest says it waits for the first" 0 $?
kill -CONT $p1
STOPPED=
wait $p1
s1=$?
wait $p2
s2=$?
check "both exit 0" "0 0" "$s1 $s2"
holds_all "waited" "$T/a.db"

# ---- the database created between two looks at its path ----------------------------------
ANCSDB_TEST_STOP_AFTER=db_path_missing:1 "$BIN" ingest --jobs 1 --db "$T/b.db" "$CORPUS/mp1" \
    2>"$T/e3" &
p3=$!
wait_stopped $p3 || die "the ingest did not stop where the database path was missing: $(cat "$T/e3")"
STOPPED=$p3
: >"$T/b.db" # what another ingest's open leaves there first: an empty file
kill -CONT $p3
STOPPED=
wait $p3
check "the database created meanwhile: exit 0" 0 $?
grep -q "cannot resolve" "$T/e3" && bad "the database created meanwhile: $(cat "$T/e3")"
holds_all "created meanwhile" "$T/b.db"

# ---- two at once, in whatever order they meet -----------------------------------------------
"$BIN" ingest --jobs 1 --db "$T/c.db" "$CORPUS/mp1" 2>"$T/e4" &
p4=$!
"$BIN" ingest --jobs 1 --db "$T/c.db" "$CORPUS/mp1" 2>"$T/e5" &
p5=$!
wait $p4
s4=$?
wait $p5
s5=$?
check "two at once: both exit 0" "0 0" "$s4 $s5"
[ "$s4 $s5" = "0 0" ] || cat "$T/e4" "$T/e5"
holds_all "two at once" "$T/c.db"
finish
