/* test_ancs_fixture.c — fixture round trips for every version gate and meta type, and
 * hand-built minimal ANCS (bytes written out from docs/formats.md §4.15) decoding to known fields.
 */
#include <stdlib.h>
#include <string.h>

#include "ancs.h"
#include "fixture.h"
#include "testutil.h"

/* ---- deep struct comparison (offsets ignored; floats bit-exact) ------------------------ */

#define EQ(a, b)  assert_int_equal((a), (b))
#define FEQ(a, b) assert_memory_equal(&(a), &(b), sizeof(float))

static void seq(const char *a, const char *b)
{
    assert_string_equal(a ? a : "", b ? b : "");
}

static void cmp_time(const ancs_time *a, const ancs_time *b)
{
    FEQ(a->time, b->time);
    EQ(a->type, b->type);
}

static void cmp_box(const ancs_aabox *a, const ancs_aabox *b)
{
    assert_memory_equal(a, b, sizeof *a);
}

static void cmp_ids(const ancs_id_list *a, const ancs_id_list *b)
{
    EQ(a->count, b->count);
    for (uint32_t i = 0; i < a->count; i++)
        EQ(a->ids[i], b->ids[i]);
}

static void cmp_poi(const ancs_poi *a, const ancs_poi *b)
{
    EQ(a->unknown_u16, b->unknown_u16);
    seq(a->name, b->name);
    EQ(a->poi_type, b->poi_type);
    cmp_time(&a->time, &b->time);
    EQ(a->index, b->index);
    EQ(a->unique, b->unique);
    FEQ(a->weight, b->weight);
    EQ(a->char_index, b->char_index);
    EQ(a->flags, b->flags);
}

static void cmp_evnt(const ancs_evnt *a, const ancs_evnt *b)
{
    EQ(a->version, b->version);
    EQ(a->bool_count, b->bool_count);
    for (uint32_t i = 0; i < a->bool_count; i++) {
        cmp_poi(&a->bools[i].base, &b->bools[i].base);
        EQ(a->bools[i].value, b->bools[i].value);
    }
    EQ(a->int32_count, b->int32_count);
    for (uint32_t i = 0; i < a->int32_count; i++) {
        cmp_poi(&a->int32s[i].base, &b->int32s[i].base);
        EQ(a->int32s[i].value, b->int32s[i].value);
        seq(a->int32s[i].locator_name, b->int32s[i].locator_name);
    }
    EQ(a->particle_count, b->particle_count);
    for (uint32_t i = 0; i < a->particle_count; i++) {
        const ancs_poi_particle *x = &a->particles[i], *y = &b->particles[i];
        cmp_poi(&x->base, &y->base);
        EQ(x->duration, y->duration);
        EQ(x->particle_type, y->particle_type);
        EQ(x->particle_id, y->particle_id);
        seq(x->bone_name, y->bone_name);
        EQ(x->bone_id, y->bone_id);
        FEQ(x->scale, y->scale);
        EQ(x->parented_mode, y->parented_mode);
    }
    EQ(a->sound_count, b->sound_count);
    for (uint32_t i = 0; i < a->sound_count; i++) {
        const ancs_poi_sound *x = &a->sounds[i], *y = &b->sounds[i];
        cmp_poi(&x->base, &y->base);
        EQ(x->sound_id, y->sound_id);
        FEQ(x->falloff, y->falloff);
        FEQ(x->max_distance, y->max_distance);
        EQ(x->echoes_unknown_a, y->echoes_unknown_a);
        EQ(x->echoes_unknown_b, y->echoes_unknown_b);
        EQ(x->echoes_unknown_c, y->echoes_unknown_c);
        FEQ(x->echoes_unknown_d, y->echoes_unknown_d);
    }
}

static void cmp_meta(const ancs_meta_anim *a, const ancs_meta_anim *b)
{
    EQ(a->type, b->type);
    if (a->type == ANCS_META_PLAY) {
        EQ(a->anim_id, b->anim_id);
        EQ(a->primitive_id, b->primitive_id);
        seq(a->primitive_name, b->primitive_name);
        cmp_time(&a->start_time, &b->start_time);
        return;
    }
    EQ(a->child_count, b->child_count);
    for (uint32_t i = 0; i < a->child_count; i++) {
        cmp_meta(&a->children[i], &b->children[i]);
        if (a->type == ANCS_META_RANDOM)
            EQ(a->probabilities[i], b->probabilities[i]);
    }
    if (a->type == ANCS_META_BLEND || a->type == ANCS_META_PHASE_BLEND) {
        FEQ(a->blend_weight, b->blend_weight);
        EQ(a->unknown_flag, b->unknown_flag);
    }
}

