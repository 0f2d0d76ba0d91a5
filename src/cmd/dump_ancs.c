/* dump_ancs.c — `ancs dump` of an ANCS and of an EVNT: every decoded field, in file order,
 * through the tree/JSON writer (see dump.h for the field names). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dump.h"

static void ids(tw *e, const char *k, const ancs_id_list *l)
{
    tw_arr(e, k, l->count);
    for (uint32_t i = 0; i < l->count; i++)
        tw_id(e, NULL, l->ids[i]);
    tw_end(e, 1);
}

static void time_(tw *e, const char *k, const ancs_time *t)
{
    tw_obj(e, k);
    tw_f32(e, "time", t->time);
    tw_uint(e, "type", t->type);
    tw_end(e, 0);
}

/* ---- events ------------------------------------------------------------------------------ */

static void poi(tw *e, const ancs_poi *p)
{
    tw_uint(e, "offset", p->offset);
    tw_uint(e, "unknown_u16", p->unknown_u16);
    tw_str(e, "name", p->name);
    tw_uint(e, "poi_type", p->poi_type);
    time_(e, "time", &p->time);
    tw_uint(e, "index", p->index);
    tw_uint(e, "unique", p->unique);
    tw_f32(e, "weight", p->weight);
    tw_int(e, "char_index", p->char_index);
    tw_uint(e, "flags", p->flags);
}

static void evnt(tw *e, const char *k, const ancs_evnt *v, ancs_game g)
{
    tw_obj(e, k);
    tw_uint(e, "offset", v->offset);
    tw_uint(e, "version", v->version);
    tw_arr(e, "bool_nodes", v->bool_count);
    for (uint32_t i = 0; i < v->bool_count; i++) {
        tw_obj(e, NULL);
        poi(e, &v->bools[i].base);
        tw_uint(e, "value", v->bools[i].value);
        tw_end(e, 0);
    }
    tw_end(e, 1);
    tw_arr(e, "int32_nodes", v->int32_count);
    for (uint32_t i = 0; i < v->int32_count; i++) {
        tw_obj(e, NULL);
        poi(e, &v->int32s[i].base);
        tw_int(e, "value", v->int32s[i].value);
        tw_str(e, "locator_name", v->int32s[i].locator_name);
        tw_end(e, 0);
    }
    tw_end(e, 1);
    tw_arr(e, "particle_nodes", v->particle_count);
    for (uint32_t i = 0; i < v->particle_count; i++) {
        const ancs_poi_particle *p = &v->particles[i];
        tw_obj(e, NULL);
        poi(e, &p->base);
        tw_int(e, "duration", p->duration);
        tw_fourcc(e, "particle_type", p->particle_type);
        tw_id(e, "particle_id", p->particle_id);
        if (g == ANCS_GAME_MP2) {
            tw_null(e, "bone_name");
            tw_uint(e, "bone_id", p->bone_id);
        } else {
            tw_str(e, "bone_name", p->bone_name);
            tw_null(e, "bone_id");
        }
        tw_f32(e, "scale", p->scale);
        tw_uint(e, "parented_mode", p->parented_mode);
        tw_end(e, 0);
    }
    tw_end(e, 1);
    if (v->version >= 2) {
        tw_arr(e, "sound_nodes", v->sound_count);
        for (uint32_t i = 0; i < v->sound_count; i++) {
            const ancs_poi_sound *p = &v->sounds[i];
            tw_obj(e, NULL);
            poi(e, &p->base);
            tw_uint(e, "sound_id", p->sound_id);
            tw_f32(e, "falloff", p->falloff);
            tw_f32(e, "max_distance", p->max_distance);
            if (g == ANCS_GAME_MP2) {
                tw_uint(e, "echoes_unknown_a", p->echoes_unknown_a);
                tw_uint(e, "echoes_unknown_b", p->echoes_unknown_b);
                tw_uint(e, "echoes_unknown_c", p->echoes_unknown_c);
                tw_f32(e, "echoes_unknown_d", p->echoes_unknown_d);
            }
            tw_end(e, 0);
        }
        tw_end(e, 1);
    } else {
        tw_null(e, "sound_nodes");
    }
    tw_end(e, 0);
}

/* ---- meta trees ---------------------------------------------------------------------- */

static const char *const meta_names[] = {"play", "blend", "phase_blend", "random", "sequence"};
static const char *const trans_names[] = {"meta_anim", "trans", "phase_trans", "snap"};

