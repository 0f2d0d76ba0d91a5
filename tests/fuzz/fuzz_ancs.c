/* fuzz_ancs.c — ANCS decoder on arbitrary bytes, as MP1, MP2 and auto-detected; decoded
 * trees are walked, and what each character reaches listed (edges and paths). Any crash,
 * leak or sanitizer report is a bug, and so is a path to a "none" ID or without text. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ancs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_play(const ancs_meta_anim *m, void *ctx)
{
    (*(size_t *)ctx) += m->anim_id & 1;
}

static int on_path(const ancs_path *p, void *ctx)
{
    if (p->dst_id == 0 || p->dst_id == 0xFFFFFFFFu || !p->via || !p->via[0])
        abort();
    (*(size_t *)ctx)++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const ancs_game games[] = {ANCS_GAME_AUTO, ANCS_GAME_MP1, ANCS_GAME_MP2};
    for (size_t g = 0; g < 3; g++) {
        util_arena a;
        util_arena_init(&a);
        util_err err;
        ancs_set s;
        if (ancs_decode(&s, data, size, games[g], &a, &err) == 0) {
            size_t n = 0;
            for (uint32_t i = 0; i < s.animset.animation_count; i++)
                ancs_meta_anim_walk(&s.animset.animations[i].meta, on_play, &n);
            for (uint32_t i = 0; i < s.animset.transition_count; i++)
                ancs_meta_trans_walk(&s.animset.transitions[i].trans, on_play, &n);
            ancs_meta_trans_walk(&s.animset.default_transition, on_play, &n);
            ancs_edges e = {0};
            (void)ancs_reach(&e, &s, &err);
            ancs_edges_free(&e);
            (void)ancs_char_paths(&s, s.game, on_path, &n, &err);
        }
        util_arena_free(&a);
    }
    return 0;
}
