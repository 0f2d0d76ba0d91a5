#!/usr/bin/env bash
# e2e_world_dump.sh BINARY SHARED_DIR — `ancsdb ancs dump` of every MLVL and STRG of the sample
# corpus (FILE.pak:ID, as resources.tsv lists them), text and --json: the JSON's worlds, areas,
# layers, dependencies, attached areas, modules and strings equal truth.json (compared by
# python3); a raw MLVL/STRG file (bytes cut out of a PAK by python3) is told by its magic; a
# hand-built bad STRG is exit 1 naming the byte offset.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus
need_tools python3
python3 - "$BIN" "$CORPUS" "$T" <<'PY'
import concurrent.futures, csv, json, os, struct, subprocess, sys

bin_, corpus, tmp = sys.argv[1:4]
truth = json.load(open(os.path.join(corpus, "truth.json")))
errors = []

def eq(what, want, got):
    if want != got:
        errors.append("%s: want %r got %r" % (what, want, got))

cache = {}

def dump(target, json_=True):
    if json_ and target in cache:
        p = cache[target]
        if p.returncode != 0:
            errors.append("%s: exit %d %s" % (target, p.returncode, p.stderr[:200]))
            return None
        return json.loads(p.stdout.decode("utf-8"))
    args = [bin_, "ancs", "dump"] + (["--json"] if json_ else []) + [target]
    p = subprocess.run(args, capture_output=True)
    if p.returncode != 0:
        errors.append("%s: exit %d %s" % (target, p.returncode, p.stderr[:200]))
        return None
    return json.loads(p.stdout.decode("utf-8")) if json_ else p.stdout.decode("utf-8")

def hexid(i):
    return "%08X" % i

def pair(d):
    return [d["type"], int(d["id"], 16)]

# every JSON dump, two at a time
# (every MLVL copy; each STRG once: world_corpus compares every copy already)
rows, seen = [], set()
for r in csv.DictReader(open(os.path.join(corpus, "resources.tsv")), delimiter="\t"):
    if r["type"] == "MLVL" or (r["type"] == "STRG" and (r["game"], r["id"]) not in seen):
        seen.add((r["game"], r["id"]))
        rows.append(r)
targets = ["%s:%08X" % (os.path.join(corpus, r["game"], r["pak"]), int(r["id"])) for r in rows]
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    for t, p in zip(targets, pool.map(lambda t: subprocess.run([bin_, "ancs", "dump", "--json", t],
                                                               capture_output=True), targets)):
        cache[t] = p

counts = {"MLVL": 0, "STRG": 0}
for game in ("mp1", "mp2"):
    w = truth["worlds"][game]
    strgs = {s["id"]: s for s in w["strings"]}
    mlvls = {m["id"]: m for m in w["mlvls"]}
    for r in rows:
        if r["game"] != game:
            continue
        rid = int(r["id"])
        target = "%s:%s" % (os.path.join(corpus, game, r["pak"]), hexid(rid))
        d = dump(target)
        if d is None:
            continue
        tag = "%s %s %s" % (game, r["type"], hexid(rid))
        eq(tag + " type", r["type"], d["type"])
        eq(tag + " warnings", [], d["warnings"])
        eq(tag + " game", game.upper(), d["game"])
        counts[r["type"]] += 1
        if r["type"] == "STRG":
            t = strgs[rid]
            eq(tag + " version", t["version"], d["version"])
            eq(tag + " language order", t["language_order"], [l["language"] for l in d["languages"]])
            for l in d["languages"]:
                eq(tag + " " + l["language"], t["languages"][l["language"]], l["strings"])
            names = None if d["names"] is None else {n["name"]: n["string_index"] for n in d["names"]}
            eq(tag + " names", t["names"], names)
            continue
        t = mlvls[rid]
        for k in ("world_name_strg", "savw_id", "mapw_id", "default_skybox_id"):
            eq(tag + " " + k, t[k], int(d[k], 16))
        eq(tag + " version", t["version"], d["version"])
        if game == "mp2":
            eq(tag + " dark", t["dark_world_name_strg"], int(d["dark_world_name_strg"], 16))
            eq(tag + " temple key", t["temple_key_world_index"], d["temple_key_world_index"])
        else:
            eq(tag + " relays", t["memory_relays"], d["memory_relays"])
            eq(tag + " audio groups", t["audio_groups"],
               [[g["group_id"], int(g["agsc_id"], 16)] for g in d["audio_groups"]])
        eq(tag + " areas", len(t["areas"]), len(d["areas"]))
        for ta, da in zip(t["areas"], d["areas"]):
            at = "%s area %d" % (tag, ta["index"])
            eq(at + " mrea", ta["mrea_id"], int(da["mrea_id"], 16))
            eq(at + " area_id", ta["area_id"], int(da["area_id"], 16))
            eq(at + " name strg", ta["name_strg"], int(da["name_strg"], 16))
            eq(at + " internal name", ta["internal_name"], da["internal_name"])
            eq(at + " attached", ta["attached_areas"], da["attached_areas"])
            eq(at + " transform", ta["transform"], da["transform"])
            eq(at + " bbox", ta["bounding_box"], da["bounding_box"])
            eq(at + " docks", ta["docks"],
               [{"connecting_docks": [[c["area_index"], c["dock_index"]] for c in k["connecting_docks"]],
                 "coordinates": k["coordinates"]} for k in da["docks"]])
            eq(at + " own group", ta["area_dependencies"], [pair(x) for x in da["area_dependencies"]])
            eq(at + " layers", len(ta["layers"]), len(da["layers"]))
            for tl, dl in zip(ta["layers"], da["layers"]):
                lt = "%s layer %d" % (at, tl["index"])
                eq(lt + " name", tl["name"], dl["name"])
                eq(lt + " active", tl["active"], dl["active"])
                eq(lt + " deps", tl["dependencies"], [pair(x) for x in dl["dependencies"]])
                if game == "mp2":
                    eq(lt + " modules", tl["modules"], dl["modules"])
            # the area's name: string 0 of its STRG in ENGL
            eq(at + " name", ta["name"], strgs[ta["name_strg"]]["languages"]["ENGL"][0])

