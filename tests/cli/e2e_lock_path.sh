#!/usr/bin/env bash
# e2e_lock_path.sh BINARY SHARED_DIR — the writer lock belongs to the database file itself
# (issue 20 item 2): a database reached through a symbolic link uses the lock beside the real
# file; a lock that cannot be opened (a symbolic link planted as DB-lock, a folder) is exit 3
# with a short message and nothing written, never an ingest without the lock; a foreign SQLite
# file that is refused keeps nothing beside it. Hand-built PAK bytes, no corpus.
set -u
. "$(dirname "$0")/lib.sh"
need_tools sqlite3
# an empty PAK: version 0x00030005, unused, 0 named, 0 resources, padded to 32 bytes
printf '\x00\x03\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' >"$T/e.pak"
printf '\x00%.0s' $(seq 16) >>"$T/e.pak"

short_message() { # WHAT FILE: one line, no SQL text
    if [ "$(wc -l <"$2")" -gt 2 ] || grep -qiE 'CREATE (TABLE|INDEX|VIEW)|INSERT INTO|SELECT ' "$2"; then
        echo "FAIL: $1: the message quotes SQL or runs long: $(head -c 300 "$2")"
        fail=1
    fi
}

# ---- a symbolic link to the database: one lock, beside the real file ----------------------
mkdir "$T/real" "$T/links"
"$BIN" ingest --quiet --db "$T/real/x.db" "$T/e.pak" 2>"$T/err"
check "ingest into x.db" 0 $?
ln -s "$T/real/x.db" "$T/links/alias.db"
"$BIN" ingest --quiet --db "$T/links/alias.db" "$T/e.pak" 2>"$T/err"
check "ingest through alias.db" 0 $?
check "no lock beside the link" "no" "$([ -e "$T/links/alias.db-lock" ] && echo yes || echo no)"
check "the lock beside the real file" "yes" "$([ -f "$T/real/x.db-lock" ] && echo yes || echo no)"
# a new database named through a linked folder: the lock beside the real folder's file
ln -s "$T/real" "$T/dirlink"
"$BIN" ingest --quiet --db "$T/dirlink/n.db" "$T/e.pak" 2>"$T/err"
check "ingest into a linked folder" 0 $?
check "its lock is the real folder's" "yes" "$([ -f "$T/real/n.db-lock" ] && echo yes || echo no)"

# ---- a lock that cannot be opened: refused, nothing written -------------------------------
echo "victim" >"$T/victim"
ln -s "$T/victim" "$T/s.db-lock"
"$BIN" ingest --quiet --db "$T/s.db" "$T/e.pak" 2>"$T/err"
check "a symbolic link planted as s.db-lock: exit 3" 3 $?
grep -q 'lock' "$T/err" || { echo "FAIL: the message does not name the lock: $(cat "$T/err")"; fail=1; }
short_message "planted link" "$T/err"
check "no database written without the lock" "no" "$([ -e "$T/s.db" ] && echo yes || echo no)"
check "the link's target untouched" "victim" "$(cat "$T/victim")"
mkdir "$T/d.db-lock"
"$BIN" ingest --quiet --db "$T/d.db" "$T/e.pak" 2>"$T/err"
check "a folder as d.db-lock: exit 3" 3 $?
short_message "folder lock" "$T/err"
check "no database written without the lock (folder)" "no" "$([ -e "$T/d.db" ] && echo yes || echo no)"
"$BIN" names import --db "$T/s.db" "$T/e.pak" 2>"$T/err"
check "names import with a planted lock: exit 3" 3 $?

# ---- a foreign SQLite file: refused, nothing left beside it --------------------------------
sqlite3 "$T/foo.db" "CREATE TABLE t(x); INSERT INTO t VALUES (1);"
"$BIN" ingest --quiet --db "$T/foo.db" "$T/e.pak" 2>"$T/err"
check "a foreign SQLite file: exit 3" 3 $?
short_message "foreign file" "$T/err"
check "no foo.db-lock left" "" "$(cd "$T" && ls -d foo.db-* 2>/dev/null)"

finish
