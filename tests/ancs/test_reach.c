/* test_ancs_reach.c — ancs_reach without SQLite: the edges of hand-built character sets
 * against the rules of CONTRACT.md "How a character reaches an asset" worked out by hand;
 * a set with many characters and animations, checked by its edge count; and every ANCS of
 * the sample corpus against truth.json derived.character_reach / set_level_events. Then
 * ancs_char_paths (the paths db/ keeps in char_reach) of hand-built sets, worked out by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ancs.h"
#include "json_min.h"
#include "pak.h"
#include "testutil.h"

#define FC(s) ((uint32_t)(s)[0] << 24 | (uint32_t)(s)[1] << 16 | (uint32_t)(s)[2] << 8 | (s)[3])

/* An expected edge: char_index, type ("" = untyped), id, via. */
typedef struct want {
    int64_t ci;
    const char *type;
    uint32_t id;
    const char *via;
} want;

static int edge_is(const ancs_edge *e, const want *w)
{
    int typed = w->type[0] != 0;
    return e->char_index == w->ci && e->dst_id == w->id && e->typed == typed &&
           (!typed || e->dst_type == FC(w->type)) && !strcmp(e->via, w->via);
}

/* The edges are exactly the wanted ones, each once. */
static void edges_are(const ancs_edges *got, const want *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t k = 0; k < got->len; k++)
            seen += edge_is(&got->items[k], &w[i]);
        if (seen != 1)
            fail_msg("edge %zu (char %lld, %s %08X via %s) seen %d times", i, (long long)w[i].ci,
                     w[i].type, w[i].id, w[i].via, seen);
    }
    if (got->len != n) {
        for (size_t k = 0; k < got->len; k++)
            print_message("got: char %lld %08X %08X via %s\n", (long long)got->items[k].char_index,
                          got->items[k].dst_type, got->items[k].dst_id, got->items[k].via);
        fail_msg("%zu edges, want %zu", got->len, n);
    }
}

static ancs_meta_anim play(uint32_t anim)
{
    ancs_meta_anim m;
    memset(&m, 0, sizeof m);
    m.type = ANCS_META_PLAY;
    m.anim_id = anim;
    return m;
}

/* MP1: rules 1-3 and the set-level references, two characters (T=6 with an ID map and a
 * third list; T=1 without). */
