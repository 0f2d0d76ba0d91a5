/* test_ancs_corpus.c — every ANCS and MP1 EVNT of the shared sample corpus, inflated from its
 * PAKs, decoded with the game of its folder and compared field by field with the `content`
 * of truth.json; encode(decode(bytes)) == bytes for every copy. Skips without the corpus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ancs.h"
#include "json_min.h"
#include "pak.h"
#include "testutil.h"

static jm_node *truth;

static const jm_node *need(const jm_node *n, const char *key)
{
    const jm_node *v = jm_get(n, key);
    if (!v)
        fail_msg("truth: missing key '%s'", key);
    return v;
}

static int is_null(const jm_node *n, const char *key)
{
    const jm_node *v = jm_get(n, key);
    return !v || v->type == JM_NULL;
}

static int64_t jint(const jm_node *n, const char *key)
{
    const jm_node *v = need(n, key);
    if (v->type == JM_BOOL)
        return v->boolean;
    if (v->type != JM_NUM || !v->is_int)
        fail_msg("truth: '%s' is not an integer", key);
    return v->i;
}

static int64_t jint_at(const jm_node *n, size_t i)
{
    const jm_node *v = jm_at(n, i);
    assert_non_null(v);
    assert_true(v->type == JM_NUM && v->is_int);
    return v->i;
}

/* Floats in truth are exact single-precision values: compare the bits. */
static void feq(const jm_node *n, const char *key, float got)
{
    const jm_node *v = need(n, key);
    assert_int_equal(v->type, JM_NUM);
    float want = (float)v->num;
    if (memcmp(&want, &got, sizeof got))
        fail_msg("'%s': want %.9g got %.9g", key, (double)want, (double)got);
}

static void feq_node(const jm_node *v, float got)
{
    assert_non_null(v);
    float want = (float)v->num;
    if (memcmp(&want, &got, sizeof got))
        fail_msg("want %.9g got %.9g", (double)want, (double)got);
}

static void ieq(const jm_node *n, const char *key, int64_t got)
{
    int64_t want = jint(n, key);
    if (want != got)
        fail_msg("'%s': want %lld got %lld", key, (long long)want, (long long)got);
}

static void seq(const jm_node *n, const char *key, const char *got)
{
    const jm_node *v = need(n, key);
    assert_int_equal(v->type, JM_STR);
    assert_non_null(got);
    assert_string_equal(v->str, got);
}

static void fourcc_eq(const jm_node *n, const char *key, uint32_t got)
{
    char s[5];
    util_fourcc_str(got, s);
    seq(n, key, s);
}

static void list_eq(const jm_node *n, const char *key, const ancs_id_list *l)
{
    const jm_node *v = need(n, key);
    assert_int_equal(v->type, JM_ARR);
    assert_int_equal(v->count, l->count);
    for (uint32_t i = 0; i < l->count; i++)
        assert_int_equal(jint_at(v, i), l->ids[i]);
}

static void time_eq(const jm_node *t, const ancs_time *got)
{
    feq(t, "time", got->time);
    ieq(t, "differential_state", got->type);
}

static void box_eq(const jm_node *b, const ancs_aabox *got)
{
    const jm_node *mn = need(b, "min"), *mx = need(b, "max");
    for (int i = 0; i < 3; i++) {
        feq_node(jm_at(mn, (size_t)i), got->min[i]);
        feq_node(jm_at(mx, (size_t)i), got->max[i]);
    }
}

static const jm_node *arr(const jm_node *n, const char *key, size_t count)
{
    const jm_node *v = need(n, key);
    if (v->type != JM_ARR)
        fail_msg("'%s' is not an array", key);
    if (v->count != count)
        fail_msg("'%s': want %zu elements got %zu", key, v->count, count);
    return v;
}

/* ---- events --------------------------------------------------------------------------- */

