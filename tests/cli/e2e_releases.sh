#!/usr/bin/env bash
# e2e_releases.sh BINARY SHARED_DIR — releases and disc images end to end: the four sample
# ISOs (and the extracted disc) in, releases rows, release-diff and release-diff-fields
# against truth.json; the same image under another name adds nothing; a refused container;
# a deleted PAK disappears; a re-ingest after changes equals a clean ingest; --release
# restricts the named queries to one release. Expected values come from truth.json (read
# with python3) and the sqlite3 shell, never from ancsdb itself.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus iso
need_tools python3 sqlite3
q() { sqlite3 -batch -noheader -separator ' ' "$@"; }
TRUTH=$CORPUS/truth.json

# ---- the four ISOs -----------------------------------------------------------------------
DB=$T/iso.db
"$BIN" ingest --db "$DB" --quiet "$CORPUS/iso" 2>"$T/err"
check "ingest of the four images: exit status" 0 $?
want=$(python3 - "$TRUTH" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
for r in sorted(t["releases"], key=lambda r: r["label"]):
    print(r["label"], "MP1" if r["game"] == "mp1" else "MP2", r["game_code"], r["maker"],
          r["disc"], r["revision"], r["region"], r["title"].replace(" ", "_"), r["pak_count"])
EOF
)
got=$(q "$DB" "SELECT label, game, game_code, maker, disc, revision, region, replace(title, ' ', \
'_'), (SELECT count(*) FROM paks p WHERE p.release_id = r.release_id) FROM releases r ORDER BY label")
check "releases rows (label, game, header fields, PAK count) as truth.json" "$want" "$got"
check "every PAK of an image is read in place: path IMAGE:DISC_PATH" 0 \
    "$(q "$DB" "SELECT count(*) FROM paks WHERE path NOT LIKE '%.iso:%' OR source_offset IS NULL")"
check "SamusGun.pak.bak is not a PAK" 0 \
    "$(q "$DB" "SELECT count(*) FROM paks WHERE release_path LIKE '%.bak'")"
check "no load errors" 0 "$(q "$DB" "SELECT count(*) FROM load_errors")"

# release-diff against truth: "type id change" lines per game
for pair in "mp1 GM8E01_00 GM8E01_02" "mp2 G2ME01_00 G2MP01_00"; do
    set -- $pair
    want=$(python3 - "$TRUTH" "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))["release_diff"][sys.argv[2]]
rows = [(t, i, c) for c in ("added", "removed", "changed") for t, i in d[c]]
for t, i, c in sorted(rows):
    print(t, i, c)
EOF
)
    got=$("$BIN" query --db "$DB" --format csv release-diff "$2" "$3" | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
for r in sorted((r["type"], int(r["asset_id"], 16), r["change"]) for r in rows):
    print(*r)')
    check "release-diff $2 $3 equals truth release_diff.$1" "$want" "$got"
    # every field edit of truth is a row of release-diff-fields, and every changed ANCS/EVNT
    # has at least one row
    "$BIN" query --db "$DB" --format csv release-diff-fields "$2" "$3" >"$T/fields.csv"
    check "release-diff-fields $2 $3: exit status" 0 $?
    missing=$(python3 - "$TRUTH" "$1" "$T/fields.csv" <<'EOF'
import csv, json, sys
d = json.load(open(sys.argv[1]))["release_diff"][sys.argv[2]]
rows = list(csv.DictReader(open(sys.argv[3])))
def num(v):
    if v and v.startswith("0x") and len(v) == 10:  # a sound ID
        return int(v, 16)
    return int(v, 16) if v and all(c in "0123456789ABCDEF" for c in v) and len(v) == 8 else v
have = set()
for r in rows:
    ci = None if r["char_index"] in ("", "NULL") else int(r["char_index"])
    have.add((r["type"], int(r["asset_id"], 16), ci, r["field"], r["value_a"], r["value_b"]))
fields = {"name": ["characters.name"], "model_id": ["characters.model_id"],
          "particle": ["particle_refs.particle_id", "events.particle_id"],
          "sound_id": ["events.sound_id"]}
out = []
for e in d["field_edits"]:
    ok = False
    for f in fields[e["field"]]:
        for r in have:
            if r[0] == e["type"] and r[1] == e["asset_id"] and r[3] == f:
                a, b = r[4], r[5]
                if isinstance(e["a"], int):
                    a, b = num(a), num(b)
                    if isinstance(a, str) and a.isdigit(): a = int(a)
                    if isinstance(b, str) and b.isdigit(): b = int(b)
                if a == e["a"] and b == e["b"] and (f.startswith("events.") or r[2] == e["char_index"]):
                    ok = True
    if not ok:
        out.append("edit %s" % e)
changed = {(t, i) for t, i in d["changed"] if t in ("ANCS", "EVNT")}
for t, i in sorted(changed - {(r[0], r[1]) for r in have}):
    out.append("no field rows for %s %08X" % (t, i))
for r in have:
    if (r[0], r[1]) not in changed:
        out.append("rows for an asset that did not change: %s %08X" % (r[0], r[1]))
print("\n".join(out))
EOF
)
    check "release-diff-fields $2 $3 holds every field edit of truth" "" "$missing"
    # sound IDs print as 0x + 8 upper-case hex digits, as everywhere
    bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $h["field"] == "events.sound_id" { n++
            for (k = 0; k < 2; k++) { v = $h[k ? "value_b" : "value_a"]
                if (v != "" && v !~ /^0x[0-9A-F]{8}$/) b++ } }
        END { print (n ? "" : "none ") (b + 0) }' "$T/fields.csv")
    case $bad in none*) ;; *) check "release-diff-fields $2 $3: sound IDs as 0x + 8 hex digits" 0 "$bad" ;; esac
