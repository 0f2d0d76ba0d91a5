# images.sh — the disc-image part of bench/run.sh (sourced by it: uses $B, $W, $SIZES,
# measure, calc and median). Fills irows (measure|size|bytes|time|floor|ratio|target|RSS|note).
# BENCH_REPS (default 3): runs of each ingest/census/release-diff timing, median quoted;
# BENCH_QREPS (default 31): runs of each who-references/deps/find. BENCH_REPORT_SIZES
# (default 1x): the sizes whose `report` is timed (10x writes ~175,000 pages: minutes).
REPS=${BENCH_REPS:-3}
QREPS=${BENCH_QREPS:-31}
irows=()
# The reports of an earlier bench run are removed now, minutes before a report is timed: on a
# file system that skips recently freed inodes one by one when it makes a file (ext4 without a
# journal), a report made right after 178,000 files were removed takes twice as long.
rm -rf "$W"/report-*

gb() { calc "$1/1000000000"; }
ratio() { awk "BEGIN { if ($2 > 0) printf \"%.2f\", $1 / $2; else print \"n/a\" }"; }

# mrun N CMD... -> $wall = median wall of N runs, $rss = max peak RSS; $pre runs before each
mrun() {
    local n=$1 i ws=() r=0
    shift
    for ((i = 0; i < n; i++)); do
        [ -z "${pre:-}" ] || eval "$pre" >/dev/null 2>&1
        measure "$@"
        ws+=("$wall")
        r=$(awk "BEGIN { print ($rss > $r) ? $rss : $r }")
    done
    wall=$(printf '%s\n' "${ws[@]}" | median)
    rss=$r
}

# qmed N CMD... -> $qms median whole-process milliseconds of N runs (no /usr/bin/time; the
# clock is bash's $EPOCHREALTIME, in microseconds: no `date` process around each run)
qmed() {
    local n=$1 i t0 t1
    shift
    for ((i = 0; i < n; i++)); do
        t0=${EPOCHREALTIME/./}
        "$@" >/dev/null
        t1=${EPOCHREALTIME/./}
        echo $((t1 - t0))
    done | median | awk '{printf "%.2f", $1 / 1000}' >"$W/qms"
    qms=$(cat "$W/qms")
}

sqlone() { "$B/ancsdb" sql --db "$1" --format tsv "$2" 2>/dev/null | sed -n 2p; }
freshdb() { rm -f "$1" "$1-wal" "$1-shm"; }

# throttle_to MBPS DIR: make $W/throttled, a command that runs its arguments with reads from
# the disk holding DIR held to MBPS MB/s (a cgroup: v2's io.max, else v1's blkio throttle);
# throttle_how says how, or why not (then it fails). throttle_off removes the cgroup.
throttle_cg=""
throttle_to() {
    local mbps=$1 src disk dev v2=/sys/fs/cgroup
    throttle_how="no cgroup to throttle reads with"
    src=$(findmnt -no SOURCE --target "$2" 2>/dev/null) || return 1
    disk=$(lsblk -no PKNAME "$src" 2>/dev/null | head -1)
    dev=$(lsblk -dno MAJ:MIN "${disk:+/dev/$disk}${disk:-$src}" 2>/dev/null | tr -d ' ')
    [ -n "$dev" ] || { throttle_how="no block device under $2 ($src)"; return 1; }
    throttle_off
    if grep -qw io "$v2/cgroup.controllers" 2>/dev/null; then
        grep -qw io "$v2/cgroup.subtree_control" || echo +io >"$v2/cgroup.subtree_control" 2>/dev/null
        throttle_cg=$v2/ancsdb-bench
        if ! mkdir -p "$throttle_cg" 2>/dev/null ||
            ! echo "$dev rbps=$((mbps * 1000000))" >"$throttle_cg/io.max" 2>/dev/null; then
            throttle_off
            return 1
        fi
        throttle_how="io.max rbps on $dev"
    elif [ -d /sys/fs/cgroup/blkio ]; then
        throttle_cg=/sys/fs/cgroup/blkio/ancsdb-bench
        if ! mkdir -p "$throttle_cg" 2>/dev/null ||
            ! echo "$dev $((mbps * 1000000))" >"$throttle_cg/blkio.throttle.read_bps_device" 2>/dev/null; then
            throttle_off
            return 1
        fi
        throttle_how="blkio.throttle.read_bps_device on $dev"
    else
        return 1
    fi
    printf '#!/bin/sh\necho $$ >"%s/cgroup.procs" && exec "$@"\n' "$throttle_cg" >"$W/throttled"
    chmod +x "$W/throttled"
}
throttle_off() {
    if [ -n "$throttle_cg" ] && [ -d "$throttle_cg" ]; then rmdir "$throttle_cg" 2>/dev/null || :; fi
    throttle_cg=""
}

