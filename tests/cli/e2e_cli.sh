#!/usr/bin/env bash
# e2e_cli.sh — the command line itself: `--opt VALUE` and `--opt=VALUE` on every subcommand,
# "needs a value" and unknown options as usage errors (exit 2), `--help` listing every option
# each command accepts, and the exit codes of CONTRACT.md (a missing PATH is 2 and creates no
# database, a folder with no PAK is 1, `ancs dump FILE.pak` without :ID is 2 and says how to
# list the IDs). Runs on PAKs built here; the shared corpus is not needed.
# usage: bash e2e_cli.sh ANCSDB [SHARED_DIR]
set -u
. "$(dirname "$0")/lib.sh"
# rc CMD...: exit status, output in $T/out and $T/err
rc() {
    "$@" >"$T/out" 2>"$T/err"
    echo $?
}

# A tiny MP1 PAK (docs/formats.md §2.2-2.5): one named, one stored 64-byte CMDL and one stored TXTR;
# built here so the test needs no corpus.
python3 - "$T/tiny.pak" <<'PY'
import struct, sys
cmdl = b"CMDL" + bytes(60)
ancs = bytes(32)
named = [(b"CMDL", 0x0419F84B, b"Samus_model")]
res = [(0, b"CMDL", 0x0419F84B, cmdl), (0, b"TXTR", 0x1A2B3C4D, ancs)]
head = struct.pack(">II", 0x00030005, 0)
head += struct.pack(">I", len(named))
for t, i, n in named:
    head += t + struct.pack(">II", i, len(n)) + n
table_size = 4 + 20 * len(res)
off = (len(head) + table_size + 31) // 32 * 32
table = struct.pack(">I", len(res))
data = b""
for c, t, i, d in res:
    table += struct.pack(">I", c) + t + struct.pack(">III", i, len(d), off + len(data))
    data += d + b"\xff" * ((32 - len(d) % 32) % 32)
body = head + table
body += b"\xff" * (off - len(body))
open(sys.argv[1], "wb").write(body + data)
PY
mkdir -p "$T/paks" "$T/nopak/sub"
cp "$T/tiny.pak" "$T/paks/tiny.pak"
echo "not a pak" >"$T/nopak/sub/readme.txt"

# --- both option forms, everywhere
check "ingest --db FILE" 0 "$(rc "$BIN" ingest --quiet --game MP1 --db "$T/a.db" "$T/paks")"
check "ingest --db=FILE" 0 "$(rc "$BIN" ingest --quiet --game=MP1 --db="$T/b.db" "$T/paks")"
check "ingest -j1 -q --game=mp1" 0 "$(rc "$BIN" ingest -q -j1 --game=mp1 --db "$T/c.db" "$T/paks")"
check "ingest --jobs=1 --db=FILE" 0 "$(rc "$BIN" ingest --jobs=1 --quiet --db="$T/c.db" "$T/paks")"
check "query --format=csv --db=FILE" 0 "$(rc "$BIN" query --format=csv --db="$T/a.db" corpus-summary)"
check "query csv header" "game,item,count,release" "$(head -1 "$T/out" | tr -d '\r')"
check "query with options after NAME" 0 "$(rc "$BIN" query corpus-summary --db "$T/a.db" --format tsv)"
check "sql --format=tsv" 0 "$(rc "$BIN" sql --db="$T/a.db" --format=tsv "SELECT 1 AS one")"
check "sql tsv output" "one 1" "$(tr '\n\t' '  ' <"$T/out" | sed 's/ $//')"
check "pak list --format=json" 0 "$(rc "$BIN" pak list --format=json "$T/tiny.pak")"
check "pak list --format json" 0 "$(rc "$BIN" pak list --format json "$T/tiny.pak")"
check "pak list --type=CMDL rows" 2 "$("$BIN" pak list --type=CMDL --format=tsv "$T/tiny.pak" | wc -l)"
check "pak extract --id=... -o DIR" 0 "$(rc "$BIN" pak extract --type=CMDL --id=0419F84B -o "$T/x" "$T/tiny.pak")"
check "pak extract --output=DIR" 0 "$(rc "$BIN" pak extract --id 0419F84B --output="$T/y" "$T/tiny.pak")"
check "extracted file" "$T/y/0419F84B.cmdl" "$(ls "$T"/y/*)"
check "ancs dump --game=MP1 (was 'unknown option')" 1 "$(rc "$BIN" ancs dump --game=MP1 "$T/tiny.pak:1A2B3C4D")"
grep -q "unknown option" "$T/err"
check "ancs dump --game=MP1 is not an unknown option" 1 $?
check "demo --scale=0.01 --build-only" 0 "$(rc "$BIN" demo --quiet --build-only --scale=0.01 "$T/demo")"

