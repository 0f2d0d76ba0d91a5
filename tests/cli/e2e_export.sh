#!/usr/bin/env bash
# e2e_export.sh BINARY SHARED_DIR — `ancsdb export` of every ANCS and EVNT of the sample
# corpus: round-trips through `python3 -m json.tool`, the same bytes twice, and values equal to
# truth.json (characters, their IDs, lists and effects, animation names, resource pairs, event
# nodes); `export character` equals the set's element; `ancs dump` decodes an EVNT from a PAK
# and from a raw file as truth.json says.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus
DB=$T/c.db
"$BIN" ingest --quiet --db "$DB" "$CORPUS/mp1" "$CORPUS/mp2" 2>"$T/ingest.err" || {
    echo "FAIL: ingest: $(tail -3 "$T/ingest.err")"
    exit 1
}
expect_rc() { # expect_rc WANT DESCRIPTION CMD...
    local want=$1 what=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL: $what: exit $rc, expected $want ($(head -2 "$T/err"))"
        fail=1
    fi
}
expect_rc 0 "export --help" "$BIN" export --help
expect_rc 2 "export without arguments" "$BIN" export --db "$DB"
expect_rc 2 "export of an unknown kind" "$BIN" export --db "$DB" model 0x1
expect_rc 2 "export with a bad ID" "$BIN" export --db "$DB" ancs zz
expect_rc 2 "export ancs with a character index" "$BIN" export --db "$DB" ancs 0x1 0
expect_rc 1 "export of an ANCS not in the database" "$BIN" export --db "$DB" ancs 0x12345678
expect_rc 3 "export without a database" "$BIN" export --db "$T/none.db" ancs 0x12345678

python3 - "$BIN" "$DB" "$CORPUS" "$T" <<'EOF' || fail=1
import json, os, subprocess, sys

bin_, db, corpus, tmp = sys.argv[1:5]
truth = json.load(open(os.path.join(corpus, "truth.json")))
errors = []
NONE = (0, 0xFFFFFFFF)


def hx(v):
    return None if v is None else "%08X" % v


def export(*args):
    p = subprocess.run([bin_, "export", "--db", db, *args], capture_output=True)
    if p.returncode != 0:
        errors.append("export %s: exit %d %s" % (" ".join(args), p.returncode, p.stderr[:200]))
        return None
    global tooled
    if tooled < 8:
        # the same bytes twice (stable order), and a round trip through json.tool
        tooled += 1
        again = subprocess.run([bin_, "export", "--db", db, *args], capture_output=True).stdout
        if again != p.stdout:
            errors.append("export %s: two runs differ" % " ".join(args))
        q = subprocess.run([sys.executable, "-m", "json.tool"], input=p.stdout,
                           capture_output=True)
        if q.returncode != 0:
            errors.append("export %s: json.tool rejects it: %s" % (" ".join(args), q.stderr[:200]))
            return None
    try:
        return json.loads(p.stdout)
    except ValueError as e:
        errors.append("export %s: not JSON: %s" % (" ".join(args), e))
        return None


tooled = 0


def eq(what, want, got):
    if want != got:
        errors.append("%s: expected %r, got %r" % (what, want, got))


LISTS = [("generic_particles", "PART"), ("swoosh_particles", "SWHC"),
         ("third_list", "third_list"), ("electric_particles", "ELSC"),
         ("spawn_particles", "SPSC")]

