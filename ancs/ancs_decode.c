/* ancs_decode.c — ANCS and EVNT bytes to structs (docs/formats.md §4–5, resolutions of §8).
 *
 * The input is copied once into the arena; strings and the trailing bytes point into that
 * copy. One cursor walks the copy in exactly the order of the §4.15 grammar.
 *
 * Count errors: a count that cannot fit in the bytes left (count > left / min_size, minimum
 * sizes from §4.16 and §5.4) fails UTIL_ETRUNC with the offset of the byte just AFTER the
 * count field, i.e. where the first element would start (for a PAS state's parm and anim
 * counts, which are adjacent, that is after both counts), before anything is allocated. */
#include "ancs.h"

#include <string.h>

/* Minimum encoded sizes (FORMATS §4.16, §4.12, §5.4). */
#define MIN_CHARACTER     51
#define MIN_ANIM_NAME_MP1 6
#define MIN_ANIM_NAME_MP2 5
#define MIN_ANIM_STATE    12
#define MIN_PARM_INFO     12
#define MIN_ID            4
#define MIN_AABB          25
#define MIN_EFFECT        5
#define MIN_COMP_MP1      22
#define MIN_COMP_MP2      25
#define MIN_INDEXED_AABB  28
#define MIN_ANIMATION     9
#define MIN_TRANSITION    16
#define MIN_ADDITIVE      12
#define MIN_HALF          8
#define MIN_PAIR          8
#define MIN_EVENT_SET     16
#define MIN_RANDOM_ELEM   12
#define MIN_SEQUENCE_ELEM 8
#define MIN_POI_BOOL      31
#define MIN_POI_INT32     35
#define MIN_POI_PART_MP1  51
#define MIN_POI_PART_MP2  54
#define MIN_POI_SOUND_MP1 42
#define MIN_POI_SOUND_MP2 54

/* The decoder state (util.h): a cursor over the arena copy of the input, the arena, the
 * error, the report, and the game whose rules apply (d->game, an ancs_game). */
typedef util_dec dec;

static int rd_str(dec *d, const char **out)
{
    return util_rd_cstr(&d->r, out, NULL, d->err);
}

static int rd_time(dec *d, ancs_time *t)
{
    TRY(util_rd_f32(&d->r, &t->time, d->err));
    return util_rd_u32(&d->r, &t->type, d->err);
}

static int rd_box(dec *d, ancs_aabox *b)
{
    for (int i = 0; i < 3; i++)
        TRY(util_rd_f32(&d->r, &b->min[i], d->err));
    for (int i = 0; i < 3; i++)
        TRY(util_rd_f32(&d->r, &b->max[i], d->err));
    return 0;
}

static int rd_id_list(dec *d, ancs_id_list *l, const char *what)
{
    TRY(util_dec_count(d, &l->count, MIN_ID, what));
    TRY(util_dec_array(d, &l->ids, l->count, sizeof *l->ids));
    for (uint32_t i = 0; i < l->count; i++)
        TRY(util_rd_u32(&d->r, &l->ids[i], d->err));
    return 0;
}

/* ---- EVNT (§5) ------------------------------------------------------------------------ */

/* §5.3 base POI node: u16 unknown, str name, u16 type, CharAnimTime time, u32 index,
 * bool8 unique, f32 weight, s32 character_index, u32 flags. */
static int dec_poi(dec *d, ancs_poi *p)
{
    p->offset = util_rd_off(&d->r);
    TRY(util_rd_u16(&d->r, &p->unknown_u16, d->err));
    TRY(rd_str(d, &p->name));
    TRY(util_rd_u16(&d->r, &p->poi_type, d->err));
    TRY(rd_time(d, &p->time));
    TRY(util_rd_u32(&d->r, &p->index, d->err));
    TRY(util_rd_u8(&d->r, &p->unique, d->err));
    TRY(util_rd_f32(&d->r, &p->weight, d->err));
    TRY(util_rd_s32(&d->r, &p->char_index, d->err));
    return util_rd_u32(&d->r, &p->flags, d->err);
}