done
check "release-diff of a release with itself is empty" 1 \
    "$("$BIN" query --db "$DB" --format csv release-diff GM8E01_00 GM8E01_00 | wc -l)"
"$BIN" query --db "$DB" release-diff GM8E01_00 NOPE >/dev/null 2>&1
check "release-diff with an unknown label: a usage error (exit 2), not an empty answer" 2 $?

# contents: identical content in two releases is decoded and stored once
want=$(python3 - "$TRUTH" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
n = 0
for g in ("mp1", "mp2"):
    ch = [x for x in t["release_diff"][g]["changed"] if x[0] in ("ANCS", "EVNT")]
    ad = [x for x in t["release_diff"][g]["added"] if x[0] in ("ANCS", "EVNT")]
    n += len(t["games"][g]["ancs"]) + len(t["games"][g].get("evnt", [])) + len(ch) + len(ad)
print(n)
EOF
)
check "ANCS/EVNT contents: one per distinct content of the four releases" "$want" \
    "$(q "$DB" "SELECT count(*) FROM contents WHERE type IN ('ANCS', 'EVNT')")"
# the same for the worlds (MLVL) and string tables (STRG)
want=$(python3 - "$TRUTH" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
n = 0
for g in ("mp1", "mp2"):
    d = t["release_diff"][g]
    n += len(t["worlds"][g]["mlvls"]) + len(t["worlds"][g]["strings"])
    n += sum(1 for x in d["changed"] + d["added"] if x[0] in ("MLVL", "STRG"))
print(n)
EOF
)
check "MLVL/STRG contents: one per distinct content of the four releases" "$want" \
    "$(q "$DB" "SELECT count(*) FROM contents WHERE type IN ('MLVL', 'STRG')")"
want=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))["release_diff"]
print(sum(1 for g in d.values() for t, i in g["changed"] if t == "ANCS"))' "$TRUTH")
check "two ancs rows only for the ANCS that changed" "$want" \
    "$(q "$DB" "SELECT count(*) FROM (SELECT 1 FROM ancs GROUP BY game, asset_id HAVING count(*) > 1)")"

# ---- the same image again, under another name and as an extracted disc --------------------
counts() { q "$1" "SELECT (SELECT count(*) FROM releases), (SELECT count(*) FROM paks), \
(SELECT count(*) FROM pak_entries), (SELECT count(*) FROM contents), (SELECT count(*) FROM \
characters), (SELECT count(*) FROM events), (SELECT count(*) FROM asset_refs)"; }
before=$(counts "$DB")
cp "$CORPUS/iso/GM8E01_00.iso" "$T/renamed copy.gcm"
"$BIN" ingest --db "$DB" --quiet "$T/renamed copy.gcm" 2>/dev/null
check "a copy of an image under another name: exit status" 0 $?
check "a copy of an image under another name adds nothing" "$before" "$(counts "$DB")"
check "its release is now read from the copy" "$T/renamed copy.gcm" \
    "$(q "$DB" "SELECT source FROM releases WHERE label = 'GM8E01_00'")"
mkdir "$T/hidden"
cp "$CORPUS/iso/G2MP01_00.iso" "$T/hidden/disc.bin"
"$BIN" ingest --db "$DB" --quiet "$T/hidden/disc.bin" 2>/dev/null
check "an image named disc.bin is known by its magic and adds nothing" "$before" "$(counts "$DB")"
if [ -d "$CORPUS/extracted/GM8E01_02" ]; then
    "$BIN" ingest --db "$DB" --quiet "$CORPUS/extracted/GM8E01_02" 2>/dev/null
    check "the extracted disc is release GM8E01_02 and adds nothing" "$before" "$(counts "$DB")"
    check "its PAKs are read from files/" 17 \
        "$(q "$DB" "SELECT count(*) FROM paks p JOIN releases r USING (release_id) WHERE \
