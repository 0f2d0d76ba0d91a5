/* test_world_decode.c — MLVL and STRG decoders on bytes built by hand in this file, field by
 * field as docs/formats.md §11 and §12 lay them out (with util_wr, not the world encoder),
 * remembering where each field went: the decoded structs, the byte-exact round trip, every
 * shorter prefix (UTIL_ETRUNC at an offset not past the cut), each bad-input case (code and
 * offset), warnings, world_mlvl_pack and the STRG layout from structs built by hand, and
 * allocation failures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "world.h"

#define ENGL UTIL_FOURCC('E', 'N', 'G', 'L')
#define FREN UTIL_FOURCC('F', 'R', 'E', 'N')

/* ---- MLVL built by hand ---------------------------------------------------------------- */

enum {
    MF_NONE,
    MF_VERSION,      /* version 0x19 */
    MF_MAGIC,        /* magic 0xDEADBEEF */
    MF_CONST,        /* MP1 word after the area count = 5 (warning) */
    MF_PAD_ZERO,     /* padding of 0x00 (warning) */
    MF_NO_PAD,       /* no padding at all (PWE's writer) */
    MF_ATTACHED,     /* area 0 attached index 2 of 2 areas */
    MF_OFF_ORDER,    /* area 0 dependency offsets 0, 3, 2 */
    MF_OFF_FIRST,    /* area 0 dependency offsets 1, 2, 3 */
    MF_OFF_PAST,     /* area 0 dependency offsets 0, 2, 5 of 4 */
    MF_OFF_COUNT,    /* area 1 has 1 layer but 1 dependency offset */
    MF_LAYERS_65,    /* area 1 layer count 65 */
    MF_FLAGS_COUNT,  /* layer flags for 3 areas */
    MF_NAME_COUNT,   /* 4 layer names for 3 layers */
    MF_SCRIPT,       /* embedded script layer with 1 instance */
    MF_AREA_COUNT,   /* area count 1000 */
    MF_DEP_COUNT,    /* area 1 dependency count 0x10000000 */
    MF_NAME_OFFSET,  /* layer name offsets 0, 1 (warning) */
    MF_AREA_UNKNOWN, /* area 1 unknown word 7 (warning) */
};

typedef struct mlvl_marks {
    size_t area_count, area_count_end, konst, area0, attached0, offsets0[3], offsets1_count,
        dep_count1_end, unknown1, layers1, flags_count, name_count, name_offsets, script_count, end,
        version;
} mlvl_marks;

static void wr_f(util_wr *w, float f)
{
    util_wr_f32(w, f);
}

/* Two areas: area 0 with layers "Default" (2 deps), "1st Pass" (1 dep, inactive) and one own
 * dependency, one attached area, one dock, MP2 modules a.rel b.rel for layer 0; area 1 with
 * one layer "Default" holding one ANCS, no dock. */