/* §5.2 EVNT / event set: u32 EV, list<bool>, list<int32>, list<particle>,
 * [EV >= 2: list<sound>]. Particle: s32 duration, ObjectTag, (MP1 str bone | MP2 u32 bone),
 * f32 scale, u32 parented_mode. Sound: u32 id, f32 falloff, f32 max_distance,
 * [MP2: u32, u16, u16, f32]. */
static int dec_evnt(dec *d, ancs_evnt *e)
{
    int mp2 = d->game == ANCS_GAME_MP2;
    e->offset = util_rd_off(&d->r);
    TRY(util_rd_u32(&d->r, &e->version, d->err));
    if (e->version != 1 && e->version != 2)
        TRY(util_dec_warn(
            d, e->offset, "evnt_version",
            "event data version %u (only 1 and 2 are known); sound list read when >= 2",
            e->version));

    TRY(util_dec_count(d, &e->bool_count, MIN_POI_BOOL, "bool POI node"));
    TRY(util_dec_array(d, &e->bools, e->bool_count, sizeof *e->bools));
    for (uint32_t i = 0; i < e->bool_count; i++) {
        TRY(dec_poi(d, &e->bools[i].base));
        TRY(util_rd_u8(&d->r, &e->bools[i].value, d->err));
    }

    TRY(util_dec_count(d, &e->int32_count, MIN_POI_INT32, "int32 POI node"));
    TRY(util_dec_array(d, &e->int32s, e->int32_count, sizeof *e->int32s));
    for (uint32_t i = 0; i < e->int32_count; i++) {
        ancs_poi_int32 *n = &e->int32s[i];
        TRY(dec_poi(d, &n->base));
        TRY(util_rd_s32(&d->r, &n->value, d->err));
        TRY(rd_str(d, &n->locator_name));
    }

    TRY(util_dec_count(d, &e->particle_count, mp2 ? MIN_POI_PART_MP2 : MIN_POI_PART_MP1,
                       "particle POI node"));
    TRY(util_dec_array(d, &e->particles, e->particle_count, sizeof *e->particles));
    for (uint32_t i = 0; i < e->particle_count; i++) {
        ancs_poi_particle *n = &e->particles[i];
        TRY(dec_poi(d, &n->base));
        TRY(util_rd_s32(&d->r, &n->duration, d->err));
        TRY(util_rd_u32(&d->r, &n->particle_type, d->err));
        TRY(util_rd_u32(&d->r, &n->particle_id, d->err));
        if (mp2)
            TRY(util_rd_u32(&d->r, &n->bone_id, d->err));
        else
            TRY(rd_str(d, &n->bone_name));
        TRY(util_rd_f32(&d->r, &n->scale, d->err));
        TRY(util_rd_u32(&d->r, &n->parented_mode, d->err));
    }

    if (e->version >= 2) {
        TRY(util_dec_count(d, &e->sound_count, mp2 ? MIN_POI_SOUND_MP2 : MIN_POI_SOUND_MP1,
                           "sound POI node"));
        TRY(util_dec_array(d, &e->sounds, e->sound_count, sizeof *e->sounds));
        for (uint32_t i = 0; i < e->sound_count; i++) {
            ancs_poi_sound *n = &e->sounds[i];
            TRY(dec_poi(d, &n->base));
            TRY(util_rd_u32(&d->r, &n->sound_id, d->err));
            TRY(util_rd_f32(&d->r, &n->falloff, d->err));
            TRY(util_rd_f32(&d->r, &n->max_distance, d->err));
            if (mp2) {
                TRY(util_rd_u32(&d->r, &n->echoes_unknown_a, d->err));
                TRY(util_rd_u16(&d->r, &n->echoes_unknown_b, d->err));
                TRY(util_rd_u16(&d->r, &n->echoes_unknown_c, d->err));
                TRY(util_rd_f32(&d->r, &n->echoes_unknown_d, d->err));
            }
        }
    }
    return 0;
}

/* ---- meta-animations and meta-transitions (§4.12, §4.14) ------------------------------ */

static int dec_meta_anim(dec *d, ancs_meta_anim *m, unsigned depth);

static int depth_fail(dec *d, const char *what)
{
    return util_fail(d->err, UTIL_EFORMAT, util_rd_off(&d->r),
                     "%s nested deeper than %d levels (meta-animations and meta-transitions "
                     "count together)",
                     what, ANCS_MAX_DEPTH);
}

