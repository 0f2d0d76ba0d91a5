/* test_world_corpus.c — every MLVL and STRG of the shared sample corpus (both games, releases A
 * and B), read from the PAKs that resources.tsv lists, decoded and compared field by field with
 * truth.json (`worlds`, `release_b.worlds`); encode(decode(bytes)) == bytes for every copy;
 * every prefix shorter than the structure fails UTIL_ETRUNC at an offset not past the cut (for
 * the first MLVL and the first two STRGs of each game: each prefix is a whole decode).
 * Skips without the corpus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_min.h"
#include "pak.h"
#include "testutil.h"
#include "world.h"

static jm_node *truth;

static const jm_node *need(const jm_node *n, const char *key)
{
    const jm_node *v = jm_get(n, key);
    if (!v)
        fail_msg("truth: missing key '%s'", key);
    return v;
}

static int is_null(const jm_node *n, const char *key)
{
    const jm_node *v = jm_get(n, key);
    return !v || v->type == JM_NULL;
}

static int64_t jnum(const jm_node *v)
{
    assert_non_null(v);
    if (v->type == JM_BOOL)
        return v->boolean;
    if (v->type != JM_NUM || !v->is_int)
        fail_msg("truth: not an integer");
    return v->i;
}

static int64_t jint(const jm_node *n, const char *key)
{
    return jnum(need(n, key));
}

static void ieq(const jm_node *n, const char *key, int64_t got)
{
    int64_t want = jint(n, key);
    if (want != got)
        fail_msg("'%s': want %lld got %lld", key, (long long)want, (long long)got);
}

static void feq(const jm_node *v, float got)
{
    assert_non_null(v);
    assert_int_equal(v->type, JM_NUM);
    float want = (float)v->num;
    if (memcmp(&want, &got, sizeof got))
        fail_msg("want %.9g got %.9g", (double)want, (double)got);
}

static void streq(const jm_node *v, const char *got)
{
    assert_non_null(v);
    assert_int_equal(v->type, JM_STR);
    assert_non_null(got);
    assert_string_equal(v->str, got);
}

static const jm_node *arr(const jm_node *n, const char *key, size_t count)
{
    const jm_node *v = need(n, key);
    if (v->type != JM_ARR)
        fail_msg("'%s' is not an array", key);
    if (v->count != count)
        fail_msg("'%s': want %zu elements got %zu", key, v->count, count);
    return v;
}

static void dep_eq(const jm_node *pair, const world_dep *d)
{
    assert_int_equal(pair->count, 2);
    char s[5];
    util_fourcc_str(d->type, s);
    streq(jm_at(pair, 0), s);
    assert_int_equal(jnum(jm_at(pair, 1)), d->id);
}

/* ---- decoded STRGs by ID (for names) ------------------------------------------------------ */

typedef struct seen_strg {
    uint32_t id;
    world_strg s;
} seen_strg;

typedef struct ctx {
    const char *label; /* "mp1", "relb/mp2" ... */
    world_game game;
    const jm_node *worlds; /* truth worlds.GAME */
    util_arena arena;      /* holds the decoded STRGs of this run */
    seen_strg *strgs;
    size_t nstrg, cap;
    int mlvls, strg_copies;
} ctx;

static const world_strg *strg_by_id(const ctx *c, uint32_t id)
{
    for (size_t i = 0; i < c->nstrg; i++)
        if (c->strgs[i].id == id)
            return &c->strgs[i].s;
    return NULL;
}

/* String 0 in ENGL of STRG id, found by FourCC. */
static const char *name_of(const ctx *c, uint32_t id)
{
    const world_strg *s = strg_by_id(c, id);
    assert_non_null(s);
    return world_strg_text(s, UTIL_FOURCC('E', 'N', 'G', 'L'), 0);
}

static const jm_node *truth_by_id(const jm_node *list, uint32_t id)
{
    for (size_t i = 0; i < list->count; i++)
        if (jint(jm_at(list, i), "id") == id)
            return jm_at(list, i);
    fail_msg("truth has no entry 0x%08X", id);
    return NULL;
}