static void meta(tw *e, const char *k, const ancs_meta_anim *m)
{
    tw_obj(e, k);
    tw_uint(e, "offset", m->offset);
    tw_uint(e, "type", m->type);
    tw_str(e, "type_name", m->type < 5 ? meta_names[m->type] : "unknown");
    switch (m->type) {
    case ANCS_META_PLAY:
        tw_id(e, "anim_id", m->anim_id);
        tw_uint(e, "primitive_id", m->primitive_id);
        tw_str(e, "primitive_name", m->primitive_name);
        time_(e, "start_time", &m->start_time);
        break;
    case ANCS_META_BLEND:
    case ANCS_META_PHASE_BLEND:
        meta(e, "a", &m->children[0]);
        meta(e, "b", &m->children[1]);
        tw_f32(e, "blend_weight", m->blend_weight);
        tw_uint(e, "unknown_flag", m->unknown_flag);
        break;
    case ANCS_META_RANDOM:
        tw_arr(e, "children", m->child_count);
        for (uint32_t i = 0; i < m->child_count; i++) {
            tw_obj(e, NULL);
            tw_uint(e, "probability", m->probabilities[i]);
            meta(e, "anim", &m->children[i]);
            tw_end(e, 0);
        }
        tw_end(e, 1);
        break;
    default:
        tw_arr(e, "children", m->child_count);
        for (uint32_t i = 0; i < m->child_count; i++)
            meta(e, NULL, &m->children[i]);
        tw_end(e, 1);
    }
    tw_end(e, 0);
}

static void trans(tw *e, const char *k, const ancs_meta_trans *t)
{
    tw_obj(e, k);
    tw_uint(e, "offset", t->offset);
    tw_uint(e, "type", t->type);
    tw_str(e, "type_name", t->type < 4 ? trans_names[t->type] : "unknown");
    if (t->type == ANCS_TRANS_META_ANIM && t->anim) {
        meta(e, "anim", t->anim);
    } else if (t->type == ANCS_TRANS_TRANS || t->type == ANCS_TRANS_PHASE_TRANS) {
        time_(e, "duration", &t->duration);
        tw_uint(e, "unknown_flag", t->unknown_flag);
        tw_uint(e, "run_a", t->run_a);
        tw_uint(e, "flags", t->flags);
    }
    tw_end(e, 0);
}

/* ---- characters -------------------------------------------------------------------- */

