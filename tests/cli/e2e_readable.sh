#!/usr/bin/env bash
# e2e_readable.sh BINARY SHARED_DIR — output people read:
#  - who-references: one row per way a character reaches the asset, with the `via` path that
#    `deps --all-paths` prints for it; the (ANCS, character) pairs are truth.json's;
#  - deps --all-paths: one row per path, `paths` on each equal to the rows of its asset, the
#    particle-list and effect paths as many as the lists of truth.json hold the asset;
#  - `table` output on a terminal (a pseudo-terminal made by python3) fits its width, cutting
#    cells with U+2026; --wide and a pipe print everything; display width, not characters:
#    CJK text takes two cells and the next column still lines up.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus
DB=$T/c.db
"$BIN" ingest --quiet --db "$DB" "$CORPUS/mp1" "$CORPUS/mp2" 2>"$T/ingest.err" || {
    echo "FAIL: ingest: $(tail -3 "$T/ingest.err")"
    exit 1
}

python3 - "$BIN" "$DB" "$CORPUS/truth.json" <<'EOF' || fail=1
import collections, csv, io, json, os, pty, struct, fcntl, termios, subprocess, sys
import unicodedata

bin_, db, truth_path = sys.argv[1:4]
truth = json.load(open(truth_path))
errors = []
NONE = (0, 0xFFFFFFFF)


def run(*args):
    p = subprocess.run([bin_, *args], capture_output=True, text=True)
    if p.returncode != 0:
        errors.append("%s: exit %d %s" % (" ".join(args), p.returncode, p.stderr.strip()))
        return []
    return list(csv.DictReader(io.StringIO(p.stdout)))


def q(*args):
    return run("query", "--db", db, "--format", "csv", *args)


# ---- deps --all-paths ------------------------------------------------------------------
LISTS = [("generic_particles", "PART"), ("swoosh_particles", "SWHC"),
         ("electric_particles", "ELSC"), ("spawn_particles", "SPSC")]
allp_cache = {}
for gkey, game in (("mp1", "MP1"), ("mp2", "MP2")):
    for a in truth["games"][gkey]["ancs"]:
        aid = "%08X" % a["id"]
        one = [r for r in q("deps", aid) if r["game"] == game]
        allp = [r for r in q("deps", "--all-paths", aid) if r["game"] == game]
        allp_cache[(game, aid)] = allp
        by_asset = collections.defaultdict(list)
        for r in allp:
            by_asset[(r["char_index"], r["dst_type"], r["dst_id"])].append(r)
        first = {(r["char_index"], r["dst_type"], r["dst_id"]): r for r in one}
        if set(first) != set(by_asset):
            errors.append("deps %s: --all-paths reaches other assets" % aid)
        for k, rows in by_asset.items():
            if any(int(r["paths"]) != len(rows) for r in rows):
                errors.append("deps --all-paths %s %s: %d rows, paths %s" % (
                    aid, k, len(rows), rows[0]["paths"]))
            if k in first and (first[k]["via"] != rows[0]["via"]
                               or first[k]["paths"] != rows[0]["paths"]):
                errors.append("deps %s %s: via %r is not the first path %r" % (
                    aid, k, first[k]["via"], rows[0]["via"]))
        # particle lists and effect components: one path per occurrence in truth's lists
        for i, ch in enumerate(a["content"]["character_set"]["characters"]):
            want = collections.Counter()
            prd = ch["particle_resource_data"]
            for key, typ in LISTS:
                for v in prd.get(key) or []:
                    if v not in NONE:
                        want[(typ, v)] += 1
            for ef in ch.get("effect_array") or []:
                for comp in ef["components"]:
                    p = comp["particle"]
                    if p["id"] not in NONE:
                        want[(p["type"], p["id"])] += 1
            for (typ, v), n in want.items():
                rows = [r for r in by_asset.get((str(i), typ, "%08X" % v), [])
                        if r["via"].startswith(("particles ", "effect "))
                        and "third_list" not in r["via"]]
                if len(rows) != n:
                    errors.append("deps --all-paths %s char %d %s %08X: %d list/effect paths, "
                                  "truth has %d" % (aid, i, typ, v, len(rows), n))

