/* graph.c — dependency graphs read from the database (see graph.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"
#include "graph.h"

extern char **environ;
extern const char *const ancsdb_embedded_queries[][2];

/* ==== SQL ================================================================================
 * The edges of a character's dependency tree, by the reach rules of CONTRACT.md (the same
 * joins as queries/deps.sql). ?1 = ANCS ID, ?2 = character index or NULL for all, ?3 = game or NULL
 * for both. Tables:
 * characters, particle_refs, effects, character_anims, animations, anim_primitives,
 * animation_resources, event_sets, events, asset_label (CROSS JOINs walk from the characters
 * asked for into the big tables by their keys). One row per edge:
 * game, from (kind, id, sub), to (kind, id, sub, name), edge label. */
static const char graph_edges_sql[] =
    "WITH ch AS (SELECT * FROM characters WHERE ancs_id = ?1 AND (?2 IS NULL OR char_index = "
    "?2) AND (?3 IS NULL OR game = ?3) AND content_id = ifnull((SELECT max(c.content_id) FROM "
    "contents c "
    "WHERE c.game = characters.game AND c.asset_id = ?1 AND c.type = 'ANCS'), content_id)),\n"
    "used AS (SELECT DISTINCT a.game, a.ancs_id, a.content_id, a.char_index, a.anim_index FROM ch "
    "CROSS JOIN "
    "character_anims a ON ch.game = a.game AND ch.ancs_id = a.ancs_id "
    "AND ch.char_index = a.char_index AND ch.content_id = a.content_id "
    "WHERE a.anim_index IS NOT NULL),\n"
    "uanim AS (SELECT DISTINCT game, ancs_id, content_id, anim_index FROM used),\n"
    "prims AS (SELECT DISTINCT u.game, u.ancs_id, u.content_id, u.anim_index, p.anim_asset_id AS "
    "anim_id, "
    "p.name FROM uanim u CROSS JOIN anim_primitives p ON p.game = u.game AND p.ancs_id = u.ancs_id "
    "AND p.content_id = u.content_id AND "
    "p.owner = 'animation' AND p.owner_index = u.anim_index WHERE p.anim_asset_id NOT IN (0, "
    "4294967295)),\n"
    "pairs AS (SELECT DISTINCT n.game, n.ancs_id, n.anim_id, r.res_index, r.evnt_asset_id AS "
    "evnt_id FROM prims n CROSS JOIN animation_resources r ON r.game = n.game AND r.ancs_id = "
    "n.ancs_id AND r.content_id = n.content_id AND r.anim_asset_id = n.anim_id WHERE n.game = "
    "'MP1' AND r.res_index = (SELECT "
    "min(r2.res_index) FROM animation_resources r2 WHERE r2.game = n.game AND r2.ancs_id = "
    "n.ancs_id AND r2.content_id = n.content_id AND r2.anim_asset_id = n.anim_id) AND "
    "r.evnt_asset_id NOT IN (0, 4294967295)),\n"
    "e(o, game, fk, fid, fsub, tk, tid, tsub, label) AS (\n"
    " SELECT 0, game, 'ANCS', ancs_id, 0, 'char', ancs_id, char_index, NULL FROM ch\n"
    " UNION ALL SELECT 1, game, 'char', ancs_id, char_index, 'CMDL', model_id, 0, 'model' FROM "
    "ch\n"
    " UNION ALL SELECT 1, game, 'char', ancs_id, char_index, 'CSKR', skin_id, 0, 'skin' FROM ch\n"
    " UNION ALL SELECT 1, game, 'char', ancs_id, char_index, 'CINF', skeleton_id, 0, 'skeleton' "
    "FROM ch\n"
    " UNION ALL SELECT 1, game, 'char', ancs_id, char_index, 'CMDL', frozen_model_id, 0, "
    "'frozen model' FROM ch\n"
    " UNION ALL SELECT 1, game, 'char', ancs_id, char_index, 'CSKR', frozen_skin_id, 0, "
    "'frozen skin' FROM ch\n"
    " UNION ALL SELECT 1, game, 'char', ancs_id, char_index, 'CSPP', cspp_id, 0, 'CSPP' FROM ch\n"
    " UNION ALL SELECT 2, p.game, 'char', p.ancs_id, p.char_index, ifnull(p.particle_type, "
    "char(63, 63, 63, 63)), p.particle_id, 0, CASE WHEN p.source = 'effect' THEN 'effect ' || "
    "p.effect_index "
    "|| ifnull(' ''' || f.name || '''', '') ELSE replace(p.list, '_', ' ') || ' list' END FROM ch "
    "CROSS JOIN particle_refs p ON ch.game = p.game AND ch.ancs_id = p.ancs_id "
    "AND ch.char_index = p.char_index AND ch.content_id = p.content_id LEFT JOIN effects f ON "
    "p.source = 'effect' AND f.game = "
    "p.game AND f.ancs_id = "
    "p.ancs_id AND f.content_id = p.content_id AND f.char_index = p.char_index AND f.effect_index "
    "= p.effect_index\n"
    " UNION ALL SELECT 3, game, 'char', ancs_id, char_index, 'anim', ancs_id, anim_index, NULL "
    "FROM used\n"
    " UNION ALL SELECT 4, game, 'anim', ancs_id, anim_index, 'ANIM', anim_id, 0, name FROM prims\n"
    " UNION ALL SELECT 5, game, 'ANIM', anim_id, 0, 'EVNT', evnt_id, 0, 'pair ' || res_index "
    "FROM pairs\n"
    " UNION ALL SELECT 4, u.game, 'anim', u.ancs_id, u.anim_index, 'evset', u.ancs_id, "
    "u.anim_index, NULL FROM uanim u CROSS JOIN event_sets s ON s.game = u.game AND s.ancs_id = "
    "u.ancs_id AND s.content_id = u.content_id AND s.anim_index = u.anim_index WHERE u.game = "
    "'MP2'\n"
    " UNION ALL SELECT 6, v.game, v.fk, v.fid, v.fsub, CASE WHEN x.kind = 'sound' THEN 'sound' "
    "ELSE x.particle_type END, CASE WHEN x.kind = 'sound' THEN x.sound_id ELSE x.particle_id "
    "END, 0, x.kind || ' node ' || x.node_index || ifnull(' ''' || x.name || '''', '') || CASE "
    "WHEN x.char_index = -1 THEN '' ELSE ' (character ' || x.char_index || ')' END FROM (SELECT "
    "DISTINCT game, 'EVNT' AS fk, evnt_id AS fid, 0 AS fsub, 'EVNT' AS ot, evnt_id AS oid, NULL "
    "AS ai, NULL AS cid FROM pairs UNION ALL SELECT game, 'evset', ancs_id, anim_index, 'ANCS', "
    "ancs_id, anim_index, content_id FROM uanim WHERE game = 'MP2') v CROSS JOIN events x ON "
    "x.game = v.game AND "
    "x.owner_type = v.ot AND x.owner_id = v.oid AND x.anim_index IS v.ai AND (v.cid IS NULL OR "
    "x.content_id = v.cid) WHERE x.kind IN "
    "('particle', 'sound') AND (?2 IS NULL OR x.char_index = -1 OR x.char_index = ?2)\n"
    ")\n"
    "SELECT e.game, e.fk, e.fid, e.fsub, e.tk, e.tid, e.tsub,\n"
    " CASE e.tk WHEN 'char' THEN (SELECT c.name FROM ch c WHERE c.game = e.game AND c.ancs_id = "
    "e.tid AND c.char_index = e.tsub) WHEN 'anim' THEN (SELECT a.name FROM animations a WHERE "
    "a.game = e.game AND a.ancs_id = e.tid AND a.anim_index = e.tsub) WHEN 'evset' THEN NULL "
    "WHEN 'sound' THEN NULL ELSE (SELECT l.label FROM asset_label l WHERE l.asset_id = e.tid) "
    "END AS name,\n"
    " e.label,\n"
    " CASE WHEN e.fk = 'ANCS' THEN (SELECT l.label FROM asset_label l WHERE l.asset_id = e.fid) "
    "END AS from_name\n"
    "FROM e WHERE e.tid IS NOT NULL AND (e.tk IN ('char', 'anim', 'evset', 'sound') OR e.tid NOT "
    "IN (0, 4294967295))\n"
    "ORDER BY e.game, e.o, e.fid, e.fsub, e.tk, e.tid, e.tsub";

