#!/usr/bin/env bash
# e2e_find.sh BINARY SHARED_DIR — `find` over hand-written name maps (no corpus needed): every
# row equals what python3 works out from the maps themselves (LIKE written out as a regular
# expression: ASCII letters in any case, * any run, ? one character, every other character
# literal, directory + name), for patterns with % _ \ * ? " and a line feed, with fewer than
# 3 characters between wildcards, in mixed case, non-ASCII, spanning directory and name, and
# with pieces found only in two different names of one asset; after a second map, after a
# re-import that drops and renames names (nothing stale), after a refused map. The count of
# assets per trigram (asset_name_trigram_docs) equals python's. A schema version 5 file
# (made with the sqlite3 shell: the name-search objects dropped) is refused by a reader with
# the command that upgrades it, upgraded by `names import`, and then has the objects of a new
# file and finds the names imported before.
set -u
. "$(dirname "$0")/lib.sh"
need_tools sqlite3 python3

python3 - "$BIN" "$T" <<'EOF' || fail=1
import json, os, re, shutil, subprocess, sys
from xml.sax.saxutils import escape

BIN, T = sys.argv[1:3]
errors = []


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True)


def write_map(path, entries):
    """entries: {id: (name, directory or None, type)}"""
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<AssetNameMap Game="MPRM" ArchiveVer="1" FileVer="0">', "    <AssetNameMap>"]
    for k, (name, d, t) in entries.items():
        enc = lambda s: escape(s).replace("\n", "&#10;")
        out.append("        <Asset>\n            <Key>%08X</Key>\n            <Value>" % k)
        out.append("                <Name>%s</Name>" % enc(name))
        if d is not None:
            out.append("                <Directory>%s</Directory>" % enc(d))
        out.append("                <Type>%s</Type>" % t)
        out.append("            </Value>\n        </Asset>")
    out += ["    </AssetNameMap>", "</AssetNameMap>", ""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))


def ascii_lower(s):
    return "".join(c.lower() if c.isascii() else c for c in s)


def matches(pattern, text):
    rx = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c)
                 for c in ascii_lower(pattern))
    return re.search(rx, ascii_lower(text), re.S) is not None


def expected(maps, pattern):
    """maps: {source: {id: (name, dir, type)}} -> find's rows (no PAK holds these IDs)"""
    rows = []
    ids = sorted({k for m in maps.values() for k in m})
    for k in ids:
        named = [(src, m[k]) for src, m in sorted(maps.items()) if k in m]
        if not any(matches(pattern, (d or "") + n) for _, (n, d, t) in named):
            continue
        n, d, t = named[0][1]  # the label: the first map by source
        rows.append({"game": None, "type": t, "asset_id": "%08X" % k, "name": n,
                     "directory": d, "paks": None})
    rows.sort(key=lambda r: (((r["directory"] or "") + r["name"]).encode(), r["asset_id"]))
    return rows


PATTERNS = [
    "samus", "SAMUS_f", "cooked/Samus_F", "Samus/Samus_F", "samus_ice", "fire*ice", "%",
    "100%", "%_D", "0%_d", "_", "under_", "r_s", "\\", "back\\s", "k\\sl", "*", "star*name",
    "r*n", "ar*na", "?", "what?now", "t?n", "hat?no", "ab", "a", "Ab", "aa", "aaa", "aaaa",
    "a*a*a*a*a", "crème", "CRÈME", "brûlée", "BRÛLÉE", "È_b", "straße", "STRASSE", "日本語",
    "本語の", "abc*def", "abc_left", "yyy", "door", "DOOR", "oor_1", "x%y_z\\w", "x%y",
    "y_z\\", "e1\nli", "line1\nline2", "", "nodir", "\"", "quote\"n", "s_f", "zzz",
    "filler_1*door", "Filler_?2_", "ller_", "e_0", "Misc/", "misc/100", "c/1", "yyy_def",
    "OnlyInB", "_Q?", "q%",
]


