/* report_index.c — `ancsdb report`: the index page (corpus per release and game, a chart of
 * assets per type, the character sets, the search box), the census page (one chart per
 * unknown field) and the search index (search.js). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "db.h"
#include "jsonw.h"
#include "report.h"

extern const char *const ancsdb_embedded_queries[][2];

/* SQL: report_sql.c */

/* Run sql (with @REL@ replaced by rel) into t. */
static int q(report *r, db_rows *t, const char *sql, const char *rel)
{
    memset(t, 0, sizeof *t);
    size_t n = strlen(sql) + 1, rl = rel ? strlen(rel) : 0;
    for (const char *p = sql; rel && (p = strstr(p, "@REL@")); p += 5)
        n += rl;
    char *text = malloc(n);
    if (!text)
        return util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    char *o = text;
    for (const char *p = sql; *p;) {
        if (rel && !strncmp(p, "@REL@", 5)) {
            memcpy(o, rel, rl);
            o += rl;
            p += 5;
        } else {
            *o++ = *p++;
        }
    }
    *o = 0;
    /* parameters a query may take (the census's optional field pattern) bound to NULL */
    db_bind nul[2];
    memset(nul, 0, sizeof nul);
    int rc = db_exec_rows(t, r->d, text, 2, nul, &r->err);
    free(text);
    return rc;
}

/* A count: an INTEGER, a REAL cut to an integer, else 0. */
static int64_t N(const db_rows *t, size_t i, int c)
{
    const db_cell *x = db_rows_at(t, i, c);
    return x->type == DB_INT ? x->i : x->type == DB_REAL ? (int64_t)x->r : 0;
}

static int same(const char *a, const char *b)
{
    return a && b && !strcmp(a, b);
}

static const char *game_color(const char *game)
{
    return same(game, "MP2") ? "#7a5cc2" : "#3b82c4";
}

static const char search_script[] =
    "<script src=\"search.js\"></script>\n"
    "<script>\n"
    "(function () {\n"
    "  var idx = window.ANCSDB_INDEX || [];\n"
    "  var q = document.getElementById('q'), out = document.getElementById('results');\n"
    "  var st = document.getElementById('search-status');\n"
    "  st.textContent = idx.length + ' entries indexed: character sets, characters and every "
    "asset a character reaches. Type a name or the start of an ID.';\n"
    "  st.setAttribute('data-entries', String(idx.length));\n"
    "  function run() {\n"
    "    var s = q.value.trim().toLowerCase(), hex = s.replace(/^0x/, ''), n = 0;\n"
    "    while (out.firstChild) out.removeChild(out.firstChild);\n"
    "    if (!s) return;\n"
    "    for (var i = 0; i < idx.length && n < 200; i++) {\n"
    "      var e = idx[i]; /* kind, game, id, name, href */\n"
    "      var name = (e[3] || '').toLowerCase();\n"
    "      if (name.indexOf(s) < 0 && e[2].toLowerCase().indexOf(hex) !== 0) continue;\n"
    "      var li = document.createElement('li'), tag = document.createElement('span');\n"
    "      tag.className = 'tag'; tag.textContent = e[0];\n"
    "      var a = document.createElement('a'); a.href = e[4];\n"
    "      a.textContent = e[1] + ' ' + e[2] + (e[3] ? ' ' + e[3] : '');\n"
    "      li.appendChild(tag); li.appendChild(a); out.appendChild(li); n++;\n"
    "    }\n"
    "    if (!n) { var li = document.createElement('li'); li.textContent = 'no match'; "
    "out.appendChild(li); }\n"
    "  }\n"
    "  q.addEventListener('input', run);\n"
    "  var m = /[?&]q=([^&]*)/.exec(location.search);\n"
    "  if (m) { q.value = decodeURIComponent(m[1].replace(/\\+/g, ' ')); run(); }\n"
    "})();\n"
    "</script>\n";

