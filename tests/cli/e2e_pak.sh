#!/usr/bin/env bash
# e2e_pak.sh — `ancsdb pak list|extract` against the shared corpus and resources.tsv.
# usage: bash tests/e2e_pak.sh ANCSDB_BINARY SHARED_DIR
set -u
. "$(dirname "$0")/lib.sh"
need_corpus resources.tsv
TSV="$CORPUS/resources.tsv"
TMP=$T
# expect_rc WANT CMD... : run, compare the exit status
expect_rc() {
    local want=$1
    shift
    "$@" >"$TMP/out" 2>"$TMP/err"
    local rc=$?
    [ "$rc" = "$want" ] || bad "exit $rc, wanted $want: $* ($(head -c 300 "$TMP/err"))"
}

# --- list: every format against resources.tsv, for one MP1 (zlib) and one MP2 (LZO) pak
for gp in mp1/Metroid1.pak mp2/Metroid5.pak mp1/SlideShow.pak; do
    game=${gp%%/*}
    pak=${gp#*/}
    for fmt in tsv csv json table; do
        expect_rc 0 "$BIN" pak list --format "$fmt" "$CORPUS/$gp"
        cp "$TMP/out" "$TMP/list.$fmt"
    done
    python3 - "$TSV" "$game" "$pak" "$TMP" <<'EOF' || bad "list output of $gp"
import csv, io, json, sys
tsv, game, pak, tmp = sys.argv[1:]
cols = ["entry_index", "type", "asset_id", "compressed", "data_offset", "stored_size",
        "decompressed_size"]
want = []
for r in csv.DictReader(open(tsv), delimiter="\t"):
    if r["game"] == game and r["pak"] == pak:
        want.append([r["index"], r["type"], "%08X" % int(r["id"]), r["compressed"],
                     r["offset"], r["stored_size"], r["decompressed_size"]])
want.sort(key=lambda row: int(row[0]))
ok = True
def check(name, header, rows):
    global ok
    if header != cols:
        print(f"{name}: header {header}", file=sys.stderr); ok = False
    if rows != want:
        print(f"{name}: {len(rows)} rows, want {len(want)}; first diff:",
              next(((a, b) for a, b in zip(rows, want) if a != b), None), file=sys.stderr)
        ok = False
lines = open(f"{tmp}/list.tsv").read().splitlines()
check("tsv", lines[0].split("\t"), [l.split("\t") for l in lines[1:]])
rows = list(csv.reader(io.StringIO(open(f"{tmp}/list.csv", newline="").read())))
check("csv", rows[0], rows[1:])
js = json.load(open(f"{tmp}/list.json"))
if not isinstance(js, list):
    print("json: not an array", file=sys.stderr); ok = False
else:
    for o in js:
        if not isinstance(o.get("asset_id"), str):
            print("json: asset_id is not a string", file=sys.stderr); ok = False; break
    check("json", list(js[0].keys()) if js else cols,
          [[str(o[c]) for c in cols] for o in js])
table = open(f"{tmp}/list.table").read()
first = table.splitlines()[0].split() if table.strip() else []
if first != cols:
    print(f"table: header {first}", file=sys.stderr); ok = False
for row in want:
    if row[2] not in table:
        print(f"table: {row[2]} missing", file=sys.stderr); ok = False; break
sys.exit(0 if ok else 1)
EOF
done