static void poi_eq(const jm_node *n, const ancs_poi *p)
{
    const jm_node *b = need(n, "base");
    ieq(b, "unk_1", p->unknown_u16);
    seq(b, "name", p->name);
    ieq(b, "type", p->poi_type);
    time_eq(need(b, "timestamp"), &p->time);
    ieq(b, "index", p->index);
    ieq(b, "unique", p->unique);
    feq(b, "weight", p->weight);
    ieq(b, "character_index", p->char_index);
    ieq(b, "flags", p->flags);
}

static void evnt_eq(const jm_node *j, const ancs_evnt *e, ancs_game game)
{
    ieq(j, "version", e->version);
    const jm_node *a = arr(j, "bool_poi_nodes", e->bool_count);
    for (uint32_t i = 0; i < e->bool_count; i++) {
        poi_eq(jm_at(a, i), &e->bools[i].base);
        ieq(jm_at(a, i), "value", e->bools[i].value);
    }
    a = arr(j, "int32_poi_nodes", e->int32_count);
    for (uint32_t i = 0; i < e->int32_count; i++) {
        poi_eq(jm_at(a, i), &e->int32s[i].base);
        ieq(jm_at(a, i), "value", e->int32s[i].value);
        seq(jm_at(a, i), "locator_name", e->int32s[i].locator_name);
    }
    a = arr(j, "particle_poi_nodes", e->particle_count);
    for (uint32_t i = 0; i < e->particle_count; i++) {
        const jm_node *n = jm_at(a, i);
        const ancs_poi_particle *p = &e->particles[i];
        poi_eq(n, &p->base);
        ieq(n, "duration", p->duration);
        fourcc_eq(need(n, "particle"), "type", p->particle_type);
        ieq(need(n, "particle"), "id", p->particle_id);
        if (game == ANCS_GAME_MP2) {
            assert_true(is_null(n, "bone_name"));
            ieq(n, "bone_id", p->bone_id);
        } else {
            seq(n, "bone_name", p->bone_name);
            assert_true(is_null(n, "bone_id"));
        }
        feq(n, "effect_scale", p->scale);
        ieq(n, "transform_type", p->parented_mode);
    }
    if (e->version < 2) {
        const jm_node *s = jm_get(j, "sound_poi_nodes");
        assert_true(!s || s->type == JM_NULL || (s->type == JM_ARR && s->count == 0));
        assert_int_equal(e->sound_count, 0);
        return;
    }
    a = arr(j, "sound_poi_nodes", e->sound_count);
    for (uint32_t i = 0; i < e->sound_count; i++) {
        const jm_node *n = jm_at(a, i);
        const ancs_poi_sound *s = &e->sounds[i];
        poi_eq(n, &s->base);
        ieq(n, "sound_id", s->sound_id);
        feq(n, "fall_off", s->falloff);
        feq(n, "max_distance", s->max_distance);
        if (game == ANCS_GAME_MP2) {
            const jm_node *x = need(n, "echoes");
            ieq(x, "unk_a", s->echoes_unknown_a);
            ieq(x, "unk_b", s->echoes_unknown_b);
            ieq(x, "unk_c", s->echoes_unknown_c);
            feq(x, "unk_d", s->echoes_unknown_d);
        } else {
            assert_true(is_null(n, "echoes"));
        }
    }
}

/* ---- meta trees ----------------------------------------------------------------------- */

static void meta_eq(const jm_node *j, const ancs_meta_anim *m)
{
    ieq(j, "type", m->type);
    const jm_node *b = need(j, "body");
    switch (m->type) {
    case ANCS_META_PLAY:
        ieq(b, "asset_id", m->anim_id);
        ieq(b, "primitive_id", m->primitive_id);
        seq(b, "name", m->primitive_name);
        time_eq(need(b, "unknown"), &m->start_time);
        break;
    case ANCS_META_BLEND:
    case ANCS_META_PHASE_BLEND:
        meta_eq(need(b, "anim_a"), &m->children[0]);
        meta_eq(need(b, "anim_b"), &m->children[1]);
        feq(b, "unknown_1", m->blend_weight);
        ieq(b, "unknown_2", m->unknown_flag);
        break;
    case ANCS_META_RANDOM:
        assert_int_equal(b->type, JM_ARR);
        assert_int_equal(b->count, m->child_count);
        for (uint32_t i = 0; i < m->child_count; i++) {
            meta_eq(need(jm_at(b, i), "animation"), &m->children[i]);
            ieq(jm_at(b, i), "probability", m->probabilities[i]);
        }
        break;
    default:
        assert_int_equal(b->type, JM_ARR);
        assert_int_equal(b->count, m->child_count);
        for (uint32_t i = 0; i < m->child_count; i++)
            meta_eq(jm_at(b, i), &m->children[i]);
    }
}

