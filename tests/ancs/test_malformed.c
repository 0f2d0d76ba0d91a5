/* test_ancs_malformed.c — hostile and odd ANCS input: every prefix fails UTIL_ETRUNC at an
 * offset not past the cut, unknown meta types and runaway nesting fail UTIL_EFORMAT at the
 * type field, impossible counts fail before allocation, docs/formats.md §8 anomalies decode with
 * warnings and still round-trip byte for byte. */
#include <stdlib.h>
#include <string.h>

#include "ancs.h"
#include "fixture.h"
#include "testutil.h"

/* Same layout as the MP1 minimal set of test_ancs_fixture.c (docs/formats.md §4.15): one T = 1
 * character, V = 1 animation set with one Play animation, Snap default transition, 4 bytes
 * of 0xFF padding. Offsets used below: T at 12, PAS magic at 42, ELSC list at 66,
 * unknown_a at 74, animation count at 80, Play type at 89, transition count at 114, default
 * transition type at 118. */
static const uint8_t mp1_min[] = {
    0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x07, 0x00, 0x01, 'A',  0x00,
    0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x22, 0x00, 0x00, 0x00, 0x33, 0x00, 0x00, 0x00, 0x01,
    0x00, 0x00, 0x00, 0x00, 0x00, 'W',  'a',  'l',  'k',  0x00, 'P',  'A',  'S',  '4',  0x00, 0x00,
    0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x44, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x55, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01,
    0x00, 0x00, 0x00, 0x01, 'W',  'a',  'l',  'k',  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x66, 0x00, 0x00, 0x00, 0x00, 'W',  'a',  'l',  'k',  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xFF, 0xFF, 0xFF, 0xFF};

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf;

static void put(buf *b, const void *src, size_t n)
{
    if (b->cap - b->n < n) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
    }
    assert_non_null(b->p);
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

