/* test_hostile_ingest.c — hostile inputs through db_ingest_paths on files in a temp folder.
 * Every case writes good.pak (an intact MP1 ANCS) and bad.pak (an intact ANCS plus one
 * damaged entry, or a damaged whole file) built with pak_builder from hand-built ANCS bytes
 * whose section offsets are known, then corrupts bytes at known offsets (FORMATS.md §2–4).
 * Rejected inputs must leave a load_errors row naming the stage and a byte offset; decoded
 * anomalies (§8) a warnings row; and in every case ingest is not fatal and both intact ANCS
 * still have their rows. */
#define _XOPEN_SOURCE 700 /* mkfifo, symlink */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"
#include "pak.h"
#include "testutil.h"

#define FC_ANCS 0x414E4353u
#define FC_CMDL 0x434D444Cu

#define ID_GOOD_OTHER 0x22220001u /* intact ANCS in good.pak */
#define ID_GOOD_SAME  0x11110001u /* intact ANCS in bad.pak */
#define ID_BAD        0x0BAD0001u /* the damaged entry of bad.pak (entry 0) */

/* ---- a hand-built ANCS (§4.15) with its section offsets ------------------------------ */

typedef struct knobs {
    ancs_game game;        /* MP1 or MP2 */
    uint16_t char_version; /* 0: 6 (MP1) / 10 (MP2) */
    const char *pas_magic; /* NULL: "PAS4" */
    uint32_t meta_type;    /* innermost meta-animation type (0 = Play; >= 5 unknown) */
    uint32_t trans_type;   /* default transition type (3 = Snap; >= 4 unknown) */
    uint32_t nest;         /* Sequence(1) levels wrapped around the Play node */
    uint32_t char_count;   /* written character count; 0: 1 */
    uint32_t anim_count;   /* written animation count; 0: 1 */
    const char *trailing;  /* bytes appended after the structure */
} knobs;

typedef struct layout {
    size_t charset, char_count, character, name, pas, particles, animset, anim_count, meta,
        transitions, default_trans, evsets, end;
} layout;

static void wr_id_list(util_wr *w, uint32_t n, uint32_t first)
{
    util_wr_u32(w, n);
    for (uint32_t i = 0; i < n; i++)
        util_wr_u32(w, first + i);
}

static void build_ancs(util_wr *w, const knobs *k, layout *L)
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

static void knobs_init(knobs *k, ancs_game game)
{
    memset(k, 0, sizeof *k);
    k->game = game;
    k->trans_type = 3;
}

/* ---- folders and PAKs ------------------------------------------------------------------ */

static pak_codec codec_of(ancs_game g)
{
    return g == ANCS_GAME_MP2 ? PAK_CODEC_LZO : PAK_CODEC_ZLIB;
}

static void add_good(pak_builder *b, ancs_game g, uint32_t id)
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

typedef struct scene {
    char *dir;
    char good[1024], bad[1024];
    db *d;
    db_ingest_stats st;
} scene;

/* good.pak in a fresh folder: one intact MP1 ANCS and a filler. */
static void scene_init(scene *s)
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
static void write_bad(scene *s, ancs_game g, const uint8_t *ancs, size_t len)
{
    util_err e;
    util_err_clear(&e);
    pak_builder *b = pak_builder_new();
    assert_int_equal(pak_builder_add(b, FC_ANCS, ID_BAD, ancs, len, codec_of(g), &e), 0);
    add_good(b, g, ID_GOOD_SAME);
    assert_int_equal(pak_builder_finish_file(b, s->bad, &e), 0);
    pak_builder_free(b);
}

