#!/usr/bin/env bash
# e2e_fst_dup.sh BINARY SHARED_DIR — a disc image whose FST holds two entries with the same
# path (issue 20 item 7): the first is read, the second is a load_errors row naming its FST
# entry's offset, and the summary counts the PAKs the database holds. The image is a copy of
# the corpus's GM8E01_00.iso with one name in its FST string table changed by python3 (the
# FST found from the header, docs/formats.md §10); the PAK count from truth.json. And a name
# that no path can carry ('/' in it, or ".."): that entry is left out with one row at its
# name, and the rest of the disc is read.
set -u
. "$(dirname "$0")/lib.sh"
ISO=$CORPUS/iso/GM8E01_00.iso
need_corpus iso/GM8E01_00.iso
need_tools python3
# rename_pak COPY NAME: a copy of the ISO at COPY whose FST names Metroid2.pak NAME instead
# (the FST found from the header); prints the image offset of that name
rename_pak() {
    cp "$ISO" "$1" && chmod u+w "$1" && python3 - "$1" "$2" <<'PY'
import struct, sys
f = open(sys.argv[1], "r+b")
f.seek(0x424)
off, size = struct.unpack(">II", f.read(8))
f.seek(off)
fst = f.read(size)
at = fst.find(b"Metroid2.pak\0")
assert at >= 0
f.seek(off + at)
f.write(sys.argv[2].encode() + b"\0")
print(off + at)
PY
}
rename_pak "$T/d.iso" Metroid1.pak >/dev/null || { echo "FAIL: could not patch the FST"; exit 1; }
want=$(python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["releases"]:
    if r["label"] == "GM8E01_00":
        print(r["pak_count"] - 1)' "$CORPUS/truth.json")
"$BIN" ingest --db "$T/x.db" "$T/d.iso" 2>"$T/err"
check "exit 1 (one FST entry not read)" 1 $?
sq() { "$BIN" sql --db "$T/x.db" --format tsv "$1" | tail -1; }
check "the database holds every PAK but the repeated one" "$want" "$(sq "SELECT count(*) FROM paks")"
grep -Eq "^ingest: $want PAKs " "$T/err"
check "the summary counts what the database holds ($want)" 0 $?
check "one load_errors row for the second entry, with its offset" "1" \
    "$(sq "SELECT count(*) FROM load_errors WHERE message LIKE '%second FST entry%' AND byte_offset > 0")"
"$BIN" ingest --quiet --db "$T/x.db" "$T/d.iso" 2>"$T/err2"
check "a second run: exit 1 again" 1 $?
check "a second run: still one row, no more PAKs" "1 $want" \
    "$(sq "SELECT (SELECT count(*) FROM load_errors) || ' ' || (SELECT count(*) FROM paks)")"

# ---- a name no path can carry ("Metro/d2.pak", ".."): that entry is left out, a load_errors
# row at its name's image offset (found here from the header), every other PAK read
for bad in "Metro/d2.pak" ".."; do
    at=$(rename_pak "$T/b.iso" "$bad") || { bad "could not patch the FST for $bad"; continue; }
    rm -f "$T/b.db"
    "$BIN" ingest --quiet --db "$T/b.db" "$T/b.iso" 2>"$T/err3"
    check "FST name '$bad': exit 1" 1 $?
    sqb() { "$BIN" sql --db "$T/b.db" --format tsv "$1" | tail -1; }
    check "FST name '$bad': every other PAK read" "$want" "$(sqb "SELECT count(*) FROM paks")"
    check "FST name '$bad': one row at its name, stage pak" "1 pak $at" \
        "$(sqb "SELECT count(*) || ' ' || min(stage) || ' ' || min(byte_offset) FROM load_errors")"
    "$BIN" disc list "$T/b.iso" >/dev/null 2>"$T/err4"
    check "disc list with FST name '$bad': exit 1" 1 $?
    grep -q "left out" "$T/err4"
    rc=$?
    check "disc list with FST name '$bad': says the entry is left out" 0 $rc
done
finish
