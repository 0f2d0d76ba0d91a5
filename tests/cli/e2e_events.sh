#!/usr/bin/env bash
# e2e_events.sh BINARY SHARED_DIR — `ancsdb query events ANCS [CHAR_INDEX]` and
# `ancsdb query sounds [ANCS]` against truth.json of the sample corpus. The expected rows are
# computed here from the ANCS contents (character_reach's animation indices, the Play nodes of
# each animation, the MP1 resource pairs read as a map from ANIM ID to the FIRST pair's EVNT,
# the MP2 event sets) and the EVNT contents, never from ancsdb's own output.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus
DB=$T/c.db
"$BIN" ingest --quiet --db "$DB" "$CORPUS/mp1" "$CORPUS/mp2" 2>"$T/ingest.err" || {
    echo "FAIL: ingest: $(tail -3 "$T/ingest.err")"
    exit 1
}

fail=0
"$BIN" query --db "$DB" events >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: events without ANCS must exit 2"; fail=1; }
"$BIN" query --db "$DB" events 0x1 x >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: events with CHAR_INDEX 'x' must exit 2"; fail=1; }
for q in events sounds; do
    "$BIN" query --list --format tsv | grep -q "^$q	" || { echo "FAIL: $q not in query --list"; fail=1; }
done

python3 - "$BIN" "$DB" "$CORPUS/truth.json" <<'EOF' || fail=1
import collections, csv, io, json, subprocess, sys

bin_, db, truth_path = sys.argv[1:4]
truth = json.load(open(truth_path))
NONE = (0, 0xFFFFFFFF)
KINDS = [("bool_poi_nodes", "bool"), ("int32_poi_nodes", "int32"),
         ("particle_poi_nodes", "particle"), ("sound_poi_nodes", "sound")]
errors = []