/* MetaTransition: u32 type; 0 MetaAnimation | 1,2 CharAnimTime, bool8, bool8, u32 | 3 none. */
static int dec_meta_trans(dec *d, ancs_meta_trans *t, unsigned depth)
{
    if (depth > ANCS_MAX_DEPTH)
        return depth_fail(d, "meta-transition");
    t->offset = util_rd_off(&d->r);
    TRY(util_rd_u32(&d->r, &t->type, d->err));
    switch (t->type) {
    case ANCS_TRANS_META_ANIM:
        t->anim = util_arena_alloc(d->a, sizeof *t->anim);
        if (!t->anim)
            return util_dec_oom(d);
        return dec_meta_anim(d, t->anim, depth + 1);
    case ANCS_TRANS_TRANS:
    case ANCS_TRANS_PHASE_TRANS:
        TRY(rd_time(d, &t->duration));
        TRY(util_rd_u8(&d->r, &t->unknown_flag, d->err));
        TRY(util_rd_u8(&d->r, &t->run_a, d->err));
        return util_rd_u32(&d->r, &t->flags, d->err);
    case ANCS_TRANS_SNAP:
        return 0;
    default:
        return util_fail(d->err, UTIL_EFORMAT, t->offset,
                         "unknown meta-transition type %u (MP1/MP2 know 0..3)", t->type);
    }
}

/* MetaAnimation: u32 type; 0 Play: id32, u32, str, CharAnimTime | 1,2 Blend: a, b, f32,
 * bool8 | 3 Random: u32 n, n x (MetaAnimation, u32) | 4 Sequence: u32 n, n x MetaAnimation. */
static int dec_meta_anim(dec *d, ancs_meta_anim *m, unsigned depth)
{
    if (depth > ANCS_MAX_DEPTH)
        return depth_fail(d, "meta-animation");
    m->offset = util_rd_off(&d->r);
    TRY(util_rd_u32(&d->r, &m->type, d->err));
    switch (m->type) {
    case ANCS_META_PLAY:
        TRY(util_rd_u32(&d->r, &m->anim_id, d->err));
        TRY(util_rd_u32(&d->r, &m->primitive_id, d->err));
        TRY(rd_str(d, &m->primitive_name));
        return rd_time(d, &m->start_time);
    case ANCS_META_BLEND:
    case ANCS_META_PHASE_BLEND:
        m->child_count = 2;
        TRY(util_dec_array(d, &m->children, 2, sizeof *m->children));
        TRY(dec_meta_anim(d, &m->children[0], depth + 1));
        TRY(dec_meta_anim(d, &m->children[1], depth + 1));
        TRY(util_rd_f32(&d->r, &m->blend_weight, d->err));
        return util_rd_u8(&d->r, &m->unknown_flag, d->err);
    case ANCS_META_RANDOM:
        TRY(util_dec_count(d, &m->child_count, MIN_RANDOM_ELEM, "random meta-animation child"));
        TRY(util_dec_array(d, &m->children, m->child_count, sizeof *m->children));
        TRY(util_dec_array(d, &m->probabilities, m->child_count, sizeof *m->probabilities));
        for (uint32_t i = 0; i < m->child_count; i++) {
            TRY(dec_meta_anim(d, &m->children[i], depth + 1));
            TRY(util_rd_u32(&d->r, &m->probabilities[i], d->err));
        }
        return 0;
    case ANCS_META_SEQUENCE:
        TRY(util_dec_count(d, &m->child_count, MIN_SEQUENCE_ELEM, "sequence meta-animation child"));
        TRY(util_dec_array(d, &m->children, m->child_count, sizeof *m->children));
        for (uint32_t i = 0; i < m->child_count; i++)
            TRY(dec_meta_anim(d, &m->children[i], depth + 1));
        return 0;
    default:
        return util_fail(d->err, UTIL_EFORMAT, m->offset,
                         "unknown meta-animation type %u (MP1/MP2 know 0..4)", m->type);
    }
}

/* ---- character (§4.3–4.9) ------------------------------------------------------------- */