/* ---- checks --------------------------------------------------------------------------- */

static void check_round_trip(const uint8_t *b, size_t n, const util_wr *w)
{
    assert_int_equal(w->len, n);
    assert_memory_equal(w->buf, b, n);
}

static void check_prefixes_mlvl(const uint8_t *b, size_t consumed)
{
    for (size_t cut = 0; cut < consumed; cut++) {
        util_arena a;
        util_arena_init(&a);
        util_err err;
        util_err_clear(&err);
        world_mlvl m;
        int rc = world_mlvl_decode(&m, b, cut, &a, &err);
        if (rc != UTIL_ETRUNC || err.offset > cut)
            fail_msg("MLVL prefix %zu: rc %d at %llu (%s)", cut, rc, (unsigned long long)err.offset,
                     err.msg);
        util_arena_free(&a);
    }
}

static void check_prefixes_strg(const uint8_t *b, size_t consumed)
{
    for (size_t cut = 0; cut < consumed; cut++) {
        util_arena a;
        util_arena_init(&a);
        util_err err;
        util_err_clear(&err);
        world_strg s;
        int rc = world_strg_decode(&s, b, cut, &a, &err);
        if (rc != UTIL_ETRUNC || err.offset > cut)
            fail_msg("STRG prefix %zu: rc %d at %llu (%s)", cut, rc, (unsigned long long)err.offset,
                     err.msg);
        util_arena_free(&a);
    }
}

static void check_strg(const ctx *c, const world_strg *s, uint32_t id)
{
    const jm_node *t = truth_by_id(need(c->worlds, "strings"), id);
    ieq(t, "version", s->version);
    assert_int_equal(s->game, c->game);
    assert_int_equal(s->report.warning_count, 0);
    assert_true(s->report.trailing_all_ff);
    assert_null(s->raw_body);
    const jm_node *order = arr(t, "language_order", s->language_count);
    const jm_node *langs = need(t, "languages");
    for (uint32_t k = 0; k < s->language_count; k++) {
        const world_strg_lang *l = &s->languages[k];
        char fc[5];
        util_fourcc_str(l->lang, fc);
        streq(jm_at(order, k), fc);
        assert_ptr_equal(world_strg_find_language(s, l->lang), l);
        const jm_node *strs = arr(langs, fc, s->string_count);
        for (uint32_t i = 0; i < s->string_count; i++) {
            streq(jm_at(strs, i), l->strings[i]);
            assert_ptr_equal(world_strg_text(s, l->lang, i), l->strings[i]);
        }
    }
    if (c->game == WORLD_GAME_MP1) {
        assert_true(is_null(t, "names"));
        assert_int_equal(s->name_count, 0);
    } else {
        const jm_node *names = need(t, "names");
        assert_int_equal(names->type, JM_OBJ);
        assert_int_equal(names->count, s->name_count);
        for (uint32_t i = 0; i < s->name_count; i++)
            assert_int_equal(jint(names, s->names[i].name), s->names[i].string_index);
    }
}