static void build_mlvl(util_wr *w, int mp2, int fault, mlvl_marks *k)
{
    memset(k, 0, sizeof *k);
    util_wr_u32(w, fault == MF_MAGIC ? 0xDEADBEEFu : 0xDEAFBABEu);
    k->version = w->len;
    util_wr_u32(w, fault == MF_VERSION ? 0x19 : mp2 ? 0x17 : 0x11);
    util_wr_u32(w, 0x11111111); /* world name STRG */
    if (mp2) {
        util_wr_u32(w, 0x22222222); /* dark world name */
        util_wr_u32(w, 3);          /* temple key world index */
    }
    util_wr_u32(w, 0x33333333); /* SAVW */
    util_wr_u32(w, 0x44444444); /* skybox */
    if (!mp2) {
        util_wr_u32(w, 1); /* memory relays */
        util_wr_u32(w, 0x04000001);
        util_wr_u32(w, 0x04000002);
        util_wr_u16(w, 7);
        util_wr_u8(w, 1);
    }
    k->area_count = w->len;
    util_wr_u32(w, fault == MF_AREA_COUNT ? 1000 : 2);
    k->area_count_end = w->len;
    if (!mp2) {
        k->konst = w->len;
        util_wr_u32(w, fault == MF_CONST ? 5 : 1);
    }
    for (int a = 0; a < 2; a++) {
        if (a == 0)
            k->area0 = w->len;
        util_wr_u32(w, 0xA0000000u + (uint32_t)a); /* name STRG */
        for (int i = 0; i < 12; i++)
            wr_f(w, (float)i + 0.5f + (float)a);
        for (int i = 0; i < 6; i++)
            wr_f(w, (float)(i < 3 ? -10 - i : 10 + i));
        util_wr_u32(w, 0xB0000000u + (uint32_t)a); /* MREA */
        util_wr_u32(w, 0xC0000000u + (uint32_t)a); /* area ID */
        util_wr_u32(w, 1);                         /* attached */
        if (a == 0)
            k->attached0 = w->len;
        util_wr_u16(w, (uint16_t)(a == 0 ? (fault == MF_ATTACHED ? 2 : 1) : 0));
        if (a == 1)
            k->unknown1 = w->len;
        util_wr_u32(w, a == 1 && fault == MF_AREA_UNKNOWN ? 7 : 0);
        if (a == 0) {
            util_wr_u32(w, 4);
            util_wr_u32(w, 0x100);
            util_wr_u32(w, UTIL_FCC_CMDL);
            util_wr_u32(w, 0x101);
            util_wr_u32(w, UTIL_FCC_ANCS);
            util_wr_u32(w, 0x102);
            util_wr_u32(w, UTIL_FCC_PART);
            util_wr_u32(w, 0x103);
            util_wr_u32(w, UTIL_FCC_TXTR);
            uint32_t offs[3] = {0, 2, 3};
            if (fault == MF_OFF_ORDER)
                offs[1] = 3, offs[2] = 2;
            if (fault == MF_OFF_FIRST)
                offs[0] = 1;
            if (fault == MF_OFF_PAST)
                offs[2] = 5;
            util_wr_u32(w, 3);
            for (int i = 0; i < 3; i++) {
                k->offsets0[i] = w->len;
                util_wr_u32(w, offs[i]);
            }
            util_wr_u32(w, 1); /* docks */
            util_wr_u32(w, 1);
            util_wr_u32(w, 1);
            util_wr_u32(w, 0);
            util_wr_u32(w, 4);
            for (int i = 0; i < 12; i++)
                wr_f(w, (float)i * 0.25f);
        } else {
            util_wr_u32(w, fault == MF_DEP_COUNT ? 0x10000000u : 1);
            k->dep_count1_end = w->len;
            util_wr_u32(w, 0x200);
            util_wr_u32(w, UTIL_FCC_ANCS);
            k->offsets1_count = w->len;
            if (fault == MF_OFF_COUNT) {
                util_wr_u32(w, 1);
                util_wr_u32(w, 0);
            } else {
                util_wr_u32(w, 2);
                util_wr_u32(w, 0);
                util_wr_u32(w, 1);
            }
            util_wr_u32(w, 0); /* docks */
        }
        if (mp2) {
            if (a == 0) {
                util_wr_u32(w, 2);
                util_wr_cstr(w, "a.rel");
                util_wr_cstr(w, "b.rel");
                util_wr_u32(w, 4);
                util_wr_u32(w, 0);
                util_wr_u32(w, 2);
                util_wr_u32(w, 2);
                util_wr_u32(w, 2);
                util_wr_cstr(w, "00_area_a");
            } else {
                util_wr_u32(w, 0);
                util_wr_u32(w, 2);
                util_wr_u32(w, 0);
                util_wr_u32(w, 0);
                util_wr_cstr(w, "01_b");
            }
        }
    }
    util_wr_u32(w, 0x55555555); /* MAPW */
    util_wr_u8(w, 0);
    k->script_count = w->len;
    util_wr_u32(w, fault == MF_SCRIPT ? 1 : 0);
    if (!mp2) {
        util_wr_u32(w, 1);
        util_wr_u32(w, 5);
        util_wr_u32(w, 0x66666666);
        util_wr_cstr(w, "");
    }
    k->flags_count = w->len;
    util_wr_u32(w, fault == MF_FLAGS_COUNT ? 3 : 2);
    util_wr_u32(w, 2);
    util_wr_u32(w, 0xFFFFFFFFu);
    util_wr_u32(w, 0xFFFFFFFDu); /* layer 1 inactive */
    k->layers1 = w->len;
    util_wr_u32(w, fault == MF_LAYERS_65 ? 65 : 1);
    util_wr_u32(w, 0xFFFFFFFFu);
    util_wr_u32(w, 0xFFFFFFFFu);
    k->name_count = w->len;
    util_wr_u32(w, fault == MF_NAME_COUNT ? 4 : 3);
    util_wr_cstr(w, "Default");
    util_wr_cstr(w, "1st Pass");
    util_wr_cstr(w, "Default");
    if (fault == MF_NAME_COUNT)
        util_wr_cstr(w, "Extra");
    k->name_offsets = w->len;
    util_wr_u32(w, 2);
    util_wr_u32(w, 0);
    util_wr_u32(w, fault == MF_NAME_OFFSET ? 1 : 2);
    k->end = w->len;
    if (fault != MF_NO_PAD)
        while (w->len % 32)
            util_wr_u8(w, fault == MF_PAD_ZERO ? 0 : 0xFF);
    assert_false(w->failed);
}

static int decode_mlvl(const util_wr *w, world_mlvl *m, util_arena *a, util_err *err)
{
    util_err_clear(err);
    return world_mlvl_decode(m, w->buf, w->len, a, err);
}

