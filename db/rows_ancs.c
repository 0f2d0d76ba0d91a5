/* rows_ancs.c — one decoded ANCS as rows: the ancs row, each character and its sub-tables
 * (animation names, ID map, PAS database, particle lists, boxes, effects), and as asset_refs
 * the edges ancs_reach gives (CONTRACT "How a character reaches an asset"). The animation
 * set's rows are in rows_anim.c. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A particle_refs row; effect < 0: NULL. */
static int put_particle_ref(dbi_ancs_w *w, uint32_t ci, const char *source, const char *list,
                            uint32_t seq, int64_t effect, const char *ptype, uint32_t id)
{
    db_row r;
    int rc = dbi_row_begin(&r, w->d, TBL(particle_refs), w->err);
    if (rc)
        return rc;
    dbi_int(&r, COL(particle_refs, ancs_id), w->ancs_id);
    dbi_int(&r, COL(particle_refs, char_index), ci);
    dbi_text(&r, COL(particle_refs, source), source);
    dbi_text(&r, COL(particle_refs, list), list);
    dbi_int(&r, COL(particle_refs, seq), seq);
    if (effect >= 0)
        dbi_int(&r, COL(particle_refs, effect_index), effect);
    dbi_text(&r, COL(particle_refs, particle_type), ptype);
    dbi_int(&r, COL(particle_refs, particle_id), id);
    return dbi_row_end(&r, w->err);
}

static int put_id_list(dbi_ancs_w *w, uint32_t ci, const ancs_id_list *l, const char *list,
                       const char *ptype)
{
    int rc = 0;
    for (uint32_t k = 0; k < l->count; k++) {
        TRY(put_particle_ref(w, ci, "particles", list, k, -1, ptype, l->ids[k]));
    }
    return rc;
}

/* A PAS parameter's typed value (0 s32, 1 u32, 2 f32, 3 bool, 4 enum; other types NULL). */
static void put_pas_value(db_row *r, int col, int32_t type, uint32_t raw)
{
    if (type == ANCS_PARM_FLOAT) {
        float f;
        memcpy(&f, &raw, sizeof f);
        dbi_real(r, col, (double)f);
    } else if (type == ANCS_PARM_INT32) {
        dbi_int(r, col, (int32_t)raw);
    } else if (type >= 0 && type <= 4) {
        dbi_int(r, col, raw);
    }
}

static int put_pas(dbi_ancs_w *w, uint32_t ci, const ancs_character *c)
{
    util_err *err = w->err;
    int rc = 0;
    db_row r;
    for (uint32_t s = 0; s < c->pas.state_count; s++) {
        const ancs_pas_state *ps = &c->pas.states[s];
        TRY(dbi_row_begin(&r, w->d, TBL(pas_states), err));
        dbi_int(&r, COL(pas_states, ancs_id), w->ancs_id);
        dbi_int(&r, COL(pas_states, char_index), ci);
        dbi_int(&r, COL(pas_states, state_index), s);
        dbi_int(&r, COL(pas_states, state_type), (int)ps->state_type);
        dbi_int(&r, COL(pas_states, parm_count), ps->parm_count);
        dbi_int(&r, COL(pas_states, anim_info_count), ps->anim_count);
        TRY(dbi_row_end(&r, err));
        for (uint32_t p = 0; p < ps->parm_count; p++) {
            const ancs_pas_parm *pp = &ps->parms[p];
            TRY(dbi_row_begin(&r, w->d, TBL(pas_parms), err));
            dbi_int(&r, COL(pas_parms, ancs_id), w->ancs_id);
            dbi_int(&r, COL(pas_parms, char_index), ci);
            dbi_int(&r, COL(pas_parms, state_index), s);
            dbi_int(&r, COL(pas_parms, parm_index), p);
            dbi_int(&r, COL(pas_parms, parm_type), pp->parm_type);
            dbi_int(&r, COL(pas_parms, weight_function), pp->weight_function);
            dbi_real(&r, COL(pas_parms, weight), pp->weight);
            put_pas_value(&r, COL(pas_parms, min_value), pp->parm_type, pp->min);
            put_pas_value(&r, COL(pas_parms, max_value), pp->parm_type, pp->max);
            if (pp->parm_type >= 0 && pp->parm_type <= 4) {
                dbi_int(&r, COL(pas_parms, min_raw), pp->min);
                dbi_int(&r, COL(pas_parms, max_raw), pp->max);
            }
            TRY(dbi_row_end(&r, err));
        }
        for (uint32_t a = 0; a < ps->anim_count; a++) {
            const ancs_pas_anim *pa = &ps->anims[a];
            TRY(dbi_row_begin(&r, w->d, TBL(pas_anim_infos), err));
            dbi_int(&r, COL(pas_anim_infos, ancs_id), w->ancs_id);
            dbi_int(&r, COL(pas_anim_infos, char_index), ci);
            dbi_int(&r, COL(pas_anim_infos, state_index), s);
            dbi_int(&r, COL(pas_anim_infos, info_index), a);
            dbi_int(&r, COL(pas_anim_infos, anim_id), pa->anim_id);
            TRY(dbi_row_end(&r, err));
            /* A value of a type outside 0-4 occupies no bytes: not a row (the counts are in
             * pas_states), so the rows stay linear in the bytes read. */
            for (uint32_t p = 0; p < ps->parm_count && pa->values; p++) {
                int32_t type = ps->parms[p].parm_type;
                if (type < 0 || type > 4)
                    continue;
                TRY(dbi_row_begin(&r, w->d, TBL(pas_values), err));
                dbi_int(&r, COL(pas_values, ancs_id), w->ancs_id);
                dbi_int(&r, COL(pas_values, char_index), ci);
                dbi_int(&r, COL(pas_values, state_index), s);
                dbi_int(&r, COL(pas_values, info_index), a);
                dbi_int(&r, COL(pas_values, parm_index), p);
                put_pas_value(&r, COL(pas_values, value), type, pa->values[p]);
                dbi_int(&r, COL(pas_values, raw), pa->values[p]);
                TRY(dbi_row_end(&r, err));
            }
        }
    }
    return rc;
}

