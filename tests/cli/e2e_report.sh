#!/usr/bin/env bash
# e2e_report.sh BINARY SHARED_DIR — `ancsdb report` of the sample corpus (or, without it, of a
# small demo corpus) checked with independent tools: no file names an http(s) URL, every local
# link and anchor resolves (python3), and headless Chromium, with every host name made
# unresolvable, renders the index (corpus table, chart SVGs, the search index loaded by its
# script and answering a query given in the URL), the census charts and each ANCS page with
# its characters' names from truth.json and its graph. Run again without Graphviz on PATH, the
# pages show the graph as nested lists.
set -u
. "$(dirname "$0")/lib.sh"
DB=$T/c.db
if have_corpus mp1; then
    "$BIN" ingest --quiet --db "$DB" "$CORPUS/mp1" "$CORPUS/mp2" 2>"$T/ingest.err" || {
        echo "FAIL: ingest: $(tail -3 "$T/ingest.err")"
        exit 1
    }
    TRUTH=$CORPUS/truth.json
else
    skip_part "no sample corpus at $CORPUS: a small demo corpus instead, without truth.json's checks"
    "$BIN" demo --quiet --build-only --scale 0.02 "$T/demo" >/dev/null 2>&1 &&
        "$BIN" ingest --quiet --db "$DB" "$T/demo/mp1" "$T/demo/mp2" 2>"$T/ingest.err" || {
        echo "FAIL: demo corpus: $(tail -3 "$T/ingest.err")"
        exit 1
    }
    TRUTH=
fi

# a second release holding the same MP1 PAKs (a copy): the headline must count its assets once
SRC1=$CORPUS/mp1
[ -n "$TRUTH" ] || SRC1=$T/demo/mp1
mkdir -p "$T/again" && cp -r "$SRC1" "$T/again/mp1" &&
    "$BIN" ingest --quiet --db "$DB" --release again "$T/again/mp1" 2>"$T/ingest2.err" || {
    echo "FAIL: ingest of a second release: $(tail -3 "$T/ingest2.err")"
    exit 1
}

"$BIN" report --help | grep -q "usage: ancsdb report" || { echo "FAIL: report --help"; fail=1; }
"$BIN" report --db "$DB" >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: report without -o must exit 2"; fail=1; }
"$BIN" report --db "$T/none.db" -o "$T/none" >/dev/null 2>&1
[ $? -eq 3 ] || { echo "FAIL: report of a missing database must exit 3"; fail=1; }

R=$T/report
"$BIN" report --db "$DB" -o "$R" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: report exit $rc: $(tail -3 "$T/err")"; exit 1; }
[ "$(cat "$T/out")" = "$R/index.html" ] || { echo "FAIL: stdout is not the index path: $(cat "$T/out")"; fail=1; }
grep -Eq "^report: [0-9]+ files, [0-9.]+ MiB in " "$T/err" || { echo "FAIL: no summary line on stderr"; fail=1; }
for f in index.html census.html search.js style.css; do
    [ -s "$R/$f" ] || { echo "FAIL: $f missing"; fail=1; }
done

# the headline counts each asset and ANCS once over every release (python3's sqlite3 counts),
# and the footer names the version `ancsdb --version` prints
python3 - "$R/index.html" "$DB" "$("$BIN" --version)" <<'EOF' || fail=1
import re, sqlite3, sys
page, db, version = sys.argv[1], sys.argv[2], sys.argv[3].split()[-1]
html = open(page, encoding="utf-8").read()
m = re.search(r"<p>(\d+) PAKs? holding (\d+) distinct assets?, (\d+) animated character set", html)
c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
want = (c.execute("SELECT count(*) FROM paks").fetchone()[0],
        c.execute("SELECT count(*) FROM (SELECT DISTINCT p.game, e.asset_id FROM paks p "
                  "JOIN pak_entries e ON e.pak_id = p.pak_id)").fetchone()[0],
        c.execute("SELECT count(*) FROM (SELECT DISTINCT p.game, e.asset_id FROM paks p "
                  "JOIN pak_entries e ON e.pak_id = p.pak_id WHERE e.type = 'ANCS')").fetchone()[0])
err = []
if not m:
    err.append("no headline")
elif tuple(int(x) for x in m.groups()) != want:
    err.append("headline says %s PAKs, %s assets, %s ANCS; the database holds %s" % (m.groups() + (want,)))
if "Made by ancsdb %s " % version not in html:
    err.append("footer does not name version %s" % version)
for e in err:
    print("FAIL:", e)
sys.exit(1 if err else 0)
EOF

# nothing from the network: no http(s) URL anywhere (scripts, styles, fonts, SVG namespaces)
if grep -rIlE "https?://" "$R" >"$T/urls"; then
    echo "FAIL: files naming an http(s) URL: $(head -3 "$T/urls")"
    fail=1
fi

# every local href/src resolves, and so does its #anchor
python3 - "$R" <<'EOF' || fail=1
import os, sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

root = sys.argv[1]
ids, links = {}, []


class P(HTMLParser):
    def __init__(self, path):
        super().__init__()
        self.path = path
        ids[path] = set()

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k == "id" and v:
                ids[self.path].add(v)
            if k in ("href", "src", "xlink:href") and v:
                links.append((self.path, v))


pages = 0
for d, _, files in os.walk(root):
    for f in files:
        if f.endswith(".html"):
            p = os.path.join(d, f)
            P(p).feed(open(p, encoding="utf-8").read())
            pages += 1
