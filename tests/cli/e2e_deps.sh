#!/usr/bin/env bash
# e2e_deps.sh BINARY SHARED_DIR — `ancsdb query deps ANCS_ID [CHAR_INDEX]` against truth.json
# for every character of the sample corpus: its own IDs, its particle lists and effect
# components (content) and what derived.character_reach says it reaches through its
# animations (ANIMs, MP1 EVNTs, event particles). Read from the CSV and the JSON output.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus
DB=$T/c.db
"$BIN" ingest --quiet --db "$DB" "$CORPUS/mp1" "$CORPUS/mp2" 2>"$T/ingest.err" || {
    echo "FAIL: ingest: $(tail -3 "$T/ingest.err")"
    exit 1
}

# usage: an optional CHAR_INDEX, a bad one refused
"$BIN" query --db "$DB" deps >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: deps without ANCS_ID must exit 2"; fail=1; }
"$BIN" query --db "$DB" deps 0x1 x >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: deps with CHAR_INDEX 'x' must exit 2"; fail=1; }
"$BIN" query --list --format tsv | grep -q '^deps	' || { echo "FAIL: deps not in query --list"; fail=1; }

# The same checks on a database filled by two ingests, MP2 first, then MP1 (the final pass
# fills what deps reads for the contents each ingest adds).
DB2=$T/two.db
"$BIN" ingest --quiet --db "$DB2" "$CORPUS/mp2" 2>"$T/ingest2.err" &&
    "$BIN" ingest --quiet --db "$DB2" "$CORPUS/mp1" 2>>"$T/ingest2.err" || {
    echo "FAIL: ingest in two steps: $(tail -3 "$T/ingest2.err")"
    fail=1
}

# A database an earlier ancsdb wrote without char_reach (it was stopped before its final
# pass; an ingest now writes char_reach with each content's rows): the next ingest's final
# pass makes those rows from the decoded tables. Simulated with the sqlite3 shell on a copy.
DB3=$T/earlier.db
cp "$DB" "$DB3"
sqlite3 "$DB3" "DELETE FROM char_reach;
    DELETE FROM census_contents WHERE content_id IN (SELECT content_id FROM contents WHERE type = 'ANCS');
    UPDATE ingest_state SET value = 1 WHERE key = 'final_pass_pending'" &&
    "$BIN" ingest --quiet --db "$DB3" "$CORPUS/mp1" "$CORPUS/mp2" 2>"$T/ingest3.err" || {
    echo "FAIL: ingest of the earlier database: $(tail -3 "$T/ingest3.err")"
    fail=1
}
reach="SELECT game, ancs_id, content_id, char_index, rule, k1, k2, k3, dst_type, dst_id, via
       FROM char_reach ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11"
sqlite3 -readonly "$DB" "$reach" >"$T/reach_now"
sqlite3 -readonly "$DB3" "$reach" >"$T/reach_earlier"
check "char_reach made by the final pass for an earlier database: rows" \
    "$(wc -l <"$T/reach_now")" "$(wc -l <"$T/reach_earlier")"
cmp -s "$T/reach_now" "$T/reach_earlier"
check "char_reach made by the final pass for an earlier database = the rows an ingest writes" 0 $?

for db in "$DB" "$DB2" "$DB3"; do
python3 - "$BIN" "$db" "$CORPUS/truth.json" <<'EOF' || fail=1
import csv, io, json, subprocess, sys

bin_, db, truth_path = sys.argv[1:4]
truth = json.load(open(truth_path))
NONE = (0, 0xFFFFFFFF)
LISTS = [("generic_particles", "PART"), ("swoosh_particles", "SWHC"),
         ("third_list", None), ("electric_particles", "ELSC"), ("spawn_particles", "SPSC")]
errors = []