static void trans_eq(const jm_node *j, const ancs_meta_trans *t)
{
    ieq(j, "type", t->type);
    const jm_node *b = need(j, "body");
    if (t->type == ANCS_TRANS_META_ANIM) {
        meta_eq(b, t->anim);
    } else if (t->type == ANCS_TRANS_TRANS || t->type == ANCS_TRANS_PHASE_TRANS) {
        feq(b, "duration_time", t->duration.time);
        ieq(b, "duration_time_mode", t->duration.type);
        ieq(b, "unknown_2", t->unknown_flag);
        ieq(b, "run_a", t->run_a);
        ieq(b, "flags", t->flags);
    } else {
        assert_int_equal(b->type, JM_OBJ);
        assert_int_equal(b->count, 0);
    }
}

/* ---- character ------------------------------------------------------------------------ */

static void pas_value_eq(const jm_node *v, int32_t type, uint32_t got)
{
    assert_non_null(v);
    float f;
    switch (type) {
    case ANCS_PARM_FLOAT:
        memcpy(&f, &got, sizeof f);
        feq_node(v, f);
        break;
    case ANCS_PARM_INT32:
    case ANCS_PARM_ENUM:
        assert_true(v->is_int);
        assert_int_equal(v->i, (int32_t)got);
        break;
    case ANCS_PARM_UINT32:
    case ANCS_PARM_BOOL:
        assert_true(v->type == JM_BOOL ? 1 : v->is_int);
        assert_int_equal(v->type == JM_BOOL ? v->boolean : v->i, got);
        break;
    default:
        assert_true(v->type == JM_NULL);
    }
}