static void character(tw *e, const ancs_character *c, uint32_t index, ancs_game g)
{
    unsigned T = c->version;
    tw_obj(e, NULL);
    tw_uint(e, "index", index);
    tw_uint(e, "offset", c->offset);
    tw_uint(e, "char_id", c->char_id);
    tw_uint(e, "version", c->version);
    tw_str(e, "name", c->name);
    tw_id(e, "model_id", c->model_id);
    tw_id(e, "skin_id", c->skin_id);
    tw_id(e, "skeleton_id", c->skeleton_id);
    tw_arr(e, "animation_names", c->anim_name_count);
    for (uint32_t i = 0; i < c->anim_name_count; i++) {
        tw_obj(e, NULL);
        tw_uint(e, "anim_id", c->anim_names[i].anim_id);
        tw_str(e, "unknown", c->anim_names[i].unknown);
        tw_str(e, "name", c->anim_names[i].name);
        tw_end(e, 0);
    }
    tw_end(e, 1);
    tw_obj(e, "pas");
    tw_fourcc(e, "magic", c->pas.magic);
    tw_int(e, "default_state", c->pas.default_state);
    tw_arr(e, "states", c->pas.state_count);
    for (uint32_t i = 0; i < c->pas.state_count; i++) {
        const ancs_pas_state *s = &c->pas.states[i];
        tw_obj(e, NULL);
        tw_int(e, "state_type", s->state_type);
        tw_arr(e, "parms", s->parm_count);
        for (uint32_t j = 0; j < s->parm_count; j++) {
            tw_obj(e, NULL);
            tw_int(e, "parm_type", s->parms[j].parm_type);
            tw_int(e, "weight_function", s->parms[j].weight_function);
            tw_f32(e, "weight", s->parms[j].weight);
            tw_uint(e, "min", s->parms[j].min);
            tw_uint(e, "max", s->parms[j].max);
            tw_end(e, 0);
        }
        tw_end(e, 1);
        tw_arr(e, "anims", s->anim_count);
        for (uint32_t k = 0; k < s->anim_count; k++) {
            tw_obj(e, NULL);
            tw_uint(e, "anim_id", s->anims[k].anim_id);
            tw_arr(e, "values", s->parm_count);
            for (uint32_t j = 0; j < s->parm_count; j++)
                tw_uint(e, NULL, s->anims[k].values[j]);
            tw_end(e, 1);
            tw_end(e, 0);
        }
        tw_end(e, 1);
        tw_end(e, 0);
    }
    tw_end(e, 1);
    tw_end(e, 0);
    ids(e, "part", &c->part);
    ids(e, "swhc", &c->swhc);
    if (ANCS_HAS_THIRD_LIST(T))
        ids(e, "third", &c->third);
    else
        tw_null(e, "third");
    ids(e, "elsc", &c->elsc);
    if (ANCS_HAS_MP2_FIELDS(T))
        ids(e, "spsc", &c->spsc);
    else
        tw_null(e, "spsc");
    tw_uint(e, "unknown_a", c->unknown_a);
    if (ANCS_HAS_MP2_FIELDS(T))
        tw_uint(e, "unknown_b", c->unknown_b);
    else
        tw_null(e, "unknown_b");
    if (ANCS_HAS_AABBS(T)) {
        tw_arr(e, "aabbs", c->aabb_count);
        for (uint32_t i = 0; i < c->aabb_count; i++) {
            tw_obj(e, NULL);
            tw_str(e, "name", c->aabbs[i].name);
            tw_f32s(e, "min", c->aabbs[i].box.min, 3);
            tw_f32s(e, "max", c->aabbs[i].box.max, 3);
            tw_end(e, 0);
        }
        tw_end(e, 1);
    } else {
        tw_null(e, "aabbs");
    }
    if (ANCS_HAS_EFFECTS(T)) {
        tw_arr(e, "effects", c->effect_count);
        for (uint32_t i = 0; i < c->effect_count; i++) {
            const ancs_effect *f = &c->effects[i];
            tw_obj(e, NULL);
            tw_str(e, "name", f->name);
            tw_arr(e, "components", f->comp_count);
            for (uint32_t j = 0; j < f->comp_count; j++) {
                const ancs_effect_comp *k = &f->comps[j];
                tw_obj(e, NULL);
                tw_str(e, "name", k->name);
                tw_fourcc(e, "particle_type", k->particle_type);
                tw_id(e, "particle_id", k->particle_id);
                if (g == ANCS_GAME_MP2) {
                    tw_null(e, "bone_name");
                    tw_uint(e, "bone_id", k->bone_id);
                } else {
                    tw_str(e, "bone_name", k->bone_name);
                    tw_null(e, "bone_id");
                }
                tw_f32(e, "scale", k->scale);
                tw_uint(e, "parented_mode", k->parented_mode);
                tw_uint(e, "flags", k->flags);
                tw_end(e, 0);
            }
            tw_end(e, 1);
            tw_end(e, 0);
        }
        tw_end(e, 1);
    } else {
        tw_null(e, "effects");
    }
    if (ANCS_HAS_FROZEN(T)) {
        tw_id(e, "frozen_model_id", c->frozen_model_id);
        tw_id(e, "frozen_skin_id", c->frozen_skin_id);
    } else {
        tw_null(e, "frozen_model_id");
        tw_null(e, "frozen_skin_id");
    }
    if (ANCS_HAS_ID_MAP(T)) {
        tw_arr(e, "id_map", c->id_map.count);
        for (uint32_t i = 0; i < c->id_map.count; i++)
            tw_uint(e, NULL, c->id_map.ids[i]);
        tw_end(e, 1);
    } else {
        tw_null(e, "id_map");
    }
    if (ANCS_HAS_MP2_FIELDS(T)) {
        tw_id(e, "cspp_id", c->cspp_id);
        tw_uint(e, "unknown_c", c->unknown_c);
        tw_arr(e, "indexed_aabbs", c->indexed_aabb_count);
        for (uint32_t i = 0; i < c->indexed_aabb_count; i++) {
            tw_obj(e, NULL);
            tw_uint(e, "anim_id", c->indexed_aabbs[i].anim_id);
            tw_f32s(e, "min", c->indexed_aabbs[i].box.min, 3);
            tw_f32s(e, "max", c->indexed_aabbs[i].box.max, 3);
            tw_end(e, 0);
        }
        tw_end(e, 1);
    } else {
        tw_null(e, "cspp_id");
        tw_null(e, "unknown_c");
        tw_null(e, "indexed_aabbs");
    }
    tw_end(e, 0);
}

