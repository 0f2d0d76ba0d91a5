#!/usr/bin/env bash
# e2e_report_reuse.sh ANCSDB — a report made into the folder of an earlier one redraws only the
# graphs whose drawing would change (issue 24 item 3), on a small generated corpus, with
# Graphviz's dot:
#  - the first report draws every graph ("graphs: N drawn, 0 reused" on its summary line, N
#    the ANCS pages written, each holding its SVG);
#  - a second report of the unchanged database draws none (0 drawn, N reused) and its files
#    are byte for byte those of the first (the index's "made" time aside); each page whose
#    bytes are unchanged is the first report's file itself (the same inode, as find -printf
#    %i says, one link), not a copy (but for search.js and the world pages, few and large,
#    which are written anew); a page that has a second link (planted outside the
#    report) is written anew and the file outside is left as it was;
#  - a character renamed in the database (by python3's sqlite3) redraws exactly its set's
#    graph (1 drawn, N-1 reused), the new name is in that page's drawing, and every file is
#    byte for byte that of a fresh report of the changed database into a new folder;
#  - an earlier page that is a symbolic link is not read: its graph is drawn again;
#  - another Graphviz version (a stand-in dot on PATH whose -V says so) redraws all N;
#  - pages written by five threads at once (--jobs 5, every kind of page cut into runs of one
#    page by ANCSDB_TEST_PAGES_PER_WRITER=1) are byte for byte those one thread (--jobs 1)
#    writes: the search index, every asset page's "Reached by" rows and the ANCS pages in the
#    same order;
#  - a dot that fails on one graph (a stand-in that exits 1 when its input holds that graph,
#    having written nothing, or everything but the end of that graph's SVG; --jobs 1, so that
#    its batch holds others): the other graphs of its
#    batch are still drawn (each ANCS page but that
#    one byte for byte the real dot's) and that one's page shows the nested list;
#  - two asset types that name one page file (types are read from PAKs: 'PA!T' and 'PA.T'
#    both make MP1_PA_T_...html): when the earlier report's page was kept (linked), the
#    second page is a new file, not written into the earlier report's (a run killed after
#    the asset pages, ANCSDB_TEST_KILL_AFTER=report_assets:1, leaves that file as it was).
set -u
. "$(dirname "$0")/lib.sh"
need_tools dot python3
BIN=$(realpath "$BIN")
DB=$T/c.db
"$BIN" demo --quiet --build-only --scale 0.02 "$T/demo" >/dev/null 2>&1 &&
    "$BIN" ingest --quiet --db "$DB" "$T/demo/mp1" "$T/demo/mp2" 2>"$T/ingest.err" ||
    die "demo corpus: $(tail -3 "$T/ingest.err")"

# [JOBS=N] report DIR [ENV...] -> $drawn $reused from the summary line
report() {
    local dir=$1
    shift
    env "$@" "$BIN" report ${JOBS:+--jobs "$JOBS"} --db "$DB" -o "$dir" >/dev/null 2>"$T/err" ||
        die "report into $dir: $(tail -3 "$T/err")"
    local line
    line=$(grep -E '^report: [0-9]+ files, ' "$T/err")
    drawn=$(sed -nE 's/.*graphs: ([0-9]+) drawn, ([0-9]+) reused$/\1/p' <<<"$line")
    reused=$(sed -nE 's/.*graphs: ([0-9]+) drawn, ([0-9]+) reused$/\2/p' <<<"$line")
    [ -n "$drawn" ] && [ -n "$reused" ] || bad "no 'graphs: D drawn, R reused' on the summary line: $line"
}