static void check_mlvl_values(const world_mlvl *m, int mp2, const mlvl_marks *k)
{
    assert_int_equal(m->game, mp2 ? WORLD_GAME_MP2 : WORLD_GAME_MP1);
    assert_int_equal(m->version, mp2 ? 0x17 : 0x11);
    assert_int_equal(m->world_name_strg, 0x11111111);
    assert_int_equal(m->dark_world_name_strg, mp2 ? 0x22222222 : WORLD_NONE);
    assert_int_equal(m->temple_key_world_index, mp2 ? 3 : WORLD_NONE);
    assert_int_equal(m->savw_id, 0x33333333);
    assert_int_equal(m->default_skybox_id, 0x44444444);
    assert_int_equal(m->mapw_id, 0x55555555);
    if (mp2) {
        assert_int_equal(m->memory_relay_count, 0);
        assert_int_equal(m->audio_group_count, 0);
        assert_null(m->unknown_string);
    } else {
        assert_int_equal(m->memory_relay_count, 1);
        assert_int_equal(m->memory_relays[0].instance_id, 0x04000001);
        assert_int_equal(m->memory_relays[0].target_id, 0x04000002);
        assert_int_equal(m->memory_relays[0].message, 7);
        assert_int_equal(m->memory_relays[0].active, 1);
        assert_int_equal(m->unknown_after_area_count, 1);
        assert_int_equal(m->audio_group_count, 1);
        assert_int_equal(m->audio_groups[0].group_id, 5);
        assert_int_equal(m->audio_groups[0].agsc_id, 0x66666666);
        assert_string_equal(m->unknown_string, "");
    }
    assert_int_equal(m->area_count, 2);
    const world_area *a0 = &m->areas[0], *a1 = &m->areas[1];
    assert_int_equal(a0->offset, k->area0);
    assert_int_equal(a0->name_strg, 0xA0000000u);
    assert_int_equal(a1->mrea_id, 0xB0000001u);
    assert_int_equal(a1->area_id, 0xC0000001u);
    assert_true(a0->transform[3] == 3.5f);
    assert_true(a1->transform[11] == 12.5f);
    assert_true(a0->bbox[0] == -10.0f && a0->bbox[5] == 15.0f);
    assert_int_equal(a0->attached_count, 1);
    assert_int_equal(a0->attached[0], 1);
    assert_int_equal(a1->attached[0], 0);

    assert_int_equal(a0->layer_count, 2);
    assert_string_equal(a0->layers[0].name, "Default");
    assert_string_equal(a0->layers[1].name, "1st Pass");
    assert_int_equal(a0->layers[0].active, 1);
    assert_int_equal(a0->layers[1].active, 0);
    assert_int_equal(a0->layers[0].dep_count, 2);
    assert_int_equal(a0->layers[1].dep_start, 2);
    assert_int_equal(a0->layers[1].dep_count, 1);
    assert_int_equal(a0->own_dep_start, 3);
    assert_int_equal(a0->own_dep_count, 1);
    static const int32_t layer_of[4] = {0, 0, 1, -1};
    static const uint32_t index_in[4] = {0, 1, 0, 0};
    static const uint32_t type_of[4] = {UTIL_FCC_CMDL, UTIL_FCC_ANCS, UTIL_FCC_PART, UTIL_FCC_TXTR};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(a0->deps[i].id, 0x100 + i);
        assert_int_equal(a0->deps[i].type, type_of[i]);
        assert_int_equal(a0->deps[i].layer_index, layer_of[i]);
        assert_int_equal(a0->deps[i].dep_index, index_in[i]);
    }
    assert_int_equal(a1->layer_count, 1);
    assert_string_equal(a1->layers[0].name, "Default");
    assert_int_equal(a1->layers[0].active, 1);
    assert_int_equal(a1->deps[0].id, 0x200);
    assert_int_equal(a1->deps[0].layer_index, 0);
    assert_int_equal(a1->own_dep_count, 0);

    assert_int_equal(a0->dock_count, 1);
    assert_int_equal(a0->docks[0].link_count, 1);
    assert_int_equal(a0->docks[0].links[0].area_index, 1);
    assert_int_equal(a0->docks[0].links[0].dock_index, 0);
    assert_int_equal(a0->docks[0].coord_count, 4);
    assert_true(a0->docks[0].coords[3].v[2] == 2.75f);
    assert_int_equal(a1->dock_count, 0);
    if (mp2) {
        assert_string_equal(a0->internal_name, "00_area_a");
        assert_string_equal(a1->internal_name, "01_b");
        assert_int_equal(a0->rel_module_count, 2);
        assert_int_equal(a0->layers[0].module_start, 0);
        assert_int_equal(a0->layers[0].module_count, 2);
        assert_int_equal(a0->layers[1].module_count, 0);
        assert_string_equal(a0->rel_modules[1], "b.rel");
    } else {
        assert_null(a0->internal_name);
        assert_int_equal(a0->rel_module_count, 0);
    }
    assert_int_equal(m->layer_name_count, 3);
    assert_int_equal(m->layer_name_offset_count, 2);
    assert_int_equal(m->layer_name_offsets[1], 2);
    assert_int_equal(m->report.consumed, k->end);
}

static void round_trip_mlvl(const world_mlvl *m, const util_wr *w)
{
    util_wr o;
    util_wr_init(&o);
    util_err err;
    assert_int_equal(world_mlvl_encode(&o, m, &err), 0);
    assert_int_equal(o.len, w->len);
    assert_memory_equal(o.buf, w->buf, w->len);
    util_wr_free(&o);
}

static void prefixes_mlvl(const util_wr *w, size_t consumed)
{
    for (size_t cut = 0; cut < consumed; cut++) {
        util_arena a;
        util_arena_init(&a);
        util_err err;
        util_err_clear(&err);
        world_mlvl m;
        int rc = world_mlvl_decode(&m, w->buf, cut, &a, &err);
        if (rc != UTIL_ETRUNC || err.offset > cut)
            fail_msg("prefix %zu: rc %d @%llu %s", cut, rc, (unsigned long long)err.offset,
                     err.msg);
        util_arena_free(&a);
    }
}

static void mlvl_valid(int mp2)
{
    util_wr w;
    util_wr_init(&w);
    mlvl_marks k;
    build_mlvl(&w, mp2, MF_NONE, &k);
    util_arena a;
    util_arena_init(&a);
    util_err err;
    world_mlvl m;
    assert_int_equal(decode_mlvl(&w, &m, &a, &err), 0);
    check_mlvl_values(&m, mp2, &k);
    assert_int_equal(m.report.warning_count, 0);
    assert_true(m.report.trailing_all_ff);
    assert_int_equal(m.report.trailing_len, w.len - k.end);
    round_trip_mlvl(&m, &w);
    prefixes_mlvl(&w, k.end);
    util_arena_free(&a);
    util_wr_free(&w);
}

static void test_mlvl_mp1(void **state)
{
    (void)state;
    mlvl_valid(0);
}

static void test_mlvl_mp2(void **state)
{
    (void)state;
    mlvl_valid(1);
}