/* PAS value by parm type (§4.5): 0,1,2,4 four bytes, 3 one byte, other types none. */
static int rd_pas_value(dec *d, int32_t type, uint32_t *out)
{
    uint8_t b;
    switch (type) {
    case ANCS_PARM_INT32:
    case ANCS_PARM_UINT32:
    case ANCS_PARM_FLOAT:
    case ANCS_PARM_ENUM:
        return util_rd_u32(&d->r, out, d->err);
    case ANCS_PARM_BOOL:
        TRY(util_rd_u8(&d->r, &b, d->err));
        *out = b;
        return 0;
    default:
        *out = 0;
        return 0;
    }
}

static size_t pas_value_size(int32_t type)
{
    switch (type) {
    case ANCS_PARM_INT32:
    case ANCS_PARM_UINT32:
    case ANCS_PARM_FLOAT:
    case ANCS_PARM_ENUM:
        return 4;
    case ANCS_PARM_BOOL:
        return 1;
    default:
        return 0;
    }
}

/* PAS: fourcc magic, u32 states, s32 default, states x (s32 type, u32 P, u32 A,
 * P x (s32 type, s32 weight_fn, f32 weight, value min, value max),
 * A x (u32 anim_id, P x value)). */
static int dec_pas(dec *d, ancs_pas *p)
{
    uint64_t off = util_rd_off(&d->r);
    TRY(util_rd_u32(&d->r, &p->magic, d->err));
    if (p->magic != UTIL_FCC_PAS4) {
        char s[5];
        util_fourcc_str(p->magic, s);
        TRY(util_dec_warn(d, off, "pas_magic", "PAS magic '%s' (0x%08X), expected 'PAS4'", s,
                          p->magic));
    }
    TRY(util_dec_count(d, &p->state_count, MIN_ANIM_STATE, "PAS anim state"));
    TRY(util_rd_s32(&d->r, &p->default_state, d->err));
    TRY(util_dec_array(d, &p->states, p->state_count, sizeof *p->states));
    for (uint32_t i = 0; i < p->state_count; i++) {
        ancs_pas_state *s = &p->states[i];
        TRY(util_rd_s32(&d->r, &s->state_type, d->err));
        uint64_t poff = util_rd_off(&d->r);
        TRY(util_rd_u32(&d->r, &s->parm_count, d->err));
        TRY(util_rd_u32(&d->r, &s->anim_count, d->err));
        TRY(util_rd_check_count(&d->r, s->parm_count, MIN_PARM_INFO, "PAS parm info", d->err));
        if (s->parm_count > 8)
            TRY(util_dec_warn(d, poff, "pas_parm_count",
                              "PAS state %u has %u parameters; the game holds at most 8", i,
                              s->parm_count));
        TRY(util_dec_array(d, &s->parms, s->parm_count, sizeof *s->parms));
        size_t info_size = 4;
        for (uint32_t j = 0; j < s->parm_count; j++) {
            ancs_pas_parm *q = &s->parms[j];
            TRY(util_rd_s32(&d->r, &q->parm_type, d->err));
            TRY(util_rd_s32(&d->r, &q->weight_function, d->err));
            TRY(util_rd_f32(&d->r, &q->weight, d->err));
            TRY(rd_pas_value(d, q->parm_type, &q->min));
            TRY(rd_pas_value(d, q->parm_type, &q->max));
            info_size += pas_value_size(q->parm_type);
        }
        TRY(util_rd_check_count(&d->r, s->anim_count, info_size, "PAS anim info", d->err));
        TRY(util_dec_array(d, &s->anims, s->anim_count, sizeof *s->anims));
        for (uint32_t k = 0; k < s->anim_count; k++) {
            ancs_pas_anim *an = &s->anims[k];
            TRY(util_rd_u32(&d->r, &an->anim_id, d->err));
            TRY(util_dec_array(d, &an->values, s->parm_count, sizeof *an->values));
            for (uint32_t j = 0; j < s->parm_count; j++)
                TRY(rd_pas_value(d, s->parms[j].parm_type, &an->values[j]));
        }
    }
    return 0;
}

/* EffectComponent: str name, ObjectTag, (MP1 str bone | MP2 u32 bone), f32 scale,
 * u32 parented_mode, u32 flags. */
