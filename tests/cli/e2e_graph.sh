#!/usr/bin/env bash
# e2e_graph.sh BINARY SHARED_DIR — `ancsdb graph`: for every ANCS of the sample corpus the DOT
# is accepted by Graphviz's `dot`, draws each character with its name and each asset once, and
# holds what truth.json says the characters reach; ANCS:CHAR draws one character; --who draws
# exactly the characters truth.json lists for a particle; --format svg is XML; without
# Graphviz svg exits 3 naming the package; usage errors exit 2.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus
DB=$T/c.db
"$BIN" ingest --quiet --db "$DB" "$CORPUS/mp1" "$CORPUS/mp2" 2>"$T/ingest.err" || {
    echo "FAIL: ingest: $(tail -3 "$T/ingest.err")"
    exit 1
}
expect_rc() { # expect_rc WANT DESCRIPTION CMD...
    local want=$1 what=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL: $what: exit $rc, expected $want ($(head -2 "$T/err"))"
        fail=1
    fi
}
expect_rc 0 "graph --help" "$BIN" graph --help
grep -q "usage: ancsdb graph" "$T/out" || { echo "FAIL: graph --help text"; fail=1; }
expect_rc 2 "graph without target" "$BIN" graph --db "$DB"
expect_rc 2 "graph bad ID" "$BIN" graph --db "$DB" nothex
expect_rc 2 "graph bad char index" "$BIN" graph --db "$DB" 0x12:x
expect_rc 2 "graph bad format" "$BIN" graph --db "$DB" --format png 0x12
expect_rc 2 "graph bad game" "$BIN" graph --db "$DB" --game MP3 0x12
expect_rc 2 "graph --who needs TYPE and ID" "$BIN" graph --db "$DB" --who PART
expect_rc 1 "graph of an ANCS not in the database" "$BIN" graph --db "$DB" 0x12345678
expect_rc 3 "graph without a database" "$BIN" graph --db "$T/none.db" 0x12345678

# svg without Graphviz on PATH: exit 3, says how to get it
expect_rc 3 "svg without dot" env PATH=/nonexistent "$BIN" graph --db "$DB" --format svg \
    "$(python3 -c "import json,sys; print('%08X' % json.load(open(sys.argv[1]))['games']['mp1']['ancs'][0]['id'])" "$CORPUS/truth.json")"
grep -q "ancsdb: graph: Graphviz 'dot' not found; install it (apt-get install graphviz) or use --format dot" "$T/err" \
    || { echo "FAIL: message without dot: $(cat "$T/err")"; fail=1; }

if ! command -v dot >/dev/null 2>&1; then
    echo "skipping the Graphviz checks: no 'dot' on PATH (apt-get install graphviz)"
    HAVE_DOT=0
else
    HAVE_DOT=1
fi

python3 - "$BIN" "$DB" "$CORPUS/truth.json" "$HAVE_DOT" "$T" <<'EOF' || fail=1
import json, re, subprocess, sys
import xml.etree.ElementTree as ET

bin_, db, truth_path, have_dot, tmp = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1", sys.argv[5]
truth = json.load(open(truth_path))
NONE = (0, 0xFFFFFFFF)
errors = []
NODE = re.compile(r'^\s*(n\d+) \[label="((?:[^"\\]|\\.)*)"')
EDGE = re.compile(r'^\s*(n\d+) -> (n\d+)')


def graph(*args, fmt="dot"):
    p = subprocess.run([bin_, "graph", "--db", db, "--format", fmt, *args],
                       capture_output=True, text=True)
    if p.returncode != 0:
        errors.append("graph %s: exit %d %s" % (" ".join(args), p.returncode, p.stderr.strip()))
    return p.stdout


def parse(dot):
    nodes, edges = {}, []
    for line in dot.splitlines():
        m = NODE.match(line)
        if m:
            nodes[m.group(1)] = m.group(2).split("\\n")
            continue
        m = EDGE.match(line)
        if m:
            edges.append((m.group(1), m.group(2)))
    return nodes, edges


