#!/usr/bin/env bash
# Name-map benchmark (issue: names). One command: bench/names.sh [ENTRIES]
# Builds the release binary, writes an asset name map of ENTRIES (default 100000) entries in
# Prime World Editor's layout (names with &amp;, &lt;, UTF-8) with python3, and measures with
# /usr/bin/time -v: the import into a database holding the sample corpus (or an empty one),
# the re-import of the same file (which replaces its rows), the export, and `find`. Prints
# wall time and peak RSS of each. Files are kept in $BENCH_DIR (default build/bench).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-100000}
B=${BENCH_BUILD:-build/release}
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DANCSDB_SANITIZE=OFF >/dev/null
cmake --build "$B" -j 2 --target ancsdb >/dev/null
W=${BENCH_DIR:-build/bench}
mkdir -p "$W"
map="$W/AssetNameMap-$N.xml"
[ -f "$map" ] || python3 - "$N" "$map" <<'EOF'
import random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rnd = random.Random(1)
types = ["TXTR", "CMDL", "ANIM", "PART", "ANCS", "EVNT", "STRG", "SCAN"]
with open(path, "w", encoding="utf-8") as out:
    out.write('<AssetNameMap Game="MPRM" ArchiveVer="1" FileVer="0">\n    <AssetNameMap>\n')
    for i, k in enumerate(sorted(rnd.sample(range(1, 2**32 - 1), n))):
        t = types[i % len(types)]
        out.write("        <Asset>\n            <Key>%08X</Key>\n            <Value>\n"
                  "                <Name>%s_Cr\u00e8me_&amp;_area%d_&lt;%d&gt;</Name>\n"
                  "                <Directory>Worlds/World%d/area_%d/cooked/</Directory>\n"
                  "                <Type>%s</Type>\n"
                  "                <AutoGenName>false</AutoGenName>\n"
                  "                <AutoGenDir>%s</AutoGenDir>\n"
                  "            </Value>\n        </Asset>\n"
                  % (k, t.lower(), i % 97, i, i % 7, i % 300, t, "true" if i % 3 else "false"))
    out.write("    </AssetNameMap>\n</AssetNameMap>\n")
EOF
db="$W/names-$N.db"
rm -f "$db" "$db-wal" "$db-shm"
if [ -d ../shared/corpus/mp1 ]; then
    "$B/ancsdb" ingest --quiet --db "$db" ../shared/corpus/mp1 ../shared/corpus/mp2
fi
measure() { # LABEL CMD...
    local label=$1
    shift
    /usr/bin/time -f "%e %M" -o "$W/time.log" "$@" >/dev/null 2>"$W/err.log" ||
        { echo "failed: $*" >&2; cat "$W/err.log" >&2; exit 1; }
    read -r s kb <"$W/time.log"
    printf '| %s | %s s | %.1f MiB |\n' "$label" "$s" "$(awk "BEGIN { print $kb / 1024 }")"
}
echo "map: $map ($(stat -c %s "$map") bytes, $N entries); machine: $(nproc) cores"
echo "| step | wall | peak RSS |"
echo "|---|---|---|"
measure "names import" "$B/ancsdb" names import --db "$db" "$map"
measure "names import (again: replaces)" "$B/ancsdb" names import --db "$db" "$map"
measure "names export" "$B/ancsdb" names export --db "$db" -o "$W/export-$N.xml"
measure "query find area17_<" "$B/ancsdb" query --db "$db" find 'area17_<'