static void char_eq(const jm_node *j, const ancs_character *c, ancs_game game)
{
    unsigned T = c->version;
    ieq(j, "id", c->char_id);
    ieq(j, "version", c->version);
    seq(j, "name", c->name);
    ieq(j, "model_id", c->model_id);
    ieq(j, "skin_id", c->skin_id);
    ieq(j, "skeleton_id", c->skeleton_id);
    const jm_node *a = arr(j, "animation_names", c->anim_name_count);
    for (uint32_t i = 0; i < c->anim_name_count; i++) {
        const jm_node *n = jm_at(a, i);
        ieq(n, "animation_id", c->anim_names[i].anim_id);
        if (game == ANCS_GAME_MP2) {
            assert_true(is_null(n, "unknown"));
            assert_null(c->anim_names[i].unknown);
        } else {
            seq(n, "unknown", c->anim_names[i].unknown);
        }
        seq(n, "name", c->anim_names[i].name);
    }
    const jm_node *pas = need(j, "pas_database");
    fourcc_eq(pas, "magic", c->pas.magic);
    ieq(pas, "default_anim_state", c->pas.default_state);
    a = arr(pas, "anim_states", c->pas.state_count);
    for (uint32_t i = 0; i < c->pas.state_count; i++) {
        const jm_node *sj = jm_at(a, i);
        const ancs_pas_state *s = &c->pas.states[i];
        ieq(sj, "anim_state_type", s->state_type);
        const jm_node *pa = arr(sj, "parm_info_array", s->parm_count);
        for (uint32_t k = 0; k < s->parm_count; k++) {
            const jm_node *pj = jm_at(pa, k);
            ieq(pj, "parm_type", s->parms[k].parm_type);
            ieq(pj, "weight_function", s->parms[k].weight_function);
            feq(pj, "weight", s->parms[k].weight);
            pas_value_eq(need(pj, "minimum_value"), s->parms[k].parm_type, s->parms[k].min);
            pas_value_eq(need(pj, "maximum_value"), s->parms[k].parm_type, s->parms[k].max);
        }
        const jm_node *ia = arr(sj, "anim_info_array", s->anim_count);
        for (uint32_t k = 0; k < s->anim_count; k++) {
            const jm_node *ij = jm_at(ia, k);
            ieq(ij, "anim_id", s->anims[k].anim_id);
            const jm_node *vals = arr(ij, "parm_values", s->parm_count);
            for (uint32_t q = 0; q < s->parm_count; q++)
                pas_value_eq(jm_at(vals, q), s->parms[q].parm_type, s->anims[k].values[q]);
        }
    }
    const jm_node *pr = need(j, "particle_resource_data");
    list_eq(pr, "generic_particles", &c->part);
    list_eq(pr, "swoosh_particles", &c->swhc);
    if (ANCS_HAS_THIRD_LIST(T))
        list_eq(pr, "third_list", &c->third);
    else
        assert_true(is_null(pr, "third_list"));
    list_eq(pr, "electric_particles", &c->elsc);
    if (ANCS_HAS_MP2_FIELDS(T))
        list_eq(pr, "spawn_particles", &c->spsc);
    else
        assert_true(is_null(pr, "spawn_particles"));
    ieq(j, "unknown_1", c->unknown_a);
    if (ANCS_HAS_MP2_FIELDS(T))
        ieq(j, "unknown_2", c->unknown_b);
    else
        assert_true(is_null(j, "unknown_2"));
    if (ANCS_HAS_AABBS(T)) {
        a = arr(j, "animation_aabb_array", c->aabb_count);
        for (uint32_t i = 0; i < c->aabb_count; i++) {
            seq(jm_at(a, i), "name", c->aabbs[i].name);
            box_eq(need(jm_at(a, i), "bounding_box"), &c->aabbs[i].box);
        }
    } else {
        assert_true(is_null(j, "animation_aabb_array"));
    }
    if (ANCS_HAS_EFFECTS(T)) {
        a = arr(j, "effect_array", c->effect_count);
        for (uint32_t i = 0; i < c->effect_count; i++) {
            const ancs_effect *e = &c->effects[i];
            seq(jm_at(a, i), "name", e->name);
            const jm_node *ca = arr(jm_at(a, i), "components", e->comp_count);
            for (uint32_t k = 0; k < e->comp_count; k++) {
                const jm_node *n = jm_at(ca, k);
                const ancs_effect_comp *q = &e->comps[k];
                seq(n, "name", q->name);
                fourcc_eq(need(n, "particle"), "type", q->particle_type);
                ieq(need(n, "particle"), "id", q->particle_id);
                if (game == ANCS_GAME_MP2)
                    ieq(n, "bone_id", q->bone_id);
                else
                    seq(n, "bone_name", q->bone_name);
                feq(n, "scale", q->scale);
                ieq(n, "parented_mode", q->parented_mode);
                ieq(n, "flags", q->flags);
            }
        }
    } else {
        assert_true(is_null(j, "effect_array"));
    }
    if (ANCS_HAS_FROZEN(T)) {
        ieq(j, "frozen_model", c->frozen_model_id);
        ieq(j, "frozen_skin", c->frozen_skin_id);
    } else {
        assert_true(is_null(j, "frozen_model") && is_null(j, "frozen_skin"));
    }
    if (ANCS_HAS_ID_MAP(T))
        list_eq(j, "animation_id_map", &c->id_map);
    else
        assert_true(is_null(j, "animation_id_map"));
    if (ANCS_HAS_MP2_FIELDS(T)) {
        ieq(j, "spatial_primitives_id", c->cspp_id);
        ieq(j, "unknown_3", c->unknown_c);
        a = arr(j, "indexed_animation_aabb_array", c->indexed_aabb_count);
        for (uint32_t i = 0; i < c->indexed_aabb_count; i++) {
            ieq(jm_at(a, i), "id", c->indexed_aabbs[i].anim_id);
            box_eq(need(jm_at(a, i), "bounding_box"), &c->indexed_aabbs[i].box);
        }
    } else {
        assert_true(is_null(j, "spatial_primitives_id") && is_null(j, "unknown_3") &&
                    is_null(j, "indexed_animation_aabb_array"));
    }
}