static void test_mp1_rules(void **state)
{
    (void)state;
    ancs_meta_anim a0 = play(0xA0), a3 = play(0xA3);
    ancs_meta_anim kids[3] = {play(0xA1), play(0xA2), play(0xA1)};
    uint32_t probs[3] = {30, 30, 40};
    ancs_meta_anim a1;
    memset(&a1, 0, sizeof a1);
    a1.type = ANCS_META_RANDOM;
    a1.child_count = 3;
    a1.children = kids;
    a1.probabilities = probs;
    ancs_animation anims[3];
    memset(anims, 0, sizeof anims);
    anims[0].meta = a0;
    anims[1].meta = a1;
    anims[2].meta = a3; /* no character uses it */
    ancs_res_pair pairs[] = {
        {0xA0, 0xE0},        {0xA1, 0xE1}, {0xA1, 0xE9}, /* first pair of A1 wins */
        {0xA3, 0xE3},        {0xA4, 0xE4},               /* A3: unused animation; A4: no tree */
        {0xA0, 0xFFFFFFFFu},
    };
    ancs_meta_anim t_tree = play(0xA5), h_tree = play(0xA0);
    ancs_transition trans[1];
    memset(trans, 0, sizeof trans);
    trans[0].trans.type = ANCS_TRANS_META_ANIM;
    trans[0].trans.anim = &t_tree;
    ancs_half_transition halfs[1];
    memset(halfs, 0, sizeof halfs);
    halfs[0].trans.type = ANCS_TRANS_META_ANIM;
    halfs[0].trans.anim = &h_tree;

    uint32_t part[] = {0x501, 0, 0x501}, third[] = {0x701}, elsc[] = {0x801};
    uint32_t id_map[] = {1};
    ancs_anim_name names0[] = {{0, "", "walk"}, {7, "", "gone"}}; /* 7: past the map */
    ancs_anim_name names1[] = {{0, "", "idle"}, {5, "", "none"}}; /* 5: past the set */
    ancs_effect_comp comp = {.name = "c", .particle_type = FC("PART"), .particle_id = 0x502};
    ancs_effect eff = {.name = "e", .comp_count = 1, .comps = &comp};
    ancs_character chars[2];
    memset(chars, 0, sizeof chars);
    chars[0].version = 6;
    chars[0].model_id = 0xC1;
    chars[0].skin_id = 0xC2;
    chars[0].skeleton_id = 0xC3;
    chars[0].frozen_model_id = 0xC4;
    chars[0].frozen_skin_id = 0xFFFFFFFFu; /* none */
    chars[0].cspp_id = 0xC6;               /* T < 10: not a field */
    chars[0].part = (ancs_id_list){3, part};
    chars[0].third = (ancs_id_list){1, third};
    chars[0].elsc = (ancs_id_list){1, elsc};
    chars[0].effect_count = 1;
    chars[0].effects = &eff;
    chars[0].id_map = (ancs_id_list){1, id_map};
    chars[0].anim_name_count = 2;
    chars[0].anim_names = names0;
    chars[1].version = 1;
    chars[1].model_id = 0xC1;
    chars[1].third = (ancs_id_list){1, third}; /* T < 6: no third list */
    chars[1].anim_name_count = 2;
    chars[1].anim_names = names1;

    ancs_set s;
    memset(&s, 0, sizeof s);
    s.game = ANCS_GAME_MP1;
    s.char_count = 2;
    s.chars = chars;
    s.animset.version = 4;
    s.animset.animation_count = 3;
    s.animset.animations = anims;
    s.animset.transition_count = 1;
    s.animset.transitions = trans;
    s.animset.default_transition.type = ANCS_TRANS_TRANS;
    s.animset.half_count = 1;
    s.animset.halfs = halfs;
    s.animset.pair_count = sizeof pairs / sizeof pairs[0];
    s.animset.pairs = pairs;

    static const want w[] = {
        {-1, "ANIM", 0xA5, "transition"},
        {-1, "ANIM", 0xA0, "half_transition"},
        {0, "CMDL", 0xC1, "model"},
        {0, "CSKR", 0xC2, "skin"},
        {0, "CINF", 0xC3, "skeleton"},
        {0, "CMDL", 0xC4, "frozen_model"},
        {0, "PART", 0x501, "particles"},
        {0, "", 0x701, "third_list"},
        {0, "ELSC", 0x801, "particles"},
        {0, "PART", 0x502, "effect"},
        /* char 0: name 0 -> map[0] = entry 1: A1, A2; A1's first pair E1; A2 has none */
        {0, "ANIM", 0xA1, "animation"},
        {0, "EVNT", 0xE1, "animation_resources"},
        {0, "ANIM", 0xA2, "animation"},
        {1, "CMDL", 0xC1, "model"},
        /* char 1: name 0 -> entry 0: A0, E0 */
        {1, "ANIM", 0xA0, "animation"},
        {1, "EVNT", 0xE0, "animation_resources"},
        /* entry 2 no character uses */
        {-1, "ANIM", 0xA3, "animation"},
        /* pairs no character reaches */
        {-1, "EVNT", 0xE9, "animation_resources"},
        {-1, "ANIM", 0xA3, "animation_resources"},
        {-1, "EVNT", 0xE3, "animation_resources"},
        {-1, "ANIM", 0xA4, "animation_resources"},
        {-1, "EVNT", 0xE4, "animation_resources"},
    };
    ancs_edges e = {0};
    util_err err;
    assert_int_equal(ancs_reach(&e, &s, &err), 0);
    edges_are(&e, w, sizeof w / sizeof w[0]);
    /* the order: transitions first, characters in order, the set level last */
    assert_string_equal(e.items[0].via, "transition");
    assert_int_equal(e.items[e.len - 1].char_index, -1);
    ancs_edges_free(&e);
}

static ancs_poi_particle particle(int32_t ci, const char *type, uint32_t id)
{
    ancs_poi_particle p;
    memset(&p, 0, sizeof p);
    p.base.char_index = ci;
    p.particle_type = FC(type);
    p.particle_id = id;
    return p;
}

/* An MP2 set (T = 10) with event sets; its arrays live in the struct. */
typedef struct mp2_set {
    ancs_animation anims[2];
    ancs_poi_particle ev0[4], ev1[2], ev2[1];
    ancs_evnt sets[3];
    uint32_t spsc[1], id_map[2];
    ancs_anim_name names[1];
    ancs_character c;
    ancs_set s;
} mp2_set;

