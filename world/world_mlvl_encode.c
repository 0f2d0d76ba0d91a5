/* world_mlvl_encode.c — MLVL structs back to bytes, the exact mirror of world_mlvl.c (so
 * encode(decode(x)) == x, trailing bytes included), and world_mlvl_pack, which fills the
 * stored tables of a world built by hand from its layers. */
#include "world.h"

#include <string.h>

static int bad(util_err *err, const char *what)
{
    return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "cannot encode MLVL: %s", what);
}

#define CHECK_ARR(err, n, p, what)                                                                 \
    do {                                                                                           \
        if ((n) && !(p))                                                                           \
            return bad((err), what " count without array");                                        \
    } while (0)

/* Floats go out as their stored bit pattern (NaN payloads included). */
static void wr_f32s(util_wr *w, const float *f, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &f[i], sizeof u);
        util_wr_u32(w, u);
    }
}

static int enc_area(util_wr *w, const world_mlvl *m, const world_area *a, util_err *err)
{
    CHECK_ARR(err, a->attached_count, a->attached, "attached area");
    CHECK_ARR(err, a->dep_count, a->deps, "dependency");
    CHECK_ARR(err, a->dep_offset_count, a->dep_offsets, "dependency offset");
    CHECK_ARR(err, a->dock_count, a->docks, "dock");
    util_wr_u32(w, a->name_strg);
    wr_f32s(w, a->transform, 12);
    wr_f32s(w, a->bbox, 6);
    util_wr_u32(w, a->mrea_id);
    util_wr_u32(w, a->area_id);
    util_wr_u32(w, a->attached_count);
    for (uint32_t i = 0; i < a->attached_count; i++)
        util_wr_u16(w, a->attached[i]);
    util_wr_u32(w, a->unknown);
    util_wr_u32(w, a->dep_count);
    for (uint32_t i = 0; i < a->dep_count; i++) {
        util_wr_u32(w, a->deps[i].id);
        util_wr_u32(w, a->deps[i].type);
    }
    util_wr_u32(w, a->dep_offset_count);
    for (uint32_t i = 0; i < a->dep_offset_count; i++)
        util_wr_u32(w, a->dep_offsets[i]);
    util_wr_u32(w, a->dock_count);
    for (uint32_t i = 0; i < a->dock_count; i++) {
        const world_dock *k = &a->docks[i];
        CHECK_ARR(err, k->link_count, k->links, "dock connection");
        CHECK_ARR(err, k->coord_count, k->coords, "dock coordinate");
        util_wr_u32(w, k->link_count);
        for (uint32_t j = 0; j < k->link_count; j++) {
            util_wr_u32(w, k->links[j].area_index);
            util_wr_u32(w, k->links[j].dock_index);
        }
        util_wr_u32(w, k->coord_count);
        for (uint32_t j = 0; j < k->coord_count; j++)
            wr_f32s(w, k->coords[j].v, 3);
    }
    if (m->game == WORLD_GAME_MP2) {
        CHECK_ARR(err, a->rel_module_count, a->rel_modules, "rel module");
        CHECK_ARR(err, a->rel_offset_count, a->rel_offsets, "rel module offset");
        util_wr_u32(w, a->rel_module_count);
        for (uint32_t i = 0; i < a->rel_module_count; i++)
            util_wr_cstr(w, a->rel_modules[i]);
        util_wr_u32(w, a->rel_offset_count);
        for (uint32_t i = 0; i < a->rel_offset_count; i++)
            util_wr_u32(w, a->rel_offsets[i]);
        util_wr_cstr(w, a->internal_name);
    }
    return 0;
}