/* A fault that fails: code and offset. */
static void mlvl_bad(int mp2, int fault, int code, size_t mark_off)
{
    util_wr w;
    util_wr_init(&w);
    mlvl_marks k;
    build_mlvl(&w, mp2, fault, &k);
    util_arena a;
    util_arena_init(&a);
    util_err err;
    world_mlvl m;
    int rc = decode_mlvl(&w, &m, &a, &err);
    if (rc != code || err.offset != mark_off)
        fail_msg("MLVL fault %d (%s): rc %d @%llu, want %d @%zu (%s)", fault, mp2 ? "MP2" : "MP1",
                 rc, (unsigned long long)err.offset, code, mark_off, err.msg);
    assert_true(err.msg[0] != 0);
    util_arena_free(&a);
    util_wr_free(&w);
}

static void test_mlvl_bad(void **state)
{
    (void)state;
    for (int mp2 = 0; mp2 <= 1; mp2++) {
        util_wr w;
        util_wr_init(&w);
        mlvl_marks k;
        build_mlvl(&w, mp2, MF_NONE, &k); /* positions do not move with the faults below */
        mlvl_bad(mp2, MF_MAGIC, UTIL_EFORMAT, 0);
        mlvl_bad(mp2, MF_VERSION, UTIL_EFORMAT, 4);
        mlvl_bad(mp2, MF_ATTACHED, UTIL_EFORMAT, k.attached0);
        mlvl_bad(mp2, MF_OFF_ORDER, UTIL_EFORMAT, k.offsets0[2]);
        mlvl_bad(mp2, MF_OFF_FIRST, UTIL_EFORMAT, k.offsets0[0]);
        mlvl_bad(mp2, MF_OFF_PAST, UTIL_EFORMAT, k.offsets0[2]);
        mlvl_bad(mp2, MF_LAYERS_65, UTIL_EFORMAT, k.layers1);
        mlvl_bad(mp2, MF_FLAGS_COUNT, UTIL_EFORMAT, k.flags_count);
        mlvl_bad(mp2, MF_NAME_COUNT, UTIL_EFORMAT, k.name_count);
        mlvl_bad(mp2, MF_SCRIPT, UTIL_EFORMAT, k.script_count);
        mlvl_bad(mp2, MF_AREA_COUNT, UTIL_ETRUNC, k.area_count_end);
        mlvl_bad(mp2, MF_DEP_COUNT, UTIL_ETRUNC, k.dep_count1_end);
        util_wr_free(&w);
        /* the offset count is one short: its count field moves nothing before it */
        util_wr_init(&w);
        build_mlvl(&w, mp2, MF_OFF_COUNT, &k);
        mlvl_bad(mp2, MF_OFF_COUNT, UTIL_EFORMAT, k.offsets1_count);
        util_wr_free(&w);
    }
}

/* Decoded on, with a warning at the odd field. */
static void mlvl_warns(int mp2, int fault, const char *code, size_t off)
{
    util_wr w;
    util_wr_init(&w);
    mlvl_marks k;
    build_mlvl(&w, mp2, fault, &k);
    util_arena a;
    util_arena_init(&a);
    util_err err;
    world_mlvl m;
    assert_int_equal(decode_mlvl(&w, &m, &a, &err), 0);
    assert_int_equal(m.report.warning_count, 1);
    assert_string_equal(m.report.warnings->code, code);
    assert_int_equal(m.report.warnings->offset, off);
    round_trip_mlvl(&m, &w);
    util_arena_free(&a);
    util_wr_free(&w);
}

static void test_mlvl_warnings(void **state)
{
    (void)state;
    mlvl_marks k;
    util_wr w;
    util_wr_init(&w);
    build_mlvl(&w, 0, MF_NONE, &k);
    util_wr_free(&w);
    mlvl_warns(0, MF_CONST, "mlvl_const", k.konst);
    mlvl_warns(0, MF_PAD_ZERO, "trailing_bytes", k.end);
    mlvl_warns(0, MF_NAME_OFFSET, "layer_name_offset", k.name_offsets + 8);
    mlvl_warns(0, MF_AREA_UNKNOWN, "area_unknown", k.unknown1);

    /* no padding at all (PWE writes none): no warning, nothing trailing */
    for (int mp2 = 0; mp2 <= 1; mp2++) {
        util_wr_init(&w);
        build_mlvl(&w, mp2, MF_NO_PAD, &k);
        util_arena a;
        util_arena_init(&a);
        util_err err;
        world_mlvl m;
        assert_int_equal(decode_mlvl(&w, &m, &a, &err), 0);
        assert_int_equal(m.report.warning_count, 0);
        assert_int_equal(m.report.trailing_len, 0);
        round_trip_mlvl(&m, &w);
        util_arena_free(&a);
        util_wr_free(&w);
    }
}

/* A world built as structs (layers with names, flags and dependency counts), packed and
 * encoded, is the hand-built byte layout. */
