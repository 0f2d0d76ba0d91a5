/* cmd_ancs.c — `ancsdb ancs dump`: decode one ANCS (raw file or PAK entry) and print every
 * decoded field as an indented tree, or as one JSON object with --json.
 *
 * JSON field names (snake_case, stable): top level file, asset_id, game, size, version,
 * charset_version, consumed, trailing_bytes, trailing_all_ff, warnings[{offset, code,
 * message}], characters[...], animation_set{...}. Characters: index, offset, char_id,
 * version, name, model_id, skin_id, skeleton_id, animation_names[{anim_id, unknown, name}],
 * pas{magic, default_state, states[{state_type, parms[{parm_type, weight_function, weight,
 * min, max}], anims[{anim_id, values[]}]}]}, part, swhc, third, elsc, spsc (ID lists),
 * unknown_a, unknown_b, aabbs[{name, min, max}], effects[{name, components[{name,
 * particle_type, particle_id, bone_name, bone_id, scale, parented_mode, flags}]}],
 * frozen_model_id, frozen_skin_id, id_map, cspp_id, unknown_c, indexed_aabbs[{anim_id, min,
 * max}]. Fields a version lacks are null. Animation set: version, animations[{index, name,
 * meta}], transitions[{unknown_id, anim_a, anim_b, transition}], default_transition,
 * additives[{anim_index, fade_in, fade_out}], default_fade_in, default_fade_out,
 * half_transitions[{anim, transition}], resource_pairs[{anim_id, evnt_id}],
 * event_sets[{version, bool_nodes, int32_nodes, particle_nodes, sound_nodes}].
 * Meta-animation: {offset, type, type_name, ...body}; meta-transition likewise. Asset IDs
 * are 8-digit upper-case hex strings; PAS values are raw u32 (float bits for Float parms);
 * non-finite floats print as strings ("nan", "inf", "-inf").
 *
 * An MLVL or STRG (told by its magic; docs/formats.md §11, §12) is printed the same way with
 * type "MLVL" / "STRG": the world's header fields and areas (layers with their dependencies in
 * file order, the area's own group, docks, MP2 modules and internal name), or the string
 * table's languages (FourCC, strings as UTF-8) and MP2 names. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ancs.h"
#include "cli.h"
#include "disc_arg.h"
#include "pak.h"
#include "world.h"

#define MAX_NEST 512

typedef struct em {
    FILE *f;
    int json;
    int depth;
    int count[MAX_NEST]; /* items written at each level (JSON commas) */
    int is_arr[MAX_NEST];
} em;

static void indent(em *e)
{
    for (int i = 0; i < e->depth; i++)
        fputs("  ", e->f);
}

static void json_str(FILE *f, const char *s)
{
    cli_json_cstr(f, s);
}

/* Start a member (object key or array element); key NULL inside arrays. */
static void key(em *e, const char *k)
{
    if (e->json) {
        if (e->count[e->depth]++)
            fputc(',', e->f);
        if (k && !e->is_arr[e->depth]) {
            json_str(e->f, k);
            fputc(':', e->f);
        }
        return;
    }
    indent(e);
    if (k)
        fprintf(e->f, "%s: ", k);
    else
        fprintf(e->f, "[%d] ", e->count[e->depth]++);
}

static void open_(em *e, const char *k, int arr, const char *note)
{
    key(e, k);
    if (e->json)
        fputc(arr ? '[' : '{', e->f);
    else
        fprintf(e->f, "%s\n", note ? note : "");
    if (e->depth + 1 < MAX_NEST)
        e->depth++;
    e->count[e->depth] = 0;
    e->is_arr[e->depth] = arr;
}

static void obj(em *e, const char *k)
{
    open_(e, k, 0, NULL);
}

static void arr(em *e, const char *k, uint32_t n)
{
    char note[32];
    snprintf(note, sizeof note, "(%u)", n);
    open_(e, k, 1, note);
}

static void end(em *e, int arr_)
{
    if (e->depth > 0)
        e->depth--;
    if (e->json)
        fputc(arr_ ? ']' : '}', e->f);
}

static void u(em *e, const char *k, uint64_t v)
{
    key(e, k);
    fprintf(e->f, e->json ? "%llu" : "%llu\n", (unsigned long long)v);
}

static void s32(em *e, const char *k, int64_t v)
{
    key(e, k);
    fprintf(e->f, e->json ? "%lld" : "%lld\n", (long long)v);
}

static void id(em *e, const char *k, uint32_t v)
{
    key(e, k);
    fprintf(e->f, e->json ? "\"%08X\"" : "%08X\n", v);
}

static void str(em *e, const char *k, const char *s)
{
    key(e, k);
    if (!s)
        fputs(e->json ? "null" : "(none)\n", e->f);
    else if (e->json)
        json_str(e->f, s);
    else {
        char *safe = cli_term_escape(s, strlen(s)); /* never raw control bytes to a terminal */
        fprintf(e->f, "\"%s\"\n", safe ? safe : "?");
        free(safe);
    }
}

static void null_(em *e, const char *k)
{
    key(e, k);
    fputs(e->json ? "null" : "(absent)\n", e->f);
}

static void flt(em *e, const char *k, float v)
{
    key(e, k);
    const char *s = isnan(v) ? "nan" : isinf(v) ? (v < 0 ? "-inf" : "inf") : NULL;
    if (s)
        fprintf(e->f, e->json ? "\"%s\"" : "%s\n", s);
    else
        fprintf(e->f, e->json ? "%.9g" : "%.9g\n", (double)v);
}

