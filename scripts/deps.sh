#!/usr/bin/env bash
# Install the Debian packages ancsdb needs, when any is missing (run as root).
set -euo pipefail
# graphviz: `ancsdb graph --format svg` and the report's graphs run its `dot`
# libzstd-dev liblzma-dev libbz2-dev: RVZ (zstd) and WIA (LZMA, LZMA2, bzip2) disc containers
pkgs="build-essential cmake pkg-config zlib1g-dev libdeflate-dev libsqlite3-dev liblzo2-dev libexpat1-dev libxxhash-dev libzstd-dev liblzma-dev libbz2-dev libcmocka-dev sqlite3 clang graphviz"
# man-db: the test of `cmake --install` renders the generated manual page with `man -l`
pkgs="$pkgs man-db"
# the test command also needs chromium (e2e_report loads the HTML report in headless Chromium)
[ "${1:-}" = "--with-fuzz" ] && pkgs="$pkgs libclang-rt-dev chromium"
# the test command also needs dolphin-emu: its /usr/games/dolphin-tool writes the RVZ, WIA and
# GCZ files e2e_containers reads (an independent writer; the test skips without it)
[ "${1:-}" = "--with-fuzz" ] && pkgs="$pkgs dolphin-emu"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# python3 (end-to-end scripts read JSON with it) may come from outside Debian's packages
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
if [ -n "$missing" ]; then
    echo "installing:$missing" >&2
    if [ "$(id -u)" != 0 ]; then
        echo "missing packages:$missing (run as root, or install them)" >&2
        exit 3
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# Optional: wit (an independent GameCube disc reader) for e2e_disc_wit, which skips without it.
if ! dpkg-query -W -f='${Status}' wit 2>/dev/null | grep -q "install ok installed"; then
    if [ "$(id -u)" = 0 ] && { apt-get install -y -qq --no-install-recommends wit >/dev/null 2>&1 ||
        { apt-get update -qq && apt-get install -y -qq --no-install-recommends wit >/dev/null 2>&1; }; }; then
        echo "installed: wit" >&2
    else
        echo "note: wit could not be installed; e2e_disc_wit will skip" >&2
    fi
fi
# Optional: dolphin-emu's dolphin-tool (Dolphin's own RVZ/WIA writer) for disc_wia, which skips
# its conversion cases without it.
if ! dpkg-query -W -f='${Status}' dolphin-emu 2>/dev/null | grep -q "install ok installed"; then
    if [ "$(id -u)" = 0 ] && { apt-get install -y -qq --no-install-recommends dolphin-emu >/dev/null 2>&1 ||
        { apt-get update -qq && apt-get install -y -qq --no-install-recommends dolphin-emu >/dev/null 2>&1; }; }; then
        echo "installed: dolphin-emu" >&2
    else
        echo "note: dolphin-emu could not be installed; disc_wia skips its conversions" >&2
    fi
fi
