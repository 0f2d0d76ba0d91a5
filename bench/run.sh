#!/usr/bin/env bash
# The benchmark (issue: performance). One command: bench/run.sh
# Builds the release binary, makes two corpora with the fixture builder (1x: real-game
# counts with ~0.9 GB of opaque resources per game; 10x: ten times the asset, ANCS and EVNT
# counts with small opaque resources, or with BENCH_REAL10=1 ten times the 1x with real-size
# opaque resources, ~9 GB a game), then measures with a warm page cache:
#   (a) read-all   reading every byte of every PAK once
#   (f) floor      bench_read_all --full: one thread reads every entry of every PAK (one pread
#                  each, in file order), inflates every compressed
#                  entry and XXH3-hashes every resource (the work a first ingest must do)
#   (b) minimal    mapping each PAK, parsing tables, inflating only ANCS/EVNT
#   (c) ingest     `ancsdb ingest` into an empty database; its CPU time (user + sys), the cores
#                  it used (CPU / wall) and c / f, the ratio to the floor
#   (d) re-ingest  the unchanged corpus again
#   (e) who-references (median of 100 IDs, whole process) and unknown-census
# with peak RSS of each (/usr/bin/time -v) and the database size, and prints one table.
# Then the disc-image layout (issue: performance with releases): the same corpora as four disc
# images each (`ancsdb demo --images-only`: release A and B of each game, ~90% identical
# content), measured as one more table (bench/images.sh, sourced below):
#   read-all of the images (the floor), first ingest of one release vs read-all of its
#   image, the second release of the game (contents decoded, counted by SQL), four releases
#   into an empty database vs read-all of the four, the same cold (page cache dropped: only
#   as root), --jobs 1 vs 2, unknown-census, release-diff, who-references/deps/find (median
#   whole process) and peak RSS of ingest, queries and `report`.
# BENCH_FOLDERS=1 adds the PAK-folder table (a)-(e) above; BENCH_IMAGES=0 skips the image table.
# BENCH_PAKS=N (with BENCH_FOLDERS=1) measures the folders' entries re-packed into about N PAKs
# too (bench_repack), floor and first ingest, as one more table.
# BENCH_LARGE=1 measures PAKs of large compressed entries (bench_bigpak, 1 to 12 MiB each):
# floor, first ingest and their peak memory, as one more table.
# BENCH_COLD_MBPS="800 1200" (as root) adds the cold first ingest of the four 1x images with
# the disk's reads held to each of those MB/s by a cgroup (a slower disk than this one), beside
# read-all of them held to the same speed.
# BENCH_BEFORE=REV (a git revision) measures the image table with that revision's binary too
# and prints both, before and after, with the ratios.
# Corpora are kept in $BENCH_DIR (default build/bench) and reused when present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
command -v /usr/bin/time >/dev/null || apt-get install -y -qq time >/dev/null
# BENCH_BUILD: the build folder (default build/release, an optimised build without sanitizers)
B=${BENCH_BUILD:-build/release}
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DANCSDB_SANITIZE=OFF >/dev/null
cmake --build "$B" -j "$(nproc)" --target ancsdb bench_read_all bench_minimal bench_repack bench_bigpak >/dev/null
W=${BENCH_DIR:-build/bench}
SIZES=${BENCH_SIZES:-"1x 10x"}
mkdir -p "$W"

# measure CMD... -> sets $wall (seconds, 3 decimals) and $rss (peak RSS, MiB)
measure() {
    local log="$W/time.log"
    local t0 t1
    t0=${EPOCHREALTIME/./}
    /usr/bin/time -v "$@" >"$W/out.log" 2>"$log" || { echo "failed: $*" >&2; tail "$log" >&2; return 1; }
    t1=${EPOCHREALTIME/./}
    wall=$(awk "BEGIN { printf \"%.3f\", ($t1 - $t0) / 1e6 }")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2/1024}' "$log")
    cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$log")
}

calc() { awk "BEGIN { x = $1; print x }" 2>/dev/null || echo 0; }
# the median of the numbers on stdin, one a line
median() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "n/a"}'; }

# BENCH_BEFORE: that revision's binary (git archive of it, built apart in $W/before-build from
# scratch: the objects of another revision's build there would be reused), measured beside
# this tree's as "before" in both tables
BB=
if [ -n "${BENCH_BEFORE:-}" ]; then
    echo "building $BENCH_BEFORE for the before column ..." >&2
    rm -rf "$W/before-src" "$W/before-build"
    mkdir -p "$W/before-src"
    git archive "$BENCH_BEFORE" | tar -x -C "$W/before-src"
    cmake -S "$W/before-src" -B "$W/before-build" -DCMAKE_BUILD_TYPE=Release \
        -DANCSDB_SANITIZE=OFF >/dev/null
    cmake --build "$W/before-build" -j "$(nproc)" --target ancsdb bench_read_all >/dev/null
    BB=$W/before-build