static void cmp_trans(const ancs_meta_trans *a, const ancs_meta_trans *b)
{
    EQ(a->type, b->type);
    if (a->type == ANCS_TRANS_META_ANIM) {
        cmp_meta(a->anim, b->anim);
    } else if (a->type != ANCS_TRANS_SNAP) {
        cmp_time(&a->duration, &b->duration);
        EQ(a->unknown_flag, b->unknown_flag);
        EQ(a->run_a, b->run_a);
        EQ(a->flags, b->flags);
    }
}

static void cmp_char(const ancs_character *a, const ancs_character *b)
{
    EQ(a->char_id, b->char_id);
    EQ(a->version, b->version);
    seq(a->name, b->name);
    EQ(a->model_id, b->model_id);
    EQ(a->skin_id, b->skin_id);
    EQ(a->skeleton_id, b->skeleton_id);
    EQ(a->anim_name_count, b->anim_name_count);
    for (uint32_t i = 0; i < a->anim_name_count; i++) {
        EQ(a->anim_names[i].anim_id, b->anim_names[i].anim_id);
        EQ(a->anim_names[i].unknown == NULL, b->anim_names[i].unknown == NULL);
        seq(a->anim_names[i].unknown, b->anim_names[i].unknown);
        seq(a->anim_names[i].name, b->anim_names[i].name);
    }
    EQ(a->pas.magic, b->pas.magic);
    EQ(a->pas.default_state, b->pas.default_state);
    EQ(a->pas.state_count, b->pas.state_count);
    for (uint32_t i = 0; i < a->pas.state_count; i++) {
        const ancs_pas_state *x = &a->pas.states[i], *y = &b->pas.states[i];
        EQ(x->state_type, y->state_type);
        EQ(x->parm_count, y->parm_count);
        EQ(x->anim_count, y->anim_count);
        for (uint32_t j = 0; j < x->parm_count; j++) {
            EQ(x->parms[j].parm_type, y->parms[j].parm_type);
            EQ(x->parms[j].weight_function, y->parms[j].weight_function);
            FEQ(x->parms[j].weight, y->parms[j].weight);
            EQ(x->parms[j].min, y->parms[j].min);
            EQ(x->parms[j].max, y->parms[j].max);
        }
        for (uint32_t k = 0; k < x->anim_count; k++) {
            EQ(x->anims[k].anim_id, y->anims[k].anim_id);
            for (uint32_t j = 0; j < x->parm_count; j++)
                EQ(x->anims[k].values[j], y->anims[k].values[j]);
        }
    }
    cmp_ids(&a->part, &b->part);
    cmp_ids(&a->swhc, &b->swhc);
    cmp_ids(&a->third, &b->third);
    cmp_ids(&a->elsc, &b->elsc);
    cmp_ids(&a->spsc, &b->spsc);
    EQ(a->unknown_a, b->unknown_a);
    EQ(a->unknown_b, b->unknown_b);
    EQ(a->aabb_count, b->aabb_count);
    for (uint32_t i = 0; i < a->aabb_count; i++) {
        seq(a->aabbs[i].name, b->aabbs[i].name);
        cmp_box(&a->aabbs[i].box, &b->aabbs[i].box);
    }
    EQ(a->effect_count, b->effect_count);
    for (uint32_t i = 0; i < a->effect_count; i++) {
        seq(a->effects[i].name, b->effects[i].name);
        EQ(a->effects[i].comp_count, b->effects[i].comp_count);
        for (uint32_t j = 0; j < a->effects[i].comp_count; j++) {
            const ancs_effect_comp *x = &a->effects[i].comps[j], *y = &b->effects[i].comps[j];
            seq(x->name, y->name);
            EQ(x->particle_type, y->particle_type);
            EQ(x->particle_id, y->particle_id);
            seq(x->bone_name, y->bone_name);
            EQ(x->bone_id, y->bone_id);
            FEQ(x->scale, y->scale);
            EQ(x->parented_mode, y->parented_mode);
            EQ(x->flags, y->flags);
        }
    }
    EQ(a->frozen_model_id, b->frozen_model_id);
    EQ(a->frozen_skin_id, b->frozen_skin_id);
    cmp_ids(&a->id_map, &b->id_map);
    EQ(a->cspp_id, b->cspp_id);
    EQ(a->unknown_c, b->unknown_c);
    EQ(a->indexed_aabb_count, b->indexed_aabb_count);
    for (uint32_t i = 0; i < a->indexed_aabb_count; i++) {
        EQ(a->indexed_aabbs[i].anim_id, b->indexed_aabbs[i].anim_id);
        cmp_box(&a->indexed_aabbs[i].box, &b->indexed_aabbs[i].box);
    }
}

