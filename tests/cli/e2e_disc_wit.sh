#!/usr/bin/env bash
# e2e_disc_wit.sh BINARY SHARED_DIR — disc images against an independent reader, wit (Debian
# package `wit`). The fixture's image: the header (game code, title, region), every file
# extracted by wit byte-identical to what was given to the writer, and no other file. Then
# the disc module's reading of that image and of the shared corpus's ISOs: the same files
# with the same bytes as wit extracts, the same game code and title. Both through the test
# program disc_image_tool (built beside the tests; $ANCSDB_DISC_IMAGE_TOOL).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tool=${ANCSDB_DISC_IMAGE_TOOL:-$(dirname "$BIN")/tests/disc_image_tool}
command -v wit >/dev/null 2>&1 ||
    skip "wit is not installed (Debian package wit; scripts/deps.sh installs it)"
[ -x "$tool" ] || die "$tool is not built"
tmp=$T

"$tool" "$tmp" > "$tmp/paths.txt"
[ -s "$tmp/paths.txt" ] || { echo "e2e_disc_wit: no files listed" >&2; exit 1; }

# The header as wit reads it: game code GM8P01, title, PAL from the 4th letter.
wit dump "$tmp/disc.iso" > "$tmp/dump.txt"
grep -Eq 'File & disc type: +ISO/GC +& +GameCube' "$tmp/dump.txt" \
    || { cat "$tmp/dump.txt"; echo "e2e_disc_wit: wit does not see a GameCube image" >&2; exit 1; }
grep -Eq 'disc=GM8P01' "$tmp/dump.txt" || { echo "e2e_disc_wit: game code" >&2; exit 1; }
grep -Eq 'Disc name: +Fixture Disc$' "$tmp/dump.txt" || { echo "e2e_disc_wit: title" >&2; exit 1; }
grep -Eq 'ID Region: +PAL' "$tmp/dump.txt" || { echo "e2e_disc_wit: region" >&2; exit 1; }

# Every file, extracted by wit, equals the bytes given; nothing else is in files/.
wit extract "$tmp/disc.iso" --dest "$tmp/x" > /dev/null
files=$(find "$tmp/x" -mindepth 2 -maxdepth 2 -type d -name files | head -n 1)
[ -n "$files" ] || { echo "e2e_disc_wit: wit extracted no files/ folder" >&2; exit 1; }
while IFS= read -r p; do
    cmp "$tmp/expect/$p" "$files/$p" || { echo "e2e_disc_wit: $p differs" >&2; exit 1; }
done < "$tmp/paths.txt"
sort "$tmp/paths.txt" > "$tmp/want.txt"
(cd "$files" && find . -type f | sed 's|^\./||' | sort) > "$tmp/got.txt"
diff "$tmp/want.txt" "$tmp/got.txt" || { echo "e2e_disc_wit: file lists differ" >&2; exit 1; }

# boot.bin as wit extracts it: disc number 0 and revision 1 at 0x006 and 0x007 (docs/formats.md §10).
sys=$(dirname "$files")/sys
[ "$(od -An -tu1 -j6 -N2 "$sys/boot.bin" | tr -s ' ')" = " 0 1" ] \
    || { echo "e2e_disc_wit: disc number / revision in boot.bin" >&2; exit 1; }
# wit's memory map places each part where the header says, nothing overlapping.
wit dump -ll "$tmp/disc.iso" | grep -q 'fst.bin' || { echo "e2e_disc_wit: no fst.bin" >&2; exit 1; }
echo "e2e_disc_wit: the fixture image's $(wc -l < "$tmp/paths.txt") files checked by wit"

# The disc module reads what wit reads: files, bytes, game code, title.
check_read() { # IMAGE NAME
    local img=$1 name=$2 w="$tmp/wit-$2" o="$tmp/ours-$2" header wfiles
    wit extract "$img" --dest "$w" > /dev/null
    wfiles=$(find "$w" -mindepth 2 -maxdepth 2 -type d -name files | head -n 1)
    header=$("$tool" extract "$img" "$o")
    if ! diff -r "$wfiles" "$o" > "$tmp/diff.txt"; then
        head -20 "$tmp/diff.txt"
        echo "e2e_disc_wit: $name: files read by the disc module differ from wit's" >&2
        exit 1
    fi
    wit dump "$img" > "$tmp/dump-$name.txt"
    local code title
    code=$(sed -n 's/.*disc=\([A-Z0-9]\{6\}\).*/\1/p' "$tmp/dump-$name.txt" | head -n 1)
    title=$(sed -n 's/^ *Disc name: *//p' "$tmp/dump-$name.txt" | head -n 1)
    [ "${header%% *}" = "$code" ] || { echo "e2e_disc_wit: $name: game code ${header%% *}, wit $code" >&2; exit 1; }
    [ "$(echo "$header" | cut -d' ' -f4-)" = "$title" ] \
        || { echo "e2e_disc_wit: $name: title '$header', wit '$title'" >&2; exit 1; }
    echo "e2e_disc_wit: $name: $(find "$o" -type f | wc -l) files as wit reads them ($header)"
}
check_read "$tmp/disc.iso" fixture
if have_corpus iso; then
    for img in "$CORPUS"/iso/*.iso; do
        check_read "$img" "$(basename "$img" .iso)"
    done
else
    skip_part "the corpus images: $CORPUS/iso is absent"
fi
finish
