#!/usr/bin/env bash
# End-to-end: `ancsdb demo` builds two releases of each game, a name map, ingests them and
# prints answers. Expected values come from the fixture's own record of what release B
# changed (DIR/release-changes.tsv, written by the corpus builder, not by the code under
# test; tests/fixture/test_release_b checks that record against the bytes) and from the name
# map read with python3's XML parser; the RVZ and the GCZ the demo ingests instead of two ISOs
# are those ISOs to Dolphin's own converter (dolphin-tool, when installed).
# Usage: e2e_demo.sh ANCSDB [SHARED_DIR]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bin=$BIN
work=$T

"$bin" demo --help | grep -q "usage: ancsdb demo" || die "demo --help"
set +e
"$bin" demo --scale nope "$work/x" 2>/dev/null; [ $? -eq 2 ] || die "bad --scale must exit 2"
"$bin" demo --bogus 2>/dev/null; [ $? -eq 2 ] || die "unknown option must exit 2"
set -e

# --build-only (bench/run.sh) writes release A's PAK folders and nothing else
"$bin" demo --build-only --quiet --scale 0.01 "$work/b" || die "--build-only"
[ "$(ls "$work/b/mp1" | wc -l)" -eq 17 ] || die "--build-only: MP1 must have 17 PAKs"
[ "$(ls "$work/b/mp2" | wc -l)" -eq 13 ] || die "--build-only: MP2 must have 13 PAKs"
[ ! -e "$work/b/corpus.db" ] || die "--build-only must not ingest"

"$bin" demo --quiet --scale 0.02 --seed 5 "$work/demo" >"$work/out.txt" 2>"$work/err.txt" \
    || die "demo exit $? ($(tail -3 "$work/err.txt"))"
out=$work/out.txt
db="$work/demo/corpus.db"
man="$work/demo/release-changes.tsv"
map="$work/demo/AssetNameMap32.xml"
q() { "$bin" sql --db "$db" --format tsv "$1" | tail -n +2; }
has_query() { "$bin" query --list --format tsv | cut -f1 | grep -qx "$1"; }
# pick COLUMN... from a TSV with a header row on stdin (columns by name, not position)
pick() { python3 -c 'import csv,sys
r = csv.DictReader(sys.stdin, delimiter="\t")
for row in r: print("\t".join(row[c] for c in sys.argv[1:]))' "$@"; }
section() { awk -v h="$1" 'index($0, "== " h) == 1 {f=1; next} /^== /{f=0} f' "$out"; }

grep -q "^ingested " "$out" || die "no ingest summary"
grep -qE "^== (What the corpus holds|The releases)" "$out" || die "no corpus summary"
grep -q "== Which characters use this particle" "$out" || die "no who-references"
grep -q "== Fields known only as 'unknown'" "$out" || die "no census"
[ "$(q "SELECT count(*) FROM load_errors")" -eq 0 ] || die "demo corpus must load without errors"
[ "$(q "SELECT count(*) FROM characters WHERE game='MP1' AND version NOT IN (5,6)")" -eq 0 ] \
    || die "MP1 character versions must be 5 or 6"
[ "$(q "SELECT count(*) FROM characters WHERE game='MP2' AND version <> 10")" -eq 0 ] \
    || die "MP2 character versions must be 10"
[ "$(q "SELECT count(*) FROM pak_entries")" -eq "$(q "SELECT sum(resource_count) FROM paks")" ] \
    || die "entries vs paks.resource_count"
# the condensed census has one line per field of the full census
full=$("$bin" query --db "$db" --format tsv unknown-census | tail -n +2 | cut -f2 | sort -u | wc -l)
shown=$(awk "/== Fields known only as 'unknown'/{f=1; n=0; next} /^$/{f=0} f{n++} END{print n - 2}" "$out")
[ "$full" -eq "$shown" ] || die "condensed census: $shown lines for $full fields"
# the particle the demo asked about is printed with at least one character row
section "Which characters use this particle" | grep -qE "MP[12]" || die "who-references printed no row"

# ---- the four disc images, read by an independent tool (wit) ---------------------------
for spec in "GM8E01_00 GM8E01 0 17 Metroid Prime" "GM8E01_02 GM8E01 2 17 Metroid Prime" \
            "G2ME01_00 G2ME01 0 13 Metroid Prime 2 Echoes" "G2MP01_00 G2MP01 0 13 Metroid Prime 2 Echoes"; do
    set -- $spec
    img="$work/demo/$1.iso"; code=$2; rev=$3; npaks=$4; shift 4; title="$*"
    [ -f "$img" ] || die "no disc image $img"
    grep -qF "$img" "$out" || die "the demo does not say it wrote $img"
    [ "$(head -c 6 "$img")" = "$code" ] || die "$img: game code"
    [ "$(od -An -tu1 -j7 -N1 "$img" | tr -d ' ')" = "$rev" ] || die "$img: revision must be $rev"
    [ "$(od -An -tx1 -j28 -N4 "$img" | tr -d ' ')" = "c2339f3d" ] || die "$img: disc magic"
    if command -v wit >/dev/null; then
        wit dump "$img" >"$work/wit.txt" 2>&1 || die "wit cannot read $img"
        grep -q "disc=$code" "$work/wit.txt" || die "wit: $img is not disc $code"
        grep -qE "Disc name: +$title\$" "$work/wit.txt" || die "wit: $img title is not '$title'"
        case $code in ???P*) region=PAL ;; *) region=NTSC ;; esac
        grep -qE "ID Region: +$region" "$work/wit.txt" || die "wit: $img region is not $region"
        wit files "$img" >"$work/files.txt" 2>&1 || die "wit cannot list $img"
        [ "$(grep -cE '/files/[A-Za-z0-9]+\.pak$' "$work/files.txt")" -eq "$npaks" ] \
            || die "wit: $img must hold $npaks PAKs at the disc root"
        grep -q "/files/opening.bnr$" "$work/files.txt" || die "wit: $img has no opening.bnr"
        grep -q "\.thp$" "$work/files.txt" || die "wit: $img has no video"
    else
        echo "e2e_demo: wit not installed, skipping the independent image checks"
    fi