/* ==== nodes and edges ==================================================================== */

void graph_init(graph *g)
{
    memset(g, 0, sizeof *g);
}

void graph_free(graph *g)
{
    for (size_t i = 0; i < g->nnodes; i++)
        free(g->nodes[i].name);
    for (size_t i = 0; i < g->nedges; i++)
        free(g->edges[i].label);
    free(g->nodes);
    free(g->edges);
    free(g->hash);
    free(g->ehash);
    memset(g, 0, sizeof *g);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xFF51AFD7ED558CCDull;
}

static uint64_t node_hash(const char *kind, const char *game, uint32_t id, int64_t sub)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *p = kind; *p; p++)
        h = mix(h, (unsigned char)*p);
    for (const char *p = game; *p; p++)
        h = mix(h, (unsigned char)*p);
    h = mix(h, id);
    return mix(h, (uint64_t)sub);
}

static int node_eq(const graph_node *n, const char *kind, const char *game, uint32_t id,
                   int64_t sub)
{
    return n->id == id && n->sub == sub && !strcmp(n->kind, kind) && !strcmp(n->game, game);
}

static int rehash_nodes(graph *g, size_t cap)
{
    int *h = calloc(cap, sizeof *h);
    if (!h)
        return UTIL_ENOMEM;
    for (size_t i = 0; i < g->nnodes; i++) {
        const graph_node *n = &g->nodes[i];
        size_t k = node_hash(n->kind, n->game, n->id, n->sub) & (cap - 1);
        while (h[k])
            k = (k + 1) & (cap - 1);
        h[k] = (int)i + 1;
    }
    free(g->hash);
    g->hash = h;
    g->hcap = cap;
    return 0;
}