int rep_write_index(report *r)
{
    db_rows hr, counts, types, sets;
    if (q(r, &hr, rep_sql_has_releases, NULL))
        return -1;
    const char *rel = hr.nrows && N(&hr, 0, 0) ? rep_rel_label : rep_rel_all;
    db_rows_free(&hr);
    if (q(r, &counts, rep_sql_counts, rel))
        return -1;
    if (q(r, &types, rep_sql_types, rel)) {
        db_rows_free(&counts);
        return -1;
    }
    if (q(r, &sets, rep_sql_sets, NULL)) {
        db_rows_free(&counts);
        db_rows_free(&types);
        return -1;
    }
    FILE *f = rep_open(r, "index.html");
    if (!f) {
        db_rows_free(&counts);
        db_rows_free(&types);
        db_rows_free(&sets);
        return -1;
    }
    rep_page_begin(f, "", "Corpus");
    /* over every release together: an asset in two releases counts once */
    int64_t paks = 0, assets = 0, ancs = 0, chars = 0;
    db_rows tot;
    if (q(r, &tot, rep_sql_totals, NULL) == 0 && tot.nrows) {
        paks = N(&tot, 0, 0);
        assets = N(&tot, 0, 1);
        ancs = N(&tot, 0, 2);
        chars = N(&tot, 0, 3);
    }
    db_rows_free(&tot);
    char when[64] = "";
    time_t now = time(NULL);
    struct tm tmv;
    if (gmtime_r(&now, &tmv))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tmv);
    fputs("<h1>ancsdb report</h1>\n<p>", f);
    fprintf(f,
            "%" PRId64 " PAK%s holding %" PRId64 " distinct asset%s, %" PRId64
            " animated character set%s (ANCS) with %" PRId64 " character%s; made %s from ",
            paks, paks == 1 ? "" : "s", assets, assets == 1 ? "" : "s", ancs, ancs == 1 ? "" : "s",
            chars, chars == 1 ? "" : "s", when);
    rep_esc(f, r->dbname);
    fputs(".</p>\n", f);

    fputs("<section id=\"search\"><h2>Find an asset</h2>\n<label for=\"q\" class=\"muted\">Name "
          "or ID</label><br>\n<input id=\"q\" type=\"search\" autocomplete=\"off\" "
          "placeholder=\"e.g. Samus or 1A2B3C4D\">\n<p id=\"search-status\" class=\"muted\">The "
          "search needs JavaScript; every character set is also listed below.</p>\n<ol "
          "id=\"results\"></ol>\n</section>\n",
          f);

    fputs("<section id=\"corpus\"><h2>Corpus</h2>\n", f);
    if (rel == rep_rel_all)
        fputs("<p class=\"muted\">This database keeps no releases: everything is shown as one "
              "release, <b>all</b>.</p>\n",
              f);
    for (size_t i = 0; i < counts.nrows; i++) {
        if (i == 0 || !same(db_rows_text(&counts, i, 0), db_rows_text(&counts, i - 1, 0))) {
            if (i)
                fputs("</table></div>\n", f);
            fputs("<h3>Release ", f);
            rep_esc(f, db_rows_text(&counts, i, 0));
            fputs("</h3>\n<div class=\"scroll\"><table><tr><th>game</th><th class=\"n\">PAKs</th>"
                  "<th class=\"n\">entries</th><th class=\"n\">assets</th><th "
                  "class=\"n\">ANCS</th><th class=\"n\">characters</th><th class=\"n\">EVNT</th>"
                  "<th class=\"n\">load errors</th><th class=\"n\">warnings</th></tr>\n",
                  f);
        }
        fputs("<tr><td>", f);
        rep_esc(f, db_rows_text(&counts, i, 1));
        fputs("</td>", f);
        for (int c = 2; c <= 9; c++)
            fprintf(f, "<td class=\"n\">%" PRId64 "</td>", N(&counts, i, c));
        fputs("</tr>\n", f);
    }
    if (counts.nrows)
        fputs("</table></div>\n", f);
    else
        fputs("<p class=\"note\">The database holds no PAK yet.</p>\n", f);

    /* one chart of assets per type for each (release, game) */
    fputs("<div class=\"grid\">\n", f);
    for (size_t i = 0; i < types.nrows;) {
        size_t j = i;
        while (j < types.nrows && same(db_rows_text(&types, j, 0), db_rows_text(&types, i, 0)) &&
               same(db_rows_text(&types, j, 1), db_rows_text(&types, i, 1)))
            j++;
        int n = (int)(j - i);
        const char **labels = calloc((size_t)n, sizeof *labels);
        int64_t *v = calloc((size_t)n, sizeof *v);
        if (labels && v) {
            for (int k = 0; k < n; k++) {
                labels[k] = db_rows_text(&types, i + (size_t)k, 2)
                                ? db_rows_text(&types, i + (size_t)k, 2)
                                : "?";
                v[k] = N(&types, i + (size_t)k, 3);
            }
            char title[128];
            snprintf(title, sizeof title, "%s, release %s: distinct assets per type",
                     db_rows_text(&types, i, 1) ? db_rows_text(&types, i, 1) : "?",
                     db_rows_text(&types, i, 0) ? db_rows_text(&types, i, 0) : "?");
            fputs("<div class=\"card\"><h3>", f);
            rep_esc(f, title);
            fputs("</h3>\n", f);
            rep_bar_chart(f, title, n, labels, v, game_color(db_rows_text(&types, i, 1)));
            fputs("</div>\n", f);
        }
        free(labels);
        free(v);
        i = j;
    }
    fputs("</div>\n</section>\n", f);

    fputs("<section id=\"sets\"><h2>Animated character sets</h2>\n", f);
    for (size_t i = 0; i < sets.nrows; i++) {
        if (i == 0 || !same(db_rows_text(&sets, i, 0), db_rows_text(&sets, i - 1, 0))) {
            if (i)
                fputs("</table></div>\n", f);
            fputs("<h3>", f);
            rep_esc(f, db_rows_text(&sets, i, 0));
            fputs("</h3>\n<div class=\"scroll\"><table><tr><th>ANCS</th><th>name</th><th "
                  "class=\"n\">animations</th><th>characters</th></tr>\n",
                  f);
        }
        char h[128];
        rep_ancs_href(h, sizeof h, db_rows_text(&sets, i, 0) ? db_rows_text(&sets, i, 0) : "?",
                      (uint32_t)N(&sets, i, 1));
        fprintf(f, "<tr><td><a class=\"id\" href=\"%s\">%08" PRIX32 "</a></td><td>", h,
                (uint32_t)N(&sets, i, 1));
        rep_esc(f, db_rows_text(&sets, i, 2));
        fprintf(f, "</td><td class=\"n\">%" PRId64 "</td><td>", N(&sets, i, 4));
        rep_esc(f, db_rows_text(&sets, i, 5));
        fputs("</td></tr>\n", f);
    }
    if (sets.nrows)
        fputs("</table></div>\n", f);
    fputs("</section>\n", f);
    if (rep_index_worlds(r, f)) {
        rep_discard(r, f);
        db_rows_free(&counts);
        db_rows_free(&types);
        db_rows_free(&sets);
        return -1;
    }
    fputs("<section id=\"unknowns\"><h2>Unknown fields</h2>\n<p><a "
          "href=\"census.html\">The census</a> charts the values of every field known only as "
          "\"unknown\", per game.</p>\n</section>\n",
          f);
    fputs(search_script, f);
    rep_page_end(r, f, "");
    db_rows_free(&counts);
    db_rows_free(&types);
    db_rows_free(&sets);
    return rep_close(r, f);
}

