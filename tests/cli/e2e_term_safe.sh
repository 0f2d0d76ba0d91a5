#!/usr/bin/env bash
# e2e_term_safe.sh ANCSDB — every line ancsdb prints goes through the one string policy
# (CONTRACT.md "Events, sounds, and asking by name"): PAK file names, folder names and name-map
# keys holding ESC ] 0 ; ... BEL (a title change), ESC [ 2 J (clear screen), the C1 controls
# U+009B (CSI) and U+009D (OSC) as UTF-8 and as lone bytes never reach stderr or stdout raw.
# The ingest summary's suggested command shell-quotes --db: run by bash as printed, it opens
# a database whose path holds a ' (python3 reads the output bytes; bash runs the command).
set -u
. "$(dirname "$0")/lib.sh"
BIN=$(realpath "$BIN")
need_tools python3

# names with every kind of control the policy must stop
python3 - "$T" <<'PY'
import os, sys
t = sys.argv[1].encode()
evil = [b"\x1b]0;owned\x07", b"\x1b[2J", "\u009b".encode(), "\u009d".encode(), b"\x9b", b"\x9d"]
folder = os.path.join(t, b"in", b"dir" + b"".join(evil))
os.makedirs(folder)
for k, e in enumerate(evil):
    # not a PAK: each is one fault line naming its path
    with open(os.path.join(folder, b"bad%d" % k + e + b".pak"), "wb") as f:
        f.write(b"\x00\x03\x00\x05" + b"\xff" * 60)
# a name map whose key holds C1 controls (XML 1.0 allows them as character references)
with open(os.path.join(t, b"map.xml"), "wb") as f:
    f.write(b'<?xml version="1.0"?>\n<AssetNameMap><AssetNameMap><Asset><Key>&#x9B;2J&#x9D;0;x'
            b'</Key><Value><Name>n</Name><Directory></Directory><Type>CMDL</Type>'
            b'<AutoGenName>false</AutoGenName><AutoGenDir>false</AutoGenDir></Value></Asset>'
            b'</AssetNameMap></AssetNameMap>\n')
PY

raw_check() { # raw_check WHAT FILE: no C0 control but \n, no DEL, no C1 (as UTF-8 or a byte)
    python3 - "$1" "$2" <<'PY' || fail=1
import sys
what, path = sys.argv[1], sys.argv[2]
b = open(path, "rb").read()
bad = [c for c in b if (c < 0x20 and c != 0x0A) or c == 0x7F]
text = b.decode("utf-8", errors="surrogateescape")
bad += [hex(ord(c)) for c in text if 0x80 <= ord(c) <= 0x9F or 0xDC80 <= ord(c) <= 0xDCFF]
if bad:
    print("FAIL: %s: raw control or non-UTF-8 bytes reach the terminal: %r" % (what, bad[:8]))
    sys.exit(1)
if not b.strip():
    print("FAIL: %s: nothing printed" % what)
    sys.exit(1)
print("ok: %s: %d bytes, all terminal-safe" % (what, len(b)))
PY
}

DB="$T/it's here.db"
"$BIN" ingest --game MP1 --db "$DB" "$T/in" >"$T/ing.out" 2>"$T/ing.err"
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: ingest of 6 bad PAKs: exit $rc, want 1"; fail=1; }
raw_check "ingest stderr (fault lines with PAK and folder names)" "$T/ing.err"
n=$(grep -c '^ancsdb: .*bad[0-9].*\.pak pak' "$T/ing.err")
[ "$n" -eq 6 ] || { echo "FAIL: want 6 fault lines naming the PAKs, got $n"; fail=1; }
grep -qF 'bad0\x1b]0;owned\x07.pak' "$T/ing.err" || { echo "FAIL: ESC/BEL not shown as \\x1b/\\x07"; fail=1; }
grep -qF 'bad2\x9b.pak' "$T/ing.err" && grep -qF 'bad5\x9d.pak' "$T/ing.err" ||
    { echo "FAIL: C1 controls not shown as \\x9b/\\x9d"; fail=1; }