int world_mlvl_encode(util_wr *w, const world_mlvl *m, util_err *err)
{
    world_game g = world_mlvl_version_game(m->version);
    if (g == WORLD_GAME_UNKNOWN || (m->game != WORLD_GAME_UNKNOWN && m->game != g))
        return bad(err, "version is neither 0x11 (MP1) nor 0x17 (MP2), or disagrees with game");
    int mp2 = g == WORLD_GAME_MP2;
    world_mlvl mm = *m;
    mm.game = g;
    CHECK_ARR(err, m->area_count, m->areas, "area");
    CHECK_ARR(err, m->layer_name_count, m->layer_names, "layer name");
    CHECK_ARR(err, m->layer_name_offset_count, m->layer_name_offsets, "layer name offset");
    if (m->layer_flags_area_count != m->area_count)
        return bad(err, "layer_flags_area_count differs from area_count");

    util_wr_u32(w, m->magic ? m->magic : WORLD_MLVL_MAGIC);
    util_wr_u32(w, m->version);
    util_wr_u32(w, m->world_name_strg);
    if (mp2) {
        util_wr_u32(w, m->dark_world_name_strg);
        util_wr_u32(w, m->temple_key_world_index);
    }
    util_wr_u32(w, m->savw_id);
    util_wr_u32(w, m->default_skybox_id);
    if (!mp2) {
        CHECK_ARR(err, m->memory_relay_count, m->memory_relays, "memory relay");
        util_wr_u32(w, m->memory_relay_count);
        for (uint32_t i = 0; i < m->memory_relay_count; i++) {
            const world_memory_relay *r = &m->memory_relays[i];
            util_wr_u32(w, r->instance_id);
            util_wr_u32(w, r->target_id);
            util_wr_u16(w, r->message);
            util_wr_u8(w, r->active);
        }
    }
    util_wr_u32(w, m->area_count);
    if (!mp2)
        util_wr_u32(w, m->unknown_after_area_count);
    for (uint32_t i = 0; i < m->area_count; i++)
        TRY(enc_area(w, &mm, &m->areas[i], err));
    util_wr_u32(w, m->mapw_id);
    util_wr_u8(w, m->script_layer_header);
    util_wr_u32(w, m->script_instance_count);
    if (!mp2) {
        CHECK_ARR(err, m->audio_group_count, m->audio_groups, "audio group");
        util_wr_u32(w, m->audio_group_count);
        for (uint32_t i = 0; i < m->audio_group_count; i++) {
            util_wr_u32(w, m->audio_groups[i].group_id);
            util_wr_u32(w, m->audio_groups[i].agsc_id);
        }
        util_wr_cstr(w, m->unknown_string);
    }
    util_wr_u32(w, m->layer_flags_area_count);
    for (uint32_t i = 0; i < m->area_count; i++) {
        util_wr_u32(w, m->areas[i].layer_count);
        util_wr_u32(w, (uint32_t)(m->areas[i].layer_flags >> 32));
        util_wr_u32(w, (uint32_t)m->areas[i].layer_flags);
    }
    util_wr_u32(w, m->layer_name_count);
    for (uint32_t i = 0; i < m->layer_name_count; i++)
        util_wr_cstr(w, m->layer_names[i]);
    util_wr_u32(w, m->layer_name_offset_count);
    for (uint32_t i = 0; i < m->layer_name_offset_count; i++)
        util_wr_u32(w, m->layer_name_offsets[i]);
    if (m->report.trailing_len && !m->report.trailing)
        return bad(err, "trailing length without bytes");
    util_wr_bytes(w, m->report.trailing, m->report.trailing_len);
    return util_wr_status(w, err);
}

int world_mlvl_pack(world_mlvl *m, util_arena *arena, util_err *err)
{
    CHECK_ARR(err, m->area_count, m->areas, "area");
    uint64_t total = 0;
    for (uint32_t i = 0; i < m->area_count; i++) {
        const world_area *a = &m->areas[i];
        if (a->layer_count > WORLD_MAX_LAYERS)
            return bad(err, "more than 64 layers in an area");
        CHECK_ARR(err, a->layer_count, a->layers, "layer");
        total += a->layer_count;
    }
    if (total > UINT32_MAX)
        return bad(err, "too many layers");
    m->game = world_mlvl_version_game(m->version);
    m->layer_flags_area_count = m->area_count;
    m->layer_name_count = (uint32_t)total;
    m->layer_name_offset_count = m->area_count;
    m->layer_names = total ? util_arena_array(arena, total, sizeof *m->layer_names) : NULL;
    m->layer_name_offsets =
        m->area_count ? util_arena_array(arena, m->area_count, sizeof *m->layer_name_offsets)
                      : NULL;
    if ((total && !m->layer_names) || (m->area_count && !m->layer_name_offsets))
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    uint32_t next_name = 0;
    for (uint32_t i = 0; i < m->area_count; i++) {
        world_area *a = &m->areas[i];
        uint64_t deps = a->own_dep_count;
        for (uint32_t l = 0; l < a->layer_count; l++)
            deps += a->layers[l].dep_count;
        if (deps != a->dep_count)
            return bad(err, "an area's layer and own dependency counts do not add up to "
                            "dep_count");
        CHECK_ARR(err, a->dep_count, a->deps, "dependency");
        a->dep_offset_count = a->layer_count + 1;
        a->dep_offsets = util_arena_array(arena, a->dep_offset_count, sizeof *a->dep_offsets);
        if (!a->dep_offsets)
            return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        uint64_t flags = ~(uint64_t)0;
        uint32_t at = 0;
        m->layer_name_offsets[i] = next_name;
        for (uint32_t l = 0; l < a->layer_count; l++) {
            world_layer *y = &a->layers[l];
            if (!y->active)
                flags &= ~((uint64_t)1 << l);
            m->layer_names[next_name++] = y->name ? y->name : "";
            a->dep_offsets[l] = at;
            y->dep_start = at;
            for (uint32_t k = 0; k < y->dep_count; k++) {
                a->deps[at + k].layer_index = (int32_t)l;
                a->deps[at + k].dep_index = k;
            }
            at += y->dep_count;
        }
        a->dep_offsets[a->layer_count] = at;
        a->own_dep_start = at;
        for (uint32_t k = 0; k < a->own_dep_count; k++) {
            a->deps[at + k].layer_index = -1;
            a->deps[at + k].dep_index = k;
        }
        a->layer_flags = flags;
    }
    return 0;
}