static void fourcc(em *e, const char *k, uint32_t v)
{
    char s[5];
    util_fourcc_str(v, s);
    str(e, k, s);
}

static void ids(em *e, const char *k, const ancs_id_list *l)
{
    arr(e, k, l->count);
    for (uint32_t i = 0; i < l->count; i++)
        id(e, NULL, l->ids[i]);
    end(e, 1);
}

static void vec3(em *e, const char *k, const float *v)
{
    arr(e, k, 3);
    for (int i = 0; i < 3; i++)
        flt(e, NULL, v[i]);
    end(e, 1);
}

static void time_(em *e, const char *k, const ancs_time *t)
{
    obj(e, k);
    flt(e, "time", t->time);
    u(e, "type", t->type);
    end(e, 0);
}

/* ---- events ------------------------------------------------------------------------------ */

static void poi(em *e, const ancs_poi *p)
{
    u(e, "offset", p->offset);
    u(e, "unknown_u16", p->unknown_u16);
    str(e, "name", p->name);
    u(e, "poi_type", p->poi_type);
    time_(e, "time", &p->time);
    u(e, "index", p->index);
    u(e, "unique", p->unique);
    flt(e, "weight", p->weight);
    s32(e, "char_index", p->char_index);
    u(e, "flags", p->flags);
}

static void evnt(em *e, const char *k, const ancs_evnt *v, ancs_game g)
{
    obj(e, k);
    u(e, "offset", v->offset);
    u(e, "version", v->version);
    arr(e, "bool_nodes", v->bool_count);
    for (uint32_t i = 0; i < v->bool_count; i++) {
        obj(e, NULL);
        poi(e, &v->bools[i].base);
        u(e, "value", v->bools[i].value);
        end(e, 0);
    }
    end(e, 1);
    arr(e, "int32_nodes", v->int32_count);
    for (uint32_t i = 0; i < v->int32_count; i++) {
        obj(e, NULL);
        poi(e, &v->int32s[i].base);
        s32(e, "value", v->int32s[i].value);
        str(e, "locator_name", v->int32s[i].locator_name);
        end(e, 0);
    }
    end(e, 1);
    arr(e, "particle_nodes", v->particle_count);
    for (uint32_t i = 0; i < v->particle_count; i++) {
        const ancs_poi_particle *p = &v->particles[i];
        obj(e, NULL);
        poi(e, &p->base);
        s32(e, "duration", p->duration);
        fourcc(e, "particle_type", p->particle_type);
        id(e, "particle_id", p->particle_id);
        if (g == ANCS_GAME_MP2) {
            null_(e, "bone_name");
            u(e, "bone_id", p->bone_id);
        } else {
            str(e, "bone_name", p->bone_name);
            null_(e, "bone_id");
        }
        flt(e, "scale", p->scale);
        u(e, "parented_mode", p->parented_mode);
        end(e, 0);
    }
    end(e, 1);
    if (v->version >= 2) {
        arr(e, "sound_nodes", v->sound_count);
        for (uint32_t i = 0; i < v->sound_count; i++) {
            const ancs_poi_sound *p = &v->sounds[i];
            obj(e, NULL);
            poi(e, &p->base);
            u(e, "sound_id", p->sound_id);
            flt(e, "falloff", p->falloff);
            flt(e, "max_distance", p->max_distance);
            if (g == ANCS_GAME_MP2) {
                u(e, "echoes_unknown_a", p->echoes_unknown_a);
                u(e, "echoes_unknown_b", p->echoes_unknown_b);
                u(e, "echoes_unknown_c", p->echoes_unknown_c);
                flt(e, "echoes_unknown_d", p->echoes_unknown_d);
            }
            end(e, 0);
        }
        end(e, 1);
    } else {
        null_(e, "sound_nodes");
    }
    end(e, 0);
}

/* ---- meta trees ---------------------------------------------------------------------- */

static const char *const meta_names[] = {"play", "blend", "phase_blend", "random", "sequence"};
static const char *const trans_names[] = {"meta_anim", "trans", "phase_trans", "snap"};

static void meta(em *e, const char *k, const ancs_meta_anim *m)
{
    obj(e, k);
    u(e, "offset", m->offset);
    u(e, "type", m->type);
    str(e, "type_name", m->type < 5 ? meta_names[m->type] : "unknown");
    switch (m->type) {
    case ANCS_META_PLAY:
        id(e, "anim_id", m->anim_id);
        u(e, "primitive_id", m->primitive_id);
        str(e, "primitive_name", m->primitive_name);
        time_(e, "start_time", &m->start_time);
        break;
    case ANCS_META_BLEND:
    case ANCS_META_PHASE_BLEND:
        meta(e, "a", &m->children[0]);
        meta(e, "b", &m->children[1]);
        flt(e, "blend_weight", m->blend_weight);
        u(e, "unknown_flag", m->unknown_flag);
        break;
    case ANCS_META_RANDOM:
        arr(e, "children", m->child_count);
        for (uint32_t i = 0; i < m->child_count; i++) {
            obj(e, NULL);
            u(e, "probability", m->probabilities[i]);
            meta(e, "anim", &m->children[i]);
            end(e, 0);
        }
        end(e, 1);
        break;
    default:
        arr(e, "children", m->child_count);
        for (uint32_t i = 0; i < m->child_count; i++)
            meta(e, NULL, &m->children[i]);
        end(e, 1);
    }
    end(e, 0);
}