r.label = 'GM8E01_02' AND p.path LIKE '%/extracted/GM8E01_02/files/%'")"
fi

# ---- a refused container, and a broken one --------------------------------------------------
printf 'WBFS' >"$T/game.wbfs"
head -c 2000 /dev/zero >>"$T/game.wbfs"
"$BIN" ingest --db "$T/wbfs.db" --quiet "$T/game.wbfs" 2>"$T/wbfs.err"
check "a WBFS file: exit 1" 1 $?
check "a WBFS file: one load_errors row saying what it is and that GameCube discs are read" 1 \
    "$(q "$T/wbfs.db" "SELECT count(*) FROM load_errors WHERE message LIKE '%WBFS%' AND message \
LIKE '%ancsdb reads GameCube discs%'")"
printf 'RVZ\001' >"$T/game.rvz"
head -c 2000 /dev/zero >>"$T/game.rvz"
"$BIN" ingest --db "$T/rvz.db" --quiet "$T/game.rvz" 2>"$T/rvz.err"
check "an RVZ file with a broken header: exit 1" 1 $?
check "an RVZ file with a broken header: one load_errors row for it" 1 \
    "$(q "$T/rvz.db" "SELECT count(*) FROM load_errors WHERE pak_path LIKE '%game.rvz'")"

# ---- damaged images: a clear load_errors row, and every intact PAK still loads ------------
size=$(stat -c %s "$CORPUS/iso/GM8E01_00.iso")
head -c $((size * 6 / 10)) "$CORPUS/iso/GM8E01_00.iso" >"$T/truncated.iso"
"$BIN" ingest --db "$T/trunc.db" --quiet "$T/truncated.iso" 2>/dev/null
check "an image truncated in the middle: exit 1" 1 $?
want=$(python3 - "$T/truncated.iso" "$size" <<'EOF2'
import struct, sys
data = open(sys.argv[1], "rb").read()
cut, full = len(data), int(sys.argv[2])
fst_off, fst_len = struct.unpack(">II", data[0x424:0x42C])
fst = data[fst_off:fst_off + fst_len]
n = struct.unpack(">I", fst[8:12])[0]
names = fst[n * 12:]
ok = bad = 0
for i in range(1, n):
    flags_name, off, ln = struct.unpack(">III", fst[i * 12:i * 12 + 12])
    if flags_name >> 24:
        continue
    no = flags_name & 0xFFFFFF
    name = names[no:names.index(b"\0", no)].decode()
    if not name.lower().endswith(".pak"):
        continue
    if off + ln <= cut:
        ok += 1
    else:
        bad += 1
print(ok, bad)
EOF2
)
check "truncated image: intact PAKs loaded, one disc row per PAK cut off (from its FST)" "$want" \
    "$(q "$T/trunc.db" "SELECT (SELECT count(*) FROM paks WHERE status = 'ok'), (SELECT count(*) \
FROM load_errors WHERE stage = 'pak' AND pak_path LIKE '%truncated.iso:%' AND message LIKE \
'%past the end%' AND byte_offset IS NOT NULL)")"
cp "$CORPUS/iso/GM8E01_00.iso" "$T/badfst.iso"
chmod u+w "$T/badfst.iso"
printf '\177\377\377\000' | dd of="$T/badfst.iso" bs=1 seek=$((0x424)) conv=notrunc 2>/dev/null
"$BIN" ingest --db "$T/badfst.db" --quiet "$T/badfst.iso" 2>/dev/null
check "an FST past the end of the image: exit 1, one load_errors row for the image, no PAK" \
    "1 1 0" "$? $(q "$T/badfst.db" "SELECT count(*) FROM load_errors WHERE pak_path LIKE \
'%badfst.iso' AND stage = 'pak'") $(q "$T/badfst.db" "SELECT count(*) FROM paks")"