# ---- who-references: one row per way, the via of deps ------------------------------------
checked = 0
for gkey, game in (("mp1", "MP1"), ("mp2", "MP2")):
    ancs_game = {a["id"] for a in truth["games"][gkey]["ancs"]}
    for p in truth["games"][gkey]["particle_refs"]:
        want_pairs = set()
        for key in ("direct", "events_by_character", "third_list"):
            for r in p.get(key) or []:
                want_pairs.add(("%08X" % r["ancs_id"], str(r["character_index"])))
        if not want_pairs or checked > 60:
            continue
        rows = [r for r in q("who-references", p["type"], "%08X" % p["id"]) if r["game"] == game]
        got = {(r["ancs_id"], r["char_index"], r["via"]) for r in rows if r["char_index"] != ""}
        if len(got) != len([r for r in rows if r["char_index"] != ""]):
            errors.append("who-references %s %08X: rows repeat" % (p["type"], p["id"]))
        if {(x[0], x[1]) for x in got} != want_pairs:
            errors.append("who-references %s %08X: characters %s, truth %s" % (
                p["type"], p["id"], sorted({(x[0], x[1]) for x in got}), sorted(want_pairs)))
        want = set()
        for (aid, ci) in want_pairs:
            for r in allp_cache.get((game, aid), []):
                if r["char_index"] == ci and r["dst_id"] == "%08X" % p["id"] and \
                        r["dst_type"] in (p["type"], ""):
                    want.add((aid, ci, r["via"]))
        if got != want:
            errors.append("who-references %s %08X: vias differ from deps --all-paths: only "
                          "who %s, only deps %s" % (p["type"], p["id"], sorted(got - want)[:3],
                                                    sorted(want - got)[:3]))
        if game == "MP2" and p.get("events_by_character"):
            if not any("event set" in r["via"] for r in rows):
                errors.append("who-references %s %08X: no MP2 row names its event set"
                              % (p["type"], p["id"]))
        checked += 1
if checked < 20:
    errors.append("who-references: only %d particles checked" % checked)


# ---- tables on a terminal ---------------------------------------------------------------
def cells(s):
    w = 0
    for ch in s:
        if unicodedata.combining(ch):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return w


def on_tty(args, cols):
    pid, fd = pty.fork()
    if pid == 0:  # the child's stdout is the terminal: give it its size before the exec
        fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
        os.execv(bin_, [bin_] + args)
    out = b""
    while True:
        try:
            b = os.read(fd, 65536)
        except OSError:
            break
        if not b:
            break
        out += b
    os.waitpid(pid, 0)
    return out.decode("utf-8", "replace").replace("\r\n", "\n")


# a table wider than 80 cells whose columns can be cut to 60 (who-references, with the world
# columns of its MLVL rows, is ten columns: wider than 80 even cut, since IDs are never cut)
wide_args = ["sql", "--db", db,
             "SELECT c.game, c.ancs_id, c.char_index, c.name AS character, (SELECT "
             "group_concat(a.name, ', ') FROM character_anims a WHERE a.game = c.game AND "
             "a.ancs_id = c.ancs_id AND a.char_index = c.char_index) AS animations "
             "FROM characters c ORDER BY 1, 2, 3"]
piped = subprocess.run([bin_] + wide_args, capture_output=True, text=True).stdout
natural = max(cells(l) for l in piped.splitlines())
if natural <= 80:
    errors.append("the table is only %d cells wide: nothing to fit" % natural)
for cols in (80, 60):
    out = on_tty(wide_args, cols)
    lines = [l for l in out.splitlines() if l]
    if len(lines) != len(piped.splitlines()):
        errors.append("tty %d: %d lines, piped %d" % (cols, len(lines), len(piped.splitlines())))
    wide = [l for l in lines if cells(l) > cols]
    if wide:
        errors.append("tty %d: %d lines wider, e.g. %d cells: %r" % (cols, len(wide),
                                                                     cells(wide[0]), wide[0]))
    if "\u2026" not in out:
        errors.append("tty %d: no cell cut with U+2026" % cols)
if "\u2026" in piped:
    errors.append("piped output is cut")
out = on_tty(["sql", "--db", db, "--wide"] + wide_args[3:], 80)
if out.rstrip("\n") != piped.rstrip("\n"):
    errors.append("--wide on a terminal differs from the piped output")
out = on_tty(["query", "--list"], 80)
if any(cells(l) > 80 for l in out.splitlines()):
    errors.append("query --list on an 80-column terminal: a line is wider")

# display width: the column after CJK text starts at the same cell in every line
sql = ("SELECT '\u65e5\u672c\u8a9e\u306e\u540d\u524d' AS name, 7 AS n UNION ALL "
       "SELECT 'abc', 8 UNION ALL SELECT 'caf\u00e9', 9")
for out in (subprocess.run([bin_, "sql", "--db", db, sql], capture_output=True,
                           text=True).stdout, on_tty(["sql", "--db", db, sql], 80)):
    ends = {cells(l) for l in out.splitlines() if l}
    if len(ends) != 1:
        errors.append("CJK: lines end at cells %s (not aligned): %r" % (sorted(ends), out))

for e in errors[:30]:
    print("FAIL:", e)
if not errors:
    print("ok: deps --all-paths, who-references (%d particles) and terminal tables" % checked)
sys.exit(1 if errors else 0)
EOF
finish