static int dec_effects(dec *d, ancs_character *c)
{
    int mp2 = d->game == ANCS_GAME_MP2;
    TRY(util_dec_count(d, &c->effect_count, MIN_EFFECT, "effect"));
    TRY(util_dec_array(d, &c->effects, c->effect_count, sizeof *c->effects));
    int warned = 0;
    for (uint32_t i = 0; i < c->effect_count; i++) {
        ancs_effect *e = &c->effects[i];
        uint64_t off = util_rd_off(&d->r);
        TRY(rd_str(d, &e->name));
        if (i && !warned && strcmp(c->effects[i - 1].name, e->name) > 0) {
            warned = 1;
            TRY(util_dec_warn(d, off, "effects_unsorted",
                              "effect '%s' sorts before the previous one; the game binary-searches",
                              e->name));
        }
        TRY(util_dec_count(d, &e->comp_count, mp2 ? MIN_COMP_MP2 : MIN_COMP_MP1,
                           "effect component"));
        TRY(util_dec_array(d, &e->comps, e->comp_count, sizeof *e->comps));
        for (uint32_t j = 0; j < e->comp_count; j++) {
            ancs_effect_comp *k = &e->comps[j];
            TRY(rd_str(d, &k->name));
            TRY(util_rd_u32(&d->r, &k->particle_type, d->err));
            TRY(util_rd_u32(&d->r, &k->particle_id, d->err));
            if (mp2)
                TRY(util_rd_u32(&d->r, &k->bone_id, d->err));
            else
                TRY(rd_str(d, &k->bone_name));
            TRY(util_rd_f32(&d->r, &k->scale, d->err));
            TRY(util_rd_u32(&d->r, &k->parented_mode, d->err));
            TRY(util_rd_u32(&d->r, &k->flags, d->err));
        }
    }
    return 0;
}

/* Character (§4.3, grammar §4.15): u32 id, u16 T, str name, id32 cmdl, cskr, cinf,
 * list<ANIMNAME>, PAS, PARTICLES, u32 unknown_a, [T>=10 u32 unknown_b],
 * [T>=2 list<str, AABox>], [T>=3 list<EFFECT>], [T>=4 id32, id32], [T>=5 list<u32>],
 * [T>=10 id32 cspp, u8, list<u32, AABox>]. *map_off receives the ID map's offset. */
