/* test_evnt.c — standalone EVNT (docs/formats.md §5) versions 1 and 2, MP1 and MP2 node layouts,
 * from bytes written out by hand. */
#include <stdlib.h>
#include <string.h>

#include "ancs.h"
#include "testutil.h"

/* base POI node (§5.3): unknown 1, name, type, time, index, unique, weight 1.0, char, flags */
#define POI(name_bytes, type, time_hi, time_type, index, uniq, chr, flags)                         \
    0x00, 0x01, name_bytes, 0x00, 0x00, (type), time_hi, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,       \
        (time_type), 0x00, 0x00, 0x00, (index), (uniq), 0x3F, 0x80, 0x00, 0x00, chr, 0x00, 0x00,   \
        0x00, (flags)

#define CHAR_ALL 0xFF, 0xFF, 0xFF, 0xFF
#define CHAR_1   0x00, 0x00, 0x00, 0x01

/* version 1, MP1: one bool, one int32, one particle node (bone name); no sound list */
static const uint8_t ev1_mp1[] = {0x00,
                                  0x00,
                                  0x00,
                                  0x01, /* EV 1 */
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x01, /* 1 bool node */
                                  POI('L', 0x00, 0x00, 0x02, 0x10, 0x01, CHAR_ALL, 0x00),
                                  0x01,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x01, /* 1 int32 node: UserEvent at 0.5 for character 1 */
                                  POI('E', 0x06, 0x3F, 0x00, 0x00, 0x00, CHAR_1, 0x10),
                                  0xFF,
                                  0xFF,
                                  0xFF,
                                  0xFE,
                                  'H',
                                  'e',
                                  'a',
                                  'd',
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x01, /* 1 particle node */
                                  POI('P', 0x05, 0x40, 0x00, 0x03, 0x00, CHAR_ALL, 0x00),
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x05, /* dur 5 */
                                  'E',
                                  'L',
                                  'S',
                                  'C',
                                  0x12,
                                  0x34,
                                  0x56,
                                  0x78,
                                  'R',
                                  '_',
                                  'h',
                                  'a',
                                  'n',
                                  'd',
                                  0x00, /* bone */
                                  0x40,
                                  0x20,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x01, /* scale 2.5, parented 1 */
                                  0xFF,
                                  0xFF};

/* version 2, MP1: no bool/int32/particle nodes, one sound node */
static const uint8_t ev2_mp1[] = {0x00,
                                  0x00,
                                  0x00,
                                  0x02,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x01, /* 1 sound node */
                                  POI('S', 0x08, 0x00, 0x02, 0x04, 0x00, CHAR_ALL, 0x00),
                                  0x80,
                                  0x00,
                                  0x00,
                                  0x74, /* sound */
                                  0x41,
                                  0x20,
                                  0x00,
                                  0x00,
                                  0x42,
                                  0xC8,
                                  0x00,
                                  0x00}; /* falloff 10, max distance 100 */

/* version 2, MP2 layout: particle node with a bone ID, sound node with the 12 extra bytes */
static const uint8_t ev2_mp2[] = {0x00,
                                  0x00,
                                  0x00,
                                  0x02,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x01, /* 1 particle node */
                                  POI('P', 0x05, 0x00, 0x02, 0x01, 0x01, CHAR_1, 0x00),
                                  0xFF,
                                  0xFF,
                                  0xFF,
                                  0xFF, /* dur -1 */
                                  'S',
                                  'P',
                                  'S',
                                  'C',
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x2A,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x19, /* SPSC 42, bone 25 */
                                  0x3F,
                                  0x80,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x02, /* scale 1, mode 2 */
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x01, /* 1 sound node */
                                  POI('S', 0x08, 0x00, 0x02, 0x02, 0x00, CHAR_ALL, 0x00),
                                  0x80,
                                  0x00,
                                  0x27,
                                  0x48, /* sound */
                                  0x41,
                                  0xD2,
                                  0x00,
                                  0x00,
                                  0x43,
                                  0xC5,
                                  0xE0,
                                  0x00, /* falloff 26.25, max distance 395.75 */
                                  0x00,
                                  0x00,
                                  0x00,
                                  0x06,
                                  0x1C,
                                  0xCC,
                                  0x00,
                                  0x48,
                                  0x3F,
                                  0x60,
                                  0x00,
                                  0x00}; /* extras */

