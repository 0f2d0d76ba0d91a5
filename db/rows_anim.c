/* rows_anim.c — the animation set of an ANCS as rows: animations, every node of their
 * meta-animation trees (and of the transitions' trees) in pre-order, the Play nodes as
 * anim_primitives, transitions, half transitions, additive animations, resource pairs and
 * MP2 event sets. */
#include <stdio.h>

#include "internal.h"

static const char *prob_pattern(const ancs_meta_anim *m)
{
    if (!m->probabilities || m->child_count == 0)
        return "empty";
    for (uint32_t i = 1; i < m->child_count; i++)
        if (m->probabilities[i] < m->probabilities[i - 1])
            return "not_ascending";
    return m->probabilities[m->child_count - 1] >= 100 ? "ascending_to_100" : "ascending_below_100";
}

static int tree_depth(const ancs_meta_anim *m, int depth)
{
    int best = depth;
    if (depth > 4 * ANCS_MAX_DEPTH || m->type == ANCS_META_PLAY || !m->children)
        return best;
    for (uint32_t i = 0; i < m->child_count; i++) {
        int t = tree_depth(&m->children[i], depth + 1);
        if (t > best)
            best = t;
    }
    return best;
}

static int put_primitive(dbi_ancs_w *w, const ancs_meta_anim *m)
{
    db_row r;
    int rc = dbi_row_begin(&r, w->d, TBL(anim_primitives), w->err);
    if (rc)
        return rc;
    dbi_int(&r, COL(anim_primitives, ancs_id), w->ancs_id);
    dbi_text(&r, COL(anim_primitives, owner), w->owner);
    dbi_int(&r, COL(anim_primitives, owner_index), w->owner_index);
    dbi_int(&r, COL(anim_primitives, seq), w->prim_seq++);
    dbi_int(&r, COL(anim_primitives, anim_asset_id), m->anim_id);
    dbi_int(&r, COL(anim_primitives, primitive_id), m->primitive_id);
    dbi_text(&r, COL(anim_primitives, name), m->primitive_name);
    dbi_real(&r, COL(anim_primitives, start_time), (double)m->start_time.time);
    dbi_int(&r, COL(anim_primitives, start_time_type), (int)m->start_time.type);
    return dbi_row_end(&r, w->err);
}

/* Pre-order rows of every node of one tree, and the Play nodes as anim_primitives. */
static int put_nodes(dbi_ancs_w *w, const ancs_meta_anim *m, int64_t parent, int64_t child_pos,
                     const char *path, int depth, int64_t probability)
{
    int rc = 0;
    uint32_t my = w->seq++;
    int play = m->type == ANCS_META_PLAY;
    int blend = m->type == ANCS_META_BLEND || m->type == ANCS_META_PHASE_BLEND;
    if (depth > 4 * ANCS_MAX_DEPTH)
        return 0;
    db_row r;
    TRY(dbi_row_begin(&r, w->d, TBL(meta_anim_nodes), w->err));
    dbi_int(&r, COL(meta_anim_nodes, ancs_id), w->ancs_id);
    dbi_text(&r, COL(meta_anim_nodes, owner), w->owner);
    dbi_int(&r, COL(meta_anim_nodes, owner_index), w->owner_index);
    dbi_int(&r, COL(meta_anim_nodes, seq), my);
    if (parent >= 0)
        dbi_int(&r, COL(meta_anim_nodes, parent_seq), parent);
    if (child_pos >= 0)
        dbi_int(&r, COL(meta_anim_nodes, child_pos), child_pos);
    dbi_text(&r, COL(meta_anim_nodes, path), path);
    dbi_int(&r, COL(meta_anim_nodes, depth), depth);
    dbi_int(&r, COL(meta_anim_nodes, type), m->type);
    if (play) {
        dbi_int(&r, COL(meta_anim_nodes, anim_asset_id), m->anim_id);
        dbi_int(&r, COL(meta_anim_nodes, primitive_id), m->primitive_id);
        dbi_text(&r, COL(meta_anim_nodes, primitive_name), m->primitive_name);
        dbi_real(&r, COL(meta_anim_nodes, start_time), m->start_time.time);
        dbi_int(&r, COL(meta_anim_nodes, start_time_type), m->start_time.type);
    }
    if (blend) {
        dbi_real(&r, COL(meta_anim_nodes, blend_weight), m->blend_weight);
        dbi_int(&r, COL(meta_anim_nodes, unknown_flag), m->unknown_flag);
    }
    if (!play)
        dbi_int(&r, COL(meta_anim_nodes, child_count), m->child_count);
    if (probability >= 0)
        dbi_int(&r, COL(meta_anim_nodes, probability), probability);
    if (m->type == ANCS_META_RANDOM)
        dbi_text(&r, COL(meta_anim_nodes, prob_pattern), prob_pattern(m));
    dbi_int(&r, COL(meta_anim_nodes, byte_offset), (int64_t)m->offset);
    TRY(dbi_row_end(&r, w->err));
    if (play)
        return put_primitive(w, m);
    if (!m->children)
        return 0;
    for (uint32_t i = 0; i < m->child_count; i++) {
        char sub[512];
        int subn = snprintf(sub, sizeof sub, "%s%s%u", path, *path ? "." : "", i);
        if (subn < 0 || (size_t)subn >= sizeof sub)
            return util_fail(w->err, UTIL_EFORMAT, UINT64_MAX, "meta-animation path too deep");
        int64_t p =
            m->type == ANCS_META_RANDOM && m->probabilities ? (int64_t)m->probabilities[i] : -1;
        TRY(put_nodes(w, &m->children[i], my, i, sub, depth + 1, p));
    }
    return rc;
}

