#!/usr/bin/env bash
# e2e_names.sh BINARY SHARED_DIR — `ancsdb names import/export` with the sample corpus and its
# asset name map: the rows equal truth.json `names`; names stand beside IDs in
# who-references, character, find and the v_ views (expected names from truth.json: a map's
# directory + name, else the PAK's named resource); a PAK name and a map name for the same
# asset resolve to the map's; enum labels as docs/enumerations.md spells them; a re-import replaces; a
# truncated map is refused with FILE:LINE and changes nothing; export -> import round trip.
set -u
. "$(dirname "$0")/lib.sh"
MAP=$CORPUS/names/AssetNameMap32.xml
need_corpus names/AssetNameMap32.xml
DB=$T/c.db

"$BIN" ingest --quiet --db "$DB" "$CORPUS/mp1" "$CORPUS/mp2" 2>"$T/ingest.err" || {
    echo "FAIL: ingest: $(tail -3 "$T/ingest.err")"
    exit 1
}

# ---- command line ----------------------------------------------------------------------
"$BIN" names --help >"$T/help" 2>&1
check "names --help exit" 0 $?
grep -q 'names import' "$T/help" || { echo "FAIL: names --help says nothing of import"; fail=1; }
"$BIN" names >/dev/null 2>&1
check "names without action" 2 $?
"$BIN" names import --db "$DB" >/dev/null 2>&1
check "names import without a map" 2 $?
"$BIN" names frobnicate >/dev/null 2>&1
check "names with an unknown action" 2 $?
"$BIN" names export --db "$DB" --bogus >/dev/null 2>&1
check "names export with an unknown option" 2 $?
"$BIN" names import --db "$DB" "$T/missing.xml" >/dev/null 2>"$T/err"
check "names import of a missing file: a usage error (CONTRACT: a PATH that does not exist)" 2 $?
grep -q "missing.xml" "$T/err"
check "names import of a missing file: the message names it" 0 $?

