#!/usr/bin/env bash
# e2e_robust_readonly.sh BINARY SHARED_DIR — a read-only database can be queried (issue 11
# item 10): a database in a folder that cannot be written, owned by another user, answers
# `sql` and a named query without WAL files and is left byte-identical. Run as an
# unprivileged user (nobody) when the suite runs as root; else the folder is made read-only
# for us. Hand-built PAK bytes, no corpus needed.
set -u
. "$(dirname "$0")/lib.sh"
BIN=$(readlink -f "$BIN")
need_tools sqlite3
chmod 755 "$T"
mkdir "$T/ro"
printf '\x00\x03\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' >"$T/e.pak"
printf '\x00%.0s' $(seq 16) >>"$T/e.pak"
"$BIN" ingest --quiet --db "$T/ro/a.db" "$T/e.pak" 2>/dev/null
rm -f "$T/ro/a.db-lock"
if [ ! -f "$T/ro/a.db" ] || [ -e "$T/ro/a.db-wal" ]; then
    die "setup: no database, or WAL files left after ingest"
fi
jm=$(sqlite3 "$T/ro/a.db" "PRAGMA journal_mode")
cp "$T/ro/a.db" "$T/a.orig"
chmod 444 "$T/ro/a.db"
chmod 555 "$T/ro"
RUN=()
if [ "$(id -u)" = 0 ]; then
    command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 ||
        skip "running as root without setpriv or the user nobody"
    RUN=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
    "${RUN[@]}" test -x "$BIN" || skip "the user nobody cannot run $BIN"
fi
out=$("${RUN[@]}" "$BIN" sql --db "$T/ro/a.db" "SELECT count(*) FROM paks" 2>&1)
st=$?
if [ $st != 0 ] || [ "$(printf '%s' "$out" | tr -dc 0-9)" != 1 ]; then
    echo "FAIL: sql on a read-only $jm database: exit $st: $out"
    fail=1
fi
out=$("${RUN[@]}" "$BIN" query --db "$T/ro/a.db" corpus-summary 2>&1)
st=$?
if [ $st != 0 ]; then
    echo "FAIL: query corpus-summary on a read-only database: exit $st: $out"
    fail=1
fi
cmp -s "$T/ro/a.db" "$T/a.orig" || {
    echo "FAIL: the database changed"
    fail=1
}
[ -e "$T/ro/a.db-wal" ] && {
    echo "FAIL: a WAL file appeared"
    fail=1
}
[ $fail = 0 ] && echo "ok: a read-only database in a read-only folder answers queries"
finish