done

# ---- discs as Dolphin keeps them, each ingested in place of its ISO: 0-02 as an RVZ, the PAL
# disc as a GCZ ---------------------------------------------------------------------------
DT=${DOLPHIN_TOOL:-/usr/games/dolphin-tool}
for c in "GM8E01_02 rvz 17 52565a01" "G2MP01_00 gcz 13 01c00bb1"; do
    set -- $c
    ctr="$work/demo/$1.$2"
    [ -f "$ctr" ] || die "no $ctr"
    grep -qF "$ctr" "$out" || die "the demo does not say it wrote $ctr"
    [ "$(od -An -tx1 -N4 "$ctr" | tr -d ' ')" = "$4" ] || die "$ctr: $2 magic"
    [ "$(q "SELECT count(*) FROM paks WHERE path LIKE '%/$1.$2:%' AND status = 'ok'")" -eq "$3" ] \
        || die "the $3 PAKs of $1 must be read from the $2"
    [ "$(q "SELECT count(*) FROM paks WHERE path LIKE '%/$1.iso:%'")" -eq 0 ] \
        || die "the ISO of $1 must not be ingested beside its $2"
    if [ -x "$DT" ]; then # Dolphin's own reader gives back the ISO
        "$DT" convert -u "$work/dolphin-user" -i "$ctr" -o "$work/back.iso" -f iso \
            >"$work/dt.log" 2>&1 || die "dolphin-tool cannot convert $ctr: $(tail -3 "$work/dt.log")"
        cmp -s "$work/back.iso" "$work/demo/$1.iso" || die "$ctr is not $1.iso to dolphin-tool"
        rm -f "$work/back.iso"
    else
        echo "e2e_demo: dolphin-tool not installed, skipping the $2's independent check"
    fi
done

