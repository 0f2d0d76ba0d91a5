#!/usr/bin/env bash
# e2e_crash.sh BINARY SHARED_DIR — crash-safe ingest, repeatable. A demo corpus (ancsdb demo
# --build-only, 30 PAKs) is ingested while `ancsdb ingest` is stopped and killed at points
# chosen by the test hooks (docs/testing.md): ANCSDB_TEST_STOP_AFTER=pak:N or entry:N makes the
# ingest stop itself (SIGSTOP) after its N-th PAK or before its N-th entry's rows; while it is
# stopped, readers (`ancsdb sql` checking the committed-state invariant, `ancsdb query
# corpus-summary`) must see a consistent database; then it is killed (SIGKILL). KILLS rounds
# (default 12): two during the bulk load of an empty database, the others while a seeded
# random half of the PAKs (touched) are replaced in a full one. The points and the touched
# PAKs come from a seed, printed: ANCSDB_CRASH_SEED=N repeats a run. After each kill the
# database passes PRAGMA integrity_check and the invariant holds. Then one PAK's content
# changes and the run is killed on entering the final pass (ANCSDB_TEST_KILL_AFTER=final:1).
# A final uninterrupted run must leave exactly the rows of a clean ingest of the same files
# (every table dumped by the sqlite3 shell in a canonical order; pak_id shown as the PAK's
# path; the volatile ingested_at and mtime columns left out). Then a first ingest killed on
# entering its final pass: its PAKs' rows stay, a reader is told, and the next ingest ends
# it as a clean ingest would. Last, a run killed on entering its final pass once every PAK of
# its release was gone: the next ingest, of other PAKs, ends as a clean ingest of them would.
set -u
. "$(dirname "$0")/lib.sh"
need_tools sqlite3
KILLS=${ANCSDB_CRASH_KILLS:-12}
SEED=${ANCSDB_CRASH_SEED:-$(( $(od -An -N2 -tu2 /dev/urandom) ))}
echo "seed: $SEED (ANCSDB_CRASH_SEED=$SEED repeats this run)"
RANDOM=$SEED
STOPPED=
on_exit '[ -n "$STOPPED" ] && kill -9 "$STOPPED" 2>/dev/null'