static void trans(em *e, const char *k, const ancs_meta_trans *t)
{
    obj(e, k);
    u(e, "offset", t->offset);
    u(e, "type", t->type);
    str(e, "type_name", t->type < 4 ? trans_names[t->type] : "unknown");
    if (t->type == ANCS_TRANS_META_ANIM && t->anim) {
        meta(e, "anim", t->anim);
    } else if (t->type == ANCS_TRANS_TRANS || t->type == ANCS_TRANS_PHASE_TRANS) {
        time_(e, "duration", &t->duration);
        u(e, "unknown_flag", t->unknown_flag);
        u(e, "run_a", t->run_a);
        u(e, "flags", t->flags);
    }
    end(e, 0);
}

/* ---- characters -------------------------------------------------------------------- */

static void character(em *e, const ancs_character *c, uint32_t index, ancs_game g)
{
    unsigned T = c->version;
    obj(e, NULL);
    u(e, "index", index);
    u(e, "offset", c->offset);
    u(e, "char_id", c->char_id);
    u(e, "version", c->version);
    str(e, "name", c->name);
    id(e, "model_id", c->model_id);
    id(e, "skin_id", c->skin_id);
    id(e, "skeleton_id", c->skeleton_id);
    arr(e, "animation_names", c->anim_name_count);
    for (uint32_t i = 0; i < c->anim_name_count; i++) {
        obj(e, NULL);
        u(e, "anim_id", c->anim_names[i].anim_id);
        str(e, "unknown", c->anim_names[i].unknown);
        str(e, "name", c->anim_names[i].name);
        end(e, 0);
    }
    end(e, 1);
    obj(e, "pas");
    fourcc(e, "magic", c->pas.magic);
    s32(e, "default_state", c->pas.default_state);
    arr(e, "states", c->pas.state_count);
    for (uint32_t i = 0; i < c->pas.state_count; i++) {
        const ancs_pas_state *s = &c->pas.states[i];
        obj(e, NULL);
        s32(e, "state_type", s->state_type);
        arr(e, "parms", s->parm_count);
        for (uint32_t j = 0; j < s->parm_count; j++) {
            obj(e, NULL);
            s32(e, "parm_type", s->parms[j].parm_type);
            s32(e, "weight_function", s->parms[j].weight_function);
            flt(e, "weight", s->parms[j].weight);
            u(e, "min", s->parms[j].min);
            u(e, "max", s->parms[j].max);
            end(e, 0);
        }
        end(e, 1);
        arr(e, "anims", s->anim_count);
        for (uint32_t k = 0; k < s->anim_count; k++) {
            obj(e, NULL);
            u(e, "anim_id", s->anims[k].anim_id);
            arr(e, "values", s->parm_count);
            for (uint32_t j = 0; j < s->parm_count; j++)
                u(e, NULL, s->anims[k].values[j]);
            end(e, 1);
            end(e, 0);
        }
        end(e, 1);
        end(e, 0);
    }
    end(e, 1);
    end(e, 0);
    ids(e, "part", &c->part);
    ids(e, "swhc", &c->swhc);
    if (ANCS_HAS_THIRD_LIST(T))
        ids(e, "third", &c->third);
    else
        null_(e, "third");
    ids(e, "elsc", &c->elsc);
    if (ANCS_HAS_MP2_FIELDS(T))
        ids(e, "spsc", &c->spsc);
    else
        null_(e, "spsc");
    u(e, "unknown_a", c->unknown_a);
    if (ANCS_HAS_MP2_FIELDS(T))
        u(e, "unknown_b", c->unknown_b);
    else
        null_(e, "unknown_b");
    if (ANCS_HAS_AABBS(T)) {
        arr(e, "aabbs", c->aabb_count);
        for (uint32_t i = 0; i < c->aabb_count; i++) {
            obj(e, NULL);
            str(e, "name", c->aabbs[i].name);
            vec3(e, "min", c->aabbs[i].box.min);
            vec3(e, "max", c->aabbs[i].box.max);
            end(e, 0);
        }
        end(e, 1);
    } else {
        null_(e, "aabbs");
    }
    if (ANCS_HAS_EFFECTS(T)) {
        arr(e, "effects", c->effect_count);
        for (uint32_t i = 0; i < c->effect_count; i++) {
            const ancs_effect *f = &c->effects[i];
            obj(e, NULL);
            str(e, "name", f->name);
            arr(e, "components", f->comp_count);
            for (uint32_t j = 0; j < f->comp_count; j++) {
                const ancs_effect_comp *k = &f->comps[j];
                obj(e, NULL);
                str(e, "name", k->name);
                fourcc(e, "particle_type", k->particle_type);
                id(e, "particle_id", k->particle_id);
                if (g == ANCS_GAME_MP2) {
                    null_(e, "bone_name");
                    u(e, "bone_id", k->bone_id);
                } else {
                    str(e, "bone_name", k->bone_name);
                    null_(e, "bone_id");
                }
                flt(e, "scale", k->scale);
                u(e, "parented_mode", k->parented_mode);
                u(e, "flags", k->flags);
                end(e, 0);
            }
            end(e, 1);
            end(e, 0);
        }
        end(e, 1);
    } else {
        null_(e, "effects");
    }
    if (ANCS_HAS_FROZEN(T)) {
        id(e, "frozen_model_id", c->frozen_model_id);
        id(e, "frozen_skin_id", c->frozen_skin_id);
    } else {
        null_(e, "frozen_model_id");
        null_(e, "frozen_skin_id");
    }
    if (ANCS_HAS_ID_MAP(T)) {
        arr(e, "id_map", c->id_map.count);
        for (uint32_t i = 0; i < c->id_map.count; i++)
            u(e, NULL, c->id_map.ids[i]);
        end(e, 1);
    } else {
        null_(e, "id_map");
    }
    if (ANCS_HAS_MP2_FIELDS(T)) {
        id(e, "cspp_id", c->cspp_id);
        u(e, "unknown_c", c->unknown_c);
        arr(e, "indexed_aabbs", c->indexed_aabb_count);
        for (uint32_t i = 0; i < c->indexed_aabb_count; i++) {
            obj(e, NULL);
            u(e, "anim_id", c->indexed_aabbs[i].anim_id);
            vec3(e, "min", c->indexed_aabbs[i].box.min);
            vec3(e, "max", c->indexed_aabbs[i].box.max);
            end(e, 0);
        }
        end(e, 1);
    } else {
        null_(e, "cspp_id");
        null_(e, "unknown_c");
        null_(e, "indexed_aabbs");
    }
    end(e, 0);
}