def check(db, maps, when, patterns=PATTERNS):
    for p in patterns:
        r = run("query", "--db", db, "--format", "json", "find", p)
        if r.returncode != 0:
            errors.append("%s: find %r: exit %d: %s" % (when, p, r.returncode,
                                                         r.stderr.decode(errors="replace")))
            continue
        got = json.loads(r.stdout.decode() or "[]")
        want = expected(maps, p)
        if got != want:
            errors.append("%s: find %r: %d rows, want %d; first difference: %s" % (
                when, p, len(got), len(want),
                next(((g, w) for g, w in zip(got + [None] * len(want), want + [None] * len(got))
                      if g != w), None)))
    # the count of assets per trigram, for trigrams of ASCII characters
    docs = {}
    for k in {k for m in maps.values() for k in m}:
        text = "\n".join((m[k][1] or "") + m[k][0] for src, m in sorted(maps.items()) if k in m)
        low = ascii_lower(text)
        for tri in {low[i:i + 3] for i in range(len(low) - 2)}:
            if tri.isascii() and "\n" not in tri:
                docs[tri] = docs.get(tri, 0) + 1
    r = run("sql", "--db", db, "--format", "json",
            "SELECT trigram, docs FROM asset_name_trigram_docs")
    got = {x["trigram"]: x["docs"] for x in json.loads(r.stdout.decode() or "[]")
           if x["trigram"].isascii() and "\n" not in x["trigram"]}
    if got != docs:
        errors.append("%s: asset_name_trigram_docs differs for %s" % (
            when, sorted(set(got.items()) ^ set(docs.items()))[:4]))


A = {
    0x00000001: ("Samus_Fire", "Characters/Samus/cooked/", "ANIM"),
    0x00000002: ("100%_Done", "Misc/", "STRG"),
    0x00000003: ("under_score", "Misc/", "STRG"),
    0x00000004: ("back\\slash", "Misc/", "STRG"),
    0x00000005: ("star*name", "Misc/", "STRG"),
    0x00000006: ("what?now", "Misc/", "STRG"),
    0x00000007: ("CRÈME_brûlée", "Food/", "TXTR"),
    0x00000008: ("crème_BRÛLÉE", "Food/", "TXTR"),
    0x00000009: ("Straße", "Food/", "TXTR"),
    0x0000000A: ("abc_left", "Split/", "PART"),
    0x0000000B: ('quote"name', "Misc/", "STRG"),
    0x0000000C: ("ab", "", "STRG"),
    0x0000000D: ("NoDir_Name", None, "STRG"),
    0x0000000E: ("日本語の名前", "Intl/", "STRG"),
    0x0000000F: ("aaaa", "Rep/", "STRG"),
    0x00000010: ("aaa", "Rep/", "STRG"),
    0x00000011: ("x%y_z\\w", "Misc/", "STRG"),
    0x00000012: ("line1\nline2", "Misc/", "STRG"),
    0x00000013: ("Q", "Misc/", "STRG"),
    0x9ABCDEF0: ("High_ID_Door", "Doors/", "CMDL"),
}
for i in range(300):
    A[0x00100000 + i] = ("Filler_%d_%s" % (i, "door" if i % 7 == 0 else "wall"),
                         "Uncategorized/Filler%d/" % (i % 3), "TXTR")
B = {
    0x0000000A: ("yyy_def", "Other/", "PART"),
    0x00000001: ("Samus_Ice", "Characters/Samus/", "ANIM"),
    0x00000064: ("OnlyInB_door", "B/", "CMDL"),
}
db = os.path.join(T, "n.db")
write_map(os.path.join(T, "names_a.xml"), A)
write_map(os.path.join(T, "names_b.xml"), B)
r = run("names", "import", "--db", db, os.path.join(T, "names_a.xml"))
if r.returncode:
    print("FAIL: import names_a.xml:", r.stderr.decode())
    sys.exit(1)
maps = {"names_a.xml": dict(A)}
check(db, maps, "map A")

run("names", "import", "--db", db, os.path.join(T, "names_b.xml"))
maps["names_b.xml"] = dict(B)
check(db, maps, "maps A and B")

# names_a.xml again without Samus_Fire and the crèmes, a filler renamed, one name added
A2 = dict(A)
del A2[0x00000001], A2[0x00000007], A2[0x00000008]
A2[0x00100007] = ("Renamed_gate", "Uncategorized/Filler1/", "TXTR")
A2[0x00000200] = ("Fresh_door", "New/", "TXTR")
write_map(os.path.join(T, "names_a.xml"), A2)
r = run("names", "import", "--db", db, os.path.join(T, "names_a.xml"))
if r.returncode:
    errors.append("re-import of names_a.xml: exit %d" % r.returncode)