for size in $SIZES; do
    idir="$W/images-$size"
    if [ ! -f "$idir/.complete" ]; then
        rm -rf "$idir"
        echo "writing the $size disc images in $idir ..." >&2
        if [ "$size" = 1x ]; then
            "$B/ancsdb" demo --images-only --quiet --scale 1 --opaque-mib 900 "$idir" >/dev/null
        else
            "$B/ancsdb" demo --images-only --quiet --scale 10 "$idir" >/dev/null
        fi
        touch "$idir/.complete"
    fi
    A="$idir/GM8E01_00.iso" Bi="$idir/GM8E01_02.iso"
    all=("$idir/GM8E01_00.iso" "$idir/GM8E01_02.iso" "$idir/G2ME01_00.iso" "$idir/G2MP01_00.iso")
    a_bytes=$(stat -c %s "$A") b_bytes=$(stat -c %s "$Bi")
    all_bytes=0
    for f in "${all[@]}"; do all_bytes=$((all_bytes + $(stat -c %s "$f"))); done
    "$B/bench/bench_read_all" "${all[@]}" >/dev/null # warm the page cache
    pre=""
    mrun "$REPS" "$B/bench/bench_read_all" "$A"; ra_a=$wall
    mrun "$REPS" "$B/bench/bench_read_all" "$Bi"; ra_b=$wall
    mrun "$REPS" "$B/bench/bench_read_all" "${all[@]}"; ra_all=$wall; ra_rss=$rss
    irows+=("read-all, four images|$size|$(gb "$all_bytes") GB|$ra_all s|-|1.00|floor|$ra_rss|read(2), 1 MiB buffer")
    db="$W/img-$size.db"
    if [ "$size" = 1x ]; then
        # first ingest of one release
        pre="freshdb $db"
        mrun "$REPS" "$B/ancsdb" ingest --quiet --db "$db" "$A"; ia=$wall; ia_rss=$rss
        irows+=("ingest release A (GM8E01_00), empty db|$size|$(gb "$a_bytes") GB|$ia s|$ra_a s|$(ratio "$ia" "$ra_a")|<= 1.2|$ia_rss|floor: read-all of the image")
        # the second release of the game, into the db holding the first
        n0=$(sqlone "$db" "SELECT count(*) FROM contents" || true)
        pre="freshdb $db; $B/ancsdb ingest --quiet --db $db $A"
        mrun "$REPS" "$B/ancsdb" ingest --quiet --db "$db" "$Bi"; ib=$wall; ib_rss=$rss
        n1=$(sqlone "$db" "SELECT count(*) FROM contents" || true)
        nt=$(sqlone "$db" "SELECT count(*) FROM pak_entries e JOIN paks p USING (pak_id) JOIN releases r USING (release_id) WHERE r.label = 'GM8E01_02' AND e.type IN ('ANCS', 'EVNT')" || true)
        irows+=("ingest release B (GM8E01_02) after A|$size|$(gb "$b_bytes") GB|$ib s|$ra_b s|$(ratio "$ib" "$ra_b")|<= 1.0|$ib_rss|$((${n1:-0} - ${n0:-0})) contents decoded of ${nt:-?} ANCS/EVNT entries")
    fi
    # four releases into an empty db, default --jobs, then --jobs 1 and 2 (1x only: at 10x
    # one run, which makes the database the queries read)
    pre="freshdb $db"
    reps=$REPS
    [ "$size" = 1x ] || reps=1
    mrun "$reps" "$B/ancsdb" ingest --quiet --db "$db" "${all[@]}"; i4=$wall; i4_rss=$rss
    irows+=("ingest four releases, empty db|$size|$(gb "$all_bytes") GB|$i4 s|$ra_all s|$(ratio "$i4" "$ra_all")|<= 1.2|$i4_rss|default --jobs")
    for j in $([ "$size" = 1x ] && echo 1 2); do
        mrun "$REPS" "$B/ancsdb" ingest --quiet --jobs "$j" --db "$db" "${all[@]}"
        irows+=("  the same, --jobs $j|$size|$(gb "$all_bytes") GB|$wall s|$ra_all s|$(ratio "$wall" "$ra_all")|fastest is default|$rss|")
    done
    if [ "$size" != 1x ]; then
        :
    elif [ "$(id -u)" = 0 ] && [ -w /proc/sys/vm/drop_caches ]; then
        pre="freshdb $db; sync; echo 3 > /proc/sys/vm/drop_caches"
        mrun 1 "$B/bench/bench_read_all" "${all[@]}"; rc_all=$wall
        mrun 1 "$B/ancsdb" ingest --quiet --db "$db" "${all[@]}"; ic=$wall
        irows+=("ingest four releases, cold cache|$size|$(gb "$all_bytes") GB|$ic s|$rc_all s|$(ratio "$ic" "$rc_all")|<= 1.1|$rss|floor: read-all after dropping the page cache")
        # BENCH_COLD_MBPS: the same with the disk's reads held to each speed (a slower disk)
        for mbps in ${BENCH_COLD_MBPS:-}; do
            if throttle_to "$mbps" "$idir"; then
                mrun 1 "$W/throttled" "$B/bench/bench_read_all" "${all[@]}"; rc_all=$wall
                mrun 1 "$W/throttled" "$B/ancsdb" ingest --quiet --db "$db" "${all[@]}"; ic=$wall
                irows+=("  the same, the disk read at $mbps MB/s|$size|$(gb "$all_bytes") GB|$ic s|$rc_all s|$(ratio "$ic" "$rc_all")|<= 1.1|$rss|reads throttled by a cgroup ($throttle_how)")
            else
                irows+=("  the same, the disk read at $mbps MB/s|$size|-|-|-|-|-|-|skipped: $throttle_how")
            fi
        done
        throttle_off
        "$B/bench/bench_read_all" "${all[@]}" >/dev/null # warm again
    else
        irows+=("ingest four releases, cold cache|$size|-|-|-|-|-|-|skipped: not root (cannot drop the page cache)")
    fi
    if [ "$size" = 1x ]; then
        pre="freshdb $db"
        mrun 1 "$B/ancsdb" ingest --quiet --db "$db" "${all[@]}"
    fi
    pre=""
    "$B/ancsdb" names import --db "$db" "$idir/AssetNameMap32.xml" >/dev/null 2>&1 || true
    db_size=$(stat -c %s "$db")
    mrun "$REPS" "$B/ancsdb" query --db "$db" --format tsv unknown-census
    irows+=("unknown-census|$size|db $(calc "$db_size/1000000") MB|$wall s|-|-|<= 0.5 s at 10x|$rss|$(($(wc -l <"$W/out.log") - 1)) rows")
    mrun "$REPS" "$B/ancsdb" query --db "$db" --format tsv release-diff GM8E01_00 GM8E01_02
    irows+=("release-diff GM8E01_00 GM8E01_02|$size|-|$wall s|-|-|<= 1 s at 10x|$rss|$(($(wc -l <"$W/out.log") - 1)) rows")
    part=$(sqlone "$db" "SELECT dst_id FROM asset_refs WHERE dst_type = 'PART' GROUP BY dst_id ORDER BY count(*) DESC, dst_id LIMIT 1")
    ancs=$(sqlone "$db" "SELECT asset_id FROM pak_entries WHERE type = 'ANCS' ORDER BY asset_id LIMIT 1 OFFSET 5")
    for q in "who-references PART $part" "deps ANCS $ancs" "find Emperor_Ing_5_"; do
        read -ra qa <<<"$q"
        [ "${qa[0]}" = deps ] && qa=(deps "$ancs")
        qmed "$QREPS" "$B/ancsdb" query --db "$db" --format tsv "${qa[@]}"
        measure "$B/ancsdb" query --db "$db" --format tsv "${qa[@]}"
        irows+=("${qa[*]}|$size|-|$qms ms|-|-|<= 5 ms at 10x|$rss|median whole process, $(($(wc -l <"$W/out.log") - 1)) rows")
    done
    if [[ " ${BENCH_REPORT_SIZES:-1x} " == *" $size "* ]]; then
        measure "$B/ancsdb" report --db "$db" -o "$W/report-$size"
        irows+=("report|$size|-|$wall s (CPU $cpu s)|-|-|<= 60 s at 10x|$rss|$(find "$W/report-$size" -type f | wc -l) files")
        # again into the same folder, the database unchanged: every drawing and page is kept
        measure "$B/ancsdb" report --db "$db" -o "$W/report-$size"
        irows+=("report again, unchanged db|$size|-|$wall s (CPU $cpu s)|-|-|-|$rss|$(grep -o 'graphs: .*' "$W/time.log" || echo '-')")
    else
        irows+=("report|$size|-|-|-|-|-|-|skipped: minutes at 10x; BENCH_REPORT_SIZES=\"1x 10x\" runs it")
    fi
done
