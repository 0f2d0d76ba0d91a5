#!/usr/bin/env bash
# e2e_sql.sh — `ancsdb sql` and the named queries on the sample corpus: --param binding (named
# and positional; an unbound parameter is exit 2, never NULL), Ctrl-C stops a running statement
# (exit 130), an ID in no PAK names its other reading, unknown-census [FIELD-PATTERN],
# unknown-census-summary, census-compare, warnings-summary, warnings [CODE], corpus-summary's error and warning rows, the ingest
# summary (warnings and the command that lists them; "0 changed, 30 unchanged") and Ctrl-C
# during an ingest. Expected values from the sqlite3 shell and python3.
# usage: bash e2e_sql.sh ANCSDB SHARED_DIR
set -u
. "$(dirname "$0")/lib.sh"
need_corpus mp1
need_tools sqlite3 python3
DB="$T/c.db"
"$BIN" ingest --db "$DB" "$CORPUS/mp1" "$CORPUS/mp2" 2>"$T/i1.err"
check "ingest exit" 0 $?
nwarn=$(sqlite3 "$DB" "SELECT count(*) FROM warnings")
grep -qE "^ingest: 30 PAKs \(30 changed, 0 unchanged\),.* $nwarn warnings \(ancsdb query --db $DB warnings lists them\)" "$T/i1.err"
check "summary: warnings (sqlite3: $nwarn) and the command that lists them" 0 $?
"$BIN" ingest --db "$DB" "$CORPUS/mp1" "$CORPUS/mp2" 2>"$T/i2.err"
grep -qE "^ingest: 30 PAKs \(0 changed, 30 unchanged\),.* $nwarn warnings \(0 new; " "$T/i2.err"
check "re-run: 0 changed, 30 unchanged, warnings still counted" 0 $?
q() { "$BIN" sql --db "$DB" --format tsv "$@" | tail -n +2; }

# --- sql --param
check "named :name" "1" "$(q --param n=1 "SELECT :n")"
check "named @name and \$name, --param=" "7 x" "$(q --param=a=7 --param 'b=x' 'SELECT @a, $b' | tr '\t' ' ')"
check "positional ?1 ?2" "5 six" "$(q --param 5 --param six "SELECT ?1, ?2" | tr '\t' ' ')"
check "0x value binds an integer" "26" "$(q --param 0x1A "SELECT ?1 + 0")"
want=$(sqlite3 "$DB" "SELECT count(*) FROM characters WHERE game = 'MP1'")
check "a bound value filters" "$want" "$(q --param g=MP1 "SELECT count(*) FROM characters WHERE game = :g")"
for args in "SELECT ?" "SELECT :x" "SELECT ?1, ?2|--param|1" "SELECT 1|--param|y=1" \
    "SELECT ?|--param|1|--param|2" "SELECT :a, ?1|--param|1|--param|a=2"; do
    IFS='|' read -r -a a <<<"$args"
    sql=${a[0]}
    "$BIN" sql --db "$DB" "${a[@]:1}" "$sql" >"$T/o" 2>"$T/e"
    check "unbound/unused parameter is a usage error: $args" 2 $?
    check "... and prints no row: $args" 0 "$(wc -c <"$T/o")"
done
grep -q "^ancsdb: sql: " "$T/e"
check "the error line starts with ancsdb: sql:" 0 $?

# --- Ctrl-C stops a statement that never ends (the SIGINT is raised by the test hook at the
# statement's third interrupt check: docs/testing.md)
ANCSDB_TEST_SIGINT_AFTER=step:3 "$BIN" sql --db "$DB" "WITH RECURSIVE r(x) AS (SELECT 1 \
UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r" >"$T/int.out" 2>"$T/int.err"
check "sql: Ctrl-C exit status" 130 $?
grep -qx "ancsdb: sql: interrupted" "$T/int.err"
check "sql: says interrupted" 0 $?

