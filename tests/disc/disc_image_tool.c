/* disc_image_tool.c — the disc module and the fixture's disc writer face to face with an
 * independent reader (tests/cli/e2e_disc_wit.sh runs wit beside it). Usage:
 *   disc_image_tool OUT_DIR
 *     writes OUT_DIR/disc.iso (game GM8P01, revision 1, title "Fixture Disc") and every file
 *     it holds under OUT_DIR/expect/ (the bytes given to the writer), then lists the paths on
 *     stdout, one a line;
 *   disc_image_tool extract IMAGE DIR
 *     reads IMAGE with the disc module and writes each file of its FST under DIR (as wit
 *     extract writes files/), then prints the header: game code, label, region, title;
 *   disc_image_tool wrap KIND IMAGE OUT BLOCK_SIZE
 *     writes IMAGE (read whole) to OUT as the fixture builder's container of that block size,
 *     for Dolphin's tool to read back. KIND: gcz (every third block stored, the others
 *     compressed), ciso, rvz (zstd), rvz-none, wia (no compression), wia-bzip2, wia-lzma2.
 * Exit 0 on success, 1 on failure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "disc.h"
#include "fixture.h"

static int mkdirs(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return 0;
}

static int extract(const char *image, const char *dir)
{
    disc_image *d = NULL;
    util_err err;
    util_err_clear(&err);
    if (disc_open_file(&d, image, &err) != 0) {
        fprintf(stderr, "disc_image_tool: %s: %s @0x%llx\n", image, err.msg,
                (unsigned long long)err.offset);
        return 1;
    }
    int rc = 0;
    for (uint32_t i = 0; i < d->fst.file_count && rc == 0; i++) {
        const disc_file *f = &d->fst.files[i];
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, f->path);
        util_src *s = NULL;
        uint8_t *buf = NULL;
        FILE *out = NULL;
        if (mkdirs(path) != 0 || disc_file_open(&s, d, f, &err) != 0 ||
            util_src_read_alloc(s, &buf, 0, (size_t)f->length, &err) != 0 ||
            !(out = fopen(path, "wb")) || fwrite(buf, 1, (size_t)f->length, out) != f->length) {
            fprintf(stderr, "disc_image_tool: %s: %s\n", f->path, err.msg);
            rc = 1;
        }
        if (out && fclose(out) != 0)
            rc = 1;
        free(buf);
        util_src_close(s);
    }
    const disc_header *h = &d->header;
    printf("%s %s %s %s\n", h->game_code, h->label, h->region ? h->region : "-", h->title);
    disc_close(d);
    return rc;
}

static int wrap(const char *kind, const char *image, const char *out, const char *bs)
{
    util_err err;
    util_err_clear(&err);
    FILE *in = fopen(image, "rb");
    uint8_t *disc = NULL, *ctr = NULL;
    size_t len = 0, clen = 0;
    long size = -1;
    if (in && fseek(in, 0, SEEK_END) == 0 && (size = ftell(in)) > 0 &&
        fseek(in, 0, SEEK_SET) == 0 && (disc = malloc((size_t)size)) &&
        fread(disc, 1, (size_t)size, in) == (size_t)size)
        len = (size_t)size;
    if (in)
        fclose(in);
    uint32_t block = (uint32_t)strtoul(bs, NULL, 0);
    static const struct {
        const char *kind;
        fixture_wia_opts o;
    } wia[] = {{"rvz", {1, 5, 0}},
               {"rvz-none", {1, 0, 0}},
               {"wia", {0, 0, 0}},
               {"wia-bzip2", {0, 2, 0}},
               {"wia-lzma2", {0, 4, 0}}};
    fixture_wia_opts wo = {.method = UINT32_MAX};
    for (size_t i = 0; i < sizeof wia / sizeof wia[0]; i++)
        if (!strcmp(kind, wia[i].kind)) {
            wo = wia[i].o;
            wo.chunk_size = block;
        }
    int rc = len == 0               ? util_fail(&err, UTIL_EIO, UINT64_MAX, "cannot read %s", image)
             : !strcmp(kind, "gcz") ? fixture_gcz_build(&ctr, &clen, disc, len, block, 3, &err)
             : !strcmp(kind, "ciso") ? fixture_ciso_build(&ctr, &clen, disc, len, block, NULL, &err)
             : wo.method != UINT32_MAX
                 ? fixture_wia_build(&ctr, &clen, disc, len, &wo, &err)
                 : util_fail(&err, UTIL_EFORMAT, UINT64_MAX, "unknown container %s", kind);
    FILE *o = NULL;
    if (!rc && (!(o = fopen(out, "wb")) || fwrite(ctr, 1, clen, o) != clen))
        rc = util_fail(&err, UTIL_EIO, UINT64_MAX, "cannot write %s", out);
    if (o && fclose(o) != 0 && !rc)
        rc = util_fail(&err, UTIL_EIO, UINT64_MAX, "cannot write %s", out);
    if (rc)
        fprintf(stderr, "disc_image_tool: %s\n", err.msg);
    free(disc);
    free(ctr);
    return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "extract") == 0)
        return extract(argv[2], argv[3]);
    if (argc == 6 && strcmp(argv[1], "wrap") == 0)
        return wrap(argv[2], argv[3], argv[4], argv[5]);
    if (argc != 2) {
        fprintf(stderr, "usage: disc_image_tool OUT_DIR | extract IMAGE DIR | wrap gcz|ciso "
                        "IMAGE OUT BLOCK_SIZE\n");
        return 1;
    }
    /* Folders nested three deep, a zero-length file, names differing only in case, sizes
     * that are not multiples of the alignment, one file over a 32 KiB block. */
    static const struct {
        const char *path;
        size_t len;
    } spec[] = {
        {"Metroid1.pak", 1000},        {"METROID1.PAK", 33},
        {"AudioGrp.pak", 70000},       {"Audio/frontend_1.dsp", 4097},
        {"Audio/empty.bin", 0},        {"Audio/Deep/Deeper/x.pak", 5},
        {"Audio/Deep/y.pak", 64},      {"opening.bnr", 6496},
        {"Video/attract0.thp", 12345}, {"zz_last.pak", 1},
    };
    enum { N = sizeof spec / sizeof spec[0] };
    fixture_disc_file files[N];
    uint8_t *bufs[N];
    uint32_t x = 0x12345678u;
    for (size_t i = 0; i < N; i++) {
        bufs[i] = malloc(spec[i].len + 1);
        if (!bufs[i])
            return 1;
        for (size_t k = 0; k < spec[i].len; k++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            bufs[i][k] = (uint8_t)(x >> 24);
        }
        files[i] = (fixture_disc_file){.path = spec[i].path, .data = bufs[i], .len = spec[i].len};
    }
    const char *out = argv[1];
    char path[4096];
    int rc = 0;
    for (size_t i = 0; i < N && rc == 0; i++) {
        snprintf(path, sizeof path, "%s/expect/%s", out, spec[i].path);
        FILE *f = NULL;
        if (mkdirs(path) != 0 || !(f = fopen(path, "wb")) ||
            fwrite(bufs[i], 1, spec[i].len, f) != spec[i].len)
            rc = 1;
        if (f && fclose(f) != 0)
            rc = 1;
        printf("%s\n", spec[i].path);
    }
    fixture_disc_opts o;
    fixture_disc_opts_init(&o, "GM8P01", 1, "Fixture Disc");
    util_err err;
    util_err_clear(&err);
    snprintf(path, sizeof path, "%s/disc.iso", out);
    if (rc == 0 && fixture_disc_write(path, &o, files, N, &err) != 0) {
        fprintf(stderr, "disc_image_tool: %s\n", err.msg);
        rc = 1;
    }
    for (size_t i = 0; i < N; i++)
        free(bufs[i]);
    return rc;
}
