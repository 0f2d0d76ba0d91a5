/* world_mlvl.c — MLVL bytes to structs (docs/formats.md §11).
 *
 * One cursor walks an arena copy of the input in stream order. Count errors follow ancs/: a
 * count that cannot fit in the bytes left (count > left / minimum element size) fails
 * UTIL_ETRUNC at the byte just after the count, before anything is allocated. A value that
 * breaks a rule of §11.3 fails UTIL_EFORMAT at the offset of that value. The per-area layer
 * count is only known once the layer tables after the areas are read; the areas' dependency
 * offset counts are checked against it then (at each offset list's count field). */
#include "world_int.h"

#include <string.h>

/* Minimum encoded sizes (§11.3). */
#define MIN_AREA_MP1    104
#define MIN_AREA_MP2    113
#define MIN_RELAY       11
#define MIN_AUDIO_GROUP 8
#define MIN_ATTACHED    2
#define MIN_DEP         8
#define MIN_U32         4
#define MIN_DOCK        8
#define MIN_DOCK_LINK   8
#define MIN_VEC3        12
#define MIN_CSTR        1
#define MIN_LAYER_FLAGS 12

typedef struct area_offs {
    uint64_t dep_offsets; /* of the dependency offset count */
} area_offs;

static int rd_f32s(wdec *d, float *f, int n)
{
    for (int i = 0; i < n; i++)
        TRY(util_rd_f32(&d->r, &f[i], d->err));
    return 0;
}

static int rd_cstr_list(wdec *d, uint32_t n, const char ***out)
{
    TRY(util_dec_array(d, out, n, sizeof **out));
    for (uint32_t i = 0; i < n; i++)
        TRY(util_rd_cstr(&d->r, &(*out)[i], NULL, d->err));
    return 0;
}

static int rd_u32_list(wdec *d, uint32_t n, uint32_t **out)
{
    TRY(util_dec_array(d, out, n, sizeof **out));
    for (uint32_t i = 0; i < n; i++)
        TRY(util_rd_u32(&d->r, &(*out)[i], d->err));
    return 0;
}

/* Dock: u32 + n x (u32 area_index, u32 dock_index), u32 + n x vec3. */
static int dec_dock(wdec *d, world_dock *k)
{
    TRY(util_dec_count(d, &k->link_count, MIN_DOCK_LINK, "dock connection"));
    TRY(util_dec_array(d, &k->links, k->link_count, sizeof *k->links));
    for (uint32_t i = 0; i < k->link_count; i++) {
        TRY(util_rd_u32(&d->r, &k->links[i].area_index, d->err));
        TRY(util_rd_u32(&d->r, &k->links[i].dock_index, d->err));
    }
    uint64_t coff = util_rd_off(&d->r);
    TRY(util_dec_count(d, &k->coord_count, MIN_VEC3, "dock coordinate"));
    if (k->coord_count != WORLD_DOCK_CORNERS)
        TRY(util_dec_warn(d, coff, "dock_coordinates", "dock has %u coordinates, normally %d",
                          k->coord_count, WORLD_DOCK_CORNERS));
    TRY(util_dec_array(d, &k->coords, k->coord_count, sizeof *k->coords));
    for (uint32_t i = 0; i < k->coord_count; i++)
        TRY(rd_f32s(d, k->coords[i].v, 3));
    return 0;
}