# files are compared whole, but for the index's line saying when it was made (to the minute)
MADE='; made [0-9-]* [0-9:]* UTC from '
R=$T/r
report "$R"
n=$(ls "$R"/ancs/*.html | wc -l)
[ "$n" -gt 3 ] || die "only $n ANCS pages"
with_svg=$(grep -l '<g id="graph0"' "$R"/ancs/*.html | wc -l)
check "ANCS pages holding a drawing" "$n" "$with_svg"
check "first report: drawn, reused" "$n 0" "$drawn $reused"
cp -a "$R" "$T/first"

# unchanged database: nothing drawn, the same bytes
# a page with a second link, outside the report
linked=$(find "$R/asset" -name '*.html' | sort | sed -n 3p)
ln "$linked" "$T/outside.html"
cp "$T/outside.html" "$T/outside.before"
find "$R" -type f ! -name index.html ! -name .ancsdb-report ! -name search.js ! -path '*/world/*' -printf '%P %i\n' | sort >"$T/inodes1"
report "$R"
check "second report: drawn, reused" "0 $n" "$drawn $reused"
diff -r -I "$MADE" "$T/first" "$R" >"$T/diff" || bad "the second report differs from the first: $(head -5 "$T/diff")"
find "$R" -type f ! -name index.html ! -name .ancsdb-report ! -name search.js ! -path '*/world/*' -printf '%P %i\n' | sort >"$T/inodes2"
check "files of the second report that are the first's own (all but the one with two links)" \
    "$(($(wc -l <"$T/inodes1") - 1))" "$(comm -12 "$T/inodes1" "$T/inodes2" | wc -l)"
comm -13 "$T/inodes1" "$T/inodes2" >"$T/new"
check "the file written anew" "${linked#"$R"/}" "$(cut -d' ' -f1 "$T/new")"
check "files of the second report with more than one link" 0 "$(find "$R" -type f -links +1 | wc -l)"
cmp -s "$T/outside.html" "$T/outside.before" && [ "$(stat -c %h "$T/outside.html")" = 1 ] ||
    bad "the file linked from outside was changed or is still linked"

# one character renamed: its set alone is drawn again
python3 - "$DB" >"$T/renamed" <<'EOF' || die "cannot rename a character"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
game, ancs, idx = c.execute("SELECT game, ancs_id, char_index FROM characters "
                            "WHERE name IS NOT NULL ORDER BY game, ancs_id, char_index "
                            "LIMIT 1").fetchone()
n = c.execute("UPDATE characters SET name = 'Renamed_by_test' WHERE game = ? AND ancs_id = ? "
              "AND char_index = ?", (game, ancs, idx)).rowcount
c.commit()
print("%s_%08X" % (game, ancs))
sys.exit(0 if n == 1 else 1)
EOF
page=$R/ancs/$(cat "$T/renamed").html
report "$R"
check "after a rename: drawn, reused" "1 $((n - 1))" "$drawn $reused"
python3 - "$page" <<'EOF' || bad "the renamed character is not in its set's drawing"
import re, sys
html = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"<svg.*?</svg>", html, re.S)
sys.exit(0 if m and "Renamed_by_test" in m.group(0) else 1)
EOF
report "$T/fresh"
check "fresh report: drawn, reused" "$n 0" "$drawn $reused"
diff -r -I "$MADE" "$T/fresh" "$R" >"$T/diff" || bad "a report redrawing one graph differs from a fresh one: $(head -5 "$T/diff")"
changed=$(diff -rq "$T/first/ancs" "$R/ancs" | wc -l)
check "ANCS pages changed by the rename" 1 "$changed"

# an earlier page that is a link is not followed
cp "$page" "$T/copy.html"
rm "$page"
ln -s "$T/copy.html" "$page"
report "$R"
check "a page that is a link: drawn, reused" "1 $((n - 1))" "$drawn $reused"
[ -f "$page" ] && [ ! -L "$page" ] || bad "the page is still a link"

# another Graphviz version: every graph is drawn again
REAL_DOT=$(command -v dot)
mkdir "$T/hook"
cat >"$T/hook/dot" <<EOF
#!/usr/bin/env bash
# a stand-in for dot that says it is another version
if [ "\$1" = -V ]; then echo "dot - graphviz version 99.0.0 (stand-in)" >&2; exit 0; fi
exec "$REAL_DOT" "\$@"
EOF
chmod +x "$T/hook/dot"
report "$R" PATH="$T/hook:$PATH"
check "another dot version: drawn, reused" "$n 0" "$drawn $reused"
# the same drawings (dot is the same), under other keys
diff -r -I "$MADE" -I 'data-graph="[0-9a-f]*"' "$T/fresh" "$R" >"$T/diff" || bad "the redrawn report differs: $(head -5 "$T/diff")"
grep -h -o 'data-graph="[0-9a-f]*"' "$T/fresh"/ancs/*.html | sort >"$T/k1"
grep -h -o 'data-graph="[0-9a-f]*"' "$R"/ancs/*.html | sort >"$T/k2"
[ "$(comm -12 "$T/k1" "$T/k2" | wc -l)" -eq 0 ] || bad "a graph kept its key under another dot version"

# several page writers at once: the same files as one
"$BIN" report --jobs 1 --db "$DB" -o "$T/one" >/dev/null 2>"$T/err" ||
    die "report --jobs 1: $(tail -3 "$T/err")"
ANCSDB_TEST_PAGES_PER_WRITER=1 "$BIN" report --jobs 5 --db "$DB" -o "$T/five" >/dev/null \
    2>"$T/err" || die "report --jobs 5: $(tail -3 "$T/err")"
check "pages written by five threads" "$(find "$T/one" -type f | wc -l)" \
    "$(find "$T/five" -type f | wc -l)"
diff -r -I "$MADE" "$T/one" "$T/five" >"$T/diff" || bad "five page writers wrote other files than one: $(head -5 "$T/diff")"

# a graph dot cannot draw costs the others of its batch nothing
badpage=$(find "$T/one/ancs" -name '*.html' | sort | sed -n 2p)
badid=$(basename "$badpage" .html)
mkdir "$T/hook2"
cat >"$T/hook2/dot" <<EOF
#!/usr/bin/env bash
# a stand-in for dot that cannot draw the graph "ANCS ${badid/_/ }": it exits 1, having
# written nothing (DOT_FAILS=none) or all the real dot writes but the end of that graph's
# document (DOT_FAILS=partial)
if [ "\$1" = -V ]; then exec "$REAL_DOT" "\$@"; fi
in=\$(cat)
case "\$in" in
*'digraph "ANCS ${badid/_/ }"'*)
    [ "\$DOT_FAILS" = partial ] || exit 1
    printf '%s\n' "\$in" | "$REAL_DOT" "\$@" | python3 -c '
import sys
s = sys.stdin.read()
i = s.index("<!-- Title: ANCS ${badid/_/ } Pages")
j = s.index("</svg>\n", i)
sys.stdout.write(s[:j] + s[j + 7:])'
    exit 1 ;;
esac
printf '%s\n' "\$in" | exec "$REAL_DOT" "\$@"
EOF
chmod +x "$T/hook2/dot"
for how in none partial; do
    # one dot at a time: batches of several graphs (a quarter of a slot's share each)
    JOBS=1 report "$T/failing-$how" PATH="$T/hook2:$PATH" DOT_FAILS=$how
    check "a dot failing on one graph ($how): drawn, reused" "$n 0" "$drawn $reused"
    grep -q '<ul class="tree">' "$T/failing-$how/ancs/$badid.html" &&
        ! grep -q '<svg' "$T/failing-$how/ancs/$badid.html" ||
        bad "($how) the page of the graph dot cannot draw shows no nested list (or a drawing)"
    check "pages with a drawing when one graph cannot be drawn ($how)" "$((n - 1))" \
        "$(grep -l '<g id="graph0"' "$T/failing-$how"/ancs/*.html | wc -l)"
    diff -r -I "$MADE" -x "$badid.html" "$T/one/ancs" "$T/failing-$how/ancs" >"$T/diff" ||
        bad "($how) the other pages differ from the real dot's: $(head -5 "$T/diff")"
done

# two types that name one page: the second write goes to a new file
DBH=$T/h.db
cp "$DB" "$DBH"
addtype() {
    python3 - "$DBH" "$1" <<'EOF' || die "cannot add a reached asset of type $1"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
r = c.execute("SELECT game, ancs_id, content_id, char_index, rule, k1, k2, k3 FROM char_reach "
              "ORDER BY game, ancs_id, char_index, rule, k1, k2, k3 LIMIT 1").fetchone()
c.execute("INSERT INTO char_reach VALUES (?,?,?,?,?,?,?,?,?,?,?)",
          r[:5] + (r[5] + 1000 + len(sys.argv[2]),) + r[6:] + (sys.argv[2], 0x12345678, "test"))
c.commit()
EOF
}
addtype 'PA!T'
"$BIN" report --db "$DBH" -o "$T/h" >/dev/null 2>"$T/err" || die "report of PA!T: $(tail -3 "$T/err")"
hpage=$(find "$T/h/asset" -name '*_PA_T_12345678.html')
[ -n "$hpage" ] && grep -q 'PA!T' "$hpage" || die "no page of the asset of type PA!T"
cp "$hpage" "$T/hpage.before"
addtype 'PA.T'
ANCSDB_TEST_KILL_AFTER=report_assets:1 "$BIN" report --db "$DBH" -o "$T/h" >/dev/null 2>&1
cmp -s "$hpage" "$T/hpage.before" || bad "the earlier report's page was written into by a page of the same name"

finish