# the suggested command, run by bash exactly as printed, opens the database
cmd=$(sed -n 's/.*could not be read: \(.*\) lists them$/\1/p' "$T/ing.err")
[ -n "$cmd" ] || { echo "FAIL: no suggested command in: $(cat "$T/ing.err")"; fail=1; }
case "$cmd" in ancsdb\ *) ;; *) echo "FAIL: suggestion does not start with ancsdb: $cmd"; fail=1 ;; esac
(
    cd "$T" && ancsdb() { "$BIN" "$@"; } && eval "$cmd --format tsv" >"$T/sug.out" 2>"$T/sug.err"
) || { echo "FAIL: the suggested command does not run: $cmd: $(cat "$T/sug.err")"; fail=1; }
n=$(($(wc -l <"$T/sug.out") - 1))
[ "$n" -eq 6 ] || { echo "FAIL: the suggested command lists $n load errors, want 6"; fail=1; }

# a name-map key with C1 controls in the refusal message
"$BIN" names import --db "$DB" "$T/map.xml" >"$T/names.out" 2>"$T/names.err"
rc=$?
[ $rc -ne 0 ] || { echo "FAIL: a map with a bad key was accepted"; fail=1; }
raw_check "names import stderr (a name-map key)" "$T/names.err"
grep -qF "\\x9b2J\\x9d0;x" "$T/names.err" || { echo "FAIL: key not shown escaped: $(cat "$T/names.err")"; fail=1; }

# stdout: report's index path and pak extract's summary hold data too
"$BIN" report --quiet --db "$DB" -o "$T/rep$(printf '\033[2J')" >"$T/rep.out" 2>"$T/rep.err"
raw_check "report stdout (the folder given)" "$T/rep.out"
# the demo's lines name the files it writes in the folder given
"$BIN" demo --quiet --scale 0.01 "$T/demo$(printf '\033[2J')" >"$T/demo.out" 2>"$T/demo.err"
raw_check "demo stdout (the files it wrote in the folder given)" "$T/demo.out"

# JSON (issue 20 item 9): a valid U+009B and a lone byte 0x9B are told apart, and the bytes come
# back exactly (python3 reads \\udcXX as the byte XX with errors="surrogateescape")
"$BIN" sql --db "$DB" --format json \
    "SELECT CAST(x'c29b9b' AS TEXT) AS s, CAST(x'41c29d9d42ff' AS TEXT) AS t" >"$T/j.out"
python3 - "$T/j.out" <<'PY' || fail=1
import json, sys
raw = open(sys.argv[1], "rb").read()
row = json.loads(raw.decode("utf-8", errors="strict"))[0]
for k, want in (("s", b"\xc2\x9b\x9b"), ("t", b"A\xc2\x9d\x9dB\xff")):
    got = row[k].encode("utf-8", errors="surrogateescape")
    if got != want:
        print("FAIL: JSON %s: bytes %r come back as %r (%s)" % (k, want, got, raw))
        sys.exit(1)
print("ok: JSON keeps a valid C1 control and a lone C1 byte apart")
PY

# csv and tsv on a terminal (a pseudo-terminal made by script(1)) are escaped as a table's
# cells are; into a pipe or file they keep the bytes as they are (data for other programs)
if command -v script >/dev/null 2>&1; then
    for fmt in csv tsv; do
        q="SELECT CAST(x'1b5d303b6f776e656407' AS TEXT) AS \"t$(printf '\033')[2J\", CAST(x'41c29b9d42' AS TEXT) AS u"
        printf '%s' "$q" >"$T/q.sql"
        script -qec "stty -onlcr; \"$BIN\" sql --db \"$DB\" --format $fmt \"\$(cat '$T/q.sql')\"" /dev/null >"$T/tty.raw" 2>&1
        # CSV ends its lines with CR LF (RFC 4180): that CR is the format's, not the data's
        # (and TSV's tab between fields is the format's too)
        python3 -c 'import sys; b = open(sys.argv[1], "rb").read(); open(sys.argv[2], "wb").write(b.replace(b"\r\n", b"\n").replace(b"\t", b" "))' \
            "$T/tty.raw" "$T/tty.out"
        raw_check "sql --format $fmt on a terminal" "$T/tty.out"
        grep -qF '\x1b]0;owned\x07' "$T/tty.out" || { echo "FAIL: $fmt on a terminal: ESC/BEL not shown as \\x1b/\\x07: $(cat -v "$T/tty.out")"; fail=1; }
        "$BIN" sql --db "$DB" --format $fmt "$(cat "$T/q.sql")" >"$T/pipe.out"
        python3 -c 'import sys; sys.exit(0 if b"\x1b]0;owned\x07" in open(sys.argv[1], "rb").read() else 1)' "$T/pipe.out" ||
            { echo "FAIL: $fmt into a file: the bytes are not kept as they are"; fail=1; }
    done
else
    echo "note: script(1) missing: csv/tsv on a terminal not checked"
fi

finish
