#!/usr/bin/env bash
# e2e_worlds.sh BINARY SHARED_DIR — worlds (MLVL) and string tables (STRG) against truth.json
# `worlds` of the sample corpus: the tables worlds, areas, area_layers, area_deps,
# area_attached and strings, the named queries worlds, areas, where-loaded, area-deps,
# characters-in and release-diff-worlds (expected rows computed here by python from
# truth.json worlds.*, release_b.worlds and release_diff.*.world_edits), dangling-refs of
# MLVL dependencies, the MLVLs' asset_refs rows (as the PAKs' transactions write them and as
# the final pass makes them), `--release` names, a malformed MLVL in a hand-built PAK (a
# load_errors row, the rest loads), the upgrade of a version-6 database, and what an empty
# area-deps with a LAYER says on stderr.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus
need_tools sqlite3
DB=$T/c.db
"$BIN" ingest --quiet --db "$DB" "$CORPUS/mp1" "$CORPUS/mp2" 2>"$T/ingest.err" || {
    echo "FAIL: ingest: $(tail -3 "$T/ingest.err")"
    exit 1
}
# both releases of each game, labelled (A_MP1 = mp1, B_MP1 = relb/mp1, ...), for
# release-diff-worlds and --release
DBR=$T/r.db
for rel in A_MP1:mp1 A_MP2:mp2 B_MP1:relb/mp1 B_MP2:relb/mp2; do
    "$BIN" ingest --quiet --db "$DBR" --release "${rel%%:*}" "$CORPUS/${rel#*:}" \
        2>"$T/ingest_r.err" || {
        echo "FAIL: ingest of $rel: $(tail -3 "$T/ingest_r.err")"
        exit 1
    }
done

# The MLVLs' asset_refs rows as the PAKs' transactions leave them (the run killed where its
# final pass would start), and as the final pass makes them for a database an earlier ancsdb
# wrote without them (simulated with the sqlite3 shell on a copy): both must be those of
# truth.json below.
DBK=$T/killed.db
ANCSDB_TEST_KILL_AFTER=final:1 "$BIN" ingest --quiet --db "$DBK" "$CORPUS/mp1" "$CORPUS/mp2" \
    2>"$T/ingest_k.err"
check "ingest killed at the final pass: its exit status (SIGKILL)" 137 $?
DBE=$T/earlier.db
cp "$DB" "$DBE"
sqlite3 "$DBE" "DELETE FROM asset_refs WHERE src_type = 'MLVL'; DELETE FROM mlvl_ref_labels;
    UPDATE ingest_state SET value = 1 WHERE key = 'final_pass_pending'" &&
    "$BIN" ingest --quiet --db "$DBE" "$CORPUS/mp1" "$CORPUS/mp2" 2>"$T/ingest_e.err" ||
    bad "ingest of the earlier database: $(tail -3 "$T/ingest_e.err")"

python3 - "$BIN" "$DB" "$DBR" "$CORPUS/truth.json" "$T" "$ROOT/tests/cli" "$DBK" "$DBE" \
    <<'EOF' || fail=1
import csv, io, json, os, sqlite3, struct, subprocess, sys

bin_, db, dbr, truth_path, T, here, dbk, dbe = sys.argv[1:9]
sys.path.insert(0, here)
from worldbytes import pak, strg_v0  # noqa: E402  (hand-built PAK and STRG bytes)
truth = json.load(open(truth_path))
NONE = (0, 0xFFFFFFFF)
errors = []
GAMES = (("mp1", "MP1"), ("mp2", "MP2"))


def err(msg):
    if len(errors) < 60:
        errors.append(msg)


CACHE = {}


def query(dbf, *args, release=None):
    key = (dbf, args, release)
    if key not in CACHE:
        CACHE[key] = run_query(dbf, *args, release=release)
    return CACHE[key]


