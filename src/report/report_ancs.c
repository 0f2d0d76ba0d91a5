/* report_ancs.c — `ancsdb report`: one page per ANCS (facts, characters, the dependency graph
 * drawn by Graphviz or a nested list, everything each character reaches); the references it
 * gathers make the asset pages (report_assets.c). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>
#ifdef ANCSDB_XXH_DISPATCH
#include <xxh_x86dispatch.h> /* XXH3 as fast as this CPU allows (CMakeLists.txt) */
#endif

#include "cli.h"
#include "db.h"
#include "graph.h"
#include "report.h"

extern char **environ;
extern const char *const ancsdb_embedded_queries[][2];

/* SQL: report_sql.c */

typedef struct ancs_row {
    char game[4];
    uint32_t id;
    char *label, *names;
    int64_t chars, anims, trans, animset_version, size;
    char key[33];              /* the graph's key (hex XXH3-128), "" when there is no DOT */
    int reused;                /* its drawing was taken from the earlier report */
    int has_svg;               /* its drawing (reused or drawn now) is at svg_off */
    uint64_t svg_off, svg_len; /* in r->svgs, as its page shows it */
} ancs_row;

/* queries/deps.sql: ?1 ANCS ID, ?2 character index (NULL: all) */
static int run_deps(report *r, db_rows *t, const char *sql, uint32_t ancs)
{
    db_bind b[2];
    memset(b, 0, sizeof b);
    b[0].type = DB_INT;
    b[0].i = ancs;
    return db_exec_rows(t, r->d, sql, 2, b, &r->err) ? -1 : 0;
}

/* ---- graphs ---------------------------------------------------------------------------------- */

static int add_ref_raw(report *r, const char *game, const char *type, uint32_t ancs_id,
                       int char_index, uint32_t id, const char *character, const char *name,
                       const char *via);

/* What a graph of one ANCS links to: each asset node linked gets a page (an asset that no
 * character reaches, such as a particle of an event set no character uses, is recorded with
 * char_index -1 so that its page is written too). */
typedef struct link_ctx {
    report *r;
    const ancs_row *a;
    int rc;
} link_ctx;

static const char *node_url(const graph_node *n, void *ctx)
{
    static _Thread_local char buf[160]; /* page writers draw lists at once */
    link_ctx *lc = ctx;
    if (!strcmp(n->kind, "char")) {
        snprintf(buf, sizeof buf, "#char-%" PRId64, n->sub);
        return buf;
    }
    if (!strcmp(n->kind, "anim") || !strcmp(n->kind, "evset") || !strcmp(n->kind, "sound") ||
        !strcmp(n->kind, "ANCS"))
        return NULL;
    if (n->id == 0 || n->id == 0xFFFFFFFFu) /* "none": no page */
        return NULL;
    if (!lc)
        return NULL;
    if (!lc->rc && add_ref_raw(lc->r, n->game, n->kind, lc->a->id, -1, n->id, "", n->name,
                               "referred to by the set, by no character (drawn in its graph)"))
        lc->rc = -1;
    char h[128];
    rep_asset_href(h, sizeof h, n->game, n->kind, n->id);
    snprintf(buf, sizeof buf, "../%s", h);
    return buf;
}

static int build_graph(report *r, graph *g, const ancs_row *a)
{
    graph_init(g);
    return graph_add_ancs(g, r->d, a->game, a->id, -1, &r->err);
}

/* Graphs one `dot` draws at most: starting a `dot` costs about 13 ms of CPU, more than
 * drawing the graph of one set (about 8), so each process draws a batch of them; batches are
 * smaller when there are few graphs, so that every slot gets several. */
#define DOT_BATCH 64

/* A `dot` drawing a batch: the batch's DOT texts, one after the other, are its standard input
 * and its SVGs, one after the other, its standard output, both temporary files of the slot
 * (made once, emptied for each batch: no file is made or removed per graph). */
typedef struct dot_slot {
    pid_t pid; /* 0: free */
    size_t idx[DOT_BATCH], count;
    size_t at[DOT_BATCH + 1]; /* graph k's DOT is text[at[k] .. at[k + 1]) */
    char *text;
    size_t cap;
    FILE *in, *out;
} dot_slot;