static void mp2_set_init(mp2_set *m)
{
    memset(m, 0, sizeof *m);
    m->anims[0].meta = play(0xB0);
    m->anims[1].meta = play(0xB1);
    m->ev0[0] = particle(-1, "PART", 0x600);
    m->ev0[0].base.name = "n";
    m->ev0[1] = particle(0, "SWHC", 0x601);
    m->ev0[2] = particle(1, "ELSC", 0x602);
    m->ev0[3] = particle(0, "PART", 0);
    m->ev1[0] = particle(0, "PART", 0x610);
    m->ev1[1] = particle(-1, "SPSC", 0x611);
    m->ev2[0] = particle(-1, "PART", 0x620); /* index past the animations */
    m->sets[0] = (ancs_evnt){.particle_count = 4, .particles = m->ev0};
    m->sets[1] = (ancs_evnt){.particle_count = 2, .particles = m->ev1};
    m->sets[2] = (ancs_evnt){.particle_count = 1, .particles = m->ev2};
    m->spsc[0] = 0x901;
    m->id_map[0] = 0;
    m->id_map[1] = 1;
    m->names[0] = (ancs_anim_name){0, NULL, "a"};
    ancs_character *c = &m->c;
    c->version = 10;
    c->model_id = 0xD1;
    c->cspp_id = 0xD6;
    c->spsc = (ancs_id_list){1, m->spsc};
    c->id_map = (ancs_id_list){2, m->id_map};
    c->anim_name_count = 1;
    c->anim_names = m->names;
    ancs_set *s = &m->s;
    s->game = ANCS_GAME_MP2;
    s->char_count = 1;
    s->chars = c;
    s->animset.version = 4;
    s->animset.animation_count = 2;
    s->animset.animations = m->anims;
    s->animset.default_transition.type = ANCS_TRANS_SNAP;
    s->animset.event_set_count = 3;
    s->animset.event_sets = m->sets;
}

/* MP2: CSPP and SPSC (T=10), the event set at a used entry's index filtered by character
 * (rule 4), event sets no character reaches at set level. */
static void test_mp2_events(void **state)
{
    (void)state;
    mp2_set m;
    mp2_set_init(&m);
    static const want w[] = {
        {0, "CMDL", 0xD1, "model"},       {0, "CSPP", 0xD6, "cspp"},
        {0, "SPSC", 0x901, "particles"},  {0, "ANIM", 0xB0, "animation"},
        {0, "PART", 0x600, "event"},      {0, "SWHC", 0x601, "event"},
        {-1, "ANIM", 0xB1, "animation"},  {-1, "PART", 0x610, "event_set"},
        {-1, "SPSC", 0x611, "event_set"}, {-1, "PART", 0x620, "event_set"},
    };
    ancs_edges e = {0};
    util_err err;
    assert_int_equal(ancs_reach(&e, &m.s, &err), 0);
    edges_are(&e, w, sizeof w / sizeof w[0]);
    ancs_edges_free(&e);
}

static int count_path(const ancs_path *p, void *ctx)
{
    (void)p;
    ++*(size_t *)ctx;
    return 0;
}

/* Many characters that each use every one of many animations (issue: a 24.7 KB ANCS gave
 * 911k rows): each tree plays two ANIMs of its own and one every tree shares; every ANIM
 * of its own has a pair. The count is worked out from the construction. */