fi

rows=()
brows=()
prows=()
for size in $( [ "${BENCH_FOLDERS:-0}" = 0 ] || echo "$SIZES"); do
    dir="$W/corpus-$size"
    # 17 GB: the size of the issue's 10x corpus, which fits a 24 GiB page cache beside the
    # database being written (the 19 GB of --opaque-mib 9000 did not: a "warm" run re-read it)
    [ "$size" = 1x ] || [ "${BENCH_REAL10:-0}" = 0 ] || dir="$W/corpus-$size-real17"
    if [ ! -f "$dir/.complete" ]; then
        rm -rf "$dir"
        echo "building the $size corpus in $dir ..." >&2
        if [ "$size" = 1x ]; then
            "$B/ancsdb" demo --build-only --quiet --scale 1 --opaque-mib 900 "$dir"
        elif [ "${BENCH_REAL10:-0}" = 1 ]; then
            "$B/ancsdb" demo --build-only --quiet --scale 10 --opaque-mib 7800 "$dir"
        else
            "$B/ancsdb" demo --build-only --quiet --scale 10 "$dir"
        fi
        touch "$dir/.complete"
    fi
    paks_bytes=$(du -sb "$dir" | cut -f1)
    "$B/bench/bench_read_all" "$dir" >/dev/null # warm the page cache
    # A "warm" run reads from the disk whatever the page cache could not keep (other files,
    # earlier databases): say so, with how much of the corpus it holds.
    if command -v fincore >/dev/null; then
        pct=$(find "$dir" -type f -exec fincore --bytes --noheadings --output RES,SIZE {} + |
            awk '{r += $1; s += $2} END {printf "%.1f", s ? 100 * r / s : 100}')
        awk -v p="$pct" 'BEGIN {exit !(p < 99)}' &&
            echo "bench/run.sh: only $pct% of $dir is in the page cache after reading it: the warm runs will read from the disk (free memory: remove earlier databases)" >&2
    fi
    measure "$B/bench/bench_read_all" "$dir"; a_wall=$wall; a_rss=$rss
    measure "$B/bench/bench_read_all" --full "$dir"; f_wall=$wall; f_cpu=$cpu
    measure "$B/bench/bench_minimal" "$dir"; b_wall=$wall; b_rss=$rss
    db="$W/bench-$size.db"
    rm -f "$db" "$db-wal" "$db-shm"
    if [ -n "$BB" ]; then # the before binary's first ingest, on the same corpus and floor
        rm -f "$db" "$db-wal" "$db-shm"
        measure "$BB/ancsdb" ingest --quiet --db "$db" "$dir"
        brows+=("$size|$wall|$cpu|$(calc "$cpu/$wall")|$rss")
        rm -f "$db" "$db-wal" "$db-shm"
    fi
    measure "$B/ancsdb" ingest --quiet --db "$db" "$dir"; c_wall=$wall; c_rss=$rss; c_cpu=$cpu
    measure "$B/ancsdb" ingest --quiet --db "$db" "$dir"; d_wall=$wall; d_rss=$rss
    db_size=$(stat -c %s "$db")
    # 100 different particle IDs
    mapfile -t ids < <("$B/ancsdb" sql --db "$db" --format tsv \
        "SELECT DISTINCT dst_id FROM asset_refs WHERE dst_type='PART' ORDER BY dst_id LIMIT 100" | tail -n +2)
    times=()
    for id in "${ids[@]}"; do
        t0=${EPOCHREALTIME/./}
        "$B/ancsdb" query --db "$db" --format tsv who-references PART "$id" >/dev/null
        t1=${EPOCHREALTIME/./}
        times+=($((t1 - t0)))
    done
    wr_med=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]/1000; else print "n/a"}')
    # the same 100 queries timed inside SQLite (sqlite3 shell .timer), without process start
    sq_med=n/a
    if command -v sqlite3 >/dev/null; then
        sq_med=$(for id in "${ids[@]}"; do
            sqlite3 -readonly "$db" ".parameter set ?1 'PART'" ".parameter set ?2 $id" \
                ".timer on" ".read queries/who-references.sql" </dev/null
        done | awk '/^Run Time:/ {print $4 * 1000}' | sort -n |
            awk '{a[NR]=$1} END {if (NR) printf "%.3f", a[int((NR+1)/2)]; else print "n/a"}')
    fi
    measure "$B/ancsdb" query --db "$db" --format tsv who-references PART "${ids[0]:-0}"; e_rss=$rss
    measure "$B/ancsdb" query --db "$db" --format tsv unknown-census; cen_wall=$wall; cen_rss=$rss
    rows+=("$(printf '%s|%.2f GB|%s|%s|%s (CPU %s)|%s|%s|%s (CPU %s)|%.2f|%s|%s|%s|%s ms (SQL %s ms)|%s|%s|%s|%.1f MB|%.2f|%.2f|%.2f|%.1f%%' \
        "$size" "$(calc "$paks_bytes/1000000000")" "$a_wall" "$a_rss" "$f_wall" "$f_cpu" "$b_wall" "$b_rss" \
        "$c_wall" "$c_cpu" "$(calc "$c_cpu/$c_wall")" "$c_rss" "$d_wall" "$d_rss" "$wr_med" "$sq_med" "$e_rss" "$cen_wall" "$cen_rss" \
        "$(calc "$db_size/1000000")" \
        "$(calc "$c_wall/$f_wall")" "$(calc "$c_wall/$a_wall")" "$(calc "$c_wall/$b_wall")" \
        "$(calc "100*$d_wall/$c_wall")")")
    # BENCH_PAKS=N: the same entries re-packed into about N PAKs (bench_repack; the issue's 10x
    # corpus had 165 PAKs, the fixture's 30): its floor and first ingest beside these. It takes
    # the corpus's disk space again, and at 10x the page cache cannot hold both: it is read
    # once before it is measured.
    if [ -n "${BENCH_PAKS:-}" ]; then
        rdir="$dir-paks$BENCH_PAKS"
        if [ ! -f "$rdir/.complete" ]; then
            rm -rf "$rdir"
            "$B/bench/bench_repack" "$BENCH_PAKS" "$dir" "$rdir" >&2
            touch "$rdir/.complete"
        fi
        "$B/bench/bench_read_all" "$rdir" >/dev/null # warm the page cache
        npaks=$(find "$rdir" -type f -iname '*.pak' | wc -l)
        measure "$B/bench/bench_read_all" --full "$rdir"; rf_wall=$wall
        rm -f "$db" "$db-wal" "$db-shm"
        measure "$B/ancsdb" ingest --quiet --db "$db" "$rdir"
        prows+=("$size|$(find "$dir" -type f -iname '*.pak' | wc -l)|$f_wall|$c_wall ($c_cpu)|$c_rss|$(printf "%.2f" "$(calc "$c_wall/$f_wall")")|$npaks|$rf_wall|$wall ($cpu)|$rss|$(printf "%.2f" "$(calc "$wall/$rf_wall")")")
        rm -f "$db" "$db-wal" "$db-shm"
    fi