/* The six columns of a box must follow each other in tables.h. */
_Static_assert(COL(anim_aabbs, max_z) - COL(anim_aabbs, min_x) == 5, "anim_aabbs columns");
_Static_assert(COL(indexed_aabbs, max_z) - COL(indexed_aabbs, min_x) == 5, "indexed columns");

static void put_box(db_row *r, int col, const ancs_aabox *b)
{
    for (int k = 0; k < 3; k++)
        dbi_real(r, col + k, (double)b->min[k]);
    for (int k = 0; k < 3; k++)
        dbi_real(r, col + 3 + k, (double)b->max[k]);
}

static int put_boxes_effects(dbi_ancs_w *w, uint32_t ci, const ancs_character *c)
{
    util_err *err = w->err;
    int mp2 = w->set->game == ANCS_GAME_MP2;
    int rc = 0;
    db_row r;
    for (uint32_t k = 0; k < c->aabb_count; k++) {
        TRY(dbi_row_begin(&r, w->d, TBL(anim_aabbs), err));
        dbi_int(&r, COL(anim_aabbs, ancs_id), w->ancs_id);
        dbi_int(&r, COL(anim_aabbs, char_index), ci);
        dbi_int(&r, COL(anim_aabbs, seq), k);
        dbi_text(&r, COL(anim_aabbs, name), c->aabbs[k].name);
        put_box(&r, COL(anim_aabbs, min_x), &c->aabbs[k].box);
        TRY(dbi_row_end(&r, err));
    }
    for (uint32_t k = 0; k < c->indexed_aabb_count; k++) {
        TRY(dbi_row_begin(&r, w->d, TBL(indexed_aabbs), err));
        dbi_int(&r, COL(indexed_aabbs, ancs_id), w->ancs_id);
        dbi_int(&r, COL(indexed_aabbs, char_index), ci);
        dbi_int(&r, COL(indexed_aabbs, seq), k);
        dbi_int(&r, COL(indexed_aabbs, anim_id), c->indexed_aabbs[k].anim_id);
        put_box(&r, COL(indexed_aabbs, min_x), &c->indexed_aabbs[k].box);
        TRY(dbi_row_end(&r, err));
    }
    for (uint32_t e = 0; e < c->effect_count; e++) {
        const ancs_effect *ef = &c->effects[e];
        TRY(dbi_row_begin(&r, w->d, TBL(effects), err));
        dbi_int(&r, COL(effects, ancs_id), w->ancs_id);
        dbi_int(&r, COL(effects, char_index), ci);
        dbi_int(&r, COL(effects, effect_index), e);
        dbi_text(&r, COL(effects, name), ef->name);
        dbi_int(&r, COL(effects, component_count), ef->comp_count);
        TRY(dbi_row_end(&r, err));
        for (uint32_t k = 0; k < ef->comp_count; k++) {
            const ancs_effect_comp *cp = &ef->comps[k];
            char fc[5];
            dbi_fourcc(cp->particle_type, fc);
            TRY(dbi_row_begin(&r, w->d, TBL(effect_components), err));
            dbi_int(&r, COL(effect_components, ancs_id), w->ancs_id);
            dbi_int(&r, COL(effect_components, char_index), ci);
            dbi_int(&r, COL(effect_components, effect_index), e);
            dbi_int(&r, COL(effect_components, comp_index), k);
            dbi_text(&r, COL(effect_components, name), cp->name);
            dbi_text(&r, COL(effect_components, particle_type), fc);
            dbi_int(&r, COL(effect_components, particle_id), cp->particle_id);
            if (!mp2)
                dbi_text(&r, COL(effect_components, bone_name), cp->bone_name);
            if (mp2)
                dbi_int(&r, COL(effect_components, bone_id), cp->bone_id);
            dbi_real(&r, COL(effect_components, scale), (double)cp->scale);
            dbi_int(&r, COL(effect_components, parented_mode), cp->parented_mode);
            dbi_int(&r, COL(effect_components, flags), cp->flags);
            TRY(dbi_row_end(&r, err));
            TRY(put_particle_ref(w, ci, "effect", "effect", k, e, fc, cp->particle_id));
        }
    }
    return rc;
}