/* §11.2 Area (layout in world.h). */
static int dec_area(wdec *d, world_mlvl *m, uint32_t index, world_area *a, area_offs *ao)
{
    int mp2 = m->game == WORLD_GAME_MP2;
    a->offset = util_rd_off(&d->r);
    TRY(util_rd_u32(&d->r, &a->name_strg, d->err));
    TRY(rd_f32s(d, a->transform, 12));
    TRY(rd_f32s(d, a->bbox, 6));
    TRY(util_rd_u32(&d->r, &a->mrea_id, d->err));
    TRY(util_rd_u32(&d->r, &a->area_id, d->err));

    TRY(util_dec_count(d, &a->attached_count, MIN_ATTACHED, "attached area"));
    TRY(util_dec_array(d, &a->attached, a->attached_count, sizeof *a->attached));
    for (uint32_t i = 0; i < a->attached_count; i++) {
        uint64_t off = util_rd_off(&d->r);
        TRY(util_rd_u16(&d->r, &a->attached[i], d->err));
        if (a->attached[i] >= m->area_count)
            return util_fail(d->err, UTIL_EFORMAT, off,
                             "area %u attached area %u is index %u, but the world has %u areas",
                             index, i, a->attached[i], m->area_count);
    }

    uint64_t uoff = util_rd_off(&d->r);
    TRY(util_rd_u32(&d->r, &a->unknown, d->err));
    if (a->unknown != 0)
        TRY(util_dec_warn(d, uoff, "area_unknown", "area %u unknown word = %u, normally 0", index,
                          a->unknown));

    TRY(util_dec_count(d, &a->dep_count, MIN_DEP, "dependency"));
    TRY(util_dec_array(d, &a->deps, a->dep_count, sizeof *a->deps));
    for (uint32_t i = 0; i < a->dep_count; i++) {
        TRY(util_rd_u32(&d->r, &a->deps[i].id, d->err));
        TRY(util_rd_u32(&d->r, &a->deps[i].type, d->err));
        a->deps[i].layer_index = -1;
    }

    ao->dep_offsets = util_rd_off(&d->r);
    TRY(util_dec_count(d, &a->dep_offset_count, MIN_U32, "dependency offset"));
    TRY(util_dec_array(d, &a->dep_offsets, a->dep_offset_count, sizeof *a->dep_offsets));
    for (uint32_t i = 0; i < a->dep_offset_count; i++) {
        uint64_t off = util_rd_off(&d->r);
        uint32_t v;
        TRY(util_rd_u32(&d->r, &v, d->err));
        a->dep_offsets[i] = v;
        if (i == 0 && v != 0)
            return util_fail(d->err, UTIL_EFORMAT, off,
                             "area %u first dependency offset is %u, not 0", index, v);
        if (i > 0 && v < a->dep_offsets[i - 1])
            return util_fail(d->err, UTIL_EFORMAT, off,
                             "area %u dependency offset %u = %u is below the previous (%u)", index,
                             i, v, a->dep_offsets[i - 1]);
        if (v > a->dep_count)
            return util_fail(d->err, UTIL_EFORMAT, off,
                             "area %u dependency offset %u = %u is past its %u dependencies", index,
                             i, v, a->dep_count);
    }

    TRY(util_dec_count(d, &a->dock_count, MIN_DOCK, "dock"));
    TRY(util_dec_array(d, &a->docks, a->dock_count, sizeof *a->docks));
    for (uint32_t i = 0; i < a->dock_count; i++)
        TRY(dec_dock(d, &a->docks[i]));

    if (mp2) {
        TRY(util_dec_count(d, &a->rel_module_count, MIN_CSTR, "rel module"));
        TRY(rd_cstr_list(d, a->rel_module_count, &a->rel_modules));
        TRY(util_dec_count(d, &a->rel_offset_count, MIN_U32, "rel module offset"));
        TRY(rd_u32_list(d, a->rel_offset_count, &a->rel_offsets));
        TRY(util_rd_cstr(&d->r, &a->internal_name, NULL, d->err));
    }
    return 0;
}

/* Layers of each area from the tables after the areas: names by running sum of the layer
 * counts, active from the flags, dependency groups from the offsets, rel module ranges. */