static void animset(em *e, const ancs_animset *s, ancs_game g)
{
    unsigned V = s->version;
    obj(e, "animation_set");
    u(e, "version", s->version);
    arr(e, "animations", s->animation_count);
    for (uint32_t i = 0; i < s->animation_count; i++) {
        obj(e, NULL);
        u(e, "index", i);
        str(e, "name", s->animations[i].name);
        meta(e, "meta", &s->animations[i].meta);
        end(e, 0);
    }
    end(e, 1);
    arr(e, "transitions", s->transition_count);
    for (uint32_t i = 0; i < s->transition_count; i++) {
        obj(e, NULL);
        u(e, "unknown_id", s->transitions[i].unknown_id);
        u(e, "anim_a", s->transitions[i].anim_a);
        u(e, "anim_b", s->transitions[i].anim_b);
        trans(e, "transition", &s->transitions[i].trans);
        end(e, 0);
    }
    end(e, 1);
    trans(e, "default_transition", &s->default_transition);
    if (ANCS_SET_HAS_ADDITIVE(V)) {
        arr(e, "additives", s->additive_count);
        for (uint32_t i = 0; i < s->additive_count; i++) {
            obj(e, NULL);
            u(e, "anim_index", s->additives[i].anim_index);
            flt(e, "fade_in", s->additives[i].fade_in);
            flt(e, "fade_out", s->additives[i].fade_out);
            end(e, 0);
        }
        end(e, 1);
        flt(e, "default_fade_in", s->default_fade_in);
        flt(e, "default_fade_out", s->default_fade_out);
    } else {
        null_(e, "additives");
        null_(e, "default_fade_in");
        null_(e, "default_fade_out");
    }
    if (ANCS_SET_HAS_HALF(V)) {
        arr(e, "half_transitions", s->half_count);
        for (uint32_t i = 0; i < s->half_count; i++) {
            obj(e, NULL);
            u(e, "anim", s->halfs[i].anim);
            trans(e, "transition", &s->halfs[i].trans);
            end(e, 0);
        }
        end(e, 1);
    } else {
        null_(e, "half_transitions");
    }
    if (ANCS_SET_HAS_TAIL(V) && g == ANCS_GAME_MP1) {
        arr(e, "resource_pairs", s->pair_count);
        for (uint32_t i = 0; i < s->pair_count; i++) {
            obj(e, NULL);
            id(e, "anim_id", s->pairs[i].anim_id);
            id(e, "evnt_id", s->pairs[i].evnt_id);
            end(e, 0);
        }
        end(e, 1);
    } else {
        null_(e, "resource_pairs");
    }
    if (ANCS_SET_HAS_TAIL(V) && g == ANCS_GAME_MP2) {
        arr(e, "event_sets", s->event_set_count);
        for (uint32_t i = 0; i < s->event_set_count; i++)
            evnt(e, NULL, &s->event_sets[i], g);
        end(e, 1);
    } else {
        null_(e, "event_sets");
    }
    end(e, 0);
}

static void dump(em *e, const char *file, int has_id, uint32_t asset, size_t size,
                 const ancs_set *s)
{
    if (e->json) {
        e->count[0] = 0;
        e->is_arr[0] = 0;
        fputc('{', e->f);
    }
    str(e, "file", file);
    if (has_id)
        id(e, "asset_id", asset);
    else
        null_(e, "asset_id");
    str(e, "game", ancs_game_name(s->game));
    u(e, "size", size);
    u(e, "version", s->version);
    u(e, "charset_version", s->charset_version);
    u(e, "consumed", s->report.consumed);
    u(e, "trailing_bytes", s->report.trailing_len);
    key(e, "trailing_all_ff");
    fputs(s->report.trailing_all_ff ? "true" : "false", e->f);
    if (!e->json)
        fputc('\n', e->f);
    arr(e, "warnings", (uint32_t)s->report.warning_count);
    for (const ancs_warning *w = s->report.warnings; w; w = w->next) {
        obj(e, NULL);
        u(e, "offset", w->offset);
        str(e, "code", w->code);
        str(e, "message", w->msg);
        end(e, 0);
    }
    end(e, 1);
    arr(e, "characters", s->char_count);
    for (uint32_t i = 0; i < s->char_count; i++)
        character(e, &s->chars[i], i, s->game);
    end(e, 1);
    animset(e, &s->animset, s->game);
    if (e->json)
        fputs("}\n", e->f);
}

