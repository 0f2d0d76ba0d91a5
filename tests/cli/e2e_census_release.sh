#!/usr/bin/env bash
# e2e_census_release.sh BINARY SHARED_DIR — the census per release: the four sample ISOs in,
# unknown-census has rows for the whole corpus ('(all)': each distinct content once) and for
# each release (the contents that release holds), `--release LABEL` keeps that release's rows
# only, ingesting the images one by one gives the same census, unknown-census-summary
# condenses each (game, field, release), and every v_ view under
# --release sees that release alone, as do graph and export --release. Expected counts come from truth.json (python3: release A
# is `games`, release B `release_b.games`, a content is one distinct ANCS of either), never
# from ancsdb itself. The census counted as the rows are written equals the one the final
# pass's SQL counts from the same rows.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus iso
need_tools python3
TRUTH=$CORPUS/truth.json
DB=$T/iso.db
"$BIN" ingest --db "$DB" --quiet "$CORPUS/iso" 2>"$T/err"
check "ingest of the four images: exit status" 0 $?

# char.unknown_a and ancs.version per (release, game) and for the corpus, as sorted lines
# "release game field value count"
python3 - "$TRUTH" >"$T/want" <<'EOF'
import json, sys
from collections import Counter
t = json.load(open(sys.argv[1]))
lab = {(r["release"], r["game"]): r["label"] for r in t["releases"]}
counts = Counter()
for game in ("mp1", "mp2"):
    G = game.upper()
    changed = {tuple(x) for x in t["release_diff"][game]["changed"]}
    a = {x["id"]: x for x in t["games"][game]["ancs"]}
    b = {x["id"]: x for x in t["release_b"]["games"][game]["ancs"]}
    def add(rel, x):
        cs = x["content"]["character_set"]
        counts[(rel, G, "ancs.version", str(x["content"]["version"]))] += 1
        for c in cs["characters"]:
            counts[(rel, G, "char.unknown_a", str(c["unknown_1"]))] += 1
    for x in a.values():
        add(lab[("a", game)], x)
        add("(all)", x)
    for i, x in b.items():
        add(lab[("b", game)], x)
        if i not in a or ("ANCS", i) in changed:
            add("(all)", x)  # another content than release A's
for k in sorted(counts):
    print(*k, counts[k])
EOF
"$BIN" query --db "$DB" --format tsv unknown-census >"$T/census.tsv"
check "unknown-census exit" 0 $?
check "unknown-census columns" "game field value count release" \
    "$(head -1 "$T/census.tsv" | tr '\t' ' ')"
awk -F'\t' 'NR > 1 && ($2 == "char.unknown_a" || $2 == "ancs.version") {print $5, $1, $2, $3, $4}' \
    "$T/census.tsv" | sort >"$T/got"
sort "$T/want" >"$T/want.s"
if cmp -s "$T/want.s" "$T/got"; then
    echo "ok: char.unknown_a and ancs.version per release and for the corpus = truth.json"
else
    echo "FAIL: census per release differs from truth.json (want < > got):"
    diff "$T/want.s" "$T/got" | head -20
    fail=1
fi

# one image per ingest (each run counts only the contents it adds) gives the same census
DB1=$T/one-by-one.db
for img in GM8E01_00 G2ME01_00 GM8E01_02 G2MP01_00; do
    "$BIN" ingest --db "$DB1" --quiet "$CORPUS/iso/$img.iso" 2>/dev/null
done
"$BIN" query --db "$DB1" --format tsv unknown-census >"$T/census1.tsv"
check "census after four ingests of one image each = after one ingest of the four" "" \
    "$(diff "$T/census.tsv" "$T/census1.tsv" | head -5)"

