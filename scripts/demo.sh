#!/usr/bin/env bash
# Quick start, command 1: build ancsdb (release) and run the main job. With no argument
# that is `ancsdb demo`: build a demo corpus of MP1 and MP2 PAKs, ingest it, answer queries.
# With arguments they are passed to ancsdb, e.g. `scripts/demo.sh ingest /path/to/dump`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target ancsdb >/dev/null
if [ $# -eq 0 ]; then
    exec build/release/ancsdb demo demo
fi
exec build/release/ancsdb "$@"
