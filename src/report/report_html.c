/* report_html.c — page frame, escaping, the style sheet, inline-SVG bar charts and progress
 * for `ancsdb report` (see report.h). Pages use no script or font from elsewhere. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "jsonw.h"
#include "report.h"

#ifndef ANCSDB_VERSION /* set by CMakeLists.txt from project(VERSION) */
#error "ANCSDB_VERSION is not defined"
#endif

FILE *rep_open(report *r, const char *rel)
{
    return rep_open_as(r, rel, r->earlier);
}

FILE *rep_open_as(report *r, const char *rel, int buffered)
{
    if (buffered) {
        struct rep_buf *b = NULL;
        for (size_t k = 0; k < sizeof r->open / sizeof r->open[0] && !b; k++)
            if (!r->open[k].f)
                b = &r->open[k];
        if (!b) {
            util_fail(&r->err, UTIL_EIO, UINT64_MAX, "%s: too many files open at once", rel);
            return NULL;
        }
        if (snprintf(b->rel, sizeof b->rel, "%s", rel) >= (int)sizeof b->rel) {
            util_fail(&r->err, UTIL_EIO, UINT64_MAX, "%s: path too long", rel);
            return NULL;
        }
        b->buf = NULL;
        b->len = 0;
        if (!(b->f = open_memstream(&b->buf, &b->len)))
            util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        return b->f;
    }
    int fd = rep_openat(r, rel);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot write %s/%s: %s", r->dir, rel,
                  strerror(errno));
        close(fd);
    }
    return f;
}

/* The buffer f writes into, when it is one (rep_open with an earlier report in DIR). */
static struct rep_buf *buffer_of(report *r, FILE *f)
{
    for (size_t k = 0; k < sizeof r->open / sizeof r->open[0]; k++)
        if (r->open[k].f == f)
            return &r->open[k];
    return NULL;
}

/* A buffered file's bytes: kept from the earlier report when it has them, else written. */
static int put_buffer(report *r, struct rep_buf *b)
{
    if (rep_link_earlier(r, b->rel, b->buf, b->len) == 1)
        return 0;
    int fd = rep_openat(r, b->rel);
    if (fd < 0)
        return -1;
    size_t off = 0;
    while (off < b->len) {
        ssize_t k = write(fd, b->buf + off, b->len - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        off += (size_t)k;
    }
    int err = off < b->len ? (errno ? errno : EIO) : 0;
    if (close(fd) != 0 && !err)
        err = errno;
    if (err)
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "write error in %s/%s: %s", r->dir, b->rel,
                         strerror(err));
    return 0;
}

void rep_discard(report *r, FILE *f)
{
    struct rep_buf *b = buffer_of(r, f);
    fclose(f);
    if (b) {
        free(b->buf);
        memset(b, 0, sizeof *b);
    }
}

int rep_close(report *r, FILE *f)
{
    struct rep_buf *b = buffer_of(r, f);
    if (b) {
        int bad = ferror(f);
        int rc = fclose(f) != 0 || bad || !b->buf
                     ? util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory")
                     : put_buffer(r, b);
        if (!rc) {
            r->pages++;
            r->bytes += (long)b->len;
        }
        free(b->buf);
        memset(b, 0, sizeof *b);
        return rc;
    }
    long size = ftell(f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "write error in %s: %s", r->dir,
                         strerror(errno ? errno : EIO));
    r->pages++;
    if (size > 0)
        r->bytes += size;
    return 0;
}

void rep_esc(FILE *f, const char *s)
{
    util_xml_escape(f, s, UTIL_XML_QUOTES);
}

void rep_page_begin(FILE *f, const char *root, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          f);
    rep_esc(f, title);
    fprintf(f,
            " — ancsdb report</title>\n<link rel=\"stylesheet\" href=\"%sstyle.css\">\n</head>\n"
            "<body>\n<header><a class=\"home\" href=\"%sindex.html\">ancsdb report</a>"
            "<nav><a href=\"%sindex.html#corpus\">Corpus</a> <a href=\"%sindex.html#sets\">"
            "Character sets</a> <a href=\"%scensus.html\">Census</a> "
            "<a href=\"%sindex.html#search\">Search</a></nav></header>\n<main>\n",
            root, root, root, root, root, root);
}