# --- extract: --type, --id (hex and decimal), CRC-32 against resources.tsv
check_extract() { # DIR GAME PAK FILTER(python expr over r)
    python3 - "$TSV" "$@" <<'EOF'
import csv, os, sys, zlib
tsv, d, game, pak, flt = sys.argv[1:]
want = {}
for r in csv.DictReader(open(tsv), delimiter="\t"):
    if r["game"] == game and r["pak"] == pak and eval(flt):
        want.setdefault("%08X.%s" % (int(r["id"]), r["type"].lower()), r)
got = sorted(os.listdir(d))
if got != sorted(want):
    print(f"files {got[:5]}... want {sorted(want)[:5]}...", file=sys.stderr); sys.exit(1)
# docs/formats.md §2.8: a compressed entry is its declared size; a stored one all its stored bytes,
# the resource (decompressed_size bytes, crc32) then 0xFF padding.
for name, r in want.items():
    b = open(os.path.join(d, name), "rb").read()
    n = int(r["decompressed_size"])
    size = n if r["compressed"] == "1" else int(r["stored_size"])
    if len(b) != size or zlib.crc32(b[:n]) != int(r["crc32"]) or b[n:].strip(b"\xff"):
        print(f"{name}: {len(b)} bytes crc {zlib.crc32(b[:n])}, want {size} "
              f"{r['crc32']}", file=sys.stderr); sys.exit(1)
EOF
}
P1="$CORPUS/mp1/Metroid1.pak"
P2="$CORPUS/mp2/Metroid5.pak"
expect_rc 0 "$BIN" pak extract --type ANCS -o "$TMP/x1" "$P1"
check_extract "$TMP/x1" mp1 Metroid1.pak 'r["type"] == "ANCS"' || bad "extract --type ANCS mp1"
expect_rc 0 "$BIN" pak extract --type EVNT --type ANIM -o "$TMP/x2" "$P1"
check_extract "$TMP/x2" mp1 Metroid1.pak 'r["type"] in ("EVNT", "ANIM")' || bad "two --type"
expect_rc 0 "$BIN" pak extract -o "$TMP/x3/all" "$P2"
check_extract "$TMP/x3/all" mp2 Metroid5.pak 'True' || bad "extract everything mp2"
# the MP2 ANCS whose size is a multiple of 0x4000 (padding after the last segment)
ID=$(awk -F'\t' '$1=="mp2" && $2=="Metroid5.pak" && $4=="ANCS" && $6==1 && $9%16384==0 {print $5; exit}' "$TSV")
if [ -n "$ID" ]; then
    expect_rc 0 "$BIN" pak extract --id "$ID" -o "$TMP/x4" "$P2"
    check_extract "$TMP/x4" mp2 Metroid5.pak "r['id'] == '$ID'" || bad "extract --id $ID"
    HEX=$(printf '0x%08x' "$ID")
    expect_rc 0 "$BIN" pak extract --id "$HEX" --type ANCS -o "$TMP/x5" "$P2"
    check_extract "$TMP/x5" mp2 Metroid5.pak "r['id'] == '$ID'" || bad "extract --id $HEX"
else
    bad "resources.tsv has no MP2 ANCS of a multiple of 0x4000 bytes in Metroid5.pak"
fi

# --- no overwrite without --force; --force replaces; symlinks never followed
F=$(ls "$TMP/x1" | head -n 1)
printf 'sentinel' >"$TMP/x1/$F"
"$BIN" pak extract --type ANCS -o "$TMP/x1" "$P1" >/dev/null 2>"$TMP/err"
rc=$?
[ "$rc" = 1 ] || [ "$rc" = 3 ] || bad "re-extract without --force: exit $rc"
[ "$(cat "$TMP/x1/$F")" = sentinel ] || bad "re-extract without --force overwrote $F"
grep -q "exists" "$TMP/err" || bad "re-extract: no 'exists' message"
expect_rc 0 "$BIN" pak extract --force --type ANCS -o "$TMP/x1" "$P1"
check_extract "$TMP/x1" mp1 Metroid1.pak 'r["type"] == "ANCS"' || bad "--force did not replace"
# --force onto a file with a second hard link: the link keeps its bytes
rm -f "$TMP/x1/$F"
printf 'linked' >"$TMP/x1/$F"
ln "$TMP/x1/$F" "$TMP/hardlink"
expect_rc 0 "$BIN" pak extract --force --type ANCS -o "$TMP/x1" "$P1"
[ "$(cat "$TMP/hardlink")" = linked ] || bad "extract --force wrote through a hard link"
check_extract "$TMP/x1" mp1 Metroid1.pak 'r["type"] == "ANCS"' || bad "--force over a hard link"
ls "$TMP/x1" | grep -q tmp && bad "extract --force left a temporary file"
printf 'outside' >"$TMP/outside"
rm -f "$TMP/x1/$F"
ln -s "$TMP/outside" "$TMP/x1/$F"
"$BIN" pak extract --force --type ANCS -o "$TMP/x1" "$P1" >/dev/null 2>&1
rc=$?
[ "$rc" = 1 ] || bad "extract onto a symlink: exit $rc, wanted 1"
[ "$(cat "$TMP/outside")" = outside ] || bad "extract followed a symlink"
[ -L "$TMP/x1/$F" ] || bad "extract replaced a symlink"

# --- lossless: a hand-built PAK (docs/formats.md §2.2-2.5) whose resources end in 0xFF bytes
python3 - "$TMP/ff.pak" <<'EOF'
import struct, sys, zlib
stored = b"abc" + b"\xff" * 4             # a stored resource of 7 bytes, the last 4 are 0xFF
plain = bytes(range(32)) + b"\xff" * 8    # 40 bytes, compressed with zlib
comp = struct.pack(">I", len(plain)) + zlib.compress(plain, 9)
pad = lambda b: b + b"\xff" * (-len(b) % 32)
data = [pad(stored), pad(comp)]
hdr = struct.pack(">IIII", 0x00030005, 0, 0, 2)  # header, no names, 2 resources
off = 64                                         # 16 + 2 * 20 = 56 -> data at 64
table = b""
for (fcc, rid, flag), d in zip([(b"STRG", 0x11223344, 0), (b"ANCS", 0x55667788, 1)], data):
    table += struct.pack(">I4sIII", flag, fcc, rid, len(d), off)
    off += len(d)