static int dec_character(dec *d, ancs_character *c, uint64_t *map_off)
{
    int mp2 = d->game == ANCS_GAME_MP2;
    c->offset = util_rd_off(&d->r);
    TRY(util_rd_u32(&d->r, &c->char_id, d->err));
    uint64_t voff = util_rd_off(&d->r);
    TRY(util_rd_u16(&d->r, &c->version, d->err));
    unsigned T = c->version;
    if (T >= 7 && T <= 9)
        TRY(util_dec_warn(
            d, voff, "char_version_undocumented",
            "character version %u is not known to exist; decoded by the version-6 rules", T));
    else if (T == 0 || T > 10)
        TRY(util_dec_warn(d, voff, "char_version_unknown",
                          "character version %u is outside 1..10; decoded by the nearest rules",
                          T));
    TRY(rd_str(d, &c->name));
    TRY(util_rd_u32(&d->r, &c->model_id, d->err));
    TRY(util_rd_u32(&d->r, &c->skin_id, d->err));
    TRY(util_rd_u32(&d->r, &c->skeleton_id, d->err));

    TRY(util_dec_count(d, &c->anim_name_count, mp2 ? MIN_ANIM_NAME_MP2 : MIN_ANIM_NAME_MP1,
                       "animation name"));
    TRY(util_dec_array(d, &c->anim_names, c->anim_name_count, sizeof *c->anim_names));
    for (uint32_t i = 0; i < c->anim_name_count; i++) {
        ancs_anim_name *n = &c->anim_names[i];
        TRY(util_rd_u32(&d->r, &n->anim_id, d->err));
        if (!mp2)
            TRY(rd_str(d, &n->unknown));
        TRY(rd_str(d, &n->name));
    }

    TRY(dec_pas(d, &c->pas));

    /* §4.6: PART, SWHC, then the 3rd list (ELSC when T <= 5), [T>=6 ELSC], [T>=10 SPSC]. */
    TRY(rd_id_list(d, &c->part, "PART id"));
    TRY(rd_id_list(d, &c->swhc, "SWHC id"));
    if (ANCS_HAS_THIRD_LIST(T)) {
        uint64_t toff = util_rd_off(&d->r);
        TRY(rd_id_list(d, &c->third, "third-list id"));
        if (c->third.count)
            TRY(util_dec_warn(d, toff, "third_list_nonempty",
                              "third particle list (unidentified, version >= 6) holds %u IDs",
                              c->third.count));
        TRY(rd_id_list(d, &c->elsc, "ELSC id"));
    } else {
        TRY(rd_id_list(d, &c->elsc, "ELSC id"));
    }
    if (ANCS_HAS_MP2_FIELDS(T))
        TRY(rd_id_list(d, &c->spsc, "SPSC id"));

    uint64_t uoff = util_rd_off(&d->r);
    TRY(util_rd_u32(&d->r, &c->unknown_a, d->err));
    if (mp2 && c->unknown_a)
        TRY(util_dec_warn(
            d, uoff, "mp2_unknown_a",
            "MP2 character unknown_a = %u (MF-DNA reads it as a sixth particle list count)",
            c->unknown_a));
    if (ANCS_HAS_MP2_FIELDS(T))
        TRY(util_rd_u32(&d->r, &c->unknown_b, d->err));

    if (ANCS_HAS_AABBS(T)) {
        TRY(util_dec_count(d, &c->aabb_count, MIN_AABB, "animation AABB"));
        TRY(util_dec_array(d, &c->aabbs, c->aabb_count, sizeof *c->aabbs));
        int warned = 0;
        for (uint32_t i = 0; i < c->aabb_count; i++) {
            uint64_t off = util_rd_off(&d->r);
            TRY(rd_str(d, &c->aabbs[i].name));
            if (i && !warned && strcmp(c->aabbs[i - 1].name, c->aabbs[i].name) > 0) {
                warned = 1;
                TRY(util_dec_warn(d, off, "aabbs_unsorted",
                                  "animation AABB '%s' sorts before the previous one; the game "
                                  "binary-searches",
                                  c->aabbs[i].name));
            }
            TRY(rd_box(d, &c->aabbs[i].box));
        }
    }
    if (ANCS_HAS_EFFECTS(T))
        TRY(dec_effects(d, c));
    if (ANCS_HAS_FROZEN(T)) {
        TRY(util_rd_u32(&d->r, &c->frozen_model_id, d->err));
        TRY(util_rd_u32(&d->r, &c->frozen_skin_id, d->err));
    }
    if (ANCS_HAS_ID_MAP(T)) {
        TRY(util_dec_count(d, &c->id_map.count, MIN_ID, "animation ID map entry"));
        *map_off = util_rd_off(&d->r);
        TRY(util_dec_array(d, &c->id_map.ids, c->id_map.count, sizeof *c->id_map.ids));
        for (uint32_t i = 0; i < c->id_map.count; i++)
            TRY(util_rd_u32(&d->r, &c->id_map.ids[i], d->err));
    }
    if (ANCS_HAS_MP2_FIELDS(T)) {
        TRY(util_rd_u32(&d->r, &c->cspp_id, d->err));
        TRY(util_rd_u8(&d->r, &c->unknown_c, d->err));
        TRY(util_dec_count(d, &c->indexed_aabb_count, MIN_INDEXED_AABB, "indexed animation AABB"));
        TRY(util_dec_array(d, &c->indexed_aabbs, c->indexed_aabb_count, sizeof *c->indexed_aabbs));
        for (uint32_t i = 0; i < c->indexed_aabb_count; i++) {
            TRY(util_rd_u32(&d->r, &c->indexed_aabbs[i].anim_id, d->err));
            TRY(rd_box(d, &c->indexed_aabbs[i].box));
        }
    }
    return 0;
}

/* ---- animation set (§4.10–4.13) ------------------------------------------------------- */