/* Index of the node, created when absent (name copied when the node gets one). */
static int node_get(graph *g, const char *kind, const char *game, uint32_t id, int64_t sub,
                    const char *name, int *out)
{
    if (g->nnodes * 2 >= g->hcap && rehash_nodes(g, g->hcap ? g->hcap * 2 : 64))
        return UTIL_ENOMEM;
    size_t k = node_hash(kind, game, id, sub) & (g->hcap - 1);
    while (g->hash[k]) {
        graph_node *n = &g->nodes[g->hash[k] - 1];
        if (node_eq(n, kind, game, id, sub)) {
            if (!n->name && name && *name && !(n->name = strdup(name)))
                return UTIL_ENOMEM;
            *out = g->hash[k] - 1;
            return 0;
        }
        k = (k + 1) & (g->hcap - 1);
    }
    if (g->nnodes == g->capnodes) {
        size_t cap = g->capnodes ? g->capnodes * 2 : 64;
        graph_node *nn = realloc(g->nodes, cap * sizeof *nn);
        if (!nn)
            return UTIL_ENOMEM;
        g->nodes = nn;
        g->capnodes = cap;
    }
    graph_node *n = &g->nodes[g->nnodes];
    memset(n, 0, sizeof *n);
    snprintf(n->kind, sizeof n->kind, "%s", kind);
    snprintf(n->game, sizeof n->game, "%s", game);
    n->id = id;
    n->sub = sub;
    n->keep = 1;
    if (name && *name && !(n->name = strdup(name)))
        return UTIL_ENOMEM;
    g->hash[k] = (int)g->nnodes + 1;
    *out = (int)g->nnodes++;
    return 0;
}