# --- an ID in no PAK: its other reading
sqlite3 -separator ' ' "$DB" "SELECT e.type, e.asset_id, p.path FROM pak_entries e JOIN paks p \
USING (pak_id) ORDER BY p.game, p.path, e.entry_index" >"$T/entries"
row=$(python3 - "$T/entries" <<'PY'
import sys
rows = [l.split(" ", 2) for l in open(sys.argv[1]).read().splitlines()]
ids = {int(r[1]) for r in rows}
for t, i, path in rows:
    s = str(int(i))
    if len(s) <= 8 and int(s, 16) not in ids:
        print(t, i, "%08X" % int(s, 16))
        break
PY
)
read -r type dec hexread <<<"$row"
inpak=0
if [ -n "$dec" ] && [ "$inpak" = 0 ]; then
    first=$(sqlite3 "$DB" "SELECT p.path FROM pak_entries e JOIN paks p USING (pak_id) WHERE \
e.asset_id = $dec ORDER BY p.game, p.path, e.entry_index LIMIT 1")
    base=${first##*/}
    "$BIN" query --db "$DB" asset-locations "$type" "$dec" >"$T/h.out" 2>"$T/h.err"
    check "ID hint: exit 0" 0 $?
    art=a
    case $type in [AEIOU]*) art=an ;; esac
    want=$(printf 'ancsdb: query asset-locations: no asset 0x%s; as decimal it is 0x%08X, %s %s in %s' \
        "$hexread" "$dec" "$art" "$type" "$base")
    check "ID hint names the other reading" "$want" "$(sed 's/ and [0-9]* other PAKs*$//' "$T/h.err")"
    "$BIN" query --db "$DB" --format tsv asset-locations "$type" "$(printf '0x%08X' "$dec")" | tail -n +2 | wc -l >"$T/n"
    check "its hex spelling finds it" "$(sqlite3 "$DB" "SELECT count(*) FROM pak_entries WHERE asset_id = $dec AND type = '$type'")" "$(cat "$T/n")"
else
    echo "e2e_sql: no asset with an 8-digit decimal ID whose hex reading is free, skipping the hint"
fi
"$BIN" query --db "$DB" who-references PART 0xFEEDFACE >/dev/null 2>"$T/h2.err"
check "an ID in no PAK says so" "ancsdb: query who-references: no asset 0xFEEDFACE in any PAK of the database" "$(cat "$T/h2.err")"
# an ID some PAK holds, given where another type is asked: what it is, where (sqlite3: its
# first copy by game, path, entry), and what the argument takes
art() { case $1 in [AEIOU]*) echo an ;; *) echo a ;; esac; }
first_copy() {
    sqlite3 -separator ' ' "$DB" "SELECT e.type, p.path FROM pak_entries e JOIN paks p USING (pak_id) \
WHERE e.asset_id = $1 ORDER BY p.game, p.path, e.entry_index LIMIT 1"
}
mlvl=$(sqlite3 "$DB" "SELECT asset_id FROM pak_entries WHERE type = 'MLVL' AND asset_id NOT IN \
(SELECT asset_id FROM pak_entries WHERE type = 'MREA') ORDER BY asset_id LIMIT 1")
read -r ty path <<<"$(first_copy "$mlvl")"
"$BIN" query --db "$DB" characters-in "$(printf '%08X' "$mlvl")" >"$T/t1.out" 2>"$T/t1.err"
check "an MLVL given as AREA: exit 0" 0 $?
check "... what it is and what AREA takes" "$(printf 'ancsdb: query characters-in: 0x%08X is %s %s (in %s), not a MREA: AREA takes an area'"'"'s MREA ID or name' \
    "$mlvl" "$(art "$ty")" "$ty" "${path##*/}")" "$(cat "$T/t1.err")"
ancs=$(sqlite3 "$DB" "SELECT asset_id FROM pak_entries WHERE type = 'ANCS' AND asset_id NOT IN \
(SELECT asset_id FROM pak_entries WHERE type = 'PART') ORDER BY asset_id LIMIT 1")
read -r ty path <<<"$(first_copy "$ancs")"
"$BIN" query --db "$DB" where-loaded PART "$(printf '0x%08X' "$ancs")" >/dev/null 2>"$T/t2.err"
check "an ANCS asked for as a PART says what it is" "$(printf 'ancsdb: query where-loaded: 0x%08X is %s %s (in %s), not a PART' \
    "$ancs" "$(art "$ty")" "$ty" "${path##*/}")" "$(cat "$T/t2.err")"
mrea=$(sqlite3 "$DB" "SELECT mrea_id FROM mlvl_areas ORDER BY mrea_id LIMIT 1")
"$BIN" query --db "$DB" characters-in "$(printf '0x%08X' "$mrea")" >/dev/null 2>"$T/t3.err"
check "an MREA given as AREA: no note" "" "$(cat "$T/t3.err")"

# --- unknown-census [FIELD-PATTERN] and unknown-census-summary
"$BIN" query --db "$DB" --format tsv unknown-census >"$T/census.tsv"
check "census exit" 0 $?
for pat in unknown_a "CHAR.*" "poi.?nique" zzz_no_such_field; do
    "$BIN" query --db "$DB" --format tsv unknown-census "$pat" >"$T/f.tsv"
    python3 - "$T/census.tsv" "$T/f.tsv" "$pat" <<'PY'
import fnmatch, sys
full = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][1:]
got = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])][1:]
pat = sys.argv[3].lower()
if "*" not in pat and "?" not in pat:
    pat = "*" + pat + "*"