static void check_area(const ctx *c, const world_mlvl *m, const world_area *a, uint32_t index,
                       const jm_node *t)
{
    ieq(t, "index", index);
    ieq(t, "mrea_id", a->mrea_id);
    ieq(t, "area_id", a->area_id);
    ieq(t, "name_strg", a->name_strg);
    streq(need(t, "name"), name_of(c, a->name_strg));
    if (c->game == WORLD_GAME_MP2)
        streq(need(t, "internal_name"), a->internal_name);
    else {
        assert_true(is_null(t, "internal_name"));
        assert_null(a->internal_name);
    }
    const jm_node *att = arr(t, "attached_areas", a->attached_count);
    for (uint32_t i = 0; i < a->attached_count; i++) {
        assert_int_equal(jnum(jm_at(att, i)), a->attached[i]);
        assert_true(a->attached[i] < m->area_count);
    }
    const jm_node *tr = arr(t, "transform", 12);
    for (int i = 0; i < 12; i++)
        feq(jm_at(tr, (size_t)i), a->transform[i]);
    const jm_node *bb = arr(t, "bounding_box", 6);
    for (int i = 0; i < 6; i++)
        feq(jm_at(bb, (size_t)i), a->bbox[i]);
    assert_int_equal(a->unknown, 0);

    const jm_node *docks = arr(t, "docks", a->dock_count);
    for (uint32_t i = 0; i < a->dock_count; i++) {
        const world_dock *k = &a->docks[i];
        const jm_node *td = jm_at(docks, i);
        const jm_node *links = arr(td, "connecting_docks", k->link_count);
        for (uint32_t j = 0; j < k->link_count; j++) {
            assert_int_equal(jnum(jm_at(jm_at(links, j), 0)), k->links[j].area_index);
            assert_int_equal(jnum(jm_at(jm_at(links, j), 1)), k->links[j].dock_index);
        }
        const jm_node *co = arr(td, "coordinates", k->coord_count);
        for (uint32_t j = 0; j < k->coord_count; j++)
            for (int x = 0; x < 3; x++)
                feq(jm_at(jm_at(co, j), (size_t)x), k->coords[j].v[x]);
    }

    const jm_node *layers = arr(t, "layers", a->layer_count);
    assert_int_equal(a->dep_offset_count, a->layer_count + 1);
    uint32_t seen = 0;
    for (uint32_t l = 0; l < a->layer_count; l++) {
        const world_layer *y = &a->layers[l];
        const jm_node *tl = jm_at(layers, l);
        ieq(tl, "index", l);
        streq(need(tl, "name"), y->name);
        ieq(tl, "active", y->active);
        const jm_node *deps = arr(tl, "dependencies", y->dep_count);
        assert_int_equal(y->dep_start, seen);
        for (uint32_t k = 0; k < y->dep_count; k++) {
            const world_dep *d = &a->deps[y->dep_start + k];
            dep_eq(jm_at(deps, k), d);
            assert_int_equal(d->layer_index, (int32_t)l);
            assert_int_equal(d->dep_index, k);
        }
        seen += y->dep_count;
        if (c->game == WORLD_GAME_MP2) {
            const jm_node *mods = arr(tl, "modules", y->module_count);
            for (uint32_t k = 0; k < y->module_count; k++)
                streq(jm_at(mods, k), a->rel_modules[y->module_start + k]);
        }
    }
    const jm_node *own = arr(t, "area_dependencies", a->own_dep_count);
    assert_int_equal(a->own_dep_start, seen);
    assert_int_equal(a->own_dep_start + a->own_dep_count, a->dep_count);
    for (uint32_t k = 0; k < a->own_dep_count; k++) {
        const world_dep *d = &a->deps[a->own_dep_start + k];
        dep_eq(jm_at(own, k), d);
        assert_int_equal(d->layer_index, -1);
        assert_int_equal(d->dep_index, k);
    }
}