def check_dot(dot, what):
    if not have_dot:
        return
    p = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True)
    if p.returncode != 0 or p.stderr.strip():
        errors.append("%s: dot rejects it: %s" % (what, p.stderr.strip()[:200]))


def asset_nodes(nodes, game):
    """(type, id) of asset nodes, with a count of how often each is drawn."""
    seen = {}
    for lab in nodes.values():
        head = lab[0].split(" ")
        if len(head) == 2 and head[1] == game and len(lab) >= 2 and re.fullmatch(r"[0-9A-F]{8}", lab[1]):
            key = (head[0], int(lab[1], 16))
            seen[key] = seen.get(key, 0) + 1
    return seen


LISTS = [("generic_particles", "PART"), ("swoosh_particles", "SWHC"), ("third_list", "????"),
         ("electric_particles", "ELSC"), ("spawn_particles", "SPSC")]
graphs = 0
for gkey, game in (("mp1", "MP1"), ("mp2", "MP2")):
    for a in truth["games"][gkey]["ancs"]:
        aid = "%08X" % a["id"]
        dot = graph("--game", game, aid)
        check_dot(dot, "ANCS " + aid)
        graphs += 1
        nodes, edges = parse(dot)
        chars = a["content"]["character_set"]["characters"]
        got_chars = {}
        for n, lab in nodes.items():
            m = re.fullmatch(r"character (\d+)", lab[0])
            if m:
                got_chars[int(m.group(1))] = lab[1] if len(lab) > 1 else None
        want_chars = {i: c["name"] for i, c in enumerate(chars)}
        if got_chars != want_chars:
            errors.append("%s %s: characters %s, expected %s" % (game, aid, got_chars, want_chars))
        seen = asset_nodes(nodes, game)
        for key, n in seen.items():
            if n > 1:
                errors.append("%s %s: %s %08X drawn %d times" % (game, aid, key[0], key[1], n))
        if ("ANCS", a["id"]) not in seen:
            errors.append("%s %s: no ANCS node" % (game, aid))
        want = set()
        reach = {r["character_index"]: r for r in a["derived"]["character_reach"]}
        for i, c in enumerate(chars):
            for k, t in (("model_id", "CMDL"), ("skin_id", "CSKR"), ("skeleton_id", "CINF"),
                         ("frozen_model", "CMDL"), ("frozen_skin", "CSKR"),
                         ("spatial_primitives_id", "CSPP")):
                if c.get(k) is not None and c[k] not in NONE:
                    want.add((t, c[k]))
            for k, t in LISTS:
                for v in c["particle_resource_data"].get(k) or []:
                    if v not in NONE:
                        want.add((t, v))
            for ef in c.get("effect_array") or []:
                for comp in ef["components"]:
                    if comp["particle"]["id"] not in NONE:
                        want.add((comp["particle"]["type"], comp["particle"]["id"]))
            r = reach.get(i, {"anim_ids": [], "evnt_ids": [], "event_particles": []})
            want |= {("ANIM", v) for v in r["anim_ids"]}
            want |= {("EVNT", v) for v in r["evnt_ids"]}
            want |= {(p["type"], p["id"]) for p in r["event_particles"]}
        missing = want - set(seen)
        for t, v in sorted(missing)[:5]:
            errors.append("%s %s: no node %s %08X" % (game, aid, t, v))
        # one character alone
        last = len(chars) - 1
        nodes1, _ = parse(graph("--game", game, "%s:%d" % (aid, last)))
        ch1 = [lab for lab in nodes1.values() if lab[0].startswith("character ")]
        if [lab[0] for lab in ch1] != ["character %d" % last]:
            errors.append("%s %s:%d: character nodes %s" % (game, aid, last, ch1))

