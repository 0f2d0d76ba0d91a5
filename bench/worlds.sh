#!/usr/bin/env bash
# bench/worlds.sh — what decoding the worlds (MLVL, STRG) costs an ingest, and how fast the
# world queries answer (docs/benchmark.md "Worlds"). Needs the disc images of bench/run.sh
# ($BENCH_DIR/images-1x and images-10x; run.sh writes them, or `ancsdb demo --images-only`).
#   - "with": this tree's release binary; "without": the same sources with MLVL and STRG left
#     undecoded (ing_decoded_type patched to ANCS/EVNT only, in a copy built apart), so the
#     two differ by the world decoding, its rows and its final pass only; "decoded": the same
#     sources with MLVL and STRG decoded but none of their rows written (db_put_mlvl,
#     db_put_mlvl_refs and db_put_strg patched to write nothing, in a third copy), so that
#     "decoded" against "without" is what the decoders cost, "with" against "decoded" what the
#     rows cost;
#   - the four images of each size ingested into an empty database, the three binaries
#     alternating, BENCH_REPS (default 5) runs each: median user+sys CPU and median wall;
#   - with BENCH_FOLDERS=1, the PAK folders of bench/run.sh too (real-size resources: 1x, and
#     10x with BENCH_REAL10=1; run.sh BENCH_FOLDERS=1 builds them), measured the same way;
#   - the named world queries on the 10x database of "with" (whole process, median of
#     BENCH_QREPS, default 11).
# The machine may be loaded: CPU time (user + sys, /usr/bin/time) is the figure to compare.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${BENCH_BUILD:-build/release}
W=${BENCH_DIR:-build/bench}
REPS=${BENCH_REPS:-5}
QREPS=${BENCH_QREPS:-11}
SIZES=${BENCH_SIZES:-"1x 10x"}
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DANCSDB_SANITIZE=OFF >/dev/null
cmake --build "$B" -j "$(nproc)" --target ancsdb >/dev/null
# a copy of this tree's sources in $1/src (patched by the caller), and its build in $1/build
copy_sources() {
    rm -rf "$1/src"
    mkdir -p "$1/src"
    git ls-files -z -c -o --exclude-standard | xargs -0 tar -c | tar -x -C "$1/src"
}
build_copy() {
    cmake -S "$1/src" -B "$1/build" -DCMAKE_BUILD_TYPE=Release -DANCSDB_SANITIZE=OFF >/dev/null
    cmake --build "$1/build" -j "$(nproc)" --target ancsdb >/dev/null
}
# the same sources without world decoding
NW=$W/noworld
copy_sources "$NW"
perl -0pi -e 's/type == UTIL_FCC_ANCS \|\| type == UTIL_FCC_EVNT \|\| type == UTIL_FCC_MLVL \|\|\s*type == UTIL_FCC_STRG;/type == UTIL_FCC_ANCS || type == UTIL_FCC_EVNT;/' \
    "$NW/src/db/ingest_jobs.c"
grep -q 'return type == UTIL_FCC_ANCS || type == UTIL_FCC_EVNT;' "$NW/src/db/ingest_jobs.c" ||
    { echo "bench/worlds.sh: could not patch ing_decoded_type" >&2; exit 1; }
build_copy "$NW"
# the same sources decoding the worlds but writing none of their rows
ND=$W/decodeonly
copy_sources "$ND"
perl -pi -e 's/^(\s*)return (put_keyed\(d, game, content_id, put_(?:mlvl_any|mlvl_refs|strg_any),.*);$/$1return 0 ? $2 : 0;/' \
    "$ND/src/db/rows_world.c"
[ "$(grep -c 'return 0 ? put_keyed(' "$ND/src/db/rows_world.c")" = 3 ] ||
    { echo "bench/worlds.sh: could not patch db_put_mlvl, db_put_mlvl_refs, db_put_strg" >&2; exit 1; }
build_copy "$ND"

median() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "n/a"}'; }
# one ingest: prints "cpu wall"
one() {
    local bin=$1 db=$2
    shift 2
    rm -f "$db" "$db-wal" "$db-shm"
    local t0 t1
    t0=${EPOCHREALTIME/./}
    /usr/bin/time -f "%U %S" -o "$W/worlds.time" "$bin" ingest --quiet --db "$db" "$@" >/dev/null
    t1=${EPOCHREALTIME/./}
    awk -v w=$(((t1 - t0) / 1000)) '{printf "%.2f %.3f\n", $1 + $2, w / 1000}' "$W/worlds.time"
}
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
# one row of the table: label, database name, inputs
row() {
    local label=$1 name=$2
    shift 2
    : >"$W/worlds-a" && : >"$W/worlds-b" && : >"$W/worlds-d"
    for ((i = 0; i < REPS; i++)); do
        one "$NW/build/ancsdb" "$W/worlds-without-$name.db" "$@" >>"$W/worlds-a"
        one "$ND/build/ancsdb" "$W/worlds-decoded-$name.db" "$@" >>"$W/worlds-d"
        one "$B/ancsdb" "$W/worlds-with-$name.db" "$@" >>"$W/worlds-b"
    done
    rm -f "$W/worlds-decoded-$name.db"*
    ca=$(cut -d' ' -f1 "$W/worlds-a" | median) wa=$(cut -d' ' -f2 "$W/worlds-a" | median)
    cdec=$(cut -d' ' -f1 "$W/worlds-d" | median) wd=$(cut -d' ' -f2 "$W/worlds-d" | median)
    cb=$(cut -d' ' -f1 "$W/worlds-b" | median) wb=$(cut -d' ' -f2 "$W/worlds-b" | median)
    nw=$("$B/ancsdb" sql --db "$W/worlds-with-$name.db" --format tsv \
        "SELECT count(*) FROM contents WHERE type IN ('MLVL', 'STRG')" | sed -n 2p)
    echo "| $label | $nw | $ca ($wa) | $cdec ($wd) | $cb ($wb) | $(awk "BEGIN {printf \"%.3f\", $cdec / $ca}") | $(awk "BEGIN {printf \"%.3f\", $cb / $ca}") | $REPS |"
    echo "  runs without: $(tr '\n' ';' <"$W/worlds-a")  decoded: $(tr '\n' ';' <"$W/worlds-d")  with: $(tr '\n' ';' <"$W/worlds-b")" >&2
}
echo "| corpus | MLVL + STRG contents | without: CPU s (wall s) | decoded, no rows: CPU s (wall s) | with: CPU s (wall s) | CPU decoded/without | CPU with/without | runs each |"
echo "|---|---|---|---|---|---|---|---|"
for size in $SIZES; do
    idir=$W/images-$size
    imgs=("$idir/GM8E01_00.iso" "$idir/GM8E01_02.iso" "$idir/G2ME01_00.iso" "$idir/G2MP01_00.iso")
    cat "${imgs[@]}" >/dev/null # warm the page cache
    row "four $size images" "$size" "${imgs[@]}"
done
for fsize in $([ "${BENCH_FOLDERS:-0}" = 0 ] || echo "$SIZES"); do
    dir=$W/corpus-$fsize # the folders of bench/run.sh
    [ "$fsize" = 1x ] || [ "${BENCH_REAL10:-0}" = 0 ] || dir=$W/corpus-$fsize-real17
    [ -f "$dir/.complete" ] || { echo "bench/worlds.sh: no $dir (bench/run.sh BENCH_FOLDERS=1 builds it)" >&2; exit 1; }
    find "$dir" -type f -exec cat {} + >/dev/null # warm the page cache
    row "$fsize PAK folders" "folders-$fsize" "$dir"
done

# the world queries at 10x (or the last size measured)
db=$W/worlds-with-${size}.db
q() { "$B/ancsdb" sql --db "$db" --format tsv "$1" | sed -n 2p; }
world=$(q "SELECT name FROM worlds WHERE name IS NOT NULL ORDER BY area_count DESC, name LIMIT 1")
wid=$(q "SELECT printf('%08X', mlvl_id) FROM worlds ORDER BY area_count DESC, name LIMIT 1")
area=$(q "SELECT printf('%08X', mrea_id) FROM mlvl_areas ORDER BY dependency_count DESC LIMIT 1")
aname=$(q "SELECT name FROM areas a WHERE name IS NOT NULL AND (SELECT count(DISTINCT mrea_id) FROM areas b WHERE b.name = a.name) = 1 ORDER BY dependency_count DESC LIMIT 1")
ancs=$(q "SELECT printf('%08X', asset_id) FROM area_deps WHERE type = 'ANCS' GROUP BY asset_id ORDER BY count(*) DESC LIMIT 1")
part=$(q "SELECT printf('%08X', asset_id) FROM area_deps WHERE type = 'PART' GROUP BY asset_id ORDER BY count(*) DESC LIMIT 1")
rows() { "$B/ancsdb" query --db "$db" --format tsv "$@" | tail -n +2 | wc -l; }
echo
echo "world queries, $size database ($(q "SELECT count(*) FROM mlvl_worlds") worlds, $(q "SELECT count(*) FROM mlvl_areas") areas, $(q "SELECT count(*) FROM area_deps") dependencies), median whole process of $QREPS:"
echo "| query | ms | rows |"
echo "|---|---|---|"
qtime() {
    local label=$1 i t0 t1
    shift
    for ((i = 0; i < QREPS; i++)); do
        t0=${EPOCHREALTIME/./}
        "$B/ancsdb" query --db "$db" --format tsv "$@" >/dev/null
        t1=${EPOCHREALTIME/./}
        echo $((t1 - t0))
    done | median | awk -v l="$label" -v n="$(rows "$@")" '{printf "| %s | %.1f | %s |\n", l, $1 / 1000, n}'
}
qtime "worlds" worlds
qtime "areas MLVL_ID" areas "$wid"
qtime "areas NAME ($world)" areas "$world"
qtime "where-loaded ANCS" where-loaded ANCS "$ancs"
qtime "where-loaded PART (through)" where-loaded PART "$part"
qtime "who-references PART (with its MLVL rows)" who-references PART "$part"
qtime "area-deps MREA_ID" area-deps "$area"
qtime "area-deps NAME ($aname)" area-deps "$aname"
qtime "characters-in MREA_ID" characters-in "$area"
qtime "release-diff-worlds" release-diff-worlds GM8E01_00 GM8E01_02
qtime "release-diff-worlds WORLD" release-diff-worlds GM8E01_00 GM8E01_02 "$wid"