/* ANIMSET: u16 V, list<str, METAANIM>, list<u32, u32, u32, METATRANS>, METATRANS,
 * [V>=2 list<u32, f32, f32>, f32, f32], [V>=3 list<u32, METATRANS>],
 * [V>=4 MP1 list<id32, id32> | MP2 list<EVNT>]. */
static int dec_animset(dec *d, ancs_animset *s)
{
    uint64_t voff = util_rd_off(&d->r);
    TRY(util_rd_u16(&d->r, &s->version, d->err));
    unsigned V = s->version;
    if (V == 0 || V > 4)
        TRY(util_dec_warn(d, voff, "animset_version",
                          "animation-set version %u is outside 1..4; decoded by the nearest rules",
                          V));

    TRY(util_dec_count(d, &s->animation_count, MIN_ANIMATION, "animation"));
    TRY(util_dec_array(d, &s->animations, s->animation_count, sizeof *s->animations));
    for (uint32_t i = 0; i < s->animation_count; i++) {
        TRY(rd_str(d, &s->animations[i].name));
        TRY(dec_meta_anim(d, &s->animations[i].meta, 1));
    }

    TRY(util_dec_count(d, &s->transition_count, MIN_TRANSITION, "transition"));
    TRY(util_dec_array(d, &s->transitions, s->transition_count, sizeof *s->transitions));
    for (uint32_t i = 0; i < s->transition_count; i++) {
        ancs_transition *t = &s->transitions[i];
        TRY(util_rd_u32(&d->r, &t->unknown_id, d->err));
        TRY(util_rd_u32(&d->r, &t->anim_a, d->err));
        TRY(util_rd_u32(&d->r, &t->anim_b, d->err));
        TRY(dec_meta_trans(d, &t->trans, 1));
    }
    TRY(dec_meta_trans(d, &s->default_transition, 1));

    if (ANCS_SET_HAS_ADDITIVE(V)) {
        TRY(util_dec_count(d, &s->additive_count, MIN_ADDITIVE, "additive animation"));
        TRY(util_dec_array(d, &s->additives, s->additive_count, sizeof *s->additives));
        int warned = 0;
        for (uint32_t i = 0; i < s->additive_count; i++) {
            ancs_additive *ad = &s->additives[i];
            uint64_t off = util_rd_off(&d->r);
            TRY(util_rd_u32(&d->r, &ad->anim_index, d->err));
            TRY(util_rd_f32(&d->r, &ad->fade_in, d->err));
            TRY(util_rd_f32(&d->r, &ad->fade_out, d->err));
            if (i && !warned && s->additives[i - 1].anim_index > ad->anim_index) {
                warned = 1;
                TRY(util_dec_warn(d, off, "additive_unsorted",
                                  "additive animation %u follows %u; the game binary-searches",
                                  ad->anim_index, s->additives[i - 1].anim_index));
            }
        }
        TRY(util_rd_f32(&d->r, &s->default_fade_in, d->err));
        TRY(util_rd_f32(&d->r, &s->default_fade_out, d->err));
    }
    if (ANCS_SET_HAS_HALF(V)) {
        TRY(util_dec_count(d, &s->half_count, MIN_HALF, "half transition"));
        TRY(util_dec_array(d, &s->halfs, s->half_count, sizeof *s->halfs));
        for (uint32_t i = 0; i < s->half_count; i++) {
            TRY(util_rd_u32(&d->r, &s->halfs[i].anim, d->err));
            TRY(dec_meta_trans(d, &s->halfs[i].trans, 1));
        }
    }
    if (ANCS_SET_HAS_TAIL(V)) {
        if (d->game == ANCS_GAME_MP2) {
            uint64_t off = util_rd_off(&d->r);
            TRY(util_dec_count(d, &s->event_set_count, MIN_EVENT_SET, "event set"));
            if (s->event_set_count != s->animation_count)
                TRY(util_dec_warn(d, off, "event_set_count", "%u event sets for %u animations",
                                  s->event_set_count, s->animation_count));
            TRY(util_dec_array(d, &s->event_sets, s->event_set_count, sizeof *s->event_sets));
            for (uint32_t i = 0; i < s->event_set_count; i++)
                TRY(dec_evnt(d, &s->event_sets[i]));
        } else {
            TRY(util_dec_count(d, &s->pair_count, MIN_PAIR, "animation resource pair"));
            TRY(util_dec_array(d, &s->pairs, s->pair_count, sizeof *s->pairs));
            for (uint32_t i = 0; i < s->pair_count; i++) {
                TRY(util_rd_u32(&d->r, &s->pairs[i].anim_id, d->err));
                TRY(util_rd_u32(&d->r, &s->pairs[i].evnt_id, d->err));
            }
        }
    }
    return 0;
}

