#!/usr/bin/env bash
# e2e_output.sh — output a user can trust: table text is terminal-safe (no raw control byte
# reaches stdout; shown as \x1b), NULL is an empty cell that keeps columns aligned, a BLOB
# prints as x'..', JSON (--format json and ancs dump --json) is always valid UTF-8 (UTF-8
# passes through, other bytes as \udcXX), integer columns print as hex IDs by the table column
# they come from (not by their name), v_load_errors shows a missing offset as empty, and the
# examples of `sql --help` run. Expected values from python3 and the sqlite3 shell.
# usage: bash e2e_output.sh ANCSDB [SHARED_DIR]
set -u
. "$(dirname "$0")/lib.sh"
need_tools python3
HAVE_SQLITE3=0
command -v sqlite3 >/dev/null && HAVE_SQLITE3=1

# A tiny MP1 PAK whose named-resource names hold an escape sequence, a UTF-8 e-acute, a
# Latin-1 byte and a newline (docs/formats.md §2.3: names are bytes with a length).
python3 - "$T/paks/names.pak" <<'PY'
import os, struct, sys
os.makedirs(os.path.dirname(sys.argv[1]), exist_ok=True)
names = [(b"CMDL", 0x0419F84B, b"evil\x1b[2Jname"), (b"TXTR", 0x1A2B3C4D, b"caf\xc3\xa9"),
         (b"TXTR", 0x00000010, b"latin\xe9"), (b"TXTR", 0x00000020, b"two\nlines")]
res = [(0, t, i, t + bytes(28)) for t, i, _ in names]
head = struct.pack(">III", 0x00030005, 0, len(names))
for t, i, n in names:
    head += t + struct.pack(">II", i, len(n)) + n
off = (len(head) + 4 + 20 * len(res) + 31) // 32 * 32
table = struct.pack(">I", len(res))
data = b""
for c, t, i, d in res:
    table += struct.pack(">I", c) + t + struct.pack(">III", i, len(d), off + len(data))
    data += d
body = head + table
open(sys.argv[1], "wb").write(body + b"\xff" * (off - len(body)) + data)
PY
"$BIN" ingest --quiet --game MP1 --db "$T/n.db" "$T/paks" 2>"$T/ingest.err"
check "ingest of the names PAK" 0 $?
DB="$T/n.db"

# --- table output is terminal-safe
"$BIN" sql --db "$DB" "SELECT name FROM pak_names ORDER BY asset_id" >"$T/t.out"
check "sql table exit" 0 $?
python3 - "$T/t.out" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
bad = [c for c in b if (c < 0x20 and c != 0x0A) or c == 0x7F]
sys.exit(1 if bad else 0)
PY
check "no raw control byte in table output" 0 $?
grep -qF 'evil\x1b[2Jname' "$T/t.out"
check "ESC shown as \\x1b" 0 $?
grep -qF 'two\nlines' "$T/t.out"
check "newline shown as \\n, one line per row" 0 $?
grep -qF 'latin\xe9' "$T/t.out"
check "byte that is not UTF-8 shown as \\xe9" 0 $?
grep -qF "$(printf 'caf\xc3\xa9')" "$T/t.out"
check "UTF-8 passes through" 0 $?
check "table rows: header, rule, 4 names" 6 "$(wc -l <"$T/t.out")"

# --- JSON is valid UTF-8 and keeps the text
"$BIN" sql --db "$DB" --format json "SELECT asset_id, name FROM pak_names ORDER BY asset_id" >"$T/j.out"
python3 - "$T/j.out" <<'PY'
import json, sys
rows = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", errors="strict"))
names = {r["asset_id"]: r["name"] for r in rows}
assert names["0419F84B"] == "evil\x1b[2Jname", names
assert names["1A2B3C4D"] == "caf\u00e9", names
assert names["00000010"] == "latin\udce9", names  # the byte E9 as U+DCE9
assert names["00000020"] == "two\nlines", names
PY
check "JSON: strict UTF-8, parses, values kept (python3)" 0 $?

# --- NULL: empty and aligned; BLOB closed; numbers right-aligned
"$BIN" sql --db "$DB" "SELECT NULL AS a, 1 AS b, x'00ff' AS c UNION ALL SELECT 'xyz', 22, NULL" >"$T/n.out"
printf '%s\n' "a    b   c" "---  --  -------" "      1  x'00FF'" "xyz  22" |
    sed 's/ *$//' >"$T/n.want"
sed 's/ *$//' "$T/n.out" >"$T/n.got"
check "NULL empty and aligned, BLOB as x'00FF'" "$(cat "$T/n.want")" "$(cat "$T/n.got")"
"$BIN" sql --db "$DB" --format csv "SELECT x'0a1b' AS b, NULL AS n" | tr -d '\r' >"$T/c.out"
check "csv BLOB and NULL" "b,n x'0A1B'," "$(tr '\n' ' ' <"$T/c.out" | sed 's/ $//')"