# --release keeps exactly that release's rows
for rel in GM8E01_00 G2MP01_00; do
    "$BIN" query --db "$DB" --format tsv --release "$rel" unknown-census >"$T/r.tsv"
    check "unknown-census --release $rel exit" 0 $?
    want=$(awk -F'\t' -v r="$rel" 'NR > 1 && $5 == r' "$T/census.tsv" | sort | md5sum)
    got=$(tail -n +2 "$T/r.tsv" | sort | md5sum)
    check "unknown-census --release $rel = its rows of the whole census" "$want" "$got"
    others=$(awk -F'\t' -v r="$rel" 'NR > 1 && $5 != r' "$T/r.tsv" | wc -l)
    check "unknown-census --release $rel: no row of another release" 0 "$others"
done

# the summary: one row per (game, field, release) of the census, occurrences summed
"$BIN" query --db "$DB" --format tsv unknown-census-summary >"$T/sum.tsv"
check "unknown-census-summary exit" 0 $?
python3 - "$T/census.tsv" "$T/sum.tsv" <<'EOF'
import csv, sys
from collections import defaultdict
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
occ = defaultdict(int)
for r in rows:
    occ[(r["game"], r["field"], r["release"])] += int(r["count"])
summ = list(csv.DictReader(open(sys.argv[2]), delimiter="\t"))
got = {(r["game"], r["field"], r["release"]): int(r["occurrences"]) for r in summ}
if len(summ) != len(got) or got != dict(occ):
    print("summary keys or occurrences differ from the census:",
          sorted(set(got.items()) ^ set(occ.items()))[:5])
    sys.exit(1)
EOF
check "unknown-census-summary = the census condensed per (game, field, release)" 0 $?

# the v_ views under --release: v_ancs of one release lists that release's ANCS (truth:
# release B of MP1), not the other release's contents of the same asset
want=$(python3 - "$TRUTH" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
print(len(t["release_b"]["games"]["mp1"]["ancs"]))
EOF
)
got=$("$BIN" sql --db "$DB" --format tsv --release GM8E01_02 \
    "SELECT count(*) FROM v_ancs WHERE game = 'MP1'" | tail -1)
check "v_ancs under --release GM8E01_02: its ANCS (truth release B, MP1)" "$want" "$got"
got=$("$BIN" sql --db "$DB" --format tsv --release GM8E01_02 \
    "SELECT count(*) FROM v_ancs WHERE game = 'MP2'" | tail -1)
