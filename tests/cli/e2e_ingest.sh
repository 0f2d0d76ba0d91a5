#!/usr/bin/env bash
# e2e_ingest.sh BINARY SHARED_DIR — ingest a copy of the sample corpus with the real binary:
# exit codes, the summary line, a second run that changes nothing, a changed PAK, a broken
# PAK, every named query in every format, and `sql` refusing writes.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus mp1
command -v sqlite3 >/dev/null 2>&1 && HAVE_SQLITE3=1 || HAVE_SQLITE3=0
need_tools python3
# expected figures: truth.json (PAKs, ANCS, EVNT, characters) and resources.tsv (entries,
# distinct assets), never numbers copied into this script
read -r NPAK NENT NASSET NANCS NEVNT NCHAR <<<"$(python3 - "$CORPUS" <<'PY'
import csv, json, sys
d = sys.argv[1]
t = json.load(open(d + "/truth.json"))["games"]
with open(d + "/resources.tsv") as f:
    rows = list(csv.DictReader(f, delimiter="\t"))
print(sum(g["pak_count"] for g in t.values()), len(rows),
      len({(r["game"], r["id"]) for r in rows}), sum(len(g["ancs"]) for g in t.values()),
      sum(len(g.get("evnt") or []) for g in t.values()),
      sum(len(a["content"]["character_set"]["characters"]) for g in t.values() for a in g["ancs"]))
PY
)"
[ -n "$NCHAR" ] || die "could not read the expected counts from truth.json / resources.tsv"
cp -r "$CORPUS/mp1" "$CORPUS/mp2" "$T/"
chmod -R u+w "$T"
DB=$T/c.db

# first run
"$BIN" ingest --db "$DB" "$T/mp1" "$T/mp2" >"$T/out1" 2>"$T/err1"
check "first ingest exit status" 0 $?
check "first ingest prints nothing on stdout" "" "$(cat "$T/out1")"
grep -Eq "^ingest: $NPAK PAKs \\($NPAK changed, 0 unchanged\\), $NENT resources, $NANCS ANCS, $NEVNT EVNT, $NCHAR characters, 0 errors,"' [0-9]+ warnings( \(ancsdb query --db [^ ]+ warnings lists them\))?, [0-9.]+ s$' "$T/err1"
check "summary line of the first run" 0 $?

# each PAK's game: detected from its bytes, and for the PAKs with no signal (empty ones,
# AudioGrp's lone ATBL) the game of the other PAKs of its folder; truth.json counts 17 + 13
want=$(python3 -c "import json,sys; g=json.load(open(sys.argv[1]))['games']; print(g['mp1']['pak_count'], g['mp2']['pak_count'])" "$CORPUS/truth.json" 2>/dev/null || echo "17 13")
check "paks per game (folder fallback for undetectable PAKs)" "$want" \
    "$("$BIN" sql --db "$DB" --format tsv "SELECT (SELECT count(*) FROM paks WHERE game = 'MP1') || ' ' || (SELECT count(*) FROM paks WHERE game = 'MP2')" | tail -1)"

snapshot() {
    "$BIN" sql --db "$DB" --format tsv "SELECT
        (SELECT count(*) FROM paks) || ' ' || (SELECT count(*) FROM pak_entries) || ' ' ||
        (SELECT count(*) FROM assets) || ' ' || (SELECT sum(copies) FROM assets) || ' ' ||
        (SELECT count(*) FROM ancs) || ' ' || (SELECT count(*) FROM characters) || ' ' ||
        (SELECT count(*) FROM events) || ' ' || (SELECT count(*) FROM asset_refs) || ' ' ||
        (SELECT count(*) FROM warnings) || ' ' || (SELECT count(*) FROM load_errors) || ' ' ||
        (SELECT group_concat(pak_id) FROM paks) AS s"
}
S1=$(snapshot)
check "counts after the first run" "$NPAK $NENT $NASSET $NENT $NANCS $NCHAR" "$(echo "$S1" | tail -1 | cut -d' ' -f1-6)"

# second run: nothing changes
"$BIN" ingest --db "$DB" --quiet "$T/mp1" "$T/mp2" 2>"$T/err2"
check "second ingest exit status" 0 $?
grep -Eq "^ingest: $NPAK PAKs \\(0 changed, $NPAK unchanged\\), 0 resources" "$T/err2"
check "second run skips every PAK" 0 $?
check "second run changes no row" "$S1" "$(snapshot)"
"$BIN" ingest --db "$DB" --quiet --rehash "$T/mp1" "$T/mp2" 2>/dev/null
"$BIN" ingest --db "$DB" --quiet --rehash "$T/mp1" "$T/mp2" 2>"$T/err3"
grep -Eq "\\(0 changed, $NPAK unchanged\\)" "$T/err3"
check "--rehash run after a rehash run skips every PAK" 0 $?

# a touched PAK is replaced, never duplicated
touch -d '2001-01-01' "$T/mp1/Metroid1.pak"
"$BIN" ingest --db "$DB" --quiet "$T/mp1" "$T/mp2" 2>"$T/err4"
check "touched PAK exit status" 0 $?
grep -Eq "\\(1 changed, $((NPAK - 1)) unchanged\\)" "$T/err4"
check "touched PAK rewritten alone" 0 $?
check "touched PAK: same counts" "$(echo "$S1" | tail -1 | cut -d' ' -f1-10)" \
    "$(snapshot | tail -1 | cut -d' ' -f1-10)"

