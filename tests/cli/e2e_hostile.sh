#!/usr/bin/env bash
# e2e_hostile.sh BINARY SHARED_DIR — hostile inputs and output safety through the real binary.
# Inputs are a small demo corpus (ancsdb demo --build-only) plus broken files beside it and
# one ANCS entry corrupted in place (its zlib payload, at the offset `pak list` reports).
# Checks: ingest exit 1 with one load_errors row per broken input, no hang on a FIFO, every
# intact ANCS still loaded; `pak extract` writes only ID-named files inside its folder, never
# overwrites without --force, never follows a symlink; query arguments are bound; `sql` is
# read-only and creates no file.
set -u
. "$(dirname "$0")/lib.sh"
sql() { # sql DB QUERY -> tsv without header
    "$BIN" sql --db "$1" --format tsv "$2" 2>/dev/null | tail -n +2
}
# xor_bytes FILE OFFSET COUNT: flip every bit of COUNT bytes at OFFSET, in place
xor_bytes() {
    local f=$1 off=$2 n=$3 i b
    for ((i = 0; i < n; i++)); do
        b=$(od -An -tu1 -j $((off + i)) -N1 "$f" | tr -d ' ')
        printf "\\$(printf '%03o' $((b ^ 255)))" |
            dd of="$f" bs=1 seek=$((off + i)) conv=notrunc status=none
    done
}

"$BIN" demo --build-only --quiet --scale 0.02 --seed 3 "$T/c" >/dev/null 2>&1
check "demo corpus built" 0 $?

# ---- clean reference ----------------------------------------------------------------------
"$BIN" ingest --db "$T/ref.db" --quiet "$T/c" 2>/dev/null
check "clean ingest exit status" 0 $?
sql "$T/ref.db" "SELECT game || ' ' || printf('%08X', asset_id) FROM ancs ORDER BY 1" >"$T/ref.ancs"
nref=$(wc -l <"$T/ref.ancs")
[ "$nref" -gt 5 ] || { echo "FAIL: only $nref ANCS in the demo corpus"; fail=1; }

# the victim: a compressed ANCS entry whose asset has one copy
read -r vpath ventry voff vid < <(sql "$T/ref.db" "SELECT p.path, e.entry_index, e.data_offset, \
printf('%08X', e.asset_id) FROM pak_entries e JOIN paks p USING (pak_id) JOIN assets a ON a.game = p.game AND \
a.asset_id = e.asset_id WHERE e.type = 'ANCS' AND e.compressed = 1 AND a.copies = 1 AND \
p.game = 'MP1' ORDER BY p.path, e.entry_index LIMIT 1" | tr '\t' ' ')
[ -n "${vpath:-}" ] || { echo "FAIL: no single-copy compressed MP1 ANCS"; exit 1; }
echo "victim: $vpath entry $ventry at $voff (ANCS $vid)"