typedef struct dot_jobs {
    size_t n; /* slots (--jobs) */
    dot_slot *slot;
    int running;
    size_t done; /* graphs settled (drawn or reused) */
} dot_jobs;

/* Empty f for a new batch. */
static int truncated(FILE *f)
{
    return fflush(f) == 0 && ftruncate(fileno(f), 0) == 0 && lseek(fileno(f), 0, SEEK_SET) == 0;
}

/* Start `dot -Tsvg` on text[0..len): the slot's files made when missing, text written to its
 * input. The pid, or -1 when it cannot start (the graphs then go without a drawing). */
static pid_t run_dot(dot_slot *s, const char *text, size_t len)
{
    if ((!s->in && !(s->in = tmpfile())) || (!s->out && !(s->out = tmpfile())))
        return -1;
    if (!truncated(s->in) || !truncated(s->out) || fwrite(text, 1, len, s->in) != len ||
        fflush(s->in) != 0 || lseek(fileno(s->in), 0, SEEK_SET) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return -1;
    char *argv[] = {"dot", "-Tsvg", NULL};
    pid_t pid;
    int ok = posix_spawn_file_actions_adddup2(&fa, fileno(s->in), 0) == 0 &&
             posix_spawn_file_actions_adddup2(&fa, fileno(s->out), 1) == 0 &&
             posix_spawnp(&pid, "dot", &fa, NULL, argv, environ) == 0;
    posix_spawn_file_actions_destroy(&fa);
    return ok ? pid : -1;
}

static char *svg_for_page(char *buf);

/* The name each graph is drawn under (its DOT's graph name, the SVG's title). */
static void graph_name(char *buf, size_t size, const ancs_row *a)
{
    snprintf(buf, size, "ANCS %s %08" PRIX32, a->game, a->id);
}

/* The SVGs the slot's dot wrote, each given to the graph of the batch whose name its title
 * comment holds and kept in r->svgs as its page shows it. A graph dot left no SVG for keeps
 * none. -1 with r->err filled on a temporary file's error. */
static int take_svgs(report *r, ancs_row *as, dot_slot *s)
{
    struct stat sb;
    if (fflush(s->out) != 0 || fstat(fileno(s->out), &sb) != 0 || sb.st_size <= 0)
        return 0;
    size_t len = (size_t)sb.st_size;
    char *buf = malloc(len + 1);
    if (!buf)
        return util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    buf[rep_read_at(fileno(s->out), buf, len, 0)] = 0;
    int rc = 0;
    /* each document from its "<?xml" to the next; only a whole one (it ends its <svg>) is
     * taken, so that what a dot that failed half way wrote cannot pass for a drawing */
    static const char start[] = "<?xml", end_tag[] = "</svg>\n", title[] = "<!-- Title: ";
    for (char *doc = strstr(buf, start), *e; !rc && doc; doc = e) {
        e = strstr(doc + 1, start);
        char keep = e ? *e : 0;
        if (e)
            *e = 0;
        size_t dl = strlen(doc);
        char *t = dl >= sizeof end_tag - 1 && !strcmp(doc + dl - (sizeof end_tag - 1), end_tag)
                      ? strstr(doc, title)
                      : NULL;
        for (size_t k = 0; t && k < s->count; k++) {
            ancs_row *a = &as[s->idx[k]];
            char name[64];
            graph_name(name, sizeof name, a);
            size_t nl = strlen(name);
            if (a->has_svg || strncmp(t + sizeof title - 1, name, nl) ||
                strncmp(t + sizeof title - 1 + nl, " Pages: ", 8))
                continue;
            char *svg = svg_for_page(doc);
            size_t n = svg ? strlen(svg) : 0;
            if (!svg)
                break;
            if (!r->svgs && !(r->svgs = tmpfile()))
                rc = util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot create a temporary file: %s",
                               strerror(errno));
            else if (fwrite(svg, 1, n, r->svgs) != n)
                rc = util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot write a temporary file: %s",
                               strerror(errno));
            else {
                a->has_svg = 1;
                a->svg_off = r->svgs_len;
                a->svg_len = n;
                r->svgs_len += n;
            }
            break;
        }
        if (e)
            *e = keep;
    }
    free(buf);
    return rc;
}

/* Wait for one dot and take its SVGs; after a dot that failed, each graph of its batch left
 * without one gets a dot of its own (a graph dot cannot draw must not cost the others
 * theirs). 0, 1 when there is none to wait for, -1 with r->err filled. */
