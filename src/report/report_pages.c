/* report_pages.c — pages written by several threads at once (see report.h): the pages of a
 * kind are cut into as many runs of consecutive pages as there are writers; each writer has a
 * database connection, search entries and reached assets of its own, and what each gathered
 * is appended to the report's in the order of the runs, so the report is the same file for
 * file as one writer makes. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "report.h"

void rep_free(report *r)
{
    free(r->refs);
    free(r->text);
    if (r->spill)
        fclose(r->spill);
    if (r->finds)
        fclose(r->finds);
    if (r->svgs)
        fclose(r->svgs);
    r->svgs = NULL;
    r->refs = NULL;
    r->text = NULL;
    r->spill = r->finds = NULL;
}

/* Fewer pages than this per writer are not worth a thread and a connection. Tests set
 * ANCSDB_TEST_PAGES_PER_WRITER lower, so that their small corpora are cut into runs too. */
#define PAGES_PER_WRITER 128
/* Writers at most, whatever --jobs says: past the cores, more only wait on each other. */
#define WRITERS_MAX 16

typedef struct writer {
    report r; /* the writer's own report (r.root: the report it works for) */
    size_t from, to;
    int (*page)(report *, void *, size_t);
    void *ctx;
    int rc;
} writer;

/* A report for a writer thread: the folders, drawings and reached assets (read-only) of r,
 * everything it writes to its own; its connection opened. -1 with w->r.err filled. */
static int writer_init(writer *w, const report *r)
{
    report *c = &w->r;
    *c = *r;
    c->root = r;
    c->d = NULL;
    c->refs = NULL;
    c->nrefs = c->caprefs = 0;
    c->spill = NULL;
    c->spill_len = 0;
    c->text = NULL;
    c->text_cap = 0;
    c->finds = NULL;
    c->nfinds = 0;
    c->pages = c->bytes = 0;
    c->progress = 0;
    c->subfd = c->oldsubfd = -1;
    memset(c->open, 0, sizeof c->open);
    util_err_clear(&c->err);
    return db_open(&c->d, r->dbpath, DB_OPEN_READONLY, &c->err) ? -1 : 0;
}

static void writer_free(writer *w)
{
    report *c = &w->r;
    c->svgs = NULL; /* the report's, not the writer's */
    rep_free(c);
    if (c->subfd >= 0)
        close(c->subfd);
    if (c->oldsubfd >= 0)
        close(c->oldsubfd);
    db_close(c->d);
}

static void *writer_run(void *arg)
{
    writer *w = arg;
    for (size_t i = w->from; i < w->to && !w->rc; i++)
        w->rc = w->page(&w->r, w->ctx, i);
    return NULL;
}

/* Append the len bytes of from (a temporary file) to to, which is made when NULL. */
static int append_file(report *r, FILE **to, FILE *from, uint64_t len, const char *lead)
{
    if (!*to && !(*to = tmpfile()))
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot create a temporary file: %s",
                         strerror(errno));
    if (fflush(from) != 0 || (lead && fputs(lead, *to) == EOF))
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot write a temporary file: %s",
                         strerror(errno));
    char buf[65536];
    for (uint64_t off = 0; off < len;) {
        size_t want = len - off < sizeof buf ? (size_t)(len - off) : sizeof buf;
        if (rep_read_at(fileno(from), buf, want, off) != want)
            return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot read a temporary file: %s",
                             errno ? strerror(errno) : "short read");
        if (fwrite(buf, 1, want, *to) != want)
            return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot write a temporary file: %s",
                             strerror(errno));
        off += want;
    }
    return 0;
}

/* What writer w gathered, after what r has: pages and bytes counted, search entries and
 * reached assets appended (the assets' texts after r's, their offsets moved to match). */
static int writer_merge(report *r, writer *w)
{
    report *c = &w->r;
    r->pages += c->pages;
    r->bytes += c->bytes;
    if (c->nfinds) {
        long end = c->finds ? ftell(c->finds) : -1;
        if (end < 0 || append_file(r, &r->finds, c->finds, (uint64_t)end, r->nfinds ? ",\n" : NULL))
            return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot gather the search index: %s",
                             strerror(errno ? errno : EIO));
        r->nfinds += c->nfinds;
    }
    if (c->nrefs) {
        if (r->nrefs + c->nrefs > r->caprefs) {
            size_t cap = r->nrefs + c->nrefs;
            rep_ref *n = realloc(r->refs, cap * sizeof *n);
            if (!n)
                return util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            r->refs = n;
            r->caprefs = cap;
        }
        if (append_file(r, &r->spill, c->spill, c->spill_len, NULL))
            return -1;
        for (size_t i = 0; i < c->nrefs; i++) {
            r->refs[r->nrefs + i] = c->refs[i];
            r->refs[r->nrefs + i].off += r->spill_len;
        }
        r->nrefs += c->nrefs;
        r->spill_len += c->spill_len;
    }
    return 0;
}

int rep_pages(report *r, const char *what, size_t n, int (*page)(report *, void *, size_t),
              void *ctx)
{
    size_t k = r->jobs > 0 ? (size_t)r->jobs : 1;
    if (k > WRITERS_MAX)
        k = WRITERS_MAX;
    const char *hook = getenv("ANCSDB_TEST_PAGES_PER_WRITER");
    long per = hook && atol(hook) > 0 ? atol(hook) : PAGES_PER_WRITER;
    if (k > n / (size_t)per)
        k = n / (size_t)per;
    if (!r->dbpath || r->root)
        k = 1;
    writer *ws = k > 1 ? calloc(k - 1, sizeof *ws) : NULL;
    pthread_t *ts = k > 1 ? calloc(k - 1, sizeof *ts) : NULL;
    if (!ws || !ts)
        k = 1;
    /* run t is pages [n * t / k, n * (t + 1) / k): run 0 this thread's, the others a writer's */
    size_t started = 0;
    for (size_t t = 1; t < k; t++) {
        writer *w = &ws[t - 1];
        w->from = n * t / k;
        w->to = n * (t + 1) / k;
        w->page = page;
        w->ctx = ctx;
        if (writer_init(w, r) || pthread_create(&ts[t - 1], NULL, writer_run, w) != 0) {
            writer_free(w);
            break;
        }
        started++;
    }
    int rc = 0;
    for (size_t i = 0; i < (k > 1 ? n / k : n) && !rc; i++) {
        rc = page(r, ctx, i);
        rep_progress(r, what, (long)((i + 1) * (started + 1)), (long)n);
    }
    for (size_t t = 0; t < started; t++) {
        pthread_join(ts[t], NULL);
        if (!rc && ws[t].rc) {
            r->err = ws[t].r.err;
            rc = -1;
        }
        if (!rc)
            rc = writer_merge(r, &ws[t]);
        writer_free(&ws[t]);
    }
    /* the runs no writer took (a thread or a connection refused): here, in their order */
    for (size_t i = k > 1 ? n * (started + 1) / k : n; i < n && !rc; i++) {
        rc = page(r, ctx, i);
        rep_progress(r, what, (long)i + 1, (long)n);
    }
    free(ws);
    free(ts);
    if (!rc)
        rep_progress_done(r, what, (long)n);
    return rc;
}
