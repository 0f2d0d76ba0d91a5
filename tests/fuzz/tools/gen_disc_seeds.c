/* gen_disc_seeds.c — writes the seed images of tests/fuzz/corpus/disc/ with the fixture's
 * disc writer (minimal layout: the FST right after the header), run once by hand; not part
 * of the build:
 *   cc -std=c11 -D_POSIX_C_SOURCE=200809L -Iutil -Ifixture -Iancs -Idisc \
 *      tests/fuzz/tools/gen_disc_seeds.c fixture/fixture_disc.c disc/disc_junk.c \
 *      util/util.c util/util_src.c \
 *      -o /tmp/gen && /tmp/gen tests/fuzz/corpus/disc
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

static int put(const char *dir, const char *name, const uint8_t *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n) {
        fprintf(stderr, "cannot write %s\n", path);
        return 1;
    }
    return fclose(f) != 0;
}

static int image(const char *dir, const char *name, const char *code, uint8_t rev,
                 const fixture_disc_file *files, size_t n, size_t cut)
{
    fixture_disc_opts o;
    fixture_disc_opts_init(&o, code, rev, "Seed Disc");
    o.minimal = 1;
    o.align = 4;
    uint8_t *img = NULL;
    size_t len = 0;
    util_err err;
    if (fixture_disc_build(&img, &len, &o, files, n, &err) != 0) {
        fprintf(stderr, "%s: %s\n", name, err.msg);
        return 1;
    }
    int rc = put(dir, name, img, cut && cut < len ? cut : len);
    free(img);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    const char *dir = argv[1];
    static const uint8_t pak[] = {0, 3, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const uint8_t text[] = "some file bytes";
    const fixture_disc_file nested[] = {
        {.path = "Metroid1.pak", .data = pak, .len = sizeof pak},
        {.path = "METROID1.PAK", .data = text, .len = 5},
        {.path = "Audio/frontend_1.dsp", .data = text, .len = sizeof text},
        {.path = "Audio/Deep/empty.bin", .data = text, .len = 0},
        {.path = "Video/attract0.thp", .data = text, .len = 7},
        {.path = "zz.pak", .data = pak, .len = sizeof pak},
    };
    const fixture_disc_file one[] = {{.path = "a.pak", .data = pak, .len = sizeof pak}};
    int rc = image(dir, "nested", "GM8E01", 0, nested, 6, 0);
    rc |= image(dir, "one_file", "G2MP01", 0, one, 1, 0);
    rc |= image(dir, "root_only", "G2MJ01", 2, NULL, 0, 0);
    rc |= image(dir, "cut_in_file", "GM8E01", 2, nested, 6, 0x500);
    rc |= put(dir, "rvz_head", (const uint8_t *)"RVZ\x01\0\0\0\0", 8);
    return rc;
}
