/* report_world.c — `ancsdb report`: the worlds (MLVL). A page per world (its areas, their
 * script layers, active or not, and what each layer and the area itself load), the list of
 * worlds on the index page, and on ANCS and asset pages the areas and layers that load the
 * asset (see report.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "db.h"
#include "report.h"

/* ==== SQL ================================================================================
 * The worlds' names come from the views worlds and areas (db/schema/60_worlds.sql); a world
 * with several contents shows its newest (mlvl_latest). Tables: mlvl_worlds, mlvl_areas,
 * area_layers, area_deps, ancs, asset_label. */
static const char sql_worlds[] =
    "SELECT w.game, w.mlvl_id, w.name, w.dark_name, w.area_count, "
    "(SELECT count(*) FROM area_layers x WHERE x.game = w.game AND x.mlvl_id = w.mlvl_id AND "
    "x.content_id = w.content_id), "
    "(SELECT count(*) FROM area_deps x WHERE x.game = w.game AND x.mlvl_id = w.mlvl_id AND "
    "x.content_id = w.content_id), w.content_id, "
    "(SELECT l.label FROM asset_label l WHERE l.asset_id = w.mlvl_id) "
    "FROM mlvl_latest m JOIN worlds w ON w.game = m.game AND w.mlvl_id = m.mlvl_id AND "
    "w.content_id = m.content_id ORDER BY w.game, w.name, w.mlvl_id";
/* ?1 game, ?2 MLVL ID, ?3 content: the areas, then every layer, then every dependency */
static const char sql_areas[] =
    "SELECT a.area_index, a.name, a.internal_name, a.mrea_id, a.layer_count, "
    "a.dependency_count, (SELECT group_concat(x.other_area_index, ', ') FROM area_attached x "
    "WHERE x.game = a.game AND x.mlvl_id = a.mlvl_id AND x.content_id = a.content_id AND "
    "x.area_index = a.area_index) FROM areas a WHERE a.game = ?1 AND a.mlvl_id = ?2 AND "
    "a.content_id = ?3 ORDER BY a.area_index";
static const char sql_layers[] =
    "SELECT l.area_index, l.layer_index, l.name, l.active FROM area_layers l WHERE l.game = ?1 "
    "AND l.mlvl_id = ?2 AND l.content_id = ?3 ORDER BY l.area_index, l.layer_index";
static const char sql_deps[] =
    "SELECT d.area_index, d.layer_index, d.type, d.asset_id, "
    "(SELECT n.label FROM asset_label n WHERE n.asset_id = d.asset_id), "
    "EXISTS (SELECT 1 FROM ancs x WHERE x.game = d.game AND x.asset_id = d.asset_id), "
    "EXISTS (SELECT 1 FROM assets x WHERE x.game = d.game AND x.asset_id = d.asset_id) "
    "FROM area_deps d WHERE d.game = ?1 AND d.mlvl_id = ?2 AND d.content_id = ?3 "
    "ORDER BY d.area_index, d.layer_index < 0, d.layer_index, d.dep_index";
/* ?1 game, ?2 asset ID, ?3 type ('????': any particle type): where it is loaded */
static const char sql_loaded[] =
    "SELECT DISTINCT d.mlvl_id, (SELECT w.name FROM worlds w WHERE w.game = d.game AND "
    "w.mlvl_id = d.mlvl_id AND w.content_id = d.content_id), d.area_index, "
    "(SELECT a.name FROM areas a WHERE a.game = d.game AND a.mlvl_id = d.mlvl_id AND "
    "a.content_id = d.content_id AND a.area_index = d.area_index), d.layer_index, l.name, "
    "CASE WHEN d.layer_index < 0 THEN 1 ELSE l.active END "
    "FROM area_deps d LEFT JOIN area_layers l ON l.game = d.game AND l.mlvl_id = d.mlvl_id AND "
    "l.content_id = d.content_id AND l.area_index = d.area_index AND l.layer_index = "
    "d.layer_index WHERE d.asset_id = ?2 AND d.game = ?1 AND (d.type = ?3 OR ?3 = "
    "char(63, 63, 63, 63)) ORDER BY 2, 1, 3, 5";