static int reap_one(report *r, ancs_row *as, dot_jobs *j, size_t total)
{
    int st;
    pid_t p;
    while ((p = waitpid(-1, &st, 0)) < 0 && errno == EINTR)
        ;
    if (p < 0) {
        j->running = 0;
        return 1;
    }
    int rc = 0;
    for (size_t k = 0; k < j->n; k++) {
        dot_slot *s = &j->slot[k];
        if (s->pid != p)
            continue;
        rc = take_svgs(r, as, s);
        for (size_t g = 0; !rc && (!WIFEXITED(st) || WEXITSTATUS(st) != 0) && g < s->count; g++) {
            if (as[s->idx[g]].has_svg)
                continue;
            pid_t alone = run_dot(s, s->text + s->at[g], s->at[g + 1] - s->at[g]);
            int st1;
            while (alone > 0 && waitpid(alone, &st1, 0) < 0 && errno == EINTR)
                ;
            if (alone > 0) {
                dot_slot one = *s;
                one.idx[0] = s->idx[g];
                one.count = 1;
                rc = take_svgs(r, as, &one);
            }
        }
        s->pid = 0;
        j->running--;
        j->done += s->count;
        rep_progress(r, "graphs", (long)j->done, (long)total);
    }
    return rc;
}

/* Start a dot on the batch (waiting for a free slot first): its DOT texts are text[0..len),
 * graph k's at at[k]. */
static int start_batch(report *r, ancs_row *as, dot_jobs *j, const size_t *idx, size_t count,
                       const char *text, const size_t *at, size_t total)
{
    int rc = 0;
    while (!rc && j->running >= (int)j->n)
        rc = reap_one(r, as, j, total);
    if (rc < 0)
        return -1;
    size_t k = 0;
    while (k < j->n && j->slot[k].pid)
        k++;
    if (k == j->n) /* cannot happen: reap_one frees a slot or says none runs */
        k = 0;
    dot_slot *s = &j->slot[k];
    if (at[count] > s->cap) {
        char *n = realloc(s->text, at[count]);
        if (!n)
            return util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        s->text = n;
        s->cap = at[count];
    }
    memcpy(s->text, text, at[count]);
    memcpy(s->at, at, (count + 1) * sizeof *at);
    memcpy(s->idx, idx, count * sizeof *idx);
    s->count = count;
    s->pid = run_dot(s, s->text, at[count]);
    if (s->pid > 0)
        j->running++;
    else
        s->pid = 0; /* no SVG: the pages fall back to the list */
    return 0;
}

/* A drawing as a page holds it: dot's SVG from "<svg" on, without the namespace declarations
 * (an inline <svg> in HTML needs neither), its group named as when drawn alone. The text is
 * changed in place; returns where it starts, NULL when it holds no "<svg". */
static char *svg_for_page(char *buf)
{
    char *s = strstr(buf, "<svg");
    if (!s)
        return NULL;
    static const char *const drop[] = {" xmlns=\"http://www.w3.org/2000/svg\"",
                                       " xmlns:xlink=\"http://www.w3.org/1999/xlink\""};
    for (size_t k = 0; k < 2; k++) {
        char *x = strstr(s, drop[k]);
        if (x)
            memmove(x, x + strlen(drop[k]), strlen(x + strlen(drop[k])) + 1);
    }
    /* a graph after the first that one dot draws has its group named "page0,N_graph0": the
     * same id as when it is drawn alone */
    char *g = strstr(s, "<g id=\"page");
    char *q = g ? strchr(g + 7, '"') : NULL;
    if (q && q - g > 17 && !strncmp(q - 7, "_graph0", 7) && !strncmp(q, "\" class=\"graph\"", 15)) {
        static const char id[] = "<g id=\"graph0";
        memcpy(g, id, sizeof id - 1);
        memmove(g + sizeof id - 1, q, strlen(q) + 1);
    }
    return s;
}

/* The whole of a regular file, NUL-ended (no link followed when at >= 0: name is opened
 * below it). NULL when missing, not a regular file, over max bytes or unreadable. */