# ---- import ---------------------------------------------------------------------------
# how many assets the map names, by an independent XML parser
NNAMES=$(python3 -c 'import sys, xml.etree.ElementTree as ET
print(sum(1 for _ in ET.parse(sys.argv[1]).getroot().iter("Asset")))' "$MAP")
[ -n "$NNAMES" ] || { echo "FAIL: could not count the map's assets"; exit 1; }
"$BIN" names import --db="$DB" "$MAP" 2>"$T/import.err"
check "names import exit" 0 $?
grep -q "AssetNameMap32.xml: $NNAMES names\$" "$T/import.err" ||
    { echo "FAIL: import summary: $(cat "$T/import.err")"; fail=1; }
"$BIN" names import --db "$DB" "$MAP" 2>"$T/import2.err"
check "re-import exit" 0 $?
grep -q "$NNAMES names (replacing $NNAMES)" "$T/import2.err" ||
    { echo "FAIL: re-import summary: $(cat "$T/import2.err")"; fail=1; }

# a truncated copy under the same file name: refused, FILE:LINE, nothing changed
mkdir -p "$T/cut"
head -c 100000 "$MAP" >"$T/cut/AssetNameMap32.xml"
"$BIN" sql --db "$DB" --format tsv "SELECT * FROM asset_names ORDER BY asset_id, source" \
    >"$T/before.tsv"
"$BIN" names import --db "$DB" "$T/cut/AssetNameMap32.xml" 2>"$T/cut.err"
check "truncated map exit" 1 $?
grep -Eq "^ancsdb: $T/cut/AssetNameMap32.xml:[0-9]+: " "$T/cut.err" ||
    { echo "FAIL: truncated map message: $(cat "$T/cut.err")"; fail=1; }
"$BIN" sql --db "$DB" --format tsv "SELECT * FROM asset_names ORDER BY asset_id, source" \
    >"$T/after.tsv"
cmp -s "$T/before.tsv" "$T/after.tsv" || { echo "FAIL: refused map changed asset_names"; fail=1; }
# a wrong root element
printf '<AssetMap>\n  <AssetNameMap/>\n</AssetMap>\n' >"$T/cut/root.xml"
"$BIN" names import --db "$DB" "$T/cut/root.xml" 2>"$T/root.err"
check "wrong root exit" 1 $?
grep -q "root.xml:1: root element" "$T/root.err" || { echo "FAIL: wrong root: $(cat "$T/root.err")"; fail=1; }

# ---- export -> import round trip --------------------------------------------------------
"$BIN" names export --db "$DB" -o "$T/export.xml" 2>/dev/null
check "export exit" 0 $?
"$BIN" names export --db "$DB" >"$T/export_stdout.xml"
cmp -s "$T/export.xml" "$T/export_stdout.xml" || { echo "FAIL: export -o and stdout differ"; fail=1; }
# -o that is a symbolic link is refused: nothing written through it
echo victim >"$T/victim"
ln -s "$T/victim" "$T/link.xml"
"$BIN" names export --db "$DB" -o "$T/link.xml" 2>"$T/link.err"
rc=$?
check "export -o through a symbolic link: refused" 3 $rc
check "export -o through a symbolic link: the link's target untouched" victim "$(cat "$T/victim")"
[ -L "$T/link.xml" ] || bad "export -o through a symbolic link: the link is gone"
"$BIN" names import --db "$T/round.db" "$T/export.xml" 2>/dev/null
check "import of the export" 0 $?
q='SELECT printf("%08X", asset_id) AS k, ifnull(type, "") AS t, name, ifnull(directory, "") AS d FROM asset_names ORDER BY asset_id'
"$BIN" sql --db "$T/round.db" --format tsv "$q" >"$T/round.tsv"
"$BIN" sql --db "$DB" --format tsv "SELECT printf('%08X', n.asset_id) AS k, ifnull(n.type, '') AS t, n.name, ifnull(n.directory, '') AS d FROM asset_names n JOIN asset_label l ON l.asset_id = n.asset_id AND l.label = ifnull(n.directory, '') || n.name ORDER BY n.asset_id" >"$T/orig.tsv"
cmp -s "$T/orig.tsv" "$T/round.tsv" || { echo "FAIL: export -> import rows differ"; diff "$T/orig.tsv" "$T/round.tsv" | head -5; fail=1; }
# the export is well-formed for an independent parser, with the map's entities
python3 - "$T/export.xml" <<'EOF' || fail=1
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "AssetNameMap", root.tag
names = [a.find("Value/Name").text or "" for a in root.iter("Asset")]
assert any("&" in n for n in names) and any("<" in n for n in names), "entities lost"
EOF

# ---- names against truth.json, in the table, the queries and the views ------------------
python3 - "$BIN" "$DB" "$CORPUS/truth.json" <<'EOF' || fail=1
import json, subprocess, sys

bin_, db, truth_path = sys.argv[1:4]
truth = json.load(open(truth_path))
errors = []
tnames = truth["names"]  # "8-hex" -> {name, directory, type}


def sql(q):
    p = subprocess.run([bin_, "sql", "--db", db, "--format", "json", q],
                       capture_output=True, text=True)
    if p.returncode:
        errors.append("sql %s: %s" % (q, p.stderr.strip()))
        return []
    return json.loads(p.stdout or "[]")


def query(*args):
    p = subprocess.run([bin_, "query", "--db", db, "--format", "json", *args],
                       capture_output=True, text=True)
    if p.returncode:
        errors.append("query %s: %s" % (" ".join(args), p.stderr.strip()))
        return []
    return json.loads(p.stdout or "[]")


def hx(v):
    return v if isinstance(v, str) else "%08X" % v


# the PAKs' named resources: first name by PAK path (games' folders mp1/, mp2/), then seq
pak_name = {}
for g in ("mp1", "mp2"):
    for p in sorted(truth["games"][g]["paks"], key=lambda p: p["path"]):
        for r in p["named_resources"]:
            pak_name.setdefault("%08X" % r["id"], r["name"])
label = dict(pak_name)
for k, v in tnames.items():
    label[k.upper()] = v["directory"] + v["name"]
map_only = {k.upper(): v["directory"] + v["name"] for k, v in tnames.items()}

# 1. the map's rows are truth's names
rows = sql("SELECT printf('%08X', asset_id) AS k, type, name, directory FROM asset_names "
           "WHERE source = 'AssetNameMap32.xml'")
got = {r["k"]: (r["type"], r["name"], r["directory"]) for r in rows}
want = {k.upper(): (v["type"], v["name"], v["directory"]) for k, v in tnames.items()}
if got != want:
    bad = sorted(set(got.items()) ^ set(want.items()))[:3]
    errors.append("asset_names != truth names (%d vs %d rows), e.g. %s" % (len(got), len(want), bad))

# 2. asset_label: map name, else PAK name (the map wins a collision)
pak_rows = sql("SELECT count(*) AS n FROM asset_names WHERE source = 'pak'")
have_pak = pak_rows and pak_rows[0]["n"] > 0
if not have_pak:
    errors.append("no asset_names rows with source 'pak' after ingest (the PAKs' named resources)")
elif pak_rows[0]["n"] != len(pak_name):
    errors.append("%d 'pak' rows, want one per named asset: %d" % (pak_rows[0]["n"], len(pak_name)))
expect = label if have_pak else map_only
got = {hx(r["asset_id"]): r["label"] for r in sql("SELECT asset_id, label FROM asset_label")}
if got != expect:
    errors.append("asset_label: %d rows, want %d; e.g. %s" % (
        len(got), len(expect), sorted(set(got.items()) ^ set(expect.items()))[:3]))
if have_pak:
    both = [k for k in pak_name if k in map_only]
    if not both:
        errors.append("no asset named by both a PAK and the map in the corpus")
    for k in both:
        if got.get(k) != map_only[k]:
            errors.append("collision %s: label %r, want the map's %r" % (k, got.get(k), map_only[k]))
    only = [k for k in pak_name if k not in map_only]
    for k in only:
        if got.get(k) != pak_name[k]:
            errors.append("PAK-only name %s: %r, want %r" % (k, got.get(k), pak_name[k]))


def name_of(v):
    return expect.get(hx(v)) if v is not None else None


# 3. who-references: ancs_id_name beside ancs_id, for every particle with references
checked = 0
for g in ("mp1", "mp2"):
    for p in truth["games"][g]["particle_refs"]:
        if not (p["direct"] or p["events_by_character"]):
            continue
        for r in query("who-references", p["type"], str(p["id"])):
            checked += 1
            if r["ancs_id_name"] != name_of(r["ancs_id"]):
                errors.append("who-references %s %08X: ancs %s name %r, want %r" % (
                    p["type"], p["id"], r["ancs_id"], r["ancs_id_name"], name_of(r["ancs_id"])))
if checked < 10:
    errors.append("who-references checked only %d rows" % checked)

# 4. character: by a part of the name, in another case; every ID column's name
for g in ("mp1", "mp2"):
    for a in truth["games"][g]["ancs"][:6]:
        for c in a["content"]["character_set"]["characters"]:
            nm = c["name"]
            if len(nm) < 4:
                continue
            part = nm[1:-1].swapcase() if nm[1:-1].isascii() else nm
            rows = query("character", part)
            mine = [r for r in rows if hx(r["ancs_id"]) == "%08X" % a["id"] and r["name"] == nm]
            if not mine:
                errors.append("character %r (part of %r) not found" % (part, nm))
                continue
            r = mine[0]
            for col, key in (("ancs_id", None), ("model_id", "model_id"), ("skin_id", "skin_id"),
                             ("skeleton_id", "skeleton_id")):
                if r[col + "_name"] != name_of(r[col]):
                    errors.append("character %r: %s_name %r, want %r" % (
                        nm, col, r[col + "_name"], name_of(r[col])))

# 5. find: case-insensitive substring and wildcards over name and directory
def ascii_lower(s):
    return "".join(ch.lower() if ch.isascii() else ch for ch in s)

allnames = {}  # id -> list of (name, directory)
for k, v in tnames.items():
    allnames.setdefault(k.upper(), []).append((v["name"], v["directory"]))
if have_pak:
    for g in ("mp1", "mp2"):
        for p in truth["games"][g]["paks"]:
            for r in p["named_resources"]:
                allnames.setdefault("%08X" % r["id"], []).append((r["name"], ""))
# one whole name of the map (the middle one by key) without its type prefix, in upper case
mid = sorted(tnames)[len(tnames) // 2]
whole = tnames[mid]["name"].split("_", 1)[-1].upper()
for pat in ("CRèME & co", "bomb<SLOT>", "CHOZO", "_anim_8", "cooked/s", "_0", "sam", "ELSC",
            whole, "&", "PART"):
    want = {k for k, lst in allnames.items()
            if any(ascii_lower(pat) in ascii_lower(s) for n, d in lst for s in (n, d, d + n))}
    rows = query("find", pat)
    got = {hx(r["asset_id"]) for r in rows}
    if got != want or not want:
        errors.append("find %r: %d IDs, want %d (e.g. %s)" % (pat, len(got), len(want),
                                                            sorted(got ^ want)[:3]))
    for r in rows:
        if (r["directory"] or "") + r["name"] != expect.get(hx(r["asset_id"])):
            errors.append("find %r: %s shows %r" % (pat, r["asset_id"], r["name"]))
rows = query("find", "crème*&*c?_4")
got = {hx(r["asset_id"]) for r in rows}
want = {k.upper() for k, v in tnames.items() if "Crème_&_Co_4" in v["name"]}
if got != want or not want:
    errors.append("find with wildcards: %s, want %s" % (sorted(got), sorted(want)))

# 6. the views: every _name column beside a hex column is that ID's name
views = {
    "v_characters": ["ancs", "model", "skin", "skeleton", "frozen_model", "frozen_skin", "cspp"],
    "v_asset_refs": ["src", "dst"], "v_pak_entries": ["asset"], "v_events": ["owner", "particle"],
    "v_particle_refs": ["ancs", "particle"], "v_assets": ["asset"], "v_pak_names": ["asset"],
    "v_animation_resources": ["ancs", "anim", "evnt"], "v_anim_primitives": ["ancs", "anim"],
    "v_meta_anim_nodes": ["ancs", "anim"], "v_evnt": ["evnt"], "v_pas_states": ["ancs"],
    "v_effect_components": ["ancs", "particle"], "v_warnings": ["asset"],
}
named = 0
for v, cols in views.items():
    rows = sql("SELECT * FROM " + v)
    if not rows:
        errors.append("%s is empty" % v)
    for r in rows:
        for c in cols:
            want = expect.get(r[c]) if r[c] is not None else None
            named += want is not None
            if r[c + "_name"] != want:
                errors.append("%s.%s_name for %s: %r, want %r" % (v, c, r[c], r[c + "_name"], want))
                break
if named < 100:
    errors.append("views: only %d named IDs" % named)
# hex input is case-insensitive in the views
a = truth["games"]["mp1"]["ancs"][0]["id"]
rows = sql("SELECT count(*) AS n FROM v_ancs WHERE ancs = '%08x'" % a)
if not rows or rows[0]["n"] != 1:
    errors.append("v_ancs WHERE ancs = lower-case hex: %s" % rows)

# 7. labels as docs/enumerations.md names them
STATES = ["Fall", "Getup", "LieOnGround", "Step", "Death", "Locomotion", "KnockBack",
          "MeleeAttack", "Turn", "LoopAttack", "LoopReaction", "GroundHit", "Generate", "Jump",
          "Hurled", "Slide", "Taunt", "Scripted", "ProjectileAttack", "Cover", "WallHang",
          "AdditiveIdle", "AdditiveAim", "AdditiveFlinch", "AdditiveReaction"]
LABELS = {
    ("v_pas_states", "state_type"): dict(enumerate(STATES)),
    ("v_pas_parms", "parm_type"): {0: "Int32", 1: "UInt32", 2: "Float", 3: "Bool", 4: "Enum"},
    ("v_pas_parms", "weight_function"): {0: "ExactMatch", 1: "PercentError",
                                         2: "AngularPercent", 3: "NoWeight"},
    ("v_events", "poi_type"): {0: "Loop", 1: "EmptyBool", 2: "EmptyInt32", 4: "SoundInt32",
                               5: "Particle", 6: "UserEvent", 7: "RandRate", 8: "Sound"},
    ("v_events", "parented_mode"): {0: "Initial", 1: "ContinuousEmitter", 2: "ContinuousSystem"},
    ("v_events", "kind"): {"bool": "BoolPOINode", "int32": "Int32POINode",
                           "particle": "ParticlePOINode", "sound": "SoundPOINode"},
    ("v_effect_components", "parented_mode"): {0: "Initial", 1: "ContinuousEmitter",
                                               2: "ContinuousSystem"},
    ("v_meta_anim_nodes", "type"): {0: "Play", 1: "Blend", 2: "PhaseBlend", 3: "Random",
                                    4: "Sequence"},
    ("v_animations", "meta_type"): {0: "Play", 1: "Blend", 2: "PhaseBlend", 3: "Random",
                                    4: "Sequence"},
    ("v_transitions", "trans_type"): {0: "MetaAnim", 1: "Trans", 2: "PhaseTrans", 3: "Snap"},
    ("v_half_transitions", "trans_type"): {0: "MetaAnim", 1: "Trans", 2: "PhaseTrans", 3: "Snap"},
    ("v_ancs", "default_trans_type"): {0: "MetaAnim", 1: "Trans", 2: "PhaseTrans", 3: "Snap"},
    ("v_anim_primitives", "start_time_type"): {0: "NonZero", 1: "ZeroIncreasing",
                                               2: "ZeroSteady", 3: "ZeroDecreasing",
                                               4: "Infinity"},
}
for (v, col), m in LABELS.items():
    seen = set()
    for r in sql("SELECT DISTINCT %s AS v, %s_label AS l FROM %s" % (col, col, v)):
        if r["v"] is None:
            continue
        seen.add(r["v"])
        if r["l"] != m.get(r["v"]):
            errors.append("%s.%s_label for %r: %r, want %r" % (v, col, r["v"], r["l"], m.get(r["v"])))
    if not seen:
        errors.append("%s.%s: no values" % (v, col))

for e in errors[:25]:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
EOF

finish