/* Rows of one tree owned by (owner, index). */
static int put_tree(dbi_ancs_w *w, const char *owner, uint32_t index, const ancs_meta_anim *m)
{
    w->owner = owner;
    w->owner_index = index;
    w->seq = 0;
    w->prim_seq = 0;
    return put_nodes(w, m, -1, -1, "", 1, -1);
}

/* A meta-transition's tree (MetaAnim transitions only). */
static int put_trans_tree(dbi_ancs_w *w, const char *owner, uint32_t index,
                          const ancs_meta_trans *t)
{
    if (t->type != ANCS_TRANS_META_ANIM || !t->anim)
        return 0;
    return put_tree(w, owner, index, t->anim);
}

static int trans_fields(const ancs_meta_trans *t)
{
    return t->type == ANCS_TRANS_TRANS || t->type == ANCS_TRANS_PHASE_TRANS;
}

/* A meta-transition's columns: type at col, then for Trans/PhaseTrans its duration, duration
 * type, flag, run_a and flags at the next five (NULL otherwise). The tables list these six
 * columns in this order. */
static void put_trans_cols(db_row *r, int col, const ancs_meta_trans *t)
{
    dbi_int(r, col, t->type);
    if (trans_fields(t)) {
        dbi_real(r, col + 1, t->duration.time);
        dbi_int(r, col + 2, t->duration.type);
        dbi_int(r, col + 3, t->unknown_flag);
        dbi_int(r, col + 4, t->run_a);
        dbi_int(r, col + 5, t->flags);
    }
}

/* The six columns put_trans_cols fills must follow each other in tables.h. */
_Static_assert(COL(transitions, flags) - COL(transitions, trans_type) == 5, "transition columns");
_Static_assert(COL(half_transitions, flags) - COL(half_transitions, trans_type) == 5,
               "half transition columns");