static char *slurp(int at, const char *name, size_t max, size_t *len)
{
    int fd = at >= 0 ? openat(at, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
                     : open(name, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat sb;
    char *buf = NULL;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= 0 &&
        (uint64_t)sb.st_size <= max && (buf = malloc((size_t)sb.st_size + 1)) != NULL) {
        size_t got = 0;
        while (got < (size_t)sb.st_size) {
            ssize_t k = read(fd, buf + got, (size_t)sb.st_size - got);
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0)
                break;
            got += (size_t)k;
        }
        buf[got] = 0;
        *len = got;
    }
    close(fd);
    return buf;
}

/* The key of a graph: everything that decides its drawing (this code's way of drawing, dot's
 * version and the DOT text, which holds every label, name, link and attribute). */
static void graph_key(report *r, const char *dot, size_t len, char out[33])
{
    static const char how[] = "ancsdb report graph 1: dot -Tsvg, svg_for_page\n";
    XXH3_state_t *st = XXH3_createState();
    XXH128_hash_t h;
    if (!st) {
        out[0] = 0;
        return;
    }
    XXH3_128bits_reset(st);
    XXH3_128bits_update(st, how, sizeof how - 1);
    XXH3_128bits_update(st, r->dot_version, strlen(r->dot_version));
    XXH3_128bits_update(st, "\n", 1);
    XXH3_128bits_update(st, dot, len);
    h = XXH3_128bits_digest(st);
    XXH3_freeState(st);
    snprintf(out, 33, "%016" PRIx64 "%016" PRIx64, (uint64_t)h.high64, (uint64_t)h.low64);
}

#define GRAPH_DIV_OPEN "<div class=\"graph\" data-graph=\""

/* The earlier report's drawing of a's graph, when its page (DIR/ancs/GAME_ID.html, a regular
 * file reached without following a link) holds one under the same key: appended to r->svgs
 * and a->reused set. 0 (reused or not), -1 with r->err filled on a write error. */
static int reuse_drawing(report *r, int oldfd, ancs_row *a)
{
    if (oldfd < 0 || !a->key[0])
        return 0;
    char name[64];
    snprintf(name, sizeof name, "%s_%08" PRIX32 ".html", a->game, a->id);
    size_t len = 0;
    char *page = slurp(oldfd, name, (size_t)64 << 20, &len);
    if (!page)
        return 0;
    char open[128];
    snprintf(open, sizeof open, GRAPH_DIV_OPEN "%s\">", a->key);
    char *s = strstr(page, open);
    char *e = s ? strstr(s, "</div>") : NULL;
    int rc = 0;
    if (e && !strncmp(s + strlen(open), "<svg", 4) && e - 7 > s && !strncmp(e - 7, "</svg>\n", 7)) {
        s += strlen(open);
        if (!r->svgs && !(r->svgs = tmpfile())) {
            rc = util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot create a temporary file: %s",
                           strerror(errno));
        } else if (fwrite(s, 1, (size_t)(e - s), r->svgs) != (size_t)(e - s)) {
            rc = util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot write a temporary file: %s",
                           strerror(errno));
        } else {
            a->reused = a->has_svg = 1;
            a->svg_off = r->svgs_len;
            a->svg_len = (uint64_t)(e - s);
            r->svgs_len += a->svg_len;
        }
    }
    free(page);
    return rc;
}

/* Write each ANCS's DOT; a graph whose key the earlier report in DIR drew is taken from it,
 * the others are drawn by up to r->jobs `dot -Tsvg` at once, up to DOT_BATCH graphs each. A graph
 * dot cannot draw leaves no SVG: its page shows the nested list instead. */