/* An EVNT resource: the same header, then its event nodes (docs/formats.md §5). */
static void dump_evnt(em *e, const char *file, int has_id, uint32_t asset, size_t size,
                      const ancs_evnt_file *ev)
{
    if (e->json) {
        e->count[0] = 0;
        e->is_arr[0] = 0;
        fputc('{', e->f);
    }
    str(e, "file", file);
    str(e, "type", "EVNT");
    if (has_id)
        id(e, "asset_id", asset);
    else
        null_(e, "asset_id");
    str(e, "game", ancs_game_name(ev->game));
    u(e, "size", size);
    u(e, "consumed", ev->report.consumed);
    u(e, "trailing_bytes", ev->report.trailing_len);
    arr(e, "warnings", (uint32_t)ev->report.warning_count);
    for (const ancs_warning *w = ev->report.warnings; w; w = w->next) {
        obj(e, NULL);
        u(e, "offset", w->offset);
        str(e, "code", w->code);
        str(e, "message", w->msg);
        end(e, 0);
    }
    end(e, 1);
    evnt(e, "events", &ev->evnt, ev->game);
    if (e->json)
        fputs("}\n", e->f);
}

/* ---- worlds and string tables ------------------------------------------------------------ */

static void header_common(em *e, const char *file, const char *type, int has_id, uint32_t asset,
                          world_game g, size_t size, uint32_t version, const world_report *r)
{
    if (e->json) {
        e->count[0] = 0;
        e->is_arr[0] = 0;
        fputc('{', e->f);
    }
    str(e, "file", file);
    str(e, "type", type);
    if (has_id)
        id(e, "asset_id", asset);
    else
        null_(e, "asset_id");
    str(e, "game", world_game_name(g));
    u(e, "size", size);
    u(e, "version", version);
    u(e, "consumed", r->consumed);
    u(e, "trailing_bytes", r->trailing_len);
    key(e, "trailing_all_ff");
    fputs(r->trailing_all_ff ? "true" : "false", e->f);
    if (!e->json)
        fputc('\n', e->f);
    arr(e, "warnings", (uint32_t)r->warning_count);
    for (const world_warning *w = r->warnings; w; w = w->next) {
        obj(e, NULL);
        u(e, "offset", w->offset);
        str(e, "code", w->code);
        str(e, "message", w->msg);
        end(e, 0);
    }
    end(e, 1);
}

static void deps_(em *e, const char *k, const world_dep *d, uint32_t n)
{
    arr(e, k, n);
    for (uint32_t i = 0; i < n; i++) {
        obj(e, NULL);
        fourcc(e, "type", d[i].type);
        id(e, "id", d[i].id);
        end(e, 0);
    }
    end(e, 1);
}

static void floats(em *e, const char *k, const float *v, int n)
{
    arr(e, k, (uint32_t)n);
    for (int i = 0; i < n; i++)
        flt(e, NULL, v[i]);
    end(e, 1);
}

static void area_(em *e, const world_mlvl *m, const world_area *a, uint32_t index)
{
    int mp2 = m->game == WORLD_GAME_MP2;
    obj(e, NULL);
    u(e, "index", index);
    u(e, "offset", a->offset);
    id(e, "name_strg", a->name_strg);
    id(e, "mrea_id", a->mrea_id);
    id(e, "area_id", a->area_id);
    floats(e, "transform", a->transform, 12);
    floats(e, "bounding_box", a->bbox, 6);
    arr(e, "attached_areas", a->attached_count);
    for (uint32_t i = 0; i < a->attached_count; i++)
        u(e, NULL, a->attached[i]);
    end(e, 1);
    u(e, "unknown", a->unknown);
    u(e, "layer_count", a->layer_count);
    char flags[20];
    snprintf(flags, sizeof flags, "%016llX", (unsigned long long)a->layer_flags);
    str(e, "layer_flags", flags);
    arr(e, "dependency_offsets", a->dep_offset_count);
    for (uint32_t i = 0; i < a->dep_offset_count; i++)
        u(e, NULL, a->dep_offsets[i]);
    end(e, 1);
    arr(e, "layers", a->layer_count);
    for (uint32_t l = 0; l < a->layer_count; l++) {
        const world_layer *y = &a->layers[l];
        obj(e, NULL);
        u(e, "index", l);
        str(e, "name", y->name);
        key(e, "active");
        fputs(y->active ? "true" : "false", e->f);
        if (!e->json)
            fputc('\n', e->f);
        deps_(e, "dependencies", a->deps + y->dep_start, y->dep_count);
        if (mp2) {
            arr(e, "modules", y->module_count);
            for (uint32_t k = 0; k < y->module_count; k++)
                str(e, NULL, a->rel_modules[y->module_start + k]);
            end(e, 1);
        }
        end(e, 0);
    }
    end(e, 1);
    deps_(e, "area_dependencies", a->deps + a->own_dep_start, a->own_dep_count);
    arr(e, "docks", a->dock_count);
    for (uint32_t i = 0; i < a->dock_count; i++) {
        const world_dock *k = &a->docks[i];
        obj(e, NULL);
        arr(e, "connecting_docks", k->link_count);
        for (uint32_t j = 0; j < k->link_count; j++) {
            obj(e, NULL);
            u(e, "area_index", k->links[j].area_index);
            u(e, "dock_index", k->links[j].dock_index);
            end(e, 0);
        }
        end(e, 1);
        arr(e, "coordinates", k->coord_count);
        for (uint32_t j = 0; j < k->coord_count; j++)
            vec3(e, NULL, k->coords[j].v);
        end(e, 1);
        end(e, 0);
    }
    end(e, 1);
    if (mp2) {
        arr(e, "rel_modules", a->rel_module_count);
        for (uint32_t i = 0; i < a->rel_module_count; i++)
            str(e, NULL, a->rel_modules[i]);
        end(e, 1);
        arr(e, "rel_module_offsets", a->rel_offset_count);
        for (uint32_t i = 0; i < a->rel_offset_count; i++)
            u(e, NULL, a->rel_offsets[i]);
        end(e, 1);
    } else {
        null_(e, "rel_modules");
        null_(e, "rel_module_offsets");
    }
    str(e, "internal_name", a->internal_name);
    end(e, 0);
}

