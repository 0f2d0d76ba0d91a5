#!/usr/bin/env bash
# e2e_strg_ingest.sh BINARY SHARED_DIR — hostile STRG resources through a whole ingest
# (docs/formats.md §12), bytes built here by python3 from the layout:
#  - 64 languages whose offsets all point at one table of 20,000 empty strings (120 KB that
#    would decode to 1.28 M strings). §12.4: a STRG decodes into at most 4 x its size + 64 KiB
#    (4 x 120,532 + 65,536 = 547,664 bytes), each empty string counting 13 (12 + its
#    terminator): languages 0 and 1 fit (520,000), language 2 does not, so the `load_errors`
#    row is at its table offset field, byte 16 + 2 x 8 + 4 = 36; no `strings` row of it; the
#    good STRG beside it still loads;
#  - the same with 1,820,000 strings (10.92 MB) under `--memory 32` (33.55 MB): the entry fits
#    the budget (3 x 10.92 MB: stored, inflated, the decoder's copy), language 0 decodes to
#    23.66 MB, which the 4 x rule allows (43.7 MB) but what the budget leaves beside the copy
#    (about 22.6 MB) does not: the row is at a field of language 0 (its table offset, byte 20,
#    or one of its string offsets, bytes 536 to 536 + 4 x 1,820,000) and names the budget;
#  - ENGL listed twice: the first table's strings, and one `strg_language_twice` warning at
#    the second language entry (byte 24).
# Needs no sample corpus.
set -u
. "$(dirname "$0")/lib.sh"
need_tools python3 sqlite3
mkdir -p "$T/p" "$T/q"
python3 - "$T/p/Strg.pak" "$T/q/Big.pak" "$ROOT/tests/cli" <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[3])
from worldbytes import pak  # noqa: E402

def table(texts):
    enc = [t.encode("utf-16-be") + b"\0\0" for t in texts]
    offs, o = [], 4 * len(texts)
    for e in enc:
        offs.append(o)
        o += len(e)
    body = b"".join(struct.pack(">I", x) for x in offs) + b"".join(enc)
    return struct.pack(">I", len(body)) + body

def strg(langs, count, tables, offsets):
    out = struct.pack(">IIII", 0x87654321, 0, len(langs), count)
    out += b"".join(l + struct.pack(">I", o) for l, o in zip(langs, offsets))
    return out + b"".join(tables)

n = 20000
amp = strg([b"L%03d" % i for i in range(64)], n, [table([""] * n)], [0] * 64)
t1, t2 = table(["first"]), table(["second"])
twice = strg([b"ENGL", b"ENGL"], 1, [t1, t2], [0, len(t1)])
good = strg([b"ENGL"], 1, [table(["Good"])], [0])
open(sys.argv[1], "wb").write(pak([(b"STRG", 0x70000001, amp), (b"STRG", 0x70000002, twice),
                                   (b"STRG", 0x70000003, good)]))
n = 1820000
big = strg([b"L%03d" % i for i in range(64)], n, [table([""] * n)], [0] * 64)
open(sys.argv[2], "wb").write(pak([(b"STRG", 0x70000001, big), (b"STRG", 0x70000003, good)]))
PY
DB=$T/s.db
"$BIN" ingest --quiet --game MP1 --db "$DB" "$T/p" 2>"$T/err"
check "ingest of the STRGs: exit 1 (one entry failed)" 1 $?
check "the 64-language STRG: its load_errors row" "decode|36" \
    "$(sqlite3 "$DB" "SELECT stage, byte_offset FROM load_errors WHERE asset_id = 0x70000001")"
check "no strings of it" 0 "$(sqlite3 "$DB" "SELECT count(*) FROM strings WHERE strg_id = 0x70000001")"
check "the good STRG beside it" "Good" \
    "$(sqlite3 "$DB" "SELECT text FROM strings WHERE strg_id = 0x70000003")"
check "ENGL twice: the first table's string" "ENGL|first" \
    "$(sqlite3 "$DB" "SELECT language, text FROM strings WHERE strg_id = 0x70000002")"
check "ENGL twice: one warning at the second entry" "strg_language_twice|24" \
    "$(sqlite3 "$DB" "SELECT code, byte_offset FROM warnings WHERE asset_id = 0x70000002")"

DB=$T/q.db
"$BIN" ingest --quiet --game MP1 --memory 32 --db "$DB" "$T/q" 2>"$T/err"
check "ingest --memory 32 of the large STRG: exit 1" 1 $?
check "the large STRG under --memory 32: a load_errors row at a field of language 0" "decode|1|1" \
    "$(sqlite3 "$DB" "SELECT stage, byte_offset = 20 OR byte_offset BETWEEN 536 AND 536 + 4 * 1819999,
                             message LIKE '%language L000%memory budget%'
                      FROM load_errors WHERE asset_id = 0x70000001")"
check "the good STRG beside the large one" "Good" \
    "$(sqlite3 "$DB" "SELECT text FROM strings WHERE strg_id = 0x70000003")"
finish