static void cmp_set(const ancs_set *a, const ancs_set *b)
{
    EQ(a->game, b->game);
    EQ(a->version, b->version);
    EQ(a->charset_version, b->charset_version);
    EQ(a->char_count, b->char_count);
    for (uint32_t i = 0; i < a->char_count; i++)
        cmp_char(&a->chars[i], &b->chars[i]);
    const ancs_animset *x = &a->animset, *y = &b->animset;
    EQ(x->version, y->version);
    EQ(x->animation_count, y->animation_count);
    for (uint32_t i = 0; i < x->animation_count; i++) {
        seq(x->animations[i].name, y->animations[i].name);
        cmp_meta(&x->animations[i].meta, &y->animations[i].meta);
    }
    EQ(x->transition_count, y->transition_count);
    for (uint32_t i = 0; i < x->transition_count; i++) {
        EQ(x->transitions[i].unknown_id, y->transitions[i].unknown_id);
        EQ(x->transitions[i].anim_a, y->transitions[i].anim_a);
        EQ(x->transitions[i].anim_b, y->transitions[i].anim_b);
        cmp_trans(&x->transitions[i].trans, &y->transitions[i].trans);
    }
    cmp_trans(&x->default_transition, &y->default_transition);
    EQ(x->additive_count, y->additive_count);
    for (uint32_t i = 0; i < x->additive_count; i++) {
        EQ(x->additives[i].anim_index, y->additives[i].anim_index);
        FEQ(x->additives[i].fade_in, y->additives[i].fade_in);
        FEQ(x->additives[i].fade_out, y->additives[i].fade_out);
    }
    FEQ(x->default_fade_in, y->default_fade_in);
    FEQ(x->default_fade_out, y->default_fade_out);
    EQ(x->half_count, y->half_count);
    for (uint32_t i = 0; i < x->half_count; i++) {
        EQ(x->halfs[i].anim, y->halfs[i].anim);
        cmp_trans(&x->halfs[i].trans, &y->halfs[i].trans);
    }
    EQ(x->pair_count, y->pair_count);
    for (uint32_t i = 0; i < x->pair_count; i++) {
        EQ(x->pairs[i].anim_id, y->pairs[i].anim_id);
        EQ(x->pairs[i].evnt_id, y->pairs[i].evnt_id);
    }
    EQ(x->event_set_count, y->event_set_count);
    for (uint32_t i = 0; i < x->event_set_count; i++)
        cmp_evnt(&x->event_sets[i], &y->event_sets[i]);
}

/* ---- round trips ---------------------------------------------------------------------- */

static size_t count_code(const ancs_report *r, const char *code)
{
    size_t n = 0;
    for (const ancs_warning *w = r->warnings; w; w = w->next)
        if (!strcmp(w->code, code))
            n++;
    return n;
}

/* Build, encode, decode, compare, re-encode; returns the number of warnings. */
static size_t round_trip(const fixture_ancs_opts *o, ancs_set *built, util_arena *a)
{
    util_err err;
    util_err_clear(&err);
    assert_int_equal(fixture_ancs_build(built, o, a, &err), 0);
    util_wr w1, w2;
    util_wr_init(&w1);
    util_wr_init(&w2);
    assert_int_equal(ancs_encode(&w1, built, &err), 0);
    ancs_set back;
    int rc = ancs_decode(&back, w1.buf, w1.len, o->game, a, &err);
    if (rc)
        fail_msg("decode: %s @%llu", err.msg, (unsigned long long)err.offset);
    cmp_set(built, &back);
    assert_int_equal(back.report.consumed, w1.len);
    assert_int_equal(back.report.trailing_len, 0);
    assert_int_equal(ancs_encode(&w2, &back, &err), 0);
    assert_int_equal(w1.len, w2.len);
    assert_memory_equal(w1.buf, w2.buf, w1.len);
    /* the game guess agrees with the versions used */
    util_wr_free(&w1);
    util_wr_free(&w2);
    return back.report.warning_count;
}