int dbi_put_animset(dbi_ancs_w *w)
{
    const ancs_animset *as = &w->set->animset;
    util_err *err = w->err;
    int rc = 0;
    db_row r;
    for (uint32_t i = 0; i < as->animation_count; i++) {
        const ancs_animation *an = &as->animations[i];
        TRY(dbi_row_begin(&r, w->d, TBL(animations), err));
        dbi_int(&r, COL(animations, ancs_id), w->ancs_id);
        dbi_int(&r, COL(animations, anim_index), i);
        dbi_text(&r, COL(animations, name), an->name);
        dbi_int(&r, COL(animations, meta_type), an->meta.type);
        dbi_int(&r, COL(animations, depth), tree_depth(&an->meta, 1));
        TRY(dbi_row_end(&r, err));
        TRY(put_tree(w, "animation", i, &an->meta));
    }
    for (uint32_t i = 0; i < as->transition_count; i++) {
        const ancs_transition *t = &as->transitions[i];
        TRY(dbi_row_begin(&r, w->d, TBL(transitions), err));
        dbi_int(&r, COL(transitions, ancs_id), w->ancs_id);
        dbi_int(&r, COL(transitions, trans_index), i);
        dbi_int(&r, COL(transitions, unknown_id), t->unknown_id);
        dbi_int(&r, COL(transitions, anim_a), t->anim_a);
        dbi_int(&r, COL(transitions, anim_b), t->anim_b);
        put_trans_cols(&r, COL(transitions, trans_type), &t->trans);
        TRY(dbi_row_end(&r, err));
        TRY(put_trans_tree(w, "transition", i, &t->trans));
    }
    TRY(put_trans_tree(w, "default_transition", 0, &as->default_transition));
    for (uint32_t i = 0; i < as->additive_count; i++) {
        const ancs_additive *a = &as->additives[i];
        TRY(dbi_row_begin(&r, w->d, TBL(additive_animations), err));
        dbi_int(&r, COL(additive_animations, ancs_id), w->ancs_id);
        dbi_int(&r, COL(additive_animations, seq), i);
        dbi_int(&r, COL(additive_animations, anim_index), a->anim_index);
        dbi_real(&r, COL(additive_animations, fade_in), (double)a->fade_in);
        dbi_real(&r, COL(additive_animations, fade_out), (double)a->fade_out);
        TRY(dbi_row_end(&r, err));
    }
    for (uint32_t i = 0; i < as->half_count; i++) {
        const ancs_half_transition *h = &as->halfs[i];
        TRY(dbi_row_begin(&r, w->d, TBL(half_transitions), err));
        dbi_int(&r, COL(half_transitions, ancs_id), w->ancs_id);
        dbi_int(&r, COL(half_transitions, half_index), i);
        dbi_int(&r, COL(half_transitions, anim), h->anim);
        put_trans_cols(&r, COL(half_transitions, trans_type), &h->trans);
        TRY(dbi_row_end(&r, err));
        TRY(put_trans_tree(w, "half_transition", i, &h->trans));
    }
    for (uint32_t i = 0; i < as->pair_count; i++) {
        TRY(dbi_row_begin(&r, w->d, TBL(animation_resources), err));
        dbi_int(&r, COL(animation_resources, ancs_id), w->ancs_id);
        dbi_int(&r, COL(animation_resources, res_index), i);
        dbi_int(&r, COL(animation_resources, anim_asset_id), as->pairs[i].anim_id);
        dbi_int(&r, COL(animation_resources, evnt_asset_id), as->pairs[i].evnt_id);
        TRY(dbi_row_end(&r, err));
    }
    for (uint32_t i = 0; i < as->event_set_count; i++) {
        const ancs_evnt *ev = &as->event_sets[i];
        TRY(dbi_row_begin(&r, w->d, TBL(event_sets), err));
        dbi_int(&r, COL(event_sets, ancs_id), w->ancs_id);
        dbi_int(&r, COL(event_sets, anim_index), i);
        dbi_int(&r, COL(event_sets, version), ev->version);
        dbi_int(&r, COL(event_sets, bool_count), ev->bool_count);
        dbi_int(&r, COL(event_sets, int32_count), ev->int32_count);
        dbi_int(&r, COL(event_sets, particle_count), ev->particle_count);
        if (ev->version >= 2)
            dbi_int(&r, COL(event_sets, sound_count), ev->sound_count);
        TRY(dbi_row_end(&r, err));
        TRY(dbi_put_event_nodes(w->d, "ANCS", w->ancs_id, i, ev, 1, err));
    }
    return rc;
}
