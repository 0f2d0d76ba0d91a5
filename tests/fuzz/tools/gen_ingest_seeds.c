/* gen_ingest_seeds.c — writes the seed PAKs of tests/fuzz/corpus/ingest/ with the fixture
 * builder and pak_builder (run once by hand; not part of the build):
 *   cc -std=c11 -D_POSIX_C_SOURCE=200809L -Iutil -Ipak -Iancs -Iworld -Idisc -Ifixture \
 *      tests/fuzz/tools/gen_ingest_seeds.c build/release/libfixture.a build/release/libpak.a \
 *      build/release/libworld.a build/release/libancs.a build/release/libdisc.a \
 *      build/release/libutil.a -lz -llzo2 -ldeflate -lzstd -llzma -lbz2 -lpthread -lm \
 *      -o /tmp/gen && /tmp/gen tests/fuzz/corpus/ingest
 * (mp2_lzo.pak, and so mp2_lzo_disc.pak, come out different from the committed ones: the
 * fixture builder has changed since they were made; either serves as a seed. mp2_lzo_disc.pak
 * grows to stay a GCZ.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "fixture_corpus.h"
#include "pak.h"

#define FC_ANCS 0x414E4353u
#define FC_EVNT 0x45564E54u
#define FC_CMDL 0x434D444Cu

typedef struct ids {
    uint32_t next, evnt[16];
    int nevnt;
} ids;

static uint32_t new_id(void *ctx, uint32_t fourcc)
{
    ids *s = ctx;
    uint32_t id = s->next++;
    if (fourcc == FC_EVNT && s->nevnt < 16)
        s->evnt[s->nevnt++] = id;
    return id;
}

static void check(int rc, const util_err *e, const char *what)
{
    if (rc) {
        fprintf(stderr, "%s: %s\n", what, e->msg);
        exit(1);
    }
}

/* One small ANCS (one character, few animations) plus its MP1 EVNTs into b. */
static void add_set(pak_builder *b, ancs_game game, uint64_t seed, uint32_t ancs_id,
                    uint16_t version, pak_codec codec, pak_codec evnt_codec)
{
    util_err e;
    util_err_clear(&e);
    ids s = {.next = 0x01000000u | (ancs_id & 0xFFu) << 12};
    fixture_ancs_opts o;
    fixture_ancs_opts_init(&o, game, seed);
    o.char_count = 1;
    o.char_versions = &version;
    o.animation_count = game == ANCS_GAME_MP2 ? 2 : 5;
    o.max_meta_depth = 2;
    o.new_id = new_id;
    o.id_ctx = &s;
    uint8_t *buf = NULL;
    size_t len = 0;
    check(fixture_ancs_bytes(&buf, &len, &o, &e), &e, "ancs");
    check(pak_builder_add(b, FC_ANCS, ancs_id, buf, len, codec, &e), &e, "add ancs");
    free(buf);
    for (int i = 0; i < s.nevnt && i < 2; i++) {
        check(fixture_evnt_bytes(&buf, &len, game, seed + 7 + (uint64_t)i, 2, 1, &e), &e, "evnt");
        check(pak_builder_add(b, FC_EVNT, s.evnt[i], buf, len, evnt_codec, &e), &e, "add evnt");
        free(buf);
    }
}

static void filler(pak_builder *b, uint32_t id, pak_codec codec)
{
    util_err e;
    util_err_clear(&e);
    uint8_t buf[64];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 13 + id);
    check(pak_builder_add(b, FC_CMDL, id, buf, sizeof buf, codec, &e), &e, "filler");
}

/* A stored CMDL of len bytes (never ending in 0xFF: no padding to strip). */
static void opaque(pak_builder *b, uint32_t id, size_t len)
{
    util_err e;
    util_err_clear(&e);
    uint8_t *buf = malloc(len);
    if (!buf)
        exit(1);
    for (size_t i = 0; i < len; i++)
        buf[i] = (uint8_t)((i * 31 + id + i / 509) & 0x7F);
    check(pak_builder_add(b, FC_CMDL, id, buf, len, PAK_CODEC_NONE, &e), &e, "opaque");
    free(buf);
}

/* The PAK named pak of a tiny fixture game (scale 0.005, seed 1) to dir/to, padded with 0xFF
 * to a length fuzz_ingest reads with the game detected: its worlds (MLVL, STRG) go through the
 * ingest's world rows. */
static void game_pak(const char *dir, int mp2, const char *pak, const char *to)
{
    util_err e;
    util_err_clear(&e);
    fixture_corpus_opts o = {.seed = 1, .scale = 0.005};
    fixture_game *g = NULL;
    check(fixture_game_build(&g, mp2, &o, NULL, NULL, &e), &e, "game");
    int found = 0;
    for (int i = 0; i < fixture_game_pak_count(g) && !found; i++) {
        if (strcmp(fixture_game_pak_name(g, i), pak))
            continue;
        uint8_t *bytes = NULL;
        size_t len = 0;
        check(fixture_game_pak_bytes(g, i, &bytes, &len, NULL, &e), &e, pak);
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, to);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(bytes, 1, len, f) != len)
            exit(1);
        for (; len % 3 != 0 || len % 5 == 4; len++) /* the game detected; not in a disc */
            fputc(0xFF, f);
        if (fclose(f) != 0)
            exit(1);
        free(bytes);
        found = 1;
    }
    fixture_game_free(g);
    if (!found)
        exit(1);
}

