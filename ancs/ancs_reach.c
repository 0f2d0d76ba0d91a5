/* ancs_reach.c — what each character of a decoded set reaches (CONTRACT.md "How a
 * character reaches an asset") as a list of distinct edges; db/ writes them as asset_refs.
 *
 * Every lookup is a hash: edges already emitted, the first resource pair of an ANIM ID,
 * the ANIMs and EVNTs some character reaches. A set whose characters all use hundreds of
 * animations therefore costs time in proportion to the edges it yields. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ancs.h"

/* ---- a hash set / map of 64-bit keys (open addressing; key 0 is never stored: keys are
 * made non-zero by the callers) ------------------------------------------------------------- */

typedef struct hmap {
    uint64_t *keys;
    uint32_t *vals;
    size_t cap, len; /* cap a power of two, len < cap / 2 */
} hmap;

static uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

static void hmap_free(hmap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* Slot of key k: where it is, or the empty slot where it would go. */
static size_t hmap_slot(const hmap *m, uint64_t k)
{
    size_t i = (size_t)mix(k) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != k)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static int hmap_grow(hmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    hmap n = {calloc(cap, sizeof *n.keys), calloc(cap, sizeof *n.vals), cap, 0};
    if (!n.keys || !n.vals) {
        hmap_free(&n);
        return UTIL_ENOMEM;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t j = hmap_slot(&n, m->keys[i]);
        n.keys[j] = m->keys[i];
        n.vals[j] = m->vals[i];
        n.len++;
    }
    hmap_free(m);
    *m = n;
    return 0;
}

/* Add k -> v unless k is there. *added (may be NULL) says which. */
static int hmap_put(hmap *m, uint64_t k, uint32_t v, int *added)
{
    if ((m->len + 1) * 2 > m->cap && hmap_grow(m))
        return UTIL_ENOMEM;
    size_t i = hmap_slot(m, k);
    if (added)
        *added = !m->keys[i];
    if (!m->keys[i]) {
        m->keys[i] = k;
        m->vals[i] = v;
        m->len++;
    }
    return 0;
}

static int hmap_get(const hmap *m, uint64_t k, uint32_t *v)
{
    if (!m->cap)
        return 0;
    size_t i = hmap_slot(m, k);
    if (!m->keys[i])
        return 0;
    if (v)
        *v = m->vals[i];
    return 1;
}

/* ---- edges ------------------------------------------------------------------------------ */

enum {
    V_MODEL,
    V_SKIN,
    V_SKELETON,
    V_FROZEN_MODEL,
    V_FROZEN_SKIN,
    V_CSPP,
    V_PARTICLES,
    V_THIRD_LIST,
    V_EFFECT,
    V_ANIMATION,
    V_ANIMATION_RESOURCES,
    V_EVENT,
    V_TRANSITION,
    V_HALF_TRANSITION,
    V_DEFAULT_TRANSITION,
    V_EVENT_SET,
    V_COUNT
};
static const char *const via_names[V_COUNT] = {
    "model",
    "skin",
    "skeleton",
    "frozen_model",
    "frozen_skin",
    "cspp",
    "particles",
    "third_list",
    "effect",
    "animation",
    "animation_resources",
    "event",
    "transition",
    "half_transition",
    "default_transition",
    "event_set",
};

typedef struct reach {
    const ancs_set *set;
    ancs_edges *out;
    hmap seen;               /* edges emitted: hash of the edge -> index in out */
    hmap first_pair;         /* ANIM ID -> index of its first resource pair */
    hmap anim_reached;       /* ANIM IDs some character reaches through its animations */
    hmap evnt_reached;       /* EVNT IDs some character reaches */
    UTIL_VEC(uint32_t) tree; /* ANIM IDs of the tree being visited, distinct */
    hmap tree_seen;          /* membership of tree[] (cleared per tree via a generation) */
    uint32_t gen;
    int rc;
} reach;

static int none(uint32_t id)
{
    return id == 0 || id == 0xFFFFFFFFu;
}

/* A non-zero 64-bit key of an edge for the seen-set; collisions are resolved by comparing
 * the stored edge. */
static uint64_t edge_key(const ancs_edge *e, int via)
{
    uint64_t k = (uint64_t)(uint32_t)(e->char_index + 1);
    k = k * 0x100000001b3ULL ^ e->dst_id;
    k = k * 0x100000001b3ULL ^ (e->typed ? e->dst_type : 0x1u);
    k = k * 0x100000001b3ULL ^ (uint64_t)via;
    return k ? k : 1;
}

static int same_edge(const ancs_edge *a, const ancs_edge *b)
{
    return a->char_index == b->char_index && a->dst_id == b->dst_id && a->typed == b->typed &&
           a->dst_type == b->dst_type && a->via == b->via;
}

/* Emit an edge unless it is a "none" ID or already emitted. *fresh (may be NULL): it was new. */
static int edge(reach *r, int64_t ci, uint32_t type, int typed, uint32_t id, int via, int *fresh)
{
    if (fresh)
        *fresh = 0;
    if (none(id))
        return 0;
    ancs_edge e = {ci, typed ? type : 0, typed, id, via_names[via]};
    uint64_t k = edge_key(&e, via);
    /* probe: equal keys of different edges are chained by re-keying */
    for (;;) {
        uint32_t at;
        if (!hmap_get(&r->seen, k, &at))
            break;
        if (same_edge(&r->out->items[at], &e))
            return 0;
        k = mix(k) | 1;
    }
    ancs_edges *o = r->out;
    if (o->len >= UINT32_MAX || hmap_put(&r->seen, k, (uint32_t)o->len, NULL) ||
        util_vec_push(o, e, NULL))
        return UTIL_ENOMEM;
    if (fresh)
        *fresh = 1;
    return 0;
}

/* ---- the ANIM IDs of one tree ------------------------------------------------------------ */

static void collect_play(const ancs_meta_anim *play, void *ctx)
{
    reach *r = ctx;
    int added = 0;
    if (r->rc)
        return;
    /* key: generation and ID, so the set needs no clearing between trees */
    uint64_t k = (uint64_t)r->gen << 32 | play->anim_id;
    if (hmap_put(&r->tree_seen, k, 0, &added)) {
        r->rc = UTIL_ENOMEM;
        return;
    }
    if (!added)
        return;
    if (util_vec_push(&r->tree, play->anim_id, NULL))
        r->rc = UTIL_ENOMEM;
}

/* The distinct ANIM IDs of the Play nodes of m or t, in walk order, into r->tree. */
static int tree_anims(reach *r, const ancs_meta_anim *m, const ancs_meta_trans *t)
{
    r->tree.len = 0;
    if (++r->gen == 0) { /* 2^32 trees: start the membership set afresh */
        hmap_free(&r->tree_seen);
        r->gen = 1;
    }
    if (m)
        ancs_meta_anim_walk(m, collect_play, r);
    if (t)
        ancs_meta_trans_walk(t, collect_play, r);
    return r->rc;
}

/* ---- the rules ---------------------------------------------------------------------------- */

static int trans_edges(reach *r, const ancs_meta_trans *t, int via)
{
    int rc = 0;
    if (t->type != ANCS_TRANS_META_ANIM || !t->anim)
        return 0;
    TRY(tree_anims(r, NULL, t));
    for (size_t i = 0; i < r->tree.len; i++)
        TRY(edge(r, -1, UTIL_FCC_ANIM, 1, r->tree.items[i], via, NULL));
    return rc;
}

static int id_list(reach *r, int64_t ci, const ancs_id_list *l, uint32_t type, int typed, int via)
{
    for (uint32_t k = 0; k < l->count; k++)
        TRY(edge(r, ci, type, typed, l->ids[k], via, NULL));
    return 0;
}

/* Rules 1 and 2: the character's own fields, particle lists and effect components. */
static int own_edges(reach *r, int64_t ci, const ancs_character *c)
{
    unsigned T = c->version;
    TRY(edge(r, ci, UTIL_FCC_CMDL, 1, c->model_id, V_MODEL, NULL));
    TRY(edge(r, ci, UTIL_FCC_CSKR, 1, c->skin_id, V_SKIN, NULL));
    TRY(edge(r, ci, UTIL_FCC_CINF, 1, c->skeleton_id, V_SKELETON, NULL));
    if (ANCS_HAS_FROZEN(T)) {
        TRY(edge(r, ci, UTIL_FCC_CMDL, 1, c->frozen_model_id, V_FROZEN_MODEL, NULL));
        TRY(edge(r, ci, UTIL_FCC_CSKR, 1, c->frozen_skin_id, V_FROZEN_SKIN, NULL));
    }
    if (ANCS_HAS_MP2_FIELDS(T))
        TRY(edge(r, ci, UTIL_FCC_CSPP, 1, c->cspp_id, V_CSPP, NULL));
    TRY(id_list(r, ci, &c->part, UTIL_FCC_PART, 1, V_PARTICLES));
    TRY(id_list(r, ci, &c->swhc, UTIL_FCC_SWHC, 1, V_PARTICLES));
    if (ANCS_HAS_THIRD_LIST(T))
        TRY(id_list(r, ci, &c->third, 0, 0, V_THIRD_LIST));
    TRY(id_list(r, ci, &c->elsc, UTIL_FCC_ELSC, 1, V_PARTICLES));
    if (ANCS_HAS_MP2_FIELDS(T))
        TRY(id_list(r, ci, &c->spsc, UTIL_FCC_SPSC, 1, V_PARTICLES));
    for (uint32_t e = 0; e < c->effect_count; e++)
        for (uint32_t k = 0; k < c->effects[e].comp_count; k++) {
            const ancs_effect_comp *cp = &c->effects[e].comps[k];
            TRY(edge(r, ci, cp->particle_type, 1, cp->particle_id, V_EFFECT, NULL));
        }
    return 0;
}

/* Rule 4: the particle nodes of event set ev whose character index is -1 or ci (ci -1:
 * every node, set level). */
static int event_particles(reach *r, const ancs_evnt *ev, int64_t ci, int via)
{
    for (uint32_t k = 0; k < ev->particle_count; k++) {
        const ancs_poi_particle *p = &ev->particles[k];
        if (ci >= 0 && p->base.char_index != -1 && p->base.char_index != ci)
            continue;
        TRY(edge(r, ci, p->particle_type, 1, p->particle_id, via, NULL));
    }
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Rule 3: the animation-set entries character ci uses (used[i] = 1), then what they reach. */
static int anim_edges(reach *r, int64_t ci, const ancs_character *c, uint8_t *used,
                      uint8_t *any_used)
{
    const ancs_animset *as = &r->set->animset;
    int mp2 = r->set->game == ANCS_GAME_MP2;
    unsigned T = c->version;
    size_t na = as->animation_count;
    /* which entries: through the ID map (version >= 5) or directly; used[] is cleared
     * again below, so the work follows the names, not the animation count */
    uint32_t *list = malloc((c->anim_name_count ? (size_t)c->anim_name_count : 1) * sizeof *list);
    size_t nl = 0;
    int rc = 0;
    if (!list)
        return UTIL_ENOMEM;
    for (uint32_t k = 0; k < c->anim_name_count; k++) {
        uint32_t id = c->anim_names[k].anim_id;
        int64_t idx = -1;
        if (ANCS_HAS_ID_MAP(T)) {
            if (id < c->id_map.count)
                idx = c->id_map.ids[id];
        } else {
            idx = id;
        }
        if (idx < 0 || (uint64_t)idx >= na || used[idx])
            continue;
        used[idx] = 1;
        list[nl++] = (uint32_t)idx;
    }
    /* in animation-set order, as the entries are numbered */
    if (nl > 1)
        qsort(list, nl, sizeof *list, cmp_u32);
    for (size_t n = 0; n < nl && !rc; n++) {
        uint32_t i = list[n];
        used[i] = 0;
        any_used[i] = 1;
        if ((rc = tree_anims(r, &as->animations[i].meta, NULL)) != 0)
            break;
        for (size_t k = 0; k < r->tree.len && !rc; k++) {
            uint32_t anim = r->tree.items[k];
            int fresh = 0;
            if ((rc = edge(r, ci, UTIL_FCC_ANIM, 1, anim, V_ANIMATION, &fresh)) != 0 ||
                (rc = hmap_put(&r->anim_reached, (uint64_t)anim + 1, 0, NULL)) != 0)
                break;
            uint32_t p;
            /* MP1: the EVNT of the ANIM's first pair, once per (character, ANIM) */
            if (mp2 || (!fresh && !none(anim)) || !hmap_get(&r->first_pair, (uint64_t)anim + 1, &p))
                continue;
            uint32_t ev = as->pairs[p].evnt_id;
            if ((rc = edge(r, ci, UTIL_FCC_EVNT, 1, ev, V_ANIMATION_RESOURCES, NULL)) != 0)
                break;
            if (!none(ev))
                rc = hmap_put(&r->evnt_reached, (uint64_t)ev + 1, 0, NULL);
        }
        if (!rc && mp2 && i < as->event_set_count)
            rc = event_particles(r, &as->event_sets[i], ci, V_EVENT);
    }
    for (size_t n = 0; n < nl; n++)
        used[list[n]] = 0;
    free(list);
    return rc;
}

static int run(reach *r)
{
    const ancs_set *set = r->set;
    const ancs_animset *as = &set->animset;
    size_t na = as->animation_count;
    uint8_t *used = calloc(na ? na : 1, 1), *any_used = calloc(na ? na : 1, 1);
    int rc = 0;
    if (!used || !any_used) {
        rc = UTIL_ENOMEM;
        goto done;
    }
    for (uint32_t p = 0; p < as->pair_count && !rc; p++) /* first pair of an ANIM wins */
        rc = hmap_put(&r->first_pair, (uint64_t)as->pairs[p].anim_id + 1, p, NULL);
    /* references of the transitions: no character owns them */
    for (uint32_t i = 0; i < as->transition_count && !rc; i++)
        rc = trans_edges(r, &as->transitions[i].trans, V_TRANSITION);
    if (!rc)
        rc = trans_edges(r, &as->default_transition, V_DEFAULT_TRANSITION);
    for (uint32_t i = 0; i < as->half_count && !rc; i++)
        rc = trans_edges(r, &as->halfs[i].trans, V_HALF_TRANSITION);
    /* each character */
    for (uint32_t ci = 0; ci < set->char_count && !rc; ci++) {
        rc = own_edges(r, ci, &set->chars[ci]);
        if (!rc)
            rc = anim_edges(r, ci, &set->chars[ci], used, any_used);
    }
    /* what no character reaches: animations no character uses, resource pairs, event sets */
    for (uint32_t i = 0; i < na && !rc; i++) {
        if (any_used[i])
            continue;
        if ((rc = tree_anims(r, &as->animations[i].meta, NULL)) != 0)
            break;
        for (size_t k = 0; k < r->tree.len && !rc; k++)
            if (!hmap_get(&r->anim_reached, (uint64_t)r->tree.items[k] + 1, NULL))
                rc = edge(r, -1, UTIL_FCC_ANIM, 1, r->tree.items[k], V_ANIMATION, NULL);
    }
    for (uint32_t p = 0; p < as->pair_count && !rc; p++) {
        const ancs_res_pair *rp = &as->pairs[p];
        if (!hmap_get(&r->anim_reached, (uint64_t)rp->anim_id + 1, NULL))
            rc = edge(r, -1, UTIL_FCC_ANIM, 1, rp->anim_id, V_ANIMATION_RESOURCES, NULL);
        if (!rc && !hmap_get(&r->evnt_reached, (uint64_t)rp->evnt_id + 1, NULL))
            rc = edge(r, -1, UTIL_FCC_EVNT, 1, rp->evnt_id, V_ANIMATION_RESOURCES, NULL);
    }
    for (uint32_t i = 0; i < as->event_set_count && !rc; i++)
        if (i >= na || !any_used[i])
            rc = event_particles(r, &as->event_sets[i], -1, V_EVENT_SET);
done:
    free(used);
    free(any_used);
    return rc;
}

int ancs_reach(ancs_edges *out, const ancs_set *set, util_err *err)
{
    reach r;
    memset(&r, 0, sizeof r);
    r.set = set;
    r.out = out;
    out->len = 0;
    int rc = run(&r);
    hmap_free(&r.seen);
    hmap_free(&r.first_pair);
    hmap_free(&r.anim_reached);
    hmap_free(&r.evnt_reached);
    hmap_free(&r.tree_seen);
    util_vec_free(&r.tree);
    if (rc)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory listing references");
    return 0;
}

void ancs_edges_free(ancs_edges *e)
{
    util_vec_free(e);
}

/* ---- the paths of each character (char_reach) ------------------------------------------ */

typedef UTIL_VEC(uint32_t) u32_vec;

typedef struct paths {
    const ancs_set *set;
    ancs_game game;
    ancs_path_fn fn;
    void *ctx;
    hmap first_pair;       /* MP1: ANIM ID + 1 -> index of its first resource pair */
    hmap seen;             /* (entry + 1, ANIM ID) of the trees listed */
    u32_vec ids, seqs;     /* per animation-set entry, its distinct ANIMs ("none" left out), each
                              with the position of its first Play node */
    size_t *start;         /* entry i's in ids and seqs: start[i] to start[i + 1] */
    uint32_t entry, nplay; /* the tree being listed, its Play nodes so far */
    UTIL_VEC(char) via;    /* the path being made, NUL-terminated */
    int rc;
} paths;

static void list_play(const ancs_meta_anim *play, void *ctx)
{
    paths *w = ctx;
    uint32_t seq = w->nplay++;
    int added = 0;
    if (w->rc || none(play->anim_id))
        return;
    if (hmap_put(&w->seen, ((uint64_t)w->entry + 1) << 32 | play->anim_id, 0, &added) != 0 ||
        (added &&
         (util_vec_push(&w->ids, play->anim_id, NULL) || util_vec_push(&w->seqs, seq, NULL))))
        w->rc = UTIL_ENOMEM;
}

/* Append printf-formatted text to the path being made (w->via, kept NUL-terminated). */
static int via_fmt(paths *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int via_fmt(paths *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || util_vec_reserve(&w->via, (size_t)n + 1, NULL))
        return UTIL_ENOMEM;
    va_start(ap, fmt);
    vsnprintf(w->via.items + w->via.len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    w->via.len += (size_t)n;
    return 0;
}

/* A name in a path: " 'name'", nothing when there is none (an empty one is quoted). */
static int via_name(paths *w, const char *name)
{
    return name ? via_fmt(w, " '%s'", name) : 0;
}

/* Hand the path made in w->via to the callback unless id is "none"; w->via is then empty. */
static int emit(paths *w, uint32_t ci, uint32_t rule, uint32_t k1, uint32_t k2, uint32_t k3,
                uint32_t type, int typed, uint32_t id)
{
    ancs_path p = {ci, rule, k1, k2, k3, typed ? type : 0, typed, id, w->via.items};
    int rc = none(id) ? 0 : w->fn(&p, w->ctx);
    w->via.len = 0;
    return rc;
}

static int list_paths(paths *w, uint32_t ci, const ancs_id_list *l, uint32_t k1, const char *list,
                      uint32_t type, int typed)
{
    for (uint32_t k = 0; k < l->count; k++) {
        TRY(via_fmt(w, "particles %s %u", list, k));
        TRY(emit(w, ci, 2, k1, k, 0, type, typed, l->ids[k]));
    }
    return 0;
}

/* A path of rule 1, whose text is the field's name. */
static int own_field(paths *w, uint32_t ci, uint32_t k1, uint32_t type, uint32_t id,
                     const char *field)
{
    TRY(via_fmt(w, "%s", field));
    return emit(w, ci, 1, k1, 0, 0, type, 1, id);
}

/* Rules 1 to 3: the character's own fields, particle lists and effect components. */
static int own_paths(paths *w, uint32_t ci, const ancs_character *c)
{
    unsigned T = c->version;
    TRY(own_field(w, ci, 1, UTIL_FCC_CMDL, c->model_id, "model"));
    TRY(own_field(w, ci, 2, UTIL_FCC_CSKR, c->skin_id, "skin"));
    TRY(own_field(w, ci, 3, UTIL_FCC_CINF, c->skeleton_id, "skeleton"));
    if (ANCS_HAS_FROZEN(T)) {
        TRY(own_field(w, ci, 4, UTIL_FCC_CMDL, c->frozen_model_id, "frozen_model"));
        TRY(own_field(w, ci, 5, UTIL_FCC_CSKR, c->frozen_skin_id, "frozen_skin"));
    }
    if (ANCS_HAS_MP2_FIELDS(T))
        TRY(own_field(w, ci, 6, UTIL_FCC_CSPP, c->cspp_id, "cspp"));
    TRY(list_paths(w, ci, &c->part, 0, "PART", UTIL_FCC_PART, 1));
    TRY(list_paths(w, ci, &c->swhc, 1, "SWHC", UTIL_FCC_SWHC, 1));
    if (ANCS_HAS_THIRD_LIST(T))
        TRY(list_paths(w, ci, &c->third, 2, "third_list", 0, 0));
    TRY(list_paths(w, ci, &c->elsc, 3, "ELSC", UTIL_FCC_ELSC, 1));
    if (ANCS_HAS_MP2_FIELDS(T))
        TRY(list_paths(w, ci, &c->spsc, 4, "SPSC", UTIL_FCC_SPSC, 1));
    for (uint32_t e = 0; e < c->effect_count; e++) {
        const ancs_effect *ef = &c->effects[e];
        for (uint32_t k = 0; k < ef->comp_count; k++) {
            const ancs_effect_comp *cp = &ef->comps[k];
            TRY(via_fmt(w, "effect %u", e));
            TRY(via_name(w, ef->name));
            TRY(via_fmt(w, " > component %u", k));
            TRY(via_name(w, cp->name));
            TRY(emit(w, ci, 3, e, k, 0, cp->particle_type, 1, cp->particle_id));
        }
    }
    return 0;
}

/* Rule 4 for animation-set entry i, which character ci uses. */
static int entry_paths(paths *w, uint32_t ci, uint32_t i)
{
    const ancs_animset *as = &w->set->animset;
    for (size_t k = w->start[i]; k < w->start[i + 1]; k++) {
        uint32_t anim = w->ids.items[k], seq = w->seqs.items[k], p;
        TRY(via_fmt(w, "animation %u", i));
        TRY(emit(w, ci, 4, i, seq, 0, UTIL_FCC_ANIM, 1, anim));
        if (w->game != ANCS_GAME_MP1 || !hmap_get(&w->first_pair, (uint64_t)anim + 1, &p))
            continue;
        TRY(via_fmt(w, "animation %u > ANIM %08X", i, anim));
        TRY(emit(w, ci, 4, i, seq, 1, UTIL_FCC_EVNT, 1, as->pairs[p].evnt_id));
    }
    if (w->game != ANCS_GAME_MP2 || i >= as->event_set_count)
        return 0;
    const ancs_evnt *ev = &as->event_sets[i];
    for (uint32_t k = 0; k < ev->particle_count; k++) {
        const ancs_poi_particle *pp = &ev->particles[k];
        if (pp->base.char_index != -1 && pp->base.char_index != (int64_t)ci)
            continue;
        TRY(via_fmt(w, "animation %u > event set %u > particle node %u", i, i, k));
        TRY(via_name(w, pp->base.name));
        TRY(emit(w, ci, 4, i, 1000000, 2 + k, pp->particle_type, 1, pp->particle_id));
    }
    return 0;
}

static int run_paths(paths *w)
{
    const ancs_set *set = w->set;
    const ancs_animset *as = &set->animset;
    size_t na = as->animation_count;
    uint32_t *used = calloc(na ? na : 1, sizeof *used); /* ci + 1: entry used by ci */
    w->start = calloc(na + 1, sizeof *w->start);
    if (!used || !w->start) {
        free(used);
        return UTIL_ENOMEM;
    }
    int rc = 0;
    for (uint32_t p = 0; p < as->pair_count && !rc; p++) /* first pair of an ANIM wins */
        rc = hmap_put(&w->first_pair, (uint64_t)as->pairs[p].anim_id + 1, p, NULL);
    for (uint32_t i = 0; i < na && !rc; i++) {
        w->entry = i;
        w->nplay = 0;
        ancs_meta_anim_walk(&as->animations[i].meta, list_play, w);
        rc = w->rc;
        w->start[i + 1] = w->ids.len;
    }
    for (uint32_t ci = 0; ci < set->char_count && !rc; ci++) {
        const ancs_character *c = &set->chars[ci];
        rc = own_paths(w, ci, c);
        /* the entries its animation names select, through the ID map from version 5 */
        for (uint32_t k = 0; k < c->anim_name_count && !rc; k++) {
            uint32_t id = c->anim_names[k].anim_id;
            int64_t idx = -1;
            if (ANCS_HAS_ID_MAP(c->version)) {
                if (id < c->id_map.count)
                    idx = c->id_map.ids[id];
            } else {
                idx = id;
            }
            if (idx < 0 || (uint64_t)idx >= na || used[idx] == ci + 1)
                continue;
            used[idx] = ci + 1;
            rc = entry_paths(w, ci, (uint32_t)idx);
        }
    }
    free(used);
    return rc;
}

int ancs_char_paths(const ancs_set *set, ancs_game game, ancs_path_fn fn, void *ctx, util_err *err)
{
    paths w;
    memset(&w, 0, sizeof w);
    w.set = set;
    w.game = game;
    w.fn = fn;
    w.ctx = ctx;
    int rc = run_paths(&w);
    hmap_free(&w.first_pair);
    hmap_free(&w.seen);
    util_vec_free(&w.ids);
    util_vec_free(&w.seqs);
    util_vec_free(&w.via);
    free(w.start);
    if (rc == UTIL_ENOMEM)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory listing paths");
    return rc;
}