static int render_graphs(report *r, ancs_row *as, size_t n)
{
    dot_jobs j = {.n = r->jobs > 0 ? (size_t)r->jobs : 1};
    j.slot = calloc(j.n, sizeof *j.slot);
    int rc = 0;
    if (!j.slot)
        rc = util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    /* the earlier report's ANCS pages (a folder, not a link) */
    int oldfd = r->dirfd >= 0
                    ? openat(r->dirfd, "ancs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                    : -1;
    /* the graphs since the last dot started: their DOT texts one after the other in btext,
     * graph k's at bat[k] */
    size_t batch[DOT_BATCH], bat[DOT_BATCH + 1] = {0}, nb = 0, bcap = 0;
    size_t per_batch = n / (4 * j.n);
    per_batch = per_batch < 1 ? 1 : per_batch > DOT_BATCH ? DOT_BATCH : per_batch;
    char *btext = NULL;
    for (size_t i = 0; i < n && !rc; i++) {
        graph g;
        if (build_graph(r, &g, &as[i])) {
            graph_free(&g);
            rc = -1;
            break;
        }
        char *text = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&text, &len);
        if (!m) {
            graph_free(&g);
            rc = util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            break;
        }
        char name[64];
        graph_name(name, sizeof name, &as[i]);
        link_ctx lc = {r, &as[i], 0};
        graph_write_dot(&g, m, name, node_url, &lc);
        graph_free(&g);
        if (fclose(m) != 0 || !text) {
            free(text);
            rc = util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            break;
        }
        if (lc.rc) {
            free(text);
            rc = -1;
            break;
        }
        graph_key(r, text, len, as[i].key);
        if (reuse_drawing(r, oldfd, &as[i])) {
            free(text);
            rc = -1;
            break;
        }
        if (as[i].reused) {
            free(text);
            r->reused++;
            j.done++;
        } else {
            if (bat[nb] + len > bcap) {
                size_t cap = (bat[nb] + len) * 2;
                char *nt = realloc(btext, cap);
                if (!nt) {
                    free(text);
                    rc = util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                    break;
                }
                btext = nt;
                bcap = cap;
            }
            memcpy(btext + bat[nb], text, len);
            free(text);
            batch[nb] = i;
            bat[nb + 1] = bat[nb] + len;
            nb++;
            r->drawn++;
        }
        if (nb == per_batch || (nb && i + 1 == n)) {
            rc = start_batch(r, as, &j, batch, nb, btext, bat, n);
            nb = 0;
        }
    }
    while (j.running > 0) {
        int rr = reap_one(r, as, &j, n);
        if (rr < 0 && !rc)
            rc = -1;
        if (rr > 0)
            break;
    }
    if (oldfd >= 0)
        close(oldfd);
    for (size_t k = 0; k < j.n && j.slot; k++) {
        free(j.slot[k].text);
        if (j.slot[k].in)
            fclose(j.slot[k].in);
        if (j.slot[k].out)
            fclose(j.slot[k].out);
    }
    free(btext);
    free(j.slot);
    if (!rc && r->svgs && fflush(r->svgs) != 0)
        rc = util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot write a temporary file: %s",
                       strerror(errno));
    if (!rc)
        rep_progress_done(r, "graphs", (long)n);
    return rc;
}

/* The drawing of a's graph as its page holds it (malloc'd, NUL-ended): taken from the earlier
 * report or drawn by dot in this run. NULL when there is none; *drawn says whether there is
 * one (which could then not be read). */
static char *page_svg(report *r, const ancs_row *a, int *drawn)
{
    *drawn = a->has_svg;
    if (!a->has_svg)
        return NULL;
    char *buf = malloc((size_t)a->svg_len + 1);
    if (buf && rep_read_at(fileno(r->svgs), buf, a->svg_len, a->svg_off) == a->svg_len) {
        buf[a->svg_len] = 0;
        return buf;
    }
    free(buf);
    return NULL;
}

/* The graph as nested lists (when Graphviz is not there): depth first from the ANCS, each node
 * expanded once. */
static void tree_list(FILE *f, const graph *g, int node, unsigned char *seen, int depth,
                      link_ctx *lc)
{
    char label[300], href[160];
    size_t kids = 0;
    for (size_t e = 0; e < g->nedges; e++)
        if (g->edges[e].from == node && g->nodes[g->edges[e].to].keep)
            kids++;
    if (!kids || depth > 12)
        return;
    fputs("<ul class=\"tree\">", f);
    for (size_t e = 0; e < g->nedges; e++) {
        const graph_edge *ed = &g->edges[e];
        if (ed->from != node || !g->nodes[ed->to].keep)
            continue;
        const graph_node *n = &g->nodes[ed->to];
        graph_node_label(n, label, sizeof label);
        const char *u = node_url(n, lc);
        fputs("<li>", f);
        if (ed->label) {
            fputs("<span class=\"muted\">", f);
            rep_esc(f, ed->label);
            fputs(":</span> ", f);
        }
        if (u) {
            snprintf(href, sizeof href, "%s", u);
            fputs("<a href=\"", f);
            rep_esc(f, href);
            fputs("\">", f);
        }
        rep_esc(f, label);
        if (u)
            fputs("</a>", f);
        if (seen[ed->to]) {
            fputs(" <span class=\"muted\">(above)</span>", f);
        } else {
            seen[ed->to] = 1;
            tree_list(f, g, ed->to, seen, depth + 1, lc);
        }
        fputs("</li>\n", f);
    }
    fputs("</ul>", f);
}