static void check_mlvl(const ctx *c, const world_mlvl *m, uint32_t id)
{
    const jm_node *t = truth_by_id(need(c->worlds, "mlvls"), id);
    ieq(t, "version", m->version);
    assert_int_equal(m->game, c->game);
    assert_int_equal(m->report.warning_count, 0);
    assert_true(m->report.trailing_all_ff);
    ieq(t, "world_name_strg", m->world_name_strg);
    streq(need(t, "name"), name_of(c, m->world_name_strg));
    ieq(t, "savw_id", m->savw_id);
    ieq(t, "mapw_id", m->mapw_id);
    ieq(t, "default_skybox_id", m->default_skybox_id);
    if (c->game == WORLD_GAME_MP2) {
        ieq(t, "dark_world_name_strg", m->dark_world_name_strg);
        ieq(t, "temple_key_world_index", m->temple_key_world_index);
        if (is_null(t, "dark_name"))
            assert_int_equal(m->dark_world_name_strg, WORLD_NONE);
        else
            streq(need(t, "dark_name"), name_of(c, m->dark_world_name_strg));
        assert_true(is_null(t, "memory_relays"));
        assert_true(is_null(t, "audio_groups"));
    } else {
        assert_true(is_null(t, "dark_world_name_strg"));
        assert_true(is_null(t, "temple_key_world_index"));
        assert_int_equal(m->unknown_after_area_count, 1);
        assert_string_equal(m->unknown_string, "");
        const jm_node *rel = arr(t, "memory_relays", m->memory_relay_count);
        for (uint32_t i = 0; i < m->memory_relay_count; i++) {
            const jm_node *r = jm_at(rel, i);
            ieq(r, "instance_id", m->memory_relays[i].instance_id);
            ieq(r, "target_id", m->memory_relays[i].target_id);
            ieq(r, "message", m->memory_relays[i].message);
            ieq(r, "active", m->memory_relays[i].active);
        }
        const jm_node *ag = arr(t, "audio_groups", m->audio_group_count);
        for (uint32_t i = 0; i < m->audio_group_count; i++) {
            assert_int_equal(jnum(jm_at(jm_at(ag, i), 0)), m->audio_groups[i].group_id);
            assert_int_equal(jnum(jm_at(jm_at(ag, i), 1)), m->audio_groups[i].agsc_id);
        }
    }
    assert_int_equal(m->script_layer_header, 0);
    assert_int_equal(m->script_instance_count, 0);
    assert_int_equal(m->layer_flags_area_count, m->area_count);
    assert_int_equal(m->layer_name_offset_count, m->area_count);
    const jm_node *areas = arr(t, "areas", m->area_count);
    uint32_t first = 0;
    for (uint32_t i = 0; i < m->area_count; i++) {
        assert_int_equal(m->layer_name_offsets[i], first);
        first += m->areas[i].layer_count;
        check_area(c, m, &m->areas[i], i, jm_at(areas, i));
    }
    assert_int_equal(m->layer_name_count, first);
}

/* ---- walking the corpus ------------------------------------------------------------------ */

typedef struct item {
    char pak[128];
    uint32_t index, type, id;
} item;

/* The MLVL and STRG entries of game listed in a resources.tsv. */
static item *list_items(const char *tsv, const char *game, size_t *count)
{
    size_t n = 0;
    char *text = (char *)tu_read_file(tsv, &n);
    assert_non_null(text);
    item *items = NULL;
    size_t len = 0, cap = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char g[16], pak[128], type[8];
        unsigned idx;
        unsigned long id;
        if (sscanf(line, "%15s\t%127s\t%u\t%7s\t%lu", g, pak, &idx, type, &id) != 5)
            continue;
        if (strcmp(g, game) || (strcmp(type, "MLVL") && strcmp(type, "STRG")))
            continue;
        if (len == cap) {
            cap = cap ? 2 * cap : 64;
            items = realloc(items, cap * sizeof *items);
            assert_non_null(items);
        }
        item *it = &items[len++];
        snprintf(it->pak, sizeof it->pak, "%s", pak);
        it->index = idx;
        assert_int_equal(util_fourcc_parse(type, &it->type), 0);
        it->id = (uint32_t)id;
    }
    free(text);
    *count = len;
    return items;
}

static uint8_t *read_entry(const char *dir, const item *it, size_t *n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, it->pak);
    return tu_pak_entry(path, it->index, it->id, it->type, n);
}