want = [r for r in full if fnmatch.fnmatchcase(r[1].lower(), pat)]
sys.exit(0 if want == got else 1)
PY
    check "unknown-census '$pat' = the full census filtered by field (python3 fnmatch)" 0 $?
done
"$BIN" query --db "$DB" --format tsv unknown-census-summary >"$T/sum.tsv"
python3 - "$T/census.tsv" "$T/sum.tsv" <<'PY'
import sys
full = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][1:]
hdr, *got = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
assert hdr == ["game", "field", "distinct_values", "most_common", "most_common_share",
               "occurrences", "release"], hdr
by = {}
for game, field, value, count, release in full:
    by.setdefault((game, field, release), []).append((value, int(count)))
want = []
for (game, field, release), vals in sorted(
        by.items(), key=lambda kv: (kv[0][1], kv[0][0], kv[0][2] != "(all)", kv[0][2])):
    total = sum(c for _, c in vals)
    top = sorted(vals, key=lambda vc: (-vc[1], vc[0]))[0]
    tenths = (2000 * top[1] + total) // (2 * total)  # percent in tenths, halves rounded up
    share = "%d.%d%%" % (tenths // 10, tenths % 10)
    want.append([game, field, str(len(vals)), top[0], share, str(total), release])
if want != got:
    for w, g in zip(want, got):
        if w != g:
            print("want", w, "got", g)
            break
    print(len(want), len(got))
    sys.exit(1)
PY
check "unknown-census-summary = the census condensed (python3)" 0 $?
n=$("$BIN" query --db "$DB" --format tsv unknown-census-summary unknown_a | tail -n +2 | cut -f2 | sort -u | tr '\n' ' ')
want=$(tail -n +2 "$T/census.tsv" | cut -f2 | grep -i unknown_a | sort -u | tr '\n' ' ')
check "unknown-census-summary FIELD-PATTERN" "$want" "$n"

# --- census-compare: MP1 and MP2 side by side, the '(all)' rows of the census condensed
"$BIN" query --db "$DB" --format tsv census-compare >"$T/cmp.tsv"
python3 - "$T/census.tsv" "$T/cmp.tsv" <<'PY'
import sys
full = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][1:]
hdr, *got = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
assert hdr == ["field", "mp1_distinct", "mp1_most_common", "mp1_share", "mp2_distinct",
               "mp2_most_common", "mp2_share"], hdr
by = {}
for game, field, value, count, release in full:
    if release == "(all)":
        by.setdefault(field, {}).setdefault(game, []).append((value, int(count)))
