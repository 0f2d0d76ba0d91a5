#!/usr/bin/env bash
# e2e_release_labels.sh BINARY SHARED_DIR — `--release A,B` looks at several releases at once
# (query, sql, graph, export): the four disc images of the sample corpus are ingested, and
# what a scope of two releases holds is compared with resources.tsv (release A of both games:
# mp1/ + mp2/) and relb/resources.tsv (release B), counted here with python3.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus iso/GM8E01_00.iso relb/resources.tsv
DB=$T/c.db
"$BIN" ingest --quiet --db "$DB" "$CORPUS/iso" 2>"$T/ingest.err" || {
    echo "FAIL: ingest: $(tail -3 "$T/ingest.err")"
    exit 1
}
# expected: entries of release A of both games; distinct (game, id) over A and B of MP1
read -r entries_a assets_mp1_ab <<<"$(python3 - "$CORPUS" <<'EOF'
import csv, sys
c = sys.argv[1]
a = list(csv.DictReader(open(c + "/resources.tsv"), delimiter="\t"))
b = list(csv.DictReader(open(c + "/relb/resources.tsv"), delimiter="\t"))
print(len(a), len({r["id"] for r in a + b if r["game"] == "mp1"}))
EOF
)"

q() { "$BIN" sql --db "$DB" --format tsv "$@" 2>"$T/err" | tail -n +2; }
check "pak_entries of GM8E01_00,G2ME01_00" "$entries_a" \
    "$(q --release GM8E01_00,G2ME01_00 "SELECT count(*) FROM pak_entries")"
check "games of GM8E01_00,G2ME01_00" "MP1 MP2" \
    "$(q --release GM8E01_00,G2ME01_00 "SELECT DISTINCT game FROM paks ORDER BY game" | tr '\n' ' ' | sed 's/ $//')"
check "spaces around the comma" "$entries_a" \
    "$(q --release 'GM8E01_00, G2ME01_00' "SELECT count(*) FROM pak_entries")"
# two releases of one game: each asset once in `assets`
check "assets of GM8E01_00,GM8E01_02 (one row per asset)" "$assets_mp1_ab" \
    "$(q --release GM8E01_00,GM8E01_02 "SELECT count(*) FROM assets")"
check "distinct assets of GM8E01_00,GM8E01_02" "$assets_mp1_ab" \
    "$(q --release GM8E01_00,GM8E01_02 "SELECT count(*) FROM (SELECT DISTINCT game, asset_id FROM assets)")"
# named queries: corpus-summary counts the PAKs of both
paks=$("$BIN" query --db "$DB" --format tsv --release GM8E01_00,G2ME01_00 corpus-summary |
    awk -F'\t' '$2 == "paks" && $4 == "(all)" {s += $3} END {print s}')
check "corpus-summary paks of GM8E01_00,G2ME01_00" \
    "$(python3 -c "import json,sys; t=json.load(open(sys.argv[1])); print(t['games']['mp1']['pak_count'] + t['games']['mp2']['pak_count'])" "$CORPUS/truth.json")" "$paks"
# an unknown label among several: exit 2, naming it
"$BIN" query --db "$DB" --release GM8E01_00,NOPE01_00 corpus-summary >/dev/null 2>"$T/err"
check "unknown label exit status" 2 $?
grep -q "NOPE01_00" "$T/err" || { echo "FAIL: the message does not name NOPE01_00: $(cat "$T/err")"; fail=1; }
# graph and export take the list too
ancs=$("$BIN" sql --db "$DB" --format tsv "SELECT printf('%08X', asset_id) FROM ancs WHERE game = 'MP2' LIMIT 1" | tail -1)
"$BIN" graph --db "$DB" --release GM8E01_00,G2ME01_00 "$ancs" >"$T/g.dot" 2>"$T/err"
check "graph --release A,B exit status" 0 $?
"$BIN" export --db "$DB" --release GM8E01_00,G2ME01_00 ancs "$ancs" >"$T/x.json" 2>"$T/err"
check "export --release A,B exit status" 0 $?
# a release label given as a query's argument (release-diff A B ...) must name a release in
# view: an unknown one is a usage error naming the releases, never an empty "no difference"
for qn in release-diff release-diff-fields release-diff-worlds; do
    "$BIN" query --db "$DB" "$qn" GM8E01_00 NOPE_01 >"$T/o" 2>"$T/e"
    check "$qn with an unknown label: exit 2" 2 $?
    grep -q "no release 'NOPE_01'.*GM8E01_02" "$T/e"
    check "$qn with an unknown label: says so and lists the releases" 0 $?
    check "$qn with an unknown label: no table" "" "$(cat "$T/o")"
done
"$BIN" query --db "$DB" --release GM8E01_00 release-diff GM8E01_00 GM8E01_02 >"$T/o" 2>"$T/e"
check "release-diff of a release --release leaves out: exit 2" 2 $?
grep -q "GM8E01_02" "$T/e"
check "release-diff of a release --release leaves out: says which" 0 $?
"$BIN" query --db "$DB" release-diff GM8E01_00 GM8E01_02 >/dev/null 2>&1
check "release-diff of two known releases: exit 0" 0 $?
finish
