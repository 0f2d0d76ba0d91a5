#!/usr/bin/env bash
# e2e_report_files.sh ANCSDB — where `ancsdb report -o DIR` writes (issue 20 item 5), on a
# small generated corpus:
#  - links planted in DIR (style.css -> a victim file, asset -> another folder) are replaced,
#    never written through: the victim keeps its bytes, the other folder stays empty;
#  - a folder holding something that is not an earlier report is refused (exit 3) and left as
#    it was; an earlier report is replaced (a page of it that the new one lacks is gone);
#  - two reports into one folder at the same time keep their work files apart: a stand-in
#    `dot` (a hook on PATH) holds the first run's Graphviz step until the second run has
#    finished completely; both exit 0 and every ANCS page of the result has its graph.
set -u
. "$(dirname "$0")/lib.sh"
BIN=$(realpath "$BIN")
DB=$T/c.db
"$BIN" demo --quiet --build-only --scale 0.02 "$T/demo" >/dev/null 2>&1 &&
    "$BIN" ingest --quiet --db "$DB" "$T/demo/mp1" "$T/demo/mp2" 2>"$T/ingest.err" || {
    echo "FAIL: demo corpus: $(tail -3 "$T/ingest.err")"
    exit 1
}

# --- links planted in an earlier report
R=$T/r
"$BIN" report --quiet --db "$DB" -o "$R" >/dev/null 2>"$T/err" || { echo "FAIL: first report: $(cat "$T/err")"; exit 1; }
printf 'precious\n' >"$T/victim"
mkdir "$T/elsewhere"
rm -rf "$R/style.css" "$R/asset"
ln -s "$T/victim" "$R/style.css"
ln -s "$T/elsewhere" "$R/asset"
touch "$R/ancs/stale-page.html"
"$BIN" report --quiet --db "$DB" -o "$R" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: report over an earlier one: exit $rc: $(cat "$T/err")"; fail=1; }
[ "$(cat "$T/victim")" = precious ] || { echo "FAIL: style.css -> victim was written through"; fail=1; }
[ -z "$(ls -A "$T/elsewhere")" ] || { echo "FAIL: asset -> elsewhere received $(ls "$T/elsewhere" | wc -l) files"; fail=1; }
[ -f "$R/style.css" ] && [ ! -L "$R/style.css" ] || { echo "FAIL: style.css is not a file of the report"; fail=1; }
[ -d "$R/asset" ] && [ ! -L "$R/asset" ] && [ -n "$(ls "$R/asset")" ] || { echo "FAIL: asset/ is not the report's folder"; fail=1; }
[ ! -e "$R/ancs/stale-page.html" ] || { echo "FAIL: the earlier report was not replaced (a stale page is left)"; fail=1; }
left=$(find "$R" -maxdepth 1 -name '.ancsdb-*' ! -name .ancsdb-report | wc -l)
[ "$left" -eq 0 ] || { echo "FAIL: $left private folders left in the report"; fail=1; }

# --- a folder that is not a report: refused, untouched
U=$T/user
mkdir "$U"
printf 'my notes\n' >"$U/index.html"
printf 'data\n' >"$U/thesis.txt"
"$BIN" report --quiet --db "$DB" -o "$U" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 3 ] || { echo "FAIL: report into a folder of other files: exit $rc, want 3"; fail=1; }
grep -q "not empty" "$T/err" || { echo "FAIL: no reason given: $(cat "$T/err")"; fail=1; }
[ "$(ls -A "$U" | sort | tr '\n' ' ')" = "index.html thesis.txt " ] &&
    [ "$(cat "$U/index.html")" = "my notes" ] || { echo "FAIL: the folder was changed: $(ls -A "$U")"; fail=1; }

# --- two reports into one folder at once
REAL_DOT=$(command -v dot || true)
if [ -z "$REAL_DOT" ]; then
    echo "no Graphviz dot: the concurrent-report check is skipped"
else
    mkdir "$T/hook"
    cat >"$T/hook/dot" <<EOF
#!/usr/bin/env bash
# a stand-in for dot: with HOLD_DOT set, a drawing run waits for its go file
if [ -n "\${HOLD_DOT:-}" ] && [ "\$1" != -V ]; then
    touch "\$HOLD_DOT.waiting"
    while [ ! -e "\$HOLD_DOT.go" ]; do sleep 0.05; done
fi
exec "$REAL_DOT" "\$@"
EOF
    chmod +x "$T/hook/dot"
    C=$T/conc
    env PATH="$T/hook:$PATH" HOLD_DOT="$T/hold" "$BIN" report --quiet --db "$DB" -o "$C" \
        >/dev/null 2>"$T/a.err" &
    a=$!
    while [ ! -e "$T/hold.waiting" ] && kill -0 $a 2>/dev/null; do sleep 0.05; done
    env PATH="$T/hook:$PATH" "$BIN" report --quiet --db "$DB" -o "$C" >/dev/null 2>"$T/b.err"
    rb=$?
    touch "$T/hold.go"
    wait $a
    ra=$?
    [ $ra -eq 0 ] && [ $rb -eq 0 ] || { echo "FAIL: concurrent reports exit $ra and $rb: $(cat "$T/a.err" "$T/b.err")"; fail=1; }
    pages=$(ls "$C"/ancs/*.html | wc -l)
    graphs=$(grep -l '<g id="graph0"' "$C"/ancs/*.html | wc -l)
    [ "$pages" -gt 0 ] && [ "$graphs" -eq "$pages" ] || { echo "FAIL: concurrent reports: $graphs of $pages ANCS pages have their graph"; fail=1; }
fi

finish
