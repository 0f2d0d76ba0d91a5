#!/usr/bin/env bash
# End-to-end: `ancsdb demo` builds a small demo corpus, ingests it and prints answers.
# Usage: e2e_demo.sh ANCSDB [SHARED_DIR]
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$bin" demo --help | grep -q "usage: ancsdb demo" || fail "demo --help"
set +e
"$bin" demo --scale nope "$work/x" 2>/dev/null; [ $? -eq 2 ] || fail "bad --scale must exit 2"
"$bin" demo --bogus 2>/dev/null; [ $? -eq 2 ] || fail "unknown option must exit 2"
set -e

"$bin" demo --quiet --scale 0.02 --seed 5 "$work/demo" >"$work/out.txt" 2>"$work/err.txt" \
    || fail "demo exit $? ($(tail -3 "$work/err.txt"))"
grep -q "^ingested " "$work/out.txt" || fail "no ingest summary"
grep -q "== What the corpus holds" "$work/out.txt" || fail "no corpus summary"
grep -q "== Which characters use this particle" "$work/out.txt" || fail "no who-references"
grep -q "== Fields known only as 'unknown'" "$work/out.txt" || fail "no census"
# the condensed census has one line per (game, field) of the full census
full=$("$bin" query --db "$work/demo/corpus.db" --format tsv unknown-census | tail -n +2 | cut -f1,2 | sort -u | wc -l)
shown=$(awk "/== Fields known only as 'unknown'/{f=1;next} /^The database/{f=0} f" "$work/out.txt" | grep -cE "^MP[12]|^\\?")
[ "$full" -eq "$shown" ] || fail "condensed census: $shown lines for $full fields"
[ "$(ls "$work/demo/mp1" | wc -l)" -eq 17 ] || fail "MP1 must have 17 PAKs"
[ "$(ls "$work/demo/mp2" | wc -l)" -eq 13 ] || fail "MP2 must have 13 PAKs"

db="$work/demo/corpus.db"
q() { "$bin" sql --db "$db" --format tsv "$1" | tail -n +2; }
[ "$(q "SELECT count(*) FROM paks")" -eq 30 ] || fail "paks rows"
[ "$(q "SELECT count(*) FROM load_errors")" -eq 0 ] || fail "demo corpus must load without errors"
[ "$(q "SELECT count(*) FROM ancs WHERE game='MP1'")" -ge 5 ] || fail "MP1 ANCS rows"
[ "$(q "SELECT count(*) FROM ancs WHERE game='MP2'")" -ge 9 ] || fail "MP2 ANCS rows"
[ "$(q "SELECT count(*) FROM characters WHERE game='MP1' AND version NOT IN (5,6)")" -eq 0 ] \
    || fail "MP1 character versions must be 5 or 6"
[ "$(q "SELECT count(*) FROM characters WHERE game='MP2' AND version <> 10")" -eq 0 ] \
    || fail "MP2 character versions must be 10"
[ "$(q "SELECT count(*) FROM pak_entries")" -eq "$(q "SELECT sum(resource_count) FROM paks")" ] \
    || fail "entries vs paks.resource_count"
# the particle the demo asked about is printed with at least one character row
awk '/== Which characters use this particle/{f=1;next} /^== /{f=0} f' "$work/out.txt" \
    | grep -qE "MP[12]" || fail "who-references printed no row"
echo "e2e_demo: 1 passed, 0 failed"
