#!/usr/bin/env bash
# e2e_entry_sizes.sh BINARY SHARED_DIR — every pak_entries row's stored and inflated size as
# the sample corpus's resources.tsv gives it, however the ingest read the PAK: from folders
# with the workers and with --jobs 1 (the compressed entries' heads read first, a stored
# entry's size without padding from its bytes: docs/formats.md §2.8), and from the two disc
# images holding mp1/ and mp2/ (each entry's sizes read just before its job).
set -u
. "$(dirname "$0")/lib.sh"
need_corpus mp1 mp2 iso/GM8E01_00.iso iso/G2ME01_00.iso
need_tools python3

# resources.tsv as "GAME PAK INDEX COMPRESSED STORED INFLATED" lines, sorted
python3 - "$CORPUS/resources.tsv" >"$T/want" <<'PY' || die "cannot read resources.tsv"
import csv, sys
with open(sys.argv[1]) as f:
    rows = [r for r in csv.DictReader(f, delimiter="\t")]
for r in sorted(rows, key=lambda r: (r["game"].upper(), r["pak"], int(r["index"]))):
    print(r["game"].upper(), r["pak"], r["index"], 1 if r["compressed"] != "0" else 0,
          r["stored_size"], r["decompressed_size"])
PY
[ -s "$T/want" ] || die "resources.tsv has no rows"

got() { # DB: the same lines from pak_entries, as the ingest wrote them
    "$BIN" sql --db "$1" --format tsv "SELECT p.game, p.release_path, e.entry_index,
        e.compressed <> 0, e.stored_size, e.decompressed_size
        FROM pak_entries e JOIN paks p USING (pak_id)
        ORDER BY p.game, p.release_path, e.entry_index" | tail -n +2 | tr '\t' ' '
}

one() { # LABEL ARGS...: ingest ARGS into a new database and compare
    local label=$1
    shift
    rm -f "$T/s.db" "$T/s.db-wal" "$T/s.db-shm"
    "$BIN" ingest --quiet --db "$T/s.db" "$@" >/dev/null 2>"$T/err"
    check "$label: ingest exit status" 0 $?
    got "$T/s.db" >"$T/got"
    if cmp -s "$T/want" "$T/got"; then
        check "$label: every entry's sizes as resources.tsv" 0 0
    else
        diff "$T/want" "$T/got" | head -5
        check "$label: every entry's sizes as resources.tsv" 0 1
    fi
}

one "folders" "$CORPUS/mp1" "$CORPUS/mp2"
one "folders, --jobs 1" --jobs 1 "$CORPUS/mp1" "$CORPUS/mp2"
one "disc images" "$CORPUS/iso/GM8E01_00.iso" "$CORPUS/iso/G2ME01_00.iso"
one "disc images, --jobs 1" --jobs 1 "$CORPUS/iso/GM8E01_00.iso" "$CORPUS/iso/G2ME01_00.iso"
finish
