/* ancs_encode.c — structs back to ANCS / EVNT bytes: the exact mirror of ancs_decode.c
 * (docs/formats.md §4.15 grammar), so encode(decode(x)) == x for every x that decodes, trailing
 * bytes included. NULL strings are written as empty strings. */
#include "ancs.h"

#include <string.h>

typedef struct enc {
    util_wr *w;
    util_err *err;
    ancs_game game;
} enc;

static int bad(enc *e, const char *what)
{
    return util_fail(e->err, UTIL_EFORMAT, UINT64_MAX, "cannot encode: %s", what);
}

/* A count with a NULL array is a caller bug; refuse rather than crash. */
#define CHECK_ARR(e, n, p, what)                                                                   \
    do {                                                                                           \
        if ((n) && !(p))                                                                           \
            return bad((e), what " count without array");                                          \
    } while (0)

/* Floats go out as their stored bit pattern (NaN payloads included): no float arithmetic. */
static void wr_f32(util_wr *w, const float *f)
{
    uint32_t u;
    memcpy(&u, f, sizeof u);
    util_wr_u32(w, u);
}

static void wr_time(util_wr *w, const ancs_time *t)
{
    wr_f32(w, &t->time);
    util_wr_u32(w, t->type);
}

static void wr_box(util_wr *w, const ancs_aabox *b)
{
    for (int i = 0; i < 3; i++)
        wr_f32(w, &b->min[i]);
    for (int i = 0; i < 3; i++)
        wr_f32(w, &b->max[i]);
}

static int wr_id_list(enc *e, const ancs_id_list *l)
{
    CHECK_ARR(e, l->count, l->ids, "ID list");
    util_wr_u32(e->w, l->count);
    for (uint32_t i = 0; i < l->count; i++)
        util_wr_u32(e->w, l->ids[i]);
    return 0;
}

/* ---- EVNT ----------------------------------------------------------------------------- */

static void wr_poi(util_wr *w, const ancs_poi *p)
{
    util_wr_u16(w, p->unknown_u16);
    util_wr_cstr(w, p->name);
    util_wr_u16(w, p->poi_type);
    wr_time(w, &p->time);
    util_wr_u32(w, p->index);
    util_wr_u8(w, p->unique);
    wr_f32(w, &p->weight);
    util_wr_s32(w, p->char_index);
    util_wr_u32(w, p->flags);
}

static int enc_evnt(enc *e, const ancs_evnt *ev)
{
    util_wr *w = e->w;
    int mp2 = e->game == ANCS_GAME_MP2;
    CHECK_ARR(e, ev->bool_count, ev->bools, "bool node");
    CHECK_ARR(e, ev->int32_count, ev->int32s, "int32 node");
    CHECK_ARR(e, ev->particle_count, ev->particles, "particle node");
    util_wr_u32(w, ev->version);
    util_wr_u32(w, ev->bool_count);
    for (uint32_t i = 0; i < ev->bool_count; i++) {
        wr_poi(w, &ev->bools[i].base);
        util_wr_u8(w, ev->bools[i].value);
    }
    util_wr_u32(w, ev->int32_count);
    for (uint32_t i = 0; i < ev->int32_count; i++) {
        wr_poi(w, &ev->int32s[i].base);
        util_wr_s32(w, ev->int32s[i].value);
        util_wr_cstr(w, ev->int32s[i].locator_name);
    }
    util_wr_u32(w, ev->particle_count);
    for (uint32_t i = 0; i < ev->particle_count; i++) {
        const ancs_poi_particle *n = &ev->particles[i];
        wr_poi(w, &n->base);
        util_wr_s32(w, n->duration);
        util_wr_u32(w, n->particle_type);
        util_wr_u32(w, n->particle_id);
        if (mp2)
            util_wr_u32(w, n->bone_id);
        else
            util_wr_cstr(w, n->bone_name);
        wr_f32(w, &n->scale);
        util_wr_u32(w, n->parented_mode);
    }
    if (ev->version >= 2) {
        CHECK_ARR(e, ev->sound_count, ev->sounds, "sound node");
        util_wr_u32(w, ev->sound_count);
        for (uint32_t i = 0; i < ev->sound_count; i++) {
            const ancs_poi_sound *n = &ev->sounds[i];
            wr_poi(w, &n->base);
            util_wr_u32(w, n->sound_id);
            wr_f32(w, &n->falloff);
            wr_f32(w, &n->max_distance);
            if (mp2) {
                util_wr_u32(w, n->echoes_unknown_a);
                util_wr_u16(w, n->echoes_unknown_b);
                util_wr_u16(w, n->echoes_unknown_c);
                wr_f32(w, &n->echoes_unknown_d);
            }
        }
    }
    return 0;
}

