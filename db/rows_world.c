/* rows_world.c — the rows of a decoded MLVL (mlvl_worlds, its memory relays and audio groups,
 * mlvl_areas, area_layers, area_deps, area_attached, area_dock_links, area_modules) and of a
 * decoded STRG (strg, strings), with their decoder warnings; and an MLVL's asset_refs rows,
 * whose `via` names each area from its STRG, with the labels they used (mlvl_ref_labels). The
 * final pass (db/census/20_world.sql) makes the same rows again when an area's name changes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A world_report's warnings as warnings rows of the content being written. */
static int put_world_warnings(db *d, const char *game, const char *type, uint32_t id,
                              const world_report *rep, util_err *err)
{
    for (const world_warning *w = rep->warnings; w; w = w->next) {
        int rc = dbi_warn(d, game, type, id, w->offset == UINT64_MAX ? -1 : (int64_t)w->offset,
                          w->code, w->msg, -1, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* An asset ID column: NULL when the field is absent (WORLD_NONE stands for "none" in the
 * bytes and is kept as stored). */
static void put_id(db_row *r, int col, uint32_t v)
{
    dbi_int(r, col, v);
}

/* The layer (-1: own group) whose range of area.layers holds module k, or -2 for none. */
static int64_t module_layer(const world_area *a, uint32_t k)
{
    for (uint32_t i = 0; i < a->layer_count; i++) {
        const world_layer *l = &a->layers[i];
        if (l->module_count && k >= l->module_start && k - l->module_start < l->module_count)
            return i;
    }
    return -2;
}

static int put_area(db *d, uint32_t mlvl_id, const world_mlvl *m, uint32_t ai, util_err *err)
{
    const world_area *a = &m->areas[ai];
    int rc = 0;
    db_row r;
    char tf[12 * 16 + 1];
    size_t n = 0;
    for (int k = 0; k < 12; k++)
        n += (size_t)snprintf(tf + n, sizeof tf - n, "%s%.9g", k ? " " : "",
                              (double)a->transform[k]);
    TRY(dbi_row_begin(&r, d, TBL(mlvl_areas), err));
    dbi_int(&r, COL(mlvl_areas, mlvl_id), mlvl_id);
    dbi_int(&r, COL(mlvl_areas, area_index), ai);
    put_id(&r, COL(mlvl_areas, mrea_id), a->mrea_id);
    dbi_int(&r, COL(mlvl_areas, area_id), a->area_id);
    put_id(&r, COL(mlvl_areas, name_strg), a->name_strg);
    dbi_text(&r, COL(mlvl_areas, internal_name), a->internal_name);
    dbi_int(&r, COL(mlvl_areas, layer_count), a->layer_count);
    dbi_int(&r, COL(mlvl_areas, layer_flags), (int64_t)a->layer_flags);
    dbi_int(&r, COL(mlvl_areas, attached_count), a->attached_count);
    dbi_int(&r, COL(mlvl_areas, unknown), a->unknown);
    dbi_int(&r, COL(mlvl_areas, dependency_count), a->dep_count);
    dbi_int(&r, COL(mlvl_areas, dock_count), a->dock_count);
    if (m->game == WORLD_GAME_MP2)
        dbi_int(&r, COL(mlvl_areas, module_count), a->rel_module_count);
    dbi_text(&r, COL(mlvl_areas, transform), tf);
    dbi_real(&r, COL(mlvl_areas, position_x), a->transform[3]);
    dbi_real(&r, COL(mlvl_areas, position_y), a->transform[7]);
    dbi_real(&r, COL(mlvl_areas, position_z), a->transform[11]);
    dbi_real(&r, COL(mlvl_areas, min_x), a->bbox[0]);
    dbi_real(&r, COL(mlvl_areas, min_y), a->bbox[1]);
    dbi_real(&r, COL(mlvl_areas, min_z), a->bbox[2]);
    dbi_real(&r, COL(mlvl_areas, max_x), a->bbox[3]);
    dbi_real(&r, COL(mlvl_areas, max_y), a->bbox[4]);
    dbi_real(&r, COL(mlvl_areas, max_z), a->bbox[5]);
    dbi_int(&r, COL(mlvl_areas, byte_offset), (int64_t)a->offset);
    TRY(dbi_row_end(&r, err));
    for (uint32_t i = 0; i < a->layer_count; i++) {
        const world_layer *l = &a->layers[i];
        TRY(dbi_row_begin(&r, d, TBL(area_layers), err));
        dbi_int(&r, COL(area_layers, mlvl_id), mlvl_id);
        dbi_int(&r, COL(area_layers, area_index), ai);
        dbi_int(&r, COL(area_layers, layer_index), i);
        dbi_text(&r, COL(area_layers, name), l->name);
        dbi_int(&r, COL(area_layers, active), l->active ? 1 : 0);
        dbi_int(&r, COL(area_layers, dependency_count), l->dep_count);
        TRY(dbi_row_end(&r, err));
    }
    char fc[5];
    for (uint32_t k = 0; k < a->dep_count; k++) {
        const world_dep *dep = &a->deps[k];
        TRY(dbi_row_begin(&r, d, TBL(area_deps), err));
        dbi_int(&r, COL(area_deps, mlvl_id), mlvl_id);
        dbi_int(&r, COL(area_deps, area_index), ai);
        dbi_int(&r, COL(area_deps, layer_index), dep->layer_index);
        dbi_int(&r, COL(area_deps, dep_index), dep->dep_index);
        dbi_int(&r, COL(area_deps, seq), k);
        dbi_text(&r, COL(area_deps, type), dbi_fourcc(dep->type, fc));
        dbi_int(&r, COL(area_deps, asset_id), dep->id);
        TRY(dbi_row_end(&r, err));
    }
    for (uint32_t k = 0; k < a->attached_count; k++) {
        TRY(dbi_row_begin(&r, d, TBL(area_attached), err));
        dbi_int(&r, COL(area_attached, mlvl_id), mlvl_id);
        dbi_int(&r, COL(area_attached, area_index), ai);
        dbi_int(&r, COL(area_attached, attached_index), k);
        dbi_int(&r, COL(area_attached, other_area_index), a->attached[k]);
        TRY(dbi_row_end(&r, err));
    }
    for (uint32_t k = 0; k < a->dock_count; k++) {
        const world_dock *dk = &a->docks[k];
        for (uint32_t j = 0; j < dk->link_count; j++) {
            TRY(dbi_row_begin(&r, d, TBL(area_dock_links), err));
            dbi_int(&r, COL(area_dock_links, mlvl_id), mlvl_id);
            dbi_int(&r, COL(area_dock_links, area_index), ai);
            dbi_int(&r, COL(area_dock_links, dock_index), k);
            dbi_int(&r, COL(area_dock_links, link_index), j);
            dbi_int(&r, COL(area_dock_links, other_area_index), dk->links[j].area_index);
            dbi_int(&r, COL(area_dock_links, other_dock_index), dk->links[j].dock_index);
            dbi_int(&r, COL(area_dock_links, coordinate_count), dk->coord_count);
            TRY(dbi_row_end(&r, err));
        }
    }
    for (uint32_t k = 0; k < a->rel_module_count; k++) {
        int64_t li = module_layer(a, k);
        TRY(dbi_row_begin(&r, d, TBL(area_modules), err));
        dbi_int(&r, COL(area_modules, mlvl_id), mlvl_id);
        dbi_int(&r, COL(area_modules, area_index), ai);
        dbi_int(&r, COL(area_modules, module_index), k);
        if (li >= 0)
            dbi_int(&r, COL(area_modules, layer_index), li);
        dbi_text(&r, COL(area_modules, name), a->rel_modules[k]);
        TRY(dbi_row_end(&r, err));
    }
    return rc;
}

static int put_mlvl_rows(db *d, const char *game, uint32_t id, const world_mlvl *m, util_err *err)
{
    int rc = 0;
    int mp1 = m->game != WORLD_GAME_MP2;
    db_row r;
    TRY(dbi_row_begin(&r, d, TBL(mlvl_worlds), err));
    dbi_int(&r, COL(mlvl_worlds, mlvl_id), id);
    dbi_int(&r, COL(mlvl_worlds, version), m->version);
    put_id(&r, COL(mlvl_worlds, world_name_strg), m->world_name_strg);
    if (!mp1) {
        put_id(&r, COL(mlvl_worlds, dark_world_name_strg), m->dark_world_name_strg);
        dbi_int(&r, COL(mlvl_worlds, temple_key_world_index), m->temple_key_world_index);
    }
    put_id(&r, COL(mlvl_worlds, savw_id), m->savw_id);
    put_id(&r, COL(mlvl_worlds, default_skybox_id), m->default_skybox_id);
    if (mp1) {
        dbi_int(&r, COL(mlvl_worlds, memory_relay_count), m->memory_relay_count);
        dbi_int(&r, COL(mlvl_worlds, unknown_after_area_count), m->unknown_after_area_count);
        dbi_int(&r, COL(mlvl_worlds, audio_group_count), m->audio_group_count);
        dbi_text(&r, COL(mlvl_worlds, unknown_string), m->unknown_string);
    }
    dbi_int(&r, COL(mlvl_worlds, area_count), m->area_count);
    put_id(&r, COL(mlvl_worlds, mapw_id), m->mapw_id);
    dbi_int(&r, COL(mlvl_worlds, script_layer_header), m->script_layer_header);
    dbi_int(&r, COL(mlvl_worlds, script_instance_count), m->script_instance_count);
    dbi_int(&r, COL(mlvl_worlds, layer_name_count), m->layer_name_count);
    dbi_int(&r, COL(mlvl_worlds, size), (int64_t)(m->report.consumed + m->report.trailing_len));
    dbi_int(&r, COL(mlvl_worlds, trailing_len), (int64_t)m->report.trailing_len);
    TRY(dbi_row_end(&r, err));
    for (uint32_t k = 0; mp1 && k < m->memory_relay_count; k++) {
        const world_memory_relay *mr = &m->memory_relays[k];
        TRY(dbi_row_begin(&r, d, TBL(mlvl_memory_relays), err));
        dbi_int(&r, COL(mlvl_memory_relays, mlvl_id), id);
        dbi_int(&r, COL(mlvl_memory_relays, relay_index), k);
        dbi_int(&r, COL(mlvl_memory_relays, instance_id), mr->instance_id);
        dbi_int(&r, COL(mlvl_memory_relays, target_id), mr->target_id);
        dbi_int(&r, COL(mlvl_memory_relays, message), mr->message);
        dbi_int(&r, COL(mlvl_memory_relays, active), mr->active);
        TRY(dbi_row_end(&r, err));
    }
    for (uint32_t k = 0; mp1 && k < m->audio_group_count; k++) {
        TRY(dbi_row_begin(&r, d, TBL(mlvl_audio_groups), err));
        dbi_int(&r, COL(mlvl_audio_groups, mlvl_id), id);
        dbi_int(&r, COL(mlvl_audio_groups, group_index), k);
        dbi_int(&r, COL(mlvl_audio_groups, group_id), m->audio_groups[k].group_id);
        put_id(&r, COL(mlvl_audio_groups, agsc_id), m->audio_groups[k].agsc_id);
        TRY(dbi_row_end(&r, err));
    }
    for (uint32_t ai = 0; ai < m->area_count; ai++)
        TRY(put_area(d, id, m, ai, err));
    TRY(put_world_warnings(d, game, "MLVL", id, &m->report, err));
    return rc;
}

static int put_strg_rows(db *d, const char *game, uint32_t id, const world_strg *s, util_err *err)
{
    int rc = 0;
    db_row r;
    char langs[WORLD_MAX_LANGS * 5 + 1] = "";
    size_t n = 0;
    char fc[5];
    for (uint32_t k = 0; k < s->language_count && k < WORLD_MAX_LANGS; k++)
        n += (size_t)snprintf(langs + n, sizeof langs - n, "%s%s", k ? "," : "",
                              dbi_fourcc(s->languages[k].lang, fc));
    TRY(dbi_row_begin(&r, d, TBL(strg), err));
    dbi_int(&r, COL(strg, strg_id), id);
    dbi_int(&r, COL(strg, version), s->version);
    dbi_int(&r, COL(strg, language_count), s->language_count);
    dbi_int(&r, COL(strg, string_count), s->string_count);
    if (s->game == WORLD_GAME_MP2)
        dbi_int(&r, COL(strg, name_count), s->name_count);
    dbi_text(&r, COL(strg, languages), langs);
    dbi_int(&r, COL(strg, size), (int64_t)(s->report.consumed + s->report.trailing_len));
    dbi_int(&r, COL(strg, trailing_len), (int64_t)s->report.trailing_len);
    TRY(dbi_row_end(&r, err));
    for (uint32_t k = 0; k < s->language_count; k++) {
        const world_strg_lang *l = &s->languages[k];
        int again = 0; /* a language FourCC twice in one table: the first one's rows stay */
        for (uint32_t j = 0; j < k; j++)
            again |= s->languages[j].lang == l->lang;
        if (again)
            continue;
        dbi_fourcc(l->lang, fc);
        for (uint32_t i = 0; i < s->string_count; i++) {
            TRY(dbi_row_begin(&r, d, TBL(strings), err));
            dbi_int(&r, COL(strings, strg_id), id);
            dbi_text(&r, COL(strings, language), fc);
            dbi_int(&r, COL(strings, string_index), i);
            dbi_text(&r, COL(strings, name), world_strg_name_of(s, i));
            dbi_text(&r, COL(strings, text), l->strings[i]);
            TRY(dbi_row_end(&r, err));
        }
    }
    TRY(put_world_warnings(d, game, "STRG", id, &s->report, err));
    return rc;
}

/* ---- an MLVL's asset_refs rows ---------------------------------------------------------- */

/* What db_put_mlvl_refs writes from. */
typedef struct mlvl_refs_in {
    const world_mlvl *m;
    const char *const *area_names;
} mlvl_refs_in;

/* One asset_refs row of an MLVL. A world's rows are gathered and written in the order of
 * asset_refs_key (by target, then via): in the order of the file, a world's thousands of
 * dependencies land at random places of that index. */
typedef struct mlvl_ref {
    uint32_t dst, type;
    const char *via;
} mlvl_ref;

typedef struct mlvl_refs {
    UTIL_VEC(mlvl_ref) v;
    util_arena labels; /* every via */
} mlvl_refs;

/* head, then ` 'name'` when name is not NULL, then tail: in the arena, NULL when out of
 * memory. */
static char *label_of(util_arena *ar, const char *head, const char *name, const char *tail)
{
    size_t n = strlen(head) + (name ? strlen(name) + 3 : 0) + strlen(tail) + 1;
    char *s = util_arena_alloc(ar, n);
    if (s)
        snprintf(s, n, "%s%s%s%s%s", head, name ? " '" : "", name ? name : "", name ? "'" : "",
                 tail);
    return s;
}

static int add_ref(mlvl_refs *x, uint32_t type, uint32_t dst, const char *via, util_err *err)
{
    if (!via)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    return util_vec_push(&x->v, ((mlvl_ref){dst, type, via}), err);
}

/* In the order of asset_refs_key past its MLVL: dst_id, dst_type (a FourCC's text sorts as
 * its big-endian value), via. */
static int cmp_ref(const void *pa, const void *pb)
{
    const mlvl_ref *a = pa, *b = pb;
    if (a->dst != b->dst)
        return a->dst < b->dst ? -1 : 1;
    if (a->type != b->type)
        return a->type < b->type ? -1 : 1;
    return strcmp(a->via, b->via);
}

/* One area's rows: its dependencies (`via` its label and their layer's), its MREA and its
 * name STRG gathered in x; its mlvl_ref_labels row written. */
static int area_refs(db *d, mlvl_refs *x, uint32_t mlvl_id, const world_area *a, uint32_t ai,
                     const char *name, util_err *err)
{
    char head[48];
    snprintf(head, sizeof head, "area %u", ai);
    const char *label = label_of(&x->labels, head, name, "");
    /* layer i's `via` at i + 1; the area's own group (layer -1) at 0 */
    const char **via = util_arena_array(&x->labels, (size_t)a->layer_count + 1, sizeof *via);
    if (!label || !via)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    via[0] = label_of(&x->labels, label, NULL, " > area");
    for (uint32_t i = 0; via[0] && i < a->layer_count; i++) {
        char lh[48];
        snprintf(lh, sizeof lh, " > layer %u", i);
        const char *ll = label_of(&x->labels, lh, a->layers[i].name, "");
        if (!(via[i + 1] = ll ? label_of(&x->labels, label, NULL, ll) : NULL))
            break;
    }
    if (!via[0] || (a->layer_count && !via[a->layer_count]))
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    TRY(util_vec_reserve(&x->v, a->dep_count, err));
    for (uint32_t k = 0; k < a->dep_count; k++) {
        const world_dep *dep = &a->deps[k];
        int32_t li = dep->layer_index;
        if (!dbi_id_none(dep->id) && li >= -1 && li < (int64_t)a->layer_count)
            x->v.items[x->v.len++] = (mlvl_ref){dep->id, dep->type, via[li + 1]};
    }
    if (!dbi_id_none(a->mrea_id))
        TRY(add_ref(x, UTIL_FOURCC('M', 'R', 'E', 'A'), a->mrea_id, label, err));
    if (!dbi_id_none(a->name_strg))
        TRY(add_ref(x, UTIL_FOURCC('S', 'T', 'R', 'G'), a->name_strg,
                    label_of(&x->labels, label, NULL, " > name"), err));
    db_row r;
    TRY(dbi_row_begin(&r, d, TBL(mlvl_ref_labels), err));
    dbi_int(&r, COL(mlvl_ref_labels, mlvl_id), mlvl_id);
    dbi_int(&r, COL(mlvl_ref_labels, area_index), ai);
    dbi_text(&r, COL(mlvl_ref_labels, label), label);
    return dbi_row_end(&r, err);
}

/* The world's own references (names, save info, map, skybox, MP1's audio groups) gathered in
 * x. */
static int world_refs(mlvl_refs *x, const world_mlvl *m, util_err *err)
{
    int mp2 = m->game == WORLD_GAME_MP2;
    const uint32_t strg = UTIL_FOURCC('S', 'T', 'R', 'G');
    const struct {
        int on;
        uint32_t type;
        uint32_t id;
        const char *via;
    } world[] = {
        {1, strg, m->world_name_strg, "world name"},
        {mp2, strg, m->dark_world_name_strg, "dark world name"},
        {1, UTIL_FOURCC('S', 'A', 'V', 'W'), m->savw_id, "save info"},
        {1, UTIL_FOURCC('M', 'A', 'P', 'W'), m->mapw_id, "world map"},
        {1, UTIL_FOURCC('C', 'M', 'D', 'L'), m->default_skybox_id, "default skybox"},
    };
    for (size_t k = 0; k < sizeof world / sizeof world[0]; k++)
        if (world[k].on && !dbi_id_none(world[k].id))
            TRY(add_ref(x, world[k].type, world[k].id, world[k].via, err));
    for (uint32_t k = 0; !mp2 && k < m->audio_group_count; k++) {
        char via[32];
        snprintf(via, sizeof via, "audio group %u", m->audio_groups[k].group_id);
        if (!dbi_id_none(m->audio_groups[k].agsc_id))
            TRY(add_ref(x, UTIL_FOURCC('A', 'G', 'S', 'C'), m->audio_groups[k].agsc_id,
                        util_arena_strdup(&x->labels, via), err));
    }
    return 0;
}

static int put_mlvl_refs(db *d, const char *game, uint32_t id, const void *v, util_err *err)
{
    (void)game;
    const mlvl_refs_in *in = v;
    const world_mlvl *m = in->m;
    mlvl_refs x = {0};
    util_arena_init(&x.labels);
    int rc = 0;
    for (uint32_t ai = 0; ai < m->area_count && !rc; ai++)
        rc = area_refs(d, &x, id, &m->areas[ai], ai, in->area_names[ai], err);
    if (!rc)
        rc = world_refs(&x, m, err);
    if (!rc && x.v.len > 1)
        qsort(x.v.items, x.v.len, sizeof *x.v.items, cmp_ref);
    for (size_t k = 0; k < x.v.len && !rc; k++) {
        char fc[5];
        const mlvl_ref *r = &x.v.items[k];
        rc = dbi_put_ref(d, "MLVL", id, dbi_fourcc(r->type, fc), r->dst, -1, r->via, err);
    }
    util_vec_free(&x.v);
    util_arena_free(&x.labels);
    return rc;
}

static int put_mlvl_any(db *d, const char *game, uint32_t id, const void *v, util_err *err)
{
    return put_mlvl_rows(d, game, id, v, err);
}

static int put_strg_any(db *d, const char *game, uint32_t id, const void *v, util_err *err)
{
    return put_strg_rows(d, game, id, v, err);
}

/* Set the key columns, write in a batch, drop the batch on failure. */
static int put_keyed(db *d, const char *game, int64_t content_id,
                     int (*put)(db *, const char *, uint32_t, const void *, util_err *),
                     uint32_t id, const void *v, util_err *err)
{
    int rc = dbi_key_text(d, DBK_game, game, err);
    dbi_key_int(d, DBK_content_id, content_id);
    d->content = content_id;
    if (rc)
        return rc;
    dbi_batch_begin(d);
    rc = put(d, game, id, v, err);
    int frc = dbi_batch_end(d, rc != 0, err);
    d->content = 0;
    return rc ? rc : frc;
}

int db_put_mlvl(db *d, const char *game, uint32_t asset_id, int64_t content_id, const world_mlvl *m,
                util_err *err)
{
    return put_keyed(d, game, content_id, put_mlvl_any, asset_id, m, err);
}

int db_put_mlvl_refs(db *d, const char *game, uint32_t asset_id, int64_t content_id,
                     const world_mlvl *m, const char *const *area_names, util_err *err)
{
    mlvl_refs_in in = {m, area_names};
    return put_keyed(d, game, content_id, put_mlvl_refs, asset_id, &in, err);
}

int db_put_strg(db *d, const char *game, uint32_t asset_id, int64_t content_id, const world_strg *s,
                util_err *err)
{
    return put_keyed(d, game, content_id, put_strg_any, asset_id, s, err);
}