static int decode(const uint8_t *p, size_t n, ancs_game g, ancs_evnt_file *ef, util_arena *a,
                  util_err *err)
{
    util_err_clear(err);
    return ancs_evnt_decode(ef, p, n, g, a, err);
}

static void round_trip(const uint8_t *p, size_t n, ancs_game g, ancs_evnt_file *ef, util_arena *a)
{
    util_err err;
    int rc = decode(p, n, g, ef, a, &err);
    if (rc)
        fail_msg("decode: %s @%llu", err.msg, (unsigned long long)err.offset);
    util_wr w;
    util_wr_init(&w);
    assert_int_equal(ancs_evnt_encode(&w, ef, &err), 0);
    assert_int_equal(w.len, n);
    assert_memory_equal(w.buf, p, n);
    util_wr_free(&w);
    /* every shorter prefix of the structure is a clean truncation */
    for (size_t cut = 0; cut < ef->report.consumed; cut++) {
        util_arena b;
        util_arena_init(&b);
        ancs_evnt_file x;
        rc = decode(p, cut, g, &x, &b, &err);
        if (rc != UTIL_ETRUNC || err.offset > cut)
            fail_msg("prefix %zu: rc %d @%llu", cut, rc, (unsigned long long)err.offset);
        util_arena_free(&b);
    }
}

static void test_v1_mp1(void **state)
{
    (void)state;
    util_arena a;
    util_arena_init(&a);
    ancs_evnt_file ef;
    round_trip(ev1_mp1, sizeof ev1_mp1, ANCS_GAME_MP1, &ef, &a);
    const ancs_evnt *e = &ef.evnt;
    assert_int_equal(ef.game, ANCS_GAME_MP1);
    assert_int_equal(e->version, 1);
    assert_int_equal(e->bool_count, 1);
    assert_int_equal(e->bools[0].base.offset, 8);
    assert_int_equal(e->bools[0].base.unknown_u16, 1);
    assert_string_equal(e->bools[0].base.name, "L");
    assert_int_equal(e->bools[0].base.poi_type, 0);
    assert_int_equal(e->bools[0].base.time.type, 2);
    assert_int_equal(e->bools[0].base.index, 0x10);
    assert_int_equal(e->bools[0].base.unique, 1);
    assert_true(e->bools[0].base.weight == 1.0f);
    assert_int_equal(e->bools[0].base.char_index, -1);
    assert_int_equal(e->bools[0].value, 1);
    assert_int_equal(e->int32_count, 1);
    assert_int_equal(e->int32s[0].base.poi_type, 6);
    assert_true(e->int32s[0].base.time.time == 0.5f);
    assert_int_equal(e->int32s[0].base.char_index, 1);
    assert_int_equal(e->int32s[0].base.flags, 0x10);
    assert_int_equal(e->int32s[0].value, -2);
    assert_string_equal(e->int32s[0].locator_name, "Head");
    assert_int_equal(e->particle_count, 1);
    const ancs_poi_particle *p = &e->particles[0];
    assert_true(p->base.time.time == 2.0f);
    assert_int_equal(p->duration, 5);
    assert_int_equal(p->particle_type, 0x454C5343);
    assert_int_equal(p->particle_id, 0x12345678);
    assert_string_equal(p->bone_name, "R_hand");
    assert_int_equal(p->bone_id, 0);
    assert_true(p->scale == 2.5f);
    assert_int_equal(p->parented_mode, 1);
    assert_int_equal(e->sound_count, 0);
    assert_int_equal(ef.report.trailing_len, 2);
    assert_int_equal(ef.report.trailing_all_ff, 1);
    assert_int_equal(ef.report.warning_count, 0);
    util_arena_free(&a);
}

static void test_v2_mp1(void **state)
{
    (void)state;
    util_arena a;
    util_arena_init(&a);
    ancs_evnt_file ef;
    round_trip(ev2_mp1, sizeof ev2_mp1, ANCS_GAME_MP1, &ef, &a);
    const ancs_evnt *e = &ef.evnt;
    assert_int_equal(e->version, 2);
    assert_int_equal(e->sound_count, 1);
    assert_int_equal(e->sounds[0].base.poi_type, 8);
    assert_int_equal(e->sounds[0].sound_id, 0x80000074u);
    assert_true(e->sounds[0].falloff == 10.0f);
    assert_true(e->sounds[0].max_distance == 100.0f);
    assert_int_equal(e->sounds[0].echoes_unknown_b, 0);
    assert_int_equal(ef.report.consumed, sizeof ev2_mp1);
    assert_int_equal(ef.report.warning_count, 0);
    util_arena_free(&a);
}