"$BIN" demo --build-only --quiet --scale 0.1 --seed 7 "$T/corpus" >/dev/null 2>&1
check "demo corpus built" 0 $?
mapfile -t PAKS < <(cd "$T/corpus" && find . -name '*.pak' | sed 's|^\./||' | sort)
npaks=${#PAKS[@]}
[ "$npaks" -ge 10 ] || die "only $npaks PAKs"

q() { sqlite3 -batch -noheader -separator ' ' "$@"; }

# Canonical dump of every table: all columns but the volatile ones and the numbers the
# database picks (content_id, release_id: they follow the order rows were first written in),
# pak_id as the PAK's path.
SKIPCOLS="'ingested_at', 'mtime', 'mtime_ns', 'content_id', 'release_id'"
dump() {
    local db=$1
    q "$db" "SELECT 'SELECT ''== ' || m.name || ''';' || char(10) || 'SELECT ' ||
        (SELECT group_concat(CASE p.name WHEN 'pak_id' THEN
            '(SELECT path FROM paks x WHERE x.pak_id = t.pak_id)' ELSE '\"' || p.name || '\"' END, ', ')
         FROM pragma_table_info(m.name) p WHERE p.name NOT IN ($SKIPCOLS)) ||
        ' FROM \"' || m.name || '\" t ORDER BY ' ||
        (SELECT group_concat(p.cid2, ', ') FROM (SELECT row_number() OVER () AS cid2
         FROM pragma_table_info(m.name) p WHERE p.name NOT IN ($SKIPCOLS)) p) || ';'
        FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
        AND m.sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY m.name" >"$T/dump.sql"
    q "$db" <"$T/dump.sql"
}

# What holds between committed transactions: every 'ok' PAK has all its entries, no entry
# lacks its PAK, every decoded ANCS content has its ancs row.
INVARIANT="SELECT (SELECT count(*) FROM pak_entries) = (SELECT coalesce(sum(resource_count), 0) \
FROM paks WHERE status = 'ok') AND NOT EXISTS (SELECT 1 FROM pak_entries e WHERE NOT EXISTS \
(SELECT 1 FROM paks p WHERE p.pak_id = e.pak_id)) AND (SELECT count(*) FROM contents WHERE \
type = 'ANCS' AND status = 'ok') = (SELECT count(*) FROM ancs)"

# A clean ingest of the original files: the entries of each PAK, for choosing entry points.
"$BIN" ingest --db "$T/first.db" --quiet "$T/corpus" 2>/dev/null
check "clean ingest of the original files" 0 $?
declare -A NENT
while read -r path n; do
    NENT[${path#"$T/corpus/"}]=$n
done < <(q "$T/first.db" "SELECT path, resource_count FROM paks")
total_entries=$(q "$T/first.db" "SELECT sum(resource_count) FROM paks")

DB=$T/crash.db

reads_ok=0 reads_bad=0 kills=0 integrity_bad=0 invariant_bad=0
for round in $(seq 1 "$KILLS"); do
    # Rounds 1-2 stop the first load of an empty database (a bulk load: all or nothing);
    # then one uninterrupted run fills it, and later rounds replace a random half of the PAKs
    # (touched: new mtime), so the kills land between and inside per-PAK transactions.
    entries=$total_entries
    if [ "$round" = 3 ]; then
        "$BIN" ingest --db "$DB" --quiet "$T/corpus" 2>/dev/null
        check "uninterrupted ingest after the killed bulk loads" 0 $?
    fi
    if [ "$round" -ge 3 ]; then
        entries=0
        for p in "${PAKS[@]}"; do
            if [ $((RANDOM % 2)) -eq 0 ]; then
                touch "$T/corpus/$p"
                entries=$((entries + NENT[$p]))
            fi
        done
    fi
    if [ $((round % 2)) = 1 ] || [ "$entries" -lt 2 ]; then
        point=pak:$((RANDOM % (npaks - 1) + 1))
    else
        point=entry:$((RANDOM % (entries - 1) + 1))
    fi
    ANCSDB_TEST_STOP_AFTER=$point "$BIN" ingest --db "$DB" --quiet "$T/corpus" 2>/dev/null &
    pid=$!
    if wait_stopped "$pid"; then
        STOPPED=$pid
        # readers while the writer is stopped in the middle of its run
        if [ -f "$DB" ]; then
            v=$("$BIN" sql --db "$DB" --format tsv "$INVARIANT" 2>"$T/r.err" | tail -n +2)
            if [ "$v" = 1 ] || grep -q "holds no ancsdb data yet" "$T/r.err"; then
                reads_ok=$((reads_ok + 1))
            else
                reads_bad=$((reads_bad + 1))
                echo "round $round ($point): a reader saw '$v' $(cat "$T/r.err")"
            fi
            "$BIN" query --db "$DB" --format tsv corpus-summary >/dev/null 2>"$T/r.err" ||
                grep -Eq 'no ancsdb data' "$T/r.err" || {
                reads_bad=$((reads_bad + 1))
                echo "round $round ($point): corpus-summary failed: $(cat "$T/r.err")"
            }
        fi
        kill -9 "$pid"
        wait "$pid" 2>/dev/null
        [ $? = 137 ] && kills=$((kills + 1))
        STOPPED=
    else
        wait "$pid"
        echo "round $round: the ingest ended (exit $?) before reaching $point"
    fi
    ic=$(q "$DB" "PRAGMA integrity_check" 2>&1)
    [ "$ic" = "ok" ] || {
        integrity_bad=$((integrity_bad + 1))
        echo "round $round ($point): integrity_check: '$ic'"
    }
    # a bulk load killed before its one commit leaves a database with no tables at all
    if [ "$round" -le 2 ] && [ "$(q "$DB" "SELECT count(*) FROM sqlite_master WHERE name = 'paks'")" = 0 ]; then
        echo "round $round: killed at $point; the bulk load left nothing"
        continue
    fi
    inv=$(q "$DB" "$INVARIANT" 2>&1)
    [ "$inv" = "1" ] || {
        invariant_bad=$((invariant_bad + 1))
        echo "round $round ($point): invariant: '$inv'"
    }
    echo "round $round: killed at $point; $(q "$DB" "SELECT count(*) FROM paks") PAK rows committed"
done
check "every round was killed at its chosen point" "$KILLS" "$kills"
check "integrity_check after every kill" 0 "$integrity_bad"
check "committed-state invariant after every kill" 0 "$invariant_bad"
check "readers never saw a half-written state" 0 "$reads_bad"
[ "$reads_ok" -gt 0 ] || bad "no reader ran while a writer was stopped"

# The window between the last PAK commit and the end of the final pass: one PAK's content
# changes (its old ANCS/EVNT must be decoded again from other copies, `assets` rebuilt) and
# the run is killed on entering the final pass.
"$BIN" demo --build-only --quiet --scale 0.05 --seed 9 "$T/alt" >/dev/null 2>&1
victim=$(cd "$T/alt" && find . -name '*.pak' -size +20k | sort | head -1)
[ -n "$victim" ] || die "no PAK over 20 KiB in the second demo corpus"
cp "$T/alt/$victim" "$T/corpus/$victim"
ANCSDB_TEST_KILL_AFTER=final:1 "$BIN" ingest --db "$DB" --quiet "$T/corpus" 2>/dev/null
check "killed on entering the final pass after $victim changed" 137 $?

# resume without interruption
"$BIN" ingest --db "$DB" --quiet "$T/corpus" 2>"$T/final.err"
check "resumed ingest exit status" 0 $?
grep -v '^ingest: ' "$T/final.err" | head -5
check "integrity_check at the end" ok "$(q "$DB" "PRAGMA integrity_check")"
# reference: one clean ingest of the same (final) files
"$BIN" ingest --db "$T/ref.db" --quiet "$T/corpus" 2>"$T/ref.err"
check "clean ingest exit status" 0 $?
dump "$T/ref.db" >"$T/ref.dump"
check "reference dump has ANCS rows" 1 "$(grep -c '^== ancs$' "$T/ref.dump")"
dump "$DB" >"$T/final.dump"
same_file "database after kills + resume holds exactly what a clean ingest holds" \
    "$T/ref.dump" "$T/final.dump"

# A first ingest commits its PAKs' rows before its final pass: killed on entering that pass,
# it leaves them, and says so to readers, until the next ingest of the same paths ends it as
# a clean ingest would.
ANCSDB_TEST_KILL_AFTER=final:1 "$BIN" ingest --db "$T/first.db" --quiet "$T/corpus" 2>/dev/null
check "first ingest killed on entering its final pass" 137 $?
check "its PAKs' rows are committed" "$npaks" "$(q "$T/first.db" "SELECT count(*) FROM paks")"
check "its final pass is pending" 1 \
    "$(q "$T/first.db" "SELECT value FROM ingest_state WHERE key = 'final_pass_pending'")"
"$BIN" query --db "$T/first.db" corpus-summary >/dev/null 2>"$T/pending.err"
check "a reader is told the final pass is pending" 1 \
    "$(grep -c 'has not finished its final pass' "$T/pending.err")"
"$BIN" ingest --db "$T/first.db" --quiet "$T/corpus" 2>/dev/null
check "the next ingest of the same paths" 0 $?
"$BIN" query --db "$T/first.db" corpus-summary >/dev/null 2>"$T/done.err"
check "no note once it is done" 0 "$(grep -c 'final pass' "$T/done.err")"
dump "$T/first.db" >"$T/first.dump"
same_file "the first ingest killed in its final pass, then finished, holds what a clean ingest holds" \
    "$T/ref.dump" "$T/first.dump"
# A first ingest builds some of its indexes in its final pass (docs/architecture.md): killed
# before it, the next ingest's final pass builds them. Every index of the schema files (made by
# the sqlite3 shell) must be there, on it and on the clean ingest's database.
cat "$ROOT"/db/schema/*.sql | q "$T/schema.db" || bad "the schema files in the sqlite3 shell"
indexes="SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name"
q "$T/schema.db" "$indexes" >"$T/indexes.want"
check "the schema files have indexes" 1 "$([ "$(wc -l <"$T/indexes.want")" -gt 20 ] && echo 1)"
q "$T/first.db" "$indexes" >"$T/indexes.first"
same_file "every index of the schema, after the ingest that finished the killed one" \
    "$T/indexes.want" "$T/indexes.first"
q "$T/ref.db" "$indexes" >"$T/indexes.ref"
same_file "every index of the schema, after a clean first ingest" "$T/indexes.want" "$T/indexes.ref"

# A first ingest commits its rows, then builds the indexes its final pass reads first in a
# transaction of their own: killed in between, it leaves the rows without those indexes, and
# the next ingest's final pass builds them with the others.
ANCSDB_TEST_KILL_AFTER=rows:1 "$BIN" ingest --db "$T/rows.db" --quiet "$T/corpus" 2>/dev/null
check "first ingest killed once its rows are committed" 137 $?
check "its PAKs' rows are there" "$npaks" "$(q "$T/rows.db" "SELECT count(*) FROM paks")"
check "its final pass is pending" 1 \
    "$(q "$T/rows.db" "SELECT value FROM ingest_state WHERE key = 'final_pass_pending'")"
check "the indexes the final pass reads first are not built yet" 0 \
    "$(q "$T/rows.db" "SELECT count(*) FROM sqlite_master WHERE name = 'events_owner'")"
"$BIN" ingest --db "$T/rows.db" --quiet "$T/corpus" 2>/dev/null
check "the next ingest of the same paths, after the kill between the commits" 0 $?
dump "$T/rows.db" >"$T/rows.dump"
same_file "killed between its two commits, then finished: what a clean ingest holds" \
    "$T/ref.dump" "$T/rows.dump"
q "$T/rows.db" "$indexes" >"$T/indexes.rows"
same_file "every index of the schema, after the ingest that finished it" \
    "$T/indexes.want" "$T/indexes.rows"
check "integrity_check of it" ok "$(q "$T/rows.db" "PRAGMA integrity_check")"

# A run killed on entering its final pass after every PAK of its release was gone leaves
# contents and no PAK. The next ingest is no first ingest: its final pass removes the
# contents no entry holds, and it ends with what a clean ingest of its files holds.
mkdir -p "$T/gone"
cp -R "$T/alt/." "$T/gone/"
"$BIN" ingest --db "$T/gone.db" --quiet "$T/gone" 2>/dev/null
check "an ingest of the second demo corpus" 0 $?
find "$T/gone" -name '*.pak' -delete
ANCSDB_TEST_KILL_AFTER=final:1 "$BIN" ingest --db "$T/gone.db" --quiet "$T/gone" 2>/dev/null
check "killed on entering the final pass once every PAK was gone" 137 $?
check "no PAK is left" 0 "$(q "$T/gone.db" "SELECT count(*) FROM paks")"
check "the contents are left" 1 "$(q "$T/gone.db" "SELECT count(*) > 0 FROM contents")"
cp -R "$T/corpus/." "$T/gone/"
"$BIN" ingest --db "$T/gone.db" --quiet "$T/gone" 2>/dev/null
check "the next ingest, of other PAKs in the same place" 0 $?
"$BIN" ingest --db "$T/gone_ref.db" --quiet "$T/gone" 2>/dev/null
check "a clean ingest of them" 0 $?
dump "$T/gone_ref.db" >"$T/gone_ref.dump"
dump "$T/gone.db" >"$T/gone.dump"
same_file "contents left by a killed run with no PAK, then an ingest: what a clean ingest holds" \
    "$T/gone_ref.dump" "$T/gone.dump"
finish