/* ---- meta trees ----------------------------------------------------------------------- */

static int enc_meta_anim(enc *e, const ancs_meta_anim *m, unsigned depth);

static int enc_meta_trans(enc *e, const ancs_meta_trans *t, unsigned depth)
{
    if (depth > ANCS_MAX_DEPTH)
        return bad(e, "meta-transition nested deeper than ANCS_MAX_DEPTH");
    util_wr_u32(e->w, t->type);
    switch (t->type) {
    case ANCS_TRANS_META_ANIM:
        if (!t->anim)
            return bad(e, "meta-transition of type 0 without its meta-animation");
        return enc_meta_anim(e, t->anim, depth + 1);
    case ANCS_TRANS_TRANS:
    case ANCS_TRANS_PHASE_TRANS:
        wr_time(e->w, &t->duration);
        util_wr_u8(e->w, t->unknown_flag);
        util_wr_u8(e->w, t->run_a);
        util_wr_u32(e->w, t->flags);
        return 0;
    case ANCS_TRANS_SNAP:
        return 0;
    default:
        return bad(e, "unknown meta-transition type");
    }
}

static int enc_meta_anim(enc *e, const ancs_meta_anim *m, unsigned depth)
{
    if (depth > ANCS_MAX_DEPTH)
        return bad(e, "meta-animation nested deeper than ANCS_MAX_DEPTH");
    util_wr *w = e->w;
    util_wr_u32(w, m->type);
    switch (m->type) {
    case ANCS_META_PLAY:
        util_wr_u32(w, m->anim_id);
        util_wr_u32(w, m->primitive_id);
        util_wr_cstr(w, m->primitive_name);
        wr_time(w, &m->start_time);
        return 0;
    case ANCS_META_BLEND:
    case ANCS_META_PHASE_BLEND:
        if (m->child_count != 2 || !m->children)
            return bad(e, "blend meta-animation needs exactly two children");
        TRY(enc_meta_anim(e, &m->children[0], depth + 1));
        TRY(enc_meta_anim(e, &m->children[1], depth + 1));
        wr_f32(w, &m->blend_weight);
        util_wr_u8(w, m->unknown_flag);
        return 0;
    case ANCS_META_RANDOM:
        CHECK_ARR(e, m->child_count, m->children, "random child");
        CHECK_ARR(e, m->child_count, m->probabilities, "random probability");
        util_wr_u32(w, m->child_count);
        for (uint32_t i = 0; i < m->child_count; i++) {
            TRY(enc_meta_anim(e, &m->children[i], depth + 1));
            util_wr_u32(w, m->probabilities[i]);
        }
        return 0;
    case ANCS_META_SEQUENCE:
        CHECK_ARR(e, m->child_count, m->children, "sequence child");
        util_wr_u32(w, m->child_count);
        for (uint32_t i = 0; i < m->child_count; i++)
            TRY(enc_meta_anim(e, &m->children[i], depth + 1));
        return 0;
    default:
        return bad(e, "unknown meta-animation type");
    }
}

/* ---- character ------------------------------------------------------------------------ */

static void wr_pas_value(util_wr *w, int32_t type, uint32_t v)
{
    switch (type) {
    case ANCS_PARM_INT32:
    case ANCS_PARM_UINT32:
    case ANCS_PARM_FLOAT:
    case ANCS_PARM_ENUM:
        util_wr_u32(w, v);
        break;
    case ANCS_PARM_BOOL:
        util_wr_u8(w, (uint8_t)v);
        break;
    default:
        break;
    }
}