static int write_tree(report *r, FILE *f, const ancs_row *a)
{
    graph g;
    if (build_graph(r, &g, a)) {
        graph_free(&g);
        return -1;
    }
    graph_apply_cut(&g);
    link_ctx lc = {r, a, 0};
    unsigned char *seen = calloc(g.nnodes ? g.nnodes : 1, 1);
    if (!seen) {
        graph_free(&g);
        return util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    }
    for (size_t i = 0; i < g.nnodes; i++)
        if (!strcmp(g.nodes[i].kind, "ANCS") && g.nodes[i].keep) {
            seen[i] = 1;
            tree_list(f, &g, (int)i, seen, 0, &lc);
        }
    if (g.cut)
        fprintf(f,
                "<p class=\"note\">Cut at %d nodes: %zu more are not shown (the table "
                "below lists every asset).</p>\n",
                GRAPH_MAX_DRAWN, g.cut);
    free(seen);
    graph_free(&g);
    return lc.rc;
}

/* ---- pages -------------------------------------------------------------------------------------
 */

static void id_link(FILE *f, const char *game, const char *type, uint32_t id, const char *root)
{
    char h[128];
    if (id == 0 || id == 0xFFFFFFFFu) { /* "none": no asset, no page */
        fprintf(f, "<span class=\"id muted\">%08" PRIX32 "</span>", id);
        return;
    }
    rep_asset_href(h, sizeof h, game, type, id);
    fprintf(f, "<a class=\"id\" href=\"%s%s\">%08" PRIX32 "</a>", root, h, id);
}

static int add_ref_raw(report *r, const char *game, const char *type, uint32_t ancs_id,
                       int char_index, uint32_t id, const char *character, const char *name,
                       const char *via)
{
    if (r->nrefs == r->caprefs) {
        size_t cap = r->caprefs ? r->caprefs * 2 : 1024;
        rep_ref *n = realloc(r->refs, cap * sizeof *n);
        if (!n)
            return util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        r->refs = n;
        r->caprefs = cap;
    }
    if (!r->spill && !(r->spill = tmpfile()))
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX,
                         "cannot create a temporary file for the assets reached: %s",
                         strerror(errno));
    rep_ref *x = &r->refs[r->nrefs];
    memset(x, 0, sizeof *x);
    snprintf(x->game, sizeof x->game, "%s", game);
    snprintf(x->type, sizeof x->type, "%s", type ? type : "????");
    x->ancs_id = ancs_id;
    x->char_index = char_index;
    x->id = id;
    x->has_name = name != NULL;
    const char *t[3] = {character ? character : "", name ? name : "", via ? via : ""};
    size_t len = 0;
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(t[k]) + 1;
        if (fwrite(t[k], 1, n, r->spill) != n)
            return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot write a temporary file: %s",
                             strerror(errno));
        len += n;
    }
    x->off = r->spill_len;
    x->len = (uint32_t)len;
    r->spill_len += len;
    r->nrefs++;
    return 0;
}

static int add_ref(report *r, const char *game, const db_rows *d, size_t i)
{
    return add_ref_raw(r, game, db_rows_text(d, i, 5), (uint32_t)db_rows_int(d, i, 1),
                       (int)db_rows_int(d, i, 3), (uint32_t)db_rows_int(d, i, 6),
                       db_rows_text(d, i, 4), db_rows_text(d, i, 7), db_rows_text(d, i, 8));
}