static void test_char_versions(void **state)
{
    (void)state;
    for (int g = ANCS_GAME_MP1; g <= ANCS_GAME_MP2; g++)
        for (uint16_t T = 1; T <= 10; T++) {
            util_arena a;
            util_arena_init(&a);
            uint16_t vers[2] = {T, T};
            fixture_ancs_opts o;
            fixture_ancs_opts_init(&o, (ancs_game)g, 1000u * (unsigned)g + T);
            o.char_count = 2;
            o.char_versions = vers;
            o.third_list_percent = 0;
            ancs_set s;
            size_t warnings = round_trip(&o, &s, &a);
            assert_int_equal(warnings, (T >= 7 && T <= 9) ? 2 : 0);
            assert_int_equal(s.chars[0].version, T);
            util_arena_free(&a);
        }
}

static void test_mixed_versions_and_third_list(void **state)
{
    (void)state;
    util_arena a;
    util_arena_init(&a);
    uint16_t vers[6] = {1, 2, 3, 4, 5, 6};
    fixture_ancs_opts o;
    fixture_ancs_opts_init(&o, ANCS_GAME_MP1, 77);
    o.char_count = 6;
    o.char_versions = vers;
    o.third_list_percent = 100;
    ancs_set s;
    round_trip(&o, &s, &a);
    assert_true(s.chars[5].third.count > 0);
    for (int i = 0; i < 5; i++)
        assert_int_equal(s.chars[i].third.count, 0);
    util_arena_free(&a);
}

static void test_animset_versions(void **state)
{
    (void)state;
    for (int g = ANCS_GAME_MP1; g <= ANCS_GAME_MP2; g++)
        for (uint16_t V = 1; V <= 4; V++) {
            util_arena a;
            util_arena_init(&a);
            fixture_ancs_opts o;
            fixture_ancs_opts_init(&o, (ancs_game)g, 500u + V);
            o.animset_version = V;
            ancs_set s;
            assert_int_equal(round_trip(&o, &s, &a), 0);
            assert_int_equal(s.animset.version, V);
            if (V >= 4 && g == ANCS_GAME_MP2)
                assert_int_equal(s.animset.event_set_count, s.animset.animation_count);
            if (V >= 4 && g == ANCS_GAME_MP1)
                assert_true(s.animset.pair_count > 0);
            util_arena_free(&a);
        }
}

static void count_types(const ancs_meta_anim *m, unsigned *seen)
{
    if (m->type < 5)
        seen[m->type]++;
    for (uint32_t i = 0; i < m->child_count; i++)
        count_types(&m->children[i], seen);
}

static void test_meta_types(void **state)
{
    (void)state;
    for (int g = ANCS_GAME_MP1; g <= ANCS_GAME_MP2; g++)
        for (int t = 0; t < 5; t++) {
            util_arena a;
            util_arena_init(&a);
            fixture_ancs_opts o;
            fixture_ancs_opts_init(&o, (ancs_game)g, 900u + (unsigned)t);
            o.root_meta_type = t;
            o.max_meta_depth = 4;
            ancs_set s;
            round_trip(&o, &s, &a);
            for (uint32_t i = 0; i < s.animset.animation_count; i++)
                assert_int_equal(s.animset.animations[i].meta.type, (uint32_t)t);
            util_arena_free(&a);
        }
    /* default options cover every meta-animation and meta-transition type */
    util_arena a;
    util_arena_init(&a);
    fixture_ancs_opts o;
    fixture_ancs_opts_init(&o, ANCS_GAME_MP1, 4242);
    o.animation_count = 8;
    ancs_set s;
    round_trip(&o, &s, &a);
    unsigned seen[5] = {0}, tseen[4] = {0};
    for (uint32_t i = 0; i < s.animset.animation_count; i++)
        count_types(&s.animset.animations[i].meta, seen);
    for (uint32_t i = 0; i < s.animset.transition_count; i++)
        tseen[s.animset.transitions[i].trans.type]++;
    tseen[s.animset.default_transition.type]++;
    for (uint32_t i = 0; i < s.animset.half_count; i++)
        tseen[s.animset.halfs[i].trans.type]++;
    for (int i = 0; i < 5; i++)
        assert_true(seen[i] > 0);
    for (int i = 0; i < 4; i++)
        assert_true(tseen[i] > 0);
    util_arena_free(&a);
}

