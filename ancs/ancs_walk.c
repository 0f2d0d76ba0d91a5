/* ancs_walk.c — visiting the Play nodes of meta-animation / meta-transition trees, and
 * small helpers (see ancs.h). */
#include "ancs.h"

/* Decoded trees are at most ANCS_MAX_DEPTH deep; hand-built deeper subtrees are not
 * visited past this bound, so a bad struct cannot exhaust the stack. */
#define WALK_MAX_DEPTH (4 * ANCS_MAX_DEPTH)

static void walk_anim(const ancs_meta_anim *m, ancs_play_fn fn, void *ctx, unsigned depth)
{
    if (!m || depth > WALK_MAX_DEPTH)
        return;
    if (m->type == ANCS_META_PLAY) {
        fn(m, ctx);
        return;
    }
    if (m->type != ANCS_META_BLEND && m->type != ANCS_META_PHASE_BLEND &&
        m->type != ANCS_META_RANDOM && m->type != ANCS_META_SEQUENCE)
        return;
    if (!m->children)
        return;
    for (uint32_t i = 0; i < m->child_count; i++)
        walk_anim(&m->children[i], fn, ctx, depth + 1);
}

void ancs_meta_anim_walk(const ancs_meta_anim *m, ancs_play_fn fn, void *ctx)
{
    walk_anim(m, fn, ctx, 1);
}

void ancs_meta_trans_walk(const ancs_meta_trans *t, ancs_play_fn fn, void *ctx)
{
    if (t && t->type == ANCS_TRANS_META_ANIM)
        walk_anim(t->anim, fn, ctx, 2);
}

const char *ancs_game_name(ancs_game g)
{
    switch (g) {
    case ANCS_GAME_MP1:
        return "MP1";
    case ANCS_GAME_MP2:
        return "MP2";
    default:
        return "auto";
    }
}