static void dump_mlvl(em *e, const char *file, int has_id, uint32_t asset, size_t size,
                      const world_mlvl *m)
{
    int mp2 = m->game == WORLD_GAME_MP2;
    header_common(e, file, "MLVL", has_id, asset, m->game, size, m->version, &m->report);
    id(e, "world_name_strg", m->world_name_strg);
    if (mp2) {
        id(e, "dark_world_name_strg", m->dark_world_name_strg);
        u(e, "temple_key_world_index", m->temple_key_world_index);
    } else {
        null_(e, "dark_world_name_strg");
        null_(e, "temple_key_world_index");
    }
    id(e, "savw_id", m->savw_id);
    id(e, "default_skybox_id", m->default_skybox_id);
    if (mp2) {
        null_(e, "memory_relays");
    } else {
        arr(e, "memory_relays", m->memory_relay_count);
        for (uint32_t i = 0; i < m->memory_relay_count; i++) {
            obj(e, NULL);
            u(e, "instance_id", m->memory_relays[i].instance_id);
            u(e, "target_id", m->memory_relays[i].target_id);
            u(e, "message", m->memory_relays[i].message);
            u(e, "active", m->memory_relays[i].active);
            end(e, 0);
        }
        end(e, 1);
    }
    u(e, "area_count", m->area_count);
    if (mp2)
        null_(e, "unknown_after_area_count");
    else
        u(e, "unknown_after_area_count", m->unknown_after_area_count);
    id(e, "mapw_id", m->mapw_id);
    u(e, "script_layer_header", m->script_layer_header);
    u(e, "script_instance_count", m->script_instance_count);
    if (mp2) {
        null_(e, "audio_groups");
    } else {
        arr(e, "audio_groups", m->audio_group_count);
        for (uint32_t i = 0; i < m->audio_group_count; i++) {
            obj(e, NULL);
            u(e, "group_id", m->audio_groups[i].group_id);
            id(e, "agsc_id", m->audio_groups[i].agsc_id);
            end(e, 0);
        }
        end(e, 1);
    }
    if (mp2)
        null_(e, "unknown_string");
    else
        str(e, "unknown_string", m->unknown_string);
    arr(e, "layer_name_offsets", m->layer_name_offset_count);
    for (uint32_t i = 0; i < m->layer_name_offset_count; i++)
        u(e, NULL, m->layer_name_offsets[i]);
    end(e, 1);
    arr(e, "areas", m->area_count);
    for (uint32_t i = 0; i < m->area_count; i++)
        area_(e, m, &m->areas[i], i);
    end(e, 1);
    if (e->json)
        fputs("}\n", e->f);
}

static void dump_strg(em *e, const char *file, int has_id, uint32_t asset, size_t size,
                      const world_strg *s)
{
    header_common(e, file, "STRG", has_id, asset, s->game, size, s->version, &s->report);
    u(e, "language_count", s->language_count);
    u(e, "string_count", s->string_count);
    key(e, "layout_kept_as_stored");
    fputs(s->raw_body ? "true" : "false", e->f);
    if (!e->json)
        fputc('\n', e->f);
    arr(e, "languages", s->language_count);
    for (uint32_t k = 0; k < s->language_count; k++) {
        const world_strg_lang *l = &s->languages[k];
        obj(e, NULL);
        fourcc(e, "language", l->lang);
        u(e, "offset", l->offset);
        u(e, "size", l->size);
        arr(e, "strings", s->string_count);
        for (uint32_t i = 0; i < s->string_count; i++)
            str(e, NULL, l->strings[i]);
        end(e, 1);
        end(e, 0);
    }
    end(e, 1);
    if (s->game == WORLD_GAME_MP2) {
        arr(e, "names", s->name_count);
        for (uint32_t i = 0; i < s->name_count; i++) {
            obj(e, NULL);
            str(e, "name", s->names[i].name);
            u(e, "string_index", s->names[i].string_index);
            end(e, 0);
        }
        end(e, 1);
    } else {
        null_(e, "names");
    }
    if (e->json)
        fputs("}\n", e->f);
}

/* An EVNT starts with its version (1 or 2), an ANCS with u16 1, u16 1 (0x00010001). */
static int looks_evnt(const char *path, const uint8_t *buf, size_t len)
{
    size_t n = strlen(path);
    if (n >= 5 && (!strcmp(path + n - 5, ".evnt") || !strcmp(path + n - 5, ".EVNT")))
        return 1;
    return len >= 4 && buf[0] == 0 && buf[1] == 0 && buf[2] == 0 && (buf[3] == 1 || buf[3] == 2);
}

