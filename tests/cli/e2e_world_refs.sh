#!/usr/bin/env bash
# e2e_world_refs.sh BINARY SHARED_DIR — where the worlds load an asset, as every command that
# asks "who refers to it" sees it (CONTRACT.md "Worlds"), and worlds and areas given by name:
#  - who-references TYPE ID lists, after the ANCS rows, one row per (world, area, layer) whose
#    MLVL dependency list holds the asset (src_type MLVL, src_id, via `area N 'Name' > layer
#    L 'Layer'`, `> area` for the area's own group), an MREA's and a name STRG's area too;
#    expected rows computed here from truth.json `worlds`;
#  - graph --who draws those worlds (an MLVL node, an edge per area and layer); the report's
#    page of each ANCS and asset lists the areas that load it ("Loaded in");
#  - WORLD and AREA arguments (areas, area-deps, characters-in, release-diff-worlds) and ID
#    arguments of type MLVL/MREA take the English name, the dark world's name (MP2) or the
#    internal name (MP2), case-insensitive; a name of several worlds or areas is exit 2 with
#    the candidates listed; checked against truth.json and a hand-built PAK of two worlds
#    whose names and an area's name are the same (tests/cli/worldbytes.py writes its bytes).
set -u
. "$(dirname "$0")/lib.sh"
need_corpus relb/mp1
need_tools python3
DB=$T/c.db
"$BIN" ingest --quiet --db "$DB" "$CORPUS/mp1" "$CORPUS/mp2" 2>"$T/ingest.err" ||
    die "ingest: $(tail -3 "$T/ingest.err")"
DBR=$T/r.db
for rel in A_MP1:mp1 B_MP1:relb/mp1; do
    "$BIN" ingest --quiet --db "$DBR" --release "${rel%%:*}" "$CORPUS/${rel#*:}" \
        2>"$T/ingest_r.err" || die "ingest of $rel: $(tail -3 "$T/ingest_r.err")"
done

python3 - "$BIN" "$DB" "$DBR" "$CORPUS/truth.json" "$T" "$ROOT/tests/cli" <<'EOF' || fail=1
import csv, html, io, json, os, subprocess, sys

bin_, db, dbr, truth_path, T, here = sys.argv[1:7]
sys.path.insert(0, here)
from worldbytes import mlvl_v11, pak, strg_v0  # noqa: E402

truth = json.load(open(truth_path))
errors = []
GAMES = (("mp1", "MP1"), ("mp2", "MP2"))
NONE = (0, 0xFFFFFFFF)


def err(msg):
    if len(errors) < 60:
        errors.append(msg)