maps["names_a.xml"] = dict(A2)
check(db, maps, "names_a.xml re-imported", PATTERNS + ["samus_fire", "Renamed", "Filler_7_"])

# a map that is not well-formed, under the same name: refused, the database unchanged
os.makedirs(os.path.join(T, "cut"))
with open(os.path.join(T, "names_a.xml"), "rb") as f:
    data = f.read()
with open(os.path.join(T, "cut", "names_a.xml"), "wb") as f:
    f.write(data[:len(data) // 2])
dump = lambda f: subprocess.run(["sqlite3", f, ".dump"], capture_output=True).stdout
before = dump(db)
r = run("names", "import", "--db", db, os.path.join(T, "cut", "names_a.xml"))
if r.returncode != 1:
    errors.append("truncated map: exit %d, want 1" % r.returncode)
# every row of the file as it was (names, the trigram index, its counts), so every find
# answers as checked just above
if dump(db) != before:
    errors.append("after a refused map: the database changed")

# ---- a version-5 file: the name-search objects (version 6) and the worlds' (version 7,
# db/schema/60_worlds.sql) dropped by the sqlite3 shell ---------------------------------
v5 = os.path.join(T, "v5.db")
shutil.copy(db, v5)
for s in ("-wal", "-shm"):
    if os.path.exists(db + s):
        shutil.copy(db + s, v5 + s)
WORLDS_V7 = ("DROP VIEW mlvl_latest; DROP VIEW v_strings; DROP VIEW v_area_attached; "
             "DROP VIEW v_area_deps; DROP VIEW v_area_layers; DROP VIEW v_areas; "
             "DROP VIEW v_worlds; DROP VIEW areas; DROP VIEW worlds; DROP VIEW strg_names; "
             "DROP TABLE strings; DROP TABLE strg; DROP TABLE area_modules; "
             "DROP TABLE area_dock_links; DROP TABLE area_attached; DROP TABLE area_deps; "
             "DROP TABLE area_layers; DROP TABLE mlvl_areas; DROP TABLE mlvl_audio_groups; "
             "DROP TABLE mlvl_memory_relays; DROP TABLE mlvl_worlds; DROP TABLE mlvl_ref_labels;")
subprocess.run(["sqlite3", v5, WORLDS_V7 + "DROP TABLE asset_name_trigrams; DROP TABLE "
                "asset_name_trigram_docs; DROP INDEX asset_names_pak; PRAGMA user_version = 5;"],
               check=True)
r = run("query", "--db", v5, "find", "samus")
msg = r.stderr.decode()
if r.returncode != 3 or "schema version 5" not in msg or "names import" not in msg:
    errors.append("reading a version-5 file: exit %d, %r" % (r.returncode, msg))
write_map(os.path.join(T, "names_c.xml"), {0x00000300: ("Upgrade_door", "C/", "TXTR")})
r = run("names", "import", "--db", v5, os.path.join(T, "names_c.xml"))
if r.returncode:
    errors.append("names import into a version-5 file: exit %d: %s" % (r.returncode,
                                                                      r.stderr.decode()))
maps["names_c.xml"] = {0x00000300: ("Upgrade_door", "C/", "TXTR")}
ver = subprocess.run(["sqlite3", v5, "PRAGMA user_version"], capture_output=True, text=True)
if ver.stdout.strip() != "7":
    errors.append("after the upgrade: user_version %r, want 7" % ver.stdout.strip())
check(v5, maps, "upgraded from version 5")
fresh = os.path.join(T, "fresh.db")
run("names", "import", "--db", fresh, os.path.join(T, "names_c.xml"))
schema = lambda f: subprocess.run(
    ["sqlite3", f, "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"],
    capture_output=True, text=True).stdout
if schema(v5) != schema(fresh):
    errors.append("the upgraded file's objects differ from a new file's")

for e in errors[:30]:
    print("FAIL:", e)
print("e2e_find: %s (%d patterns)" % ("FAILED" if errors else "ok", len(PATTERNS)))
sys.exit(1 if errors else 0)
EOF
finish
