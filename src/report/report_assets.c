/* report_assets.c — `ancsdb report`: one small page per asset an ANCS page reached (where it
 * is stored, who reaches it and how), from the references the ANCS pages gathered. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "report.h"

/* The texts of x (valid until the next call); -1 with r->err filled on a read error. */
static int ref_texts(report *r, const rep_ref *x, const char **character, const char **name,
                     const char **via)
{
    FILE *spill = (r->root ? r->root : r)->spill; /* a page writer reads the report's */
    if (x->len > r->text_cap) {
        char *n = realloc(r->text, x->len);
        if (!n)
            return util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        r->text = n;
        r->text_cap = x->len;
    }
    if (rep_read_at(fileno(spill), r->text, x->len, x->off) != x->len)
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot read a temporary file: %s",
                         errno ? strerror(errno) : "short read");
    *character = r->text;
    *name = r->text + strlen(r->text) + 1;
    *via = *name + strlen(*name) + 1;
    if (!x->has_name)
        *name = NULL;
    return 0;
}

static int ref_cmp(const void *a, const void *b)
{
    const rep_ref *x = a, *y = b;
    int c = strcmp(x->game, y->game);
    if (!c)
        c = strcmp(x->type, y->type);
    if (!c)
        c = x->id < y->id ? -1 : x->id > y->id;
    if (!c)
        c = x->ancs_id < y->ancs_id ? -1 : x->ancs_id > y->ancs_id;
    if (!c)
        c = x->char_index - y->char_index;
    if (!c) /* then in the order they were added (the deps order of their ANCS page) */
        c = x->off < y->off ? -1 : x->off > y->off;
    return c;
}