def run_query(dbf, *args, release=None):
    cmd = [bin_, "query", "--db", dbf, "--format", "csv"]
    if release:
        cmd += ["--release", release]
    p = subprocess.run(cmd + list(args), capture_output=True, text=True)
    if p.returncode != 0:
        err("query %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
        return []
    return list(csv.DictReader(io.StringIO(p.stdout)))


def hx(v):
    return "%08X" % v


con = sqlite3.connect(db)
con.row_factory = sqlite3.Row


def rows(sql, *a):
    return con.execute(sql, a).fetchall()


# ---- tables against truth ---------------------------------------------------------------
for g, G in GAMES:
    W = truth["worlds"][g]
    got = {r["mlvl_id"]: r for r in rows("SELECT * FROM worlds WHERE game = ?", G)}
    want = {m["id"]: m for m in W["mlvls"]}
    if set(got) != set(want):
        err("%s worlds: ids %s, want %s" % (G, sorted(got), sorted(want)))
    for mid, m in want.items():
        r = got.get(mid)
        if not r:
            continue
        for col, key in (("version", "version"), ("name", "name"), ("dark_name", "dark_name"),
                         ("world_name_strg", "world_name_strg"), ("savw_id", "savw_id"),
                         ("mapw_id", "mapw_id"), ("default_skybox_id", "default_skybox_id")):
            if r[col] != m[key]:
                err("%s world %s %s: %r, want %r" % (G, hx(mid), col, r[col], m[key]))
        if r["area_count"] != len(m["areas"]):
            err("%s world %s area_count %r" % (G, hx(mid), r["area_count"]))
        if G == "MP2" and r["dark_world_name_strg"] != m["dark_world_name_strg"]:
            err("%s world %s dark_world_name_strg" % (G, hx(mid)))
        for a in m["areas"]:
            ar = rows("SELECT * FROM areas WHERE game = ? AND mlvl_id = ? AND area_index = ?",
                      G, mid, a["index"])
            if len(ar) != 1:
                err("%s world %s area %d: %d rows" % (G, hx(mid), a["index"], len(ar)))
                continue
            ar = ar[0]
            for col, key in (("mrea_id", "mrea_id"), ("area_id", "area_id"),
                             ("name_strg", "name_strg"), ("name", "name"),
                             ("internal_name", "internal_name")):
                if ar[col] != a[key]:
                    err("%s %s area %d %s: %r, want %r" % (G, hx(mid), a["index"], col,
                                                           ar[col], a[key]))
            if ar["layer_count"] != len(a["layers"]):
                err("%s %s area %d layer_count" % (G, hx(mid), a["index"]))
            att = [r[0] for r in con.execute(
                "SELECT other_area_index FROM area_attached WHERE game = ? AND mlvl_id = ? AND "
                "area_index = ? ORDER BY attached_index", (G, mid, a["index"]))]
            if att != a["attached_areas"]:
                err("%s %s area %d attached %r, want %r" % (G, hx(mid), a["index"], att,
                                                           a["attached_areas"]))
            lay = [(r[0], r[1], r[2]) for r in con.execute(
                "SELECT layer_index, name, active FROM area_layers WHERE game = ? AND mlvl_id = ? "
                "AND area_index = ? ORDER BY layer_index", (G, mid, a["index"]))]
            wl = [(l["index"], l["name"], 1 if l["active"] else 0) for l in a["layers"]]
            if lay != wl:
                err("%s %s area %d layers %r, want %r" % (G, hx(mid), a["index"], lay, wl))
            deps = [(r[0], r[1], r[2], r[3]) for r in con.execute(
                "SELECT layer_index, dep_index, type, asset_id FROM area_deps WHERE game = ? AND "
                "mlvl_id = ? AND area_index = ? ORDER BY seq", (G, mid, a["index"]))]
            wd = []
            for l in a["layers"]:
                wd += [(l["index"], k, t, i) for k, (t, i) in enumerate(l["dependencies"])]
            wd += [(-1, k, t, i) for k, (t, i) in enumerate(a["area_dependencies"])]
            if deps != wd:
                err("%s %s area %d: %d deps, want %d (first difference %r)" % (
                    G, hx(mid), a["index"], len(deps), len(wd),
                    next(((x, y) for x, y in zip(deps, wd) if x != y), None)))
    # strings: every language, every string, MP2 names
    for s in W["strings"]:
        for lang, texts in s["languages"].items():
            got_t = [r[0] for r in con.execute(
                "SELECT text FROM strings WHERE game = ? AND strg_id = ? AND language = ? "
                "ORDER BY string_index", (G, s["id"], lang))]
            if got_t != texts:
                err("%s STRG %s %s: %r, want %r" % (G, hx(s["id"]), lang, got_t[:3], texts[:3]))
        if s["names"]:
            got_n = {r[1]: r[0] for r in con.execute(
                "SELECT string_index, name FROM strings WHERE game = ? AND strg_id = ? AND "
                "language = ? AND name IS NOT NULL", (G, s["id"], s["language_order"][0]))}
            want_n = s["names"]
            for name, idx in want_n.items():
                if got_n.get(name) != idx:
                    err("%s STRG %s name %r: index %r, want %r" % (G, hx(s["id"]), name,
                                                                 got_n.get(name), idx))
    nstr = rows("SELECT count(DISTINCT strg_id) AS n FROM strings WHERE game = ?", G)[0]["n"]
    if nstr != len(W["strings"]):
        err("%s: %d STRGs with strings, want %d" % (G, nstr, len(W["strings"])))

# ---- named queries ----------------------------------------------------------------------
wq = query(db, "worlds")
want_w = {}
for g, G in GAMES:
    for m in truth["worlds"][g]["mlvls"]:
        want_w[(G, hx(m["id"]))] = (m["name"], m["dark_name"] or "", len(m["areas"]),
                                    sum(len(a["layers"]) for a in m["areas"]),
                                    sum(sum(len(l["dependencies"]) for l in a["layers"])
                                        + len(a["area_dependencies"]) for a in m["areas"]))
got_w = {(r["game"], r["mlvl_id"]): (r["name"], r["dark_name"], int(r["areas"]),
                                     int(r["layers"]), int(r["dependencies"])) for r in wq}
if got_w != want_w:
    err("query worlds: %r" % sorted(set(got_w.items()) ^ set(want_w.items()))[:4])
if len(query(db, "worlds", "MP2")) != len(truth["worlds"]["mp2"]["mlvls"]):
    err("query worlds MP2: wrong row count")

# (each query is a process: a sample of the worlds and areas for the slower checks; the
# tables above are compared whole)
for g, G in GAMES:
    for wi, m in enumerate(truth["worlds"][g]["mlvls"]):
        by_name = query(db, "areas", m["name"].upper())
        by_id = query(db, "areas", "0x" + hx(m["id"]).lower()) if wi < 2 else by_name
        by_dec = query(db, "areas", str(m["id"])) if m["id"] >= 100000000 and wi < 1 else by_id
        want_a = [(hx(a["mrea_id"]), a["name"], a["internal_name"] or "", len(a["layers"]),
                   sum(1 for l in a["layers"] if l["active"]),
                   sum(len(l["dependencies"]) for l in a["layers"]) + len(a["area_dependencies"]),
                   ", ".join(str(x) for x in a["attached_areas"])) for a in m["areas"]]
        for how, got in (("name", by_name), ("id", by_id), ("decimal", by_dec)):
            got = [r for r in got if r["mlvl_id"] == hx(m["id"])]
            ga = [(r["mrea_id"], r["name"], r["internal_name"], int(r["layers"]),
                   int(r["active_layers"]), int(r["dependencies"]), r["attached"]) for r in got]
            if ga != want_a:
                err("areas %s by %s: %r, want %r" % (m["name"], how, ga[:2], want_a[:2]))
        for a in m["areas"] if wi < 3 else []:
            # area-deps by MREA ID, every layer and by one layer
            wd = []
            for l in a["layers"]:
                wd += [(str(l["index"]), str(k), t, hx(i), "1" if l["active"] else "0")
                       for k, (t, i) in enumerate(l["dependencies"])]
            wd += [("-1", str(k), t, hx(i), "1") for k, (t, i) in enumerate(a["area_dependencies"])]
            got = query(db, "area-deps", hx(a["mrea_id"]))
            gd = [(r["layer_index"], r["dep_index"], r["type"], r["asset_id"], r["active"])
                  for r in got if r["mlvl_id"] == hx(m["id"])]
            if gd != wd:
                err("area-deps %s: %d rows, want %d" % (hx(a["mrea_id"]), len(gd), len(wd)))
            if wi >= 2:
                continue
            key = a["internal_name"] or a["name"]
            got = query(db, "area-deps", key, "1")
            gd = [(r["layer_index"], r["dep_index"], r["type"], r["asset_id"], r["active"])
                  for r in got if r["mlvl_id"] == hx(m["id"]) and r["area_index"] == str(a["index"])]
            w1 = [x for x in wd if x[0] == "1"]
            if gd != w1:
                err("area-deps %r 1: %d rows, want %d" % (key, len(gd), len(w1)))
            if a["layers"]:
                got = query(db, "area-deps", hx(a["mrea_id"]), a["layers"][0]["name"])
                if [r["layer_index"] for r in got if r["mlvl_id"] == hx(m["id"])] != \
                        [x[0] for x in wd if x[0] == "0"]:
                    err("area-deps %s by layer name" % hx(a["mrea_id"]))
            # characters-in: the ANCS of each layer, in order
            got = query(db, "characters-in", hx(a["mrea_id"]))
            gc = [(r["layer_index"], r["ancs_id"]) for r in got if r["mlvl_id"] == hx(m["id"])]
            wc = [(x[0], x[3]) for x in wd if x[2] == "ANCS"]
            if gc != wc:
                err("characters-in %s: %r, want %r" % (hx(a["mrea_id"]), gc, wc))

# where-loaded ANCS: ancs_areas / ancs_in_no_area
names = {}
seen_g = set()
for g, G in GAMES:
    for anc in truth["games"][g]["ancs"]:
        names[(G, anc["id"])] = [c["name"] for c in anc["content"]["character_set"]["characters"]]
    W = truth["worlds"][g]
    for x in W["ancs_areas"][:12]:
        got = query(db, "where-loaded", "ANCS", hx(x["ancs_id"]))
        gw = sorted((int(r["mlvl_id"], 16), int(r["area_index"]), int(r["layer_index"]))
                    for r in got if r["game"] == G)
        ww = sorted(tuple(w) for w in x["where"])
        if gw != ww:
            err("where-loaded ANCS %s: %r, want %r" % (hx(x["ancs_id"]), gw, ww))
        if any(r["through"] for r in got):
            err("where-loaded ANCS %s: through set" % hx(x["ancs_id"]))
    for aid in W["ancs_in_no_area"][:2]:
        if [r for r in query(db, "where-loaded", "ANCS", hx(aid)) if r["game"] == G]:
            err("where-loaded ANCS %s: rows for an ANCS in no area" % hx(aid))
    # active flags and names of where-loaded rows against the layers
    layer = {}
    for m in W["mlvls"]:
        for a in m["areas"]:
            for l in a["layers"]:
                layer[(m["id"], a["index"], l["index"])] = (m["name"], a["name"], l["name"],
                                                          "1" if l["active"] else "0")
    # dependencies of the layers (a sample): where-loaded finds their layer (PART etc. too)
    seen = set()
    for m in W["mlvls"]:
        for a in m["areas"]:
            for l in a["layers"]:
                for t, i in l["dependencies"]:
                    if (t, i) in seen or t not in ("PART", "EVNT", "ANIM", "CMDL") or len(seen) >= 12:
                        continue
                    seen.add((t, i))
                    seen_g.add((G, t, i))
                    got = query(db, "where-loaded", t, hx(i))
                    locs = {(int(r["mlvl_id"], 16), int(r["area_index"]), int(r["layer_index"])):
                            r for r in got if r["game"] == G}
                    k = (m["id"], a["index"], l["index"])
                    if k not in locs:
                        err("where-loaded %s %s: no row for %r" % (t, hx(i), k))
                        continue
                    r = locs[k]
                    if (r["world"], r["area"], r["layer"], r["active"]) != layer[k]:
                        err("where-loaded %s %s: %r, want %r" % (
                            t, hx(i), (r["world"], r["area"], r["layer"], r["active"]), layer[k]))
    # dangling dependencies: dangling-refs lists them from the MLVL
    dr = query(db, "dangling-refs")
    have = {(r["game"], r["src_type"], r["src_id"], r["dst_type"], r["dst_id"]) for r in dr}
    for x in W["dangling"]:
        k = (G, "MLVL", hx(x["mlvl_id"]), x["type"], hx(x["id"]))
        if k not in have:
            err("dangling-refs: no %r" % (k,))

# the census of the constant fields (docs/formats.md §11.1 item 10, §11.2 item 7)
cen = {(r["game"], r["field"], r["value"]): int(r["count"])
       for r in query(db, "unknown-census", "*") if r["release"] == "(all)"}
for g, G in GAMES:
    ms = truth["worlds"][g]["mlvls"]
    if cen.get((G, "area.unknown", "0")) != sum(len(m["areas"]) for m in ms):
        err("census %s area.unknown: %r" % (G, cen.get((G, "area.unknown", "0"))))
    if G == "MP1" and cen.get((G, "mlvl.unknown_after_area_count", "1")) != len(ms):
        err("census MP1 mlvl.unknown_after_area_count: %r"
            % cen.get((G, "mlvl.unknown_after_area_count", "1")))

# via of the MLVL asset_refs
m = truth["worlds"]["mp1"]["mlvls"][0]
a = m["areas"][0]
l = a["layers"][-1]
t, i = l["dependencies"][0]
via = "area %d '%s' > layer %d '%s'" % (a["index"], a["name"], l["index"], l["name"])
if not rows("SELECT 1 FROM asset_refs WHERE game = 'MP1' AND src_type = 'MLVL' AND src_id = ? "
            "AND dst_type = ? AND dst_id = ? AND via = ?", m["id"], t, i, via):
    err("asset_refs: no MLVL row with via %r" % via)

# every MLVL asset_refs row (CONTRACT.md "Worlds"), on the database of a whole ingest, of one
# killed before its final pass, and of the earlier one whose rows the final pass made
def lab(head, name):
    return head if name is None else "%s '%s'" % (head, name)


want_refs = set()
for g, G in GAMES:
    for m in truth["worlds"][g]["mlvls"]:
        def ref(t, i, via):
            if i is not None and i not in NONE:
                want_refs.add((G, m["id"], t, i, via))
        for a in m["areas"]:
            al = lab("area %d" % a["index"], a["name"])
            for l in a["layers"]:
                for t, i in l["dependencies"]:
                    ref(t, i, al + " > " + lab("layer %d" % l["index"], l["name"]))
            for t, i in a["area_dependencies"]:
                ref(t, i, al + " > area")
            ref("MREA", a["mrea_id"], al)
            ref("STRG", a["name_strg"], al + " > name")
        ref("STRG", m["world_name_strg"], "world name")
        if G == "MP2":
            ref("STRG", m["dark_world_name_strg"], "dark world name")
        ref("SAVW", m["savw_id"], "save info")
        ref("MAPW", m["mapw_id"], "world map")
        ref("CMDL", m["default_skybox_id"], "default skybox")
        for gid, agsc in m["audio_groups"] or []:
            ref("AGSC", agsc, "audio group %d" % gid)
for what, f in (("ingest", db), ("ingest killed before its final pass", dbk),
                ("final pass of an earlier database", dbe)):
    c = sqlite3.connect(f)
    got = c.execute("SELECT game, src_id, dst_type, dst_id, via FROM asset_refs "
                    "WHERE src_type = 'MLVL'").fetchall()
    c.close()
    if len(got) != len(set(got)) or set(got) != want_refs:
        err("MLVL asset_refs (%s): %d rows, %d missing (%r), %d not in truth (%r)"
            % (what, len(got), len(want_refs - set(got)), sorted(want_refs - set(got))[:2],
               len(set(got) - want_refs), sorted(set(got) - want_refs)[:2]))

# `through`: a particle of a layer's ANCS found by the reach rules (character_reach)
checked = 0
for g, G in GAMES:
    reach = {}
    for anc in truth["games"][g]["ancs"]:
        s = set()
        for c in anc["derived"]["character_reach"]:
            for key in ("anim_ids", "evnt_ids", "event_particles"):
                for v in c.get(key) or []:
                    s.add(v["id"] if isinstance(v, dict) else v)
        for ch in anc["content"]["character_set"]["characters"]:
            prd = ch["particle_resource_data"]
            for key in ("generic_particles", "swoosh_particles", "electric_particles",
                        "spawn_particles"):
                s.update(prd.get(key) or [])
            for ef in ch.get("effect_array") or []:
                for comp in ef["components"]:
                    s.add(comp["particle"]["id"])
        reach[anc["id"]] = s
    for m in truth["worlds"][g]["mlvls"]:
        for a in m["areas"]:
            for l in a["layers"]:
                ancs = [i for t, i in l["dependencies"] if t == "ANCS"]
                for t, i in l["dependencies"]:
                    if t != "PART" or (G, t, i) not in seen_g:
                        continue
                    want = {hx(x) for x in ancs if i in reach.get(x, ())}
                    got = {r["through"] for r in query(db, "where-loaded", t, hx(i))
                           if r["game"] == G and int(r["mlvl_id"], 16) == m["id"]
                           and r["area_index"] == str(a["index"])
                           and r["layer_index"] == str(l["index"])}
                    if want and not want <= got:
                        err("where-loaded %s %s through %r, want %r" % (t, hx(i), got, want))
                    checked += 1
if checked == 0:
    err("no PART in any layer to check `through` with")

# ---- release B: release-diff-worlds, --release names ------------------------------------
def deps_of(worlds):
    out = {}
    for m in worlds["mlvls"]:
        for a in m["areas"]:
            for l in a["layers"]:
                for t, i in l["dependencies"]:
                    out.setdefault((m["id"], a["index"], l["index"]), set()).add((t, i))
            for t, i in a["area_dependencies"]:
                out.setdefault((m["id"], a["index"], -1), set()).add((t, i))
    return out


for g, G in GAMES:
    A = truth["worlds"][g]
    B = truth["release_b"]["worlds"][g]
    da, db_ = deps_of(A), deps_of(B)
    want = set()
    for k in set(da) | set(db_):
        for t, i in da.get(k, set()) - db_.get(k, set()):
            want.add((hx(k[0]), str(k[1]), str(k[2]), "removed", t, hx(i)))
        for t, i in db_.get(k, set()) - da.get(k, set()):
            want.add((hx(k[0]), str(k[1]), str(k[2]), "added", t, hx(i)))
    an = lambda W: {(m["id"], a["index"]): a["name"] for m in W["mlvls"] for a in m["areas"]}
    na, nb = an(A), an(B)
    for k in na:
        if k in nb and na[k] != nb[k]:
            want.add((hx(k[0]), str(k[1]), "", "area renamed", na[k], nb[k]))
    got = set()
    for r in query(dbr, "release-diff-worlds", "A_" + G, "B_" + G):
        if r["game"] != G:
            continue
        if r["change"] in ("added", "removed"):
            got.add((r["mlvl_id"], r["area_index"], r["layer_index"], r["change"], r["type"],
                     r["asset_id"]))
        else:
            got.add((r["mlvl_id"], r["area_index"], r["layer_index"], r["change"], r["name_a"],
                     r["name_b"]))
    if got != want:
        err("release-diff-worlds %s: extra %r, missing %r" % (G, sorted(got - want)[:3],
                                                             sorted(want - got)[:3]))
    for e in truth["release_diff"][g]["world_edits"]:
        if e["kind"] == "area_renamed":
            k = (hx(e["mlvl_id"]), str(e["area_index"]), "", "area renamed", e["a"], e["b"])
            for rel, name in (("A_" + G, e["a"]), ("B_" + G, e["b"])):
                got_n = [r["name"] for r in query(dbr, "areas", hx(e["mlvl_id"]), release=rel)
                         if r["area_index"] == str(e["area_index"])]
                if got_n != [name]:
                    err("--release %s areas: %r, want %r" % (rel, got_n, name))
        else:
            ch = "removed" if e["kind"] == "layer_loses_ancs" else "added"
            k = (hx(e["mlvl_id"]), str(e["area_index"]), str(e["layer_index"]), ch, "ANCS",
                 hx(e["ancs_id"]))
        if k not in got:
            err("release-diff-worlds %s: no row for the edit %r" % (G, e))

# ---- a malformed MLVL in a hand-built PAK (docs/formats.md §2): a load_errors row --------
mlvl = open(os.path.join(os.path.dirname(truth_path), "mp1", "Metroid1.pak"), "rb").read()
bad_mlvl = struct.pack(">IIIII", 0xDEAFBABE, 0x11, 0x11223344, 0x55667788, 0x01020304) + \
    struct.pack(">I", 5)  # five memory relays announced, none there
os.makedirs(os.path.join(T, "bad"), exist_ok=True)
with open(os.path.join(T, "bad", "Bad.pak"), "wb") as f:
    f.write(pak([(b"MLVL", 0x0BAD0001, bad_mlvl), (b"STRG", 0x0BAD0002, strg_v0(["Héllo wörld", "Zwei"]))]))
bdb = os.path.join(T, "bad.db")
p = subprocess.run([bin_, "ingest", "--quiet", "--game", "MP1", "--db", bdb,
                    os.path.join(T, "bad")], capture_output=True, text=True)
if p.returncode != 1:
    err("ingest of a malformed MLVL: exit %d, want 1 (%s)" % (p.returncode, p.stderr.strip()))
b = sqlite3.connect(bdb)
le = b.execute("SELECT stage, byte_offset, type, asset_id FROM load_errors").fetchall()
if len(le) != 1 or le[0][0] != "decode" or le[0][1] is None or le[0][2:] != ("MLVL", 0x0BAD0001):
    err("malformed MLVL: load_errors %r" % le)
st = [r[0] for r in b.execute("SELECT text FROM strings WHERE strg_id = ? ORDER BY string_index",
                              (0x0BAD0002,))]
if st != ["Héllo wörld", "Zwei"]:
    err("the STRG beside a malformed MLVL: %r" % st)
b.close()

# ---- a version-6 database: refused by a reader, upgraded by the next ingest --------------
v6 = os.path.join(T, "v6.db")
subprocess.run(["cp", db, v6], check=True)
for s in ("-wal", "-shm"):
    if os.path.exists(db + s):
        subprocess.run(["cp", db + s, v6 + s], check=True)
drop = [r[0] for r in con.execute(
    "SELECT CASE type WHEN 'view' THEN 'DROP VIEW ' ELSE 'DROP TABLE ' END || name || ';' "
    "FROM sqlite_master WHERE type IN ('view', 'table') AND name IN ('mlvl_latest', "
    "'v_strings', 'v_area_attached', 'v_area_deps', 'v_area_layers', 'v_areas', 'v_worlds', "
    "'areas', 'worlds', 'strg_names', 'strings', 'strg', 'area_modules', 'area_dock_links', "
    "'area_attached', 'area_deps', 'area_layers', 'mlvl_areas', 'mlvl_audio_groups', "
    "'mlvl_memory_relays', 'mlvl_worlds', 'mlvl_ref_labels') ORDER BY type = 'table', rowid DESC")]
subprocess.run(["sqlite3", v6, "".join(drop) + "DELETE FROM contents WHERE type IN ('MLVL', "
                "'STRG'); UPDATE pak_entries SET content_id = NULL WHERE type IN ('MLVL', "
                "'STRG'); PRAGMA user_version = 6;"], check=True)
p = subprocess.run([bin_, "query", "--db", v6, "worlds"], capture_output=True, text=True)
if p.returncode != 3 or "schema version 6" not in p.stderr:
    err("reading a version-6 file: exit %d %r" % (p.returncode, p.stderr))
p = subprocess.run([bin_, "ingest", "--quiet", "--db", v6, os.path.join(os.path.dirname(truth_path), "mp1"),
                    os.path.join(os.path.dirname(truth_path), "mp2")], capture_output=True, text=True)
if p.returncode != 0:
    err("ingest into a version-6 file: exit %d %s" % (p.returncode, p.stderr))
if len(query(v6, "worlds")) != len(want_w):
    err("after the upgrade from version 6: worlds not all there")
ver = subprocess.run(["sqlite3", v6, "PRAGMA user_version"], capture_output=True, text=True)
if ver.stdout.strip() != "7":
    err("after the upgrade: user_version %r" % ver.stdout.strip())

# an empty `area-deps AREA LAYER` says why: a layer that lists nothing, or no such layer (with
# the area's layers), from truth.json's areas of release A
def stderr_of(*args):
    return subprocess.run([bin_, "query", "--db", db] + list(args), capture_output=True,
                          text=True).stderr.strip()


empty = [(a, l) for g, _ in GAMES for m in truth["worlds"][g]["mlvls"] for a in m["areas"]
         for l in a["layers"] if not l["dependencies"] and a["name"]]
if not empty:
    err("truth.json: no layer without dependencies to ask area-deps about")
else:
    a, l = empty[0]
    mrea = hx(a["mrea_id"])
    want = "ancsdb: query area-deps: layer %d '%s' of %s lists no dependency" % (
        l["index"], l["name"], a["name"])
    for arg in (str(l["index"]), l["name"].upper()):
        got = stderr_of("area-deps", mrea, arg)
        if got != want:
            err("area-deps %s %r: %r, want %r" % (mrea, arg, got, want))
    own = [x for g, _ in GAMES for m in truth["worlds"][g]["mlvls"] for x in m["areas"]
           if not x["area_dependencies"] and x["name"]]
    if own:
        want = "ancsdb: query area-deps: layer -1 (the area's own group) of %s lists no " \
               "dependency" % own[0]["name"]
        got = stderr_of("area-deps", hx(own[0]["mrea_id"]), "-1")
        if got != want:
            err("area-deps %s -1: %r, want %r" % (hx(own[0]["mrea_id"]), got, want))
    listed = ", ".join("%d '%s'" % (x["index"], x["name"]) for x in a["layers"])
    for arg in ("No Such Layer", str(len(a["layers"]))):
        want = "ancsdb: query area-deps: '%s' is no layer of %s (its layers: %s)" % (
            arg, a["name"], listed)
        got = stderr_of("area-deps", mrea, arg)
        if got != want:
            err("area-deps %s %r: %r, want %r" % (mrea, arg, got, want))

for e in errors:
    print("FAIL:", e)
print("e2e_worlds: %s" % ("FAILED" if errors else "ok"))
sys.exit(1 if errors else 0)
EOF
finish
