#!/usr/bin/env bash
# e2e_walk.sh BINARY SHARED_DIR — the one folder-walk rule (issue 20 items 4 and 6), for plain
# folders and a Dolphin-extracted disc's files/ alike: a symbolic link to a file is read, a
# symbolic link to a folder is not entered (its PAKs never join the release); a folder below
# files/ that cannot be read costs one load_errors row, not the disc. Expected PAK counts
# from truth.json. Runs as nobody when the suite runs as root (root reads any folder).
set -u
. "$(dirname "$0")/lib.sh"
BIN=$(readlink -f "$BIN")
EX=$CORPUS/extracted/GM8E01_02
need_corpus extracted/GM8E01_02/files
need_tools python3
RUN=()
if [ "$(id -u)" = 0 ]; then
    command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 ||
        skip "running as root without setpriv or the user nobody"
    RUN=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
    "${RUN[@]}" test -x "$BIN" || skip "the user nobody cannot run $BIN"
fi
want=$(python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["releases"]:
    if r["extracted"] == "extracted/GM8E01_02":
        print(r["pak_count"])' "$CORPUS/truth.json")
[ -n "$want" ] || die "no extracted release in truth.json"

# outside the trees: a folder with a PAK (an MP2 one, that would not decode as MP1)
mkdir "$T/out"
cp "$(ls "$CORPUS"/mp2/*.pak | head -1)" "$T/out/Stray.pak"
cp -r "$EX" "$T/ex"
ln -s "$T/out" "$T/ex/files/T"
mkdir "$T/ex/files/locked"
cp "$EX/files/Metroid1.pak" "$T/ex/files/locked/Hidden.pak"
chmod -R a+rX "$T"
chmod 777 "$T"
chmod 000 "$T/ex/files/locked"

sq() { "$BIN" sql --db "$1" --format tsv "$2" | tail -1; }

# ---- an extracted disc ----------------------------------------------------------------
"${RUN[@]}" "$BIN" ingest --quiet --db "$T/e.db" "$T/ex" 2>"$T/e.err"
check "extracted: exit 1 (one folder could not be read)" 1 $?
check "extracted: every PAK of the disc, none from the linked folder" "$want" \
    "$(sq "$T/e.db" "SELECT count(*) FROM paks")"
check "extracted: nothing read through files/T" 0 \
    "$(sq "$T/e.db" "SELECT count(*) FROM paks WHERE path LIKE '%/files/T/%' OR path LIKE '%Stray%'")"
check "extracted: one load_errors row, for the unreadable folder" "1 1" \
    "$(sq "$T/e.db" "SELECT count(*) || ' ' || sum(pak_path LIKE '%/files/locked') FROM load_errors")"
check "extracted: no decode errors" 0 "$(sq "$T/e.db" "SELECT count(*) FROM paks WHERE status <> 'ok'")"

# ---- a plain folder -------------------------------------------------------------------
mkdir "$T/plain" "$T/out2"
cp "$CORPUS/mp1/Metroid1.pak" "$T/plain/"
cp "$CORPUS/mp1/Metroid2.pak" "$T/out2/Other.pak"
cp "$CORPUS/mp1/Metroid3.pak" "$T/out2/M3.pak"
ln -s "$T/out2/M3.pak" "$T/plain/Link.pak"
ln -s "$T/out2" "$T/plain/sub"
chmod -R a+rX "$T/plain" "$T/out2"
"${RUN[@]}" "$BIN" ingest --quiet --db "$T/p.db" "$T/plain" 2>"$T/p.err"
check "plain: exit status" 0 $?
check "plain: the PAK and the link to a file, not the linked folder" "2 0 1" \
    "$(sq "$T/p.db" "SELECT count(*) || ' ' || sum(path LIKE '%Other.pak') || ' ' || sum(path LIKE '%Link.pak' OR path LIKE '%M3.pak') FROM paks")"

finish