/* ==== end of SQL ========================================================================= */

void rep_world_href(char *buf, size_t size, const char *game, uint32_t id)
{
    snprintf(buf, size, "world/%s_%08" PRIX32 ".html", game, id);
}

/* Whether an asset page was written for (game, type, id): r->refs is sorted by then. */
static int has_asset_page(const report *r, const char *game, const char *type, uint32_t id)
{
    if (r->root) /* a page writer's: the report's list */
        r = r->root;
    size_t lo = 0, hi = r->nrefs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const rep_ref *x = &r->refs[mid];
        int c = strcmp(x->game, game);
        if (!c)
            c = strcmp(x->type, type);
        if (!c)
            c = x->id < id ? -1 : x->id > id;
        if (c == 0)
            return 1;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

static void layer_head(FILE *f, int64_t li, const char *name, int64_t active)
{
    if (li < 0) {
        fputs("<h4>the area itself <span class=\"muted\">(loaded with the area, no "
              "layer)</span></h4>\n",
              f);
        return;
    }
    fprintf(f, "<h4>layer %" PRId64 " ", li);
    if (name) {
        fputs("&lsquo;", f);
        rep_esc(f, name);
        fputs("&rsquo; ", f);
    }
    fputs(active ? "<span class=\"tag\">active</span>" : "<span class=\"tag\">inactive</span>", f);
    fputs("</h4>\n", f);
}

static int world_page(report *r, void *ctx, size_t wi)
{
    const db_rows *w = ctx;
    const char *game = db_rows_text(w, wi, 0);
    uint32_t id = (uint32_t)db_rows_int(w, wi, 1);
    int64_t cid = db_rows_int(w, wi, 7);
    db_rows ar, ly, dp;
    if (rep_rows(r, &ar, sql_areas, game, id, NULL, cid))
        return -1;
    if (rep_rows(r, &ly, sql_layers, game, id, NULL, cid)) {
        db_rows_free(&ar);
        return -1;
    }
    if (rep_rows(r, &dp, sql_deps, game, id, NULL, cid)) {
        db_rows_free(&ar);
        db_rows_free(&ly);
        return -1;
    }
    char rel[96], title[256];
    rep_world_href(rel, sizeof rel, game, id);
    snprintf(title, sizeof title, "%s (%s world %08" PRIX32 ")",
             db_rows_text(w, wi, 2) ? db_rows_text(w, wi, 2) : "?", game, id);
    FILE *f = rep_page_open_as(r, rel, "../", title, 0); /* large: written anew */
    int rc = 0;
    if (!f) {
        rc = -1;
        goto done;
    }
    fputs("<p>", f);
    if (db_rows_text(w, wi, 3)) {
        fputs("Dark world: ", f);
        rep_esc(f, db_rows_text(w, wi, 3));
        fputs(". ", f);
    }
    fprintf(f,
            "%" PRId64 " area%s, %" PRId64 " script layers, %" PRId64
            " dependencies. <code>ancsdb query areas %08" PRIX32 "</code> lists the areas, "
            "<code>ancsdb query area-deps MREA_ID</code> what one loads.</p>\n",
            db_rows_int(w, wi, 4), db_rows_int(w, wi, 4) == 1 ? "" : "s", db_rows_int(w, wi, 5),
            db_rows_int(w, wi, 6), id);
    fputs("<div class=\"scroll\"><table><tr><th class=\"n\">#</th><th>area</th><th>internal "
          "name</th><th>MREA</th><th class=\"n\">layers</th><th class=\"n\">dependencies</th>"
          "<th>attached</th></tr>\n",
          f);
    for (size_t i = 0; i < ar.nrows; i++) {
        fprintf(f, "<tr><td class=\"n\">%" PRId64 "</td><td><a href=\"#area-%" PRId64 "\">",
                db_rows_int(&ar, i, 0), db_rows_int(&ar, i, 0));
        rep_esc(f, db_rows_text(&ar, i, 1) ? db_rows_text(&ar, i, 1) : "(no name)");
        fputs("</a></td><td>", f);
        rep_esc(f, db_rows_text(&ar, i, 2));
        fprintf(f,
                "</td><td class=\"id\">%08" PRIX32 "</td><td class=\"n\">%" PRId64
                "</td><td class=\"n\">%" PRId64 "</td><td>",
                (uint32_t)db_rows_int(&ar, i, 3), db_rows_int(&ar, i, 4), db_rows_int(&ar, i, 5));
        rep_esc(f, db_rows_text(&ar, i, 6));
        fputs("</td></tr>\n", f);
    }
    fputs("</table></div>\n", f);
    size_t li = 0, di = 0;
    for (size_t i = 0; i < ar.nrows; i++) {
        int64_t ai = db_rows_int(&ar, i, 0);
        fprintf(f, "<h3 id=\"area-%" PRId64 "\">area %" PRId64 " ", ai, ai);
        rep_esc(f, db_rows_text(&ar, i, 1));
        fputs("</h3>\n", f);
        /* the area's layers in order, each with its dependencies, then its own group */
        for (;;) {
            int64_t cur;
            const char *lname = NULL;
            int64_t active = 1;
            if (li < ly.nrows && db_rows_int(&ly, li, 0) == ai) {
                cur = db_rows_int(&ly, li, 1);
                lname = db_rows_text(&ly, li, 2);
                active = db_rows_int(&ly, li, 3);
                li++;
            } else if (di < dp.nrows && db_rows_int(&dp, di, 0) == ai &&
                       db_rows_int(&dp, di, 1) < 0) {
                cur = -1;
            } else {
                break;
            }
            layer_head(f, cur, lname, active);
            size_t start = di;
            while (di < dp.nrows && db_rows_int(&dp, di, 0) == ai && db_rows_int(&dp, di, 1) == cur)
                di++;
            if (di == start) {
                fputs("<p class=\"muted\">loads nothing</p>\n", f);
            } else {
                fputs("<div class=\"scroll\"><table><tr><th>type</th><th>ID</th><th>name</th>"
                      "</tr>\n",
                      f);
                for (size_t k = start; k < di; k++) {
                    const char *type = db_rows_text(&dp, k, 2) ? db_rows_text(&dp, k, 2) : "????";
                    uint32_t aid = (uint32_t)db_rows_int(&dp, k, 3);
                    char h[128] = "";
                    if (!strcmp(type, "ANCS") && db_rows_int(&dp, k, 5) == 1)
                        rep_ancs_href(h, sizeof h, game, aid);
                    else if (has_asset_page(r, game, type, aid))
                        rep_asset_href(h, sizeof h, game, type, aid);
                    fputs("<tr><td>", f);
                    rep_esc(f, type);
                    if (h[0])
                        fprintf(f, "</td><td><a class=\"id\" href=\"../%s\">%08" PRIX32 "</a>", h,
                                aid);
                    else
                        fprintf(f, "</td><td class=\"id\">%08" PRIX32, aid);
                    fputs("</td><td>", f);
                    rep_esc(f, db_rows_text(&dp, k, 4));
                    if (db_rows_int(&dp, k, 6) == 0)
                        fputs(" <span class=\"tag\">in no PAK</span>", f);
                    fputs("</td></tr>\n", f);
                }
                fputs("</table></div>\n", f);
            }
        }
    }
    rc = rep_page_close(r, f, "../");
    if (!rc)
        rc = rep_find_add(r, "MLVL", game, id, db_rows_text(w, wi, 2), rel) ? -1 : 0;
done:
    db_rows_free(&ar);
    db_rows_free(&ly);
    db_rows_free(&dp);
    return rc;
}

int rep_write_world_pages(report *r)
{
    db_rows w;
    if (rep_rows(r, &w, sql_worlds, NULL, 0, NULL, 0))
        return -1;
    int rc = rep_pages(r, "world pages", w.nrows, world_page, &w);
    db_rows_free(&w);
    return rc;
}

int rep_index_worlds(report *r, FILE *f)
{
    db_rows w;
    if (rep_rows(r, &w, sql_worlds, NULL, 0, NULL, 0))
        return -1;
    if (w.nrows == 0) {
        db_rows_free(&w);
        return 0;
    }
    fputs("<section id=\"worlds\"><h2>Worlds</h2>\n<p class=\"muted\">Every world (MLVL): its "
          "areas, their script layers and what each loads.</p>\n",
          f);
    for (size_t i = 0; i < w.nrows; i++) {
        if (i == 0 || strcmp(db_rows_text(&w, i, 0) ? db_rows_text(&w, i, 0) : "",
                             db_rows_text(&w, i - 1, 0) ? db_rows_text(&w, i - 1, 0) : "")) {
            if (i)
                fputs("</table></div>\n", f);
            fputs("<h3>", f);
            rep_esc(f, db_rows_text(&w, i, 0));
            fputs("</h3>\n<div class=\"scroll\"><table><tr><th>world</th><th>MLVL</th><th "
                  "class=\"n\">areas</th><th class=\"n\">layers</th><th "
                  "class=\"n\">dependencies</th></tr>\n",
                  f);
        }
        char h[96];
        rep_world_href(h, sizeof h, db_rows_text(&w, i, 0) ? db_rows_text(&w, i, 0) : "?",
                       (uint32_t)db_rows_int(&w, i, 1));
        fprintf(f, "<tr><td><a href=\"%s\">", h);
        rep_esc(f, db_rows_text(&w, i, 2) ? db_rows_text(&w, i, 2) : "(no name)");
        fprintf(f,
                "</a></td><td class=\"id\">%08" PRIX32 "</td><td class=\"n\">%" PRId64
                "</td><td class=\"n\">%" PRId64 "</td><td class=\"n\">%" PRId64 "</td></tr>\n",
                (uint32_t)db_rows_int(&w, i, 1), db_rows_int(&w, i, 4), db_rows_int(&w, i, 5),
                db_rows_int(&w, i, 6));
    }
    fputs("</table></div>\n</section>\n", f);
    db_rows_free(&w);
    return 0;
}

int rep_loaded_in(report *r, FILE *f, const char *game, const char *type, uint32_t id,
                  const char *root)
{
    db_rows t;
    if (rep_rows(r, &t, sql_loaded, game, id, type, 0))
        return -1;
    if (t.nrows) {
        fputs("<h2>Loaded in</h2>\n<div class=\"scroll\"><table><tr><th>world</th><th "
              "class=\"n\">#</th><th>area</th><th>layer</th><th>active</th></tr>\n",
              f);
        for (size_t i = 0; i < t.nrows; i++) {
            char h[96];
            rep_world_href(h, sizeof h, game, (uint32_t)db_rows_int(&t, i, 0));
            fprintf(f, "<tr><td><a href=\"%s%s\">", root, h);
            rep_esc(f, db_rows_text(&t, i, 1) ? db_rows_text(&t, i, 1) : "(no name)");
            fprintf(f,
                    "</a></td><td class=\"n\">%" PRId64 "</td><td><a href=\"%s%s#area-%" PRId64
                    "\">",
                    db_rows_int(&t, i, 2), root, h, db_rows_int(&t, i, 2));
            rep_esc(f, db_rows_text(&t, i, 3) ? db_rows_text(&t, i, 3) : "(no name)");
            fputs("</a></td><td>", f);
            if (db_rows_int(&t, i, 4) < 0) {
                fputs("the area itself", f);
            } else {
                fprintf(f, "%" PRId64 " ", db_rows_int(&t, i, 4));
                rep_esc(f, db_rows_text(&t, i, 5));
            }
            fprintf(f, "</td><td>%s</td></tr>\n", db_rows_int(&t, i, 6) == 1 ? "yes" : "no");
        }
        fprintf(f,
                "</table></div>\n<p class=\"muted\"><code>ancsdb query where-loaded %s %08" PRIX32
                "</code> lists these with the character set that needs it.</p>\n",
                strcmp(type, "????") ? type : "PART", id);
    }
    db_rows_free(&t);
    return 0;
}