docs = 0
for gkey, game in (("mp1", "MP1"), ("mp2", "MP2")):
    for a in truth["games"][gkey]["ancs"]:
        aid = hx(a["id"])
        doc = export("--game", game, "ancs", aid)
        if doc is None:
            continue
        docs += 1
        w = "%s ANCS %s" % (game, aid)
        eq(w + " head", ("ANCS", game, aid), (doc["type"], doc["game"], doc["asset_id"]))
        chars = a["content"]["character_set"]["characters"]
        eq(w + " characters", len(chars), len(doc["characters"]))
        for i, (c, d) in enumerate(zip(chars, doc["characters"])):
            cw = "%s char %d" % (w, i)
            eq(cw + " index", i, d["char_index"])
            eq(cw + " id/version/name", (c["id"], c["version"], c["name"]),
               (d["char_id"], d["version"], d["name"]))
            eq(cw + " model/skin/skeleton", (hx(c["model_id"]), hx(c["skin_id"]), hx(c["skeleton_id"])),
               (d["model_id"], d["skin_id"], d["skeleton_id"]))
            eq(cw + " animation names", [(n["animation_id"], n["name"]) for n in c["animation_names"]],
               [(n["anim_id"], n["name"]) for n in d["animation_names"]])
            eq(cw + " id map (null below version 5)", c.get("animation_id_map"), d["animation_id_map"])
            prd = c["particle_resource_data"]
            for key, lst in LISTS:
                want = [hx(v) for v in prd.get(key) or []]
                got = [r["particle_id"] for r in d["particle_refs"]
                       if r["source"] == "particles" and r["list"] == lst]
                eq(cw + " " + lst, want, got)
            want = [[(x["name"], x["particle"]["type"], hx(x["particle"]["id"]))
                     for x in ef["components"]] for ef in c.get("effect_array") or []]
            got = [[(x["name"], x["particle_type"], x["particle_id"]) for x in ef["components"]]
                   for ef in d["effects"]]
            eq(cw + " effects", want, got)
            eq(cw + " PAS states", len(c["pas_database"]["anim_states"]), len(d["pas_states"]))
        aset = a["content"]["animation_set"]
        eq(w + " animations", [x["name"] for x in aset["animations"]],
           [x["name"] for x in doc["animation_set"]["animations"]])
        for k, x in enumerate(doc["animation_set"]["animations"]):
            if not isinstance(x["meta"], dict) or "type" not in x["meta"]:
                errors.append("%s animation %d: meta is not a tree object" % (w, k))
        eq(w + " transitions", len(aset["transitions"]), len(doc["animation_set"]["transitions"]))
        if aset.get("animation_resources") is not None:
            eq(w + " resource pairs",
               [(hx(p["anim_id"]), hx(p["event_id"])) for p in aset["animation_resources"]],
               [(p["anim_asset_id"], p["evnt_asset_id"]) for p in doc["animation_set"]["animation_resources"]])
        if aset.get("event_sets") is not None:
            eq(w + " event sets", len(aset["event_sets"]), len(doc["animation_set"]["event_sets"]))
            for k, (es, ds) in enumerate(zip(aset["event_sets"], doc["animation_set"]["event_sets"])):
                want = sorted(n["base"]["name"] for kind in ("bool_poi_nodes", "int32_poi_nodes",
                                                             "particle_poi_nodes", "sound_poi_nodes")
                              for n in es.get(kind) or [])
                eq("%s event set %d names" % (w, k), want, sorted(n["name"] for n in ds["events"]))
        # one character alone equals its element of the set
        last = len(chars) - 1
        one = export("--game", game, "character", aid, str(last))
        if one is not None:
            eq(w + " character head", ("character", game, aid), (one["type"], one["game"], one["ancs_id"]))
            for k in ("type", "game", "ancs_id", "ancs_id_name"):
                one.pop(k, None)
            eq(w + " character %d alone" % last, doc["characters"][last], one)

for e in truth["games"]["mp1"]["evnt"]:
    eid = hx(e["id"])
    doc = export("--game", "MP1", "evnt", eid)
    if doc is None:
        continue
    docs += 1
    w = "EVNT " + eid
    c = e["content"]
    eq(w + " version", c["version"], doc["evnt"]["version"])
    for tkey, kind in (("bool_poi_nodes", "bool"), ("int32_poi_nodes", "int32"),
                       ("particle_poi_nodes", "particle"), ("sound_poi_nodes", "sound")):
        want = [n["base"]["name"] for n in c.get(tkey) or []]
        eq("%s %s names" % (w, kind), want, [n["name"] for n in doc["events"][kind]])
        want = [n["base"]["character_index"] for n in c.get(tkey) or []]
        eq("%s %s char_index" % (w, kind), want, [n["char_index"] for n in doc["events"][kind]])
    eq(w + " particles", [(n["particle"]["type"], hx(n["particle"]["id"])) for n in c["particle_poi_nodes"]],
       [(n["particle_type"], n["particle_id"]) for n in doc["events"]["particle"]])
    eq(w + " sounds", [n["sound_id"] for n in c.get("sound_poi_nodes") or []],
       [n["sound_id"] for n in doc["events"]["sound"]])
    if "particle_id" in (doc["events"]["int32"] or [{}])[0]:
        errors.append(w + ": int32 node carries particle_id")

# ancs dump decodes an EVNT: from a PAK entry and from a raw file
dumped = 0
for e in truth["games"]["mp1"]["evnt"][:6]:
    ent = e["entries"][0]
    pak = os.path.join(corpus, "mp1", ent["pak"])
    p = subprocess.run([bin_, "ancs", "dump", "--json", "%s:%08X" % (pak, e["id"])], capture_output=True, text=True)
    if p.returncode != 0:
        errors.append("ancs dump EVNT %08X: exit %d %s" % (e["id"], p.returncode, p.stderr[:200]))
        continue
    d = json.loads(p.stdout)
    eq("dump EVNT %08X type" % e["id"], "EVNT", d.get("type"))
    for tkey, key in (("int32_poi_nodes", "int32_nodes"), ("particle_poi_nodes", "particle_nodes")):
        eq("dump EVNT %08X %s" % (e["id"], key), [n["base"]["name"] for n in e["content"][tkey]],
           [n["name"] for n in d["events"][key]])
    out = os.path.join(tmp, "x%d" % dumped)
    subprocess.run([bin_, "pak", "extract", "--type", "EVNT", "--id", "%08X" % e["id"], "-o", out, pak],
                   capture_output=True)
    raw = os.path.join(out, "%08X.evnt" % e["id"])
    p = subprocess.run([bin_, "ancs", "dump", "--json", raw], capture_output=True, text=True)
    if p.returncode != 0 or json.loads(p.stdout).get("type") != "EVNT":
        errors.append("ancs dump of raw %s: exit %d %s" % (raw, p.returncode, p.stderr[:200]))
    dumped += 1

for e in errors[:40]:
    print("FAIL:", e)
if errors:
    print("%d failures" % len(errors))
    sys.exit(1)
print("ok: %d exports match truth.json, %d EVNT dumps" % (docs, dumped))
EOF
finish