# ---- --release restricts the named queries ---------------------------------------------------
# Blogg_light of G2ME01_00 is Blogg_light_rev2 in G2MP01_00 (truth field_edits)
n_a=$("$BIN" query --db "$DB" --release G2ME01_00 --format csv character Blogg_light_rev2 | wc -l)
n_b=$("$BIN" query --db "$DB" --release=G2MP01_00 --format csv character Blogg_light_rev2 | wc -l)
check "--release: a renamed character only in the release that has it" "1 2" "$n_a $n_b"
# the particle swapped in B47BB92B's character 0: who references the old one, per release
read -r ptype pid < <(python3 - "$TRUTH" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
for e in t["release_diff"]["mp2"]["field_edits"]:
    if e["field"] == "particle" and e["type"] == "ANCS":
        for p in t["games"]["mp2"]["particle_refs"]:
            if p["id"] == e["a"]:
                print(p["type"], e["a"])
                raise SystemExit
EOF
)
if [ -n "${pid:-}" ]; then
    who() { "$BIN" query --db "$DB" --format csv "$@" who-references "$ptype" "$pid" |
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
                 $h["ancs_id"] == "B47BB92B" && $h["char_index"] == "0"' | wc -l; }
    check "--release: who-references of the particle swapped out (A has it, B not)" "1 0" \
        "$(who --release G2ME01_00) $(who --release G2MP01_00)"
fi
# deps of a set changed between releases (two contents): a row alike in both appears once
dup=""
nchanged=0
for id in $(q "$DB" "SELECT printf('%08X', asset_id) FROM contents WHERE type = 'ANCS' \
GROUP BY game, asset_id HAVING count(*) > 1"); do
    nchanged=$((nchanged + 1))
    "$BIN" query --db "$DB" --format tsv deps "$id" | tail -n +2 >"$T/deps.tsv"
    n=$(wc -l <"$T/deps.tsv")
    u=$(sort -u "$T/deps.tsv" | wc -l)
    if [ "$n" -eq 0 ] || [ "$n" != "$u" ]; then dup="$dup $id:$n/$u"; fi
done
check "ANCS sets changed between releases exist" 1 "$([ "$nchanged" -gt 0 ] && echo 1)"
check "deps of a set changed between releases: rows, none repeated (rows/unique)" "" "$dup"
"$BIN" query --db "$DB" --release NOPE corpus-summary >/dev/null 2>"$T/nope.err"
check "--release with an unknown label: usage error naming the labels" "2 1" \
    "$? $(grep -c 'GM8E01_00' "$T/nope.err")"

# ---- folders: a deleted PAK disappears; a re-ingest equals a clean ingest ---------------------
mkdir -p "$T/rel"
cp -r "$CORPUS/mp1" "$T/rel/A"
chmod -R u+w "$T/rel"
F=$T/f.db
"$BIN" ingest --db "$F" --quiet "$T/rel/A" 2>/dev/null
check "folder release named after the folder" "A MP1 17" \
    "$(q "$F" "SELECT label, game, (SELECT count(*) FROM paks) FROM releases")"
rm "$T/rel/A/Metroid8.pak"
"$BIN" ingest --db "$F" --quiet "$T/rel/A" 2>/dev/null
check "a deleted PAK disappears with its rows" "16 0 0" \
    "$(q "$F" "SELECT (SELECT count(*) FROM paks), (SELECT count(*) FROM paks WHERE path LIKE \
'%Metroid8.pak'), (SELECT count(*) FROM pak_entries WHERE pak_id NOT IN (SELECT pak_id FROM paks))")"
# changes: a PAK replaced by release B's (other contents), a copy of another added in front
# (it becomes the first copy of its assets), one more PAK removed
cp "$CORPUS/relb/mp1/Metroid4.pak" "$T/rel/A/Metroid4.pak"
cp "$CORPUS/relb/mp1/Metroid2.pak" "$T/rel/A/AAA_first.pak"
rm "$T/rel/A/Metroid7.pak"
"$BIN" ingest --db "$F" --quiet "$T/rel/A" 2>/dev/null
check "re-ingest after changes: exit status" 0 $?
"$BIN" ingest --db "$T/clean.db" --quiet "$T/rel/A" 2>/dev/null
# dump every table without row ids that depend on history (pak_id, content_id, release_id,
# times), PAK rows named by their path instead
dump() {
    local db=$1 t cols
    for t in $(q "$db" "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE \
'sqlite_%' ORDER BY name"); do
        cols=$(q "$db" "SELECT group_concat('\"' || name || '\"', ',') FROM pragma_table_info('$t') \
WHERE name NOT IN ('pak_id', 'content_id', 'release_id', 'ingested_at', 'mtime', 'mtime_ns')")
        echo "== $t"
        if q "$db" "SELECT 1 FROM pragma_table_info('$t') WHERE name = 'pak_id'" | grep -q 1 &&
            [ "$t" != paks ]; then
            q "$db" "SELECT (SELECT path FROM paks p WHERE p.pak_id = x.pak_id), $cols FROM \"$t\" x" | sort
        else
            q "$db" "SELECT $cols FROM \"$t\"" | sort
        fi
    done
}
dump "$F" >"$T/re.dump"
dump "$T/clean.db" >"$T/clean.dump"
check "re-ingest after changes equals a clean ingest (sorted dumps)" "" \
    "$(diff "$T/re.dump" "$T/clean.dump" | head -20)"
check "the dumps are not empty" 1 "$([ "$(wc -l <"$T/clean.dump")" -gt 3000 ] && echo 1)"
check "copies that differ within the release are warned about" 1 \
    "$([ "$(q "$F" "SELECT count(*) FROM warnings WHERE code = 'copy_differs'")" -gt 0 ] && echo 1)"

finish