/* ---- argv and input -------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fputs("usage: ancsdb ancs dump [--game auto|MP1|MP2] [--json] FILE | FILE.pak:ID |\n"
          "                        IMAGE:PATH:ID\n\n"
          "Decodes one ANCS, EVNT, MLVL (world) or STRG (string table) and prints its whole\n"
          "structure: an indented tree, or with\n"
          "--json one JSON object (snake_case fields; asset IDs as 8 hex digit strings; absent\n"
          "version-gated fields as null; warnings and the trailing-byte count included).\n"
          "FILE is a raw .ancs or .evnt file (an EVNT is told by its name or its first word, the\n"
          "version 1 or 2; an MLVL or STRG by its magic); FILE.pak:ID inflates the first ANCS\n"
          "(else EVNT, MLVL, STRG) entry with that ID\n"
          "(ID as 0x1A2B3C4D or up to 8 hex digits, or 9 to 10 decimal digits); 'ancsdb pak\n"
          "list --type ANCS FILE.pak' lists them. A PAK without :ID is a usage error. The PAK\n"
          "may sit inside a disc: IMAGE:PATH:ID (a disc image, RVZ/WIA/GCZ/CISO container or\n"
          "extracted disc; PATH as the database prints it, e.g. GM8E01_00.rvz:Metroid1.pak).\n"
          "Strings are printed terminal-safe (control characters as \\xNN) in the tree and as\n"
          "valid UTF-8 in JSON (a byte XX that is not UTF-8 as \\udcXX).\n\n"
          "options:\n"
          "  --game G     auto (default: the PAK's detected game, else the ANCS bytes decide:\n"
          "               first character version 10 = MP2), MP1 or MP2\n"
          "  --json       one JSON object instead of the tree\n"
          "  -h, --help   show this help\n\n"
          "exit status: 0 ok, 1 decode error, 2 usage, 3 cannot open/read\n",
          f);
}

/* Split "FILE.pak:ID" when FILE exists... i.e. when the part after the last ':' is an ID
 * and the whole argument is not itself a readable file. */
static int split_pak_arg(const char *arg, char **path, uint32_t *asset)
{
    const char *colon = strrchr(arg, ':');
    if (!colon || colon == arg)
        return 0;
    struct stat st;
    if (stat(arg, &st) == 0) /* the whole argument names a file (never opened here) */
        return 0;
    if (util_parse_id(colon + 1, asset))
        return 0;
    size_t n = (size_t)(colon - arg);
    *path = malloc(n + 1);
    if (!*path)
        return 0;
    memcpy(*path, arg, n);
    (*path)[n] = 0;
    return 1;
}

/* Entry of the asset in the PAK: the first ANCS with that ID, else EVNT, MLVL, STRG. */
static int load_from_pak(const char *path, uint32_t asset, uint8_t **buf, size_t *len,
                         ancs_game *game, uint32_t *type)
{
    cli_pak cp;
    util_err err;
    util_err_clear(&err);
    if (cli_pak_open(&cp, path, &err)) {
        cli_error("%s: %s", path, err.msg);
        return err.code == UTIL_EIO ? EXIT_FATAL : EXIT_PARTIAL;
    }
    pak_file *p = cp.pak;
    int rc = EXIT_OK;
    static const uint32_t types[] = {UTIL_FCC_ANCS, UTIL_FCC_EVNT, UTIL_FCC_MLVL, UTIL_FCC_STRG};
    uint32_t i = p->entry_count;
    for (size_t t = 0; t < sizeof types / sizeof *types && i == p->entry_count; t++)
        for (i = 0; i < p->entry_count; i++)
            if (p->entries[i].type == types[t] && p->entries[i].id == asset)
                break;
    char tn[5] = "?";
    if (i < p->entry_count) {
        *type = p->entries[i].type;
        util_fourcc_str(*type, tn);
    }
    if (i == p->entry_count) {
        cli_error("%s: no ANCS, EVNT, MLVL or STRG entry with ID %08X", path, asset);
        rc = EXIT_PARTIAL;
    } else if (pak_inflate(buf, len, p, i, PAK_MAX_INFLATE, &err)) {
        cli_error("%s: %s %08X entry %u: inflate @0x%llx: %s", path, tn, asset, i,
                  (unsigned long long)err.offset, err.msg);
        rc = EXIT_PARTIAL;
    } else if (*game == ANCS_GAME_AUTO) {
        ancs_game a = *type == UTIL_FCC_ANCS ? ancs_guess_game(*buf, *len) : ANCS_GAME_AUTO;
        pak_game_signals sig = {NULL, a == ANCS_GAME_MP2   ? PAK_GAME_MP2
                                      : a == ANCS_GAME_MP1 ? PAK_GAME_MP1
                                                           : PAK_GAME_UNKNOWN};
        pak_game pg = pak_game_decide(p, &sig, NULL);
        if (pg == PAK_GAME_MP1)
            *game = ANCS_GAME_MP1;
        else if (pg == PAK_GAME_MP2)
            *game = ANCS_GAME_MP2;
    }
    cli_pak_close(&cp);
    return rc;
}

/* Decode and print an MLVL or STRG (their version says the game; --game is not needed). */
static int dump_world(int json, const char *file, int has_id, uint32_t asset, uint32_t type,
                      const uint8_t *buf, size_t len, util_arena *a)
{
    util_err err;
    util_err_clear(&err);
    world_mlvl m;
    world_strg s;
    int rc = type == UTIL_FCC_MLVL ? world_mlvl_decode(&m, buf, len, a, &err)
                                   : world_strg_decode(&s, buf, len, a, &err);
    if (rc) {
        if (has_id)
            cli_error("%s: %s %08X: decode error @0x%llx: %s", file,
                      type == UTIL_FCC_MLVL ? "MLVL" : "STRG", asset,
                      (unsigned long long)err.offset, err.msg);
        else
            cli_error("%s: decode error @0x%llx: %s", file, (unsigned long long)err.offset,
                      err.msg);
        return EXIT_PARTIAL;
    }
    em e;
    memset(&e, 0, sizeof e);
    e.f = stdout;
    e.json = json;
    if (type == UTIL_FCC_MLVL)
        dump_mlvl(&e, file, has_id, asset, len, &m);
    else
        dump_strg(&e, file, has_id, asset, len, &s);
    if (fflush(stdout) != 0) {
        cli_error("write error on stdout");
        return EXIT_FATAL;
    }
    return EXIT_OK;
}

