#!/usr/bin/env bash
# e2e_robust_readonly.sh BINARY SHARED_DIR — a read-only database can be queried (issue 11
# item 10): a database in a folder that cannot be written, owned by another user, answers
# `sql` and a named query without WAL files and is left byte-identical. Run as an
# unprivileged user (nobody) when the suite runs as root; else the folder is made read-only
# for us. Hand-built PAK bytes, no corpus needed.
set -u
BIN=$(readlink -f "$1")
if ! command -v sqlite3 >/dev/null; then
    echo "skipping: no sqlite3 shell"
    exit 0
fi
T=$(mktemp -d)
trap 'chmod -R u+w "$T"; rm -rf "$T"' EXIT
chmod 755 "$T"
mkdir "$T/ro"
printf '\x00\x03\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' >"$T/e.pak"
printf '\x00%.0s' $(seq 16) >>"$T/e.pak"
"$BIN" ingest --quiet --db "$T/ro/a.db" "$T/e.pak" 2>/dev/null
rm -f "$T/ro/a.db-lock"
if [ ! -f "$T/ro/a.db" ] || [ -e "$T/ro/a.db-wal" ]; then
    echo "FAIL: setup: no database, or WAL files left after ingest"
    exit 1
fi
jm=$(sqlite3 "$T/ro/a.db" "PRAGMA journal_mode")
cp "$T/ro/a.db" "$T/a.orig"
chmod 444 "$T/ro/a.db"
chmod 555 "$T/ro"
RUN=()
if [ "$(id -u)" = 0 ]; then
    if ! command -v setpriv >/dev/null || ! id nobody >/dev/null 2>&1; then
        echo "skipping: running as root without setpriv or the user nobody"
        exit 0
    fi
    RUN=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
    if ! "${RUN[@]}" test -x "$BIN"; then
        echo "skipping: nobody cannot run $BIN"
        exit 0
    fi
fi
fail=0
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
exit $fail
