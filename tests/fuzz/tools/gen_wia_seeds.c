/* gen_wia_seeds.c — writes a small GameCube image (two files, junk in its gaps) with the
 * fixture's disc writer; Dolphin's converter then makes the seeds of tests/fuzz/corpus/wia/,
 * and the fixture builder the bzip2 WIA, which Debian's converter does not write.
 * Run once by hand; not part of the build:
 *   cc -std=c11 -D_POSIX_C_SOURCE=200809L -Iutil -Ifixture -Iancs -Iworld -Ipak -Idisc \
 *      tests/fuzz/tools/gen_wia_seeds.c build/release/libfixture.a build/release/libpak.a \
 *      build/release/libworld.a build/release/libancs.a build/release/libdisc.a \
 *      build/release/libutil.a -lz -llzo2 -ldeflate -lzstd -llzma -lbz2 -lpthread -lm \
 *      -o /tmp/gen && /tmp/gen /tmp/small.iso
 *   for a in "rvz -b 32768 -c zstd -l 5" "rvz -b 32768 -c none" "wia -b 2097152 -c lzma2 -l 1" \
 *            "wia -b 2097152 -c lzma -l 1" "wia -b 2097152 -c none"; do
 *       set -- $a; HOME=/tmp /usr/games/dolphin-tool convert -u /tmp/dt -i /tmp/small.iso \
 *           -o "tests/fuzz/corpus/wia/$1_$3_$5" -f "$@"; done
 *   build/debug/tests/disc_image_tool wrap wia-bzip2 /tmp/small.iso \
 *       tests/fuzz/corpus/wia/wia_2097152_bzip2 2097152
 */
#include <stdio.h>
#include <string.h>

#include "fixture.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_wia_seeds IMAGE\n");
        return 2;
    }
    static uint8_t a[3000], b[700];
    for (size_t i = 0; i < sizeof a; i++)
        a[i] = (uint8_t)(i * 7 + i / 13);
    memset(b, 0x5A, sizeof b);
    fixture_disc_file files[2] = {{.path = "Metroid1.pak", .data = a, .len = sizeof a},
                                  {.path = "x/y.bin", .data = b, .len = sizeof b}};
    fixture_disc_opts o;
    fixture_disc_opts_init(&o, "GM8E01", 0, "Seed");
    o.align = 0x2000;
    util_err err;
    util_err_clear(&err);
    if (fixture_disc_write(argv[1], &o, files, 2, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    return 0;
}