/* ---- top level -------------------------------------------------------------------------- */

static int dec_start(dec *d, const uint8_t *buf, size_t len, ancs_game game, ancs_report *rep,
                     util_arena *arena, util_err *err)
{
    TRY(util_dec_start(d, buf, len, rep, arena, err));
    d->game = game;
    return 0;
}

ancs_game ancs_guess_game(const uint8_t *buf, size_t len)
{
    if (!buf || len < 14 || buf[0] != 0 || buf[1] != 1 || buf[2] != 0 || buf[3] != 1)
        return ANCS_GAME_AUTO; /* too short, or not ancs_version 1 + charset_version 1 */
    uint32_t n = (uint32_t)buf[4] << 24 | (uint32_t)buf[5] << 16 | (uint32_t)buf[6] << 8 | buf[7];
    if (n == 0)
        return ANCS_GAME_AUTO;
    unsigned T = (unsigned)buf[12] << 8 | buf[13];
    return T == 10 ? ANCS_GAME_MP2 : ANCS_GAME_MP1;
}

int ancs_decode(ancs_set *out, const uint8_t *buf, size_t len, ancs_game game, util_arena *arena,
                util_err *err)
{
    memset(out, 0, sizeof *out);
    if (game != ANCS_GAME_MP1 && game != ANCS_GAME_MP2)
        game = ancs_guess_game(buf, len);
    if (game != ANCS_GAME_MP2)
        game = ANCS_GAME_MP1;
    out->game = game;
    dec d;
    TRY(dec_start(&d, buf, len, game, &out->report, arena, err));

    TRY(util_rd_u16(&d.r, &out->version, err));
    if (out->version != 1)
        TRY(util_dec_warn(&d, 0, "ancs_version", "ANCS version %u, expected 1", out->version));
    TRY(util_rd_u16(&d.r, &out->charset_version, err));
    if (out->charset_version != 1)
        TRY(util_dec_warn(&d, 2, "charset_version", "character-set version %u, expected 1",
                          out->charset_version));
    TRY(util_dec_count(&d, &out->char_count, MIN_CHARACTER, "character"));
    TRY(util_dec_array(&d, &out->chars, out->char_count, sizeof *out->chars));
    uint64_t *map_offs = NULL;
    TRY(util_dec_array(&d, &map_offs, out->char_count, sizeof *map_offs));
    for (uint32_t i = 0; i < out->char_count; i++)
        TRY(dec_character(&d, &out->chars[i], &map_offs[i]));
    TRY(dec_animset(&d, &out->animset));

    /* Map values index the animation list, known only now (§7.2). */
    for (uint32_t i = 0; i < out->char_count; i++) {
        const ancs_character *c = &out->chars[i];
        for (uint32_t k = 0; k < c->id_map.count; k++)
            if (c->id_map.ids[k] >= out->animset.animation_count)
                TRY(util_dec_warn(
                    &d, map_offs[i] + 4ull * k, "id_map_out_of_range",
                    "character %u ID map entry %u = %u, but the set has %u animations", i, k,
                    c->id_map.ids[k], out->animset.animation_count));
    }
    return util_dec_finish(&d);
}

int ancs_evnt_decode(ancs_evnt_file *out, const uint8_t *buf, size_t len, ancs_game game,
                     util_arena *arena, util_err *err)
{
    memset(out, 0, sizeof *out);
    if (game != ANCS_GAME_MP2)
        game = ANCS_GAME_MP1;
    out->game = game;
    dec d;
    TRY(dec_start(&d, buf, len, game, &out->report, arena, err));
    TRY(dec_evnt(&d, &out->evnt));
    return util_dec_finish(&d);
}
