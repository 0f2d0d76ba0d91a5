#!/usr/bin/env bash
# Bounded libFuzzer run of every fuzz target: run.sh SECONDS_PER_TARGET [TARGET...]
# Builds the `fuzz` preset (clang + libFuzzer + ASan/UBSan), copies each seed corpus to a
# scratch folder (the committed one is never modified) and fuzzes for the given time.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-20}
shift || true
cmake --preset fuzz >/dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for f in tests/fuzz/fuzz_*.c; do targets+=("$(basename "$f" .c)"); done
fi
cmake --build --preset fuzz -j "$(nproc)" --target "${targets[@]}" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for t in "${targets[@]}"; do
    short=${t#fuzz_}
    mkdir -p "$work/$short"
    cp -r tests/fuzz/corpus/"$short"/. "$work/$short"/ 2>/dev/null || true
    echo "fuzz $t for ${secs}s"
    if ! build/fuzz/tests/fuzz/"$t" -max_total_time="$secs" -rss_limit_mb=2048 \
        -artifact_prefix="$work/$short-" "$work/$short" 2>"$work/$t.log"; then
        echo "FUZZ FAILURE in $t:"
        tail -40 "$work/$t.log"
        mkdir -p build/fuzz-artifacts
        cp "$work/$short"-* build/fuzz-artifacts/ 2>/dev/null || true
        status=1
    else
        grep -E "^#[0-9]+.*DONE|Done [0-9]+ runs" "$work/$t.log" | tail -1 || true
    fi
done
exit $status