static void run(const char *sub, const char *tsv_rel, const char *game, world_game wg,
                const jm_node *worlds, int prefixes)
{
    ctx c;
    memset(&c, 0, sizeof c);
    c.label = sub;
    c.game = wg;
    c.worlds = worlds;
    util_arena_init(&c.arena);
    char dir[2048], tsv[2048];
    snprintf(dir, sizeof dir, "%s/%s", tu_corpus_dir(), sub);
    snprintf(tsv, sizeof tsv, "%s/%s", tu_corpus_dir(), tsv_rel);
    size_t count = 0;
    item *items = list_items(tsv, game, &count);
    assert_true(count > 0);

    /* STRGs first (the MLVL checks resolve names through them), then the MLVLs. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < count; i++) {
            const item *it = &items[i];
            if ((pass == 0) != (it->type == UTIL_FCC_STRG))
                continue;
            size_t n = 0;
            uint8_t *b = read_entry(dir, it, &n);
            util_err err;
            util_err_clear(&err);
            util_wr w;
            util_wr_init(&w);
            if (pass == 0) {
                world_strg s;
                if (world_strg_decode(&s, b, n, &c.arena, &err))
                    fail_msg("%s %s STRG %08X: %s @%llu", sub, it->pak, it->id, err.msg,
                             (unsigned long long)err.offset);
                check_strg(&c, &s, it->id);
                assert_int_equal(world_strg_encode(&w, &s, &err), 0);
                check_round_trip(b, n, &w);
                if (prefixes && c.strg_copies < 2)
                    check_prefixes_strg(b, s.report.consumed);
                if (!strg_by_id(&c, it->id)) {
                    if (c.nstrg == c.cap) {
                        c.cap = c.cap ? 2 * c.cap : 64;
                        c.strgs = realloc(c.strgs, c.cap * sizeof *c.strgs);
                        assert_non_null(c.strgs);
                    }
                    c.strgs[c.nstrg].id = it->id;
                    c.strgs[c.nstrg++].s = s;
                }
                c.strg_copies++;
            } else {
                util_arena a;
                util_arena_init(&a);
                world_mlvl m;
                if (world_mlvl_decode(&m, b, n, &a, &err))
                    fail_msg("%s %s MLVL %08X: %s @%llu", sub, it->pak, it->id, err.msg,
                             (unsigned long long)err.offset);
                check_mlvl(&c, &m, it->id);
                assert_int_equal(world_mlvl_encode(&w, &m, &err), 0);
                check_round_trip(b, n, &w);
                if (prefixes && c.mlvls == 0)
                    check_prefixes_mlvl(b, m.report.consumed);
                util_arena_free(&a);
                c.mlvls++;
            }
            util_wr_free(&w);
            free(b);
        }
    }
    /* Every world and string table of the truth was met. */
    const jm_node *ml = need(worlds, "mlvls"), *st = need(worlds, "strings");
    assert_true(ml->count > 0);
    assert_true(st->count > 0);
    for (size_t i = 0; i < st->count; i++)
        assert_non_null(strg_by_id(&c, (uint32_t)jint(jm_at(st, i), "id")));
    assert_int_equal(c.nstrg, st->count);
    size_t want_mlvl = 0;
    for (size_t i = 0; i < ml->count; i++)
        want_mlvl += need(jm_at(ml, i), "paks")->count;
    assert_int_equal((size_t)c.mlvls, want_mlvl);
    free(items);
    free(c.strgs);
    util_arena_free(&c.arena);
}

static int setup(void **state)
{
    (void)state;
    int failed;
    truth = tu_truth_load(&failed);
    return failed ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    jm_free(truth);
    truth = NULL;
    return 0;
}

static void test_mp1(void **state)
{
    (void)state;
    if (!truth)
        TU_SKIP();
    run("mp1", "resources.tsv", "mp1", WORLD_GAME_MP1, need(need(truth, "worlds"), "mp1"), 1);
}

static void test_mp2(void **state)
{
    (void)state;
    if (!truth)
        TU_SKIP();
    run("mp2", "resources.tsv", "mp2", WORLD_GAME_MP2, need(need(truth, "worlds"), "mp2"), 1);
}

static void test_release_b_mp1(void **state)
{
    (void)state;
    if (!truth)
        TU_SKIP();
    const jm_node *w = need(need(truth, "release_b"), "worlds");
    run("relb/mp1", "relb/resources.tsv", "mp1", WORLD_GAME_MP1, need(w, "mp1"), 0);
}

static void test_release_b_mp2(void **state)
{
    (void)state;
    if (!truth)
        TU_SKIP();
    const jm_node *w = need(need(truth, "release_b"), "worlds");
    run("relb/mp2", "relb/resources.tsv", "mp2", WORLD_GAME_MP2, need(w, "mp2"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mp1),
        cmocka_unit_test(test_mp2),
        cmocka_unit_test(test_release_b_mp1),
        cmocka_unit_test(test_release_b_mp2),
    };
    return tu_status(cmocka_run_group_tests(tests, setup, teardown));
}