eq("MLVLs dumped", sum(1 for g in ("mp1", "mp2") for m in truth["worlds"][g]["mlvls"] for _ in m["paks"]),
   counts["MLVL"])
eq("STRGs dumped", len(truth["worlds"]["mp1"]["strings"]) + len(truth["worlds"]["mp2"]["strings"]),
   counts["STRG"])

# the tree form of one of each
for r in csv.DictReader(open(os.path.join(corpus, "resources.tsv")), delimiter="\t"):
    if r["game"] == "mp1" and r["type"] in ("MLVL", "STRG") and r["compressed"] == "0":
        text = dump("%s:%s" % (os.path.join(corpus, "mp1", r["pak"]), hexid(int(r["id"]))), False)
        if text is not None and 'type: "%s"' % r["type"] not in text:
            errors.append("tree of %s %s lacks its type line" % (r["type"], r["id"]))
        # the same bytes as a raw file: told by the magic
        with open(os.path.join(corpus, "mp1", r["pak"]), "rb") as f:
            f.seek(int(r["offset"]))
            raw = f.read(int(r["decompressed_size"]))
        path = os.path.join(tmp, "raw_%s.bin" % r["id"])
        open(path, "wb").write(raw)
        d = dump(path)
        if d is not None:
            eq("raw %s type" % r["id"], r["type"], d["type"])
            eq("raw %s asset_id" % r["id"], None, d["asset_id"])

# a hand-built STRG whose only string has no terminator: exit 1, the offset named
bad = struct.pack(">IIII", 0x87654321, 0, 1, 1) + b"ENGL" + struct.pack(">I", 0)
bad += struct.pack(">I", 8) + struct.pack(">I", 4) + "Hi".encode("utf-16-be")
path = os.path.join(tmp, "bad.strg")
open(path, "wb").write(bad)
p = subprocess.run([bin_, "ancs", "dump", "--json", path], capture_output=True, text=True)
eq("bad STRG exit", 1, p.returncode)
if "@0x20" not in p.stderr:  # the string starts at 24 + 4 + 4 = 0x20
    errors.append("bad STRG: stderr does not name 0x20: %r" % p.stderr)
# an MLVL of another version is refused clearly
badm = struct.pack(">II", 0xDEAFBABE, 0x19) + b"\0" * 64
path = os.path.join(tmp, "mp3.mlvl")
open(path, "wb").write(badm)
p = subprocess.run([bin_, "ancs", "dump", path], capture_output=True, text=True)
eq("MP3 MLVL exit", 1, p.returncode)
if "@0x4" not in p.stderr or "0x19" not in p.stderr:
    errors.append("MP3 MLVL: stderr %r" % p.stderr)

for e in errors[:40]:
    print("FAIL:", e)
if errors:
    print("%d failures" % len(errors))
    sys.exit(1)
print("ok: %d MLVL and %d STRG dumps match truth.json" % (counts["MLVL"], counts["STRG"]))
PY
[ $? -eq 0 ] || fail=1
finish