static int ancs_page(report *r, const ancs_row *a, const char *deps_sql)
{
    char rel[128], title[160];
    rep_ancs_href(rel, sizeof rel, a->game, a->id);
    snprintf(title, sizeof title, "ANCS %s %08" PRIX32 "%s%s", a->game, a->id, a->label ? " " : "",
             a->label ? a->label : "");
    db_rows ch, dp;
    if (rep_rows(r, &ch, rep_sql_chars, a->game, a->id, NULL, -1))
        return -1;
    /* deps: game, ancs_id, ancs_id_name, char_index, character, dst_type, dst_id,
     * dst_id_name, via, paths (both games; this one's rows kept) */
    if (run_deps(r, &dp, deps_sql, a->id)) {
        db_rows_free(&ch);
        return -1;
    }
    FILE *f = rep_page_open(r, rel, "../", title);
    if (!f) {
        db_rows_free(&ch);
        db_rows_free(&dp);
        return -1;
    }
    int rc = 0;
    fputs("<p>", f);
    fprintf(f,
            "%s animated character set: %" PRId64 " character%s, %" PRId64 " animation%s, %" PRId64
            " transition%s; animation-set version %" PRId64 ", %" PRId64 " bytes. ",
            a->game, a->chars, a->chars == 1 ? "" : "s", a->anims, a->anims == 1 ? "" : "s",
            a->trans, a->trans == 1 ? "" : "s", a->animset_version, a->size);
    fprintf(f, "<code>ancsdb export --game %s ancs %08" PRIX32 "</code> prints all of it.</p>\n",
            a->game, a->id);
    fputs("<h2 id=\"characters\">Characters</h2>\n<div class=\"scroll\"><table><tr><th "
          "class=\"n\">#</th><th class=\"n\">ID</th><th>name</th><th class=\"n\">version</th>"
          "<th>model</th><th>skin</th><th>skeleton</th><th class=\"n\">animations</th><th "
          "class=\"n\">particle refs</th></tr>\n",
          f);
    for (size_t i = 0; i < ch.nrows; i++) {
        fprintf(f,
                "<tr id=\"char-%" PRId64 "\"><td class=\"n\">%" PRId64
                "</td><td class=\"n\">%" PRId64 "</td><td>",
                db_rows_int(&ch, i, 0), db_rows_int(&ch, i, 0), db_rows_int(&ch, i, 1));
        rep_esc(f, db_rows_text(&ch, i, 2));
        fprintf(f, "</td><td class=\"n\">%" PRId64 "</td>", db_rows_int(&ch, i, 3));
        static const char *const types[] = {"CMDL", "CSKR", "CINF"};
        for (int k = 0; k < 3; k++) {
            fputs("<td>", f);
            if (db_rows_at(&ch, i, 4 + k)->type == DB_INT)
                id_link(f, a->game, types[k], (uint32_t)db_rows_int(&ch, i, 4 + k), "../");
            fputs("</td>", f);
        }
        fprintf(f, "<td class=\"n\">%" PRId64 "</td><td class=\"n\">%" PRId64 "</td></tr>\n",
                db_rows_int(&ch, i, 7), db_rows_int(&ch, i, 8));
        char anchor[160];
        snprintf(anchor, sizeof anchor, "%s#char-%" PRId64, rel, db_rows_int(&ch, i, 0));
        if (db_rows_text(&ch, i, 2) &&
            rep_find_add(r, "character", a->game, a->id, db_rows_text(&ch, i, 2), anchor) != 0)
            rc = util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    }
    fputs("</table></div>\n", f);

    fputs("<h2 id=\"graph\">Dependency graph</h2>\n", f);
    int drawn = 0;
    char *svg = r->have_dot ? page_svg(r, a, &drawn) : NULL;
    if (drawn) {
        if (svg && a->key[0]) {
            fprintf(f, GRAPH_DIV_OPEN "%s\">", a->key);
            fputs(svg, f);
        } else {
            fputs("<div class=\"graph\">", f);
            fputs(svg ? svg : "<p class=\"muted\">(the drawing could not be read)</p>", f);
        }
        fputs("</div>\n", f);
        fputs("<p class=\"muted\">Drawn by Graphviz: characters (ovals), the assets they reach "
              "(boxes, linked to their pages), animations, ANIMs, EVNTs and the particles and "
              "sounds of their events.</p>\n",
              f);
    } else {
        if (!r->have_dot)
            fputs("<p class=\"muted\">Graphviz was not found when this report was made (apt-get "
                  "install graphviz), so the graph is shown as a nested list.</p>\n",
                  f);
        if (!rc)
            rc = write_tree(r, f, a);
    }
    free(svg);

    fputs("<h2 id=\"reach\">Everything each character reaches</h2>\n", f);
    int64_t cur = -1;
    for (size_t i = 0; !rc && i < dp.nrows; i++) {
        if (!db_rows_text(&dp, i, 0) || strcmp(db_rows_text(&dp, i, 0), a->game))
            continue;
        if (db_rows_int(&dp, i, 3) != cur) {
            if (cur >= 0)
                fputs("</table></div>\n", f);
            cur = db_rows_int(&dp, i, 3);
            fprintf(f, "<h3>character %" PRId64 " ", cur);
            rep_esc(f, db_rows_text(&dp, i, 4));
            fputs("</h3>\n<div class=\"scroll\"><table><tr><th>type</th><th>ID</th><th>name</th>"
                  "<th>reached through</th></tr>\n",
                  f);
        }
        const char *type = db_rows_text(&dp, i, 5) ? db_rows_text(&dp, i, 5) : "????";
        fputs("<tr><td>", f);
        rep_esc(f, type);
        fputs("</td><td>", f);
        id_link(f, a->game, type, (uint32_t)db_rows_int(&dp, i, 6), "../");
        fputs("</td><td>", f);
        rep_esc(f, db_rows_text(&dp, i, 7));
        fputs("</td><td>", f);
        rep_esc(f, db_rows_text(&dp, i, 8));
        fputs("</td></tr>\n", f);
        rc = add_ref(r, a->game, &dp, i);
    }
    if (cur >= 0)
        fputs("</table></div>\n", f);
    else
        fputs("<p class=\"muted\">No character of this set reaches another asset.</p>\n", f);
    if (!rc)
        rc = rep_loaded_in(r, f, a->game, "ANCS", a->id, "../");
    db_rows_free(&ch);
    db_rows_free(&dp);
    if (rep_page_close(r, f, "../"))
        return -1;
    if (!rc)
        rc = rep_find_add(r, "ANCS", a->game, a->id, a->label, rel) ? -1 : 0;
    return rc;
}