static void set_eq(const jm_node *j, const ancs_set *s)
{
    ieq(j, "version", s->version);
    const jm_node *cs = need(j, "character_set");
    ieq(cs, "version", s->charset_version);
    const jm_node *chars = arr(cs, "characters", s->char_count);
    for (uint32_t i = 0; i < s->char_count; i++)
        char_eq(jm_at(chars, i), &s->chars[i], s->game);

    const jm_node *as = need(j, "animation_set");
    const ancs_animset *a = &s->animset;
    ieq(as, "table_count", a->version);
    const jm_node *v = arr(as, "animations", a->animation_count);
    for (uint32_t i = 0; i < a->animation_count; i++) {
        seq(jm_at(v, i), "name", a->animations[i].name);
        meta_eq(need(jm_at(v, i), "meta"), &a->animations[i].meta);
    }
    v = arr(as, "transitions", a->transition_count);
    for (uint32_t i = 0; i < a->transition_count; i++) {
        const jm_node *t = jm_at(v, i);
        ieq(t, "unknown", a->transitions[i].unknown_id);
        ieq(t, "animation_id_a", a->transitions[i].anim_a);
        ieq(t, "animation_id_b", a->transitions[i].anim_b);
        trans_eq(need(t, "transition"), &a->transitions[i].trans);
    }
    trans_eq(need(as, "default_transition"), &a->default_transition);
    if (ANCS_SET_HAS_ADDITIVE(a->version)) {
        const jm_node *ad = need(as, "additive");
        v = arr(ad, "additive_animations", a->additive_count);
        for (uint32_t i = 0; i < a->additive_count; i++) {
            ieq(jm_at(v, i), "animation_id", a->additives[i].anim_index);
            feq(jm_at(v, i), "fade_in_time", a->additives[i].fade_in);
            feq(jm_at(v, i), "fade_out_time", a->additives[i].fade_out);
        }
        feq(ad, "default_fade_in_time", a->default_fade_in);
        feq(ad, "default_fade_out_time", a->default_fade_out);
    } else {
        assert_true(is_null(as, "additive"));
    }
    if (ANCS_SET_HAS_HALF(a->version)) {
        v = arr(as, "half_transitions", a->half_count);
        for (uint32_t i = 0; i < a->half_count; i++) {
            ieq(jm_at(v, i), "animation_id", a->halfs[i].anim);
            trans_eq(need(jm_at(v, i), "transition"), &a->halfs[i].trans);
        }
    } else {
        assert_true(is_null(as, "half_transitions"));
    }
    if (ANCS_SET_HAS_TAIL(a->version) && s->game == ANCS_GAME_MP1) {
        v = arr(as, "animation_resources", a->pair_count);
        for (uint32_t i = 0; i < a->pair_count; i++) {
            ieq(jm_at(v, i), "anim_id", a->pairs[i].anim_id);
            ieq(jm_at(v, i), "event_id", a->pairs[i].evnt_id);
        }
        assert_true(is_null(as, "event_sets"));
    } else if (ANCS_SET_HAS_TAIL(a->version)) {
        v = arr(as, "event_sets", a->event_set_count);
        for (uint32_t i = 0; i < a->event_set_count; i++)
            evnt_eq(jm_at(v, i), &a->event_sets[i], ANCS_GAME_MP2);
        assert_true(is_null(as, "animation_resources"));
    } else {
        assert_true(is_null(as, "animation_resources") && is_null(as, "event_sets"));
    }
}

/* ---- driving ---------------------------------------------------------------------------- */

/* Inflate the entry at table index `index` of corpus/<game>/<pak>; caller free()s. */
static uint8_t *load_entry(const char *game, const char *pak, uint32_t index, uint32_t id,
                           size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s", tu_corpus_dir(), game, pak);
    return tu_pak_entry(path, index, id, 0, len);
}