static int asset_page(report *r, const rep_ref *first, size_t count)
{
    char rel[128], title[200];
    const char *character, *name0, *via;
    if (ref_texts(r, first, &character, &name0, &via))
        return -1;
    char *name = name0 ? strdup(name0) : NULL;
    if (name0 && !name)
        return util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    rep_asset_href(rel, sizeof rel, first->game, first->type, first->id);
    snprintf(title, sizeof title, "%s %s %08" PRIX32 "%s%s", first->type, first->game, first->id,
             name ? " " : "", name ? name : "");
    db_rows w;
    if (rep_rows(r, &w, rep_sql_where, first->game, first->id, first->type, -1)) {
        free(name);
        return -1;
    }
    FILE *f = rep_page_open(r, rel, "../", title);
    if (!f) {
        db_rows_free(&w);
        free(name);
        return -1;
    }
    if (!strcmp(first->type, "????"))
        fputs("<p class=\"muted\">Listed in a third particle list (character version 6 and up), "
              "whose asset type is unknown.</p>\n",
              f);
    fputs("<h2>Stored in</h2>\n", f);
    if (w.nrows == 0) {
        fputs("<p class=\"note\">No PAK of this game holds it (a dangling reference).</p>\n", f);
    } else {
        fputs("<div class=\"scroll\"><table><tr><th>PAK</th><th class=\"n\">copies</th><th>"
              "compressed</th><th class=\"n\">bytes</th></tr>\n",
              f);
        for (size_t i = 0; i < w.nrows; i++) {
            const char *path = db_rows_text(&w, i, 0) ? db_rows_text(&w, i, 0) : "";
            const char *base = strrchr(path, '/');
            fputs("<tr><td title=\"", f);
            rep_esc(f, path);
            fputs("\">", f);
            rep_esc(f, base ? base + 1 : path);
            fprintf(f,
                    "</td><td class=\"n\">%" PRId64 "</td><td>%s</td><td class=\"n\">%" PRId64
                    "</td></tr>\n",
                    db_rows_int(&w, i, 1), db_rows_int(&w, i, 2) > 0 ? "yes" : "no",
                    db_rows_int(&w, i, 3));
        }
        fputs("</table></div>\n", f);
    }
    db_rows_free(&w);
    fprintf(f, "<h2>Reached by</h2>\n<div class=\"scroll\"><table><tr><th>ANCS</th><th "
               "class=\"n\">#</th><th>character</th><th>through</th></tr>\n");
    int by_char = 0; /* set-level rows (char_index -1) only when no character reaches it */
    for (size_t i = 0; i < count; i++)
        by_char |= first[i].char_index >= 0;
    for (size_t i = 0; i < count; i++) {
        const rep_ref *x = &first[i];
        char h[128];
        if (x->char_index < 0 && (by_char || (i > 0 && first[i - 1].char_index < 0 &&
                                              first[i - 1].ancs_id == x->ancs_id)))
            continue;
        if (ref_texts(r, x, &character, &name0, &via)) {
            rep_discard(r, f);
            free(name);
            return -1;
        }
        rep_ancs_href(h, sizeof h, x->game, x->ancs_id);
        if (x->char_index < 0) {
            fprintf(f,
                    "<tr><td><a class=\"id\" href=\"../%s\">%08" PRIX32
                    "</a></td><td class=\"n\"></td><td class=\"muted\">no character</td><td>",
                    h, x->ancs_id);
            rep_esc(f, via);
            fputs("</td></tr>\n", f);
            continue;
        }
        fprintf(f,
                "<tr><td><a class=\"id\" href=\"../%s\">%08" PRIX32
                "</a></td><td class=\"n\">%d</td><td><a href=\"../%s#char-%d\">",
                h, x->ancs_id, x->char_index, h, x->char_index);
        rep_esc(f, character);
        fputs("</a></td><td>", f);
        rep_esc(f, via);
        fputs("</td></tr>\n", f);
    }
    fprintf(f,
            "</table></div>\n<p class=\"muted\"><code>ancsdb graph --who %s %08" PRIX32
            "</code> draws these paths; <code>ancsdb query who-references %s %08" PRIX32
            "</code> lists them with references no character owns.</p>\n",
            strcmp(first->type, "????") ? first->type : "PART", first->id,
            strcmp(first->type, "????") ? first->type : "PART", first->id);
    if (rep_loaded_in(r, f, first->game, first->type, first->id, "../")) {
        rep_discard(r, f);
        free(name);
        return -1;
    }
    int rc = rep_page_close(r, f, "../")
                 ? -1
                 : rep_find_add(r, first->type, first->game, first->id, name, rel);
    free(name);
    return rc ? -1 : 0;
}

typedef struct asset_pages_ctx {
    const rep_ref *refs; /* the report's, sorted */
    size_t *first;
} asset_pages_ctx;

static int asset_page_at(report *r, void *ctx, size_t i)
{
    const asset_pages_ctx *c = ctx;
    return asset_page(r, &c->refs[c->first[i]], c->first[i + 1] - c->first[i]);
}

int rep_write_asset_pages(report *r)
{
    if (r->spill && fflush(r->spill) != 0)
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot write a temporary file: %s",
                         strerror(errno));
    if (r->nrefs)
        qsort(r->refs, r->nrefs, sizeof *r->refs, ref_cmp);
    /* a page per distinct asset: its refs are refs[first[i] .. first[i + 1]) */
    asset_pages_ctx c = {r->refs, malloc((r->nrefs + 1) * sizeof *c.first)};
    if (!c.first)
        return util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    size_t distinct = 0;
    for (size_t i = 0; i < r->nrefs; i++)
        if (i == 0 || strcmp(r->refs[i].game, r->refs[i - 1].game) ||
            strcmp(r->refs[i].type, r->refs[i - 1].type) || r->refs[i].id != r->refs[i - 1].id)
            c.first[distinct++] = i;
    c.first[distinct] = r->nrefs;
    int rc = rep_pages(r, "asset pages", distinct, asset_page_at, &c);
    free(c.first);
    return rc;
}