want = []
for field in sorted(by):
    row = [field]
    for game in ("MP1", "MP2"):
        vals = by[field].get(game)
        if not vals:
            row += ["", "", ""]
            continue
        total = sum(c for _, c in vals)
        top = sorted(vals, key=lambda vc: (-vc[1], vc[0]))[0]
        tenths = (2000 * top[1] + total) // (2 * total)
        row += [str(len(vals)), top[0], "%d.%d%%" % (tenths // 10, tenths % 10)]
    want.append(row)
if want != got:
    for w, g in zip(want, got):
        if w != g:
            print("want", w, "got", g)
            break
    print(len(want), len(got))
    sys.exit(1)
if not any(r[1] and r[4] for r in got):
    print("no field known in both games")
    sys.exit(1)
PY
check "census-compare = the census's (all) rows side by side (python3)" 0 $?

# --- warnings-summary: per (game, code) over the corpus, then per release (sqlite3)
"$BIN" query --db "$DB" --format tsv warnings-summary >"$T/ws.tsv"
check "warnings-summary columns" "game code count assets release" "$(head -1 "$T/ws.tsv" | tr '\t' ' ')"
check "warnings-summary (all) rows (sqlite3)" \
    "$(sqlite3 -separator ' ' "$DB" "SELECT game, code, count(*), count(DISTINCT asset_id) FROM warnings GROUP BY game, code ORDER BY code, game")" \
    "$(awk -F'\t' '$5 == "(all)" {print $1, $2, $3, $4}' "$T/ws.tsv")"
check "warnings-summary per release (sqlite3)" \
    "$(sqlite3 -separator ' ' "$DB" "SELECT game, code, count(*), label FROM (SELECT w.rowid AS wid, w.game, w.code, r.label FROM warnings w JOIN paks p ON p.pak_id = w.pak_id JOIN releases r ON r.release_id = p.release_id UNION SELECT w.rowid, w.game, w.code, r.label FROM warnings w JOIN pak_entries e ON w.pak_id IS NULL AND e.content_id = w.content_id JOIN paks p ON p.pak_id = e.pak_id JOIN releases r ON r.release_id = p.release_id) GROUP BY game, code, label ORDER BY code, game, label")" \
    "$(awk -F'\t' 'NR > 1 && $5 != "(all)" {print $1, $2, $3, $5}' "$T/ws.tsv")"
code=$(sqlite3 "$DB" "SELECT code FROM warnings GROUP BY code ORDER BY count(*) DESC LIMIT 1")
check "warnings-summary CODE-PATTERN" "$code" \
    "$("$BIN" query --db "$DB" --format tsv warnings-summary "$code" | tail -n +2 | cut -f2 | sort -u)"

# --- warnings [CODE]
check "warnings: one row per warning (sqlite3)" "$nwarn" "$("$BIN" query --db "$DB" --format tsv warnings | tail -n +2 | wc -l)"
kind=$(sqlite3 "$DB" "SELECT code FROM warnings GROUP BY code ORDER BY count(*) DESC LIMIT 1")
check "warnings $kind" "$(sqlite3 "$DB" "SELECT count(*) FROM warnings WHERE code = '$kind'")" \
    "$("$BIN" query --db "$DB" --format tsv warnings "$kind" | tail -n +2 | cut -f2 | grep -cx "$kind")"
check "warnings columns (code, as the table names it)" "game code pak_path type asset_id asset_id_name byte_offset detail" \
    "$("$BIN" query --db "$DB" --format tsv warnings | head -1 | tr '\t' ' ')"
nopath=$("$BIN" query --db "$DB" --format tsv warnings | tail -n +2 | awk -F'\t' '$3 == ""' | wc -l)
check "every warning names its PAK" 0 "$nopath"

# --- corpus-summary: load_errors and warnings rows per game, 0 included
"$BIN" query --db "$DB" --format tsv corpus-summary >"$T/cs.tsv"
for g in MP1 MP2; do
    check "corpus-summary $g load_errors" "$(sqlite3 "$DB" "SELECT count(*) FROM load_errors WHERE game = '$g'")" \
        "$(awk -F'\t' -v g=$g '$1 == g && $2 == "load_errors" {print $3}' "$T/cs.tsv")"
    check "corpus-summary $g warnings" "$(sqlite3 "$DB" "SELECT count(*) FROM warnings WHERE game = '$g'")" \
        "$(awk -F'\t' -v g=$g '$1 == g && $2 == "warnings" {print $3}' "$T/cs.tsv")"
done

# --- Ctrl-C during an ingest: the PAKs before stay, the rest are read on the next run (the
# SIGINT is raised by the test hook after the 5th PAK: docs/testing.md)
mkdir -p "$T/big"
"$BIN" demo --quiet --build-only --scale 0.1 "$T/big" >/dev/null 2>&1
total=$(find "$T/big" -iname '*.pak' | wc -l)
ANCSDB_TEST_SIGINT_AFTER=pak:5 "$BIN" ingest --jobs 1 --db "$T/big.db" "$T/big" 2>"$T/bi.err"
check "interrupted ingest exit status" 130 $?
kept=$(sed -n 's/^ancsdb: ingest: interrupted: \([0-9]*\) PAKs\{0,1\} committed, the rest are read on the next run$/\1/p' "$T/bi.err")
check "interrupted ingest says it kept the 5 PAKs before Ctrl-C" 5 "$kept"
check "... and 5 PAKs are in the database (sqlite3)" 5 "$(sqlite3 "$T/big.db" "SELECT count(*) FROM paks")"
"$BIN" ingest --jobs 1 --db "$T/big.db" "$T/big" 2>"$T/bi2.err"
check "the next run finishes" 0 $?
grep -qE "^ingest: $total PAKs \($((total - 5)) changed, 5 unchanged\)" "$T/bi2.err"
check "the next run reads the rest" 0 $?
"$BIN" ingest --jobs 1 --db "$T/clean.db" "$T/big" 2>/dev/null
for t in paks pak_entries assets ancs characters events asset_refs warnings; do
    check "resumed = clean: $t rows" "$(sqlite3 "$T/clean.db" "SELECT count(*) FROM $t")" \
        "$(sqlite3 "$T/big.db" "SELECT count(*) FROM $t")"
done

finish
