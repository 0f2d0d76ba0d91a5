#!/usr/bin/env bash
# e2e_same_release.sh BINARY SHARED_DIR — a Dolphin-extracted copy of a disc image already
# ingested (issue 20 item 13): the same release read from another place, nothing changed; the
# summary says so (0 changed, every PAK unchanged, read from another copy) and the database
# holds the same PAK entries. PAK count from truth.json.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus extracted/GM8E01_02
need_tools python3
n=$(python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["releases"]:
    if r["extracted"] == "extracted/GM8E01_02":
        print(r["pak_count"])' "$CORPUS/truth.json")
sq() { "$BIN" sql --db "$T/x.db" --format tsv "$1" | tail -1; }
entries="SELECT count(*) || ' ' || sum(content_hash % 1000) FROM pak_entries"
"$BIN" ingest --quiet --db "$T/x.db" "$CORPUS/iso/GM8E01_02.iso" 2>"$T/err1"
check "the image: exit status" 0 $?
before=$(sq "$entries")
"$BIN" ingest --db "$T/x.db" "$CORPUS/extracted/GM8E01_02" 2>"$T/err2"
check "its extracted copy: exit status" 0 $?
grep -Eq "^ingest: $n PAKs \\(0 changed, $n unchanged; $n of them read from another copy of the same release, nothing changed\\), 0 resources" "$T/err2"
check "the summary says nothing changed, read from another copy" 0 $?
[ $fail = 0 ] || cat "$T/err2"
check "the same entries" "$before" "$(sq "$entries")"
check "its PAKs are now read from files/" "$n" "$(sq "SELECT count(*) FROM paks WHERE path LIKE '%/files/%'")"
finish