static uint64_t edge_hash(int from, int to, const char *label)
{
    uint64_t h = mix(mix(7, (uint64_t)from), (uint64_t)to);
    for (const char *p = label ? label : ""; *p; p++)
        h = mix(h, (unsigned char)*p);
    return h;
}

static int rehash_edges(graph *g, size_t cap)
{
    int *h = calloc(cap, sizeof *h);
    if (!h)
        return UTIL_ENOMEM;
    for (size_t i = 0; i < g->nedges; i++) {
        const graph_edge *e = &g->edges[i];
        size_t k = edge_hash(e->from, e->to, e->label) & (cap - 1);
        while (h[k])
            k = (k + 1) & (cap - 1);
        h[k] = (int)i + 1;
    }
    free(g->ehash);
    g->ehash = h;
    g->ehcap = cap;
    return 0;
}

static int edge_add(graph *g, int from, int to, const char *label)
{
    if (label && !*label)
        label = NULL;
    if (g->nedges * 2 >= g->ehcap && rehash_edges(g, g->ehcap ? g->ehcap * 2 : 64))
        return UTIL_ENOMEM;
    size_t k = edge_hash(from, to, label) & (g->ehcap - 1);
    while (g->ehash[k]) {
        const graph_edge *e = &g->edges[g->ehash[k] - 1];
        if (e->from == from && e->to == to &&
            ((!e->label && !label) || (e->label && label && !strcmp(e->label, label))))
            return 0;
        k = (k + 1) & (g->ehcap - 1);
    }
    if (g->nedges == g->capedges) {
        size_t cap = g->capedges ? g->capedges * 2 : 64;
        graph_edge *ne = realloc(g->edges, cap * sizeof *ne);
        if (!ne)
            return UTIL_ENOMEM;
        g->edges = ne;
        g->capedges = cap;
    }
    graph_edge *e = &g->edges[g->nedges];
    e->from = from;
    e->to = to;
    e->label = NULL;
    if (label && !(e->label = strdup(label)))
        return UTIL_ENOMEM;
    g->ehash[k] = (int)g->nedges + 1;
    g->nedges++;
    return 0;
}

/* ==== reading ============================================================================ */

typedef struct rd_ctx {
    graph *g;
    int rc;
} rd_ctx;

static const char *cell_text(const db_cell *c)
{
    return c->type == DB_TEXT ? c->s : NULL;
}

static int edge_row(void *ctx, int ncols, const db_cell *c)
{
    rd_ctx *r = ctx;
    if (ncols < 10 || c[0].type != DB_TEXT || c[1].type != DB_TEXT || c[4].type != DB_TEXT ||
        c[2].type != DB_INT || c[5].type != DB_INT)
        return 0; /* a row without the keys draws nothing */
    int from, to;
    const char *game = c[0].s;
    int rc = node_get(r->g, c[1].s, game, (uint32_t)c[2].i, c[3].type == DB_INT ? c[3].i : 0,
                      cell_text(&c[9]), &from);
    if (!rc)
        rc = node_get(r->g, c[4].s, game, (uint32_t)c[5].i, c[6].type == DB_INT ? c[6].i : 0,
                      cell_text(&c[7]), &to);
    if (!rc)
        rc = edge_add(r->g, from, to, cell_text(&c[8]));
    if (rc) {
        r->rc = rc;
        return 1;
    }
    return 0;
}

int graph_add_ancs(graph *g, struct db *d, const char *game, uint32_t ancs_id, int64_t char_index,
                   util_err *err)
{
    db_bind b[3];
    memset(b, 0, sizeof b);
    b[0].type = DB_INT;
    b[0].i = ancs_id;
    if (char_index >= 0) {
        b[1].type = DB_INT;
        b[1].i = char_index;
    }
    if (game) {
        b[2].type = DB_TEXT;
        b[2].s = game;
    }
    rd_ctx r = {g, 0};
    db_sink sink = {&r, NULL, edge_row, NULL};
    int rc = db_exec(d, graph_edges_sql, 3, b, &sink, err);
    if (!rc && r.rc)
        rc = util_fail(err, r.rc, UINT64_MAX, "out of memory");
    return rc;
}

