/* test_db_stored_hash.c — a compressed entry whose stored bytes were seen before (in the
 * database, from an earlier run or release) is not inflated again, and still gets the content
 * hash and content a clean ingest gives it; an entry whose stored bytes changed is inflated
 * and its new content found, also when its PAK is re-ingested in place. Expected hashes are
 * XXH3-64 of the bytes given to the PAK builder (trailing 0xFF bytes ignored, CONTRACT.md),
 * computed here with the xxhash library, never through the ingest's own inflate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "db.h"
#include "fixture.h"
#include "pak.h"
#include "testutil.h"

#define FC_ANCS 0x414E4353u
#define FC_CMDL 0x434D444Cu
#define ANCS_X  0x0A000001u

static uint64_t content_hash(const uint8_t *b, size_t len)
{
    while (len > 0 && b[len - 1] == 0xFF)
        len--;
    return XXH3_64bits(b, len);
}

static void add(pak_builder *b, uint32_t type, uint32_t id, const uint8_t *data, size_t len,
                pak_codec codec)
{
    util_err e;
    util_err_clear(&e);
    assert_int_equal(pak_builder_add(b, type, id, data, len, codec, &e), 0);
}

/* The bytes of an MP1 ANCS (seed) with no EVNT of its own. */
static uint8_t *ancs_bytes(uint64_t seed, size_t *len)
{
    util_err e;
    util_err_clear(&e);
    fixture_ancs_opts o;
    fixture_ancs_opts_init(&o, ANCS_GAME_MP1, seed);
    util_arena a;
    util_arena_init(&a);
    ancs_set set;
    assert_int_equal(fixture_ancs_build(&set, &o, &a, &e), 0);
    util_wr w;
    util_wr_init(&w);
    assert_int_equal(ancs_encode(&w, &set, &e), 0);
    uint8_t *out = malloc(w.len);
    assert_non_null(out);
    memcpy(out, w.buf, w.len);
    *len = w.len;
    util_wr_free(&w);
    util_arena_free(&a);
    return out;
}

typedef struct cmdl {
    uint32_t id;
    uint32_t seed;
    pak_codec codec;
} cmdl;

#define CMDL_LEN 3000

/* A PAK of the given CMDLs and ANCS X (zlib) built from ancs seed. */
static void write_pak(const char *path, const cmdl *c, int n, uint64_t ancs_seed)
{
    pak_builder *b = pak_builder_new();
    for (int i = 0; i < n; i++) {
        uint8_t *data = tu_bytes(c[i].seed, CMDL_LEN);
        add(b, FC_CMDL, c[i].id, data, CMDL_LEN, c[i].codec);
        free(data);
    }
    size_t alen = 0;
    uint8_t *a = ancs_bytes(ancs_seed, &alen);
    add(b, FC_ANCS, ANCS_X, a, alen, PAK_CODEC_ZLIB);
    free(a);
    util_err e;
    util_err_clear(&e);
    assert_int_equal(pak_builder_finish_file(b, path, &e), 0);
    pak_builder_free(b);
}

typedef struct one {
    int64_t v;
    int rows;
} one;

static int one_row(void *ctx, int ncols, const db_cell *cells)
{
    one *o = ctx;
    assert_true(ncols >= 1);
    assert_int_equal(cells[0].type, DB_INT);
    o->v = cells[0].i;
    o->rows++;
    return 0;
}

/* The one integer sql returns. */
static int64_t one_int(db *d, const char *sql)
{
    util_err e;
    util_err_clear(&e);
    one o = {-1, 0};
    db_sink s = {&o, NULL, one_row, NULL};
    assert_int_equal(db_exec(d, sql, 0, NULL, &s, &e), 0);
    assert_int_equal(o.rows, 1);
    return o.v;
}

static void ingest(db *d, const char *path, int jobs, db_ingest_stats *st)
{
    util_err e;
    util_err_clear(&e);
    db_ingest_opts o = {.game = PAK_GAME_MP1, .jobs = jobs, .quiet = 1, .log = NULL};
    const char *paths[1] = {path};
    assert_int_equal(db_ingest_paths(d, paths, 1, &o, st, &e), 0);
    assert_int_equal(st->errors, 0);
}

/* The content hash of (release, CMDL id) as stored. */
static uint64_t hash_of(db *d, const char *release, uint32_t id)
{
    char sql[400];
    snprintf(sql, sizeof sql,
             "SELECT e.content_hash FROM pak_entries e JOIN paks p USING (pak_id) JOIN "
             "releases r USING (release_id) WHERE r.label = '%s' AND e.asset_id = %u",
             release, id);
    return (uint64_t)one_int(d, sql);
}