static int enc_pas(enc *e, const ancs_pas *p)
{
    util_wr *w = e->w;
    CHECK_ARR(e, p->state_count, p->states, "PAS state");
    util_wr_u32(w, p->magic);
    util_wr_u32(w, p->state_count);
    util_wr_s32(w, p->default_state);
    for (uint32_t i = 0; i < p->state_count; i++) {
        const ancs_pas_state *s = &p->states[i];
        CHECK_ARR(e, s->parm_count, s->parms, "PAS parm");
        CHECK_ARR(e, s->anim_count, s->anims, "PAS anim");
        util_wr_s32(w, s->state_type);
        util_wr_u32(w, s->parm_count);
        util_wr_u32(w, s->anim_count);
        for (uint32_t j = 0; j < s->parm_count; j++) {
            const ancs_pas_parm *q = &s->parms[j];
            util_wr_s32(w, q->parm_type);
            util_wr_s32(w, q->weight_function);
            wr_f32(w, &q->weight);
            wr_pas_value(w, q->parm_type, q->min);
            wr_pas_value(w, q->parm_type, q->max);
        }
        for (uint32_t k = 0; k < s->anim_count; k++) {
            CHECK_ARR(e, s->parm_count, s->anims[k].values, "PAS value");
            util_wr_u32(w, s->anims[k].anim_id);
            for (uint32_t j = 0; j < s->parm_count; j++)
                wr_pas_value(w, s->parms[j].parm_type, s->anims[k].values[j]);
        }
    }
    return 0;
}

static int enc_character(enc *e, const ancs_character *c)
{
    util_wr *w = e->w;
    int mp2 = e->game == ANCS_GAME_MP2;
    unsigned T = c->version;
    util_wr_u32(w, c->char_id);
    util_wr_u16(w, c->version);
    util_wr_cstr(w, c->name);
    util_wr_u32(w, c->model_id);
    util_wr_u32(w, c->skin_id);
    util_wr_u32(w, c->skeleton_id);
    CHECK_ARR(e, c->anim_name_count, c->anim_names, "animation name");
    util_wr_u32(w, c->anim_name_count);
    for (uint32_t i = 0; i < c->anim_name_count; i++) {
        util_wr_u32(w, c->anim_names[i].anim_id);
        if (!mp2)
            util_wr_cstr(w, c->anim_names[i].unknown);
        util_wr_cstr(w, c->anim_names[i].name);
    }
    TRY(enc_pas(e, &c->pas));
    TRY(wr_id_list(e, &c->part));
    TRY(wr_id_list(e, &c->swhc));
    if (ANCS_HAS_THIRD_LIST(T))
        TRY(wr_id_list(e, &c->third));
    TRY(wr_id_list(e, &c->elsc));
    if (ANCS_HAS_MP2_FIELDS(T))
        TRY(wr_id_list(e, &c->spsc));
    util_wr_u32(w, c->unknown_a);
    if (ANCS_HAS_MP2_FIELDS(T))
        util_wr_u32(w, c->unknown_b);
    if (ANCS_HAS_AABBS(T)) {
        CHECK_ARR(e, c->aabb_count, c->aabbs, "animation AABB");
        util_wr_u32(w, c->aabb_count);
        for (uint32_t i = 0; i < c->aabb_count; i++) {
            util_wr_cstr(w, c->aabbs[i].name);
            wr_box(w, &c->aabbs[i].box);
        }
    }
    if (ANCS_HAS_EFFECTS(T)) {
        CHECK_ARR(e, c->effect_count, c->effects, "effect");
        util_wr_u32(w, c->effect_count);
        for (uint32_t i = 0; i < c->effect_count; i++) {
            const ancs_effect *ef = &c->effects[i];
            CHECK_ARR(e, ef->comp_count, ef->comps, "effect component");
            util_wr_cstr(w, ef->name);
            util_wr_u32(w, ef->comp_count);
            for (uint32_t j = 0; j < ef->comp_count; j++) {
                const ancs_effect_comp *k = &ef->comps[j];
                util_wr_cstr(w, k->name);
                util_wr_u32(w, k->particle_type);
                util_wr_u32(w, k->particle_id);
                if (mp2)
                    util_wr_u32(w, k->bone_id);
                else
                    util_wr_cstr(w, k->bone_name);
                wr_f32(w, &k->scale);
                util_wr_u32(w, k->parented_mode);
                util_wr_u32(w, k->flags);
            }
        }
    }
    if (ANCS_HAS_FROZEN(T)) {
        util_wr_u32(w, c->frozen_model_id);
        util_wr_u32(w, c->frozen_skin_id);
    }
    if (ANCS_HAS_ID_MAP(T))
        TRY(wr_id_list(e, &c->id_map));
    if (ANCS_HAS_MP2_FIELDS(T)) {
        util_wr_u32(w, c->cspp_id);
        util_wr_u8(w, c->unknown_c);
        CHECK_ARR(e, c->indexed_aabb_count, c->indexed_aabbs, "indexed AABB");
        util_wr_u32(w, c->indexed_aabb_count);
        for (uint32_t i = 0; i < c->indexed_aabb_count; i++) {
            util_wr_u32(w, c->indexed_aabbs[i].anim_id);
            wr_box(w, &c->indexed_aabbs[i].box);
        }
    }
    return 0;
}