done

# BENCH_LARGE=1: PAKs of large compressed entries (bench_bigpak: 150 entries of 1 to 12 MiB
# inflated, 0.56 GB stored), the fixture's being at most 0.5 MB: floor, first ingest and the
# peak memory of both, BENCH_REPS runs each (default 3), medians, the largest peak.
lrows=()
if [ "${BENCH_LARGE:-0}" = 1 ]; then
    ldir="$W/corpus-large"
    if [ ! -f "$ldir/.complete" ]; then
        rm -rf "$ldir"
        "$B/bench/bench_bigpak" "$ldir" 3 50 1024 12288 >&2
        touch "$ldir/.complete"
    fi
    "$B/bench/bench_read_all" "$ldir" >/dev/null # warm the page cache
    fws=() cws=() cks=() fr=0 cr=0
    for ((i = 0; i < ${BENCH_REPS:-3}; i++)); do
        measure "$B/bench/bench_read_all" --full "$ldir"; fws+=("$wall"); fr=$(calc "$rss > $fr ? $rss : $fr")
        rm -f "$W/large.db" "$W/large.db-wal" "$W/large.db-shm"
        measure "$B/ancsdb" ingest --quiet --db "$W/large.db" "$ldir"; cws+=("$wall"); cks+=("$cpu")
        cr=$(calc "$rss > $cr ? $rss : $cr")
    done
    rm -f "$W/large.db" "$W/large.db-wal" "$W/large.db-shm"
    lf=$(printf '%s\n' "${fws[@]}" | median) lc=$(printf '%s\n' "${cws[@]}" | median)
    lk=$(printf '%s\n' "${cks[@]}" | median)
    lrows+=("$(du -sb "$ldir" | awk '{printf "%.2f GB", $1 / 1e9}')|$lf|$fr|$lc ($lk)|$cr|$(printf "%.2f" "$(calc "$lc/$lf")")")
fi

if [ "${BENCH_IMAGES:-1}" != 0 ]; then
    birows=()
    if [ -n "$BB" ]; then
        B_AFTER=$B
        B=$BB
        # shellcheck source=bench/images.sh
        . bench/images.sh
        birows=("${irows[@]}")
        B=$B_AFTER
    fi
    # shellcheck source=bench/images.sh
    . bench/images.sh