static int put_character_row(dbi_ancs_w *w, uint32_t ci, const ancs_character *c)
{
    unsigned T = c->version;
    char magic[5];
    db_row r;
    int rc = dbi_row_begin(&r, w->d, TBL(characters), w->err);
    if (rc)
        return rc;
    dbi_int(&r, COL(characters, ancs_id), w->ancs_id);
    dbi_int(&r, COL(characters, char_index), ci);
    dbi_int(&r, COL(characters, char_id), c->char_id);
    dbi_int(&r, COL(characters, version), T);
    dbi_text(&r, COL(characters, name), c->name);
    dbi_int(&r, COL(characters, model_id), c->model_id);
    dbi_int(&r, COL(characters, skin_id), c->skin_id);
    dbi_int(&r, COL(characters, skeleton_id), c->skeleton_id);
    if (ANCS_HAS_FROZEN(T)) {
        dbi_int(&r, COL(characters, frozen_model_id), c->frozen_model_id);
        dbi_int(&r, COL(characters, frozen_skin_id), c->frozen_skin_id);
    }
    if (ANCS_HAS_MP2_FIELDS(T)) {
        dbi_int(&r, COL(characters, cspp_id), c->cspp_id);
        dbi_int(&r, COL(characters, unknown_b), c->unknown_b);
        dbi_int(&r, COL(characters, unknown_c), (unsigned)c->unknown_c);
        dbi_int(&r, COL(characters, spsc_count), c->spsc.count);
        dbi_int(&r, COL(characters, indexed_aabb_count), c->indexed_aabb_count);
    }
    dbi_int(&r, COL(characters, unknown_a), c->unknown_a);
    dbi_int(&r, COL(characters, anim_name_count), c->anim_name_count);
    dbi_int(&r, COL(characters, part_count), c->part.count);
    dbi_int(&r, COL(characters, swhc_count), c->swhc.count);
    if (ANCS_HAS_THIRD_LIST(T))
        dbi_int(&r, COL(characters, third_list_count), c->third.count);
    dbi_int(&r, COL(characters, elsc_count), c->elsc.count);
    if (ANCS_HAS_AABBS(T))
        dbi_int(&r, COL(characters, aabb_count), c->aabb_count);
    if (ANCS_HAS_EFFECTS(T))
        dbi_int(&r, COL(characters, effect_count), c->effect_count);
    if (ANCS_HAS_ID_MAP(T))
        dbi_int(&r, COL(characters, id_map_count), c->id_map.count);
    dbi_text(&r, COL(characters, pas_magic), dbi_fourcc(c->pas.magic, magic));
    dbi_int(&r, COL(characters, pas_default_state), (int)c->pas.default_state);
    dbi_int(&r, COL(characters, pas_state_count), c->pas.state_count);
    dbi_int(&r, COL(characters, byte_offset), (int64_t)c->offset);
    return dbi_row_end(&r, w->err);
}

