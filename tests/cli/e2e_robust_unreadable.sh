#!/usr/bin/env bash
# e2e_robust_unreadable.sh BINARY SHARED_DIR — unreadable paths (issue 11 item 4): a FIFO
# named x.pak (never opened: the run must not block) and a PAK without read permission are
# each one load_errors row under the absolute path, after two runs given a relative path;
# once the FIFO is removed and the PAK made readable, their rows are gone. Runs as nobody
# when the suite runs as root (root reads any file); hand-built PAK bytes, no corpus.
set -u
. "$(dirname "$0")/lib.sh"
BIN=$(readlink -f "$BIN")
need_tools sqlite3 mkfifo
RUN=()
if [ "$(id -u)" = 0 ]; then
    command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 ||
        skip "running as root without setpriv or the user nobody"
    RUN=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
    "${RUN[@]}" test -x "$BIN" || skip "the user nobody cannot run $BIN"
fi
chmod 777 "$T"
mkdir -m 777 "$T/in"
A=$(cd "$T/in" && pwd -P)
printf '\x00\x03\x00\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' >"$T/e.pak"
printf '\x00%.0s' $(seq 16) >>"$T/e.pak"
cp "$T/e.pak" "$T/in/a.pak"
cp "$T/e.pak" "$T/in/locked.pak"
chmod 644 "$T/in/a.pak"
chmod 000 "$T/in/locked.pak"
mkfifo "$T/in/x.pak"
chmod 666 "$T/in/x.pak"
for run in 1 2; do
    (cd "$T" && timeout 60 "${RUN[@]}" "$BIN" ingest --quiet --db "$T/a.db" in 2>/dev/null)
    st=$?
    if [ $st != 1 ]; then
        echo "FAIL: run $run: exit $st, expected 1 (124 means it blocked)"
        fail=1
    fi
done
rows=$(sqlite3 "$T/a.db" "SELECT pak_path FROM load_errors ORDER BY pak_path" | tr '\n' ' ')
if [ "$rows" != "$A/locked.pak $A/x.pak " ]; then
    echo "FAIL: load_errors after two runs: '$rows', expected '$A/locked.pak $A/x.pak '"
    fail=1
fi
rm "$T/in/x.pak"
chmod 644 "$T/in/locked.pak"
(cd "$T" && "${RUN[@]}" "$BIN" ingest --quiet --db "$T/a.db" in 2>/dev/null)
st=$?
[ $st = 0 ] || {
    echo "FAIL: run after the fix: exit $st, expected 0"
    fail=1
}
n=$(sqlite3 "$T/a.db" "SELECT count(*) FROM load_errors")
[ "$n" = 0 ] || {
    echo "FAIL: $n load_errors rows after the fix, expected 0"
    fail=1
}
[ $fail = 0 ] && echo "ok: unreadable paths recorded once by absolute path, gone once fixed"
finish