# --who: the characters truth.json says reach a particle, and the sets that refer to it
# in a way no character owns
whos = 0
for gkey, game in (("mp1", "MP1"), ("mp2", "MP2")):
    for p in truth["games"][gkey]["particle_refs"]:
        if not (p["events_by_character"] or p["set_level"] or p["third_list"]):
            continue
        dot = graph("--who", p["type"], "%08X" % p["id"])
        check_dot(dot, "who %s %08X" % (p["type"], p["id"]))
        nodes, edges = parse(dot)
        ancs_of = {}
        for f, t in edges:
            if nodes[f][0] == "ANCS " + game and nodes[t][0].startswith("character "):
                ancs_of[t] = int(nodes[f][1], 16)
        got = set()
        for n, lab in nodes.items():
            m = re.fullmatch(r"character (\d+)", lab[0])
            if m:
                got.add((ancs_of.get(n), int(m.group(1))))
        want = {(x["ancs_id"], x["character_index"])
                for k in ("direct", "events_by_character", "third_list") for x in p[k]}
        if got != want:
            errors.append("who %s %08X: characters %s, expected %s" % (
                p["type"], p["id"], sorted(got, key=str), sorted(want)))
        ancs_nodes = {int(lab[1], 16) for lab in nodes.values() if lab[0] == "ANCS " + game}
        for x in p["set_level"]:
            if x["ancs_id"] not in ancs_nodes:
                errors.append("who %s %08X: set-level ANCS %08X not drawn" % (
                    p["type"], p["id"], x["ancs_id"]))
        whos += 1

# svg: an XML document whose root is <svg>
if have_dot:
    a = truth["games"]["mp2"]["ancs"][0]
    svg = graph("%08X" % a["id"], fmt="svg")
    try:
        root = ET.fromstring(svg)
        if not root.tag.endswith("svg"):
            errors.append("svg root is %s" % root.tag)
        if "%08X" % a["id"] not in svg:
            errors.append("svg lacks the ANCS ID")
    except ET.ParseError as e:
        errors.append("svg is not XML: %s" % e)

for e in errors[:40]:
    print("FAIL:", e)
if errors:
    print("%d failures" % len(errors))
    sys.exit(1)
print("ok: %d ANCS graphs, %d --who graphs" % (graphs, whos))
EOF
# a graph over 500 nodes is cut with a note: 600 more particles for one character (rows added
# with the sqlite3 shell, which the graph reads like any decoded list)
if command -v sqlite3 >/dev/null 2>&1; then
    cp "$DB" "$T/big.db"
    a=$(sqlite3 "$T/big.db" "SELECT printf('%08X', ancs_id) FROM characters WHERE game = 'MP1' ORDER BY ancs_id LIMIT 1")
    sqlite3 "$T/big.db" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600)
        INSERT INTO particle_refs (game, ancs_id, content_id, char_index, source, list, seq, particle_type, particle_id)
        SELECT 'MP1', ancs_id, content_id, 0, 'particles', 'PART', 1000 + i, 'PART', 0x70000000 + i
        FROM n, (SELECT ancs_id, content_id FROM characters WHERE game = 'MP1' ORDER BY ancs_id LIMIT 1)"
    "$BIN" graph --db "$T/big.db" --game MP1 "$a" >"$T/big.dot" 2>"$T/err" || { echo "FAIL: big graph: $(cat "$T/err")"; fail=1; }
    nodes=$(grep -cE '^  n[0-9]+ \[' "$T/big.dot")
    [ "$nodes" -eq 500 ] || { echo "FAIL: big graph draws $nodes nodes, expected 500"; fail=1; }
    grep -q 'graph cut at 500 nodes' "$T/big.dot" || { echo "FAIL: big graph has no cut note"; fail=1; }
    if [ "$HAVE_DOT" = 1 ]; then
        dot -Tsvg "$T/big.dot" >/dev/null 2>"$T/err" || { echo "FAIL: dot rejects the cut graph: $(head -2 "$T/err")"; fail=1; }
    fi
else
    echo "skipping the 500-node check: no sqlite3 shell"
fi

finish