static int enc_animset(enc *e, const ancs_animset *s)
{
    util_wr *w = e->w;
    unsigned V = s->version;
    CHECK_ARR(e, s->animation_count, s->animations, "animation");
    CHECK_ARR(e, s->transition_count, s->transitions, "transition");
    util_wr_u16(w, s->version);
    util_wr_u32(w, s->animation_count);
    for (uint32_t i = 0; i < s->animation_count; i++) {
        util_wr_cstr(w, s->animations[i].name);
        TRY(enc_meta_anim(e, &s->animations[i].meta, 1));
    }
    util_wr_u32(w, s->transition_count);
    for (uint32_t i = 0; i < s->transition_count; i++) {
        const ancs_transition *t = &s->transitions[i];
        util_wr_u32(w, t->unknown_id);
        util_wr_u32(w, t->anim_a);
        util_wr_u32(w, t->anim_b);
        TRY(enc_meta_trans(e, &t->trans, 1));
    }
    TRY(enc_meta_trans(e, &s->default_transition, 1));
    if (ANCS_SET_HAS_ADDITIVE(V)) {
        CHECK_ARR(e, s->additive_count, s->additives, "additive animation");
        util_wr_u32(w, s->additive_count);
        for (uint32_t i = 0; i < s->additive_count; i++) {
            util_wr_u32(w, s->additives[i].anim_index);
            wr_f32(w, &s->additives[i].fade_in);
            wr_f32(w, &s->additives[i].fade_out);
        }
        wr_f32(w, &s->default_fade_in);
        wr_f32(w, &s->default_fade_out);
    }
    if (ANCS_SET_HAS_HALF(V)) {
        CHECK_ARR(e, s->half_count, s->halfs, "half transition");
        util_wr_u32(w, s->half_count);
        for (uint32_t i = 0; i < s->half_count; i++) {
            util_wr_u32(w, s->halfs[i].anim);
            TRY(enc_meta_trans(e, &s->halfs[i].trans, 1));
        }
    }
    if (ANCS_SET_HAS_TAIL(V)) {
        if (e->game == ANCS_GAME_MP2) {
            CHECK_ARR(e, s->event_set_count, s->event_sets, "event set");
            util_wr_u32(w, s->event_set_count);
            for (uint32_t i = 0; i < s->event_set_count; i++)
                TRY(enc_evnt(e, &s->event_sets[i]));
        } else {
            CHECK_ARR(e, s->pair_count, s->pairs, "resource pair");
            util_wr_u32(w, s->pair_count);
            for (uint32_t i = 0; i < s->pair_count; i++) {
                util_wr_u32(w, s->pairs[i].anim_id);
                util_wr_u32(w, s->pairs[i].evnt_id);
            }
        }
    }
    return 0;
}

static int wr_trailing(enc *e, const ancs_report *rep)
{
    if (rep->trailing_len && !rep->trailing)
        return bad(e, "trailing length without bytes");
    util_wr_bytes(e->w, rep->trailing, rep->trailing_len);
    return 0;
}

int ancs_encode(util_wr *w, const ancs_set *set, util_err *err)
{
    enc e = {w, err, set->game};
    if (e.game != ANCS_GAME_MP1 && e.game != ANCS_GAME_MP2)
        e.game = set->char_count && set->chars && set->chars[0].version == 10 ? ANCS_GAME_MP2
                                                                              : ANCS_GAME_MP1;
    CHECK_ARR(&e, set->char_count, set->chars, "character");
    util_wr_u16(w, set->version);
    util_wr_u16(w, set->charset_version);
    util_wr_u32(w, set->char_count);
    for (uint32_t i = 0; i < set->char_count; i++)
        TRY(enc_character(&e, &set->chars[i]));
    TRY(enc_animset(&e, &set->animset));
    TRY(wr_trailing(&e, &set->report));
    return util_wr_status(w, err);
}

int ancs_evnt_encode(util_wr *w, const ancs_evnt_file *ev, util_err *err)
{
    enc e = {w, err, ev->game == ANCS_GAME_MP2 ? ANCS_GAME_MP2 : ANCS_GAME_MP1};
    TRY(enc_evnt(&e, &ev->evnt));
    TRY(wr_trailing(&e, &ev->report));
    return util_wr_status(w, err);
}