void rep_page_end(report *r, FILE *f, const char *root)
{
    (void)root;
    fputs("</main>\n<footer>Made by ancsdb " ANCSDB_VERSION " from ", f);
    rep_esc(f, r->dbname);
    fputs(". Asset IDs are 8 hex digits; names come from the PAKs and imported name "
          "maps.</footer>\n</body>\n</html>\n",
          f);
}

FILE *rep_page_open(report *r, const char *rel, const char *root, const char *title)
{
    return rep_page_open_as(r, rel, root, title, r->earlier);
}

FILE *rep_page_open_as(report *r, const char *rel, const char *root, const char *title,
                       int buffered)
{
    FILE *f = rep_open_as(r, rel, buffered);
    if (!f)
        return NULL;
    rep_page_begin(f, root, title);
    fputs("<h1>", f);
    rep_esc(f, title);
    fputs("</h1>\n", f);
    return f;
}

int rep_page_close(report *r, FILE *f, const char *root)
{
    rep_page_end(r, f, root);
    return rep_close(r, f);
}

static const char css[] =
    ":root{--fg:#1d2330;--muted:#5b6474;--bg:#fbfbfd;--card:#fff;--line:#dde1e8;"
    "--link:#1f5fbf;--accent:#3b82c4}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',"
    "Arial,sans-serif;color:var(--fg);background:var(--bg)}\n"
    "header{display:flex;flex-wrap:wrap;gap:.3em 1.2em;align-items:baseline;padding:.6em "
    "1.2em;background:#243447;color:#fff}\n"
    "header a{color:#fff;text-decoration:none}header .home{font-weight:600;font-size:1.1em}\n"
    "header nav a{margin-right:1em;opacity:.9}header nav a:hover{text-decoration:underline}\n"
    "main{max-width:1240px;margin:0 auto;padding:1em 1.2em 2em}\n"
    "footer{max-width:1240px;margin:0 auto;padding:1em 1.2em;color:var(--muted);"
    "font-size:.85em;border-top:1px solid var(--line)}\n"
    "h1{font-size:1.5em;margin:.3em 0 .5em;word-break:break-word}h2{font-size:1.2em;margin:1.6em "
    "0 .5em;border-bottom:1px solid var(--line);padding-bottom:.2em}h3{font-size:1.02em;"
    "margin:1.2em 0 .4em}\n"
    "a{color:var(--link)}code,.id{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"
    "monospace;font-size:.92em}\n"
    ".muted{color:var(--muted)}.note{background:#fff8e1;border:1px solid #f0d98c;padding:.5em "
    ".8em;border-radius:6px}\n"
    ".scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%}\n"
    "table{border-collapse:collapse;background:var(--card);margin:.4em 0 1em;font-size:.93em}\n"
    "th,td{border:1px solid var(--line);padding:.25em .55em;text-align:left;vertical-align:top}\n"
    "th{background:#eef1f6;font-weight:600}td.n,th.n{text-align:right;font-variant-numeric:"
    "tabular-nums}\n"
    ".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(400px,1fr));gap:1em}\n"
    ".card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.6em "
    ".9em}\n"
    ".card h3{margin-top:.2em}\n"
    "svg.chart{width:100%;height:auto;display:block}\n"
    "svg.chart text{font-size:11px;fill:var(--fg)}svg.chart .v{fill:var(--muted)}\n"
    ".graph{overflow:auto;background:var(--card);border:1px solid var(--line);"
    "border-radius:8px;padding:.5em;max-height:80vh}\n"
    ".graph svg{max-width:100%;height:auto}\n"
    "ul.tree{list-style:none;padding-left:1.1em;margin:.2em 0}ul.tree li{margin:.1em 0}\n"
    "ul.tree li::before{content:'\\2514\\00a0';color:var(--muted)}\n"
    "#search input{width:100%;max-width:520px;font-size:1em;padding:.45em .6em;border:1px "
    "solid #aab2c0;border-radius:6px}\n"
    "#results{margin:.6em 0;padding-left:1.2em}#results li{margin:.15em 0}\n"
    ".tag{display:inline-block;min-width:3.6em;font-size:.8em;background:#eef1f6;border:1px "
    "solid var(--line);border-radius:4px;padding:0 .3em;margin-right:.3em;text-align:center}\n"
    "@media (max-width:640px){body{font-size:14px}main{padding:.6em}header{padding:.5em .7em}"
    ".grid{grid-template-columns:1fr}th,td{padding:.2em .35em}}\n";