static void test_deterministic(void **state)
{
    (void)state;
    fixture_ancs_opts o;
    fixture_ancs_opts_init(&o, ANCS_GAME_MP2, 31337);
    uint8_t *b1 = NULL, *b2 = NULL;
    size_t n1 = 0, n2 = 0;
    util_err err;
    assert_int_equal(fixture_ancs_bytes(&b1, &n1, &o, &err), 0);
    assert_int_equal(fixture_ancs_bytes(&b2, &n2, &o, &err), 0);
    assert_int_equal(n1, n2);
    assert_memory_equal(b1, b2, n1);
    assert_int_equal(ancs_guess_game(b1, n1), ANCS_GAME_MP2);
    free(b1);
    free(b2);
}

static void test_evnt_fixtures(void **state)
{
    (void)state;
    for (int g = ANCS_GAME_MP1; g <= ANCS_GAME_MP2; g++)
        for (uint32_t v = 1; v <= 2; v++) {
            util_arena a;
            util_arena_init(&a);
            util_err err;
            ancs_evnt_file ef, back;
            assert_int_equal(
                fixture_evnt_file_build(&ef, (ancs_game)g, 7 + v, v, 3, NULL, NULL, &a, &err), 0);
            assert_true(ef.evnt.bool_count && ef.evnt.int32_count && ef.evnt.particle_count);
            assert_int_equal(ef.evnt.sound_count > 0, v >= 2);
            util_wr w1, w2;
            util_wr_init(&w1);
            util_wr_init(&w2);
            assert_int_equal(ancs_evnt_encode(&w1, &ef, &err), 0);
            assert_int_equal(ancs_evnt_decode(&back, w1.buf, w1.len, (ancs_game)g, &a, &err), 0);
            cmp_evnt(&ef.evnt, &back.evnt);
            assert_int_equal(back.report.warning_count, 0);
            assert_int_equal(ancs_evnt_encode(&w2, &back, &err), 0);
            assert_int_equal(w1.len, w2.len);
            assert_memory_equal(w1.buf, w2.buf, w1.len);
            util_wr_free(&w1);
            util_wr_free(&w2);
            util_arena_free(&a);
        }
}

/* ---- hand-built bytes ----------------------------------------------------------------- */

/* MP1, one character of version 1 (3 particle lists, the 3rd = ELSC, nothing after
 * unknown_a), animation set V = 1 with one Play animation and a Snap default transition,
 * followed by 4 bytes of 0xFF padding. */
static const uint8_t mp1_min[] = {
    0x00, 0x01, 0x00, 0x01,                               /* ancs version, charset version */
    0x00, 0x00, 0x00, 0x01,                               /* 1 character */
    0x00, 0x00, 0x00, 0x07,                               /* char id 7 */
    0x00, 0x01,                                           /* T = 1 */
    'A',  0x00,                                           /* name */
    0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x22,       /* CMDL, CSKR */
    0x00, 0x00, 0x00, 0x33,                               /* CINF */
    0x00, 0x00, 0x00, 0x01,                               /* 1 animation name */
    0x00, 0x00, 0x00, 0x00, 0x00,                         /* id 0, unknown "" */
    'W',  'a',  'l',  'k',  0x00,                         /* name */
    'P',  'A',  'S',  '4',  0x00, 0x00, 0x00, 0x00,       /* PAS, 0 states */
    0xFF, 0xFF, 0xFF, 0xFF,                               /* default state -1 */
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x44,       /* PART [0x44] */
    0x00, 0x00, 0x00, 0x00,                               /* SWHC [] */
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x55,       /* ELSC [0x55] */
    0x00, 0x00, 0x00, 0x01,                               /* unknown_a */
    0x00, 0x01,                                           /* V = 1 */
    0x00, 0x00, 0x00, 0x01, 'W',  'a',  'l',  'k',  0x00, /* 1 animation */
    0x00, 0x00, 0x00, 0x00,                               /* Play */
    0x00, 0x00, 0x00, 0x66, 0x00, 0x00, 0x00, 0x00,       /* ANIM 0x66, primitive 0 */
    'W',  'a',  'l',  'k',  0x00,                         /* primitive name */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,       /* start 0.0, ZeroSteady */
    0x00, 0x00, 0x00, 0x00,                               /* 0 transitions */
    0x00, 0x00, 0x00, 0x03,                               /* default: Snap */
    0xFF, 0xFF, 0xFF, 0xFF};