static void pack_case(int mp2)
{
    util_wr want;
    util_wr_init(&want);
    mlvl_marks k;
    build_mlvl(&want, mp2, MF_NONE, &k);

    util_arena ar;
    util_arena_init(&ar);
    world_mlvl m;
    memset(&m, 0, sizeof m);
    m.version = mp2 ? WORLD_MLVL_MP2 : WORLD_MLVL_MP1;
    m.world_name_strg = 0x11111111;
    m.dark_world_name_strg = mp2 ? 0x22222222 : WORLD_NONE;
    m.temple_key_world_index = mp2 ? 3 : WORLD_NONE;
    m.savw_id = 0x33333333;
    m.default_skybox_id = 0x44444444;
    world_memory_relay relay = {0x04000001, 0x04000002, 7, 1};
    world_audio_group group = {5, 0x66666666};
    if (!mp2) {
        m.memory_relay_count = 1;
        m.memory_relays = &relay;
        m.unknown_after_area_count = 1;
        m.audio_group_count = 1;
        m.audio_groups = &group;
        m.unknown_string = "";
    }
    m.mapw_id = 0x55555555;
    world_area areas[2];
    memset(areas, 0, sizeof areas);
    m.area_count = 2;
    m.areas = areas;
    uint16_t att[2] = {1, 0};
    world_dep deps0[4] = {{0x100, UTIL_FCC_CMDL, 0, 0},
                          {0x101, UTIL_FCC_ANCS, 0, 0},
                          {0x102, UTIL_FCC_PART, 0, 0},
                          {0x103, UTIL_FCC_TXTR, 0, 0}};
    world_dep deps1[1] = {{0x200, UTIL_FCC_ANCS, 0, 0}};
    world_layer layers0[2] = {{"Default", 1, 0, 2, 0, 0}, {"1st Pass", 0, 0, 1, 0, 0}};
    world_layer layers1[1] = {{"Default", 1, 0, 1, 0, 0}};
    world_dock_link link = {1, 0};
    world_vec3 corners[4];
    for (int i = 0; i < 12; i++)
        corners[i / 3].v[i % 3] = (float)i * 0.25f;
    world_dock dock = {1, &link, 4, corners};
    const char *mods[2] = {"a.rel", "b.rel"};
    uint32_t rel0[4] = {0, 2, 2, 2}, rel1[2] = {0, 0};
    for (int a = 0; a < 2; a++) {
        world_area *x = &areas[a];
        x->name_strg = 0xA0000000u + (uint32_t)a;
        for (int i = 0; i < 12; i++)
            x->transform[i] = (float)i + 0.5f + (float)a;
        for (int i = 0; i < 6; i++)
            x->bbox[i] = (float)(i < 3 ? -10 - i : 10 + i);
        x->mrea_id = 0xB0000000u + (uint32_t)a;
        x->area_id = 0xC0000000u + (uint32_t)a;
        x->attached_count = 1;
        x->attached = &att[a];
    }
    areas[0].dep_count = 4;
    areas[0].deps = deps0;
    areas[0].layer_count = 2;
    areas[0].layers = layers0;
    areas[0].own_dep_count = 1;
    areas[0].dock_count = 1;
    areas[0].docks = &dock;
    areas[1].dep_count = 1;
    areas[1].deps = deps1;
    areas[1].layer_count = 1;
    areas[1].layers = layers1;
    if (mp2) {
        areas[0].rel_module_count = 2;
        areas[0].rel_modules = mods;
        areas[0].rel_offset_count = 4;
        areas[0].rel_offsets = rel0;
        areas[0].internal_name = "00_area_a";
        areas[1].rel_offset_count = 2;
        areas[1].rel_offsets = rel1;
        areas[1].internal_name = "01_b";
    }
    util_err err;
    assert_int_equal(world_mlvl_pack(&m, &ar, &err), 0);
    assert_int_equal(deps0[2].layer_index, 1);
    assert_int_equal(deps0[3].layer_index, -1);
    assert_int_equal(areas[0].layer_flags, 0xFFFFFFFFFFFFFFFDull);
    /* the padding as trailing bytes */
    m.report.trailing = want.buf + k.end;
    m.report.trailing_len = want.len - k.end;
    util_wr got;
    util_wr_init(&got);
    assert_int_equal(world_mlvl_encode(&got, &m, &err), 0);
    assert_int_equal(got.len, want.len);
    assert_memory_equal(got.buf, want.buf, want.len);
    util_wr_free(&got);

    /* counts that do not add up are refused */
    areas[1].own_dep_count = 1;
    assert_int_equal(world_mlvl_pack(&m, &ar, &err), UTIL_EFORMAT);
    util_arena_free(&ar);
    util_wr_free(&want);
}

static void test_mlvl_pack(void **state)
{
    (void)state;
    pack_case(0);
    pack_case(1);
}

/* ---- STRG built by hand ------------------------------------------------------------------ */

enum {
    SF_NONE,
    SF_VERSION,     /* version 3 */
    SF_LANGS,       /* 65 languages */
    SF_UNTERM,      /* the last string of the last table has no terminator */
    SF_ODD,         /* the last string ends in one odd byte */
    SF_LONE_HIGH,   /* a high surrogate followed by 'A' */
    SF_LONE_LOW,    /* a low surrogate alone */
    SF_NAME_PAST,   /* MP2: a name offset = the name table's size */
    SF_NAME_INDEX,  /* MP2: a name for string 3 of 3 */
    SF_NAME_NOTERM, /* MP2: the last name has no terminator in its table */
    SF_STR_OFFSET,  /* a string offset = its table's size */
    SF_LANG_PAST,   /* a language table placed past the end */
    SF_GAP,         /* two bytes between two strings (decodes; kept as stored) */
    SF_TABLE_GAP,   /* two bytes between the two tables (the same) */
    SF_TABLE_TAIL,  /* the first table two bytes longer than its strings (the same) */
    SF_STR_SWAP,    /* ENGL's strings 0 and 2 stored in each other's place (the same) */
    SF_NAME_GAP,    /* MP2: a byte between the two names (the same; MP1 has none) */
    SF_NAME_SWAP,   /* MP2: the two names stored in each other's place (the same) */
    SF_NAME_TAIL,   /* MP2: the name table one byte longer than its names (the same) */
    SF_NO_PAD,      /* no padding */
};