static void test_v2_mp2(void **state)
{
    (void)state;
    util_arena a;
    util_arena_init(&a);
    ancs_evnt_file ef;
    round_trip(ev2_mp2, sizeof ev2_mp2, ANCS_GAME_MP2, &ef, &a);
    const ancs_evnt *e = &ef.evnt;
    assert_int_equal(ef.game, ANCS_GAME_MP2);
    assert_int_equal(e->particle_count, 1);
    assert_int_equal(e->particles[0].duration, -1);
    assert_int_equal(e->particles[0].particle_type, 0x53505343);
    assert_int_equal(e->particles[0].particle_id, 42);
    assert_null(e->particles[0].bone_name);
    assert_int_equal(e->particles[0].bone_id, 25);
    assert_int_equal(e->particles[0].base.char_index, 1);
    assert_int_equal(e->particles[0].parented_mode, 2);
    assert_int_equal(e->sound_count, 1);
    const ancs_poi_sound *s = &e->sounds[0];
    assert_int_equal(s->sound_id, 0x80002748u);
    assert_true(s->falloff == 26.25f);
    assert_true(s->max_distance == 395.75f);
    assert_int_equal(s->echoes_unknown_a, 6);
    assert_int_equal(s->echoes_unknown_b, 0x1CCC);
    assert_int_equal(s->echoes_unknown_c, 0x48);
    assert_true(s->echoes_unknown_d == 0.875f);
    assert_int_equal(ef.report.consumed, sizeof ev2_mp2);
    util_arena_free(&a);
}

/* The MP1 reading of MP2 bytes desynchronises: it must fail cleanly, not crash. */
static void test_wrong_game(void **state)
{
    (void)state;
    util_arena a;
    util_arena_init(&a);
    util_err err;
    ancs_evnt_file ef;
    int rc = decode(ev2_mp2, sizeof ev2_mp2, ANCS_GAME_MP1, &ef, &a, &err);
    if (rc == 0)
        assert_true(ef.report.consumed != sizeof ev2_mp2 || ef.report.warning_count > 0);
    else
        assert_true(rc == UTIL_ETRUNC || rc == UTIL_EFORMAT);
    util_arena_free(&a);
}

static void test_odd_version(void **state)
{
    (void)state;
    uint8_t b[sizeof ev2_mp1];
    memcpy(b, ev2_mp1, sizeof b);
    b[3] = 3; /* EV 3: decoded by the EV >= 2 rule (sound list present), with a warning */
    util_arena a;
    util_arena_init(&a);
    ancs_evnt_file ef;
    round_trip(b, sizeof b, ANCS_GAME_MP1, &ef, &a);
    assert_int_equal(ef.evnt.version, 3);
    assert_int_equal(ef.evnt.sound_count, 1);
    assert_int_equal(ef.report.warning_count, 1);
    assert_string_equal(ef.report.warnings->code, "evnt_version");
    assert_int_equal(ef.report.warnings->offset, 0);

    b[3] = 0; /* EV 0: no sound list, so the sound bytes are trailing garbage */
    round_trip(b, sizeof b, ANCS_GAME_MP1, &ef, &a);
    assert_int_equal(ef.evnt.sound_count, 0);
    assert_int_equal(ef.report.consumed, 16);
    assert_int_equal(ef.report.warning_count, 2);
    assert_string_equal(ef.report.warnings->next->code, "trailing_bytes");
    util_arena_free(&a);
}

static void test_huge_node_count(void **state)
{
    (void)state;
    uint8_t b[sizeof ev1_mp1];
    memcpy(b, ev1_mp1, sizeof b);
    b[4] = 0x7F; /* bool count 0x7F000001 */
    util_arena a;
    util_arena_init(&a);
    util_err err;
    ancs_evnt_file ef;
    assert_int_equal(decode(b, sizeof b, ANCS_GAME_MP1, &ef, &a, &err), UTIL_ETRUNC);
    assert_int_equal(err.offset, 8);
    util_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v1_mp1),      cmocka_unit_test(test_v2_mp1),
        cmocka_unit_test(test_v2_mp2),      cmocka_unit_test(test_wrong_game),
        cmocka_unit_test(test_odd_version), cmocka_unit_test(test_huge_node_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