static void test_hand_mp1_min(void **state)
{
    (void)state;
    util_arena a;
    util_arena_init(&a);
    util_err err;
    ancs_set s;
    assert_int_equal(ancs_guess_game(mp1_min, sizeof mp1_min), ANCS_GAME_MP1);
    assert_int_equal(ancs_decode(&s, mp1_min, sizeof mp1_min, ANCS_GAME_AUTO, &a, &err), 0);
    assert_int_equal(s.game, ANCS_GAME_MP1);
    assert_int_equal(s.char_count, 1);
    const ancs_character *c = &s.chars[0];
    assert_int_equal(c->char_id, 7);
    assert_int_equal(c->offset, 8);
    assert_int_equal(c->version, 1);
    assert_string_equal(c->name, "A");
    assert_int_equal(c->model_id, 0x11);
    assert_int_equal(c->skin_id, 0x22);
    assert_int_equal(c->skeleton_id, 0x33);
    assert_int_equal(c->anim_name_count, 1);
    assert_string_equal(c->anim_names[0].unknown, "");
    assert_string_equal(c->anim_names[0].name, "Walk");
    assert_int_equal(c->pas.magic, 0x50415334);
    assert_int_equal(c->pas.default_state, -1);
    assert_int_equal(c->part.count, 1);
    assert_int_equal(c->part.ids[0], 0x44);
    assert_int_equal(c->swhc.count, 0);
    assert_int_equal(c->third.count, 0);
    assert_int_equal(c->elsc.count, 1);
    assert_int_equal(c->elsc.ids[0], 0x55);
    assert_int_equal(c->unknown_a, 1);
    assert_int_equal(c->aabb_count, 0);
    assert_int_equal(c->id_map.count, 0);
    assert_int_equal(s.animset.version, 1);
    assert_int_equal(s.animset.animation_count, 1);
    const ancs_meta_anim *m = &s.animset.animations[0].meta;
    assert_int_equal(m->type, ANCS_META_PLAY);
    assert_int_equal(m->offset, 89);
    assert_int_equal(m->anim_id, 0x66);
    assert_string_equal(m->primitive_name, "Walk");
    assert_int_equal(m->start_time.type, 2);
    assert_int_equal(s.animset.default_transition.type, ANCS_TRANS_SNAP);
    assert_int_equal(s.report.consumed, sizeof mp1_min - 4);
    assert_int_equal(s.report.trailing_len, 4);
    assert_int_equal(s.report.trailing_all_ff, 1);
    assert_int_equal(s.report.warning_count, 0);
    util_wr w;
    util_wr_init(&w);
    assert_int_equal(ancs_encode(&w, &s, &err), 0);
    assert_int_equal(w.len, sizeof mp1_min);
    assert_memory_equal(w.buf, mp1_min, sizeof mp1_min);
    util_wr_free(&w);
    util_arena_free(&a);
}

/* MP2, one character of version 10 with a PAS state (bool + float parms), AABB, effect with a
 * bone ID, frozen "none" 0xFFFFFFFF, ID map, CSPP; animation set V = 4 with a Sequence, a
 * Trans transition, a MetaAnim default transition, a PhaseTrans half transition and one
 * embedded event set (version 2: one particle node, one sound node). */
