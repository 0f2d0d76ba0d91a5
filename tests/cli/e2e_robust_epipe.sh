#!/usr/bin/env bash
# e2e_robust_epipe.sh BINARY SHARED_DIR — an ingest whose stderr reader goes away
# (`2>&1 | head -c1`) still finishes and commits (issue 11 item 15). The folder holds
# unreadable PAKs before and after the sample corpus, so fault lines are written after the
# reader is gone. Expected counts come from the folder listing, read back with sqlite3.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus mp1
need_tools sqlite3
mkdir -p "$T/in"
printf 'not a pak' >"$T/in/000.pak"
cp "$CORPUS"/mp1/*.pak "$T/in/"
for i in $(seq 1 40); do printf 'junk' >"$T/in/zz$i.pak"; done
want=$(ls "$T/in" | wc -l)
"$BIN" ingest --jobs 2 --db "$T/a.db" "$T/in" 2>&1 | head -c1 >/dev/null
st=${PIPESTATUS[0]}
if [ "$st" != 1 ]; then
    echo "FAIL: exit status $st, expected 1 (41 unreadable PAKs)"
    fail=1
fi
got=$(sqlite3 "$T/a.db" "SELECT count(*) FROM paks" 2>&1)
if [ "$got" != "$want" ]; then
    echo "FAIL: $got paks rows, expected $want (the run did not commit)"
    fail=1
fi
errs=$(sqlite3 "$T/a.db" "SELECT count(*) FROM load_errors WHERE entry_index IS NULL" 2>&1)
if [ "$errs" != 41 ]; then
    echo "FAIL: $errs whole-PAK load_errors, expected 41"
    fail=1
fi
[ $fail = 0 ] && echo "ok: ingest finished and committed with its stderr reader gone"
finish
