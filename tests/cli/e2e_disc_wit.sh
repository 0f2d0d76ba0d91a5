#!/usr/bin/env bash
# e2e_disc_wit.sh BINARY SHARED_DIR — the fixture's disc image read by an independent reader,
# wit (Debian package `wit`): the header (game code, title, region), every file extracted
# byte-identical to what was given to the writer, and no other file. The image comes from
# the test program disc_image_tool (built beside the tests; $ANCSDB_DISC_IMAGE_TOOL).
set -euo pipefail
bin=$1
tool=${ANCSDB_DISC_IMAGE_TOOL:-$(dirname "$bin")/tests/disc_image_tool}
if ! command -v wit >/dev/null 2>&1; then
    echo "skipping: wit is not installed (Debian package wit; scripts/deps.sh installs it)"
    exit 0
fi
[ -x "$tool" ] || { echo "e2e_disc_wit: $tool is not built" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

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

# boot.bin as wit extracts it: disc number 0 and revision 1 at 0x006 and 0x007 (FORMATS.md §10).
sys=$(dirname "$files")/sys
[ "$(od -An -tu1 -j6 -N2 "$sys/boot.bin" | tr -s ' ')" = " 0 1" ] \
    || { echo "e2e_disc_wit: disc number / revision in boot.bin" >&2; exit 1; }
# wit's memory map places each part where the header says, nothing overlapping.
wit dump -ll "$tmp/disc.iso" | grep -q 'fst.bin' || { echo "e2e_disc_wit: no fst.bin" >&2; exit 1; }
echo "e2e_disc_wit: $(wc -l < "$tmp/paths.txt") files checked by wit"