static int derive_layers(wdec *d, world_mlvl *m, const area_offs *ao, uint64_t names_off)
{
    uint32_t first_name = 0;
    for (uint32_t i = 0; i < m->area_count; i++) {
        world_area *a = &m->areas[i];
        if (a->dep_offset_count != a->layer_count + 1)
            return util_fail(d->err, UTIL_EFORMAT, ao[i].dep_offsets,
                             "area %u has %u dependency offsets for %u layers (need layers + 1)", i,
                             a->dep_offset_count, a->layer_count);
        TRY(util_dec_array(d, &a->layers, a->layer_count, sizeof *a->layers));
        int rel_ok = m->game == WORLD_GAME_MP2 && a->rel_offset_count == 2 * a->layer_count;
        for (uint32_t l = 0; rel_ok && l < a->layer_count; l++)
            if (a->rel_offsets[2 * l] > a->rel_offsets[2 * l + 1] ||
                a->rel_offsets[2 * l + 1] > a->rel_module_count)
                rel_ok = 0;
        if (m->game == WORLD_GAME_MP2 && !rel_ok)
            TRY(util_dec_warn(d, a->offset, "rel_offsets",
                              "area %u: %u rel module offsets do not give a (start, end) pair per "
                              "layer for %u modules and %u layers",
                              i, a->rel_offset_count, a->rel_module_count, a->layer_count));
        for (uint32_t l = 0; l < a->layer_count; l++) {
            world_layer *y = &a->layers[l];
            y->name = m->layer_names[first_name + l];
            y->active = (int)((a->layer_flags >> l) & 1u);
            y->dep_start = a->dep_offsets[l];
            y->dep_count = a->dep_offsets[l + 1] - a->dep_offsets[l];
            for (uint32_t k = 0; k < y->dep_count; k++) {
                a->deps[y->dep_start + k].layer_index = (int32_t)l;
                a->deps[y->dep_start + k].dep_index = k;
            }
            if (rel_ok) {
                y->module_start = a->rel_offsets[2 * l];
                y->module_count = a->rel_offsets[2 * l + 1] - a->rel_offsets[2 * l];
            }
        }
        a->own_dep_start = a->dep_offsets[a->layer_count];
        a->own_dep_count = a->dep_count - a->own_dep_start;
        for (uint32_t k = 0; k < a->own_dep_count; k++) {
            a->deps[a->own_dep_start + k].layer_index = -1;
            a->deps[a->own_dep_start + k].dep_index = k;
        }
        if (i < m->layer_name_offset_count && m->layer_name_offsets[i] != first_name)
            TRY(util_dec_warn(d, names_off + 4 + 4ull * i, "layer_name_offset",
                              "area %u layer name offset %u, but its first layer name is %u", i,
                              m->layer_name_offsets[i], first_name));
        first_name += a->layer_count;
    }
    if (m->layer_name_offset_count != m->area_count)
        TRY(util_dec_warn(d, names_off, "layer_name_offset_count",
                          "%u layer name offsets for %u areas", m->layer_name_offset_count,
                          m->area_count));
    return 0;
}