/* who-references rows: (game, ancs_id, ancs_id_name, char_index, character, via, src_type,
 * src_id, src_id_name, world) */
typedef struct who_row {
    char game[4];
    uint32_t ancs_id;
    int set_level; /* char_index NULL */
    int64_t char_index;
    char via[64];
    int other;        /* the referrer is no ANCS (src_type, src_id: an MLVL's area and layer) */
    char src_type[8]; /* of other rows */
    uint32_t src_id;
    char world[96];     /* an MLVL's name; "" when none */
    char place[160];    /* the via of other rows (area and layer) */
    char ancs_name[96]; /* ancs_id_name; "" when none */
} who_row;

typedef struct who_ctx {
    who_row *rows;
    size_t n, cap;
    int rc;
} who_ctx;

static int who_row_cb(void *ctx, int ncols, const db_cell *c)
{
    who_ctx *w = ctx;
    int other = ncols >= 10 && c[1].type == DB_NULL && c[6].type == DB_TEXT && c[7].type == DB_INT;
    if (ncols < 6 || c[0].type != DB_TEXT || (c[1].type != DB_INT && !other))
        return 0;
    if (w->n == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 16;
        who_row *nr = realloc(w->rows, cap * sizeof *nr);
        if (!nr) {
            w->rc = UTIL_ENOMEM;
            return 1;
        }
        w->rows = nr;
        w->cap = cap;
    }
    who_row *r = &w->rows[w->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->game, sizeof r->game, "%s", c[0].s);
    r->ancs_id = other ? 0 : (uint32_t)c[1].i;
    r->other = other;
    if (other) {
        snprintf(r->src_type, sizeof r->src_type, "%s", c[6].s);
        r->src_id = (uint32_t)c[7].i;
        snprintf(r->world, sizeof r->world, "%s", c[9].type == DB_TEXT ? c[9].s : "");
        snprintf(r->place, sizeof r->place, "%s", c[5].type == DB_TEXT ? c[5].s : "");
    }
    snprintf(r->ancs_name, sizeof r->ancs_name, "%s", c[2].type == DB_TEXT ? c[2].s : "");
    r->set_level = c[3].type == DB_NULL;
    r->char_index = c[3].type == DB_INT ? c[3].i : -1;
    snprintf(r->via, sizeof r->via, "%s", c[5].type == DB_TEXT ? c[5].s : "");
    return 0;
}

static int is_particle_type(const char *t)
{
    static const char *const pt[] = {"PART", "SWHC", "ELSC", "SPSC", "WPSC", "DPSC", "CRSC"};
    for (size_t i = 0; i < sizeof pt / sizeof pt[0]; i++)
        if (!strcmp(t, pt[i]))
            return 1;
    return 0;
}

/* the first column of the first row, as text */
static int first_text_cb(void *ctx, int ncols, const db_cell *c)
{
    char *out = ctx;
    if (ncols >= 1 && c[0].type == DB_TEXT && !*out)
        snprintf(out, 96, "%s", c[0].s);
    return 0;
}