fi

echo
echo "machine: $(nproc) cores, $(uname -sr), $(date -u +%Y-%m-%d); ingest --jobs default ($(nproc), the cores); load average $(cut -d' ' -f1-3 /proc/loadavg)"
[ ${#rows[@]} -gt 0 ] && echo "| size | PAK bytes | (a) read-all s | RSS MiB | (f) floor s | (b) minimal s | RSS MiB | (c) ingest s | cores used | RSS MiB | (d) re-ingest s | RSS MiB | (e) who-references median | RSS MiB | census s | RSS MiB | db size | c/f | c/a | c/b | d/c |"
[ ${#rows[@]} -gt 0 ] && echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for r in "${rows[@]}"; do echo "| ${r//|/ | } |"; done
# table TITLE HEADER ROW...: a blank line, TITLE and a Markdown table (cells separated by |)
table() {
    local head=$2 r
    printf '\n%s\n| %s |\n|' "$1" "${head//|/ | }"
    awk -v h="$head" 'BEGIN {n = split(h, c, "|"); for (i = 0; i < n; i++) printf "---|"; print ""}'
    shift 2
    for r in "$@"; do echo "| ${r//|/ | } |"; done
}
if [ ${#prows[@]} -gt 0 ]; then
    table "the same entries in more PAKs (BENCH_PAKS=$BENCH_PAKS, bench_repack): floor (f) and first ingest (c), one run each:" \
        "size|PAKs|floor s|ingest s (CPU s)|RSS MiB|ratio|PAKs|floor s|ingest s (CPU s)|RSS MiB|ratio" "${prows[@]}"
fi
if [ ${#lrows[@]} -gt 0 ]; then
    table "large compressed entries (BENCH_LARGE=1, bench_bigpak: 150 zlib entries of 1 to 12 MiB inflated), medians of ${BENCH_REPS:-3}, peak RSS the largest:" \
        "PAK bytes|floor s|RSS MiB|first ingest s (CPU s)|RSS MiB|ratio" "${lrows[@]}"
fi
if [ ${#brows[@]} -gt 0 ]; then
    echo
    echo "first ingest of the PAK folders against the one-thread floor (f), before: $BENCH_BEFORE ($(git log -1 --format='%h %cs' "$BENCH_BEFORE")), after: this tree ($(git log -1 --format='%h %cs' HEAD)):"
    echo "| size | floor s (CPU s) | ingest before s | CPU s | cores | RSS MiB | before/floor | ingest after s | CPU s | cores | RSS MiB | after/floor |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
    for i in "${!brows[@]}"; do
        IFS='|' read -r sz bw bc bk br <<<"${brows[$i]}"
        IFS='|' read -r _ _ _ _ fw _ _ cw ck cr _ <<<"${rows[$i]}"
        fcpu=${fw#*CPU }; fw=${fw%% *}; fcpu=${fcpu%)}
        ccpu=${cw#*CPU }; cw=${cw%% *}; ccpu=${ccpu%)}
        echo "| $sz | $fw ($fcpu) | $bw | $bc | $(printf '%.2f' "$bk") | $br | $(printf '%.2f' "$(calc "$bw/$fw")") | $cw | $ccpu | $ck | $cr | $(printf '%.2f' "$(calc "$cw/$fw")") |"
    done
fi
if [ "${BENCH_IMAGES:-1}" != 0 ]; then
    echo
    echo "disc images (four per size: release A and B of each game), warm page cache unless said; median of $REPS runs for each timing (ingests, census, release-diff), of $QREPS for who-references/deps/find:"
    if [ ${#birows[@]} -eq 0 ]; then
        echo "| measure | size | bytes | time | floor | ratio | target | peak RSS MiB | note |"
        echo "|---|---|---|---|---|---|---|---|---|"
        for r in "${irows[@]}"; do echo "| ${r//|/ | } |"; done
    else
        echo "before: $BENCH_BEFORE ($(git log -1 --format='%h %cs' "$BENCH_BEFORE")), after: this tree ($(git log -1 --format='%h %cs' HEAD)), measured one after the other"
        echo "| measure | size | bytes | before | after | after/before | floor | ratio to floor | target | peak RSS MiB before | after | note |"
        echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
        for i in "${!irows[@]}"; do
            IFS='|' read -r m sz by t fl ra tg rs no <<<"${irows[$i]}"
            IFS='|' read -r _ _ _ bt _ _ _ brs _ <<<"${birows[$i]:-}"
            ch=$(awk -v a="${t%% *}" -v b="${bt%% *}" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }')
            echo "| $m | $sz | $by | ${bt:--} | $t | $ch | $fl | $ra | $tg | ${brs:--} | $rs | $no |"
        done
    fi
fi
