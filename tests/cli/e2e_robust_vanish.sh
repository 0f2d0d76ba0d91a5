#!/usr/bin/env bash
# e2e_robust_vanish.sh BINARY SHARED_DIR — PAK files that vanish during a first ingest. The
# read-ahead thread opens the two PAK files after the current one, and idle workers hash
# their entries ahead (docs/architecture.md, step 4). The ingest of a copy of the sample
# corpus's mp1 folder stops itself after its third PAK (ANCSDB_TEST_STOP_AFTER=pak:3, a test
# hook); the next two PAK files are removed, and it goes on. Whether or not they were opened
# and hashed by then: each is one load_errors row ('cannot stat'), no PAK row of its own,
# and every other PAK's rows are those of a clean ingest of the folder without them (entries
# with their hashes, and the counts of the decoded tables, read by the sqlite3 shell). Under the sanitizers (the test
# build) a use of the closed PAKs, or a leak of what was hashed of them, fails the run.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus mp1
need_tools sqlite3
STOPPED=
on_exit '[ -n "$STOPPED" ] && kill -9 "$STOPPED" 2>/dev/null'

cp -r "$CORPUS/mp1" "$T/in"
chmod -R u+w "$T/in"
mapfile -t PAKS < <(cd "$T/in" && find . -name '*.pak' | sed 's|^\./||' | LC_ALL=C sort)
[ "${#PAKS[@]}" -ge 6 ] || die "only ${#PAKS[@]} PAKs in the sample mp1 folder"
A=$(cd "$T/in" && pwd -P)
gone=("${PAKS[3]}" "${PAKS[4]}")

ANCSDB_TEST_STOP_AFTER=pak:3 "$BIN" ingest --quiet --db "$T/a.db" "$T/in" 2>"$T/e1" &
pid=$!
wait_stopped $pid || die "the ingest ended before its third PAK was done: $(cat "$T/e1")"
STOPPED=$pid
rm "$T/in/${gone[0]}" "$T/in/${gone[1]}"
kill -CONT $pid
STOPPED=
wait $pid
check "exit status (two PAKs could not be read)" 1 $?

q() { sqlite3 -batch -noheader -separator '|' "$@"; }
check "load_errors: the two removed PAKs" \
    "$A/${gone[0]}|pak|cannot stat: No such file or directory $A/${gone[1]}|pak|cannot stat: No such file or directory " \
    "$(q "$T/a.db" "SELECT pak_path, stage, message FROM load_errors ORDER BY pak_path" | tr '\n' ' ')"
check "PAK rows: every other PAK, ok" "$((${#PAKS[@]} - 2))|$((${#PAKS[@]} - 2))" \
    "$(q "$T/a.db" "SELECT count(*), sum(status = 'ok') FROM paks")"
check "integrity_check" ok "$(q "$T/a.db" "PRAGMA integrity_check")"

# the same folder without the two PAKs, ingested in one go
cp -r "$T/in" "$T/clean"
"$BIN" ingest --quiet --db "$T/b.db" "$T/clean" 2>"$T/e2"
check "clean ingest: exit status" 0 $?
ENTRIES="SELECT p.release_path, e.entry_index, e.type, e.asset_id, e.compressed,
    e.decompressed_size, e.content_hash, e.stored_hash, c.hash
  FROM pak_entries e JOIN paks p USING (pak_id) LEFT JOIN contents c USING (content_id)
  ORDER BY 1, 2"
q "$T/a.db" "$ENTRIES" >"$T/a.entries"
q "$T/b.db" "$ENTRIES" >"$T/b.entries"
[ -s "$T/b.entries" ] || bad "the clean ingest has no entries"
same_file "every other PAK's entries and content hashes, as a clean ingest's" \
    "$T/b.entries" "$T/a.entries"
# independent of the tool: the corpus's list of every entry (sizes without padding, which
# the jobs, or the workers ahead of them, take from the bytes they hash), and its CRC-32 of
# each resource's bytes: entries with one CRC-32 share one content hash (the converse need
# not hold: a content is its bytes without trailing 0xFF, and the list's sizes keep some)
awk -F'\t' -v g1="${gone[0]}" -v g2="${gone[1]}" \
    '$1 == "mp1" && $2 != g1 && $2 != g2 {print $2 "|" $3 "|" $4 "|" $5 "|" $6 "|" $9}' \
    "$CORPUS/resources.tsv" | LC_ALL=C sort >"$T/want.entries"
q "$T/a.db" "SELECT p.release_path, e.entry_index, e.type, e.asset_id, e.compressed,
    e.decompressed_size FROM pak_entries e JOIN paks p USING (pak_id)" | LC_ALL=C sort \
    >"$T/got.entries"
same_file "every other PAK's entries, as resources.tsv lists them" "$T/want.entries" \
    "$T/got.entries"
awk -F'\t' -v g1="${gone[0]}" -v g2="${gone[1]}" \
    '$1 == "mp1" && $2 != g1 && $2 != g2 {print $2 "|" $3 "|" $10}' "$CORPUS/resources.tsv" \
    >"$T/crc"
q "$T/a.db" "SELECT p.release_path, e.entry_index, e.content_hash FROM pak_entries e
    JOIN paks p USING (pak_id)" >"$T/hash"
classes=$(awk -F'|' 'NR == FNR {crc[$1 "|" $2] = $3; next}
    {k = $1 "|" $2; if (!(k in crc)) {print "missing " k; exit}
     pair[crc[k] "|" $3]; c[crc[k]]}
    END {n = 0; for (x in pair) n++; m = 0; for (x in c) m++; print n, m}' "$T/crc" "$T/hash")
set -- $classes
check "one content hash for each of the corpus's CRC-32s" "$2" "$1"
for t in contents characters char_reach events asset_refs area_deps strings; do
    check "rows of $t, as a clean ingest's" "$(q "$T/b.db" "SELECT count(*) FROM $t")" \
        "$(q "$T/a.db" "SELECT count(*) FROM $t")"
done
finish