static void write_bad_knobs(scene *s, const knobs *k, layout *L, size_t cut)
{
    util_wr w;
    util_wr_init(&w);
    build_ancs(&w, k, L);
    write_bad(s, k->game, w.buf, cut && cut < w.len ? cut : w.len);
    util_wr_free(&w);
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Overwrite the u32 at `off` of a file. */
static void patch32(const char *path, size_t off, uint32_t v)
{
    size_t len = 0;
    uint8_t *buf = tu_read_file(path, &len);
    assert_non_null(buf);
    assert_true(off + 4 <= len);
    put32(buf + off, v);
    assert_int_equal(tu_write_file(path, buf, len), 0);
    free(buf);
}

static uint32_t read32(const char *path, size_t off)
{
    size_t len = 0;
    uint8_t *buf = tu_read_file(path, &len);
    assert_non_null(buf);
    assert_true(off + 4 <= len);
    uint32_t v = be32(buf + off);
    free(buf);
    return v;
}

/* With no named resources the resource table starts at 12 and entry i at 16 + 20 i (§2.4). */
#define ENTRY_FIELD(i, f) (16u + 20u * (i) + (f))
#define F_SIZE            12u
#define F_OFFSET          16u

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
static int64_t q1(db *d, const char *sql)
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
static void scene_ingest(scene *s)
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
static void expect_intact(scene *s, int same_pak_too)
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
static int64_t expect_error(scene *s, const char *stage, int64_t entry)
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

static void scene_free(scene *s)
{
    db_close(s->d);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
    tu_run(cmd, NULL);
    free(s->dir);
}

/* ---- PAK-level faults -------------------------------------------------------------------- */

/* bad.pak with entry 0 = a valid ANCS of game g (so only the PAK bytes are hostile). */
static void write_bad_valid(scene *s, ancs_game g)
{
    knobs k;
    knobs_init(&k, g);
    layout L;
    write_bad_knobs(s, &k, &L, 0);
}

static void test_pak_header_truncated(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    static const uint8_t six[] = {0x00, 0x03, 0x00, 0x05, 0x00, 0x00};
    assert_int_equal(tu_write_file(s.bad, six, sizeof six), 0);
    scene_ingest(&s);
    assert_int_equal(expect_error(&s, "pak", -1), 4); /* the unused word at 4 is cut */
    expect_intact(&s, 0);
    scene_free(&s);
}

static void test_pak_zero_length(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    assert_int_equal(tu_write_file(s.bad, "", 0), 0);
    scene_ingest(&s);
    assert_int_equal(expect_error(&s, "pak", -1), 0);
    expect_intact(&s, 0);
    scene_free(&s);
}

static void test_pak_not_a_pak(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    static const char text[] = "#!/bin/sh\necho this is not a PAK file at all\n";
    assert_int_equal(tu_write_file(s.bad, text, sizeof text - 1), 0);
    scene_ingest(&s);
    assert_int_equal(expect_error(&s, "pak", -1), 0); /* the version word */
    expect_intact(&s, 0);
    scene_free(&s);
}

static void test_pak_entry_count_huge(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    write_bad_valid(&s, ANCS_GAME_MP1);
    patch32(s.bad, 12, 0xFFFFFFF0u); /* resource_count */
    scene_ingest(&s);
    int64_t off = expect_error(&s, "pak", -1);
    assert_true(off >= 12 && off <= 16);
    expect_intact(&s, 0);
    scene_free(&s);
}

static void test_pak_named_length_huge(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    util_err e;
    util_err_clear(&e);
    pak_builder *b = pak_builder_new();
    assert_int_equal(pak_builder_add_named(b, FC_ANCS, ID_GOOD_SAME, "Pirate", &e), 0);
    add_good(b, ANCS_GAME_MP1, ID_GOOD_SAME);
    assert_int_equal(pak_builder_finish_file(b, s.bad, &e), 0);
    pak_builder_free(b);
    /* named_count at 8, then type 12, id 16, name_length 20 (§2.3) */
    assert_int_equal(read32(s.bad, 20), 6);
    patch32(s.bad, 20, 0xFFFFFF00u);
    scene_ingest(&s);
    int64_t off = expect_error(&s, "pak", -1);
    assert_true(off >= 8 && off <= 24);
    expect_intact(&s, 0);
    scene_free(&s);
}

static void test_entry_offset_past_eof(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    write_bad_valid(&s, ANCS_GAME_MP1);
    struct stat sb;
    assert_int_equal(stat(s.bad, &sb), 0);
    uint32_t past = ((uint32_t)sb.st_size + 64u) & ~31u;
    patch32(s.bad, ENTRY_FIELD(0, F_OFFSET), past);
    scene_ingest(&s);
    assert_int_equal(expect_error(&s, "inflate", 0), past);
    expect_intact(&s, 1);
    scene_free(&s);
}

static void test_entry_size_past_eof(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    write_bad_valid(&s, ANCS_GAME_MP1);
    uint32_t off = read32(s.bad, ENTRY_FIELD(0, F_OFFSET));
    patch32(s.bad, ENTRY_FIELD(0, F_SIZE), 0xFFFFFFE0u);
    scene_ingest(&s);
    assert_int_equal(expect_error(&s, "inflate", 0), off);
    expect_intact(&s, 1);
    scene_free(&s);
}

static void test_entry_overlaps_tables(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    write_bad_valid(&s, ANCS_GAME_MP1);
    patch32(s.bad, ENTRY_FIELD(0, F_OFFSET), 0); /* data = header + tables */
    scene_ingest(&s);
    /* read anyway (an overlaps_tables warning), then it cannot inflate: header bytes 4..5
     * are 00 00, neither zlib nor an LZO segment length */
    int64_t off = expect_error(&s, "inflate", 0);
    assert_true(off >= 0 && off <= 6);
    assert_int_equal(q1(s.d, "SELECT count(*) FROM warnings WHERE code = 'overlaps_tables'"), 1);
    expect_intact(&s, 1);
    scene_free(&s);
}

/* Corrupt the compressed payload of entry 0 at payload offset `at` (after the u32 size). */
static void corrupt_payload(scene *s, size_t at, uint8_t xor_mask, size_t n)
{
    uint32_t off = read32(s->bad, ENTRY_FIELD(0, F_OFFSET));
    size_t len = 0;
    uint8_t *buf = tu_read_file(s->bad, &len);
    assert_non_null(buf);
    assert_true(off + 4 + at + n <= len);
    for (size_t i = 0; i < n; i++)
        buf[off + 4 + at + i] ^= xor_mask;
    assert_int_equal(tu_write_file(s->bad, buf, len), 0);
    free(buf);
}

static void test_corrupt_zlib(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    write_bad_valid(&s, ANCS_GAME_MP1);
    uint32_t off = read32(s.bad, ENTRY_FIELD(0, F_OFFSET));
    uint32_t size = read32(s.bad, ENTRY_FIELD(0, F_SIZE));
    corrupt_payload(&s, 8, 0x5A, 24); /* inside the deflate data (and the Adler-32 covers it) */
    scene_ingest(&s);
    int64_t at = expect_error(&s, "inflate", 0);
    assert_true(at >= off && at <= (int64_t)off + size);
    expect_intact(&s, 1);
    scene_free(&s);
}

static void test_corrupt_lzo(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    write_bad_valid(&s, ANCS_GAME_MP2);
    uint32_t off = read32(s.bad, ENTRY_FIELD(0, F_OFFSET));
    uint32_t size = read32(s.bad, ENTRY_FIELD(0, F_SIZE));
    /* first segment length (s16 at payload 0) -> 2: an LZO stream cut far too short */
    size_t len = 0;
    uint8_t *buf = tu_read_file(s.bad, &len);
    assert_non_null(buf);
    buf[off + 4] = 0x00;
    buf[off + 5] = 0x02;
    assert_int_equal(tu_write_file(s.bad, buf, len), 0);
    free(buf);
    scene_ingest(&s);
    int64_t at = expect_error(&s, "inflate", 0);
    assert_true(at >= off && at <= (int64_t)off + size);
    assert_int_equal(q1(s.d, "SELECT count(*) FROM paks WHERE path LIKE '%bad.pak' AND "
                             "game = 'MP2'"),
                     1);
    expect_intact(&s, 1);
    scene_free(&s);
}

static void declared_case(ancs_game g, int64_t delta, uint32_t absolute)
{
    scene s;
    scene_init(&s);
    write_bad_valid(&s, g);
    uint32_t off = read32(s.bad, ENTRY_FIELD(0, F_OFFSET));
    uint32_t size = read32(s.bad, ENTRY_FIELD(0, F_SIZE));
    uint32_t declared = read32(s.bad, off);
    patch32(s.bad, off, absolute ? absolute : (uint32_t)((int64_t)declared + delta));
    scene_ingest(&s);
    int64_t at = expect_error(&s, "inflate", 0);
    assert_true(at >= off && at <= (int64_t)off + size);
    expect_intact(&s, 1);
    scene_free(&s);
}

static void test_declared_smaller_zlib(void **state)
{
    (void)state;
    declared_case(ANCS_GAME_MP1, -5, 0);
}

static void test_declared_larger_zlib(void **state)
{
    (void)state;
    declared_case(ANCS_GAME_MP1, 7, 0);
}

static void test_declared_ffffffff_zlib(void **state)
{
    (void)state;
    declared_case(ANCS_GAME_MP1, 0, 0xFFFFFFFFu);
}

static void test_declared_smaller_lzo(void **state)
{
    (void)state;
    declared_case(ANCS_GAME_MP2, -5, 0);
}

static void test_declared_larger_lzo(void **state)
{
    (void)state;
    declared_case(ANCS_GAME_MP2, 7, 0);
}

static void test_declared_ffffffff_lzo(void **state)
{
    (void)state;
    declared_case(ANCS_GAME_MP2, 0, 0xFFFFFFFFu);
}

/* ---- ANCS-level faults ------------------------------------------------------------------- */

/* Rejected at decode: the one load_errors row names an offset inside the ANCS bytes (at or
 * before `max_off`); returns it. */
static int64_t decode_case(const knobs *k, size_t (*cut_at)(const layout *), int64_t max_off)
{
    scene s;
    scene_init(&s);
    layout L;
    util_wr w;
    util_wr_init(&w);
    build_ancs(&w, k, &L); /* layout only */
    util_wr_free(&w);
    size_t cut = cut_at ? cut_at(&L) : 0;
    write_bad_knobs(&s, k, &L, cut);
    scene_ingest(&s);
    int64_t at = expect_error(&s, "decode", 0);
    assert_true(at >= 0);
    if (max_off >= 0)
        assert_true(at <= max_off);
    if (cut)
        assert_true(at <= (int64_t)cut);
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM ancs WHERE asset_id = %u", ID_BAD);
    assert_int_equal(q1(s.d, sql), 0);
    expect_intact(&s, 1);
    scene_free(&s);
    return at;
}

static size_t cut_charset(const layout *L)
{
    return L->char_count + 2;
}
static size_t cut_character(const layout *L)
{
    return L->name + 5; /* inside the name: an unterminated string at the end of the data */
}
static size_t cut_pas(const layout *L)
{
    return L->pas + 14;
}
static size_t cut_particles(const layout *L)
{
    return L->particles + 6;
}
static size_t cut_animset(const layout *L)
{
    return L->animset + 1;
}
static size_t cut_meta(const layout *L)
{
    return L->meta + 10;
}
static size_t cut_transitions(const layout *L)
{
    return L->transitions + 9;
}
static size_t cut_evsets(const layout *L)
{
    return L->evsets + 6;
}

static void test_truncated_charset(void **state)
{
    (void)state;
    knobs k;
    knobs_init(&k, ANCS_GAME_MP1);
    decode_case(&k, cut_charset, -1);
}

static void test_truncated_unterminated_name(void **state)
{
    (void)state;
    knobs k;
    knobs_init(&k, ANCS_GAME_MP1);
    decode_case(&k, cut_character, -1);
}

static void test_truncated_pas(void **state)
{
    (void)state;
    knobs k;
    knobs_init(&k, ANCS_GAME_MP1);
    decode_case(&k, cut_pas, -1);
}

static void test_truncated_particles(void **state)
{
    (void)state;
    knobs k;
    knobs_init(&k, ANCS_GAME_MP2);
    decode_case(&k, cut_particles, -1);
}

static void test_truncated_animset(void **state)
{
    (void)state;
    knobs k;
    knobs_init(&k, ANCS_GAME_MP1);
    decode_case(&k, cut_animset, -1);
}

static void test_truncated_meta_anim(void **state)
{
    (void)state;
    knobs k;
    knobs_init(&k, ANCS_GAME_MP1);
    decode_case(&k, cut_meta, -1);
}

static void test_truncated_transitions(void **state)
{
    (void)state;
    knobs k;
    knobs_init(&k, ANCS_GAME_MP2);
    decode_case(&k, cut_transitions, -1);
}

static void test_truncated_event_sets(void **state)
{
    (void)state;
    knobs k;
    knobs_init(&k, ANCS_GAME_MP2);
    decode_case(&k, cut_evsets, -1);
}

static void test_truncated_pairs_mp1(void **state)
{
    (void)state;
    knobs k;
    knobs_init(&k, ANCS_GAME_MP1);
    decode_case(&k, cut_evsets, -1);
}

static void test_count_7fffffff_animations(void **state)
{
    (void)state;
    knobs k;
    knobs_init(&k, ANCS_GAME_MP1);
    k.anim_count = 0x7FFFFFFFu;
    layout L;
    util_wr w;
    util_wr_init(&w);
    build_ancs(&w, &k, &L);
    util_wr_free(&w);
    int64_t at = decode_case(&k, NULL, (int64_t)L.anim_count + 4);
    assert_true(at >= (int64_t)L.anim_count);
}

static void test_count_7fffffff_characters(void **state)
{
    (void)state;
    knobs k;
    knobs_init(&k, ANCS_GAME_MP2);
    k.char_count = 0x7FFFFFFFu;
    layout L;
    util_wr w;
    util_wr_init(&w);
    build_ancs(&w, &k, &L);
    util_wr_free(&w);
    int64_t at = decode_case(&k, NULL, (int64_t)L.char_count + 4);
    assert_true(at >= (int64_t)L.char_count);
}

static void meta_type_case(ancs_game g, uint32_t type)
{
    knobs k;
    knobs_init(&k, g);
    k.meta_type = type;
    layout L;
    util_wr w;
    util_wr_init(&w);
    build_ancs(&w, &k, &L);
    util_wr_free(&w);
    int64_t at = decode_case(&k, NULL, (int64_t)L.meta + 4);
    assert_true(at >= (int64_t)L.meta);
}

static void test_meta_anim_type_5(void **state)
{
    (void)state;
    meta_type_case(ANCS_GAME_MP1, 5);
}

static void test_meta_anim_type_ffffffff(void **state)
{
    (void)state;
    meta_type_case(ANCS_GAME_MP2, 0xFFFFFFFFu);
}

static void trans_type_case(ancs_game g, uint32_t type)
{
    knobs k;
    knobs_init(&k, g);
    k.trans_type = type;
    layout L;
    util_wr w;
    util_wr_init(&w);
    build_ancs(&w, &k, &L);
    util_wr_free(&w);
    int64_t at = decode_case(&k, NULL, (int64_t)L.default_trans + 4);
    assert_true(at >= (int64_t)L.default_trans);
}

static void test_meta_trans_type_4(void **state)
{
    (void)state;
    trans_type_case(ANCS_GAME_MP1, 4);
}

static void test_meta_trans_type_9(void **state)
{
    (void)state;
    trans_type_case(ANCS_GAME_MP2, 9);
}

static void test_meta_anim_nested_100000(void **state)
{
    (void)state;
    knobs k;
    knobs_init(&k, ANCS_GAME_MP1);
    k.nest = 100000;
    layout L;
    util_wr w;
    util_wr_init(&w);
    build_ancs(&w, &k, &L);
    util_wr_free(&w);
    /* the decoder stops at depth ANCS_MAX_DEPTH: it never reads far into the 800 000-byte
     * tower (the first Sequence starts at meta - 8 * nest) */
    int64_t first = (int64_t)L.meta - 8 * 100000;
    int64_t at = decode_case(&k, NULL, first + 8 * (ANCS_MAX_DEPTH + 2));
    assert_true(at >= first);
}

/* ---- decoded with a warnings row (§8) ----------------------------------------------------- */

static void warn_case(const knobs *k, const char *code, int64_t offset)
{
    scene s;
    scene_init(&s);
    layout L;
    write_bad_knobs(&s, k, &L, 0);
    scene_ingest(&s);
    assert_int_equal(s.st.errors, 0);
    assert_int_equal(q1(s.d, "SELECT count(*) FROM load_errors"), 0);
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM ancs a JOIN characters c ON c.game = a.game AND c.ancs_id = "
             "a.asset_id WHERE a.asset_id = %u AND c.name = 'SpacePirate' AND a.animation_count "
             "= 1 AND a.transition_count = 1",
             ID_BAD);
    assert_int_equal(q1(s.d, sql), 1);
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM warnings WHERE type = 'ANCS' AND asset_id = %u AND code = "
             "'%s' AND byte_offset = %lld",
             ID_BAD, code, (long long)offset);
    if (q1(s.d, sql) != 1)
        fail_msg("no warnings row %s at %lld", code, (long long)offset);
    expect_intact(&s, 1);
    scene_free(&s);
}

