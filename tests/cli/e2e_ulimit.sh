#!/usr/bin/env bash
# e2e_ulimit.sh BINARY SHARED_DIR — bounded memory: the sample corpus, and eight copies of it,
# ingest under the same tight address-space limit (ulimit -v, 64 MiB, --jobs 2), and the
# eight-fold corpus peaks at about the same resident size as one copy. ASan builds reserve
# terabytes of address space, so the test skips for them: run it with the release binary
# (bash tests/cli/e2e_ulimit.sh build/release/ancsdb ../shared). Skips without the corpus.
set -u
. "$(dirname "$0")/lib.sh"
LIMIT_KB=${ANCSDB_ULIMIT_KB:-65536}
need_corpus mp1
if nm "$BIN" 2>/dev/null | grep -q '__asan_init\|__tsan_init\|__msan_init' ||
    ldd "$BIN" 2>/dev/null | grep -q 'libasan\|libtsan'; then
    skip "$BIN is built with a sanitizer (address-space limits do not apply); run this script with a release build"
fi
mkdir -p "$T/one" "$T/eight"
cp -r "$CORPUS/mp1" "$CORPUS/mp2" "$T/one/"
for i in 1 2 3 4 5 6 7 8; do
    mkdir "$T/eight/$i"
    cp -r "$CORPUS/mp1" "$CORPUS/mp2" "$T/eight/$i/"
done
chmod -R u+w "$T"
HAVE_TIME=0
[ -x /usr/bin/time ] && /usr/bin/time -f %M true >/dev/null 2>&1 && HAVE_TIME=1

run() { # run NAME: ingest $T/NAME under the limit; prints "rc peak_kb"
    local name=$1
    (
        ulimit -v "$LIMIT_KB"
        if [ $HAVE_TIME = 1 ]; then
            /usr/bin/time -f 'PEAK %M' -o "$T/$name.time" \
                "$BIN" ingest --db "$T/$name.db" --jobs 2 --quiet "$T/$name" 2>"$T/$name.err"
        else
            "$BIN" ingest --db "$T/$name.db" --jobs 2 --quiet "$T/$name" 2>"$T/$name.err"
        fi
    )
    local rc=$?
    local peak=0
    [ $HAVE_TIME = 1 ] && peak=$(sed -n 's/^PEAK //p' "$T/$name.time")
    echo "$rc ${peak:-0}"
}
read -r rc1 peak1 < <(run one)
check "corpus x1 ingests under ulimit -v $LIMIT_KB KiB" 0 "$rc1"
read -r rc8 peak8 < <(run eight)
check "corpus x8 ingests under the same limit" 0 "$rc8"
[ "$rc8" = 0 ] || cat "$T/eight.err"
check "x8 holds 8 times the entries" \
    "$(("$("$BIN" sql --db "$T/one.db" --format tsv "SELECT count(*) FROM pak_entries" | tail -1)" * 8))" \
    "$("$BIN" sql --db "$T/eight.db" --format tsv "SELECT count(*) FROM pak_entries" | tail -1)"
if [ $HAVE_TIME = 1 ] && [ "$peak1" -gt 0 ]; then
    echo "peak RSS: x1 ${peak1} KiB, x8 ${peak8} KiB"
    [ "$peak8" -le $((peak1 * 2 + 8192)) ]
    check "peak RSS does not grow with the corpus (x8 <= 2 * x1 + 8 MiB)" 0 $?
fi
exit $fail