int world_mlvl_decode(world_mlvl *out, const uint8_t *buf, size_t len, util_arena *arena,
                      util_err *err)
{
    memset(out, 0, sizeof *out);
    wdec dd, *d = &dd;
    TRY(util_dec_start(d, buf, len, &out->report, arena, err));
    world_mlvl *m = out;

    TRY(util_rd_u32(&d->r, &m->magic, err));
    if (m->magic != WORLD_MLVL_MAGIC)
        return util_fail(err, UTIL_EFORMAT, 0, "MLVL magic 0x%08X, expected 0x%08X", m->magic,
                         WORLD_MLVL_MAGIC);
    TRY(util_rd_u32(&d->r, &m->version, err));
    m->game = world_mlvl_version_game(m->version);
    if (m->game == WORLD_GAME_UNKNOWN)
        return util_fail(err, UTIL_EFORMAT, 4,
                         "MLVL version 0x%X is not read (0x11 Metroid Prime, 0x17 Echoes; 0x0D "
                         "and 0x14 are demos, 0x19 Prime 3, 0x1B DKCR)",
                         m->version);
    int mp2 = m->game == WORLD_GAME_MP2;

    TRY(util_rd_u32(&d->r, &m->world_name_strg, err));
    m->dark_world_name_strg = WORLD_NONE;
    m->temple_key_world_index = WORLD_NONE;
    if (mp2) {
        TRY(util_rd_u32(&d->r, &m->dark_world_name_strg, err));
        TRY(util_rd_u32(&d->r, &m->temple_key_world_index, err));
    }
    TRY(util_rd_u32(&d->r, &m->savw_id, err));
    TRY(util_rd_u32(&d->r, &m->default_skybox_id, err));
    if (!mp2) {
        TRY(util_dec_count(d, &m->memory_relay_count, MIN_RELAY, "memory relay"));
        TRY(util_dec_array(d, &m->memory_relays, m->memory_relay_count, sizeof *m->memory_relays));
        for (uint32_t i = 0; i < m->memory_relay_count; i++) {
            world_memory_relay *r = &m->memory_relays[i];
            TRY(util_rd_u32(&d->r, &r->instance_id, err));
            TRY(util_rd_u32(&d->r, &r->target_id, err));
            TRY(util_rd_u16(&d->r, &r->message, err));
            TRY(util_rd_u8(&d->r, &r->active, err));
        }
    }

    TRY(util_dec_count(d, &m->area_count, mp2 ? MIN_AREA_MP2 : MIN_AREA_MP1, "area"));
    if (!mp2) {
        uint64_t off = util_rd_off(&d->r);
        TRY(util_rd_u32(&d->r, &m->unknown_after_area_count, err));
        if (m->unknown_after_area_count != 1)
            TRY(util_dec_warn(d, off, "mlvl_const",
                              "MP1 word after the area count = %u, normally 1",
                              m->unknown_after_area_count));
    }
    TRY(util_dec_array(d, &m->areas, m->area_count, sizeof *m->areas));
    area_offs *ao = NULL;
    TRY(util_dec_array(d, &ao, m->area_count, sizeof *ao));
    for (uint32_t i = 0; i < m->area_count; i++)
        TRY(dec_area(d, m, i, &m->areas[i], &ao[i]));

    TRY(util_rd_u32(&d->r, &m->mapw_id, err));
    uint64_t off = util_rd_off(&d->r);
    TRY(util_rd_u8(&d->r, &m->script_layer_header, err));
    if (m->script_layer_header != 0)
        TRY(util_dec_warn(d, off, "script_layer_header",
                          "script layer header byte = %u, normally 0", m->script_layer_header));
    off = util_rd_off(&d->r);
    TRY(util_rd_u32(&d->r, &m->script_instance_count, err));
    if (m->script_instance_count != 0)
        return util_fail(err, UTIL_EFORMAT, off,
                         "embedded script layer with %u instances (only the MP1 demo has one; "
                         "not read)",
                         m->script_instance_count);
    if (!mp2) {
        TRY(util_dec_count(d, &m->audio_group_count, MIN_AUDIO_GROUP, "audio group"));
        TRY(util_dec_array(d, &m->audio_groups, m->audio_group_count, sizeof *m->audio_groups));
        for (uint32_t i = 0; i < m->audio_group_count; i++) {
            TRY(util_rd_u32(&d->r, &m->audio_groups[i].group_id, err));
            TRY(util_rd_u32(&d->r, &m->audio_groups[i].agsc_id, err));
        }
        off = util_rd_off(&d->r);
        TRY(util_rd_cstr(&d->r, &m->unknown_string, NULL, err));
        if (m->unknown_string[0])
            TRY(util_dec_warn(d, off, "mlvl_string",
                              "MP1 string after the audio groups is '%.64s', "
                              "normally empty",
                              m->unknown_string));
    }

    off = util_rd_off(&d->r);
    TRY(util_rd_u32(&d->r, &m->layer_flags_area_count, err));
    if (m->layer_flags_area_count != m->area_count)
        return util_fail(err, UTIL_EFORMAT, off, "layer flags for %u areas, but the world has %u",
                         m->layer_flags_area_count, m->area_count);
    TRY(util_rd_check_count(&d->r, m->area_count, MIN_LAYER_FLAGS, "layer flags", err));
    uint64_t layer_sum = 0;
    for (uint32_t i = 0; i < m->area_count; i++) {
        world_area *a = &m->areas[i];
        off = util_rd_off(&d->r);
        TRY(util_rd_u32(&d->r, &a->layer_count, err));
        if (a->layer_count > WORLD_MAX_LAYERS)
            return util_fail(err, UTIL_EFORMAT, off, "area %u has %u layers (at most %d)", i,
                             a->layer_count, WORLD_MAX_LAYERS);
        uint32_t hi, lo;
        TRY(util_rd_u32(&d->r, &hi, err));
        TRY(util_rd_u32(&d->r, &lo, err));
        a->layer_flags = (uint64_t)hi << 32 | lo;
        layer_sum += a->layer_count;
    }

    off = util_rd_off(&d->r);
    TRY(util_dec_count(d, &m->layer_name_count, MIN_CSTR, "layer name"));
    if (m->layer_name_count != layer_sum)
        return util_fail(err, UTIL_EFORMAT, off,
                         "%u layer names, but the areas have %llu layers in all",
                         m->layer_name_count, (unsigned long long)layer_sum);
    TRY(rd_cstr_list(d, m->layer_name_count, &m->layer_names));
    uint64_t names_off = util_rd_off(&d->r);
    TRY(util_dec_count(d, &m->layer_name_offset_count, MIN_U32, "layer name offset"));
    TRY(rd_u32_list(d, m->layer_name_offset_count, &m->layer_name_offsets));

    TRY(derive_layers(d, m, ao, names_off));
    return util_dec_finish(d);
}
