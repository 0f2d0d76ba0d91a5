#!/usr/bin/env bash
# e2e_asset_names.sh BINARY SHARED_DIR — an asset's name wherever an ID is asked (CONTRACT.md
# "Events, sounds, and asking by name"): who-references, deps, events, sounds,
# asset-locations, graph, export and pak extract --id take a name map's or a PAK's name, with
# or without the directory, in any ASCII case, and answer exactly as with the ID; a name of
# several assets is exit 2 listing each (type, ID, full name); an unknown name is exit 2. The
# names and IDs are read here from the corpus's name map (python3's XML parser) and
# truth.json's named resources.
set -u
. "$(dirname "$0")/lib.sh"
need_corpus names/AssetNameMap32.xml
DB=$T/c.db
{ "$BIN" ingest --quiet --db "$DB" "$CORPUS/mp1" "$CORPUS/mp2" &&
    "$BIN" names import --db "$DB" "$CORPUS/names/AssetNameMap32.xml"; } >/dev/null 2>"$T/ingest.err" || {
    echo "FAIL: ingest: $(tail -3 "$T/ingest.err")"
    exit 1
}

# Pick (from the map and truth, not from ancsdb): an ANCS whose map name names no other asset,
# a particle some character lists with a unique map name, and a PAK name of two assets.
python3 - "$CORPUS" >"$T/pick" <<'EOF'
import collections, json, sys, xml.etree.ElementTree as ET
c = sys.argv[1]
t = json.load(open(c + "/truth.json"))
by_name = collections.defaultdict(set)   # lower-case name or dir+name -> {(type, id)}
full = {}
for a in ET.parse(c + "/names/AssetNameMap32.xml").getroot().iter("Asset"):
    key = int(a.find("Key").text, 16)
    v = a.find("Value")
    name, d, typ = v.find("Name").text or "", v.find("Directory").text or "", v.find("Type").text
    by_name[name.lower()].add((typ, key))
    by_name[(d + name).lower()].add((typ, key))
    full[key] = (d, name, typ)
pak_names = collections.defaultdict(set)
for g in ("mp1", "mp2"):
    for p in t["games"][g]["paks"]:
        for n in p["named_resources"]:
            by_name[n["name"].lower()].add((n["type"], n["id"]))
            pak_names[n["name"].lower()].add((n["type"], n["id"], n["name"], p["path"]))
# (one whose characters play sound nodes, so that events and sounds print rows)
sounding = {e["id"] for e in t["games"]["mp1"]["evnt"] if e["content"].get("sound_poi_nodes")}
ancs = [a["id"] for a in t["games"]["mp1"]["ancs"]
        if a["id"] in full and len(by_name[full[a["id"]][1].lower()]) == 1
        and any(set(r["evnt_ids"]) & sounding for r in a["derived"]["character_reach"])]
aid = ancs[0]
d, name, _ = full[aid]
part = next(p for g in ("mp1",) for p in t["games"][g]["particle_refs"]
            if p["direct"] and p["id"] in full and len(by_name[full[p["id"]][1].lower()]) == 1)
twin = next(k for k, v in sorted(pak_names.items()) if len({(x[0], x[1]) for x in v}) > 1)
twins = sorted({(x[0], x[1]) for x in pak_names[twin]})
one_pak = next((k, x) for k, v in sorted(pak_names.items()) if len(v) == 1 for x in v)
print("%08X\t%s\t%s\t%s\t%08X\t%s\t%s\t%s\t%s\t%s\t%s\t%08X" % (
    aid, name, d, full[aid][2], part["id"], part["type"], full[part["id"]][1],
    next(x[2] for x in pak_names[twin]), " ".join("%s:%08X" % x for x in twins),
    one_pak[1][3], one_pak[1][2], one_pak[1][1]))
EOF
IFS=$'\t' read -r AID ANAME ADIR ATYPE PID PTYPE PNAME TWIN TWINS PAK PAKNAME PAKID <"$T/pick"
[ -n "$AID" ] && [ -n "$PNAME" ] && [ -n "$TWIN" ] || { echo "FAIL: nothing to pick: $(cat "$T/pick")"; exit 1; }
echo "picked ANCS $AID '$ADIR$ANAME', $PTYPE $PID '$PNAME', PAK name '$TWIN' of $TWINS"