static void put_u32(buf *b, uint32_t v)
{
    uint8_t q[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    put(b, q, 4);
}

static void set_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static int decode(const uint8_t *p, size_t n, ancs_game g, ancs_set *s, util_arena *a,
                  util_err *err)
{
    util_err_clear(err);
    return ancs_decode(s, p, n, g, a, err);
}

static void expect_fail(const uint8_t *p, size_t n, int code, uint64_t off)
{
    util_arena a;
    util_arena_init(&a);
    util_err err;
    ancs_set s;
    int rc = decode(p, n, ANCS_GAME_MP1, &s, &a, &err);
    if (rc != code || err.offset != off)
        fail_msg("expected %d @%llu, got %d @%llu (%s)", code, (unsigned long long)off, rc,
                 (unsigned long long)err.offset, err.msg);
    assert_true(err.msg[0] != '\0');
    util_arena_free(&a);
}

/* Decode succeeds and re-encodes to the identical bytes. */
static void expect_round_trip(const uint8_t *p, size_t n, ancs_game g, ancs_set *s, util_arena *a)
{
    util_err err;
    int rc = decode(p, n, g, s, a, &err);
    if (rc)
        fail_msg("decode: %s @%llu", err.msg, (unsigned long long)err.offset);
    util_wr w;
    util_wr_init(&w);
    assert_int_equal(ancs_encode(&w, s, &err), 0);
    assert_int_equal(w.len, n);
    assert_memory_equal(w.buf, p, n);
    util_wr_free(&w);
}

static void check_prefixes(const uint8_t *p, size_t full, ancs_game g)
{
    for (size_t cut = 0; cut < full; cut++) {
        util_arena a;
        util_arena_init(&a);
        util_err err;
        ancs_set s;
        int rc = decode(p, cut, g, &s, &a, &err);
        if (rc != UTIL_ETRUNC || err.offset > cut)
            fail_msg("prefix %zu of %zu: rc %d @%llu %s", cut, full, rc,
                     (unsigned long long)err.offset, err.msg);
        util_arena_free(&a);
    }
}

static void test_prefixes_hand(void **state)
{
    (void)state;
    check_prefixes(mp1_min, sizeof mp1_min - 4, ANCS_GAME_MP1);
}

static void test_prefixes_fixtures(void **state)
{
    (void)state;
    for (int g = ANCS_GAME_MP1; g <= ANCS_GAME_MP2; g++) {
        fixture_ancs_opts o;
        fixture_ancs_opts_init(&o, (ancs_game)g, 3 + (uint64_t)g);
        o.char_count = 1;
        o.animation_count = 5;
        uint8_t *p = NULL;
        size_t n = 0;
        util_err err;
        assert_int_equal(fixture_ancs_bytes(&p, &n, &o, &err), 0);
        check_prefixes(p, n, (ancs_game)g);
        free(p);
    }
}

static void test_unknown_meta_anim_type(void **state)
{
    (void)state;
    uint8_t b[sizeof mp1_min];
    memcpy(b, mp1_min, sizeof b);
    set_u32(b + 89, 5);
    expect_fail(b, sizeof b, UTIL_EFORMAT, 89);
    set_u32(b + 89, 0xFFFFFFFFu);
    expect_fail(b, sizeof b, UTIL_EFORMAT, 89);
}

static void test_unknown_meta_trans_type(void **state)
{
    (void)state;
    uint8_t b[sizeof mp1_min];
    memcpy(b, mp1_min, sizeof b);
    set_u32(b + 118, 4);
    expect_fail(b, sizeof b, UTIL_EFORMAT, 118);
}

/* The prefix of mp1_min up to the first animation's meta-animation (89 bytes). */
static buf head_to_meta(void)
{
    buf b = {NULL, 0, 0};
    put(&b, mp1_min, 89);
    return b;
}

static void test_deep_sequence(void **state)
{
    (void)state;
    buf b = head_to_meta();
    for (int i = 0; i < 100000; i++) {
        put_u32(&b, ANCS_META_SEQUENCE);
        put_u32(&b, 1);
    }
    /* levels 1..64 are accepted; the 65th type field fails */
    expect_fail(b.p, b.n, UTIL_EFORMAT, 89 + 64 * 8);
    free(b.p);
}

static void test_deep_blend(void **state)
{
    (void)state;
    buf b = head_to_meta();
    for (int i = 0; i < 100000; i++)
        put_u32(&b, ANCS_META_BLEND);
    expect_fail(b.p, b.n, UTIL_EFORMAT, 89 + 64 * 4);
    free(b.p);
}

/* Depth counts across a meta-transition of type 0 into its meta-animation. */
static void test_deep_through_transition(void **state)
{
    (void)state;
    buf b = {NULL, 0, 0};
    put(&b, mp1_min, 114);
    put_u32(&b, 1); /* one transition */
    put_u32(&b, 0);
    put_u32(&b, 0);
    put_u32(&b, 0);
    put_u32(&b, ANCS_TRANS_META_ANIM); /* at 130: depth 1 */
    for (int i = 0; i < 100000; i++) {
        put_u32(&b, ANCS_META_RANDOM);
        put_u32(&b, 1);
    }
    /* the transition is level 1, the Random nodes levels 2.., the 64th Random fails */
    expect_fail(b.p, b.n, UTIL_EFORMAT, 134 + 63 * 8);
    free(b.p);
}

static void test_huge_counts(void **state)
{
    (void)state;
    uint8_t b[sizeof mp1_min];
    memcpy(b, mp1_min, sizeof b);
    set_u32(b + 4, 0x7FFFFFFFu); /* character count */
    expect_fail(b, sizeof b, UTIL_ETRUNC, 8);
    memcpy(b, mp1_min, sizeof b);
    set_u32(b + 80, 0x7FFFFFFFu); /* animation count */
    expect_fail(b, sizeof b, UTIL_ETRUNC, 84);
    memcpy(b, mp1_min, sizeof b);
    set_u32(b + 28, 0xFFFFFFFFu); /* animation-name count */
    expect_fail(b, sizeof b, UTIL_ETRUNC, 32);
    memcpy(b, mp1_min, sizeof b);
    set_u32(b + 54, 0x40000000u); /* PART count */
    expect_fail(b, sizeof b, UTIL_ETRUNC, 58);
}

static void test_unterminated_string(void **state)
{
    (void)state;
    /* the character name runs to the end of the input (enough bytes for the count check) */
    buf b = {NULL, 0, 0};
    put(&b, mp1_min, 14);
    for (int i = 0; i < 60; i++)
        put(&b, "x", 1);
    expect_fail(b.p, b.n, UTIL_ETRUNC, 14);
    free(b.p);
    /* the animation name "Walk..." never terminates */
    b.p = NULL;
    b.n = b.cap = 0;
    put(&b, mp1_min, 88);
    for (int i = 0; i < 20; i++)
        put(&b, "x", 1);
    expect_fail(b.p, b.n, UTIL_ETRUNC, 84);
    free(b.p);
}

static void test_pas_magic(void **state)
{
    (void)state;
    uint8_t b[sizeof mp1_min];
    memcpy(b, mp1_min, sizeof b);
    b[45] = '3';
    util_arena a;
    util_arena_init(&a);
    ancs_set s;
    expect_round_trip(b, sizeof b, ANCS_GAME_MP1, &s, &a);
    assert_int_equal(s.report.warning_count, 1);
    assert_string_equal(s.report.warnings->code, "pas_magic");
    assert_int_equal(s.report.warnings->offset, 42);
    assert_int_equal(s.chars[0].pas.magic, 0x50415333);
    util_arena_free(&a);
}

/* mp1_min rewritten as a version-7 character: 4 particle lists (the 3rd, [0x55], is the
 * unidentified one), then AABBs, effects, frozen IDs and an ID map holding map_value. */
static buf version7(uint32_t map_value)
{
    buf b = {NULL, 0, 0};
    put(&b, mp1_min, 74);
    b.p[13] = 7;
    put_u32(&b, 0); /* ELSC [] */
    put_u32(&b, 1); /* unknown_a */
    put_u32(&b, 0); /* AABBs */
    put_u32(&b, 0); /* effects */
    put_u32(&b, 0); /* frozen model */
    put_u32(&b, 0); /* frozen skin */
    put_u32(&b, 1); /* ID map count */
    put_u32(&b, map_value);
    put(&b, mp1_min + 78, sizeof mp1_min - 78);
    return b;
}

static void test_version7_warnings(void **state)
{
    (void)state;
    util_arena a;
    util_arena_init(&a);
    ancs_set s;
    buf b = version7(0);
    expect_round_trip(b.p, b.n, ANCS_GAME_MP1, &s, &a);
    assert_int_equal(s.chars[0].version, 7);
    assert_int_equal(s.chars[0].third.count, 1);
    assert_int_equal(s.chars[0].third.ids[0], 0x55);
    assert_int_equal(s.chars[0].elsc.count, 0);
    assert_int_equal(s.chars[0].id_map.count, 1);
    assert_int_equal(s.report.warning_count, 2);
    const ancs_warning *w = s.report.warnings;
    assert_string_equal(w->code, "char_version_undocumented");
    assert_int_equal(w->offset, 12);
    assert_string_equal(w->next->code, "third_list_nonempty");
    assert_int_equal(w->next->offset, 66);
    free(b.p);

    /* a map value past the animation list: warned at the value's offset, in input order */
    b = version7(3);
    expect_round_trip(b.p, b.n, ANCS_GAME_MP1, &s, &a);
    assert_int_equal(s.report.warning_count, 3);
    w = s.report.warnings->next->next;
    assert_string_equal(w->code, "id_map_out_of_range");
    assert_int_equal(w->offset, 74 + 4 * 7);
    free(b.p);
    util_arena_free(&a);
}

static void test_trailing(void **state)
{
    (void)state;
    util_arena a;
    util_arena_init(&a);
    ancs_set s;
    uint8_t b[sizeof mp1_min];
    memcpy(b, mp1_min, sizeof b);
    expect_round_trip(b, sizeof b, ANCS_GAME_MP1, &s, &a);
    assert_int_equal(s.report.warning_count, 0);
    assert_int_equal(s.report.trailing_all_ff, 1);

    b[sizeof b - 4] = 0x01;
    b[sizeof b - 3] = 0x02;
    expect_round_trip(b, sizeof b, ANCS_GAME_MP1, &s, &a);
    assert_int_equal(s.report.trailing_len, 4);
    assert_int_equal(s.report.trailing_all_ff, 0);
    assert_int_equal(s.report.warning_count, 1);
    assert_string_equal(s.report.warnings->code, "trailing_bytes");
    assert_int_equal(s.report.warnings->offset, sizeof b - 4);
    assert_non_null(strstr(s.report.warnings->msg, "4 bytes"));

    /* no trailing bytes at all */
    expect_round_trip(b, sizeof b - 4, ANCS_GAME_MP1, &s, &a);
    assert_int_equal(s.report.trailing_len, 0);
    assert_int_equal(s.report.warning_count, 0);
    util_arena_free(&a);
}

static void test_nan_floats_round_trip(void **state)
{
    (void)state;
    uint8_t b[sizeof mp1_min];
    memcpy(b, mp1_min, sizeof b);
    set_u32(b + 89 + 4 + 8 + 5, 0x7F800001u); /* start time: a signalling NaN */
    util_arena a;
    util_arena_init(&a);
    ancs_set s;
    expect_round_trip(b, sizeof b, ANCS_GAME_MP1, &s, &a);
    util_arena_free(&a);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    int ok = 0;
    for (long k = 0; k < 200 && !ok; k++) {
        util_arena a;
        util_arena_init(&a);
        a.fail_after = k;
        util_err err;
        ancs_set s;
        int rc = decode(mp1_min, sizeof mp1_min, ANCS_GAME_MP1, &s, &a, &err);
        if (rc == 0)
            ok = 1;
        else
            assert_int_equal(rc, UTIL_ENOMEM);
        util_arena_free(&a);
    }
    assert_true(ok);
}

static void test_guess_game(void **state)
{
    (void)state;
    assert_int_equal(ancs_guess_game(mp1_min, 13), ANCS_GAME_AUTO);
    assert_int_equal(ancs_guess_game(NULL, 0), ANCS_GAME_AUTO);
    uint8_t b[sizeof mp1_min];
    memcpy(b, mp1_min, sizeof b);
    b[13] = 10;
    assert_int_equal(ancs_guess_game(b, sizeof b), ANCS_GAME_MP2);
    b[13] = 6;
    assert_int_equal(ancs_guess_game(b, sizeof b), ANCS_GAME_MP1);
    b[1] = 2; /* charset version 2: not a character set this reads */
    assert_int_equal(ancs_guess_game(b, sizeof b), ANCS_GAME_AUTO);
    assert_string_equal(ancs_game_name(ANCS_GAME_MP2), "MP2");
    assert_string_equal(ancs_game_name(ANCS_GAME_AUTO), "auto");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefixes_hand),
        cmocka_unit_test(test_prefixes_fixtures),
        cmocka_unit_test(test_unknown_meta_anim_type),
        cmocka_unit_test(test_unknown_meta_trans_type),
        cmocka_unit_test(test_deep_sequence),
        cmocka_unit_test(test_deep_blend),
        cmocka_unit_test(test_deep_through_transition),
        cmocka_unit_test(test_huge_counts),
        cmocka_unit_test(test_unterminated_string),
        cmocka_unit_test(test_pas_magic),
        cmocka_unit_test(test_version7_warnings),
        cmocka_unit_test(test_trailing),
        cmocka_unit_test(test_nan_floats_round_trip),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_guess_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