/* A character's rows. */
static int put_character(dbi_ancs_w *w, uint32_t ci, const ancs_character *c)
{
    util_err *err = w->err;
    const ancs_animset *as = &w->set->animset;
    int rc = 0;
    unsigned T = c->version;
    db_row r;
    TRY(put_character_row(w, ci, c));
    /* animation names and which animation-set entry each selects (CONTRACT rule 3) */
    for (uint32_t k = 0; k < c->anim_name_count; k++) {
        const ancs_anim_name *an = &c->anim_names[k];
        int64_t idx = -1;
        if (ANCS_HAS_ID_MAP(T)) {
            if (an->anim_id < c->id_map.count)
                idx = c->id_map.ids[an->anim_id];
        } else {
            idx = an->anim_id;
        }
        if (idx >= (int64_t)as->animation_count)
            idx = -1;
        TRY(dbi_row_begin(&r, w->d, TBL(character_anims), err));
        dbi_int(&r, COL(character_anims, ancs_id), w->ancs_id);
        dbi_int(&r, COL(character_anims, char_index), ci);
        dbi_int(&r, COL(character_anims, seq), k);
        dbi_int(&r, COL(character_anims, anim_id), an->anim_id);
        dbi_text(&r, COL(character_anims, unknown), an->unknown);
        dbi_text(&r, COL(character_anims, name), an->name);
        if (idx >= 0)
            dbi_int(&r, COL(character_anims, anim_index), idx);
        TRY(dbi_row_end(&r, err));
    }
    for (uint32_t k = 0; ANCS_HAS_ID_MAP(T) && k < c->id_map.count; k++) {
        TRY(dbi_row_begin(&r, w->d, TBL(anim_id_map), err));
        dbi_int(&r, COL(anim_id_map, ancs_id), w->ancs_id);
        dbi_int(&r, COL(anim_id_map, char_index), ci);
        dbi_int(&r, COL(anim_id_map, anim_id), k);
        dbi_int(&r, COL(anim_id_map, anim_index), c->id_map.ids[k]);
        TRY(dbi_row_end(&r, err));
    }
    TRY(put_pas(w, ci, c));
    /* particle lists (CONTRACT rule 2); the third list at T >= 6 has no known type */
    TRY(put_id_list(w, ci, &c->part, "PART", "PART"));
    TRY(put_id_list(w, ci, &c->swhc, "SWHC", "SWHC"));
    for (uint32_t k = 0; ANCS_HAS_THIRD_LIST(T) && k < c->third.count; k++)
        TRY(put_particle_ref(w, ci, "particles", "third_list", k, -1, NULL, c->third.ids[k]));
    TRY(put_id_list(w, ci, &c->elsc, "ELSC", "ELSC"));
    if (ANCS_HAS_MP2_FIELDS(T))
        TRY(put_id_list(w, ci, &c->spsc, "SPSC", "SPSC"));
    TRY(put_boxes_effects(w, ci, c));
    return rc;
}

static int put_ancs_row(dbi_ancs_w *w)
{
    const ancs_set *set = w->set;
    const ancs_animset *as = &set->animset;
    const ancs_meta_trans *dt = &as->default_transition;
    unsigned V = as->version;
    int mp2 = set->game == ANCS_GAME_MP2;
    db_row r;
    int rc = dbi_row_begin(&r, w->d, TBL(ancs), w->err);
    if (rc)
        return rc;
    dbi_int(&r, COL(ancs, asset_id), w->ancs_id);
    dbi_int(&r, COL(ancs, ancs_version), set->version);
    dbi_int(&r, COL(ancs, charset_version), set->charset_version);
    dbi_int(&r, COL(ancs, character_count), set->char_count);
    dbi_int(&r, COL(ancs, animset_version), V);
    dbi_int(&r, COL(ancs, animation_count), as->animation_count);
    dbi_int(&r, COL(ancs, transition_count), as->transition_count);
    if (ANCS_SET_HAS_ADDITIVE(V)) {
        dbi_int(&r, COL(ancs, additive_count), as->additive_count);
        dbi_real(&r, COL(ancs, default_fade_in), as->default_fade_in);
        dbi_real(&r, COL(ancs, default_fade_out), as->default_fade_out);
    }
    if (ANCS_SET_HAS_HALF(V))
        dbi_int(&r, COL(ancs, half_transition_count), as->half_count);
    if (ANCS_SET_HAS_TAIL(V) && !mp2)
        dbi_int(&r, COL(ancs, resource_pair_count), as->pair_count);
    if (ANCS_SET_HAS_TAIL(V) && mp2)
        dbi_int(&r, COL(ancs, event_set_count), as->event_set_count);
    dbi_int(&r, COL(ancs, default_trans_type), dt->type);
    if (dt->type == ANCS_TRANS_TRANS || dt->type == ANCS_TRANS_PHASE_TRANS) {
        dbi_real(&r, COL(ancs, default_trans_duration), dt->duration.time);
        dbi_int(&r, COL(ancs, default_trans_duration_type), dt->duration.type);
        dbi_int(&r, COL(ancs, default_trans_unknown_flag), dt->unknown_flag);
        dbi_int(&r, COL(ancs, default_trans_run_a), dt->run_a);
        dbi_int(&r, COL(ancs, default_trans_flags), dt->flags);
    }
    dbi_int(&r, COL(ancs, size), (int64_t)(set->report.consumed + set->report.trailing_len));
    dbi_int(&r, COL(ancs, consumed), (int64_t)set->report.consumed);
    dbi_int(&r, COL(ancs, trailing_len), (int64_t)set->report.trailing_len);
    dbi_int(&r, COL(ancs, trailing_all_ff), set->report.trailing_all_ff);
    return dbi_row_end(&r, w->err);
}