def run(fmt, *args):
    p = subprocess.run([bin_, "query", "--db", db, "--format", fmt, *args],
                       capture_output=True, text=True)
    if p.returncode != 0:
        errors.append("%s exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
        return []
    if fmt == "json":
        return json.loads(p.stdout)
    return list(csv.DictReader(io.StringIO(p.stdout)))


def node_rows(content):
    """(kind, node_index, name, time, target, ptype, pid, sound) of every node of an event set."""
    out = []
    for key, kind in KINDS:
        for i, n in enumerate(content.get(key) or []):
            b = n["base"]
            p = n.get("particle") or {}
            out.append((kind, i, b["name"], b["timestamp"]["time"], b["character_index"],
                        p.get("type"), p.get("id"), n.get("sound_id")))
    return out


evnt_content = {e["id"]: e["content"] for e in truth["games"]["mp1"]["evnt"]}


def expected(game, a):
    """Multiset of event rows (char, anim_index, anim_id, evnt_id, event_set, node...)."""
    aset = a["content"]["animation_set"]
    first_pair = {}
    for pr in aset.get("animation_resources") or []:
        first_pair.setdefault(pr["anim_id"], pr["event_id"])
    plays = collections.defaultdict(list)
    for pn in a["derived"]["play_nodes"]:
        if pn["section"] == "animation" and pn["asset_id"] not in NONE:
            if pn["asset_id"] not in plays[pn["index"]]:
                plays[pn["index"]].append(pn["asset_id"])
    want = collections.Counter()
    for r in a["derived"]["character_reach"]:
        c = r["character_index"]
        for i in sorted(set(r["animation_indices"])):
            if game == "MP1":
                for anim in plays[i]:
                    ev = first_pair.get(anim)
                    if ev is None or ev in NONE or ev not in evnt_content:
                        continue
                    for n in node_rows(evnt_content[ev]):
                        want[(c, i, anim, ev, None) + n] += 1
            else:
                sets = aset.get("event_sets") or []
                if i < len(sets):
                    anim = plays[i][0] if plays[i] else None
                    for n in node_rows(sets[i]):
                        want[(c, i, anim, None, i) + n] += 1
    return want


def ival(s, base=10):
    if isinstance(s, int):
        return s
    return None if s in (None, "") else int(s, base)


checked = 0
sound_nodes = {}                    # (game, sound) -> set of node keys
sound_chars = collections.defaultdict(set)
for gkey, game in (("mp1", "MP1"), ("mp2", "MP2")):
    for a in truth["games"][gkey]["ancs"]:
        aid = "%08X" % a["id"]
        want = expected(game, a)
        for fmt in ("csv", "json"):
            got = collections.Counter()
            for r in run(fmt, "events", "0x" + aid):
                if r["game"] != game:
                    continue
                got[(ival(r["char_index"]), ival(r["anim_index"]), ival(r["anim_id"], 16),
                     ival(r["evnt_id"], 16), ival(r["event_set"]), r["kind"],
                     ival(r["node_index"]), r["name"], float(r["time"]), ival(r["target_char"]),
                     r["asset_type"] or None, ival(r["asset_id"], 16),
                     ival(r["sound_id"], 16))] += 1
                if r["sound_id"] not in (None, "") and not (
                        r["sound_id"].startswith("0x") and len(r["sound_id"]) == 10
                        and r["sound_id"][2:] == r["sound_id"][2:].upper()):
                    errors.append("%s sound_id %r is not 0x + 8 upper-case hex digits"
                                  % (fmt, r["sound_id"]))
            for k in sorted(set(want) - set(got), key=str)[:5]:
                errors.append("%s %s %s: missing %s" % (fmt, game, aid, k))
            for k in sorted(set(got) - set(want), key=str)[:5]:
                errors.append("%s %s %s: unexpected %s" % (fmt, game, aid, k))
            for k in set(want) & set(got):
                if want[k] != got[k]:
                    errors.append("%s %s %s: %s %d times, expected %d" % (fmt, game, aid, k,
                                                                           got[k], want[k]))
            checked += 1
        # one character only: the rows of that character, no other
        chars = {k[0] for k in want}
        if chars:
            c = min(chars)
            one = [r for r in run("csv", "events", aid, str(c)) if r["game"] == game]
            if len(one) != sum(n for k, n in want.items() if k[0] == c):
                errors.append("%s %s char %d: %d rows, expected %d" % (
                    game, aid, c, len(one), sum(n for k, n in want.items() if k[0] == c)))
        for k in want:
            if k[5] == "sound":
                sound_chars[(game, k[12])].add((a["id"], k[0]))

# sounds: every sound node of every EVNT and event set (used or not)
for e in truth["games"]["mp1"]["evnt"]:
    for n in node_rows(e["content"]):
        if n[0] == "sound":
            sound_nodes.setdefault(("MP1", n[7]), set()).add(("EVNT", e["id"], n[1]))
for a in truth["games"]["mp2"]["ancs"]:
    for i, s in enumerate(a["content"]["animation_set"].get("event_sets") or []):
        for n in node_rows(s):
            if n[0] == "sound":
                sound_nodes.setdefault(("MP2", n[7]), set()).add((a["id"], i, n[1]))
rows = run("csv", "sounds")
got = {(r["game"], int(r["sound_id"], 16)): r for r in rows}
if len(got) != len(rows):
    errors.append("sounds: %d rows but %d distinct (game, sound_id)" % (len(rows), len(got)))
if set(got) != set(sound_nodes):
    errors.append("sounds: IDs differ: missing %s, unexpected %s" % (
        sorted(set(sound_nodes) - set(got))[:5], sorted(set(got) - set(sound_nodes))[:5]))
for k, r in got.items():
    if k not in sound_nodes:
        continue
    if not (r["sound_id"].startswith("0x") and len(r["sound_id"]) == 10):
        errors.append("sounds: sound_id %r is not 0x + 8 hex digits" % r["sound_id"])
    if int(r["nodes"]) != len(sound_nodes[k]):
        errors.append("sounds %s: nodes %s, expected %d" % (k, r["nodes"], len(sound_nodes[k])))
    if int(r["characters"]) != len(sound_chars.get(k, ())):
        errors.append("sounds %s: characters %s, expected %d" % (k, r["characters"],
                                                                 len(sound_chars.get(k, ()))))
    if bool(r["example"]) != bool(sound_chars.get(k)):
        errors.append("sounds %s: example %r" % (k, r["example"]))
# sounds of one ANCS: its own events only
a = max(truth["games"]["mp2"]["ancs"], key=lambda x: len(x["content"]["animation_set"].get("event_sets") or []))
mine = {n[7] for s in a["content"]["animation_set"].get("event_sets") or [] for n in node_rows(s)
        if n[0] == "sound"}
one = {int(r["sound_id"], 16) for r in run("csv", "sounds", "%08X" % a["id"]) if r["game"] == "MP2"}
if one != mine:
    errors.append("sounds %08X: %s, expected %s" % (a["id"], sorted(one), sorted(mine)))

for e in errors[:40]:
    print("FAIL:", e)
if not errors:
    print("ok: events of %d ANCS (csv and json) and %d sound IDs match truth.json"
          % (checked // 2, len(got)))
sys.exit(1 if errors else 0)
EOF

# The graph prints sound IDs in the same notation: 0x + 8 upper-case hex digits.
"$BIN" graph --db "$DB" 0x3BB28EE0 >"$T/g.dot" 2>"$T/g.err" || { echo "FAIL: graph: $(cat "$T/g.err")"; fail=1; }
n=$(grep -c 'label="sound\\n' "$T/g.dot")
bad=$(grep 'label="sound\\n' "$T/g.dot" | grep -vc 'label="sound\\n0x[0-9A-F]\{8\}"')
[ "$n" -gt 0 ] && [ "$bad" -eq 0 ] || { echo "FAIL: graph: $n sound nodes, $bad not 0x + 8 hex digits"; fail=1; }
finish
