/* hostile_scene.c — see hostile_scene.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostile_scene.h"

/* ---- a hand-built ANCS (§4.15) with its section offsets ------------------------------ */

void wr_id_list(util_wr *w, uint32_t n, uint32_t first)
{
    util_wr_u32(w, n);
    for (uint32_t i = 0; i < n; i++)
        util_wr_u32(w, first + i);
}

void build_ancs(util_wr *w, const knobs *k, layout *L)
{
    int mp2 = k->game == ANCS_GAME_MP2;
    uint16_t T = k->char_version ? k->char_version : (mp2 ? 10 : 6);
    memset(L, 0, sizeof *L);
    util_wr_u16(w, 1); /* ancs_version */
    L->charset = w->len;
    util_wr_u16(w, 1);
    L->char_count = w->len;
    util_wr_u32(w, k->char_count ? k->char_count : 1);
    L->character = w->len;
    util_wr_u32(w, 0); /* character_id */
    util_wr_u16(w, T);
    L->name = w->len;
    util_wr_cstr(w, "SpacePirate");
    util_wr_u32(w, 0x50000001u); /* CMDL */
    util_wr_u32(w, 0x50000002u); /* CSKR */
    util_wr_u32(w, 0x50000003u); /* CINF */
    util_wr_u32(w, 1);           /* animation names */
    util_wr_u32(w, 0);
    if (!mp2)
        util_wr_cstr(w, "");
    util_wr_cstr(w, "Idle");
    L->pas = w->len;
    util_wr_bytes(w, k->pas_magic ? k->pas_magic : "PAS4", 4);
    util_wr_u32(w, 1); /* one anim state */
    util_wr_s32(w, 5); /* default: Locomotion */
    util_wr_s32(w, 5); /* state type */
    util_wr_u32(w, 1); /* P */
    util_wr_u32(w, 1); /* A */
    util_wr_s32(w, 2); /* parm type Float */
    util_wr_s32(w, 1); /* PercentError */
    util_wr_f32(w, 1.0f);
    util_wr_f32(w, 0.0f);
    util_wr_f32(w, 1.0f);
    util_wr_u32(w, 0); /* anim info: anim_id */
    util_wr_f32(w, 0.5f);
    L->particles = w->len;
    wr_id_list(w, 1, 0x60000001u); /* PART */
    wr_id_list(w, 0, 0);           /* SWHC */
    wr_id_list(w, 0, 0);           /* third */
    if (T >= 6)
        wr_id_list(w, 1, 0x60000002u); /* ELSC */
    if (T >= 10)
        wr_id_list(w, 0, 0); /* SPSC */
    util_wr_u32(w, 0);       /* unknown_a */
    if (T >= 10)
        util_wr_u32(w, 0); /* unknown_b */
    if (T >= 2) {
        util_wr_u32(w, 1); /* AABBs */
        util_wr_cstr(w, "Idle");
        for (int i = 0; i < 6; i++)
            util_wr_f32(w, (float)(i < 3 ? -1 : 1));
    }
    if (T >= 3)
        util_wr_u32(w, 0); /* effects */
    if (T >= 4) {
        util_wr_u32(w, mp2 ? 0xFFFFFFFFu : 0);
        util_wr_u32(w, mp2 ? 0xFFFFFFFFu : 0);
    }
    if (T >= 5)
        wr_id_list(w, 1, 0); /* animation ID map: 0 -> 0 */
    if (T >= 10) {
        util_wr_u32(w, 0x50000004u); /* CSPP */
        util_wr_u8(w, 0);
        util_wr_u32(w, 0); /* indexed AABBs */
    }
    L->animset = w->len;
    util_wr_u16(w, 4);
    L->anim_count = w->len;
    util_wr_u32(w, k->anim_count ? k->anim_count : 1);
    util_wr_cstr(w, "Idle");
    for (uint32_t i = 0; i < k->nest; i++) {
        util_wr_u32(w, 4); /* Sequence */
        util_wr_u32(w, 1);
    }
    L->meta = w->len;
    util_wr_u32(w, k->meta_type);
    util_wr_u32(w, 0x70000001u); /* Play: ANIM */
    util_wr_u32(w, 0);
    util_wr_cstr(w, "Idle");
    util_wr_f32(w, 0.0f);
    util_wr_u32(w, 0);
    L->transitions = w->len;
    util_wr_u32(w, 1);
    util_wr_u32(w, 7); /* unknown_id */
    util_wr_u32(w, 0);
    util_wr_u32(w, 0);
    util_wr_u32(w, 1); /* Trans */
    util_wr_f32(w, 0.25f);
    util_wr_u32(w, 0);
    util_wr_u8(w, 0);
    util_wr_u8(w, 1);
    util_wr_u32(w, 0);
    L->default_trans = w->len;
    util_wr_u32(w, k->trans_type);
    util_wr_u32(w, 0);    /* additive animations */
    util_wr_f32(w, 0.1f); /* fade in */
    util_wr_f32(w, 0.2f); /* fade out */
    util_wr_u32(w, 0);    /* half transitions */
    L->evsets = w->len;
    util_wr_u32(w, 1);
    if (mp2) {
        util_wr_u32(w, 2); /* EVNT v2, no nodes */
        for (int i = 0; i < 4; i++)
            util_wr_u32(w, 0);
    } else {
        util_wr_u32(w, 0x70000001u); /* ANIM -> EVNT pair */
        util_wr_u32(w, 0xFFFFFFFFu);
    }
    L->end = w->len;
    if (k->trailing)
        util_wr_bytes(w, k->trailing, strlen(k->trailing));
}

