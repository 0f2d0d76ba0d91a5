#!/usr/bin/env bash
# containers.sh — ingest of one 1x release (GM8E01_00 as `ancsdb demo --images-only --scale 1
# --opaque-mib 900` writes it, ~1 GB) as an ISO and as the containers Dolphin writes: RVZ
# (zstd level 5, 128 KiB), WIA (LZMA2 level 5, 2 MiB) and GCZ (32 KiB, zlib), against reading
# the ISO's bytes once (bench_read_all). Each ingest into an empty database, warm page cache;
# median wall time of BENCH_REPS runs (default 3) and the largest peak RSS. Targets (issue
# 22): RVZ <= 1.5x the ISO's ingest, peak RSS <= 64 MiB. Needs /usr/games/dolphin-tool
# (conversions are kept in $BENCH_DIR/containers and reused). Usage: bench/containers.sh
# BENCH_LARGE=1: the same with a disc image of bench_bigpak's three PAKs of 150 large entries
# (bench/run.sh BENCH_LARGE=1; 1 to 12 MiB inflated, 0.56 GB) in place of the release, written
# by bench_disc: entries read a window at a time through each container (kept in
# $BENCH_DIR/containers-large).
set -euo pipefail
cd "$(dirname "$0")/.."
B=${BENCH_BUILD:-build/release}
W=${BENCH_DIR:-build/bench}
DT=${DOLPHIN_TOOL:-/usr/games/dolphin-tool}
REPS=${BENCH_REPS:-3}
[ -x "$DT" ] || { echo "containers.sh: $DT is missing (Debian package dolphin-emu)" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "containers.sh: /usr/bin/time is missing" >&2; exit 1; }
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DANCSDB_SANITIZE=OFF >/dev/null
cmake --build "$B" -j "$(nproc)" --target ancsdb bench_read_all bench_bigpak bench_disc >/dev/null
C=$W/containers
[ "${BENCH_LARGE:-0}" = 1 ] && C=$W/containers-large
mkdir -p "$C"
if [ "${BENCH_LARGE:-0}" = 1 ] && [ ! -f "$C/GM8E01_00.iso" ]; then
    ldir="$W/corpus-large"
    if [ ! -f "$ldir/.complete" ]; then # as bench/run.sh BENCH_LARGE=1 makes it
        rm -rf "$ldir"
        "$B/bench/bench_bigpak" "$ldir" 3 50 1024 12288 >&2
        touch "$ldir/.complete"
    fi
    "$B/bench/bench_disc" "$C/GM8E01_00.iso.tmp" "$ldir"
    mv "$C/GM8E01_00.iso.tmp" "$C/GM8E01_00.iso"
elif [ ! -f "$C/GM8E01_00.iso" ]; then
    if [ -f "$W/images-1x/.complete" ]; then
        ln -f "$W/images-1x/GM8E01_00.iso" "$C/GM8E01_00.iso" 2>/dev/null ||
            cp "$W/images-1x/GM8E01_00.iso" "$C/GM8E01_00.iso"
    else
        echo "writing the 1x images ..." >&2
        "$B/ancsdb" demo --images-only --quiet --scale 1 --opaque-mib 900 "$C/img" >/dev/null
        mv "$C/img/GM8E01_00.iso" "$C/GM8E01_00.iso"
        rm -rf "$C/img"
    fi
fi
ISO=$C/GM8E01_00.iso
conv() { # OUT FORMAT BLOCK [COMPRESSION LEVEL]
    [ -f "$C/$1" ] && return 0
    echo "dolphin-tool: $1 ..." >&2
    local extra=()
    [ $# -ge 4 ] && extra=(-c "$4" -l "$5")
    "$DT" convert -u "$C/dolphin-user" -i "$ISO" -o "$C/$1.tmp" -f "$2" -b "$3" "${extra[@]}" >/dev/null
    mv "$C/$1.tmp" "$C/$1"
}
conv GM8E01_00.rvz rvz 131072 zstd 5
conv GM8E01_00.wia wia 2097152 lzma2 5
conv GM8E01_00.gcz gcz 32768

# run N CMD... -> $wall median seconds, $rss largest peak RSS (MiB); $pre runs before each
run() {
    local n=$1 i ws=() r=0 t0 t1
    shift
    for ((i = 0; i < n; i++)); do
        [ -z "${pre:-}" ] || eval "$pre"
        t0=${EPOCHREALTIME/./}
        /usr/bin/time -v "$@" >/dev/null 2>"$C/time.log" || { tail "$C/time.log" >&2; exit 1; }
        t1=${EPOCHREALTIME/./}
        ws+=("$(awk "BEGIN { printf \"%.3f\", ($t1 - $t0) / 1e6 }")")
        r=$(awk -F': ' -v r="$r" '/Maximum resident set size/ {x = $2 / 1024; print (x > r) ? x : r}' "$C/time.log")
    done
    wall=$(printf '%s\n' "${ws[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    rss=$(printf '%.1f' "$r")
}
"$B/bench/bench_read_all" "$ISO" >/dev/null # warm the page cache
pre=""
run "$REPS" "$B/bench/bench_read_all" "$ISO"
floor=$wall
printf '%-26s %10s %9s %8s %9s\n' "measure" "file MB" "wall s" "x read" "RSS MiB"
printf '%-26s %10s %9s %8s %9s\n' "read-all of the ISO" "$(($(stat -c %s "$ISO") / 1000000))" "$wall" "1.00" "$rss"
db=$C/bench.db
iso_wall=
for f in GM8E01_00.iso GM8E01_00.rvz GM8E01_00.wia GM8E01_00.gcz; do
    cat "$C/$f" >/dev/null # warm
    pre="rm -f $db $db-wal $db-shm"
    run "$REPS" "$B/ancsdb" ingest --quiet --db "$db" "$C/$f"
    [ -n "$iso_wall" ] || iso_wall=$wall
    printf '%-26s %10s %9s %8s %9s   %s\n' "ingest ${f##*.}" "$(($(stat -c %s "$C/$f") / 1000000))" \
        "$wall" "$(awk "BEGIN { printf \"%.2f\", $wall / $floor }")" "$rss" \
        "$(awk "BEGIN { printf \"%.2fx the ISO's ingest\", $wall / $iso_wall }")"
done
echo "(machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
