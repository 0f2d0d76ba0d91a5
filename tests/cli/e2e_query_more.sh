#!/usr/bin/env bash
# e2e_query_more.sh ANCSDB — the smaller questions of issue 20 item 19, on a generated corpus:
# `warnings` names its column `code` as the table does; `warnings-summary` and
# `census-compare` exist with the contract's columns and agree with the sqlite3 shell;
# `ingest --help` mentions disc images; querying a database that does not exist says how to
# make one (exit 3) and creates nothing.
set -u
. "$(dirname "$0")/lib.sh"
BIN=$(realpath "$BIN")
need_tools sqlite3
DB=$T/c.db
"$BIN" demo --quiet --build-only --scale 0.02 "$T/demo" >/dev/null 2>&1 &&
    "$BIN" ingest --quiet --db "$DB" "$T/demo/mp1" "$T/demo/mp2" 2>"$T/ingest.err" || {
    echo "FAIL: demo corpus: $(tail -3 "$T/ingest.err")"
    exit 1
}

check "warnings: column code" "game code pak_path" \
    "$("$BIN" query --db "$DB" --format tsv warnings | head -1 | cut -f1-3 | tr '\t' ' ')"
check "warnings-summary columns" "game code count assets release" \
    "$("$BIN" query --db "$DB" --format tsv warnings-summary | head -1 | tr '\t' ' ')"
check "warnings-summary (all) rows = sqlite3" \
    "$(sqlite3 -separator ' ' "$DB" "SELECT game, code, count(*), count(DISTINCT asset_id) FROM warnings GROUP BY game, code ORDER BY code, game")" \
    "$("$BIN" query --db "$DB" --format tsv warnings-summary | awk -F'\t' '$5 == "(all)" {print $1, $2, $3, $4}')"
check "census-compare columns" \
    "field mp1_distinct mp1_most_common mp1_share mp2_distinct mp2_most_common mp2_share" \
    "$("$BIN" query --db "$DB" --format tsv census-compare | head -1 | tr '\t' ' ')"
check "census-compare: one row per field of the census (sqlite3)" \
    "$(sqlite3 "$DB" "SELECT count(DISTINCT field) FROM unknown_census")" \
    "$("$BIN" query --db "$DB" --format tsv census-compare | tail -n +2 | wc -l)"
# with --release only the releases named are in view (the census of the whole corpus is not):
# each game's values are those of its release
check "census-compare --release: one row per field of those releases (sqlite3)" \
    "$(sqlite3 "$DB" "SELECT count(DISTINCT field) FROM unknown_census WHERE release IN ('mp1', 'mp2')")" \
    "$("$BIN" query --db "$DB" --release mp1,mp2 --format tsv census-compare | tail -n +2 | wc -l)"
check "census-compare --release mp1: MP1's distinct values per field (sqlite3)" \
    "$(sqlite3 -separator ' ' "$DB" "SELECT field, count(*) FROM unknown_census WHERE release = 'mp1' GROUP BY field ORDER BY field")" \
    "$("$BIN" query --db "$DB" --release mp1 --format tsv census-compare | tail -n +2 | awk -F'\t' '{print $1, $2}')"
"$BIN" query --list | grep -q '^ *warnings-summary' ||
    "$BIN" query --list | grep -q 'warnings-summary'
check "query --list names warnings-summary" 0 $?

"$BIN" ingest --help | tr '\n' ' ' | grep -qi "disc image"
check "ingest --help mentions disc images" 0 $?

for cmd in "query corpus-summary" "names export" "graph 1A2B3C4D" "report -o $T/rep"; do
    # shellcheck disable=SC2086
    "$BIN" ${cmd%% *} --db "$T/none.db" ${cmd#* } >"$T/o" 2>"$T/e"
    check "${cmd%% *} of a missing database: exit 3" 3 $?
    grep -q "ancsdb ingest --db" "$T/e"
    check "${cmd%% *} of a missing database says how to make one" 0 $?
    check "${cmd%% *} of a missing database creates nothing" "" "$(ls "$T" | grep none)"
done

finish
