/* ingest_world.c — the MLVLs' asset_refs rows on the writer's side: which STRG content of each
 * ID the release being read holds, and the MLVL decodes waiting for their areas' names (see
 * ingest_internal.h). */
#include <stdlib.h>
#include <string.h>

#include "ingest_internal.h"

static uint64_t seen_key(const char *game, uint32_t id)
{
    return ((uint64_t)(strcmp(game, "MP2") == 0 ? 2 : 1) << 32 | id) + 1;
}

static size_t seen_slot(const ing_worlds *w, uint64_t key)
{
    size_t i = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & (w->cap - 1);
    while (w->seen[i].key && w->seen[i].key != key)
        i = (i + 1) & (w->cap - 1);
    return i;
}

static void seen_clear(ing_worlds *w)
{
    free(w->seen);
    w->seen = NULL;
    w->cap = w->n = 0;
}

/* Only an optimisation: out of memory forgets the map (the final pass names the areas). */
void ing_worlds_strg(ing *g, const char *game, uint32_t id, int64_t cid)
{
    ing_worlds *w = &g->worlds;
    if (w->rel_id != g->rel_id) {
        seen_clear(w);
        w->rel_id = g->rel_id;
    }
    if (2 * (w->n + 1) > w->cap) {
        ing_strg_seen *old = w->seen;
        size_t old_cap = w->cap;
        w->cap = old_cap ? old_cap * 2 : 1024;
        w->seen = calloc(w->cap, sizeof *w->seen);
        w->n = 0;
        if (!w->seen) {
            w->cap = 0;
            free(old);
            return;
        }
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].key) {
                w->seen[seen_slot(w, old[i].key)] = old[i];
                w->n++;
            }
        free(old);
    }
    uint64_t key = seen_key(game, id);
    ing_strg_seen *s = &w->seen[seen_slot(w, key)];
    if (!s->key) {
        s->key = key;
        s->content_id = cid;
        w->n++;
    } else if (cid > s->content_id) {
        s->content_id = cid;
    }
}

/* Forget the MLVL waiting in slot i (the last one takes the slot). */
static void forget(ing_worlds *w, size_t i)
{
    w->wait_bytes -= w->wait.items[i].arena.total;
    util_arena_free(&w->wait.items[i].arena);
    w->wait.items[i] = w->wait.items[--w->wait.len];
}

void ing_worlds_drop(ing *g)
{
    while (g->worlds.wait.len)
        forget(&g->worlds, g->worlds.wait.len - 1);
}

void ing_worlds_free(ing *g)
{
    ing_worlds_drop(g);
    util_vec_free(&g->worlds.wait);
    seen_clear(&g->worlds);
}

/* The content of STRG (game, id) that release rel has shown so far, or 0. */
static int64_t seen_in(const ing_worlds *w, int64_t rel, const char *game, uint32_t id)
{
    if (!w->cap || w->rel_id != rel)
        return 0;
    const ing_strg_seen *s = &w->seen[seen_slot(w, seen_key(game, id))];
    return s->key ? s->content_id : 0;
}

/* The ENGL string 0 of STRG (game, id): of the content release rel holds, else of the
 * newest content (*out malloc'd, NULL: none). */
static int area_name(ing *g, int64_t rel, const char *game, uint32_t id, char **out)
{
    *out = NULL;
    int64_t cid = seen_in(&g->worlds, rel, game, id);
    sqlite3_stmt *q = g->d->st[cid > 0 ? S_STRG_NAME : S_STRG_NAME_ANY];
    sqlite3_bind_text(q, 1, game, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, id);
    if (cid > 0)
        sqlite3_bind_int64(q, 3, cid);
    int s = sqlite3_step(q);
    if (s == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(q, 0);
        if (t && !(*out = strdup(t)))
            s = SQLITE_NOMEM;
    }
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    if (s == SQLITE_NOMEM)
        return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    if (s != SQLITE_ROW && s != SQLITE_DONE)
        return dbi_sql_fail(g->d, g->err, "select an area's name");
    return 0;
}

/* Whether the release of x has shown a STRG for every area name x needs. */
static int names_seen(const ing *g, const ing_mlvl_wait *x)
{
    for (uint32_t i = 0; i < x->m.area_count; i++)
        if (!dbi_id_none(x->m.areas[i].name_strg) &&
            !seen_in(&g->worlds, x->rel_id, x->game, x->m.areas[i].name_strg))
            return 0;
    return 1;
}

static int put_refs(ing *g, const ing_mlvl_wait *x)
{
    const world_mlvl *m = &x->m;
    char **names = calloc(m->area_count ? m->area_count : 1, sizeof *names);
    if (!names)
        return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    int rc = 0;
    for (uint32_t i = 0; i < m->area_count && !rc; i++)
        if (!dbi_id_none(m->areas[i].name_strg))
            rc = area_name(g, x->rel_id, x->game, m->areas[i].name_strg, &names[i]);
    if (!rc)
        rc = db_put_mlvl_refs(g->d, x->game, x->id, x->content_id, m, (const char *const *)names,
                              g->err);
    for (uint32_t i = 0; i < m->area_count; i++)
        free(names[i]);
    free(names);
    return rc;
}

/* Write the rows of the MLVL waiting in slot i now, and forget it. */
static int put_and_forget(ing *g, size_t i)
{
    int rc = put_refs(g, &g->worlds.wait.items[i]);
    forget(&g->worlds, i);
    return rc;
}

int ing_worlds_flush(ing *g, int release_ends)
{
    ing_worlds *w = &g->worlds;
    int rc = 0;
    for (size_t i = w->wait.len; i-- > 0 && !rc;)
        if (release_ends || w->wait.items[i].rel_id != g->rel_id ||
            names_seen(g, &w->wait.items[i]))
            rc = put_and_forget(g, i);
    return rc;
}

int ing_worlds_wait(ing *g, const char *game, uint32_t id, int64_t cid, ing_job *j)
{
    ing_worlds *w = &g->worlds;
    int rc = 0;
    for (size_t i = 0; i < w->wait.len; i++)
        if (w->wait.items[i].content_id == cid) { /* its rows were made again from a shorter copy */
            forget(w, i);
            break;
        }
    while (w->wait_bytes > ING_MLVL_WAIT_MAX && w->wait.len && !rc)
        rc = put_and_forget(g, 0);
    if (rc)
        return rc;
    if (util_vec_reserve(&w->wait, 1, g->err))
        return UTIL_ENOMEM;
    ing_mlvl_wait *x = &w->wait.items[w->wait.len++];
    x->game = strcmp(game, "MP2") == 0 ? "MP2" : "MP1";
    x->id = id;
    x->content_id = cid;
    x->rel_id = g->rel_id;
    x->m = j->mlvl;
    util_arena_move(&x->arena, &j->arena);
    memset(&j->mlvl, 0, sizeof j->mlvl);
    w->wait_bytes += x->arena.total;
    return 0;
}