int graph_add_who(graph *g, struct db *d, const char *type, uint32_t id, long *found, util_err *err)
{
    /* the asset's own name, for its node */
    char target_name[96] = "";
    {
        db_bind nb;
        memset(&nb, 0, sizeof nb);
        nb.type = DB_INT;
        nb.i = id;
        db_sink ns = {target_name, NULL, first_text_cb, NULL};
        int nrc = db_exec(d, "SELECT label FROM asset_label WHERE asset_id = ?1", 1, &nb, &ns, err);
        if (nrc)
            return nrc;
    }
    const char *sql = cli_query_lookup(ancsdb_embedded_queries, "who-references");
    if (!sql)
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "no who-references query");
    db_bind b[2];
    memset(b, 0, sizeof b);
    b[0].type = DB_TEXT;
    b[0].s = type;
    b[1].type = DB_INT;
    b[1].i = id;
    who_ctx w = {0};
    db_sink sink = {&w, NULL, who_row_cb, NULL};
    int rc = db_exec(d, sql, 2, b, &sink, err);
    if (!rc && w.rc)
        rc = util_fail(err, w.rc, UINT64_MAX, "out of memory");
    *found = (long)w.n;
    size_t first = g->nnodes;
    /* the forward graph of every ANCS listed (each once) */
    for (size_t i = 0; !rc && i < w.n; i++) {
        size_t j;
        if (w.rows[i].other)
            continue;
        for (j = 0; j < i; j++)
            if (!w.rows[j].other && w.rows[j].ancs_id == w.rows[i].ancs_id &&
                !strcmp(w.rows[j].game, w.rows[i].game))
                break;
        if (j == i)
            rc = graph_add_ancs(g, d, w.rows[i].game, w.rows[i].ancs_id, -1, err);
    }
    /* assets other than ANCS that list it (a world's areas and layers): MLVL -> asset, one
     * edge per area and layer, labelled with the via */
    for (size_t i = 0; !rc && i < w.n; i++) {
        if (!w.rows[i].other)
            continue;
        int from, to;
        rc = node_get(g, w.rows[i].src_type, w.rows[i].game, w.rows[i].src_id, 0,
                      w.rows[i].world[0] ? w.rows[i].world : NULL, &from);
        if (!rc)
            rc = node_get(g, type, w.rows[i].game, id, 0, target_name, &to);
        if (!rc)
            rc = edge_add(g, from, to, w.rows[i].place);
        if (rc == UTIL_ENOMEM)
            rc = util_fail(err, rc, UINT64_MAX, "out of memory");
    }
    /* references no character owns: ANCS -> asset, labelled with the field */
    for (size_t i = 0; !rc && i < w.n; i++) {
        if (!w.rows[i].set_level || w.rows[i].other)
            continue;
        int from, to;
        char label[96];
        snprintf(label, sizeof label, "%s (no character)", w.rows[i].via);
        rc = node_get(g, "ANCS", w.rows[i].game, w.rows[i].ancs_id, 0, w.rows[i].ancs_name, &from);
        if (!rc)
            rc = node_get(g, type, w.rows[i].game, id, 0, target_name, &to);
        if (!rc)
            rc = edge_add(g, from, to, label);
        if (rc == UTIL_ENOMEM)
            rc = util_fail(err, rc, UINT64_MAX, "out of memory");
    }
    if (rc) {
        free(w.rows);
        return rc;
    }
    /* keep only the nodes from which the asset can be reached, and of the characters only
     * those who-references lists (an event node for one character is drawn from its EVNT,
     * which other characters reach too); keep = 2 marks a character left out */
    for (size_t i = first; i < g->nnodes; i++) {
        graph_node *n = &g->nodes[i];
        n->keep = n->id == id &&
                  (!strcmp(n->kind, type) || (!strcmp(n->kind, "????") && is_particle_type(type)));
        if (!strcmp(n->kind, "char")) {
            size_t k;
            for (k = 0; k < w.n; k++)
                if (!w.rows[k].other && w.rows[k].ancs_id == n->id &&
                    w.rows[k].char_index == n->sub && !strcmp(w.rows[k].game, n->game))
                    break;
            if (k == w.n)
                n->keep = 2;
        }
    }
    free(w.rows);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t k = 0; k < g->nedges; k++) {
            graph_edge *e = &g->edges[k];
            if ((size_t)e->from >= first && g->nodes[e->to].keep == 1 && !g->nodes[e->from].keep) {
                g->nodes[e->from].keep = 1;
                changed = 1;
            }
        }
    }
    for (size_t i = first; i < g->nnodes; i++)
        if (g->nodes[i].keep == 2)
            g->nodes[i].keep = 0;
    return 0;
}

