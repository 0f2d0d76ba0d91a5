#!/usr/bin/env bash
# e2e_containers.sh BINARY SHARED_DIR — disc containers read in place (docs/formats.md §13)
# against an independent writer, Dolphin's own converter (/usr/games/dolphin-tool, Debian
# package dolphin-emu; scripts/deps.sh --with-fuzz installs it): a sample ISO converted to
# RVZ (32 KiB zstd, 128 KiB zstd, 2 MiB none), WIA (2 MiB LZMA2 and LZMA) and GCZ (32 KiB),
# and to CISO by a small writer here (the format is simple: docs/formats.md §13.4); each
# ingested gives the ISO's rows entry for entry (sorted dumps through the sqlite3 shell);
# the ISO and a container in one database are one release and the second adds nothing;
# `pak list IMAGE:PAK`, `pak extract`, `ancs dump IMAGE:PAK:ID` equal the plain PAK's;
# `disc list` equals the FST as parsed here in python; the fixture's disc converts to RVZ
# and GCZ and back byte-identically, and the fixture builder's own GCZ, RVZ and WIA of it
# convert back to it, its CISO equals the one written here; its RVZ and bzip2 WIA of the ISO
# convert back to the ISO and ingest as the ISO does; damaged GCZ and CISO files give a load_errors row and
# exit 1 while the other inputs load. Exits 77 (skipped) without dolphin-tool, python3, the
# sqlite3 shell or the sample corpus.
set -u
. "$(dirname "$0")/lib.sh"
DT=${DOLPHIN_TOOL:-/usr/games/dolphin-tool}
TOOL=${ANCSDB_DISC_IMAGE_TOOL:-$(dirname "$BIN")/tests/disc_image_tool}
need_tools python3 sqlite3
[ -x "$DT" ] || skip "$DT is not installed (Debian package dolphin-emu)"
need_corpus iso/GM8E01_00.iso
q() { sqlite3 -batch -noheader -separator ' ' "$@"; }
ISO=$CORPUS/iso/GM8E01_00.iso
conv() { # IN OUT FORMAT BLOCK [COMPRESSION LEVEL]
    local extra=()
    [ $# -ge 5 ] && extra+=(-c "$5")
    [ $# -ge 6 ] && extra+=(-l "$6")
    "$DT" convert -u "$T/dolphin-user" -i "$1" -o "$2" -f "$3" -b "$4" "${extra[@]}" \
        >"$T/conv.log" 2>&1 || { cat "$T/conv.log"; echo "FAIL: dolphin-tool convert $2"; fail=1; }
}
# Every row an ingest derives from the disc's bytes, sorted, without where it was read from.
dump() { # DB
    q "$1" "SELECT p.release_path, e.entry_index, e.type, e.asset_id, e.compressed, \
e.data_offset, e.stored_size, e.decompressed_size, e.table_offset, e.in_bounds, e.content_hash, \
e.stored_hash, e.content_id IS NOT NULL FROM pak_entries e JOIN paks p USING (pak_id) ORDER BY 1, 2"
    q "$1" "SELECT * FROM assets ORDER BY game, asset_id"
    q "$1" "SELECT release_path, source_offset, game, game_detected, file_size, tables_hash, \
named_count, resource_count, status FROM paks ORDER BY release_path"
    q "$1" "SELECT label, game, game_code, maker, disc, revision, region, title, source_kind \
FROM releases ORDER BY label"
    q "$1" "SELECT count(*) FROM contents"
}
# The FST of an ISO as path offset size lines, parsed here (docs/formats.md §10), not by ancsdb.
fst() { # ISO
    python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
off, size = struct.unpack(">II", d[0x424:0x42C])
f = d[off:off + size]
n = struct.unpack(">I", f[8:12])[0]
names = f[12 * n:]
def name(i):
    o = struct.unpack(">I", f[12 * i:12 * i + 4])[0] & 0xFFFFFF
    return names[o:names.index(b"\0", o)].decode("latin-1")
out, stack = [], [(0, n, "")]
for i in range(1, n):
    while i >= stack[-1][1]:
        stack.pop()
    flag, a, b = f[12 * i], *struct.unpack(">II", f[12 * i + 4:12 * i + 12])
    p = stack[-1][2] + name(i)
    if flag:
        stack.append((i, b, p + "/"))
    else:
        out.append("%s %d %d" % (p, a, b))
print("\n".join(out))
PY
}

# ---- the reference: the ISO itself -------------------------------------------------------
"$BIN" ingest --db "$T/iso.db" --quiet "$ISO" 2>"$T/err"
check "the ISO ingests cleanly" 0 $?
dump "$T/iso.db" >"$T/iso.dump"
[ "$(wc -l <"$T/iso.dump")" -gt 800 ] || { echo "FAIL: the ISO's dump is too short"; fail=1; }

# ---- containers written by dolphin-tool, and a CISO written here ---------------------------
conv "$ISO" "$T/rvz32.rvz" rvz 32768 zstd 5
conv "$ISO" "$T/rvz128.RVZ" rvz 131072 zstd 5
conv "$ISO" "$T/rvz2m.rvz" rvz 2097152 none
conv "$ISO" "$T/wia-lzma2.wia" wia 2097152 lzma2 5
# (Debian's dolphin-tool refuses `-c bzip` with "Compression format must be set": LZMA then)
conv "$ISO" "$T/wia-lzma.wia" wia 2097152 lzma 5
conv "$ISO" "$T/gcz32.gcz" gcz 32768
python3 - "$ISO" "$T/disc.ciso" 32768 <<'PY'
# CISO: "CISO", block size (LE), one byte per block (1 stored, 0 absent: all zeros) up to
# 0x8000 bytes; then the stored blocks in order.
import struct, sys
src, dst, bs = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = open(src, "rb").read()
blocks = [d[i:i + bs].ljust(bs, b"\0") for i in range(0, len(d), bs)]
present = [any(b) for b in blocks]
head = b"CISO" + struct.pack("<I", bs) + bytes(present)
with open(dst, "wb") as f:
    f.write(head.ljust(0x8000, b"\0"))
    for b, p in zip(blocks, present):
        if p:
            f.write(b)
print("CISO: %d of %d blocks stored" % (sum(present), len(blocks)), file=sys.stderr)
PY
# A WIA/RVZ reader that refuses every open (before it is written) skips those files.
wia_ok=1
if "$BIN" disc list "$T/rvz128.RVZ" >/dev/null 2>"$T/wia.err" || true; then :; fi
if grep -q "not read yet" "$T/wia.err"; then
    echo "note: this build does not read WIA/RVZ yet; their checks are skipped"
    wia_ok=0
fi
images="gcz32.gcz disc.ciso"
[ $wia_ok = 1 ] && images="rvz32.rvz rvz128.RVZ rvz2m.rvz wia-lzma2.wia wia-lzma.wia $images"
# the fixture builder's RVZ and bzip2 WIA (which this dolphin-tool does not write) of the ISO,
# once dolphin-tool has converted each back to the ISO byte for byte (below)
if [ $wia_ok = 1 ] && [ -x "$TOOL" ]; then
    for k in "rvz 65536" "wia-bzip2 2097152"; do
        set -- $k
        "$TOOL" wrap "$1" "$ISO" "$T/ours-$1" "$2"
        check "the fixture builder writes $1 of the ISO" 0 $?
        conv "$T/ours-$1" "$T/ours-$1.iso" iso 0
        cmp "$ISO" "$T/ours-$1.iso" >/dev/null
        check "the fixture builder's $1 of the ISO -> dolphin-tool -> ISO is byte-identical" 0 $?
        images="$images ours-$1"
    done
fi
for img in $images; do
    "$BIN" ingest --db "$T/$img.db" --quiet "$T/$img" 2>"$T/err"
    check "$img: ingest exit status" 0 $?
    dump "$T/$img.db" >"$T/$img.dump"
    if cmp -s "$T/iso.dump" "$T/$img.dump"; then
        echo "ok: $img: the same rows as the ISO ($(wc -l <"$T/iso.dump") lines)"
    else
        diff "$T/iso.dump" "$T/$img.dump" | head -5
        echo "FAIL: $img: rows differ from the ISO's"
        fail=1
    fi
    check "$img: no load_errors" 0 "$(q "$T/$img.db" "SELECT count(*) FROM load_errors")"
    check "$img: paks.path is IMAGE:DISC_PATH" 17 \
        "$(q "$T/$img.db" "SELECT count(*) FROM paks WHERE path = '$T/$img:' || release_path")"
done

# ---- groups larger than the container cache (a 32nd of --memory) ---------------------------
# --memory 32 gives a 1 MiB cache, smaller than a 2 MiB group: the reader still keeps the last
# groups (each read of an entry used to decode its whole group again). A group larger than a
# quarter of --memory is refused by name, and read with a budget that holds it.
if [ $wia_ok = 1 ]; then
    "$BIN" ingest --db "$T/mem32.db" --quiet --memory 32 "$T/wia-lzma.wia" 2>"$T/err"
    check "2 MiB WIA groups, --memory 32: exit status" 0 $?
    check "2 MiB WIA groups, --memory 32: the ISO's rows" "$(md5sum <"$T/iso.dump")" \
        "$(dump "$T/mem32.db" | md5sum)"
    conv "$ISO" "$T/wia16m.wia" wia 16777216 lzma 5
    "$BIN" ingest --db "$T/big32.db" --quiet --memory 32 "$T/wia16m.wia" 2>"$T/err"
    check "16 MiB WIA groups, --memory 32: exit 1" 1 $?
    check "16 MiB WIA groups, --memory 32: one load_errors row saying what it needs" \
        "1|WIA: each group of 16384 KiB is kept decoded whole, more than a quarter of the memory budget (32 MiB): ingest --memory 64 or more reads it" \
        "$(q "$T/big32.db" "SELECT count(*) || '|' || max(message) FROM load_errors")"
    "$BIN" ingest --db "$T/big64.db" --quiet --memory 64 "$T/wia16m.wia" 2>"$T/err"
    check "16 MiB WIA groups, --memory 64: exit status" 0 $?
    check "16 MiB WIA groups, --memory 64: the ISO's rows" "$(md5sum <"$T/iso.dump")" \
        "$(dump "$T/big64.db" | md5sum)"
fi

# ---- found in a folder by extension (any case); the same release as the ISO ----------------
mkdir "$T/shelf"
cp "$T/gcz32.gcz" "$T/shelf/Prime.GCZ"
"$BIN" ingest --db "$T/both.db" --quiet "$ISO" 2>/dev/null
"$BIN" ingest --db "$T/both.db" "$T/shelf" >"$T/both.out" 2>&1
check "ISO then a GCZ of it: exit status" 0 $?
check "ISO then a GCZ of it: one release" "1 GM8E01_00" \
    "$(q "$T/both.db" "SELECT count(*), label FROM releases")"
check "ISO then a GCZ of it: the rows are the ISO's" "$(md5sum <"$T/iso.dump")" \
    "$(dump "$T/both.db" | md5sum)"
check "ISO then a GCZ of it: the summary says nothing was added" 1 \
    "$(grep -c '17 PAKs.*, 0 ANCS, 0 EVNT, 0 characters, 0 errors' "$T/both.out")"
check "ISO then a GCZ of it: read from the GCZ now" "$T/shelf/Prime.GCZ" \
    "$(q "$T/both.db" "SELECT source FROM releases")"

# ---- IMAGE:PATH ------------------------------------------------------------------------------
for img in $images; do
    "$BIN" pak list "$T/$img:metroid1.PAK" >"$T/list.txt" 2>&1
    check "pak list $img:metroid1.PAK: exit status" 0 $?
    "$BIN" pak list "$CORPUS/mp1/Metroid1.pak" >"$T/want.txt" 2>&1
    check "pak list $img:metroid1.PAK equals the PAK file's" "$(md5sum <"$T/want.txt")" \
        "$(md5sum <"$T/list.txt")"
done
"$BIN" pak list "$T/gcz32.gcz:files/Metroid1.pak" >"$T/list.txt" 2>&1
check "pak list IMAGE:files/PAK (the extracted layout's path)" "$(md5sum <"$T/want.txt")" \
    "$(md5sum <"$T/list.txt")"
"$BIN" pak extract -o "$T/x1" "$T/gcz32.gcz:Metroid2.pak" 2>/dev/null
check "pak extract IMAGE:PAK: exit status" 0 $?
"$BIN" pak extract -o "$T/x2" "$CORPUS/mp1/Metroid2.pak" 2>/dev/null
diff -r "$T/x1" "$T/x2" >/dev/null
check "pak extract IMAGE:PAK writes the PAK file's entries" 0 $?
id=$(q "$T/iso.db" "SELECT printf('%08X', e.asset_id) FROM pak_entries e JOIN paks p USING \
(pak_id) WHERE p.release_path = 'Metroid1.pak' AND e.type = 'ANCS' ORDER BY e.entry_index LIMIT 1")
"$BIN" ancs dump --json "$T/disc.ciso:Metroid1.pak:$id" >"$T/a1.json" 2>&1
check "ancs dump IMAGE:PAK:ID: exit status" 0 $?
"$BIN" ancs dump --json "$CORPUS/mp1/Metroid1.pak:$id" 2>&1 | sed "s|$CORPUS/mp1/Metroid1.pak|X|g" \
    >"$T/a2.json"
sed -i "s|$T/disc.ciso:Metroid1.pak|X|g" "$T/a1.json"
check "ancs dump IMAGE:PAK:ID equals the PAK file's" "$(md5sum <"$T/a2.json")" "$(md5sum <"$T/a1.json")"
# a disc, or a PAK in it, without :ID is a usage error saying how to name one resource
for arg in "$ISO" "$ISO:Metroid1.pak" "$T/rvz128.RVZ"; do
    "$BIN" ancs dump "$arg" >"$T/o" 2>"$T/e"
    rc=$?
    check "ancs dump $(basename "$arg") (no :ID): exit 2" 2 $rc
    grep -q ":ID" "$T/e"
    rc=$?
    check "ancs dump $(basename "$arg") (no :ID): says how to name a resource" 0 $rc
done
# a path the disc does not hold is a path that does not exist: exit 2, as for a plain file
for cmd in "pak list $ISO:Nope.pak" "pak extract -o $T/nope $ISO:Nope.pak" "ancs dump $ISO:Nope.pak:0x12345678"; do
    # shellcheck disable=SC2086
    "$BIN" $cmd >/dev/null 2>"$T/e"
    rc=$?
    check "$cmd: exit 2" 2 $rc
    grep -q "no such file on the disc" "$T/e"
    rc=$?
    check "$cmd: says the disc holds no such file" 0 $rc
done
if [ -d "$CORPUS/extracted/GM8E01_02" ]; then
    ex=$CORPUS/extracted/GM8E01_02
    "$BIN" pak list "$ex:Metroid1.pak" >"$T/l1.txt" 2>&1
    "$BIN" pak list "$ex/files/Metroid1.pak" >"$T/l2.txt" 2>&1
    check "pak list EXTRACTED:PAK equals its files/PAK" "$(md5sum <"$T/l2.txt")" \
        "$(md5sum <"$T/l1.txt")"
fi
"$BIN" pak list "$T/gcz32.gcz:NoSuch.pak" >/dev/null 2>"$T/err"
check "pak list IMAGE:missing: exit 2 (a path that does not exist)" 2 $?

# ---- disc list -------------------------------------------------------------------------------
fst "$ISO" >"$T/fst.txt"
for img in "$ISO" $(for i in $images; do echo "$T/$i"; done); do
    "$BIN" disc list --format tsv "$img" | tail -n +2 | tr '\t' ' ' >"$T/dl.txt"
    check "disc list $(basename "$img"): the FST's files, offsets and sizes" \
        "$(md5sum <"$T/fst.txt")" "$(md5sum <"$T/dl.txt")"
done
"$BIN" disc list --format json "$T/gcz32.gcz" >"$T/dl.json"
check "disc list --format json: GCZ header" "GM8E01 0 NTSC-U Metroid Prime GCZ 32768 zlib" \
    "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["game_code"], \
d["revision"], d["region"], d["title"], d["container"], d["block_size"], d["compression"])' "$T/dl.json")"
if [ $wia_ok = 1 ]; then
    "$BIN" disc list --format json "$T/rvz128.RVZ" >"$T/dl.json"
    check "disc list: RVZ block size and compression as dolphin-tool reports them" \
        "RVZ $("$DT" header -b -i "$T/rvz128.RVZ" | tr -dc 0-9) $("$DT" header -c -i "$T/rvz128.RVZ" | tr -d '\n' | tr 'A-Z' 'a-z' | sed 's/^zstandard$/zstd/')" \
        "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["container"], \
d["block_size"], d["compression"].lower())' "$T/dl.json")"
fi

# ---- the fixture's disc: dolphin-tool converts it there and back byte-identically ----------
if [ -x "$TOOL" ]; then
    "$TOOL" "$T/fx" >/dev/null
    conv "$T/fx/disc.iso" "$T/fx.gcz" gcz 32768
    conv "$T/fx.gcz" "$T/fx-back.iso" iso 0
    cmp "$T/fx/disc.iso" "$T/fx-back.iso" >/dev/null
    check "fixture disc -> GCZ -> ISO is byte-identical" 0 $?
    conv "$T/fx/disc.iso" "$T/fx.rvz" rvz 131072 zstd 5
    conv "$T/fx.rvz" "$T/fx-back2.iso" iso 0
    cmp "$T/fx/disc.iso" "$T/fx-back2.iso" >/dev/null
    check "fixture disc -> RVZ -> ISO is byte-identical" 0 $?
    "$TOOL" extract "$T/fx.gcz" "$T/fx-gcz" >/dev/null
    diff -r "$T/fx/expect" "$T/fx-gcz" >/dev/null
    check "the fixture's files read back through GCZ" 0 $?
    # the fixture builder's own containers (fuzz_ingest damages them): its GCZ (every third
    # block stored) read back by dolphin-tool; its CISO the same bytes as the one above
    "$TOOL" wrap gcz "$T/fx/disc.iso" "$T/fx-ours.gcz" 32768
    check "the fixture builder writes a GCZ" 0 $?
    conv "$T/fx-ours.gcz" "$T/fx-ours.iso" iso 0
    cmp "$T/fx/disc.iso" "$T/fx-ours.iso" >/dev/null
    check "the fixture builder's GCZ -> dolphin-tool -> ISO is byte-identical" 0 $?
    "$TOOL" wrap ciso "$ISO" "$T/ours.ciso" 32768 && cmp "$T/ours.ciso" "$T/disc.ciso" >/dev/null
    check "the fixture builder's CISO equals the one written here from the format" 0 $?
    # its WIA and RVZ in every method and chunk shape it writes
    for k in "rvz 32768" "rvz 2097152" "rvz-none 65536" "wia 2097152" "wia-lzma2 4194304"; do
        set -- $k
        "$TOOL" wrap "$1" "$T/fx/disc.iso" "$T/fx-ours-$1" "$2"
        check "the fixture builder writes $1 in chunks of $2" 0 $?
        conv "$T/fx-ours-$1" "$T/fx-ours-$1.iso" iso 0
        cmp "$T/fx/disc.iso" "$T/fx-ours-$1.iso" >/dev/null
        check "the fixture builder's $1 ($2) -> dolphin-tool -> ISO is byte-identical" 0 $?
    done
fi

# ---- damaged containers: one load_errors row each, exit 1, the other inputs load ------------
mkdir "$T/bad"
cp "$CORPUS/iso/G2ME01_00.iso" "$T/bad/good.iso" # another release: it must load whole
size=$(stat -c %s "$T/gcz32.gcz")
head -c $((size / 2)) "$T/gcz32.gcz" >"$T/bad/truncated.gcz"
head -c $((0x8000 + 100 * 32768)) "$T/disc.ciso" >"$T/bad/truncated.ciso"
# one byte of a compressed block flipped: its Adler-32 no longer matches
python3 - "$T/gcz32.gcz" "$T/bad/hash.gcz" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
n = struct.unpack("<I", d[28:32])[0]
data = 32 + 12 * n
ptr = [struct.unpack("<Q", d[32 + 8 * i:40 + 8 * i])[0] & ~(1 << 63) for i in range(n)]
blk = n // 2
d[data + ptr[blk] + 5] ^= 0x55
open(sys.argv[2], "wb").write(d)
PY
# a container cut short (a download that stopped): one load_errors row at the cut (stage pak,
# byte offset = the file's size), the PAKs in the bytes that are there load with the ISO's
# rows, the PAKs past the cut are faults of their own, and another image beside it loads whole
pak_rows() { # DB: every ok PAK's entries, as the ISO's dump has them
    q "$1" "SELECT p.release_path, e.entry_index, e.type, e.asset_id, e.content_hash \
FROM pak_entries e JOIN paks p USING (pak_id) WHERE p.status = 'ok' \
AND p.path NOT LIKE '%/good.iso:%' ORDER BY 1, 2"
}
total_paks=$(fst "$ISO" | grep -ci '\.pak ')
good_paks=$(fst "$CORPUS/iso/G2ME01_00.iso" | grep -ci '\.pak ')
cuts="truncated.gcz truncated.ciso"
if [ $wia_ok = 1 ]; then
    head -c $(($(stat -c %s "$T/rvz128.RVZ") * 2 / 3)) "$T/rvz128.RVZ" >"$T/bad/truncated.rvz"
    head -c $(($(stat -c %s "$T/wia-lzma.wia") / 2)) "$T/wia-lzma.wia" >"$T/bad/truncated.wia"
    cuts="$cuts truncated.rvz truncated.wia"
fi
for cut in $cuts; do
    db="$T/$cut.db"
    "$BIN" ingest --db "$db" "$T/bad/$cut" "$T/bad/good.iso" >/dev/null 2>"$T/err"
    check "$cut: exit 1" 1 $?
    # a PAK cut inside fails as a whole (its rows rolled back): stderr names no entry fault
    # that load_errors does not hold
    told=$(sed -n 's/^ancsdb: \(.*\) entry \([0-9][0-9]*\) .*/\1|\2/p' "$T/err" | sort -u)
    held=$(q "$db" "SELECT pak_path || '|' || entry_index FROM load_errors \
WHERE entry_index IS NOT NULL" | sort -u)
    check "$cut: every entry fault on stderr is a load_errors row" "" \
        "$(comm -23 <(printf '%s\n' "$told" | sed '/^$/d') <(printf '%s\n' "$held" | sed '/^$/d'))"
    check "$cut: one row for the cut, at the file's size" "1 $(stat -c %s "$T/bad/$cut")" \
        "$(q "$db" "SELECT count(*), max(byte_offset) FROM load_errors WHERE stage = 'pak' \
AND pak_path LIKE '%/$cut' AND message LIKE '%cut short%'" | tr '\t' ' ')"
    ok=$(q "$db" "SELECT count(*) FROM paks WHERE status = 'ok' AND path LIKE '%/$cut:%'")
    check "$cut: some PAKs load, not all" 1 "$([ "$ok" -gt 0 ] && [ "$ok" -lt "$total_paks" ] && echo 1)"
    check "$cut: every PAK not loaded is a load_errors row of its own" "$((total_paks - ok))" \
        "$(q "$db" "SELECT count(DISTINCT pak_path) FROM load_errors WHERE pak_path LIKE '%/$cut:%' \
AND pak_path NOT IN (SELECT path FROM paks WHERE status = 'ok')")"
    q "$T/iso.db" "SELECT p.release_path, e.entry_index, e.type, e.asset_id, e.content_hash \
FROM pak_entries e JOIN paks p USING (pak_id) WHERE p.release_path IN \
($(q "$db" "SELECT group_concat(quote(release_path)) FROM paks WHERE status = 'ok' AND path LIKE '%/$cut:%'")) \
ORDER BY 1, 2" >"$T/want.rows"
    check "$cut: the PAKs that load have the ISO's entries" "$(md5sum <"$T/want.rows")" \
        "$(pak_rows "$db" | md5sum)"
    check "$cut: the image beside it loads whole, without a fault" "0 $good_paks" \
        "$(q "$db" "SELECT (SELECT count(*) FROM load_errors WHERE pak_path LIKE '%/good.iso%'), \
(SELECT count(*) FROM paks WHERE path LIKE '%/good.iso:%' AND status = 'ok')" | tr '\t' ' ')"
done
"$BIN" ingest --db "$T/bad.db" --quiet "$T/bad/hash.gcz" "$T/bad/good.iso" 2>"$T/err"
check "GCZ hash mismatch: exit 1" 1 $?
check "GCZ hash mismatch: rows name the block, container and disc offsets and Adler-32" 0 \
    "$(q "$T/bad.db" "SELECT count(*) FROM load_errors WHERE pak_path LIKE '%/hash.gcz:%' \
AND message NOT LIKE '%GCZ block%0x%disc 0x%Adler-32%'")"
check "GCZ hash mismatch: at least one row" 1 \
    "$(q "$T/bad.db" "SELECT count(*) > 0 FROM load_errors WHERE pak_path LIKE '%/hash.gcz:%'")"
# the PAKs after the one that failed reuse its jobs' slots: each has the ISO's entries
q "$T/iso.db" "SELECT p.release_path, e.entry_index, e.type, e.asset_id, e.content_hash \
FROM pak_entries e JOIN paks p USING (pak_id) WHERE p.release_path IN \
($(q "$T/bad.db" "SELECT group_concat(quote(release_path)) FROM paks WHERE status = 'ok' \
AND path LIKE '%/hash.gcz:%'")) ORDER BY 1, 2" >"$T/want.rows"
check "GCZ hash mismatch: the PAKs that load have the ISO's entries" "$(md5sum <"$T/want.rows")" \
    "$(pak_rows "$T/bad.db" | md5sum)"
check "GCZ hash mismatch: some PAKs load, not all" 1 \
    "$(ok=$(q "$T/bad.db" "SELECT count(*) FROM paks WHERE status = 'ok' AND path LIKE '%/hash.gcz:%'")
    [ "$ok" -gt 0 ] && [ "$ok" -lt "$total_paks" ] && echo 1)"
check "GCZ hash mismatch: the good image still loads whole, without a fault" "0 $good_paks" \
    "$(q "$T/bad.db" "SELECT (SELECT count(*) FROM load_errors WHERE pak_path LIKE '%/good.iso%'), \
(SELECT count(*) FROM paks WHERE path LIKE '%/good.iso:%' AND status = 'ok')" | tr '\t' ' ')"
# pak list in a cut GCZ: the last PAK on the disc (its blocks are stored in disc order) is past
# the cut, an error (exit 3); the first one is before it and lists as the ISO's does
last=$(fst "$ISO" | grep -i '\.pak ' | sort -k2,2n | tail -1 | cut -d' ' -f1)
first=$(fst "$ISO" | grep -i '\.pak ' | sort -k2,2n | head -1 | cut -d' ' -f1)
"$BIN" pak list "$T/bad/truncated.gcz:$last" >/dev/null 2>"$T/err"
check "pak list of a PAK past the cut of a GCZ: exit 3" 3 $?
"$BIN" pak list "$ISO:$first" >"$T/want.txt"
"$BIN" pak list "$T/bad/truncated.gcz:$first" >"$T/got.txt" 2>"$T/err"
check "pak list of a PAK before the cut of a GCZ: exit 0" 0 $?
check "pak list of a PAK before the cut of a GCZ lists the ISO's" "$(md5sum <"$T/want.txt")" \
    "$(md5sum <"$T/got.txt")"
finish
