/* test_hostile_ancs.c — damaged ANCS bytes inside bad.pak (hostile_scene.h): cut at each
 * section, impossible counts, unknown meta-animation and meta-transition types, deep
 * nesting (rejected at decode with a load_errors row naming an offset inside the ANCS), and
 * decoded anomalies (docs/formats.md §8) that leave a warnings row. The ingest is not fatal and
 * both intact ANCS keep their rows. */
#define _XOPEN_SOURCE 700 /* mkfifo, symlink */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hostile_scene.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