# ---- the hostile folder ---------------------------------------------------------------------
H=$T/h
cp -r "$T/c" "$H"
hv=$H/${vpath#"$T/c/"}
xor_bytes "$hv" $((voff + 12)) 16 # inside the deflate data, after the u32 size and header
: >"$H/zero.pak"
printf 'this is not a PAK, only text\n' >"$H/text.pak"
printf '\x00\x03\x00\x05\x00\x00' >"$H/trunc.pak"
mkfifo "$H/fifo.pak"
ln -s /nonexistent/ancsdb/gone.pak "$H/dangling.pak"
ln -s . "$H/loop"
mkdir "$H/folder.pak"

timeout 120 "$BIN" ingest --db "$T/h.db" "$H" >"$T/h.out" 2>"$T/h.err"
rc=$?
check "hostile ingest exit status (1: something rejected; 124 would be a hang)" 1 $rc
check "hostile ingest prints nothing on stdout" "" "$(cat "$T/h.out")"
grep -Eq '^ingest: 33 PAKs \(30 changed, 0 unchanged\).* 6 errors' "$T/h.err"
check "summary: 33 PAK files (the folder and the loop add none), 30 written, 6 errors" 0 $?
check "whole-PAK errors" "dangling.pak fifo.pak text.pak trunc.pak zero.pak" \
    "$(sql "$T/h.db" "SELECT group_concat(name, ' ') FROM (SELECT replace(pak_path, '$H/', '') \
AS name FROM load_errors WHERE stage = 'pak' AND entry_index IS NULL ORDER BY 1)")"
check "byte offsets of the unreadable-header errors (text: 0; 6-byte file: 4; zero: 0)" "0 4 0" \
    "$(sql "$T/h.db" "SELECT group_concat(byte_offset, ' ') FROM (SELECT byte_offset FROM \
load_errors WHERE pak_path LIKE '%/zero.pak' OR pak_path LIKE '%/text.pak' OR pak_path LIKE \
'%/trunc.pak' ORDER BY pak_path)")"
check "the corrupted entry: one inflate error inside its data" 1 \
    "$(sql "$T/h.db" "SELECT count(*) FROM load_errors WHERE stage = 'inflate' AND entry_index = \
$ventry AND type = 'ANCS' AND printf('%08X', asset_id) = '$vid' AND byte_offset BETWEEN $voff AND $voff + 100000")"
grep -q "entry $ventry ANCS .* inflate @0x" "$T/h.err"
check "stderr names entry, type, stage and offset" 0 $?
sql "$T/h.db" "SELECT game || ' ' || printf('%08X', asset_id) FROM ancs ORDER BY 1" >"$T/h.ancs"
check "every other ANCS is still loaded" "$(grep -v " $vid\$" "$T/ref.ancs")" "$(cat "$T/h.ancs")"
check "the victim's PAK is still ingested (status ok) with all its entries" 1 \
    "$(sql "$T/h.db" "SELECT count(*) FROM paks p WHERE p.path = '$hv' AND p.status = 'ok' AND \
p.resource_count = (SELECT count(*) FROM pak_entries e WHERE e.pak_id = p.pak_id)")"
check "integrity_check" ok "$(sql "$T/h.db" "PRAGMA integrity_check")"

# explicit arguments: a FIFO must not block and is an error row; a missing path is a usage
# error (CONTRACT.md: exit 2, creates nothing)
mkfifo "$T/lone.pak"
timeout 60 "$BIN" ingest --db "$T/f.db" --quiet "$T/lone.pak" 2>/dev/null
check "ingest of an explicit FIFO (no hang)" 1 $?
check "FIFO recorded" 1 "$(sql "$T/f.db" "SELECT count(*) FROM load_errors WHERE stage = 'pak'")"
timeout 60 "$BIN" ingest --db "$T/m.db" --quiet "$T/lone.pak" "$T/missing.pak" 2>/dev/null
check "ingest naming a missing path" 2 $?
check "no database created for it" no "$([ -e "$T/m.db" ] && echo yes || echo no)"
timeout 60 "$BIN" ancs dump "$T/lone.pak" >/dev/null 2>&1
check "ancs dump of a FIFO: cannot read (no hang)" 3 $?
timeout 60 "$BIN" pak list "$T/lone.pak" >/dev/null 2>&1
rc=$?
[ $rc != 124 ] && [ $rc != 0 ]
check "pak list of a FIFO fails without hanging (rc $rc)" 0 $?

# warnings only -> exit 0: a second run over the clean corpus changes nothing
"$BIN" ingest --db "$T/ref.db" --quiet "$T/c" 2>/dev/null
check "unchanged re-run exit status" 0 $?

# ---- pak extract ------------------------------------------------------------------------
P=$T/c/mp1/Metroid1.pak
mkdir "$T/x"
outside() { # SQLite readers may leave -wal/-shm beside a database
    find "$T" -path "$T/x" -prune -o -path "$T/ls" -prune -o -print | grep -vE -- "-(wal|shm)$" | sort
}
mkdir "$T/ls"
outside >"$T/ls/before"
"$BIN" pak extract -o "$T/x/out" "$P" >/dev/null 2>&1
check "extract into a new folder" 0 $?
n=$(ls -A "$T/x/out" | wc -l)
check "one file per distinct (type, ID)" "$(sql "$T/ref.db" "SELECT count(*) FROM (SELECT \
DISTINCT e.type, e.asset_id FROM pak_entries e JOIN paks p USING (pak_id) WHERE p.path LIKE \
'%/mp1/Metroid1.pak')")" "$n"
check "file names come from IDs and types only" 0 \
    "$(ls -A "$T/x/out" | grep -cvE '^[0-9A-F]{8}\.[a-z0-9_]{4}$')"
check "only the output folder was created" out "$(ls -A "$T/x")"
f1=$(ls "$T/x/out" | head -1)
printf 'keep me' >"$T/x/out/$f1"
"$BIN" pak extract -o "$T/x/out" "$P" >/dev/null 2>&1
check "extract over existing files without --force" 1 $?
check "existing file not overwritten" "keep me" "$(cat "$T/x/out/$f1")"
"$BIN" pak extract --force -o "$T/x/out" "$P" >/dev/null 2>&1
check "extract --force" 0 $?
[ "$(cat "$T/x/out/$f1")" != "keep me" ]
check "--force replaced the file" 0 $?
# a symlink planted at a target path is never followed, even with --force
mkdir -p "$T/x/sl" "$T/x/keep"
printf 'precious' >"$T/x/keep/precious"
ln -s "$T/x/keep/precious" "$T/x/sl/$f1"
"$BIN" pak extract --force -o "$T/x/sl" "$P" >/dev/null 2>&1
check "extract --force onto a planted symlink fails for that file" 1 $?
check "the symlink's target is untouched" precious "$(cat "$T/x/keep/precious")"
check "the symlink is still a symlink" 1 "$([ -L "$T/x/sl/$f1" ] && echo 1)"
# a hostile type FourCC ("../x" bytes) still yields a plain name inside the folder
cp "$P" "$T/x/evil.pak"
named=$(od -An -tu4 --endian=big -j 8 -N4 "$T/x/evil.pak" | tr -d ' ')
pos=12 # past the named table (§2.3) to the resource count, then entry 0's type at +8
for ((i = 0; i < named; i++)); do
    l=$(od -An -tu4 --endian=big -j $((pos + 8)) -N4 "$T/x/evil.pak" | tr -d ' ')
    pos=$((pos + 12 + l))
done
printf '../x' | dd of="$T/x/evil.pak" bs=1 seek=$((pos + 4 + 4)) conv=notrunc status=none
mkdir "$T/x/evil"
"$BIN" pak extract -o "$T/x/evil" "$T/x/evil.pak" >/dev/null 2>&1
check "extract of a PAK with a '../x' type" 0 $?
check "its files are all plain names" 0 \
    "$(ls -A "$T/x/evil" | grep -cvE '^[0-9A-F]{8}\.[a-z0-9_]{4}$')"
ls -A "$T/x/evil" | grep -q '\.___x$'
check "the '../x' type became '___x'" 0 $?
check "nothing written in the working folders" "evil evil.pak keep out sl" "$(ls -A "$T/x" | tr '\n' ' ' | sed 's/ $//')"
outside >"$T/ls/after"
diff "$T/ls/before" "$T/ls/after"
check "nothing written outside the output folders" 0 $?

# ---- query arguments are bound ------------------------------------------------------------
npaks=$(sql "$T/h.db" "SELECT count(*) FROM paks")
"$BIN" query --db "$T/h.db" who-references PART "PART'; DROP TABLE paks;--" >"$T/q.out" 2>&1
rc=$?
[ $rc = 2 ] || { [ $rc = 0 ] && [ "$(grep -c . "$T/q.out")" -le 2 ]; }
check "who-references with an injection ID: usage error or no rows (rc $rc)" 0 $?
"$BIN" query --db "$T/h.db" who-references "PART' OR 1=1;--" 0x1 >/dev/null 2>&1
check "who-references with a long injection TYPE: usage error" 2 $?
"$BIN" query --db "$T/h.db" --format csv who-references "P';-" 0x1 >"$T/q1.out" 2>"$T/q1.err"
check "who-references with a 4-character injection TYPE: bound, header only" "0 1" \
    "$? $(wc -l <"$T/q1.out")"
"$BIN" query --db "$T/h.db" --format csv character "x'; DROP TABLE paks;--" >"$T/q2.out" 2>&1
check "character with an injection name: no rows" "0 1" "$? $(wc -l <"$T/q2.out")"
check "paks intact after the injection attempts" "$npaks" "$(sql "$T/h.db" "SELECT count(*) FROM paks")"

# ---- sql is read-only and creates nothing -------------------------------------------------
uv=$(sql "$T/h.db" "PRAGMA user_version")
for stmt in "DROP TABLE paks" "INSERT INTO paks(path) VALUES ('x')" "UPDATE ancs SET game = 'X'" \
    "PRAGMA user_version = 7" "ATTACH DATABASE '$T/att.db' AS a" \
    "VACUUM INTO '$T/vac.db'" "CREATE TEMP TABLE t(a); INSERT INTO t VALUES (1)"; do
    "$BIN" sql --db "$T/h.db" "$stmt" >/dev/null 2>&1
    rc=$?
    [ $rc -ne 0 ]
    check "sql refuses: $stmt (rc $rc)" 0 $?
done
check "no file created by ATTACH or VACUUM INTO" "" "$(ls "$T/att.db" "$T/vac.db" 2>/dev/null)"
check "user_version unchanged by the writes" "$uv" "$(sql "$T/h.db" "PRAGMA user_version")"
check "paks intact after sql writes" "$npaks" "$(sql "$T/h.db" "SELECT count(*) FROM paks")"
finish
