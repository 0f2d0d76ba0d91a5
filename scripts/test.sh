#!/usr/bin/env bash
# Quick start, command 2: build the test build (ASan + UBSan) and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --with-fuzz
cmake --preset debug >/dev/null
cmake --build --preset debug -j "$(nproc)"
ctest --preset debug -j "$(nproc)"
# Bounded libFuzzer runs of every target (clang), when the fuzz build is wanted.
if [ "${ANCSDB_FUZZ_SECONDS:-20}" != 0 ] && [ -x tests/fuzz/run.sh ]; then
    tests/fuzz/run.sh "${ANCSDB_FUZZ_SECONDS:-20}"
fi