def run(fmt, *args):
    p = subprocess.run([bin_, "query", "--db", db, "--format", fmt, "deps", *args],
                       capture_output=True, text=True)
    if p.returncode != 0:
        errors.append("deps %s exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
        return []
    if fmt == "json":
        return json.loads(p.stdout)
    return list(csv.DictReader(io.StringIO(p.stdout)))


def expected(ch, reach):
    """(type, id) -> kind of path expected for one character."""
    want = {}
    for key, typ in (("model_id", "CMDL"), ("skin_id", "CSKR"), ("skeleton_id", "CINF"),
                     ("frozen_model", "CMDL"), ("frozen_skin", "CSKR"),
                     ("spatial_primitives_id", "CSPP")):
        v = ch.get(key)
        if v is not None and v not in NONE:
            want.setdefault((typ, v), "own")
    prd = ch["particle_resource_data"]
    for key, typ in LISTS:
        for v in prd.get(key) or []:
            if v not in NONE:
                want.setdefault((typ, v), "particles")
    for ef in ch.get("effect_array") or []:
        for comp in ef["components"]:
            p = comp["particle"]
            if p["id"] not in NONE:
                want.setdefault((p["type"], p["id"]), "effect")
    for v in reach["anim_ids"]:
        want.setdefault(("ANIM", v), "animation")
    for v in reach["evnt_ids"]:
        want.setdefault(("EVNT", v), "animation")
    for p in reach["event_particles"]:
        want.setdefault((p["type"], p["id"]), "event")
    return want


checked = 0
for gkey, game in (("mp1", "MP1"), ("mp2", "MP2")):
    for a in truth["games"][gkey]["ancs"]:
        aid = "%08X" % a["id"]
        chars = a["content"]["character_set"]["characters"]
        reach = {r["character_index"]: r for r in a["derived"]["character_reach"]}
        for fmt in ("csv", "json"):
            rows = [r for r in run(fmt, "0x" + aid) if r["game"] == game]
            got = {}
            for r in rows:
                if r["ancs_id"] != aid:
                    errors.append("%s %s: row of ANCS %s" % (game, aid, r["ancs_id"]))
                t = r["dst_type"] or None
                k = (int(r["char_index"]), t, int(r["dst_id"], 16))
                if k in got:
                    errors.append("%s %s %s: duplicate row %s" % (fmt, game, aid, k))
                got[k] = r
            for i, ch in enumerate(chars):
                if i not in reach:
                    errors.append("%s %s char %d: no character_reach" % (game, aid, i))
                    continue
                want = expected(ch, reach[i])
                mine = {(t, v): r for (ci, t, v), r in got.items() if ci == i}
                for key in sorted(set(want) - set(mine), key=str):
                    errors.append("%s %s %s char %d: missing %s %08X" % (fmt, game, aid, i,
                                                                        key[0], key[1]))
                for key in sorted(set(mine) - set(want), key=str):
                    errors.append("%s %s %s char %d: unexpected %s %08X (via %s)" % (
                        fmt, game, aid, i, key[0], key[1], mine[key]["via"]))
                for key, r in mine.items():
                    if key not in want:
                        continue
                    via = r["via"]
                    if r["character"] != ch["name"]:
                        errors.append("%s %s char %d: character %r" % (game, aid, i,
                                                                       r["character"]))
                    kind = want[key]
                    if kind == "animation" and not any(
                            via == "animation %d" % x or via.startswith("animation %d > " % x)
                            for x in reach[i]["animation_indices"]):
                        errors.append("%s %s char %d: %s via %r names no animation it uses"
                                      % (game, aid, i, key, via))
                    if key[0] == "EVNT" and " > ANIM " not in via:
                        errors.append("%s %s char %d: EVNT via %r lacks its ANIM" % (
                            game, aid, i, via))
                    if kind == "event" and not (via.startswith("animation ")
                                                and " > particle node " in via):
                        errors.append("%s %s char %d: event particle via %r" % (game, aid, i,
                                                                                via))
                    if kind == "event" and game == "MP1" and " > EVNT " not in via:
                        errors.append("%s %s char %d: MP1 event particle via %r lacks EVNT" % (
                            game, aid, i, via))
                    if int(r["paths"]) < 1:
                        errors.append("%s %s char %d: paths %s" % (game, aid, i, r["paths"]))
                checked += 1
            for (ci, t, v) in got:
                if ci >= len(chars):
                    errors.append("%s %s: row of character %d of %d" % (game, aid, ci,
                                                                      len(chars)))
        # one character alone gives exactly that character's rows
        if len(chars) > 1:
            last = len(chars) - 1
            one = [r for r in run("csv", aid, str(last)) if r["game"] == game]
            all_ = [r for r in run("csv", aid) if r["game"] == game
                    and int(r["char_index"]) == last]
            if one != all_:
                errors.append("%s %s: deps %s %d differs from its rows of deps %s" % (
                    game, aid, aid, last, aid))

for e in errors[:40]:
    print("FAIL:", e)
if errors:
    print("%d failures" % len(errors))
    sys.exit(1)
print("ok: deps matches truth.json for %d character checks (%s)" % (checked, db))
EOF
done
# a character index the set does not have: no rows, and stderr says which it has (the first
# MP1 ANCS of truth.json and its character count)
read -r aid nchar <<<"$(python3 -c 'import json,sys; a = json.load(open(sys.argv[1]))["games"]["mp1"]["ancs"][0]; print("%08X" % a["id"], len(a["content"]["character_set"]["characters"]))' "$CORPUS/truth.json")"
"$BIN" query --db "$DB" --format tsv deps "$aid" "$nchar" >"$T/o" 2>"$T/e"
check "deps with a character index past the set: exit 0, no rows" "0 1" "$? $(wc -l <"$T/o")"
grep -q "has no character $nchar (its characters: 0 to $((nchar - 1)))" "$T/e"
check "deps with a character index past the set: says which characters there are" 0 $?
finish