static const uint8_t mp2_full[] = {
    0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,       /* versions, 1 character */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x0A, 'D',  'S',  0x00, /* id 0, T = 10, "DS" */
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03, /* CMDL CSKR CINF */
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 'R',  'u',  'n',  0x00, /* names: 0 "Run" */
    'P',  'A',  'S',  '4',  0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x05, /* 1 state, def 5 */
    0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, /* type 5 P2 A1 */
    0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x3F, 0x80, 0x00, 0x00, 0x00, 0x01, /* bool */
    0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x40, 0x00, 0x00, 0x00, /* float, w 2.0 */
    0xC0, 0x00, 0x00, 0x00, 0x40, 0x40, 0x00, 0x00,                         /* -2.0 .. 3.0 */
    0x00, 0x00, 0x00, 0x00, 0x01, 0x3F, 0x00, 0x00, 0x00,                   /* anim 0: true, 0.5 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* PART SWHC 3rd */
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x0E,                         /* ELSC [0x0E] */
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x0F,                         /* SPSC [0x0F] */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09, /* unknown_a 0, unknown_b 9 */
    0x00, 0x00, 0x00, 0x01, 'R',  'u',  'n',  0x00, /* 1 AABB "Run" */
    0xBF, 0x80, 0x00, 0x00, 0xBF, 0x80, 0x00, 0x00, 0xBF, 0x80, 0x00, 0x00, /* min -1 */
    0x3F, 0x80, 0x00, 0x00, 0x3F, 0x80, 0x00, 0x00, 0x3F, 0x80, 0x00, 0x00, /* max 1 */
    0x00, 0x00, 0x00, 0x01, 'F',  'X',  0x00, 0x00, 0x00, 0x00, 0x01, /* 1 effect "FX", 1 comp */
    'C',  0x00, 'P',  'A',  'R',  'T',  0x00, 0x00, 0x00, 0x10,       /* "C", PART 0x10 */
    0x00, 0x00, 0x00, 0x04, 0x3F, 0x80, 0x00, 0x00,                   /* bone 4, scale 1 */
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02,                   /* parented 1, flags 2 */
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,                   /* frozen none */
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,                   /* ID map [0] */
    0x00, 0x00, 0x00, 0x0C, 0x01, 0x00, 0x00, 0x00, 0x00,       /* CSPP, unknown_c 1, 0 indexed */
    0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 'R',  'u',  'n',  0x00, /* V 4, 1 animation "Run" */
    0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01,             /* Sequence of 1 */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x00, /* Play ANIM 0xA */
    'R',  'u',  'n',  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00,
    0x00, 0x01,                                                             /* 1 transition */
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* unk 1, 0->0 */
    0x00, 0x00, 0x00, 0x01, 0x3E, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* Trans 0.125 */
    0x00, 0x01, 0x00, 0x00, 0x00, 0x02, /* flag 0, run_a 1, flags 2 */
    0x00, 0x00, 0x00, 0x00,             /* default: MetaAnim */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x00, 0x00, /* Play "" */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x3E, 0x80,
    0x00, 0x00, 0x3E, 0xC0, 0x00, 0x00,                                     /* additive */
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,                         /* 1 half, to 0 */
    0x00, 0x00, 0x00, 0x02, 0x3F, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* PhaseTrans */
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,             /* 1 event set */
    0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* EV 2, no bool/int */
    0x00, 0x00, 0x00, 0x01,                                                 /* 1 particle */
    0x00, 0x02, 'P',  0x00, 0x00, 0x05, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x03, 0x01, 0x3F, 0x80, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00,
    0x00, 0x00, 0x00,                                                       /* flags */
    0xFF, 0xFF, 0xFF, 0xFF, 'P',  'A',  'R',  'T',  0x00, 0x00, 0x00, 0x10, /* dur -1, PART 0x10 */
    0x00, 0x00, 0x00, 0x07, 0x3F, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, /* bone 7 */
    0x00, 0x00, 0x00, 0x01,                                                 /* 1 sound */
    0x00, 0x02, 'S',  0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
    0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x3F, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x74, 0x41, 0x20, 0x00, 0x00,       /* sound 0x80000074 */
    0x42, 0xC8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1C, 0xCC, 0x1C, 0xCC, /* 10, 100, extras */
    0x00, 0x00, 0x00, 0x00};