static void test_pas_magic_not_pas4(void **state)
{
    (void)state;
    knobs k;
    knobs_init(&k, ANCS_GAME_MP1);
    k.pas_magic = "PAS3";
    layout L;
    util_wr w;
    util_wr_init(&w);
    build_ancs(&w, &k, &L);
    util_wr_free(&w);
    warn_case(&k, "pas_magic", (int64_t)L.pas);
}

static void version_case(uint16_t v)
{
    knobs k;
    knobs_init(&k, ANCS_GAME_MP1);
    k.char_version = v;
    layout L;
    util_wr w;
    util_wr_init(&w);
    build_ancs(&w, &k, &L);
    util_wr_free(&w);
    /* the version u16 follows the character's u32 ID */
    warn_case(&k, "char_version_undocumented", (int64_t)L.character + 4);
}

static void test_char_version_7(void **state)
{
    (void)state;
    version_case(7);
}

static void test_char_version_8(void **state)
{
    (void)state;
    version_case(8);
}

static void test_char_version_9(void **state)
{
    (void)state;
    version_case(9);
}

static void test_trailing_bytes(void **state)
{
    (void)state;
    knobs k;
    knobs_init(&k, ANCS_GAME_MP1);
    k.trailing = "JUNK";
    layout L;
    util_wr w;
    util_wr_init(&w);
    build_ancs(&w, &k, &L);
    util_wr_free(&w);
    warn_case(&k, "trailing_bytes", (int64_t)L.end);
}