static void animset(tw *e, const ancs_animset *s, ancs_game g)
{
    unsigned V = s->version;
    tw_obj(e, "animation_set");
    tw_uint(e, "version", s->version);
    tw_arr(e, "animations", s->animation_count);
    for (uint32_t i = 0; i < s->animation_count; i++) {
        tw_obj(e, NULL);
        tw_uint(e, "index", i);
        tw_str(e, "name", s->animations[i].name);
        meta(e, "meta", &s->animations[i].meta);
        tw_end(e, 0);
    }
    tw_end(e, 1);
    tw_arr(e, "transitions", s->transition_count);
    for (uint32_t i = 0; i < s->transition_count; i++) {
        tw_obj(e, NULL);
        tw_uint(e, "unknown_id", s->transitions[i].unknown_id);
        tw_uint(e, "anim_a", s->transitions[i].anim_a);
        tw_uint(e, "anim_b", s->transitions[i].anim_b);
        trans(e, "transition", &s->transitions[i].trans);
        tw_end(e, 0);
    }
    tw_end(e, 1);
    trans(e, "default_transition", &s->default_transition);
    if (ANCS_SET_HAS_ADDITIVE(V)) {
        tw_arr(e, "additives", s->additive_count);
        for (uint32_t i = 0; i < s->additive_count; i++) {
            tw_obj(e, NULL);
            tw_uint(e, "anim_index", s->additives[i].anim_index);
            tw_f32(e, "fade_in", s->additives[i].fade_in);
            tw_f32(e, "fade_out", s->additives[i].fade_out);
            tw_end(e, 0);
        }
        tw_end(e, 1);
        tw_f32(e, "default_fade_in", s->default_fade_in);
        tw_f32(e, "default_fade_out", s->default_fade_out);
    } else {
        tw_null(e, "additives");
        tw_null(e, "default_fade_in");
        tw_null(e, "default_fade_out");
    }
    if (ANCS_SET_HAS_HALF(V)) {
        tw_arr(e, "half_transitions", s->half_count);
        for (uint32_t i = 0; i < s->half_count; i++) {
            tw_obj(e, NULL);
            tw_uint(e, "anim", s->halfs[i].anim);
            trans(e, "transition", &s->halfs[i].trans);
            tw_end(e, 0);
        }
        tw_end(e, 1);
    } else {
        tw_null(e, "half_transitions");
    }
    if (ANCS_SET_HAS_TAIL(V) && g == ANCS_GAME_MP1) {
        tw_arr(e, "resource_pairs", s->pair_count);
        for (uint32_t i = 0; i < s->pair_count; i++) {
            tw_obj(e, NULL);
            tw_id(e, "anim_id", s->pairs[i].anim_id);
            tw_id(e, "evnt_id", s->pairs[i].evnt_id);
            tw_end(e, 0);
        }
        tw_end(e, 1);
    } else {
        tw_null(e, "resource_pairs");
    }
    if (ANCS_SET_HAS_TAIL(V) && g == ANCS_GAME_MP2) {
        tw_arr(e, "event_sets", s->event_set_count);
        for (uint32_t i = 0; i < s->event_set_count; i++)
            evnt(e, NULL, &s->event_sets[i], g);
        tw_end(e, 1);
    } else {
        tw_null(e, "event_sets");
    }
    tw_end(e, 0);
}

void cli_dump_ancs(tw *e, const char *file, int has_id, uint32_t asset, size_t size,
                   const ancs_set *s)
{
    tw_begin(e);
    tw_str(e, "file", file);
    if (has_id)
        tw_id(e, "asset_id", asset);
    else
        tw_null(e, "asset_id");
    tw_str(e, "game", ancs_game_name(s->game));
    tw_uint(e, "size", size);
    tw_uint(e, "version", s->version);
    tw_uint(e, "charset_version", s->charset_version);
    tw_uint(e, "consumed", s->report.consumed);
    tw_uint(e, "trailing_bytes", s->report.trailing_len);
    tw_bool(e, "trailing_all_ff", s->report.trailing_all_ff);
    tw_arr(e, "warnings", (uint32_t)s->report.warning_count);
    for (const ancs_warning *w = s->report.warnings; w; w = w->next) {
        tw_obj(e, NULL);
        tw_uint(e, "offset", w->offset);
        tw_str(e, "code", w->code);
        tw_str(e, "message", w->msg);
        tw_end(e, 0);
    }
    tw_end(e, 1);
    tw_arr(e, "characters", s->char_count);
    for (uint32_t i = 0; i < s->char_count; i++)
        character(e, &s->chars[i], i, s->game);
    tw_end(e, 1);
    animset(e, &s->animset, s->game);
    tw_finish(e);
}

/* An EVNT resource: the same header, then its event nodes (docs/formats.md §5). */
void cli_dump_evnt(tw *e, const char *file, int has_id, uint32_t asset, size_t size,
                   const ancs_evnt_file *ev)
{
    tw_begin(e);
    tw_str(e, "file", file);
    tw_str(e, "type", "EVNT");
    if (has_id)
        tw_id(e, "asset_id", asset);
    else
        tw_null(e, "asset_id");
    tw_str(e, "game", ancs_game_name(ev->game));
    tw_uint(e, "size", size);
    tw_uint(e, "consumed", ev->report.consumed);
    tw_uint(e, "trailing_bytes", ev->report.trailing_len);
    tw_arr(e, "warnings", (uint32_t)ev->report.warning_count);
    for (const ancs_warning *w = ev->report.warnings; w; w = w->next) {
        tw_obj(e, NULL);
        tw_uint(e, "offset", w->offset);
        tw_str(e, "code", w->code);
        tw_str(e, "message", w->msg);
        tw_end(e, 0);
    }
    tw_end(e, 1);
    evnt(e, "events", &ev->evnt, ev->game);
    tw_finish(e);
}