static void test_hand_mp2_full(void **state)
{
    (void)state;
    util_arena a;
    util_arena_init(&a);
    util_err err;
    ancs_set s;
    assert_int_equal(ancs_guess_game(mp2_full, sizeof mp2_full), ANCS_GAME_MP2);
    int rc = ancs_decode(&s, mp2_full, sizeof mp2_full, ANCS_GAME_AUTO, &a, &err);
    if (rc)
        fail_msg("%s @%llu", err.msg, (unsigned long long)err.offset);
    assert_int_equal(s.game, ANCS_GAME_MP2);
    const ancs_character *c = &s.chars[0];
    assert_int_equal(c->version, 10);
    assert_string_equal(c->name, "DS");
    assert_null(c->anim_names[0].unknown);
    assert_string_equal(c->anim_names[0].name, "Run");
    assert_int_equal(c->pas.state_count, 1);
    const ancs_pas_state *st = &c->pas.states[0];
    assert_int_equal(st->state_type, 5);
    assert_int_equal(st->parm_count, 2);
    assert_int_equal(st->parms[0].parm_type, ANCS_PARM_BOOL);
    assert_int_equal(st->parms[0].min, 0);
    assert_int_equal(st->parms[0].max, 1);
    assert_int_equal(st->parms[1].max, 0x40400000);
    assert_true(st->parms[1].weight == 2.0f);
    assert_int_equal(st->anims[0].values[0], 1);
    assert_int_equal(st->anims[0].values[1], 0x3F000000);
    assert_int_equal(c->elsc.ids[0], 0x0E);
    assert_int_equal(c->spsc.ids[0], 0x0F);
    assert_int_equal(c->unknown_b, 9);
    assert_string_equal(c->aabbs[0].name, "Run");
    assert_true(c->aabbs[0].box.min[1] == -1.0f && c->aabbs[0].box.max[2] == 1.0f);
    assert_int_equal(c->effects[0].comps[0].bone_id, 4);
    assert_null(c->effects[0].comps[0].bone_name);
    assert_int_equal(c->effects[0].comps[0].flags, 2);
    assert_int_equal(c->frozen_model_id, 0xFFFFFFFFu);
    assert_int_equal(c->id_map.count, 1);
    assert_int_equal(c->cspp_id, 0x0C);
    assert_int_equal(c->unknown_c, 1);
    const ancs_animset *as = &s.animset;
    assert_int_equal(as->animations[0].meta.type, ANCS_META_SEQUENCE);
    assert_int_equal(as->animations[0].meta.children[0].anim_id, 0x0A);
    assert_int_equal(as->transitions[0].trans.type, ANCS_TRANS_TRANS);
    assert_true(as->transitions[0].trans.duration.time == 0.125f);
    assert_int_equal(as->transitions[0].trans.run_a, 1);
    assert_int_equal(as->transitions[0].trans.flags, 2);
    assert_int_equal(as->default_transition.type, ANCS_TRANS_META_ANIM);
    assert_string_equal(as->default_transition.anim->primitive_name, "");
    assert_true(as->default_fade_in == 0.25f && as->default_fade_out == 0.375f);
    assert_int_equal(as->halfs[0].trans.type, ANCS_TRANS_PHASE_TRANS);
    assert_int_equal(as->halfs[0].trans.unknown_flag, 1);
    assert_int_equal(as->event_set_count, 1);
    const ancs_evnt *e = &as->event_sets[0];
    assert_int_equal(e->particle_count, 1);
    assert_int_equal(e->particles[0].base.unknown_u16, 2);
    assert_int_equal(e->particles[0].base.char_index, -1);
    assert_int_equal(e->particles[0].duration, -1);
    assert_int_equal(e->particles[0].bone_id, 7);
    assert_int_equal(e->sounds[0].sound_id, 0x80000074u);
    assert_int_equal(e->sounds[0].base.char_index, 0);
    assert_int_equal(e->sounds[0].echoes_unknown_b, 0x1CCC);
    assert_int_equal(s.report.trailing_len, 0);
    assert_int_equal(s.report.warning_count, 0);
    util_wr w;
    util_wr_init(&w);
    assert_int_equal(ancs_encode(&w, &s, &err), 0);
    assert_int_equal(w.len, sizeof mp2_full);
    assert_memory_equal(w.buf, mp2_full, sizeof mp2_full);
    util_wr_free(&w);
    util_arena_free(&a);
}

static unsigned n_play;
static void on_play(const ancs_meta_anim *m, void *ctx)
{
    (void)ctx;
    (void)m;
    n_play++;
}

static void test_walk_order(void **state)
{
    (void)state;
    util_arena a;
    util_arena_init(&a);
    util_err err;
    ancs_set s;
    assert_int_equal(ancs_decode(&s, mp2_full, sizeof mp2_full, ANCS_GAME_MP2, &a, &err), 0);
    n_play = 0;
    ancs_meta_anim_walk(&s.animset.animations[0].meta, on_play, NULL);
    assert_int_equal(n_play, 1);
    ancs_meta_trans_walk(&s.animset.default_transition, on_play, NULL);
    assert_int_equal(n_play, 2);
    ancs_meta_trans_walk(&s.animset.transitions[0].trans, on_play, NULL);
    assert_int_equal(n_play, 2);
    assert_int_equal(count_code(&s.report, "x"), 0);
    util_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_char_versions),
        cmocka_unit_test(test_mixed_versions_and_third_list),
        cmocka_unit_test(test_animset_versions),
        cmocka_unit_test(test_meta_types),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_evnt_fixtures),
        cmocka_unit_test(test_hand_mp1_min),
        cmocka_unit_test(test_hand_mp2_full),
        cmocka_unit_test(test_walk_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