body = hdr + table
body += b"\0" * (64 - len(body))
open(sys.argv[1], "wb").write(body + b"".join(data))
# what pak list must say: decompressed_size is the stored size less its trailing 0xFF (at
# most 31) for the stored entry, the u32 prefix for the compressed one
cols = "entry_index type asset_id compressed data_offset stored_size decompressed_size"
rows = [cols.split(), ["0", "STRG", "11223344", "0", "64", "32", "3"],
        ["1", "ANCS", "55667788", "1", "96", str(len(data[1])), "40"]]
open(sys.argv[1] + ".want", "w").write("".join("\t".join(r) + "\n" for r in rows))
EOF
expect_rc 0 "$BIN" pak extract -o "$TMP/ff" "$TMP/ff.pak"
python3 - "$TMP/ff" <<'EOF' || bad "extract is not lossless"
import os, sys
d = sys.argv[1]
s = open(os.path.join(d, "11223344.strg"), "rb").read()
c = open(os.path.join(d, "55667788.ancs"), "rb").read()
ok = s == b"abc" + b"\xff" * 29 and c == bytes(range(32)) + b"\xff" * 8
if not ok:
    print(f"stored {s!r}\ncompressed {c!r}", file=sys.stderr)
sys.exit(0 if ok else 1)
EOF
expect_rc 0 "$BIN" pak list --format tsv "$TMP/ff.pak"
cmp -s "$TMP/out" "$TMP/ff.pak.want" || bad "pak list of ff.pak: $(cat "$TMP/out")"

# --- usage errors (2), unreadable input (3), help (0)
expect_rc 2 "$BIN" pak
expect_rc 2 "$BIN" pak frobnicate "$P1"
expect_rc 2 "$BIN" pak list
expect_rc 2 "$BIN" pak list --format xml "$P1"
expect_rc 2 "$BIN" pak list --format
expect_rc 2 "$BIN" pak list --bogus "$P1"
expect_rc 2 "$BIN" pak list "$P1" "$P2"
expect_rc 2 "$BIN" pak extract --id nothex -o "$TMP/x6" "$P1"
expect_rc 2 "$BIN" pak extract --type TOOLONG -o "$TMP/x6" "$P1"
expect_rc 2 "$BIN" pak extract -o
[ ! -e "$TMP/x6" ] || bad "usage error still created the output folder"
printf 'this is not a pak file at all\n' >"$TMP/notpak.pak"
expect_rc 3 "$BIN" pak list "$TMP/notpak.pak"
grep -q "notpak.pak" "$TMP/err" || bad "error does not name the file"
expect_rc 3 "$BIN" pak extract -o "$TMP/x7" "$TMP/notpak.pak"
# a PATH that does not exist is a usage error (CONTRACT.md "Command line"), for every command
expect_rc 2 "$BIN" pak list "$TMP/does-not-exist.pak"
grep -q "does-not-exist.pak" "$TMP/err" || bad "error does not name the missing file"
expect_rc 2 "$BIN" pak extract -o "$TMP/x8" "$TMP/does-not-exist.pak"
[ ! -e "$TMP/x8" ] || bad "pak extract of a missing PAK created its folder"
expect_rc 2 "$BIN" disc list "$TMP/does-not-exist.iso"
expect_rc 2 "$BIN" ancs dump "$TMP/does-not-exist.ancs"
expect_rc 2 "$BIN" ancs dump "$TMP/does-not-exist.pak:0x12345678"
# a PAK or a disc image without :ID is a usage error too
expect_rc 2 "$BIN" ancs dump "$P1"
head -c 100 "$P1" >"$TMP/cut.pak"
expect_rc 3 "$BIN" pak list "$TMP/cut.pak"
expect_rc 1 "$BIN" pak extract --id 0x12345678 -o "$TMP/x8" "$P1"
expect_rc 0 "$BIN" pak list --help
grep -q "decompressed_size" "$TMP/out" || bad "list --help does not describe the columns"
expect_rc 0 "$BIN" pak extract --help
grep -q -- "--force" "$TMP/out" || bad "extract --help does not mention --force"
expect_rc 0 "$BIN" pak --help

# --- a truncated copy: the tables read, the last entry is past the end -> exit 1
SZ=$(stat -c %s "$P1")
head -c $((SZ - 40)) "$P1" >"$TMP/short.pak"
expect_rc 1 "$BIN" pak list --format tsv "$TMP/short.pak"
grep -q "out_of_bounds" "$TMP/err" || bad "truncated pak: no out_of_bounds warning"
expect_rc 1 "$BIN" pak extract -o "$TMP/x9" "$TMP/short.pak"
grep -q "entry [0-9]* [A-Z]* [0-9A-F]\{8\} @0x" "$TMP/err" ||
    bad "inflate failure message lacks entry, type, ID, offset: $(head -c 300 "$TMP/err")"

finish