static void test_many(void **state)
{
    (void)state;
    enum { NCHAR = 60, NANIM = 500 };
    ancs_animation *anims = calloc(NANIM, sizeof *anims);
    ancs_meta_anim *kids = calloc(NANIM * 3, sizeof *kids);
    ancs_res_pair *pairs = calloc(NANIM * 2, sizeof *pairs);
    ancs_anim_name *names = calloc(NANIM, sizeof *names);
    ancs_character *chars = calloc(NCHAR, sizeof *chars);
    assert_true(anims && kids && pairs && names && chars);
    for (uint32_t i = 0; i < NANIM; i++) {
        kids[3 * i] = play(0x10000 + 2 * i);
        kids[3 * i + 1] = play(0x10001 + 2 * i);
        kids[3 * i + 2] = play(0xFEED);
        anims[i].meta.type = ANCS_META_SEQUENCE;
        anims[i].meta.child_count = 3;
        anims[i].meta.children = &kids[3 * i];
        pairs[2 * i] = (ancs_res_pair){0x10000 + 2 * i, 0x20000 + 2 * i};
        pairs[2 * i + 1] = (ancs_res_pair){0x10001 + 2 * i, 0x20001 + 2 * i};
        names[i].anim_id = i;
        names[i].name = "n";
    }
    for (uint32_t c = 0; c < NCHAR; c++) {
        chars[c].version = 1;
        chars[c].anim_name_count = NANIM;
        chars[c].anim_names = names;
    }
    ancs_set s;
    memset(&s, 0, sizeof s);
    s.game = ANCS_GAME_MP1;
    s.char_count = NCHAR;
    s.chars = chars;
    s.animset.version = 4;
    s.animset.animation_count = NANIM;
    s.animset.animations = anims;
    s.animset.pair_count = NANIM * 2;
    s.animset.pairs = pairs;
    s.animset.default_transition.type = ANCS_TRANS_SNAP;
    ancs_edges e = {0};
    util_err err;
    assert_int_equal(ancs_reach(&e, &s, &err), 0);
    /* per character: 2 * NANIM own ANIMs + the shared one, and one EVNT per own ANIM */
    assert_int_equal(e.len, (size_t)NCHAR * (2 * NANIM + 1 + 2 * NANIM));
    size_t evnt = 0;
    for (size_t k = 0; k < e.len; k++)
        evnt += e.items[k].dst_type == FC("EVNT");
    assert_int_equal(evnt, (size_t)NCHAR * 2 * NANIM);
    ancs_edges_free(&e);
    /* the paths: per character and animation its two ANIMs, their EVNTs and the shared ANIM
     * (one path per animation that plays it, unlike the edges) */
    size_t paths = 0;
    assert_int_equal(ancs_char_paths(&s, ANCS_GAME_MP1, count_path, &paths, &err), 0);
    assert_int_equal(paths, (size_t)NCHAR * NANIM * 5);
    free(anims);
    free(kids);
    free(pairs);
    free(names);
    free(chars);
}

/* ---- the sample corpus against truth.json ------------------------------------------------ */

static jm_node *truth;

static int64_t jint(const jm_node *n, const char *key)
{
    const jm_node *v = jm_get(n, key);
    if (!v || v->type != JM_NUM)
        fail_msg("truth: '%s' is not a number", key);
    return v->i;
}

/* Does e hold (ci, type, id, via)? */
static int has(const ancs_edges *e, int64_t ci, uint32_t type, uint32_t id, const char *via)
{
    for (size_t k = 0; k < e->len; k++)
        if (e->items[k].char_index == ci && e->items[k].typed && e->items[k].dst_type == type &&
            e->items[k].dst_id == id && !strcmp(e->items[k].via, via))
            return 1;
    return 0;
}

static size_t count(const ancs_edges *e, int64_t ci, const char *via)
{
    size_t n = 0;
    for (size_t k = 0; k < e->len; k++)
        n += e->items[k].char_index == ci && !strcmp(e->items[k].via, via);
    return n;
}

/* ANIM and EVNT IDs of a character (and MP2 event particles) are those truth lists. */
static void check_char(const ancs_edges *e, const jm_node *r, int mp2)
{
    int64_t ci = jint(r, "character_index");
    const jm_node *anims = jm_get(r, "anim_ids"), *evnts = jm_get(r, "evnt_ids");
    assert_non_null(anims);
    assert_non_null(evnts);
    size_t na = 0, ne = 0;
    for (size_t i = 0; i < anims->count; i++) {
        uint32_t id = (uint32_t)jm_at(anims, i)->i;
        if (id == 0 || id == 0xFFFFFFFFu)
            continue;
        na++;
        if (!has(e, ci, FC("ANIM"), id, "animation"))
            fail_msg("char %lld: ANIM %08X missing", (long long)ci, id);
    }
    for (size_t i = 0; i < evnts->count; i++) {
        uint32_t id = (uint32_t)jm_at(evnts, i)->i;
        if (id == 0 || id == 0xFFFFFFFFu)
            continue;
        ne++;
        if (!has(e, ci, FC("EVNT"), id, "animation_resources"))
            fail_msg("char %lld: EVNT %08X missing", (long long)ci, id);
    }
    assert_int_equal(count(e, ci, "animation"), na);
    assert_int_equal(count(e, ci, "animation_resources"), ne);
    if (!mp2)
        return; /* MP1 event particles are the EVNT resources' references */
    const jm_node *parts = jm_get(r, "event_particles");
    assert_non_null(parts);
    size_t np = 0;
    for (size_t i = 0; i < parts->count; i++) {
        const jm_node *p = jm_at(parts, i);
        uint32_t id = (uint32_t)jint(p, "id");
        const char *type = jm_get(p, "type")->str;
        if (id == 0 || id == 0xFFFFFFFFu)
            continue;
        np++;
        if (!has(e, ci, FC(type), id, "event"))
            fail_msg("char %lld: %s %08X missing", (long long)ci, type, id);
    }
    assert_int_equal(count(e, ci, "event"), np);
}