# --- hex by the column's origin, not its name
"$BIN" sql --db "$DB" --format tsv "SELECT p.asset_id, p.asset_id + 0 AS computed, \
count(*) OVER () AS asset_id, e.entry_index AS ancs_id FROM pak_names p JOIN pak_entries e \
USING (pak_id, asset_id) WHERE p.asset_id = 0x1A2B3C4D" >"$T/h.out"
check "asset_id column hex, computed and renamed ones decimal" \
    "asset_id	computed	asset_id	ancs_id 1A2B3C4D	439041101	1	1" \
    "$(tr '\n' ' ' <"$T/h.out" | sed 's/ $//')"
"$BIN" query --db "$DB" --format tsv asset-locations TXTR 1A2B3C4D | head -2 | tail -1 | cut -f5 >"$T/q.out"
check "named query: asset_id hex" "1A2B3C4D" "$(cat "$T/q.out")"

# --- v_load_errors: a missing offset is empty, not 0x0
mkfifo "$T/paks/fifo.pak"
"$BIN" ingest --game MP1 --db "$DB" "$T/paks" 2>"$T/fifo.err"
check "ingest with a FIFO: exit 1" 1 $?
# every fault line starts with ancsdb: and names the full path (only the summary is "ingest:")
check "stderr lines: ancsdb: or the summary" 0 "$(grep -cvE '^(ancsdb: |ingest: )' "$T/fifo.err")"
grep -q "^ancsdb: $T/paks/fifo.pak pak: " "$T/fifo.err"
check "the fault line names the full path" 0 $?
"$BIN" sql --db "$DB" --format tsv "SELECT at FROM v_load_errors" >"$T/v.out"
if [ "$HAVE_SQLITE3" = 1 ]; then
    check "the FIFO's error has no offset (sqlite3)" 1 \
        "$(sqlite3 "$DB" "SELECT count(*) FROM load_errors WHERE byte_offset IS NULL")"
fi
check "v_load_errors: missing offset empty (one row, empty)" "at|" "$(tr '\n' '|' <"$T/v.out" | sed 's/|$//')"
rm -f "$T/paks/fifo.pak"

# --- ancs dump: JSON valid UTF-8 with the name's UTF-8 kept; the tree terminal-safe
if have_corpus mp1; then
    pak="$CORPUS/mp1/Metroid1.pak"
    id=$("$BIN" pak list --type ANCS --format tsv "$pak" | sed -n 2p | cut -f3)
    "$BIN" pak extract --type ANCS --id "$id" -o "$T/x" "$pak" 2>/dev/null
    f="$T/x/$id.ancs"
    name=$("$BIN" ancs dump --json "$f" | python3 -c 'import json,sys; print(json.load(sys.stdin)["characters"][0]["name"])')
    # patch the first character's name in place: one byte as UTF-8's lead... keep the length:
    # "ab..." -> "\xc3\xa9" + "\x1b" + rest (same byte count)
    python3 - "$f" "$name" <<'PY'
import sys
path, name = sys.argv[1], sys.argv[2].encode()
b = open(path, "rb").read()
i = b.index(name + b"\0")
assert len(name) >= 4, name
new = b"\xc3\xa9\x1b\xe9" + name[4:]
open(path, "wb").write(b[:i] + new + b[i + len(name):])
PY
    "$BIN" ancs dump --json "$f" >"$T/d.json"
    check "ancs dump --json exit" 0 $?
    python3 - "$T/d.json" "$name" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", errors="strict"))
want = "\u00e9\x1b\udce9" + sys.argv[2][4:]
assert d["characters"][0]["name"] == want, (d["characters"][0]["name"], want)
PY
    check "ancs dump --json: UTF-8 kept, ESC escaped, bad byte as \\udce9 (python3)" 0 $?
    "$BIN" ancs dump "$f" >"$T/d.txt"
    python3 - "$T/d.txt" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
sys.exit(1 if any((c < 0x20 and c != 0x0A) or c == 0x7F for c in b) else 0)
PY
    check "ancs dump tree: no raw control byte" 0 $?
    grep -qF "$(printf '\xc3\xa9')\\x1b\\xe9" "$T/d.txt"
    check "ancs dump tree: shown escaped" 0 $?
else
    echo "e2e_output: no corpus, skipping the ancs dump checks"
fi

# --- the examples in `sql --help` run as written (against this database)
"$BIN" sql --help | grep -E '^  ancsdb sql ' | sed 's/^  //' >"$T/examples"
check "sql --help has examples" 1 "$([ -s "$T/examples" ] && echo 1 || echo 0)"
while IFS= read -r ex; do
    eval "set -- ${ex#ancsdb sql }"
    "$BIN" sql --db "$DB" "$@" >/dev/null 2>"$T/ex.err"
    rc=$?
    check "sql --help example runs: $ex ($(head -c 200 "$T/ex.err"))" 0 $rc
done <"$T/examples"

finish