def run(*args, dbf=db, fmt="csv"):
    p = subprocess.run([bin_] + list(args[:1]) + ["--db", dbf] +
                       (["--format", fmt] if args[0] == "query" else []) + list(args[1:]),
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def query(*args, dbf=db):
    rc, out, e = run("query", *args, dbf=dbf)
    if rc != 0:
        err("query %s: exit %d: %s" % (" ".join(args), rc, e.strip()))
        return []
    return list(csv.DictReader(io.StringIO(out)))


def hx(v):
    return "%08X" % v


# ---- expected MLVL rows of who-references, from truth.json -------------------------------
# (game, type, id) -> list of (mlvl_id, via, area_index, layer order) in file order
want = {}


def add(G, t, i, m, via, k1, k2):
    if i in NONE:
        return
    lst = want.setdefault((G, t, i), [])
    if (hx(m["id"]), via) not in [(x[0], x[1]) for x in lst]:
        lst.append((hx(m["id"]), via, k1, k2))


for g, G in GAMES:
    for m in truth["worlds"][g]["mlvls"]:
        for a in m["areas"]:
            an = "area %d '%s'" % (a["index"], a["name"]) if a["name"] is not None \
                else "area %d" % a["index"]
            for l in a["layers"]:
                for t, i in l["dependencies"]:
                    add(G, t, i, m, "%s > layer %d '%s'" % (an, l["index"], l["name"]),
                        a["index"], l["index"])
            for t, i in a["area_dependencies"]:
                add(G, t, i, m, an + " > area", a["index"], 1 << 20)
            add(G, "MREA", a["mrea_id"], m, an, a["index"], -1)
            add(G, "STRG", a["name_strg"], m, an + " > name", a["index"], -1)

# a sample: every ANCS, the assets loaded in several places, and some of every type
picked, per_type = [], {}
for k, v in sorted(want.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
    G, t, i = k
    n = per_type.get((G, t), 0)
    if t == "ANCS" or len(v) > 2 or n < 3:
        per_type[(G, t)] = n + 1
        picked.append(k)
picked = picked[:90]
if len(picked) < 20:
    err("only %d assets to check who-references with" % len(picked))
multi = 0
for G, t, i in picked:
    rows = [r for r in query("who-references", t, hx(i)) if r["game"] == G]
    kinds = [r["src_type"] for r in rows]
    if kinds != sorted(kinds):
        err("who-references %s %s: the ANCS rows do not all come first: %r" % (t, hx(i), kinds))
    got = [(r["src_id"], r["via"]) for r in rows if r["src_type"] == "MLVL"]
    w = sorted(want[(G, t, i)], key=lambda x: (x[0], x[2], x[3]))
    if got != [(x[0], x[1]) for x in w]:
        err("who-references %s %s %s: MLVL rows %r, want %r" % (G, t, hx(i), got[:4],
                                                              [(x[0], x[1]) for x in w][:4]))
    multi += len(w) > 1
    for r in rows:
        if r["src_type"] == "MLVL":
            m = next(m for g, GG in GAMES if GG == G for m in truth["worlds"][g]["mlvls"]
                     if hx(m["id"]) == r["src_id"])
            if r["ancs_id"] or r["char_index"] or r["character"] or r["world"] != m["name"]:
                err("who-references %s %s: MLVL row %r" % (t, hx(i), r))
        elif r["src_type"] == "ANCS" and r["src_id"] != r["ancs_id"]:
            err("who-references %s %s: ANCS row with src_id %r" % (t, hx(i), r["src_id"]))
if not multi:
    err("no asset of the sample is loaded in two places")

# graph --who: an MLVL node per world, an edge per area and layer, labelled with the via
G, t, i = next(k for k in picked if k[1] == "ANCS" and len(want[k]) >= 1)
rc, dot, e = run("graph", "--who", t, hx(i))
if rc != 0:
    err("graph --who %s %s: exit %d %s" % (t, hx(i), rc, e))
for mid, via, _, _ in want[(G, t, i)]:
    if ('MLVL %s\\n%s' % (G, mid)) not in dot or ('[label="%s"]' % via.replace('"', '\\"')) not in dot:
        err("graph --who %s %s: no MLVL %s node or no edge %r" % (t, hx(i), mid, via))

# report: the page of each ANCS and asset that an area loads lists that area and layer
rc, out, e = run("report", "-o", os.path.join(T, "rep"))
if rc != 0:
    err("report: exit %d %s" % (rc, e.strip()[-300:]))
pages = 0
for G, t, i in picked:
    path = os.path.join(T, "rep", "ancs" if t == "ANCS" else "asset",
                        "%s_%s%08X.html" % (G, "" if t == "ANCS" else t + "_", i))
    if not os.path.exists(path):  # (an asset no ANCS refers to, or in no PAK, has none)
        continue
    page = html.unescape(open(path, encoding="utf-8").read())
    pages += 1
    for mid, via, k1, k2 in want[(G, t, i)]:
        if " > name" in via or t == "MREA" or t == "STRG":
            continue
        area = via.split("'")[1] if "'" in via else None
        if ("world/%s_%s.html#area-%d\">%s</a>" % (G, mid, k1, area)) not in page:
            err("report %s: 'Loaded in' lacks %s %r" % (os.path.basename(path), mid, via))
if pages < 5:
    err("report: only %d pages of loaded assets to check" % pages)

# ---- names for worlds and areas -----------------------------------------------------------
# how many areas (MREAs of either game) each name names: a name of several is exit 2
area_names = {}
for g, G in GAMES:
    for m in truth["worlds"][g]["mlvls"]:
        for a in m["areas"]:
            for n in {a["name"], a["internal_name"]} - {None}:
                area_names.setdefault(n.lower(), set()).add(hx(a["mrea_id"]))
ambiguous = 0
for g, G in GAMES:
    for m in truth["worlds"][g]["mlvls"][:4]:
        by_id = [(r["mlvl_id"], r["area_index"]) for r in query("areas", hx(m["id"]))]
        if m["dark_name"]:
            got = [(r["mlvl_id"], r["area_index"]) for r in query("areas", m["dark_name"].lower())]
            if got != by_id or not got:
                err("areas by dark name %r: %r, want %r" % (m["dark_name"], got, by_id))
        for a in m["areas"]:
            if len(area_names[a["name"].lower()]) > 1:
                ambiguous += 1
                for args in (("area-deps", a["name"].upper()), ("characters-in", a["name"]),
                             ("who-references", "MREA", a["name"].lower())):
                    rc, out, e = run("query", *args)
                    if rc != 2 or not all(x in e for x in area_names[a["name"].lower()]):
                        err("query %s (an area name of %s): exit %d %r" % (
                            " ".join(args), sorted(area_names[a["name"].lower()]), rc, e))
                if not a["internal_name"]:
                    continue
            key = (a["internal_name"] or a["name"]).upper()
            got = {r["mrea_id"] for r in query("area-deps", key)}
            if got != {hx(a["mrea_id"])}:
                err("area-deps %r: areas %r, want %s" % (key, got, hx(a["mrea_id"])))
            if len(area_names[a["name"].lower()]) > 1:
                continue
            got = [(r["layer_index"], r["ancs_id"]) for r in query("characters-in", a["name"].lower())]
            wc = [(str(l["index"]), hx(i)) for l in a["layers"] for t, i in l["dependencies"]
                  if t == "ANCS"] + [("-1", hx(i)) for t, i in a["area_dependencies"] if t == "ANCS"]
            if got != wc:
                err("characters-in %r: %r, want %r" % (a["name"].lower(), got, wc))
            rows = query("who-references", "MREA", a["name"].swapcase())
            if [(r["src_id"], r["via"]) for r in rows] != [
                    (hx(m["id"]), "area %d '%s'" % (a["index"], a["name"]))]:
                err("who-references MREA %r: %r" % (a["name"].swapcase(), rows))

if not ambiguous:
    err("no area name of the sample names two areas (the exit-2 case is not checked)")

# "End Cinema" is an MP1 world and one of its areas: WORLD and AREA tell them apart
ec = next(m for m in truth["worlds"]["mp1"]["mlvls"] if m["name"] == "End Cinema")
eca = next(a for a in ec["areas"] if a["name"] == "End Cinema")
if [r["area_index"] for r in query("areas", "end cinema")] != [str(a["index"]) for a in ec["areas"]]:
    err("areas 'end cinema': not the world's areas")
if {r["mrea_id"] for r in query("area-deps", "END CINEMA")} != {hx(eca["mrea_id"])}:
    err("area-deps 'END CINEMA': not the area")
loc = query("asset-locations", "MLVL", "End Cinema")
if not loc or any(r["asset_id"] != hx(ec["id"]) for r in loc):
    err("asset-locations MLVL 'End Cinema': %r" % loc[:2])
for args, what in ((("areas", "No Such World"), "a world (MLVL)"),
                   (("area-deps", "No Such Room"), "an area (MREA)"),
                   (("asset-locations", "TXTR", "End Cinema"), "an asset of type TXTR")):
    rc, out, e = run("query", *args)
    if rc != 2 or what not in e:
        err("query %s: exit %d %r, want 2 naming %s" % (" ".join(args), rc, e.strip(), what))

# release-diff-worlds A B WORLD: the rows of that world only, by its name
allr = query("release-diff-worlds", "A_MP1", "B_MP1", dbf=dbr)
worlds_changed = sorted({r["mlvl_id"] for r in allr})
if not worlds_changed:
    err("release-diff-worlds A_MP1 B_MP1: no rows")
for mid in worlds_changed[:2]:
    m = next(m for m in truth["worlds"]["mp1"]["mlvls"] if hx(m["id"]) == mid)
    got = query("release-diff-worlds", "A_MP1", "B_MP1", m["name"].upper(), dbf=dbr)
    if got != [r for r in allr if r["mlvl_id"] == mid]:
        err("release-diff-worlds A_MP1 B_MP1 %r: %d rows, want %d" % (
            m["name"].upper(), len(got), len([r for r in allr if r["mlvl_id"] == mid])))

# ---- a hand-built PAK: two worlds of one name, two areas of one name ----------------------
TX1, TX2, TX3, CM = 0x5E000001, 0x5E000002, 0x5E000003, 0x5E000004
W1, W2 = 0x5C000001, 0x5C000002
areas1 = [{"name_strg": 0x5B000011, "mrea": 0x5D000001, "area_id": 7, "attached": [1],
           "layers": [("Default", 1, [("TXTR", TX1), ("CMDL", CM)]), ("Ambush", 0, [("TXTR", TX1)])],
           "own": [("TXTR", TX3)]},
          {"name_strg": 0x5B000013, "mrea": 0x5D000003, "area_id": 8, "attached": [0],
           "layers": [("Default", 1, [("TXTR", TX1)])], "own": []},
          # an area whose name is a word of hex digits: typed, it reads as the ID 0x0000CAFE
          {"name_strg": 0x5B000014, "mrea": 0x5D000004, "area_id": 10, "attached": [],
           "layers": [("Default", 1, [("TXTR", TX2)])], "own": []}]
areas2 = [{"name_strg": 0x5B000012, "mrea": 0x5D000002, "area_id": 9, "attached": [],
           "layers": [("Default", 1, [("TXTR", TX1), ("TXTR", TX2)])], "own": []}]
filler = b"\x00\x01\x02\x03" * 8
entries = [(b"MLVL", W1, mlvl_v11(0x5B000001, areas1)), (b"MLVL", W2, mlvl_v11(0x5B000002, areas2)),
           (b"STRG", 0x5B000001, strg_v0(["Twin World"])), (b"STRG", 0x5B000002, strg_v0(["twin world"])),
           (b"STRG", 0x5B000011, strg_v0(["Twin Room"])), (b"STRG", 0x5B000012, strg_v0(["Twin Room"])),
           (b"STRG", 0x5B000013, strg_v0(["Solo Room"])), (b"STRG", 0x5B000014, strg_v0(["Cafe"]))]
entries += [(b"TXTR", x, filler) for x in (TX1, TX2, TX3)] + [(b"CMDL", CM, filler)]
entries += [(b"MREA", x, filler) for x in (0x5D000001, 0x5D000002, 0x5D000003, 0x5D000004)]
os.makedirs(os.path.join(T, "twin"), exist_ok=True)
with open(os.path.join(T, "twin", "Twin.pak"), "wb") as f:
    f.write(pak(entries))
tdb = os.path.join(T, "twin.db")
p = subprocess.run([bin_, "ingest", "--quiet", "--game", "MP1", "--db", tdb,
                    os.path.join(T, "twin")], capture_output=True, text=True)
if p.returncode != 0:
    err("ingest of the hand-built worlds: exit %d %s" % (p.returncode, p.stderr.strip()))
rows = query("who-references", "TXTR", hx(TX1), dbf=tdb)
got = [(r["src_type"], r["src_id"], r["via"], r["world"]) for r in rows]
w = [("MLVL", hx(W1), "area 0 'Twin Room' > layer 0 'Default'", "Twin World"),
     ("MLVL", hx(W1), "area 0 'Twin Room' > layer 1 'Ambush'", "Twin World"),
     ("MLVL", hx(W1), "area 1 'Solo Room' > layer 0 'Default'", "Twin World"),
     ("MLVL", hx(W2), "area 0 'Twin Room' > layer 0 'Default'", "twin world")]
if got != w:
    err("hand-built: who-references TXTR %s: %r, want %r" % (hx(TX1), got, w))
got = [(r["src_id"], r["via"]) for r in query("who-references", "TXTR", hx(TX3), dbf=tdb)]
if got != [(hx(W1), "area 0 'Twin Room' > area")]:
    err("hand-built: who-references of the area's own group: %r" % got)
if len(query("where-loaded", "TXTR", hx(TX1), dbf=tdb)) != 4:
    err("hand-built: where-loaded TXTR %s: not 4 rows" % hx(TX1))
for args, ids in ((("area-deps", "twin room"), ("5D000001", "5D000002")),
                  (("characters-in", "TWIN ROOM"), ("5D000001", "5D000002")),
                  (("areas", "Twin World"), ("5C000001", "5C000002")),
                  (("who-references", "MREA", "Twin Room"), ("5D000001", "5D000002"))):
    rc, out, e = run("query", *args, dbf=tdb)
    if rc != 2 or not all(x in e for x in ids) or out.strip():
        err("hand-built: query %s: exit %d, stderr %r, want 2 listing %r" % (
            " ".join(args), rc, e.strip(), ids))
got = [(r["layer_index"], r["type"], r["asset_id"]) for r in query("area-deps", "SOLO ROOM", dbf=tdb)]
if got != [("0", "TXTR", hx(TX1))]:
    err("hand-built: area-deps 'SOLO ROOM': %r" % got)
got = [r["name"] for r in query("areas", "0x5C000002", dbf=tdb)]
if got != ["Twin Room"]:
    err("hand-built: areas 0x5C000002: %r" % got)
# the area's own group is layer -1, typed as it is (not taken for an option)
got = [(r["layer_index"], r["type"], r["asset_id"]) for r in query("area-deps", "5D000001", "-1",
                                                                   dbf=tdb)]
if got != [("-1", "TXTR", hx(TX3))]:
    err("hand-built: area-deps 5D000001 -1: %r" % got)
# a name that reads as an ID: no rows, and stderr names the area it would be
rc, out, e = run("query", "area-deps", "Cafe", dbf=tdb)
if rc != 0 or len(out.strip().splitlines()) != 1 or "5D000004" not in e or "0000CAFE" not in e:
    err("hand-built: area-deps Cafe: exit %d, out %r, stderr %r" % (rc, out, e))
# GAME is MP1 or MP2
rc, out, e = run("query", "worlds", "MP3", dbf=tdb)
if rc != 2 or out.strip():
    err("hand-built: worlds MP3: exit %d, out %r" % (rc, out))
# graph --who names the asset asked about (a name map's name for the TXTR)
with open(os.path.join(T, "names.xml"), "w") as f:
    f.write("<AssetNameMap><AssetNameMap><Asset><Key>%s</Key><Value><Name>twin_texture</Name>"
            "<Directory>Worlds/twin/</Directory><Type>TXTR</Type></Value></Asset>"
            "</AssetNameMap></AssetNameMap>" % hx(TX1))
p = subprocess.run([bin_, "names", "import", "--db", tdb, os.path.join(T, "names.xml")],
                   capture_output=True, text=True)
if p.returncode != 0:
    err("hand-built: names import: exit %d %s" % (p.returncode, p.stderr.strip()))
rc, dot, e = run("graph", "--who", "TXTR", hx(TX1), dbf=tdb)
if 'TXTR MP1\\n%s\\ntwin_texture' % hx(TX1) not in dot:
    err("hand-built: graph --who TXTR %s: the asset's node has no name" % hx(TX1))
for x in ('MLVL MP1\\n5C000001\\nTwin World', 'MLVL MP1\\n5C000002\\ntwin world',
          "[label=\"area 0 'Twin Room' > layer 1 'Ambush'\"]"):
    if rc != 0 or x not in dot:
        err("hand-built: graph --who TXTR %s: no %r (exit %d)" % (hx(TX1), x, rc))

for e in errors:
    print("FAIL:", e)
print("e2e_world_refs: %s (%d assets)" % ("FAILED" if errors else "ok", len(picked)))
sys.exit(1 if errors else 0)
EOF
finish