void knobs_init(knobs *k, ancs_game game)
{
    memset(k, 0, sizeof *k);
    k->game = game;
    k->trans_type = 3;
}

/* ---- folders and PAKs ------------------------------------------------------------------ */

pak_codec codec_of(ancs_game g)
{
    return g == ANCS_GAME_MP2 ? PAK_CODEC_LZO : PAK_CODEC_ZLIB;
}

void add_good(pak_builder *b, ancs_game g, uint32_t id)
{
    util_err e;
    util_err_clear(&e);
    knobs k;
    knobs_init(&k, g);
    layout L;
    util_wr w;
    util_wr_init(&w);
    build_ancs(&w, &k, &L);
    assert_int_equal(pak_builder_add(b, FC_ANCS, id, w.buf, w.len, codec_of(g), &e), 0);
    util_wr_free(&w);
}

/* good.pak in a fresh folder: one intact MP1 ANCS and a filler. */
void scene_init(scene *s)
{
    memset(s, 0, sizeof *s);
    s->dir = tu_tempdir();
    assert_non_null(s->dir);
    snprintf(s->good, sizeof s->good, "%s/good.pak", s->dir);
    snprintf(s->bad, sizeof s->bad, "%s/bad.pak", s->dir);
    util_err e;
    util_err_clear(&e);
    pak_builder *b = pak_builder_new();
    add_good(b, ANCS_GAME_MP1, ID_GOOD_OTHER);
    uint8_t fill[40] = {1, 2, 3};
    assert_int_equal(
        pak_builder_add(b, FC_CMDL, 0x33330001u, fill, sizeof fill, PAK_CODEC_ZLIB, &e), 0);
    assert_int_equal(pak_builder_finish_file(b, s->good, &e), 0);
    pak_builder_free(b);
}

/* bad.pak: entry 0 = the given ANCS bytes as ID_BAD (compressed with the game's codec, so
 * the inflated bytes are exactly `ancs`), entry 1 = an intact ANCS of the same game. */
void write_bad(scene *s, ancs_game g, const uint8_t *ancs, size_t len)
{
    util_err e;
    util_err_clear(&e);
    pak_builder *b = pak_builder_new();
    assert_int_equal(pak_builder_add(b, FC_ANCS, ID_BAD, ancs, len, codec_of(g), &e), 0);
    add_good(b, g, ID_GOOD_SAME);
    assert_int_equal(pak_builder_finish_file(b, s->bad, &e), 0);
    pak_builder_free(b);
}

void write_bad_knobs(scene *s, const knobs *k, layout *L, size_t cut)
{
    util_wr w;
    util_wr_init(&w);
    build_ancs(&w, k, L);
    write_bad(s, k->game, w.buf, cut && cut < w.len ? cut : w.len);
    util_wr_free(&w);
}

uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Overwrite the u32 at `off` of a file. */
void patch32(const char *path, size_t off, uint32_t v)
{
    size_t len = 0;
    uint8_t *buf = tu_read_file(path, &len);
    assert_non_null(buf);
    assert_true(off + 4 <= len);
    put32(buf + off, v);
    assert_int_equal(tu_write_file(path, buf, len), 0);
    free(buf);
}

uint32_t read32(const char *path, size_t off)
{
    size_t len = 0;
    uint8_t *buf = tu_read_file(path, &len);
    assert_non_null(buf);
    assert_true(off + 4 <= len);
    uint32_t v = be32(buf + off);
    free(buf);
    return v;
}

typedef struct r1 {
    int64_t v;
    int rows;
} r1;

static int r1_row(void *ctx, int ncols, const db_cell *cells)
{
    r1 *r = ctx;
    r->v = ncols > 0 && cells[0].type == DB_INT ? cells[0].i : -12345;
    r->rows++;
    return 0;
}

/* One integer from a query (NULL reads as -1). */
int64_t q1(db *d, const char *sql)
{
    util_err e;
    util_err_clear(&e);
    r1 r = {-12345, 0};
    db_sink s = {&r, NULL, r1_row, NULL};
    char wrapped[2048];
    snprintf(wrapped, sizeof wrapped, "SELECT coalesce((%s), -1)", sql);
    if (db_exec(d, wrapped, 0, NULL, &s, &e) != 0)
        fail_msg("%s: %s", sql, e.msg);
    assert_int_equal(r.rows, 1);
    return r.v;
}

/* Ingest the scene folder into a fresh in-memory database; never fatal. */
void scene_ingest(scene *s)
{
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&s->d, ":memory:", DB_OPEN_READWRITE, &e), 0);
    db_ingest_opts o = {.game = PAK_GAME_UNKNOWN, .jobs = 1, .quiet = 1, .log = NULL};
    const char *paths[1] = {s->dir};
    int rc = db_ingest_paths(s->d, paths, 1, &o, &s->st, &e);
    if (rc != 0)
        fail_msg("ingest failed fatally: %s", e.msg);
}

/* Both intact ANCS (one in good.pak, one in bad.pak unless bad.pak is wholly broken) have
 * their rows. */
void expect_intact(scene *s, int same_pak_too)
{
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM ancs a JOIN characters c ON c.game = a.game AND c.ancs_id = "
             "a.asset_id WHERE a.asset_id = %u AND c.name = 'SpacePirate'",
             ID_GOOD_OTHER);
    assert_int_equal(q1(s->d, sql), 1);
    if (same_pak_too) {
        snprintf(sql, sizeof sql, "SELECT count(*) FROM ancs WHERE asset_id = %u", ID_GOOD_SAME);
        assert_int_equal(q1(s->d, sql), 1);
    }
    assert_int_equal(q1(s->d, "SELECT count(*) FROM paks WHERE path LIKE '%good.pak' AND "
                              "status = 'ok'"),
                     1);
}

/* The one load_errors row of bad.pak: stage, entry (-1 = whole PAK) and byte offset. */
int64_t expect_error(scene *s, const char *stage, int64_t entry)
{
    char sql[512];
    assert_true(s->st.errors >= 1); /* -> exit status 1 from the CLI */
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM load_errors WHERE pak_path LIKE '%%bad.pak' AND stage = '%s' "
             "AND %s AND byte_offset IS NOT NULL AND length(message) > 0",
             stage, entry < 0 ? "entry_index IS NULL" : "entry_index = 0 AND type = 'ANCS'");
    if (q1(s->d, sql) != 1) {
        fail_msg("no %s load_errors row for %s (errors=%ld)", stage,
                 entry < 0 ? "the PAK" : "entry 0", s->st.errors);
    }
    snprintf(sql, sizeof sql,
             "SELECT byte_offset FROM load_errors WHERE pak_path LIKE '%%bad.pak' AND stage = "
             "'%s'",
             stage);
    return q1(s->d, sql);
}

void scene_free(scene *s)
{
    db_close(s->d);
    tu_remove_tree(s->dir);
    free(s->dir);
}

/* bad.pak with entry 0 = a valid ANCS of game g (so only the PAK bytes are hostile). */
void write_bad_valid(scene *s, ancs_game g)
{
    knobs k;
    knobs_init(&k, g);
    layout L;
    write_bad_knobs(s, &k, &L, 0);
}