same() { # DESCRIPTION, then the query's arguments with @ standing for the ID / the name
    local what=$1 id=$2 name=$3
    shift 3
    local a=() b=()
    for x in "$@"; do
        if [ "$x" = @ ]; then a+=("$id"); b+=("$name"); else a+=("$x"); b+=("$x"); fi
    done
    "$BIN" query --db "$DB" --format csv "${a[@]}" >"$T/by_id" 2>"$T/e1"
    local r1=$?
    "$BIN" query --db "$DB" --format csv "${b[@]}" >"$T/by_name" 2>"$T/e2"
    local r2=$?
    if [ $r1 -ne 0 ] || [ $r2 -ne 0 ] || ! cmp -s "$T/by_id" "$T/by_name" || [ "$(wc -l <"$T/by_id")" -lt 2 ]; then
        echo "FAIL: $what: by ID exit $r1 ($(wc -l <"$T/by_id") lines), by name exit $r2 ($(cat "$T/e2"))"
        fail=1
    else
        echo "ok: $what"
    fi
}
LOWER=$(printf '%s' "$ANAME" | tr 'A-Z' 'a-z')
UPPER=$(printf '%s%s' "$ADIR" "$ANAME" | tr 'a-z' 'A-Z')
same "deps by name" "$AID" "$ANAME" deps @
same "deps by directory + name" "$AID" "$ADIR$ANAME" deps @
same "deps by name, other case" "$AID" "$LOWER" deps @
same "deps by DIRECTORY + NAME" "$AID" "$UPPER" deps @ 0
same "events by name" "$AID" "$ANAME" events @
same "sounds by name" "$AID" "$ANAME" sounds @
same "asset-locations by name" "$AID" "$ANAME" asset-locations ANCS @
same "who-references by name" "$PID" "$PNAME" who-references "$PTYPE" @
same "who-references by PAK name" "$PAKID" "$PAKNAME" asset-locations \
    "$("$BIN" sql --db "$DB" --format tsv "SELECT type FROM assets WHERE asset_id = 0x$PAKID" | tail -1)" @

# graph and export: the same bytes as with the ID
"$BIN" graph --db "$DB" "$AID" >"$T/g1" 2>&1; r1=$?
"$BIN" graph --db "$DB" "$ANAME" >"$T/g2" 2>&1; r2=$?
check "graph by name" "0 0 same" "$r1 $r2 $(cmp -s "$T/g1" "$T/g2" && echo same)"
"$BIN" graph --db "$DB" --who "$PTYPE" "$PNAME" >"$T/g2" 2>&1; r2=$?
"$BIN" graph --db "$DB" --who "$PTYPE" "$PID" >"$T/g1" 2>&1; r1=$?
check "graph --who by name" "0 0 same" "$r1 $r2 $(cmp -s "$T/g1" "$T/g2" && echo same)"
"$BIN" export --db "$DB" ancs "$AID" >"$T/x1" 2>&1; r1=$?
"$BIN" export --db "$DB" ancs "$ADIR$ANAME" >"$T/x2" 2>&1; r2=$?
check "export by name" "0 0 same" "$r1 $r2 $(cmp -s "$T/x1" "$T/x2" && echo same)"

# a name of several assets: exit 2, every candidate listed with its type and ID
"$BIN" query --db "$DB" asset-locations TXTR "$TWIN" >"$T/out" 2>"$T/err"
check "a name of several assets: exit status" 2 $?
for tw in $TWINS; do
    grep -q "${tw%%:*}  *${tw#*:}" "$T/err" || { echo "FAIL: candidate $tw not listed: $(cat "$T/err")"; fail=1; }
done
check "a name of several assets: nothing on stdout" 0 "$(wc -c <"$T/out")"
# each candidate line shows the name that was asked for (as its label or after "named")
check "a name of several assets: every candidate line shows the name asked" \
    "$(echo "$TWINS" | wc -w)" "$(grep -c -i -F "$TWIN" "$T/err" | awk '{print $1 - 1}')"
"$BIN" graph --db "$DB" --who TXTR "$TWIN" >/dev/null 2>&1
check "graph --who with a name of several assets" 2 $?
# an unknown name, and a name of another type
"$BIN" query --db "$DB" deps no_such_asset_name >/dev/null 2>"$T/err"
check "unknown name: exit status" 2 $?
grep -q "no_such_asset_name" "$T/err" || { echo "FAIL: the message does not repeat the name"; fail=1; }
"$BIN" query --db "$DB" deps "$PNAME" >/dev/null 2>&1
check "deps with a particle's name (not an ANCS)" 2 $?

# pak extract --id NAME: the PAK's own names
mkdir -p "$T/x"
"$BIN" pak extract --id "$PAKNAME" -o "$T/x" "$CORPUS/$PAK" >/dev/null 2>"$T/err"
check "pak extract --id NAME: exit status" 0 $?
check "pak extract --id NAME: the file of that ID" 1 "$(ls "$T/x" | grep -ci "^$PAKID\.")"
# pak extract --db DB --id NAME: a map name the PAK does not hold, through the database's names
# (the PAK: one of mp1/ holding the particle, from resources.tsv)
ppak=$(awk -F'\t' -v id=$((16#$PID)) '$1 == "mp1" && $5 == id {print $2; exit}' "$CORPUS/resources.tsv")
mkdir -p "$T/y"
"$BIN" pak extract --id "$PNAME" -o "$T/y" "$CORPUS/mp1/$ppak" >/dev/null 2>"$T/err"
check "pak extract --id MAP-NAME without --db: a usage error (the PAK does not hold it)" 2 $?
"$BIN" pak extract --db "$DB" --id "$PNAME" -o "$T/y" "$CORPUS/mp1/$ppak" >/dev/null 2>"$T/err"
check "pak extract --db --id MAP-NAME: exit status" 0 $?
check "pak extract --db --id MAP-NAME: the file of that ID" 1 "$(ls "$T/y" | grep -ci "^$PID\.")"
"$BIN" pak extract --db "$DB" --id no_such_asset_name -o "$T/z" "$CORPUS/mp1/$ppak" >/dev/null 2>&1
check "pak extract --db --id UNKNOWN: exit 2, nothing written" "2 0" "$? $(ls "$T/z" 2>/dev/null | wc -l)"
finish