typedef struct strg_marks {
    size_t lang1_entry, name_entry[2], str_offset_field, str_start, bad_unit, odd_byte, name_last,
        end;
} strg_marks;

/* Languages FREN then ENGL, three strings each (UTF-16 code units written out by hand). */
static const uint16_t S_FREN0[] = {'D', 'o', 'n', 'n', 0xE9, 'e', 's'};
static const uint16_t S_FREN1[] = {0x65E5, 0x672C};
static const uint16_t S_FREN2[] = {'x', 0xD83D, 0xDE00};
static const uint16_t S_ENGL0[] = {'D', 'a', 't', 'a'};
static const uint16_t S_ENGL2[] = {'&', 'j', 'u', 's', 't', '=', 'c', 'e',
                                   'n', 't', 'e', 'r', ';', 'H', 'i'};
static const char *UTF8[2][3] = {{"Donn\xC3\xA9"
                                  "es",
                                  "\xE6\x97\xA5\xE6\x9C\xAC", "x\xF0\x9F\x98\x80"},
                                 {"Data", "", "&just=center;Hi"}};

static void build_strg(util_wr *w, int mp2, int fault, strg_marks *k)
{
    memset(k, 0, sizeof *k);
    const uint16_t *units[2][3] = {{S_FREN0, S_FREN1, S_FREN2}, {S_ENGL0, NULL, S_ENGL2}};
    const size_t counts[2][3] = {{7, 2, 3}, {4, 0, 15}};
    util_wr_u32(w, 0x87654321u);
    util_wr_u32(w, fault == SF_VERSION ? 3 : mp2 ? 1 : 0);
    util_wr_u32(w, fault == SF_LANGS ? 65 : 2);
    util_wr_u32(w, 3);
    size_t lang_pos[2];
    const uint32_t langs[2] = {FREN, ENGL};
    for (int l = 0; l < 2; l++) {
        lang_pos[l] = w->len;
        util_wr_u32(w, langs[l]);
        util_wr_u32(w, 0); /* offset, patched */
        if (mp2)
            util_wr_u32(w, 0); /* size, patched */
    }
    k->lang1_entry = lang_pos[1];
    if (mp2) {
        /* names "Alpha" -> string 2, "Beta" -> string 0, sorted */
        util_wr_u32(w, 2);
        size_t size_at = w->len;
        util_wr_u32(w, 0);
        size_t start = w->len;
        int swap = fault == SF_NAME_SWAP;
        k->name_entry[0] = w->len;
        util_wr_u32(w, fault == SF_NAME_PAST ? 0 : swap ? 21 : 16); /* patched for NAME_PAST */
        util_wr_u32(w, 2);
        k->name_entry[1] = w->len;
        util_wr_u32(w, fault == SF_NAME_GAP ? 23 : swap ? 16 : 22);
        util_wr_u32(w, fault == SF_NAME_INDEX ? 3 : 0);
        if (swap)
            util_wr_bytes(w, "Beta", 5);
        util_wr_bytes(w, "Alpha", 6);
        if (fault == SF_NAME_GAP)
            util_wr_u8(w, 'X');
        k->name_last = w->len;
        if (!swap)
            util_wr_bytes(w, "Beta", fault == SF_NAME_NOTERM ? 4 : 5);
        if (fault == SF_NAME_TAIL)
            util_wr_u8(w, 0);
        uint32_t size = (uint32_t)(w->len - start);
        util_wr_put_u32_at(w, size_at, size);
        if (fault == SF_NAME_PAST)
            util_wr_put_u32_at(w, k->name_entry[0], size);
    }
    size_t data = w->len;
    for (int l = 0; l < 2; l++) {
        if (fault == SF_TABLE_GAP && l == 1)
            util_wr_u16(w, 0x4343);
        size_t table = w->len;
        util_wr_put_u32_at(w, lang_pos[l] + 4,
                           fault == SF_LANG_PAST && l == 1 ? 0x100000u : (uint32_t)(table - data));
        if (!mp2)
            util_wr_u32(w, 0); /* size word, patched */
        size_t offs = w->len;
        for (int i = 0; i < 3; i++)
            util_wr_u32(w, 0);
        for (int j = 0; j < 3; j++) {
            int i = fault == SF_STR_SWAP && l == 1 ? 2 - j : j;
            int last = l == 1 && i == 2;
            if (fault == SF_GAP && l == 0 && i == 1)
                util_wr_u16(w, 0x4242);
            util_wr_put_u32_at(w, offs + 4 * (size_t)i, (uint32_t)(w->len - offs));
            if (last) {
                k->str_offset_field = offs + 8;
                k->str_start = w->len;
            }
            for (size_t u = 0; u < counts[l][i]; u++) {
                if (last && u == 1 && fault == SF_LONE_HIGH) {
                    k->bad_unit = w->len;
                    util_wr_u16(w, 0xD800);
                } else if (last && u == 1 && fault == SF_LONE_LOW) {
                    k->bad_unit = w->len;
                    util_wr_u16(w, 0xDC00);
                } else {
                    util_wr_u16(w, units[l][i][u]);
                }
            }
            if (last && fault == SF_ODD) {
                k->odd_byte = w->len;
                util_wr_u8(w, 0x41);
            } else if (!(last && fault == SF_UNTERM)) {
                util_wr_u16(w, 0);
            }
        }
        if (fault == SF_TABLE_TAIL && l == 0)
            util_wr_u16(w, 0x4444);
        uint32_t size = (uint32_t)(w->len - offs);
        if (mp2)
            util_wr_put_u32_at(w, lang_pos[l] + 8, size);
        else
            util_wr_put_u32_at(w, table, size);
        if (fault == SF_STR_OFFSET && l == 1)
            util_wr_put_u32_at(w, offs + 8, size);
    }
    k->end = w->len;
    if (fault != SF_NO_PAD)
        while (w->len % 32)
            util_wr_u8(w, 0xFF);
    assert_false(w->failed);
}