static int dump_main(int argc, char **argv)
{
    enum { O_HELP, O_JSON, O_GAME };
    static const cli_option opts[] = {
        {"help", 'h', 0, O_HELP}, {"json", 0, 0, O_JSON}, {"game", 0, 1, O_GAME}, {0}};
    ancs_game game = ANCS_GAME_AUTO;
    int json = 0, k;
    const char *arg = NULL;
    cli_args args;
    cli_args_init(&args, "ancs dump", argc, argv);
    while ((k = cli_next(&args, opts)) != CLI_END) {
        if (k == CLI_ERR) {
            return EXIT_USAGE;
        } else if (k == O_HELP) {
            usage(stdout);
            return EXIT_OK;
        } else if (k == O_JSON) {
            json = 1;
        } else if (k == O_GAME) {
            const char *g = args.value;
            if (!strcasecmp(g, "MP1"))
                game = ANCS_GAME_MP1;
            else if (!strcasecmp(g, "MP2"))
                game = ANCS_GAME_MP2;
            else if (!strcasecmp(g, "auto"))
                game = ANCS_GAME_AUTO;
            else {
                cli_error("ancs dump: --game must be MP1, MP2 or auto, not '%s'", g);
                return EXIT_USAGE;
            }
        } else if (arg) {
            cli_error("ancs dump: one FILE only");
            return EXIT_USAGE;
        } else {
            arg = args.value;
        }
    }
    if (!arg) {
        cli_error("ancs dump: give an .ancs file or FILE.pak:ID");
        usage(stderr);
        return EXIT_USAGE;
    }

    char *pak_path = NULL;
    uint32_t asset = 0;
    uint8_t *buf = NULL;
    size_t len = 0;
    int has_id = split_pak_arg(arg, &pak_path, &asset), is_evnt = 0;
    uint32_t type = 0;
    int rc = EXIT_OK;
    util_arena a;
    util_arena_init(&a);
    if (has_id) {
        rc = load_from_pak(pak_path, asset, &buf, &len, &game, &type);
        if (rc)
            goto done;
        is_evnt = type == UTIL_FCC_EVNT;
    } else {
        util_err rerr;
        util_err_clear(&rerr);
        if (util_read_file(arg, &buf, &len, 0, &rerr) != 0) {
            cli_error("%s", rerr.msg);
            rc = EXIT_FATAL;
            goto done;
        }
        /* a whole PAK (version word 0x00030005) is not one ANCS: say how to name one */
        if (len >= 4 && buf[0] == 0 && buf[1] == 3 && buf[2] == 0 && buf[3] == 5) {
            cli_error("ancs dump: %s is a PAK: name one of its ANCS as %s:ID ('ancsdb pak list "
                      "--type ANCS %s' lists their IDs)",
                      arg, arg, arg);
            rc = EXIT_USAGE;
            goto done;
        }
        if (world_is_mlvl(buf, len))
            type = UTIL_FCC_MLVL;
        else if (world_is_strg(buf, len))
            type = UTIL_FCC_STRG;
    }
    if (type == UTIL_FCC_MLVL || type == UTIL_FCC_STRG) {
        rc = dump_world(json, has_id ? pak_path : arg, has_id, asset, type, buf, len, &a);
        goto done;
    }
    ancs_set s;
    util_err err;
    util_err_clear(&err);
    if (is_evnt || (!has_id && looks_evnt(arg, buf, len))) {
        ancs_evnt_file ev;
        if (ancs_evnt_decode(&ev, buf, len, game == ANCS_GAME_MP2 ? game : ANCS_GAME_MP1, &a,
                             &err)) {
            if (has_id)
                cli_error("%s: EVNT %08X: decode error @0x%llx: %s", pak_path, asset,
                          (unsigned long long)err.offset, err.msg);
            else
                cli_error("%s: decode error @0x%llx: %s", arg, (unsigned long long)err.offset,
                          err.msg);
            rc = EXIT_PARTIAL;
            goto done;
        }
        em e;
        memset(&e, 0, sizeof e);
        e.f = stdout;
        e.json = json;
        dump_evnt(&e, has_id ? pak_path : arg, has_id, asset, len, &ev);
        if (fflush(stdout) != 0) {
            cli_error("write error on stdout");
            rc = EXIT_FATAL;
        }
        goto done;
    }
    if (ancs_decode(&s, buf, len, game, &a, &err)) {
        if (has_id)
            cli_error("%s: ANCS %08X: decode error @0x%llx: %s", pak_path, asset,
                      (unsigned long long)err.offset, err.msg);
        else
            cli_error("%s: decode error @0x%llx: %s", arg, (unsigned long long)err.offset, err.msg);
        rc = EXIT_PARTIAL;
        goto done;
    }
    em e;
    memset(&e, 0, sizeof e);
    e.f = stdout;
    e.json = json;
    dump(&e, has_id ? pak_path : arg, has_id, asset, len, &s);
    if (fflush(stdout) != 0) {
        cli_error("write error on stdout");
        rc = EXIT_FATAL;
    }
done:
    util_arena_free(&a);
    free(buf);
    free(pak_path);
    return rc;
}

int cmd_ancs(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "dump"))
        return dump_main(argc - 1, argv + 1);
    cli_error("ancs: unknown subcommand '%s' (try 'ancsdb ancs --help')", argv[1]);
    return EXIT_USAGE;
}