/* asset_refs: the edges ancs_reach gives. */
static int put_refs(dbi_ancs_w *w)
{
    ancs_edges edges = {0};
    int rc = ancs_reach(&edges, w->set, w->err);
    for (size_t i = 0; i < edges.len && !rc; i++) {
        const ancs_edge *e = &edges.items[i];
        char fc[5];
        rc = dbi_put_ref(w->d, "ANCS", w->ancs_id, e->typed ? dbi_fourcc(e->dst_type, fc) : NULL,
                         e->dst_id, e->char_index, e->via, w->err);
    }
    ancs_edges_free(&edges);
    return rc;
}

/* A char_reach row: one path ancs_char_paths gives. */
static int put_path(const ancs_path *p, void *ctx)
{
    dbi_ancs_w *w = ctx;
    char fc[5];
    db_row r;
    int rc = dbi_row_begin(&r, w->d, TBL(char_reach), w->err);
    if (rc)
        return rc;
    dbi_int(&r, COL(char_reach, ancs_id), w->ancs_id);
    dbi_int(&r, COL(char_reach, char_index), p->char_index);
    dbi_int(&r, COL(char_reach, rule), p->rule);
    dbi_int(&r, COL(char_reach, k1), p->k1);
    dbi_int(&r, COL(char_reach, k2), p->k2);
    dbi_int(&r, COL(char_reach, k3), p->k3);
    if (p->typed)
        dbi_text(&r, COL(char_reach, dst_type), dbi_fourcc(p->dst_type, fc));
    dbi_int(&r, COL(char_reach, dst_id), p->dst_id);
    dbi_text(&r, COL(char_reach, via), p->via);
    return dbi_row_end(&r, w->err);
}

static int put_ancs_rows(db *d, const char *game, uint32_t asset_id, const ancs_set *set,
                         util_err *err)
{
    dbi_ancs_w w = {.d = d, .ancs_id = asset_id, .set = set, .err = err};
    TRY(put_ancs_row(&w));
    TRY(dbi_put_report_warnings(d, game, "ANCS", asset_id, &set->report, err));
    TRY(dbi_put_animset(&w));
    for (uint32_t ci = 0; ci < set->char_count; ci++)
        TRY(put_character(&w, ci, &set->chars[ci]));
    TRY(put_refs(&w));
    /* the game of the rows, as the paths through EVNTs and event sets depend on it */
    ancs_game g = !strcmp(game, "MP1")   ? ANCS_GAME_MP1
                  : !strcmp(game, "MP2") ? ANCS_GAME_MP2
                                         : ANCS_GAME_AUTO;
    return ancs_char_paths(set, g, put_path, &w, err);
}

/* The rows of one decode, batched (see rows.c). */
int db_put_ancs(db *d, const char *game, uint32_t asset_id, int64_t content_id, const ancs_set *set,
                util_err *err)
{
    int rc = dbi_key_text(d, DBK_game, game, err); /* the key columns (tables.h) */
    dbi_key_int(d, DBK_content_id, content_id);
    d->content = content_id;
    if (rc)
        return rc;
    dbi_batch_begin(d);
    dbi_census_begin(d);
    rc = put_ancs_rows(d, game, asset_id, set, err);
    int crc = dbi_census_end(d, rc != 0, err);
    if (!rc)
        rc = crc;
    int frc = dbi_batch_end(d, rc != 0, err);
    d->content = 0;
    return rc ? rc : frc;
}