void graph_apply_cut(graph *g)
{
    size_t drawn = 0;
    g->cut = 0;
    for (size_t i = 0; i < g->nnodes; i++) {
        if (!g->nodes[i].keep)
            continue;
        if (drawn < GRAPH_MAX_DRAWN) {
            drawn++;
        } else {
            g->nodes[i].keep = 0;
            g->cut++;
        }
    }
}

/* ==== DOT ================================================================================ */

/* Text inside a DOT double-quoted string: quotes and backslashes escaped, control bytes and
 * invalid UTF-8 shown as '?'. */
static void dot_text(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t left = strlen(s);
    while (*p) {
        uint32_t cp;
        size_t n = util_utf8_seq(p, left - (size_t)(p - (const unsigned char *)s), &cp);
        if (n == 0 || (*p < 0x20) || *p == 0x7F) {
            fputc('?', f);
            p++;
        } else if (*p == '"' || *p == '\\') {
            fputc('\\', f);
            fputc(*p++, f);
        } else {
            fwrite(p, 1, n, f);
            p += n;
        }
    }
}

static int is_asset_kind(const char *k)
{
    return strcmp(k, "char") && strcmp(k, "anim") && strcmp(k, "evset") && strcmp(k, "sound");
}

void graph_node_label(const graph_node *n, char *buf, size_t size)
{
    const char *nm = n->name ? n->name : "";
    const char *sp = n->name ? " " : "";
    if (!strcmp(n->kind, "char"))
        snprintf(buf, size, "character %" PRId64 "%s%s", n->sub, sp, nm);
    else if (!strcmp(n->kind, "anim"))
        snprintf(buf, size, "animation %" PRId64 "%s%s", n->sub, sp, nm);
    else if (!strcmp(n->kind, "evset"))
        snprintf(buf, size, "event set %" PRId64, n->sub);
    else if (!strcmp(n->kind, "sound"))
        snprintf(buf, size, "sound 0x%08" PRIX32, n->id);
    else
        snprintf(buf, size, "%s %08" PRIX32 "%s%s", n->kind, n->id, sp, nm);
}

static const char *fill_of(const char *kind)
{
    static const struct {
        const char *k, *c;
    } fills[] = {{"ANCS", "#f4d58d"},  {"char", "#bde0fe"},  {"anim", "#e9ecef"},
                 {"evset", "#e9ecef"}, {"ANIM", "#d8f3dc"},  {"EVNT", "#ffd6a5"},
                 {"CMDL", "#cdb4db"},  {"CSKR", "#cdb4db"},  {"CINF", "#cdb4db"},
                 {"CSPP", "#cdb4db"},  {"sound", "#fde2e4"}, {"MLVL", "#a0c4ff"}};
    for (size_t i = 0; i < sizeof fills / sizeof fills[0]; i++)
        if (!strcmp(kind, fills[i].k))
            return fills[i].c;
    return "#ffadad"; /* particles */
}