static void finish(pak_builder *b, const char *dir, const char *name)
{
    util_err e;
    util_err_clear(&e);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    check(pak_builder_finish_file(b, path, &e), &e, path);
    pak_builder_free(b);
}

/* A copy of dir/from with 0xFF bytes after it (a PAK ignores what follows its data), as many
 * as make its size 4 modulo 5, fuzz_ingest's PAK of a disc image, and its kind: the image plain
 * (0: size / 10 % 3 is 0), a CISO (1: 1), a GCZ with a damaged block (2: 2, and size / 480 even)
 * or an RVZ with a damaged group (3: 2, and size / 480 odd); tight > 0: also two workers
 * and the tight memory budget, with 120 bytes more for each step past 1 (the input's hash, so
 * the damaged block, changes). */
static void disc_copy(const char *dir, const char *from, const char *to, long kind, int tight)
{
    char src[1024], dst[1024];
    snprintf(src, sizeof src, "%s/%s", dir, from);
    snprintf(dst, sizeof dst, "%s/%s", dir, to);
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    if (!in || !out) {
        fprintf(stderr, "%s: cannot copy to %s\n", src, dst);
        exit(1);
    }
    long n = 0;
    int c;
    while ((c = fgetc(in)) != EOF && fputc(c, out) != EOF)
        n++;
    for (; n % 5 != 4 || n / 10 % 3 != (kind < 2 ? kind : 2) ||
           (kind >= 2 && n / 480 % 2 != kind - 2) || (tight && (n / 3 % 2 != 1 || n / 60 % 2 != 1));
         n++)
        fputc(0xFF, out);
    for (long k = 1; k < tight; k++) /* the same shape, other bytes: another block damaged */
        for (int i = 0; i < 120; i++)
            fputc(0xFF, out);
    fclose(in);
    if (fclose(out) != 0)
        exit(1);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    util_err e;
    util_err_clear(&e);
    pak_builder *b = pak_builder_new();
    check(pak_builder_add_named(b, FC_ANCS, 0x0A000001u, "ANCS_Pirate", &e), &e, "named");
    add_set(b, ANCS_GAME_MP1, 1, 0x0A000001u, 6, PAK_CODEC_ZLIB, PAK_CODEC_NONE);
    filler(b, 0x0F000001u, PAK_CODEC_ZLIB);
    finish(b, dir, "mp1_zlib.pak");

    b = pak_builder_new();
    add_set(b, ANCS_GAME_MP1, 2, 0x0A000002u, 5, PAK_CODEC_NONE, PAK_CODEC_ZLIB);
    add_set(b, ANCS_GAME_MP1, 2, 0x0A000002u, 5, PAK_CODEC_ZLIB, PAK_CODEC_ZLIB); /* copy */
    finish(b, dir, "mp1_stored_dup.pak");

    b = pak_builder_new();
    add_set(b, ANCS_GAME_MP2, 3, 0x0B000001u, 10, PAK_CODEC_LZO, PAK_CODEC_LZO);
    filler(b, 0x0F000002u, PAK_CODEC_LZO);
    finish(b, dir, "mp2_lzo.pak");

    b = pak_builder_new();
    add_set(b, ANCS_GAME_MP1, 4, 0x0A000004u, 1, PAK_CODEC_NONE, PAK_CODEC_NONE);
    finish(b, dir, "mp1_v1_stored.pak");

    /* every seventh entry 16 KiB (its job waits for room in the tight budget) and small ones
     * between them (read ahead whole with their sizes); the damaged block falls where one of
     * the later entries' sizes are read */
    b = pak_builder_new();
    for (uint32_t i = 0; i < 30; i++)
        opaque(b, 0x0C000000u + i, i % 7 == 0 ? 16u << 10 : 500 + 10 * i);
    finish(b, dir, "stored_mixed.pak");

    game_pak(dir, 0, "Metroid8", "mp1_world.pak");
    game_pak(dir, 1, "Metroid2", "mp2_world.pak");

    disc_copy(dir, "mp1_zlib.pak", "mp1_zlib_disc.pak", 0, 0);
    disc_copy(dir, "mp2_lzo.pak", "mp2_lzo_disc.pak", 2, 0);
    disc_copy(dir, "mp1_stored_dup.pak", "mp1_stored_dup_ciso.pak", 1, 0);
    disc_copy(dir, "mp1_stored_dup.pak", "mp1_stored_dup_gcz.pak", 2, 0);
    /* of the first four lengths, the third damages the block of entry 28's sizes while two
     * small entries after it were read ahead unclaimed: the drain's fault of 588cc51 */
    disc_copy(dir, "stored_mixed.pak", "stored_mixed_gcz.pak", 2, 3);
    /* the same in an RVZ, a group of the input's PAK 4 bytes short: in the first, a group of
     * the 64 KiB its tables are read from (the open fails); in the second (its second length),
     * the group at PAK offset 0x12E00, where a later entry's sizes are read (part-way) */
    disc_copy(dir, "mp1_stored_dup.pak", "mp1_stored_dup_rvz.pak", 3, 0);
    disc_copy(dir, "stored_mixed.pak", "stored_mixed_rvz.pak", 3, 2);
    return 0;
}