int rep_write_css(report *r)
{
    FILE *f = rep_open(r, "style.css");
    if (!f)
        return -1;
    fputs(css, f);
    return rep_close(r, f);
}

void rep_bar_chart(FILE *f, const char *title, int n, const char *const *labels, const int64_t *v,
                   const char *color)
{
    int64_t max = 1;
    for (int i = 0; i < n; i++)
        if (v[i] > max)
            max = v[i];
    /* the label column as wide as the longest label (about 7 units a character) */
    size_t longest = 1;
    for (int i = 0; i < n; i++)
        if (labels[i] && strlen(labels[i]) > longest)
            longest = strlen(labels[i]);
    /* one width for every chart, so that their text has one size on the page */
    const int row = 18, top = 4, width = 600;
    int lw = (int)(longest > 30 ? 30 : longest) * 7 + 12;
    int bw = width - lw - 60;
    int h = top + row * (n > 0 ? n : 1) + 4;
    fprintf(f,
            "<svg class=\"chart\" viewBox=\"0 0 %d %d\" style=\"max-width:%dpx\" role=\"img\" "
            "aria-label=\"",
            width, h, width * 5 / 4);
    rep_esc(f, title);
    fputs("\"><title>", f);
    rep_esc(f, title);
    fputs("</title>\n", f);
    for (int i = 0; i < n; i++) {
        int y = top + i * row;
        int w = (int)((double)v[i] / (double)max * bw);
        if (v[i] > 0 && w < 1)
            w = 1;
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", lw - 6, y + 12);
        rep_esc(f, labels[i]);
        fprintf(f,
                "</text><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"2\" "
                "fill=\"%s\"><title>",
                lw, y + 2, w, row - 5, color);
        rep_esc(f, labels[i]);
        fprintf(f,
                ": %" PRId64 "</title></rect><text class=\"v\" x=\"%d\" y=\"%d\">%" PRId64
                "</text>\n",
                v[i], lw + w + 5, y + 12, v[i]);
    }
    fputs("</svg>\n", f);
}

void rep_asset_href(char *buf, size_t size, const char *game, const char *type, uint32_t id)
{
    char t[5];
    /* '????' (third-list IDs of no known type) cannot name a file portably */
    snprintf(t, sizeof t, "%s", strcmp(type, "????") ? type : "anyP");
    for (char *c = t; *c; c++)
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9')))
            *c = '_';
    snprintf(buf, size, "asset/%s_%s_%08" PRIX32 ".html", game, t, id);
}

void rep_ancs_href(char *buf, size_t size, const char *game, uint32_t id)
{
    snprintf(buf, size, "ancs/%s_%08" PRIX32 ".html", game, id);
}

void rep_progress(report *r, const char *what, long done, long total)
{
    if (r->quiet || !r->progress)
        return;
    fputc('\r', stderr);
    cli_say(stderr, "report: %s %ld/%ld ", what, done, total);
    fflush(stderr);
}

void rep_progress_done(report *r, const char *what, long total)
{
    if (r->quiet)
        return;
    if (r->progress)
        fputc('\r', stderr);
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    double at = (double)t.tv_sec + (double)t.tv_nsec / 1e9 - r->t0;
    cli_say(stderr, "report: %s %ld/%ld (at %.1f s)\n", what, total, total, at);
}

int rep_find_add(report *r, const char *kind, const char *game, uint32_t id, const char *name,
                 const char *href)
{
    if (!r->finds && !(r->finds = tmpfile()))
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX,
                         "cannot create a temporary file for the search index: %s",
                         strerror(errno));
    char hex[16];
    snprintf(hex, sizeof hex, "%08" PRIX32, id);
    /* entries are separated by ",\n"; rep_write_search ends the last one */
    fputs(r->nfinds ? ",\n[" : "[", r->finds);
    jw_string_literal(r->finds, kind);
    fputc(',', r->finds);
    jw_string_literal(r->finds, game);
    fputc(',', r->finds);
    jw_string_literal(r->finds, hex);
    fputc(',', r->finds);
    if (name)
        jw_string_literal(r->finds, name);
    else
        fputs("null", r->finds);
    fputc(',', r->finds);
    jw_string_literal(r->finds, href);
    fputc(']', r->finds);
    r->nfinds++;
    return 0;
}