static void check_round_trip(const uint8_t *b, size_t n, const util_wr *w)
{
    assert_int_equal(w->len, n);
    assert_memory_equal(w->buf, b, n);
}

static void run_game(const char *gname, ancs_game game, int *seen_ancs, int *seen_evnt)
{
    const jm_node *g = need(need(truth, "games"), gname);
    const jm_node *list = need(g, "ancs");
    for (size_t k = 0; k < list->count; k++) {
        const jm_node *an = jm_at(list, k);
        uint32_t id = (uint32_t)jint(an, "id");
        const jm_node *entries = need(an, "entries");
        for (size_t e = 0; e < entries->count; e++) {
            const jm_node *en = jm_at(entries, e);
            size_t n = 0;
            uint8_t *b =
                load_entry(gname, need(en, "pak")->str, (uint32_t)jint(en, "index"), id, &n);
            util_arena a;
            util_arena_init(&a);
            util_err err;
            ancs_set s;
            if (ancs_decode(&s, b, n, game, &a, &err))
                fail_msg("ANCS %08X: %s @%llu", id, err.msg, (unsigned long long)err.offset);
            assert_int_equal(s.report.consumed, (size_t)jint(an, "size"));
            if (e == 0) {
                set_eq(need(an, "content"), &s);
                (*seen_ancs)++;
            }
            util_wr w;
            util_wr_init(&w);
            assert_int_equal(ancs_encode(&w, &s, &err), 0);
            check_round_trip(b, n, &w);
            util_wr_free(&w);
            util_arena_free(&a);
            free(b);
        }
    }
    const jm_node *ev = jm_get(g, "evnt");
    for (size_t k = 0; ev && ev->type == JM_ARR && k < ev->count; k++) {
        const jm_node *en0 = jm_at(ev, k);
        uint32_t id = (uint32_t)jint(en0, "id");
        const jm_node *entries = need(en0, "entries");
        for (size_t e = 0; e < entries->count; e++) {
            const jm_node *en = jm_at(entries, e);
            size_t n = 0;
            uint8_t *b =
                load_entry(gname, need(en, "pak")->str, (uint32_t)jint(en, "index"), id, &n);
            util_arena a;
            util_arena_init(&a);
            util_err err;
            ancs_evnt_file f;
            if (ancs_evnt_decode(&f, b, n, game, &a, &err))
                fail_msg("EVNT %08X: %s @%llu", id, err.msg, (unsigned long long)err.offset);
            assert_int_equal(f.report.consumed, (size_t)jint(en0, "size"));
            if (e == 0) {
                evnt_eq(need(en0, "content"), &f.evnt, game);
                (*seen_evnt)++;
            }
            util_wr w;
            util_wr_init(&w);
            assert_int_equal(ancs_evnt_encode(&w, &f, &err), 0);
            check_round_trip(b, n, &w);
            util_wr_free(&w);
            util_arena_free(&a);
            free(b);
        }
    }
}

static int setup(void **state)
{
    (void)state;
    int failed;
    truth = tu_truth_load(&failed);
    return failed ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    jm_free(truth);
    truth = NULL;
    return 0;
}

static void test_mp1(void **state)
{
    (void)state;
    if (!truth)
        TU_SKIP();
    int na = 0, ne = 0;
    run_game("mp1", ANCS_GAME_MP1, &na, &ne);
    assert_int_equal(na, (int)need(need(need(truth, "games"), "mp1"), "ancs")->count);
    assert_true(na > 0);
    assert_true(ne > 0);
}

static void test_mp2(void **state)
{
    (void)state;
    if (!truth)
        TU_SKIP();
    int na = 0, ne = 0;
    run_game("mp2", ANCS_GAME_MP2, &na, &ne);
    assert_true(na > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mp1),
        cmocka_unit_test(test_mp2),
    };
    return tu_status(cmocka_run_group_tests(tests, setup, teardown));
}