static int64_t ancs_content(db *d, const char *release)
{
    char sql[400];
    snprintf(sql, sizeof sql,
             "SELECT e.content_id FROM pak_entries e JOIN paks p USING (pak_id) JOIN "
             "releases r USING (release_id) WHERE r.label = '%s' AND e.asset_id = %u",
             release, ANCS_X);
    return one_int(d, sql);
}

static uint64_t expect(uint32_t seed)
{
    uint8_t *b = tu_bytes(seed, CMDL_LEN);
    uint64_t h = content_hash(b, CMDL_LEN);
    free(b);
    return h;
}

static void test_stored_hash(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    char r1[1024], r2[1024], p1[1100], p2[1100], cmd[2400];
    snprintf(r1, sizeof r1, "%s/rel1", dir);
    snprintf(r2, sizeof r2, "%s/rel2", dir);
    snprintf(p1, sizeof p1, "%s/a.pak", r1);
    snprintf(p2, sizeof p2, "%s/a.pak", r2);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' '%s'", r1, r2);
    assert_int_equal(tu_run(cmd, NULL), 0);
    /* rel2 = rel1 with CMDL 2 changed and a stored copy of CMDL 1's bytes as CMDL 3 */
    const cmdl c1[] = {{1, 100, PAK_CODEC_ZLIB}, {2, 200, PAK_CODEC_ZLIB}};
    const cmdl c2[] = {
        {1, 100, PAK_CODEC_ZLIB}, {2, 201, PAK_CODEC_ZLIB}, {3, 100, PAK_CODEC_NONE}};
    write_pak(p1, c1, 2, 7);
    write_pak(p2, c2, 3, 7);

    util_err e;
    util_err_clear(&e);
    db_ingest_stats st;
    /* a clean ingest of rel2 alone: every compressed entry inflated */
    db *clean = NULL;
    assert_int_equal(db_open(&clean, ":memory:", DB_OPEN_READWRITE, &e), 0);
    ingest(clean, r2, 1, &st);
    assert_int_equal(st.inflated, 3);

    db *d = NULL;
    assert_int_equal(db_open(&d, ":memory:", DB_OPEN_READWRITE, &e), 0);
    ingest(d, r1, 1, &st);
    assert_int_equal(st.inflated, 3);
    /* rel2 after rel1: CMDL 1's stored bytes are known; CMDL 2 changed; the ANCS is always
     * inflated (it may need decoding) */
    ingest(d, r2, 1, &st);
    assert_int_equal(st.inflated, 2);
    assert_int_equal(st.ancs, 0); /* the same content as rel1's: not decoded again */
    for (int pass = 0; pass < 2; pass++) {
        db *x = pass ? d : clean;
        assert_true(hash_of(x, "rel2", 1) == expect(100));
        assert_true(hash_of(x, "rel2", 2) == expect(201));
        assert_true(hash_of(x, "rel2", 3) == expect(100)); /* stored copy, same content */
    }
    assert_true(hash_of(d, "rel1", 2) == expect(200));
    assert_int_equal(one_int(d, "SELECT count(*) FROM pak_entries WHERE compressed <> 0 AND "
                                "stored_hash IS NULL"),
                     0);
    /* both releases hold one content of the ANCS */
    assert_true(ancs_content(d, "rel1") > 0);
    assert_int_equal(ancs_content(d, "rel1"), ancs_content(d, "rel2"));
    assert_int_equal(one_int(d, "SELECT count(*) FROM contents"), 1);

    /* rel1's PAK changes in place: CMDL 1 new bytes, CMDL 2 takes rel2's, a new ANCS;
     * re-ingested with worker threads */
    sleep(1); /* a different mtime even on coarse file systems */
    const cmdl c1b[] = {{1, 101, PAK_CODEC_ZLIB}, {2, 201, PAK_CODEC_ZLIB}};
    write_pak(p1, c1b, 2, 8);
    ingest(d, r1, 2, &st);
    assert_int_equal(st.paks_ingested, 1);
    assert_int_equal(st.inflated, 2); /* CMDL 1 and the ANCS; CMDL 2's bytes are known */
    assert_int_equal(st.ancs, 1);
    assert_true(hash_of(d, "rel1", 1) == expect(101));
    assert_true(hash_of(d, "rel1", 2) == expect(201));
    assert_true(ancs_content(d, "rel1") != ancs_content(d, "rel2"));
    assert_int_equal(one_int(d, "SELECT count(*) FROM contents"), 2);
    /* the release-diff sees exactly the changed CMDL 1 and ANCS X (and rel2's CMDL 3) */
    assert_int_equal(one_int(d, "SELECT count(*) FROM pak_entries a JOIN pak_entries b ON "
                                "a.asset_id = b.asset_id AND a.pak_id <> b.pak_id WHERE "
                                "a.pak_id < b.pak_id AND a.content_hash <> b.content_hash"),
                     2);

    db_close(clean);
    db_close(d);
    assert_int_equal(tu_remove_tree(dir), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stored_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