static int load_ancs(report *r, ancs_row **out, size_t *n)
{
    db_rows t;
    *out = NULL;
    *n = 0;
    if (rep_rows(r, &t, rep_sql_all_ancs, NULL, 0, NULL, -1))
        return -1;
    ancs_row *as = calloc(t.nrows ? t.nrows : 1, sizeof *as);
    if (!as) {
        db_rows_free(&t);
        return util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    }
    for (size_t i = 0; i < t.nrows; i++) {
        snprintf(as[i].game, sizeof as[i].game, "%s",
                 db_rows_text(&t, i, 0) ? db_rows_text(&t, i, 0) : "?");
        as[i].id = (uint32_t)db_rows_int(&t, i, 1);
        as[i].label = db_rows_text(&t, i, 2) ? strdup(db_rows_text(&t, i, 2)) : NULL;
        as[i].chars = db_rows_int(&t, i, 3);
        as[i].anims = db_rows_int(&t, i, 4);
        as[i].trans = db_rows_int(&t, i, 5);
        as[i].animset_version = db_rows_int(&t, i, 6);
        as[i].size = db_rows_int(&t, i, 8);
    }
    *out = as;
    *n = t.nrows;
    db_rows_free(&t);
    return 0;
}

typedef struct ancs_pages_ctx {
    const ancs_row *as;
    const char *deps_sql;
} ancs_pages_ctx;

static int ancs_page_at(report *r, void *ctx, size_t i)
{
    const ancs_pages_ctx *c = ctx;
    return ancs_page(r, &c->as[i], c->deps_sql);
}

int rep_write_ancs_pages(report *r)
{
    const char *deps_sql = cli_query_lookup(ancsdb_embedded_queries, "deps");
    if (!deps_sql)
        return util_fail(&r->err, UTIL_EFORMAT, UINT64_MAX, "no deps query in this build");
    ancs_row *as;
    size_t n;
    if (load_ancs(r, &as, &n))
        return -1;
    int rc = 0;
    if (r->have_dot)
        rc = render_graphs(r, as, n);
    ancs_pages_ctx c = {as, deps_sql};
    if (!rc)
        rc = rep_pages(r, "ANCS pages", n, ancs_page_at, &c);
    for (size_t i = 0; i < n; i++)
        free(as[i].label);
    free(as);
    return rc;
}