/* ---- census ------------------------------------------------------------------------------- */

#define CENSUS_BARS 10

static void census_chart(FILE *f, const db_rows *t, size_t i, size_t j)
{
    /* rows i..j-1: one (game, field), sorted here by count */
    size_t n = j - i;
    size_t *ord = calloc(n ? n : 1, sizeof *ord);
    if (!ord)
        return;
    for (size_t k = 0; k < n; k++)
        ord[k] = i + k;
    for (size_t a = 1; a < n; a++) /* insertion sort by count, descending */
        for (size_t b = a; b > 0 && N(t, ord[b], 3) > N(t, ord[b - 1], 3); b--) {
            size_t x = ord[b];
            ord[b] = ord[b - 1];
            ord[b - 1] = x;
        }
    int bars = n > CENSUS_BARS ? CENSUS_BARS + 1 : (int)n;
    const char *labels[CENSUS_BARS + 1];
    char other[64];
    int64_t v[CENSUS_BARS + 1], total = 0;
    for (size_t k = 0; k < n; k++)
        total += N(t, ord[k], 3);
    for (int k = 0; k < bars; k++) {
        if (k == CENSUS_BARS) {
            int64_t rest = 0;
            for (size_t m = CENSUS_BARS; m < n; m++)
                rest += N(t, ord[m], 3);
            snprintf(other, sizeof other, "%zu other values", n - CENSUS_BARS);
            labels[k] = other;
            v[k] = rest;
        } else {
            labels[k] = db_rows_text(t, ord[k], 2) ? db_rows_text(t, ord[k], 2) : "NULL";
            v[k] = N(t, ord[k], 3);
        }
    }
    fputs("<p class=\"muted\">", f);
    rep_esc(f, db_rows_text(t, i, 0));
    fprintf(f, ": %zu distinct value%s in %" PRId64 " occurrence%s</p>\n", n, n == 1 ? "" : "s",
            total, total == 1 ? "" : "s");
    char title[200];
    snprintf(title, sizeof title, "%s %s: values and counts",
             db_rows_text(t, i, 0) ? db_rows_text(t, i, 0) : "?",
             db_rows_text(t, i, 1) ? db_rows_text(t, i, 1) : "?");
    rep_bar_chart(f, title, bars, labels, v, game_color(db_rows_text(t, i, 0)));
    free(ord);
}