# a broken PAK: a load_errors row, exit 1, the rest still there
printf 'this is not a pak file at all, just some bytes' >"$T/mp1/Broken.PAK"
"$BIN" ingest --db "$DB" --quiet "$T/mp1" 2>"$T/err5"
check "broken PAK exit status" 1 $?
check "broken PAK recorded" "1" "$("$BIN" sql --db "$DB" --format tsv \
    "SELECT count(*) FROM load_errors WHERE stage = 'pak' AND pak_path LIKE '%Broken.PAK'" | tail -1)"
check "everything else still loaded" "$NANCS $NCHAR" "$("$BIN" sql --db "$DB" --format tsv \
    "SELECT (SELECT count(*) FROM ancs) || ' ' || (SELECT count(*) FROM characters)" | tail -1)"
rm "$T/mp1/Broken.PAK"

# usage errors
"$BIN" ingest --db "$DB" >/dev/null 2>&1
check "ingest without PATH" 2 $?
"$BIN" ingest --bogus x >/dev/null 2>&1
check "ingest with an unknown option" 2 $?
"$BIN" ingest --db /nonexistent/dir/x.db "$T/mp1" >/dev/null 2>&1
check "ingest into an impossible database" 3 $?

# queries
"$BIN" query --list >"$T/list"
check "query --list" 0 $?
for q in who-references character unknown-census dangling-refs asset-locations corpus-summary; do
    grep -q "^$q " "$T/list"
    check "query --list names $q" 0 $?
done
ANCS=$("$BIN" sql --db "$DB" --format tsv "SELECT printf('%08X', asset_id) FROM ancs ORDER BY game, asset_id LIMIT 1" | tail -1)
PART=$("$BIN" sql --db "$DB" --format tsv "SELECT printf('%08X', particle_id) FROM particle_refs WHERE particle_type = 'PART' ORDER BY particle_id LIMIT 1" | tail -1)
for fmt in table csv json tsv; do
    for args in "who-references PART 0x$PART" "who-references EVNT 0" "character $ANCS" \
        "unknown-census" "dangling-refs" "asset-locations ANCS $ANCS" "corpus-summary"; do
        # shellcheck disable=SC2086
        "$BIN" query --db "$DB" --format $fmt $args >"$T/q.out" 2>"$T/q.err"
        check "query $args --format $fmt" 0 $?
    done
    if [ "$fmt" = json ] && command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/q.out"
        check "json output parses" 0 $?
    fi
done
"$BIN" query --db "$DB" --format csv who-references PART "$PART" | head -1 | grep -q '^game,ancs_id,ancs_id_name,char_index,character,via'
check "who-references columns" 0 $?
CHAR=$("$BIN" sql --db "$DB" --format tsv "SELECT name FROM characters ORDER BY game, ancs_id, char_index LIMIT 1" | tail -1)
check "character by name finds it" 1 "$("$BIN" query --db "$DB" --format tsv character "$CHAR" | tail -n +2 | grep -c "$CHAR" | head -1 | sed 's/^[2-9].*/1/')"
"$BIN" query --db "$DB" who-references PART >/dev/null 2>"$T/q.err"
check "wrong argument count" 2 $?
grep -q 'TYPE' "$T/q.err" && grep -q 'ID' "$T/q.err"
check "wrong argument count lists the params" 0 $?
"$BIN" query --db "$DB" who-references PART zz >/dev/null 2>&1
check "bad ID" 2 $?
"$BIN" query --db "$DB" no-such-query >/dev/null 2>&1
check "unknown query" 2 $?
"$BIN" query --db "$T/missing.db" corpus-summary >/dev/null 2>&1
check "query on a missing database" 3 $?

# sql is read-only
"$BIN" sql --db "$DB" "DELETE FROM paks" >/dev/null 2>&1
check "sql refuses DELETE" 3 $?
"$BIN" sql --db "$DB" "CREATE TABLE x(a)" >/dev/null 2>&1
check "sql refuses CREATE" 3 $?
check "paks still there (all + the broken one)" "$((NPAK + 1))" "$("$BIN" sql --db "$DB" --format tsv "SELECT count(*) FROM paks" | tail -1)"
"$BIN" sql --db "$DB" --format json "SELECT asset_id FROM ancs LIMIT 1" | grep -Eq '"asset_id": ?"[0-9A-F]{8}"'
check "asset IDs print as hex in JSON" 0 $?

# schema version refusal
if [ $HAVE_SQLITE3 = 1 ]; then
    cp "$DB" "$T/old.db"
    rm -f "$T/old.db-wal" "$T/old.db-shm"
    sqlite3 "$T/old.db" "PRAGMA user_version = 999"
    "$BIN" ingest --db "$T/old.db" "$T/mp1" >/dev/null 2>"$T/v.err"
    check "newer schema refused" 3 $?
    grep -q "schema version" "$T/v.err"
    check "refusal message names the schema version" 0 $?
fi
finish