static void round_trip_strg(const world_strg *s, const util_wr *w)
{
    util_wr o;
    util_wr_init(&o);
    util_err err;
    assert_int_equal(world_strg_encode(&o, s, &err), 0);
    assert_int_equal(o.len, w->len);
    assert_memory_equal(o.buf, w->buf, w->len);
    util_wr_free(&o);
}

static void strg_valid(int mp2)
{
    util_wr w;
    util_wr_init(&w);
    strg_marks k;
    build_strg(&w, mp2, SF_NONE, &k);
    util_arena a;
    util_arena_init(&a);
    util_err err;
    util_err_clear(&err);
    world_strg s;
    assert_int_equal(world_strg_decode(&s, w.buf, w.len, &a, &err), 0);
    assert_int_equal(s.game, mp2 ? WORLD_GAME_MP2 : WORLD_GAME_MP1);
    assert_int_equal(s.language_count, 2);
    assert_int_equal(s.string_count, 3);
    assert_int_equal(s.languages[0].lang, FREN);
    assert_int_equal(s.languages[1].lang, ENGL);
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < 3; i++)
            assert_string_equal(s.languages[l].strings[i], UTF8[l][i]);
    /* English found by FourCC, not position */
    assert_string_equal(world_strg_text(&s, ENGL, 0), "Data");
    assert_ptr_equal(world_strg_find_language(&s, ENGL), &s.languages[1]);
    assert_null(world_strg_find_language(&s, UTIL_FOURCC('J', 'A', 'P', 'N')));
    assert_null(world_strg_text(&s, ENGL, 3));
    if (mp2) {
        assert_int_equal(s.name_count, 2);
        assert_string_equal(s.names[0].name, "Alpha");
        assert_int_equal(s.names[0].string_index, 2);
        assert_string_equal(s.names[1].name, "Beta");
        assert_string_equal(world_strg_name_of(&s, 0), "Beta");
        assert_null(world_strg_name_of(&s, 1));
    } else {
        assert_int_equal(s.name_count, 0);
        /* MP1 offsets count the size word of the tables before (§12.4) */
        assert_int_equal(s.languages[1].offset, 4 + s.languages[0].size);
    }
    assert_null(s.raw_body);
    assert_int_equal(s.report.warning_count, 0);
    assert_int_equal(s.report.consumed, k.end);
    round_trip_strg(&s, &w);

    /* the same strings as structs, laid out by the encoder: the same bytes */
    world_strg b;
    memset(&b, 0, sizeof b);
    b.version = mp2 ? 1 : 0;
    b.language_count = 2;
    b.string_count = 3;
    world_strg_lang langs[2];
    memset(langs, 0, sizeof langs);
    langs[0].lang = FREN;
    langs[0].strings = (const char **)UTF8[0];
    langs[1].lang = ENGL;
    langs[1].strings = (const char **)UTF8[1];
    b.languages = langs;
    world_strg_name names[2] = {{"Alpha", 0, 2}, {"Beta", 0, 0}};
    if (mp2) {
        b.name_count = 2;
        b.names = names;
    }
    b.report.trailing = w.buf + k.end;
    b.report.trailing_len = w.len - k.end;
    round_trip_strg(&b, &w);

    for (size_t cut = 0; cut < k.end; cut++) {
        util_arena pa;
        util_arena_init(&pa);
        util_err_clear(&err);
        world_strg p;
        int rc = world_strg_decode(&p, w.buf, cut, &pa, &err);
        if (rc != UTIL_ETRUNC || err.offset > cut)
            fail_msg("STRG prefix %zu: rc %d @%llu %s", cut, rc, (unsigned long long)err.offset,
                     err.msg);
        util_arena_free(&pa);
    }
    util_arena_free(&a);
    util_wr_free(&w);
}

static void test_strg_mp1(void **state)
{
    (void)state;
    strg_valid(0);
}

static void test_strg_mp2(void **state)
{
    (void)state;
    strg_valid(1);
}

/* The fault's code and offset; its message names `names` when not NULL. */
static void strg_bad_named(int mp2, int fault, int code, size_t off, const char *names)
{
    util_wr w;
    util_wr_init(&w);
    strg_marks k;
    build_strg(&w, mp2, fault, &k);
    util_arena a;
    util_arena_init(&a);
    util_err err;
    util_err_clear(&err);
    world_strg s;
    int rc = world_strg_decode(&s, w.buf, w.len, &a, &err);
    if (rc != code || err.offset != off)
        fail_msg("STRG fault %d (%s): rc %d @%llu, want %d @%zu (%s)", fault, mp2 ? "MP2" : "MP1",
                 rc, (unsigned long long)err.offset, code, off, err.msg);
    if (names && !strstr(err.msg, names))
        fail_msg("STRG fault %d (%s): '%s' does not name %s", fault, mp2 ? "MP2" : "MP1", err.msg,
                 names);
    util_arena_free(&a);
    util_wr_free(&w);
}

static void strg_bad(int mp2, int fault, int code, size_t off)
{
    strg_bad_named(mp2, fault, code, off, NULL);
}