static void run_game(const char *gname, ancs_game game)
{
    const jm_node *list = jm_get(jm_get(jm_get(truth, "games"), gname), "ancs");
    assert_non_null(list);
    assert_true(list->count > 0);
    for (size_t k = 0; k < list->count; k++) {
        const jm_node *an = jm_at(list, k);
        const jm_node *en = jm_at(jm_get(an, "entries"), 0);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s/%s", tu_corpus_dir(), gname, jm_get(en, "pak")->str);
        pak_file *p = NULL;
        util_err err;
        if (pak_open(&p, path, &err))
            fail_msg("%s: %s", path, err.msg);
        uint8_t *b = NULL;
        size_t n = 0;
        if (pak_inflate(&b, &n, p, (uint32_t)jint(en, "index"), PAK_MAX_INFLATE, &err))
            fail_msg("%s: %s", path, err.msg);
        pak_close(p);
        util_arena a;
        util_arena_init(&a);
        ancs_set s;
        if (ancs_decode(&s, b, n, game, &a, &err))
            fail_msg("%s: %s", path, err.msg);
        ancs_edges e = {0};
        assert_int_equal(ancs_reach(&e, &s, &err), 0);
        const jm_node *derived = jm_get(an, "derived");
        const jm_node *reach = jm_get(derived, "character_reach");
        assert_int_equal(reach->count, s.char_count);
        for (size_t c = 0; c < reach->count; c++)
            check_char(&e, jm_at(reach, c), game == ANCS_GAME_MP2);
        /* set level: MP1 EVNTs of pairs no character reaches; MP2 event sets */
        const jm_node *sl = jm_get(derived, "set_level_events");
        const jm_node *sl_evnt = jm_get(sl, "evnt_ids"), *sl_sets = jm_get(sl, "event_set_indices");
        size_t want_evnt = 0;
        for (size_t i = 0; i < sl_evnt->count; i++) {
            uint32_t id = (uint32_t)jm_at(sl_evnt, i)->i;
            if (id == 0 || id == 0xFFFFFFFFu)
                continue;
            want_evnt++;
            assert_true(has(&e, -1, FC("EVNT"), id, "animation_resources"));
        }
        size_t set_evnt = 0;
        for (size_t k2 = 0; k2 < e.len; k2++)
            set_evnt += e.items[k2].char_index == -1 && e.items[k2].dst_type == FC("EVNT");
        assert_int_equal(set_evnt, want_evnt);
        for (size_t i = 0; i < sl_sets->count; i++) {
            const ancs_evnt *ev = &s.animset.event_sets[jm_at(sl_sets, i)->i];
            for (uint32_t q = 0; q < ev->particle_count; q++) {
                uint32_t id = ev->particles[q].particle_id;
                if (id != 0 && id != 0xFFFFFFFFu)
                    assert_true(has(&e, -1, ev->particles[q].particle_type, id, "event_set"));
            }
        }
        ancs_edges_free(&e);
        util_arena_free(&a);
        free(b);
    }
}