# ---- nothing written through a symbolic link, no wait on a FIFO in a file's place --------
mkdir -p "$work/h/link" "$work/h/link2" "$work/h/fifo" "$work/h/dir" "$work/h/elsewhere"
echo precious >"$work/h/victim"
ln -s "$work/h/victim" "$work/h/link/G2MP01_00.gcz"
ln -s "$work/h/victim" "$work/h/link2/GM8E01_02.rvz"
mkfifo "$work/h/fifo/GM8E01_02.iso"
ln -s "$work/h/elsewhere" "$work/h/dir/mp2"
for c in "link:symbolic link" "link2:symbolic link" "fifo:not a regular file" "dir:not a folder"; do
    d=${c%%:*}; want=${c#*:}
    args=(--quiet --scale 0.01)
    [ "$d" = dir ] && args+=(--build-only)
    set +e
    timeout 120 "$bin" demo "${args[@]}" "$work/h/$d" >/dev/null 2>"$work/h/err"; rc=$?
    set -e
    [ $rc -ne 0 ] && [ $rc -ne 124 ] || die "demo into $d: exit $rc, not a refusal"
    grep -q "$want" "$work/h/err" || die "demo into $d: no '$want' in: $(cat "$work/h/err")"
done
[ "$(cat "$work/h/victim")" = precious ] || die "the demo wrote through a symbolic link"
[ -z "$(ls "$work/h/elsewhere")" ] || die "the demo wrote PAKs into a linked folder"

# ---- the fixture's record of release B: what the issue asks for, per game -------------
[ -s "$man" ] || die "no release-changes.tsv"
for g in MP1 MP2; do
    n() { awk -F'\t' -v g="$g" -v k="$1" -v c="$2" '$1==k && $2==g && ($5==c || $6==c)' "$man" | wc -l; }
    [ "$(n field characters.name)" -eq 2 ] || die "$g: two characters renamed"
    [ "$(n field particle_refs.particle_id)" -eq 1 ] || die "$g: one particle swapped"
    [ "$(n field events.sound_id)" -eq 1 ] || die "$g: one sound changed"
    [ "$(n asset added)" -eq 3 ] || die "$g: three assets added"
    [ "$(n asset removed)" -eq 2 ] || die "$g: two assets removed"
    [ "$(awk -F'\t' -v g="$g" '$1=="asset" && $2==g && $3=="TXTR" && $5=="changed"' "$man" | wc -l)" -eq 3 ] \
        || die "$g: three textures changed"
done

# ---- the name map: well-formed PWE XML (python3's parser), naming every ANCS ---------------
python3 - "$map" "$work/map_ids.txt" <<'PY' || die "name map is not a well-formed PWE map"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "AssetNameMap", root.tag
inner = root.find("AssetNameMap")
keys = []
for a in inner.findall("Asset"):
    k = a.find("Key").text
    assert len(k) == 8 and int(k, 16) >= 0, k
    v = a.find("Value")
    for f in ("Name", "Directory", "Type", "AutoGenName", "AutoGenDir"):
        assert v.find(f) is not None, f
    keys.append(k)
assert len(keys) == len(set(keys)), "a key twice"
open(sys.argv[2], "w").write("\n".join(keys) + "\n")
PY
missing=$(q "SELECT printf('%08X', asset_id) FROM ancs" | sort -u | comm -23 - <(sort -u "$work/map_ids.txt") | wc -l)
[ "$missing" -eq 0 ] || die "$missing ANCS are not in the name map"

# ---- names imported and shown beside IDs ------------------------------------------------
[ "$(q "SELECT count(*) FROM asset_names WHERE source <> 'pak'")" -eq "$(wc -l <"$work/map_ids.txt")" ] \
    || die "names import: not every map entry imported"
section "Which characters use this particle" | grep -q "Characters/" \
    || die "who-references shows no name from the map"
awk '/^== What .* needs/{f=1; next} /^== /{f=0} f' "$out" | grep -q "Characters/" \
    || die "deps shows no name from the map"

# ---- releases: two per game, and their diff equals what the fixture changed --------------
if has_query release-diff; then
    [ "$(q "SELECT group_concat(label, ' ') FROM (SELECT label FROM releases ORDER BY label)")" = \
        "G2ME01_00 G2MP01_00 GM8E01_00 GM8E01_02" ] || die "releases: $(q "SELECT label FROM releases")"
    for pair in "MP1 GM8E01_00 GM8E01_02" "MP2 G2ME01_00 G2MP01_00"; do
        set -- $pair
        section "The releases" | grep -q "^$1 *$2 " || die "the releases' summary lacks $2"
        section "The releases" | grep -q "^$1 *$3 " || die "the releases' summary lacks $3"
        expect=$(awk -F'\t' -v g="$1" '$1=="asset" && $2==g {print $2"\t"$3"\t"$4"\t"$5}' "$man" | sort)
        got=$("$bin" query --db "$db" --format tsv release-diff "$2" "$3" | pick game type asset_id change | sort)
        [ "$expect" = "$got" ] || die "release-diff $2 $3:
expected:
$expect
got:
$got"
        # every field edit appears with its old and new value (IDs as hex or decimal)
        "$bin" query --db "$db" --format tsv release-diff-fields "$2" "$3" >"$work/fields.tsv"
        python3 - "$man" "$1" "$work/fields.tsv" <<'PY' || die "release-diff-fields $2 $3 lacks an edit"
import csv, sys
man, game, path = sys.argv[1:]
rows = list(csv.DictReader(open(path), delimiter="\t"))
def readings(v):  # what a printed value may mean: text, decimal, 8 hex digits, or 0x + 8 hex
    v = (v or "").strip()
    out = {v}
    if v[:2] == "0x" and len(v) == 10 and all(c in "0123456789abcdefABCDEF" for c in v[2:]):
        out.add(int(v, 16))
    if v.lstrip("-").isdigit():
        out.add(int(v))
    if len(v) == 8 and all(c in "0123456789abcdefABCDEF" for c in v):
        out.add(int(v, 16))
    if v[:2] == "0x" and len(v) == 10:  # a sound ID (CONTRACT: 0x + 8 hex digits)
        out.add(int(v, 16))
    return out
bad = 0
for line in open(man):
    f = line.rstrip("\n").split("\t")
    if f[0] != "field" or f[1] != game:
        continue
    _, _, typ, aid, ci, field, va, vb = f
    # the record writes asset IDs as 8 hex digits, other numbers in decimal, names as they are
    is_id = field.endswith("_id") and field != "events.sound_id"
    want = lambda v: int(v, 16) if is_id else int(v) if v.lstrip("-").isdigit() else v
    ok = any(r["type"] == typ and int(r["asset_id"], 16) == int(aid, 16) and r["field"] == field
             and (ci == "" or r["char_index"] == ci)
             and want(va) in readings(r["value_a"]) and want(vb) in readings(r["value_b"])
             for r in rows)
    if not ok:
        print(f"missing: {typ} {aid} char {ci or '-'} {field} {va} -> {vb}", file=sys.stderr)
        bad += 1
sys.exit(1 if bad else 0)
PY
    done
    # the renamed characters' old and new names are in the demo's output
    awk -F'\t' '$1=="field" && $6=="characters.name" {print $7; print $8}' "$man" | while read -r nm; do
        grep -qF "$nm" "$out" || die "renamed character '$nm' is not in the demo's output"
    done
else
    [ "$(q "SELECT count(*) FROM paks")" -eq 30 ] || die "paks rows"
fi

# ---- the report: the demo prints where it is ------------------------------------------
url=$(grep -o "file://[^ ]*" "$out" | head -1)
[ -n "$url" ] || die "the demo does not print where its report is"
[ -f "${url#file://}" ] || die "the report's index ${url#file://} does not exist"
if has_query release-diff && grep -q "^(skipped" "$out"; then
    die "the demo skipped a step: $(grep "^(skipped" "$out")"
fi
finish