/* ---- unreadable files ------------------------------------------------------------------ */

static void test_unreadable_files(void **state)
{
    (void)state;
    scene s;
    scene_init(&s);
    write_bad_valid(&s, ANCS_GAME_MP1);
    char p[1200];
    snprintf(p, sizeof p, "%s/fifo.pak", s.dir);
    assert_int_equal(mkfifo(p, 0600), 0); /* must not block the walk or pak_open */
    snprintf(p, sizeof p, "%s/folder.pak", s.dir);
    assert_int_equal(mkdir(p, 0700), 0); /* a folder named *.pak is a folder */
    snprintf(p, sizeof p, "%s/dangling.pak", s.dir);
    assert_int_equal(symlink("/nonexistent/ancsdb/x.pak", p), 0);
    snprintf(p, sizeof p, "%s/loop", s.dir);
    assert_int_equal(symlink(".", p), 0);
    snprintf(p, sizeof p, "%s/self.pak", s.dir);
    assert_int_equal(symlink("self.pak", p), 0); /* ELOOP */
    scene_ingest(&s);
    assert_int_equal(s.st.paks_seen, 2); /* good.pak and bad.pak, once each */
    assert_int_equal(q1(s.d, "SELECT count(*) FROM load_errors WHERE stage = 'pak' AND "
                             "entry_index IS NULL AND byte_offset IS NULL AND (pak_path LIKE "
                             "'%dangling.pak' OR pak_path LIKE '%self.pak' OR pak_path LIKE "
                             "'%fifo.pak')"),
                     3);
    assert_int_equal(s.st.errors, 3);
    expect_intact(&s, 1);
    assert_int_equal(q1(s.d, "SELECT count(*) FROM paks"), 2);
    scene_free(&s);
}

