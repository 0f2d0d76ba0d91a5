#!/usr/bin/env bash
# Quick start, command 2: build the test build (ASan + UBSan), run every test (ctest: cmocka
# suites, end-to-end scripts, fuzz seed-corpus replays), the memory-limit test against the
# release build, then each libFuzzer target for ANCSDB_FUZZ_SECONDS seconds (default 20;
# 0 skips). Ends with one "passed, failed, skipped" line (a test that could not run, such as
# one needing the sample corpus when ../shared is absent, is skipped, never passed).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --with-fuzz
cmake --preset debug >/dev/null
cmake --build --preset debug -j "$(nproc)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
ctest --preset debug -j "$(nproc)" 2>&1 | tee "$log" || status=1
total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
failed=$(sed -n 's/.* \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -1)
total=${total:-0}
failed=${failed:-$total}
# Bounded memory (ulimit -v) needs a binary without sanitizers: the release build.
extra_pass=0
extra_fail=0
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target ancsdb >/dev/null
extra_skip=0
bash tests/cli/e2e_ulimit.sh build/release/ancsdb "${ANCSDB_SHARED:-../shared}"
case $? in
0) extra_pass=1 ;;
77) extra_skip=1 ;; # no sample corpus: skipped, not passed
*)
    extra_fail=1
    status=1
    ;;
esac
fuzz_pass=0
fuzz_fail=0
secs=${ANCSDB_FUZZ_SECONDS:-20}
if [ "$secs" != 0 ]; then
    for f in tests/fuzz/fuzz_*.c; do
        t=$(basename "$f" .c)
        if tests/fuzz/run.sh "$secs" "$t"; then
            fuzz_pass=$((fuzz_pass + 1))
        else
            fuzz_fail=$((fuzz_fail + 1))
            status=1
        fi
    done
fi
[ "$total" -gt 0 ] || status=1
skipped=$(grep -c '\*\*\*Skipped\| Not Run' "$log" || true)
echo "tests: $((total - failed - skipped + extra_pass + fuzz_pass)) passed, $((failed + extra_fail + fuzz_fail)) failed, $((skipped + extra_skip)) skipped"
exit $status