static void test_strg_bad(void **state)
{
    (void)state;
    for (int mp2 = 0; mp2 <= 1; mp2++) {
        strg_marks k;
        util_wr w;
        util_wr_init(&w);
#define MARKS(f) (util_wr_free(&w), util_wr_init(&w), build_strg(&w, mp2, (f), &k), k)
        strg_bad(mp2, SF_VERSION, UTIL_EFORMAT, 4);
        strg_bad(mp2, SF_LANGS, UTIL_EFORMAT, 8);
        /* the faulty string is ENGL's string 2 */
        const char *e2 = "language ENGL string 2";
        strg_bad_named(mp2, SF_UNTERM, UTIL_EFORMAT, MARKS(SF_UNTERM).str_start, e2);
        strg_bad_named(mp2, SF_ODD, UTIL_EFORMAT, MARKS(SF_ODD).odd_byte, e2);
        strg_bad_named(mp2, SF_LONE_HIGH, UTIL_EFORMAT, MARKS(SF_LONE_HIGH).bad_unit, e2);
        strg_bad_named(mp2, SF_LONE_LOW, UTIL_EFORMAT, MARKS(SF_LONE_LOW).bad_unit, e2);
        strg_bad(mp2, SF_STR_OFFSET, UTIL_EFORMAT, MARKS(SF_STR_OFFSET).str_offset_field);
        strg_bad(mp2, SF_LANG_PAST, UTIL_ETRUNC, MARKS(SF_LANG_PAST).lang1_entry + 4);
        if (mp2) {
            strg_bad(mp2, SF_NAME_PAST, UTIL_EFORMAT, MARKS(SF_NAME_PAST).name_entry[0]);
            strg_bad(mp2, SF_NAME_INDEX, UTIL_EFORMAT, MARKS(SF_NAME_INDEX).name_entry[1] + 4);
            strg_bad(mp2, SF_NAME_NOTERM, UTIL_EFORMAT, MARKS(SF_NAME_NOTERM).name_last);
        }
#undef MARKS
        util_wr_free(&w);
    }
}

/* Strings not back to back decode, warn once and round-trip exactly; no padding is fine. */
static void test_strg_layout(void **state)
{
    (void)state;
    for (int mp2 = 0; mp2 <= 1; mp2++) {
        for (int fault = SF_GAP; fault <= SF_NO_PAD; fault++) {
            util_wr w;
            util_wr_init(&w);
            strg_marks k;
            build_strg(&w, mp2, fault, &k);
            util_arena a;
            util_arena_init(&a);
            util_err err;
            world_strg s;
            assert_int_equal(world_strg_decode(&s, w.buf, w.len, &a, &err), 0);
            assert_string_equal(s.languages[0].strings[1], UTF8[0][1]);
            if (fault != SF_NO_PAD && (fault < SF_NAME_GAP || mp2)) {
                assert_non_null(s.raw_body);
                assert_int_equal(s.report.warning_count, 1);
                assert_string_equal(s.report.warnings->code, "strg_layout");
            } else {
                assert_null(s.raw_body);
                assert_int_equal(s.report.warning_count, 0);
                if (fault == SF_NO_PAD)
                    assert_int_equal(s.report.trailing_len, 0);
            }
            round_trip_strg(&s, &w);
            util_arena_free(&a);
            util_wr_free(&w);
        }
    }
}

/* The encoder refuses text that is not UTF-8 or not encodable in UTF-16. */
static void test_strg_encode_refuses(void **state)
{
    (void)state;
    static const char *bad[] = {"\xC3", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        world_strg s;
        memset(&s, 0, sizeof s);
        world_strg_lang l;
        memset(&l, 0, sizeof l);
        l.lang = ENGL;
        l.strings = &bad[i];
        s.language_count = 1;
        s.string_count = 1;
        s.languages = &l;
        util_wr w;
        util_wr_init(&w);
        util_err err;
        assert_int_equal(world_strg_encode(&w, &s, &err), UTIL_EFORMAT);
        util_wr_free(&w);
    }
}

/* Every allocation failing in turn: UTIL_ENOMEM or success, never a crash or a leak. */
static void test_alloc_failures(void **state)
{
    (void)state;
    util_wr mw, sw;
    util_wr_init(&mw);
    util_wr_init(&sw);
    mlvl_marks mk;
    strg_marks sk;
    build_mlvl(&mw, 1, MF_NONE, &mk);
    build_strg(&sw, 1, SF_NONE, &sk);
    for (int which = 0; which < 2; which++) {
        int ok = 0;
        for (long n = 0; n < 10000 && !ok; n++) {
            util_arena a;
            util_arena_init(&a);
            a.fail_after = n;
            util_err err;
            int rc;
            if (which == 0) {
                world_mlvl m;
                rc = world_mlvl_decode(&m, mw.buf, mw.len, &a, &err);
            } else {
                world_strg s;
                rc = world_strg_decode(&s, sw.buf, sw.len, &a, &err);
            }
            assert_true(rc == 0 || rc == UTIL_ENOMEM);
            ok = rc == 0;
            util_arena_free(&a);
        }
        assert_true(ok);
    }
    util_wr_free(&mw);
    util_wr_free(&sw);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mlvl_mp1),       cmocka_unit_test(test_mlvl_mp2),
        cmocka_unit_test(test_mlvl_bad),       cmocka_unit_test(test_mlvl_warnings),
        cmocka_unit_test(test_mlvl_pack),      cmocka_unit_test(test_strg_mp1),
        cmocka_unit_test(test_strg_mp2),       cmocka_unit_test(test_strg_bad),
        cmocka_unit_test(test_strg_layout),    cmocka_unit_test(test_strg_encode_refuses),
        cmocka_unit_test(test_alloc_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