static void test_corpus(void **state)
{
    (void)state;
    if (!tu_corpus_dir()) {
        print_message("skipping: no sample corpus\n");
        TU_SKIP();
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/truth.json", tu_corpus_dir());
    size_t n = 0;
    uint8_t *text = tu_read_file(path, &n);
    assert_non_null(text);
    truth = jm_parse((const char *)text, n);
    free(text);
    assert_non_null(truth);
    run_game("mp1", ANCS_GAME_MP1);
    run_game("mp2", ANCS_GAME_MP2);
    jm_free(truth);
    truth = NULL;
}

/* ---- ancs_char_paths ------------------------------------------------------------------ */

typedef struct path_row {
    uint32_t ci, rule, k1, k2, k3;
    const char *type; /* "" = untyped */
    uint32_t id;
    const char *via;
} path_row;

typedef struct got_paths {
    path_row rows[64];
    char via[64][96];
    size_t n;
} got_paths;

static int take_path(const ancs_path *p, void *ctx)
{
    got_paths *g = ctx;
    assert_true(g->n < 64);
    path_row *r = &g->rows[g->n];
    *r = (path_row){p->char_index, p->rule, p->k1, p->k2, p->k3, NULL, p->dst_id, g->via[g->n]};
    assert_true(p->typed || p->dst_type == 0);
    static char types[64][5];
    util_fourcc_str(p->dst_type, types[g->n]);
    r->type = p->typed ? types[g->n] : "";
    snprintf(g->via[g->n], sizeof g->via[g->n], "%s", p->via);
    g->n++;
    return 0;
}

/* The paths are exactly the wanted ones, each once. */
static void paths_are(const got_paths *g, const path_row *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t k = 0; k < g->n; k++) {
            const path_row *r = &g->rows[k];
            seen += r->ci == w[i].ci && r->rule == w[i].rule && r->k1 == w[i].k1 &&
                    r->k2 == w[i].k2 && r->k3 == w[i].k3 && !strcmp(r->type, w[i].type) &&
                    r->id == w[i].id && !strcmp(r->via, w[i].via);
        }
        if (seen != 1)
            fail_msg("path %zu (%s %08X via %s) seen %d times", i, w[i].type, w[i].id, w[i].via,
                     seen);
    }
    if (g->n != n) {
        for (size_t k = 0; k < g->n; k++)
            print_message("got: char %u rule %u %u %u %u %s %08X via %s\n", g->rows[k].ci,
                          g->rows[k].rule, g->rows[k].k1, g->rows[k].k2, g->rows[k].k3,
                          g->rows[k].type, g->rows[k].id, g->rows[k].via);
        fail_msg("%zu paths, want %zu", g->n, n);
    }
}

/* MP1 paths, worked out by hand from the rules: version-gated fields, "none" IDs left out,
 * positions counted over every list entry and every Play node (a "none" one too), an ANIM
 * at its first Play node, its EVNT from its first pair, names quoted when present (empty
 * too) and left out when absent; under another game no EVNT paths. */