# --- missing values and unknown options: exit 2, one clear line
for args in "pak list --format" "query --format" "query --db" "sql --db" "sql --param" \
    "ingest --db" "ingest --jobs" "ingest --game" "pak extract --type" "pak extract --id" \
    "pak extract -o" "ancs dump --game" "demo --scale" "graph --db" "graph --format" "export --db" "export --game" "report --db" "report -o"; do
    # shellcheck disable=SC2086
    got=$(rc "$BIN" $args)
    check "$args: exit" 2 "$got"
    opt=${args##* }
    cmd=${args% *}
    check "$args: message" "ancsdb: $cmd: $opt needs a value" "$(head -1 "$T/err")"
done
check "missing value before another option" 2 "$(rc "$BIN" pak list --format --help)"
check "... says so" "ancsdb: pak list: --format needs a value" "$(head -1 "$T/err")"
for cmd in "ingest" "query" "sql" "pak list" "pak extract" "ancs dump" "demo" "graph" "export" "report"; do
    # shellcheck disable=SC2086
    check "$cmd --bogus: exit" 2 "$(rc "$BIN" $cmd --bogus)"
    grep -q "^ancsdb: $cmd: unknown option '--bogus'" "$T/err"
    check "$cmd --bogus: message" 0 $?
    # shellcheck disable=SC2086
    check "$cmd --quiet=1 / flag with a value" 2 "$(rc "$BIN" $cmd --help=1)"
done
check "--jobs 0" 2 "$(rc "$BIN" ingest --jobs 0 --db "$T/j.db" "$T/paks")"
check "--jobs 65" 2 "$(rc "$BIN" ingest --jobs=65 --db "$T/j.db" "$T/paks")"

# --- --help is true: every option the command accepts appears in its help
opts_of() { # the options a help text lists: lines "  -x, --name ..." or "  --name ..."
    grep -E -- '^ +(-[a-zA-Z], )?--[a-z]' | grep -oE -- '--[a-z][a-z-]*' | sort -u | tr '\n' ' '
}
accepts() { # accepts "CMD..." OPT: the command knows the option (not "unknown option")
    local cmd=$1 opt=$2
    # shellcheck disable=SC2086
    "$BIN" $cmd "$opt=" >/dev/null 2>"$T/e" </dev/null
    ! grep -q "unknown option" "$T/e"
}
for cmd in "ingest" "query" "sql" "pak list" "pak extract" "ancs dump" "demo" "graph" "export" "report"; do
    # shellcheck disable=SC2086
    help=$("$BIN" $cmd --help)
    check "$cmd --help exit" 0 $?
    listed=" $(echo "$help" | opts_of)"
    # every option named in the help is accepted, and every option the parser knows is in
    # the help: try the help's own list plus the options any command has (each once); an
    # accepted option must be listed.
    for o in $( (echo "$listed" | tr ' ' '\n'
        printf '%s\n' --db --format --game --jobs --quiet --rehash --list --param --type --id \
            --output --force --json --scale --seed --opaque-mib --build-only --who --help) |
        grep . | sort -u); do
        if accepts "$cmd" "$o"; then
            echo "$help" | grep -q -- "$o"
            check "$cmd: $o accepted and listed in --help" 0 $?
        else
            case "$listed " in *" $o "*) bad "$cmd does not accept $o (its help lists it)" ;; esac
        fi
    done
done

# --- exit codes of CONTRACT.md
check "missing PATH: exit 2" 2 "$(rc "$BIN" ingest --db "$T/m.db" "$T/does-not-exist")"
check "missing PATH: names it" "ancsdb: ingest: $T/does-not-exist: no such file or folder" \
    "$(head -1 "$T/err")"
check "missing PATH: no database created" no "$([ -e "$T/m.db" ] && echo yes || echo no)"
check "missing PATH beside a good one: exit 2" 2 "$(rc "$BIN" ingest --db "$T/m.db" "$T/paks" "$T/nope")"
check "... still no database" no "$([ -e "$T/m.db" ] && echo yes || echo no)"
check "folder without PAK: exit 1" 1 "$(rc "$BIN" ingest --db "$T/n.db" "$T/nopak")"
grep -qx "ancsdb: no PAK files under $T/nopak" "$T/err"
check "folder without PAK: says so" 0 $?
# a disc container that fails to open is a fault of its own, not "no PAK files"
{ printf 'WIA\001'; head -c 252 /dev/zero; } >"$T/bad.wia"
check "a container that cannot be opened: exit 1" 1 "$(rc "$BIN" ingest --db "$T/w.db" "$T/bad.wia")"
grep -q "bad.wia pak @0x34: WIA: header 1 SHA-1 mismatch" "$T/err"
check "... names the file, the offset and the fault" 0 $?
check "... and not as a path without PAKs" 0 "$(grep -c "no PAK files" "$T/err")"
check "ancs dump FILE.pak without :ID: exit 2" 2 "$(rc "$BIN" ancs dump "$T/tiny.pak")"
grep -q "ancsdb pak list --type ANCS $T/tiny.pak" "$T/err"
check "... says how to list the ANCS IDs" 0 $?
"$BIN" pak list --type TXTR --format tsv "$T/tiny.pak" | tail -n +2 | cut -f2,3 >"$T/t.tsv"
check "pak list --type TXTR lists the TXTR" "TXTR	1A2B3C4D" "$(cat "$T/t.tsv")"
# and on the corpus, that command lists exactly the ANCS of resources.tsv
if have_corpus resources.tsv; then
    "$BIN" pak list --type ANCS --format tsv "$CORPUS/mp1/Metroid1.pak" | tail -n +2 |
        awk -F'\t' '{print $1}' >"$T/got"
    awk -F'\t' '$1 == "mp1" && $2 == "Metroid1.pak" && $4 == "ANCS" {print $3}' \
        "$CORPUS/resources.tsv" >"$T/want"
    check "pak list --type ANCS = resources.tsv's ANCS entries" "$(cat "$T/want")" "$(cat "$T/got")"
    check "ancs dump of a corpus PAK without :ID" 2 "$(rc "$BIN" ancs dump "$CORPUS/mp1/Metroid1.pak")"
else
    skip_part "no sample corpus at $CORPUS: its checks"
fi
check "no arguments: usage" 2 "$(rc "$BIN")"
check "unknown command" 2 "$(rc "$BIN" frobnicate)"

finish