/* Regression: an empty folder made the walk call qsort(NULL, 0, ...) (UBSan). */
static void test_empty_folder(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    char sub[1200];
    snprintf(sub, sizeof sub, "%s/empty", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&d, ":memory:", DB_OPEN_READWRITE, &e), 0);
    db_ingest_opts o = {.game = PAK_GAME_UNKNOWN, .jobs = 1, .quiet = 1, .log = NULL};
    db_ingest_stats st;
    const char *paths[2] = {sub, dir};
    assert_int_equal(db_ingest_paths(d, paths, 2, &o, &st, &e), 0);
    assert_int_equal(st.paks_seen, 0);
    assert_int_equal(st.errors, 0);
    db_close(d);
    rmdir(sub);
    rmdir(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pak_header_truncated),
        cmocka_unit_test(test_pak_zero_length),
        cmocka_unit_test(test_pak_not_a_pak),
        cmocka_unit_test(test_pak_entry_count_huge),
        cmocka_unit_test(test_pak_named_length_huge),
        cmocka_unit_test(test_entry_offset_past_eof),
        cmocka_unit_test(test_entry_size_past_eof),
        cmocka_unit_test(test_entry_overlaps_tables),
        cmocka_unit_test(test_corrupt_zlib),
        cmocka_unit_test(test_corrupt_lzo),
        cmocka_unit_test(test_declared_smaller_zlib),
        cmocka_unit_test(test_declared_larger_zlib),
        cmocka_unit_test(test_declared_ffffffff_zlib),
        cmocka_unit_test(test_declared_smaller_lzo),
        cmocka_unit_test(test_declared_larger_lzo),
        cmocka_unit_test(test_declared_ffffffff_lzo),
        cmocka_unit_test(test_truncated_charset),
        cmocka_unit_test(test_truncated_unterminated_name),
        cmocka_unit_test(test_truncated_pas),
        cmocka_unit_test(test_truncated_particles),
        cmocka_unit_test(test_truncated_animset),
        cmocka_unit_test(test_truncated_meta_anim),
        cmocka_unit_test(test_truncated_transitions),
        cmocka_unit_test(test_truncated_event_sets),
        cmocka_unit_test(test_truncated_pairs_mp1),
        cmocka_unit_test(test_count_7fffffff_animations),
        cmocka_unit_test(test_count_7fffffff_characters),
        cmocka_unit_test(test_meta_anim_type_5),
        cmocka_unit_test(test_meta_anim_type_ffffffff),
        cmocka_unit_test(test_meta_trans_type_4),
        cmocka_unit_test(test_meta_trans_type_9),
        cmocka_unit_test(test_meta_anim_nested_100000),
        cmocka_unit_test(test_pas_magic_not_pas4),
        cmocka_unit_test(test_char_version_7),
        cmocka_unit_test(test_char_version_8),
        cmocka_unit_test(test_char_version_9),
        cmocka_unit_test(test_trailing_bytes),
        cmocka_unit_test(test_unreadable_files),
        cmocka_unit_test(test_empty_folder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