bad = []
for page, href in links:
    u = urlsplit(href)
    if u.scheme or u.netloc:
        bad.append("%s: non-local link %s" % (page, href))
        continue
    target = os.path.normpath(os.path.join(os.path.dirname(page), unquote(u.path))) if u.path else page
    if not os.path.isfile(target):
        bad.append("%s: %s does not exist" % (page, href))
    elif u.fragment and target.endswith(".html") and u.fragment not in ids.get(target, ()):
        bad.append("%s: no #%s in %s" % (page, u.fragment, target))
for b in bad[:20]:
    print("FAIL:", b)
if bad:
    sys.exit(1)
print("ok: %d pages, %d local links resolve" % (pages, len(links)))
EOF

# the browser
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$CHROME" ]; then
    skip_part "the browser checks: no chromium (apt-get install chromium)"
else
    dom() { # dom URL OUT
        timeout 90 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
            --user-data-dir="$T/profile" --host-resolver-rules="MAP * ~NOTFOUND" \
            --virtual-time-budget=3000 --dump-dom "$1" >"$2" 2>"$T/chrome.err" ||
            { echo "FAIL: chromium on $1: $(tail -2 "$T/chrome.err")"; fail=1; }
    }
    # a character name to search for, and the ANCS pages to look at
    python3 - "$DB" "$BIN" "${TRUTH:-}" >"$T/plan" <<'EOF' || fail=1
import json, subprocess, sys
db, bin_, truth = sys.argv[1:4]
if truth:
    t = json.load(open(truth))
    picks = []
    for gk, game in (("mp1", "MP1"), ("mp2", "MP2")):
        for a in t["games"][gk]["ancs"][:3]:
            names = [c["name"] for c in a["content"]["character_set"]["characters"]]
            picks.append((game, "%08X" % a["id"], names))
else:
    out = subprocess.run([bin_, "sql", "--db", db, "--format", "json",
                          "SELECT game, printf('%08X', ancs_id) AS a, group_concat(name, '|') AS n "
                          "FROM characters GROUP BY game, ancs_id LIMIT 4"],
                         capture_output=True, text=True).stdout
    picks = [(r["game"], r["a"], r["n"].split("|")) for r in json.loads(out)]
for game, a, names in picks:
    print("%s\t%s\t%s" % (game, a, "|".join(names)))
EOF
    first_name=$(head -1 "$T/plan" | cut -f3 | cut -d'|' -f1)
    dom "file://$R/index.html?q=$first_name" "$T/index.dom"
    python3 - "$T/index.dom" "$first_name" <<'EOF' || fail=1
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
name = sys.argv[2]
err = []
m = re.search(r'id="search-status"[^>]*data-entries="(\d+)"', dom) or \
    re.search(r'data-entries="(\d+)"[^>]*id="search-status"', dom)
if not m or int(m.group(1)) == 0:
    err.append("the search index was not loaded by the page's script")
res = re.search(r'<ol id="results">(.*?)</ol>', dom, re.S)
if not res or name not in res.group(1):
    err.append("searching %r shows no result naming it" % name)
if len(re.findall(r'<svg class="chart"', dom)) < 2 or "<rect" not in dom:
    err.append("no bar chart SVG per game on the index")
for word in ("Corpus", "Release", "MP1", "MP2", "Animated character sets"):
    if word not in dom:
        err.append("index lacks %r" % word)
for e in err:
    print("FAIL: index:", e)
sys.exit(1 if err else 0)
EOF
    dom "file://$R/census.html" "$T/census.dom"
    fields=$("$BIN" query --db "$DB" --format tsv unknown-census | tail -n +2 | cut -f2 | sort -u | wc -l)
    cards=$(grep -o '<div class="card" id="field-' "$T/census.dom" | wc -l)
    charts=$(grep -o '<svg class="chart"' "$T/census.dom" | wc -l)
    [ "$cards" -eq "$fields" ] || { echo "FAIL: census shows $cards fields of $fields"; fail=1; }
    [ "$charts" -ge "$fields" ] || { echo "FAIL: census has $charts charts for $fields fields"; fail=1; }
    while IFS=$'\t' read -r game ancs names; do
        dom "file://$R/ancs/${game}_${ancs}.html" "$T/ancs.dom"
        IFS='|' read -ra list <<<"$names"
        for n in "${list[@]}"; do
            grep -qF ">$n<" "$T/ancs.dom" || { echo "FAIL: ANCS $game $ancs page lacks character $n"; fail=1; }
        done
        if command -v dot >/dev/null 2>&1; then
            grep -q '<g id="graph0"' "$T/ancs.dom" || { echo "FAIL: ANCS $game $ancs: no graph SVG"; fail=1; }
        fi
    done <"$T/plan"
    # a phone-sized window: the page still fits (no horizontal scroll of the body)
    timeout 90 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$T/profile" \
        --host-resolver-rules="MAP * ~NOTFOUND" --window-size=390,844 \
        --screenshot="$T/phone.png" "file://$R/index.html" >/dev/null 2>&1 || true
    [ -s "$T/phone.png" ] || { echo "FAIL: no phone screenshot"; fail=1; }
fi

# without Graphviz: the graphs are nested lists
R2=$T/report2
env PATH=/nonexistent "$BIN" report --db "$DB" -o "$R2" >/dev/null 2>"$T/err2" || {
    echo "FAIL: report without dot: $(tail -2 "$T/err2")"
    fail=1
}
grep -q "Graphviz 'dot' not found" "$T/err2" || { echo "FAIL: no note that dot is missing"; fail=1; }
page=$(ls "$R2"/ancs/*.html 2>/dev/null | head -1)
[ -n "$page" ] && grep -q '<ul class="tree">' "$page" || { echo "FAIL: no nested-list graph without dot"; fail=1; }

finish