check "v_ancs under --release GM8E01_02: no MP2 ANCS" 0 "$got"
"$BIN" sql --db "$DB" --release NOPE "SELECT 1" >/dev/null 2>"$T/e"
check "sql --release of no release: exit 2" 2 $?
grep -q "no release 'NOPE'" "$T/e"
check "sql --release of no release names it" 0 $?
# release_assets (what --release shows as assets) = the release's entries grouped by the
# sqlite3 shell, and assets under --release reads it
if command -v sqlite3 >/dev/null 2>&1; then
    want=$(sqlite3 -readonly "$DB" "SELECT p.release_id, p.game, e.asset_id, min(e.type), count(*),
        count(DISTINCT e.pak_id) FROM pak_entries e JOIN paks p ON p.pak_id = e.pak_id
        WHERE p.game IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3" | md5sum)
    got=$(sqlite3 -readonly "$DB" "SELECT release_id, game, asset_id, type, copies, pak_count
        FROM release_assets ORDER BY 1, 2, 3" | md5sum)
    check "release_assets = each release's entries grouped (sqlite3 shell)" "$want" "$got"
    want=$(sqlite3 -readonly "$DB" "SELECT count(*), sum(copies) FROM release_assets
        WHERE release_id = (SELECT release_id FROM releases WHERE label = 'G2MP01_00')")
    got=$("$BIN" sql --db "$DB" --format tsv --release G2MP01_00 \
        "SELECT count(*), sum(copies) FROM assets" | tail -1 | tr "\t" "|")
    check "assets under --release G2MP01_00: that release's" "$want" "$got"
fi

# graph and export --release: a character renamed between releases A and B (truth.json's
# field_edits) is shown with each release's name
edit=$(python3 - "$TRUTH" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
lab = {(r["release"], r["game"]): r["label"] for r in t["releases"]}
for game in ("mp1", "mp2"):
    for e in t["release_diff"][game]["field_edits"]:
        if e["type"] == "ANCS" and e["field"] == "name":
            print(lab[("a", game)], lab[("b", game)], "%08X" % e["asset_id"], e["char_index"],
                  e["a"], e["b"])
            sys.exit(0)
EOF
)
if [ -n "$edit" ]; then
    read -r ra rb id ci na nb <<<"$edit"
    got=$("$BIN" export --db "$DB" --release "$ra" character "$id" "$ci" | grep -m1 '"name"')
    check "export --release $ra: the character's name there" "\"name\": \"$na\"," "$(echo $got)"
    got=$("$BIN" export --db "$DB" --release "$rb" character "$id" "$ci" | grep -m1 '"name"')
    check "export --release $rb: the character's name there" "\"name\": \"$nb\"," "$(echo $got)"
    "$BIN" graph --db "$DB" --release "$ra" "$id:$ci" >"$T/ga.dot"
    check "graph --release $ra: exit" 0 $?
    "$BIN" graph --db "$DB" --release "$rb" "$id:$ci" >"$T/gb.dot"
    check "graph --release $rb: exit" 0 $?
    has() { grep -q "$1" "$2" && echo yes || echo no; }
    check "graph --release: each release's name in its graph" "yes no yes" \
        "$(has "$na\b" "$T/ga.dot") $(has "$nb" "$T/ga.dot") $(has "$nb" "$T/gb.dot")"
    "$BIN" graph --db "$DB" --release NOPE "$id" >/dev/null 2>&1
    check "graph --release of no release: exit 2" 2 $?
else
    echo "FAIL: truth.json has no renamed character"
    fail=1
fi
# The census of each ANCS and EVNT content is counted as its rows are written, in its PAK's
# transaction: a run killed where its final pass starts already holds census_contents rows
# for every such content decoded, and they are the rows the final pass's own SQL counts for
# a database that has none (its census_contents emptied with the sqlite3 shell), value for
# value; so is the census made from them.
need_tools sqlite3
DBK=$T/killed.db
ANCSDB_TEST_KILL_AFTER=final:1 "$BIN" ingest --quiet --db "$DBK" "$CORPUS/iso" 2>/dev/null
check "ingest killed where its final pass starts: exit status (SIGKILL)" 137 $?
check "the killed run: ANCS and EVNT contents decoded without census rows" 0 \
    "$(sqlite3 "$DBK" "SELECT count(*) FROM contents c WHERE type IN ('ANCS', 'EVNT') AND
        status = 'ok' AND NOT EXISTS (SELECT 1 FROM census_contents x
                                      WHERE x.content_id = c.content_id)")"
DBS=$T/sql.db
cp "$DB" "$DBS"
sqlite3 "$DBS" "DELETE FROM census_contents; DELETE FROM census;
    UPDATE ingest_state SET value = 1 WHERE key = 'final_pass_pending'" &&
    "$BIN" ingest --quiet --db "$DBS" "$CORPUS/iso" 2>"$T/err_s" ||
    bad "the final pass counting the census again: $(tail -3 "$T/err_s")"
dump() {
    sqlite3 "$1" "SELECT c.content_id, c.game, c.field, quote(c.value), c.count
                  FROM census_contents c JOIN contents USING (content_id)
                  WHERE type IN ('ANCS', 'EVNT') ORDER BY 1, 2, 3, 4, 5" >"$2"
}
dump "$DBK" "$T/cc_killed"
dump "$DBS" "$T/cc_sql"
check "census_contents of the ANCS and EVNT contents: rows" yes \
    "$([ "$(wc -l <"$T/cc_sql")" -gt 1000 ] && echo yes || echo no)"
check "census_contents as the PAKs' transactions count them: the final pass's SQL's" "" \
    "$(diff "$T/cc_killed" "$T/cc_sql" | head -5)"
q="SELECT release_id, game, field, quote(value), count FROM census ORDER BY 1, 2, 3, 4, 5"
check "the census made from either" "" \
    "$(diff <(sqlite3 "$DB" "$q") <(sqlite3 "$DBS" "$q") | head -5)"
finish