static void test_paths_mp1(void **state)
{
    (void)state;
    ancs_meta_anim kids[4] = {play(0), play(0xA1), play(0xA2), play(0xA1)};
    ancs_animation anims[2];
    memset(anims, 0, sizeof anims);
    anims[0].meta.type = ANCS_META_RANDOM;
    anims[0].meta.child_count = 4;
    anims[0].meta.children = kids;
    anims[1].meta = play(0xA3);
    ancs_res_pair pairs[] = {{0xA2, 0xE2}, {0xA1, 0xE1}, {0xA1, 0xE9}, {0xA3, 0xFFFFFFFFu}};
    uint32_t part[] = {0x501, 0, 0x502}, third[] = {0x701}, id_map[] = {0, 1};
    ancs_anim_name names[] = {{0, "", "a"}, {0, "", "again"}, {1, "", "b"}, {9, "", "past"}};
    ancs_effect_comp c0 = {.name = "", .particle_type = FC("PART"), .particle_id = 0x503};
    ancs_effect_comp c1[2] = {{.name = NULL, .particle_type = FC("ELSC"), .particle_id = 0x504},
                              {.name = "k", .particle_type = FC("PART"), .particle_id = 0}};
    ancs_effect effs[2] = {{.name = NULL, .comp_count = 1, .comps = &c0},
                           {.name = "fx", .comp_count = 2, .comps = c1}};
    ancs_character c;
    memset(&c, 0, sizeof c);
    c.version = 6;
    c.model_id = 0xC1;
    c.skin_id = 0;
    c.skeleton_id = 0xC3;
    c.frozen_model_id = 0xFFFFFFFFu;
    c.frozen_skin_id = 0xC5;
    c.cspp_id = 0xC6; /* T < 10: not a field */
    c.part = (ancs_id_list){3, part};
    c.third = (ancs_id_list){1, third};
    c.effect_count = 2;
    c.effects = effs;
    c.id_map = (ancs_id_list){2, id_map};
    c.anim_name_count = 4;
    c.anim_names = names;
    ancs_set s;
    memset(&s, 0, sizeof s);
    s.game = ANCS_GAME_MP1;
    s.char_count = 1;
    s.chars = &c;
    s.animset.animation_count = 2;
    s.animset.animations = anims;
    s.animset.pair_count = 4;
    s.animset.pairs = pairs;
    static const path_row w[] = {
        {0, 1, 1, 0, 0, "CMDL", 0xC1, "model"},
        {0, 1, 3, 0, 0, "CINF", 0xC3, "skeleton"},
        {0, 1, 5, 0, 0, "CSKR", 0xC5, "frozen_skin"},
        {0, 2, 0, 0, 0, "PART", 0x501, "particles PART 0"},
        {0, 2, 0, 2, 0, "PART", 0x502, "particles PART 2"},
        {0, 2, 2, 0, 0, "", 0x701, "particles third_list 0"},
        {0, 3, 0, 0, 0, "PART", 0x503, "effect 0 > component 0 ''"},
        {0, 3, 1, 0, 0, "ELSC", 0x504, "effect 1 'fx' > component 0"},
        {0, 4, 0, 1, 0, "ANIM", 0xA1, "animation 0"},
        {0, 4, 0, 1, 1, "EVNT", 0xE1, "animation 0 > ANIM 000000A1"},
        {0, 4, 0, 2, 0, "ANIM", 0xA2, "animation 0"},
        {0, 4, 0, 2, 1, "EVNT", 0xE2, "animation 0 > ANIM 000000A2"},
        {0, 4, 1, 0, 0, "ANIM", 0xA3, "animation 1"},
    };
    got_paths g = {.n = 0};
    util_err err;
    assert_int_equal(ancs_char_paths(&s, ANCS_GAME_MP1, take_path, &g, &err), 0);
    paths_are(&g, w, sizeof w / sizeof w[0]);
    /* under another game: the same but the EVNTs (MP2's come from event sets) */
    got_paths g2 = {.n = 0}, g3 = {.n = 0};
    assert_int_equal(ancs_char_paths(&s, ANCS_GAME_AUTO, take_path, &g2, &err), 0);
    assert_int_equal(g2.n, sizeof w / sizeof w[0] - 2);
    assert_int_equal(ancs_char_paths(&s, ANCS_GAME_MP2, take_path, &g3, &err), 0);
    assert_int_equal(g3.n, sizeof w / sizeof w[0] - 2);
}

/* MP2 paths (the set of test_mp2_events): CSPP and SPSC, the particle nodes of the used
 * entry's event set whose character index is -1 or the character's, with their names; no
 * path of an entry no character uses. A callback's error code stops the walk and is
 * returned. */
static int stop_at_second(const ancs_path *p, void *ctx)
{
    (void)p;
    return ++*(int *)ctx == 2 ? UTIL_EIO : 0;
}

static void test_paths_mp2(void **state)
{
    (void)state;
    mp2_set m;
    mp2_set_init(&m);
    static const path_row w[] = {
        {0, 1, 1, 0, 0, "CMDL", 0xD1, "model"},
        {0, 1, 6, 0, 0, "CSPP", 0xD6, "cspp"},
        {0, 2, 4, 0, 0, "SPSC", 0x901, "particles SPSC 0"},
        {0, 4, 0, 0, 0, "ANIM", 0xB0, "animation 0"},
        {0, 4, 0, 1000000, 2, "PART", 0x600, "animation 0 > event set 0 > particle node 0 'n'"},
        {0, 4, 0, 1000000, 3, "SWHC", 0x601, "animation 0 > event set 0 > particle node 1"},
    };
    got_paths g = {.n = 0};
    util_err err;
    assert_int_equal(ancs_char_paths(&m.s, ANCS_GAME_MP2, take_path, &g, &err), 0);
    paths_are(&g, w, sizeof w / sizeof w[0]);
    int calls = 0;
    assert_int_equal(ancs_char_paths(&m.s, ANCS_GAME_MP2, stop_at_second, &calls, &err), UTIL_EIO);
    assert_int_equal(calls, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mp1_rules), cmocka_unit_test(test_mp2_events),
        cmocka_unit_test(test_many),      cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_paths_mp1), cmocka_unit_test(test_paths_mp2),
    };
    return tu_status(cmocka_run_group_tests(tests, NULL, NULL));
}