void graph_write_dot(graph *g, FILE *f, const char *name, graph_url_fn url, void *ctx)
{
    graph_apply_cut(g);
    fputs("digraph \"", f);
    dot_text(f, name);
    fputs("\" {\n"
          "  graph [rankdir=LR, fontname=\"Helvetica\", fontsize=10, nodesep=0.15, "
          "ranksep=0.5];\n"
          "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10, "
          "margin=\"0.08,0.03\"];\n"
          "  edge [fontname=\"Helvetica\", fontsize=8, color=\"#555555\"];\n",
          f);
    for (size_t i = 0; i < g->nnodes; i++) {
        const graph_node *n = &g->nodes[i];
        if (!n->keep)
            continue;
        fprintf(f, "  n%zu [label=\"", i);
        if (!strcmp(n->kind, "char")) {
            fprintf(f, "character %" PRId64, n->sub);
        } else if (!strcmp(n->kind, "anim")) {
            fprintf(f, "animation %" PRId64, n->sub);
        } else if (!strcmp(n->kind, "evset")) {
            fprintf(f, "event set %" PRId64, n->sub);
        } else if (!strcmp(n->kind, "sound")) {
            fprintf(f, "sound\\n0x%08" PRIX32, n->id);
        } else {
            dot_text(f, n->kind);
            fprintf(f, " %s\\n%08" PRIX32, n->game, n->id);
        }
        if (n->name) {
            /* an asset's label may be a long map path: its last part here, all of it in the
             * tooltip */
            const char *slash = is_asset_kind(n->kind) ? strrchr(n->name, '/') : NULL;
            fputs("\\n", f);
            dot_text(f, slash && slash[1] ? slash + 1 : n->name);
        }
        fprintf(f, "\", fillcolor=\"%s\"", fill_of(n->kind));
        if (!strcmp(n->kind, "char"))
            fputs(", shape=ellipse", f);
        const char *u = url ? url(n, ctx) : NULL;
        if (u) {
            fputs(", URL=\"", f);
            dot_text(f, u);
            fputs("\", target=\"_top\"", f);
        }
        if (is_asset_kind(n->kind)) {
            fputs(", tooltip=\"", f);
            dot_text(f, n->kind);
            fprintf(f, " %08" PRIX32, n->id);
            if (n->name) {
                fputc(' ', f);
                dot_text(f, n->name);
            }
            fputc('"', f);
        }
        fputs("];\n", f);
    }
    for (size_t i = 0; i < g->nedges; i++) {
        const graph_edge *e = &g->edges[i];
        if (!g->nodes[e->from].keep || !g->nodes[e->to].keep)
            continue;
        fprintf(f, "  n%d -> n%d", e->from, e->to);
        if (e->label) {
            fputs(" [label=\"", f);
            dot_text(f, e->label);
            fputs("\"]", f);
        }
        fputs(";\n", f);
    }
    if (g->cut)
        fprintf(f,
                "  cut [shape=note, style=filled, fillcolor=\"#fff3bf\", label=\"graph cut at "
                "%d nodes:\\n%zu more not drawn\\n(ancsdb query deps lists every asset)\"];\n",
                GRAPH_MAX_DRAWN, g->cut);
    fputs("}\n", f);
}

/* ==== Graphviz =========================================================================== */

int graph_render_svg(const char *dot, size_t n, int out_fd, util_err *err)
{
    int in[2];
    if (pipe(in))
        return util_fail(err, UTIL_EIO, UINT64_MAX, "pipe: %s", strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    if (out_fd != 1)
        posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    char *argv[] = {"dot", "-Tsvg", NULL};
    pid_t pid;
    int sr = posix_spawnp(&pid, "dot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    if (sr != 0) {
        close(in[1]);
        if (sr == ENOENT)
            return 1;
        return util_fail(err, UTIL_EIO, UINT64_MAX, "cannot run dot: %s", strerror(sr));
    }
    /* a dot that exits early must not kill us with SIGPIPE */
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old);
    int werr = 0;
    for (size_t off = 0; off < n;) {
        ssize_t w = write(in[1], dot + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            werr = errno ? errno : EIO;
            break;
        }
        off += (size_t)w;
    }
    close(in[1]);
    sigaction(SIGPIPE, &old, NULL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return util_fail(err, UTIL_EIO, UINT64_MAX, "waitpid: %s", strerror(errno));
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
            return 1;
        return util_fail(err, UTIL_EIO, UINT64_MAX, "dot failed (status %d)",
                         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    if (werr)
        return util_fail(err, UTIL_EIO, UINT64_MAX, "writing to dot: %s", strerror(werr));
    return 0;
}
