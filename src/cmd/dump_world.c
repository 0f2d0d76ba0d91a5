/* dump_world.c — `ancs dump` of an MLVL (world) and of a STRG (string table): the header
 * fields and every decoded structure, through the tree/JSON writer (see dump.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dump.h"

static void header_common(tw *e, const char *file, const char *type, int has_id, uint32_t asset,
                          world_game g, size_t size, uint32_t version, const world_report *r)
{
    tw_begin(e);
    tw_str(e, "file", file);
    tw_str(e, "type", type);
    if (has_id)
        tw_id(e, "asset_id", asset);
    else
        tw_null(e, "asset_id");
    tw_str(e, "game", world_game_name(g));
    tw_uint(e, "size", size);
    tw_uint(e, "version", version);
    tw_uint(e, "consumed", r->consumed);
    tw_uint(e, "trailing_bytes", r->trailing_len);
    tw_bool(e, "trailing_all_ff", r->trailing_all_ff);
    tw_arr(e, "warnings", (uint32_t)r->warning_count);
    for (const world_warning *w = r->warnings; w; w = w->next) {
        tw_obj(e, NULL);
        tw_uint(e, "offset", w->offset);
        tw_str(e, "code", w->code);
        tw_str(e, "message", w->msg);
        tw_end(e, 0);
    }
    tw_end(e, 1);
}

static void deps_(tw *e, const char *k, const world_dep *d, uint32_t n)
{
    tw_arr(e, k, n);
    for (uint32_t i = 0; i < n; i++) {
        tw_obj(e, NULL);
        tw_fourcc(e, "type", d[i].type);
        tw_id(e, "id", d[i].id);
        tw_end(e, 0);
    }
    tw_end(e, 1);
}

static void area_(tw *e, const world_mlvl *m, const world_area *a, uint32_t index)
{
    int mp2 = m->game == WORLD_GAME_MP2;
    tw_obj(e, NULL);
    tw_uint(e, "index", index);
    tw_uint(e, "offset", a->offset);
    tw_id(e, "name_strg", a->name_strg);
    tw_id(e, "mrea_id", a->mrea_id);
    tw_id(e, "area_id", a->area_id);
    tw_f32s(e, "transform", a->transform, 12);
    tw_f32s(e, "bounding_box", a->bbox, 6);
    tw_arr(e, "attached_areas", a->attached_count);
    for (uint32_t i = 0; i < a->attached_count; i++)
        tw_uint(e, NULL, a->attached[i]);
    tw_end(e, 1);
    tw_uint(e, "unknown", a->unknown);
    tw_uint(e, "layer_count", a->layer_count);
    char flags[20];
    snprintf(flags, sizeof flags, "%016llX", (unsigned long long)a->layer_flags);
    tw_str(e, "layer_flags", flags);
    tw_arr(e, "dependency_offsets", a->dep_offset_count);
    for (uint32_t i = 0; i < a->dep_offset_count; i++)
        tw_uint(e, NULL, a->dep_offsets[i]);
    tw_end(e, 1);
    tw_arr(e, "layers", a->layer_count);
    for (uint32_t l = 0; l < a->layer_count; l++) {
        const world_layer *y = &a->layers[l];
        tw_obj(e, NULL);
        tw_uint(e, "index", l);
        tw_str(e, "name", y->name);
        tw_bool(e, "active", y->active);
        deps_(e, "dependencies", a->deps + y->dep_start, y->dep_count);
        if (mp2) {
            tw_arr(e, "modules", y->module_count);
            for (uint32_t k = 0; k < y->module_count; k++)
                tw_str(e, NULL, a->rel_modules[y->module_start + k]);
            tw_end(e, 1);
        }
        tw_end(e, 0);
    }
    tw_end(e, 1);
    deps_(e, "area_dependencies", a->deps + a->own_dep_start, a->own_dep_count);
    tw_arr(e, "docks", a->dock_count);
    for (uint32_t i = 0; i < a->dock_count; i++) {
        const world_dock *k = &a->docks[i];
        tw_obj(e, NULL);
        tw_arr(e, "connecting_docks", k->link_count);
        for (uint32_t j = 0; j < k->link_count; j++) {
            tw_obj(e, NULL);
            tw_uint(e, "area_index", k->links[j].area_index);
            tw_uint(e, "dock_index", k->links[j].dock_index);
            tw_end(e, 0);
        }
        tw_end(e, 1);
        tw_arr(e, "coordinates", k->coord_count);
        for (uint32_t j = 0; j < k->coord_count; j++)
            tw_f32s(e, NULL, k->coords[j].v, 3);
        tw_end(e, 1);
        tw_end(e, 0);
    }
    tw_end(e, 1);
    if (mp2) {
        tw_arr(e, "rel_modules", a->rel_module_count);
        for (uint32_t i = 0; i < a->rel_module_count; i++)
            tw_str(e, NULL, a->rel_modules[i]);
        tw_end(e, 1);
        tw_arr(e, "rel_module_offsets", a->rel_offset_count);
        for (uint32_t i = 0; i < a->rel_offset_count; i++)
            tw_uint(e, NULL, a->rel_offsets[i]);
        tw_end(e, 1);
    } else {
        tw_null(e, "rel_modules");
        tw_null(e, "rel_module_offsets");
    }
    tw_str(e, "internal_name", a->internal_name);
    tw_end(e, 0);
}

void cli_dump_mlvl(tw *e, const char *file, int has_id, uint32_t asset, size_t size,
                   const world_mlvl *m)
{
    int mp2 = m->game == WORLD_GAME_MP2;
    header_common(e, file, "MLVL", has_id, asset, m->game, size, m->version, &m->report);
    tw_id(e, "world_name_strg", m->world_name_strg);
    if (mp2) {
        tw_id(e, "dark_world_name_strg", m->dark_world_name_strg);
        tw_uint(e, "temple_key_world_index", m->temple_key_world_index);
    } else {
        tw_null(e, "dark_world_name_strg");
        tw_null(e, "temple_key_world_index");
    }
    tw_id(e, "savw_id", m->savw_id);
    tw_id(e, "default_skybox_id", m->default_skybox_id);
    if (mp2) {
        tw_null(e, "memory_relays");
    } else {
        tw_arr(e, "memory_relays", m->memory_relay_count);
        for (uint32_t i = 0; i < m->memory_relay_count; i++) {
            tw_obj(e, NULL);
            tw_uint(e, "instance_id", m->memory_relays[i].instance_id);
            tw_uint(e, "target_id", m->memory_relays[i].target_id);
            tw_uint(e, "message", m->memory_relays[i].message);
            tw_uint(e, "active", m->memory_relays[i].active);
            tw_end(e, 0);
        }
        tw_end(e, 1);
    }
    tw_uint(e, "area_count", m->area_count);
    if (mp2)
        tw_null(e, "unknown_after_area_count");
    else
        tw_uint(e, "unknown_after_area_count", m->unknown_after_area_count);
    tw_id(e, "mapw_id", m->mapw_id);
    tw_uint(e, "script_layer_header", m->script_layer_header);
    tw_uint(e, "script_instance_count", m->script_instance_count);
    if (mp2) {
        tw_null(e, "audio_groups");
    } else {
        tw_arr(e, "audio_groups", m->audio_group_count);
        for (uint32_t i = 0; i < m->audio_group_count; i++) {
            tw_obj(e, NULL);
            tw_uint(e, "group_id", m->audio_groups[i].group_id);
            tw_id(e, "agsc_id", m->audio_groups[i].agsc_id);
            tw_end(e, 0);
        }
        tw_end(e, 1);
    }
    if (mp2)
        tw_null(e, "unknown_string");
    else
        tw_str(e, "unknown_string", m->unknown_string);
    tw_arr(e, "layer_name_offsets", m->layer_name_offset_count);
    for (uint32_t i = 0; i < m->layer_name_offset_count; i++)
        tw_uint(e, NULL, m->layer_name_offsets[i]);
    tw_end(e, 1);
    tw_arr(e, "areas", m->area_count);
    for (uint32_t i = 0; i < m->area_count; i++)
        area_(e, m, &m->areas[i], i);
    tw_end(e, 1);
    tw_finish(e);
}

void cli_dump_strg(tw *e, const char *file, int has_id, uint32_t asset, size_t size,
                   const world_strg *s)
{
    header_common(e, file, "STRG", has_id, asset, s->game, size, s->version, &s->report);
    tw_uint(e, "language_count", s->language_count);
    tw_uint(e, "string_count", s->string_count);
    tw_bool(e, "layout_kept_as_stored", s->raw_body != NULL);
    tw_arr(e, "languages", s->language_count);
    for (uint32_t k = 0; k < s->language_count; k++) {
        const world_strg_lang *l = &s->languages[k];
        tw_obj(e, NULL);
        tw_fourcc(e, "language", l->lang);
        tw_uint(e, "offset", l->offset);
        tw_uint(e, "size", l->size);
        tw_arr(e, "strings", s->string_count);
        for (uint32_t i = 0; i < s->string_count; i++)
            tw_str(e, NULL, l->strings[i]);
        tw_end(e, 1);
        tw_end(e, 0);
    }
    tw_end(e, 1);
    if (s->game == WORLD_GAME_MP2) {
        tw_arr(e, "names", s->name_count);
        for (uint32_t i = 0; i < s->name_count; i++) {
            tw_obj(e, NULL);
            tw_str(e, "name", s->names[i].name);
            tw_uint(e, "string_index", s->names[i].string_index);
            tw_end(e, 0);
        }
        tw_end(e, 1);
    } else {
        tw_null(e, "names");
    }
    tw_finish(e);
}

/* An EVNT starts with its version (1 or 2), an ANCS with u16 1, u16 1 (0x00010001). */
