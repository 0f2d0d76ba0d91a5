#!/usr/bin/env bash
# e2e_install.sh ANCSDB — `cmake --install` of the build ANCSDB belongs to, into a prefix in a
# temporary folder (issue 20 item 20): bin/ancsdb runs, share/man/man1/ancsdb.1 renders with
# `man -l` (man-db) and holds every command's usage line and every named query as the binary
# prints them, and the bash completion (share/bash-completion/completions/ancsdb), loaded into
# bash and driven through COMP_WORDS/COMP_CWORD, completes commands, subcommands, options,
# query names and release labels read from a database (expected labels: the sqlite3 shell).
set -u
. "$(dirname "$0")/lib.sh"
BIN=$(realpath "$BIN")
BUILD=$(dirname "$BIN")
[ -f "$BUILD/cmake_install.cmake" ] || skip "$BUILD is not a CMake build"
need_tools man sqlite3
P=$T/prefix
cmake --install "$BUILD" --prefix "$P" >"$T/install.out" 2>&1
check "cmake --install exit" 0 $?
check "installed binary: --version" "$("$BIN" --version)" "$("$P/bin/ancsdb" --version 2>&1)"
MAN=$P/share/man/man1/ancsdb.1
COMP=$P/share/bash-completion/completions/ancsdb
[ -f "$MAN" ] && [ -f "$COMP" ]
check "man page and completion installed" 0 $?

# the man page renders and says what the binary's help says
MANWIDTH=200 man -l "$MAN" 2>"$T/man.err" | col -b >"$T/man.txt"
check "man -l renders without warnings" "" "$(grep -v '^$' "$T/man.err")"
grep -q "ancsdb $("$BIN" --version | cut -d' ' -f2)" "$T/man.txt"
check "man page names the version" 0 $?
cmds=$("$BIN" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
[ "$(echo "$cmds" | wc -w)" -ge 8 ] || { echo "FAIL: no commands in --help"; fail=1; }
for c in $cmds; do
    u=$("$BIN" "$c" --help | grep -m1 '^usage: ')
    grep -qF -- "$u" "$T/man.txt"
    check "man page holds '$u'" 0 $?
done
for q in $("$BIN" query --list --format tsv | tail -n +2 | cut -f1); do
    grep -qE "^ +$q( |$)" "$T/man.txt"
    check "man page lists query $q" 0 $?
done

# completion: a database with releases for the labels
DB=$T/c.db
"$BIN" demo --quiet --build-only --scale 0.02 "$T/demo" >/dev/null 2>&1 &&
    "$BIN" ingest --quiet --db "$DB" "$T/demo/mp1" "$T/demo/mp2" 2>/dev/null
check "demo corpus ingested" 0 $?
labels=$(sqlite3 "$DB" "SELECT label FROM releases ORDER BY label" | tr '\n' ' ')
complete_words() { # the words bash would offer for the command line "$@" (last word: cur)
    env PATH="$P/bin:$PATH" bash --norc --noprofile -c '
        source "$1"; shift
        complete -p ancsdb >/dev/null || exit 9
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        _ancsdb
        printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' _ "$COMP" "$@"
}
env PATH="$P/bin:$PATH" bash --norc --noprofile -c 'source "$1"; complete -p ancsdb' _ "$COMP" >"$T/cp"
grep -q -- "-F _ancsdb ancsdb" "$T/cp"
check "complete -p ancsdb names the function" 0 $?
check "commands: 'ancsdb q'" "query " "$(complete_words ancsdb q)"
check "commands: 'ancsdb re'" "report " "$(complete_words ancsdb re)"
check "subcommands: 'ancsdb pak '" "extract list " "$(complete_words ancsdb pak '')"
check "options: 'ancsdb ingest --re'" "--rehash --release " "$(complete_words ancsdb ingest --re)"
check "options of a subcommand: 'ancsdb pak extract --fo'" "--force " "$(complete_words ancsdb pak extract --fo)"
check "query names: 'ancsdb query unknown-census'" "unknown-census unknown-census-summary " \
    "$(complete_words ancsdb query unknown-census)"
check "release labels (sqlite3): 'ancsdb query --db DB --release '" "$labels" \
    "$(complete_words ancsdb query --db "$DB" --release '')"
first=$(echo "$labels" | cut -d' ' -f1)
check "release lists: the label after a comma" "$first,$first " \
    "$(complete_words ancsdb query --db="$DB" --release "$first,${first:0:2}" | tr ' ' '\n' | grep -x "$first,$first" | tr '\n' ' ')"
check "release-diff A B: labels" "$labels" "$(complete_words ancsdb query --db "$DB" release-diff '')"

finish