int rep_write_census(report *r)
{
    const char *census = cli_query_lookup(ancsdb_embedded_queries, "unknown-census");
    if (!census)
        return util_fail(&r->err, UTIL_EFORMAT, UINT64_MAX, "no unknown-census query");
    /* game, field, value, count of the whole corpus; grouped here by field, then game */
    static const char head[] = "SELECT * FROM (",
                      tail[] = ") WHERE release = '(all)' ORDER BY 2, 1";
    size_t n = strlen(census);
    while (n && (census[n - 1] == ';' || census[n - 1] == '\n' || census[n - 1] == ' '))
        n--;
    char *sql = malloc(sizeof head + n + sizeof tail);
    if (!sql)
        return util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    memcpy(sql, head, sizeof head - 1);
    memcpy(sql + sizeof head - 1, census, n);
    memcpy(sql + sizeof head - 1 + n, tail, sizeof tail);
    db_rows t;
    int rc = q(r, &t, sql, NULL);
    free(sql);
    if (rc)
        return -1;
    FILE *f = rep_page_open(r, "census.html", "", "Census of unknown fields");
    if (!f) {
        db_rows_free(&t);
        return -1;
    }
    fputs("<p>Every field of the formats known only as "
          "\"unknown\" (docs/formats.md §6), with the values it takes and how often, per "
          "game: the ten most common values, then the rest together. <code>ancsdb query "
          "unknown-census</code> lists every value.</p>\n<div class=\"grid\">\n",
          f);
    size_t fields = 0;
    for (size_t i = 0; i < t.nrows;) {
        size_t j = i;
        while (j < t.nrows && same(db_rows_text(&t, j, 1), db_rows_text(&t, i, 1)))
            j++;
        fprintf(f, "<div class=\"card\" id=\"field-%zu\"><h3>", fields++);
        rep_esc(f, db_rows_text(&t, i, 1));
        fputs("</h3>\n", f);
        for (size_t a = i; a < j;) {
            size_t b = a;
            while (b < j && same(db_rows_text(&t, b, 0), db_rows_text(&t, a, 0)))
                b++;
            census_chart(f, &t, a, b);
            a = b;
        }
        fputs("</div>\n", f);
        i = j;
    }
    fputs("</div>\n", f);
    if (!fields)
        fputs("<p class=\"note\">No unknown field has been seen: the database is empty.</p>\n", f);
    db_rows_free(&t);
    return rep_page_close(r, f, "");
}

/* ---- search index ------------------------------------------------------------------------------
 */

int rep_write_search(report *r)
{
    FILE *f = rep_open_as(r, "search.js", 0);
    if (!f)
        return -1;
    fputs("/* ancsdb report search index: [kind, game, ID, name, page] */\n"
          "window.ANCSDB_INDEX = [\n",
          f);
    if (r->finds) {
        char buf[65536];
        size_t n;
        int bad = fflush(r->finds) != 0 || fseek(r->finds, 0, SEEK_SET) != 0;
        while (!bad && (n = fread(buf, 1, sizeof buf, r->finds)) > 0)
            fwrite(buf, 1, n, f);
        if (bad || ferror(r->finds)) {
            rep_discard(r, f);
            return util_fail(&r->err, UTIL_EIO, UINT64_MAX,
                             "cannot read back the search index's temporary file");
        }
        if (r->nfinds)
            fputc('\n', f);
    }
    fputs("];\n", f);
    return rep_close(r, f);
}
