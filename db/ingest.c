/* ingest.c — the ingest loop: find PAKs, skip unchanged ones, replace each changed PAK's
 * rows in one transaction, decode every distinct ANCS/EVNT once (first copy canonical),
 * compare other copies by hash, record faults in load_errors and keep going.
 *
 * Derived rows (ancs, characters, events, asset_refs, ...) are keyed by (game, asset_id),
 * not by PAK; the `decoded` table remembers which PAK's copy produced them. Replacing a
 * PAK deletes the derived rows of the assets decoded from it; a final pass decodes every
 * ANCS/EVNT still held by some PAK but without rows, and rebuilds `assets`.
 *
 * Reading: a PAK is not mapped; only the bytes the ingest needs are read (pakbuf below), so
 * opaque resources cost neither time nor memory, and an unchanged PAK costs a stat and one
 * read of its tables.
 *
 * Threads: with --jobs N > 1, N worker threads inflate, hash and decode the ANCS/EVNT
 * entries of the current PAK (no SQLite) into a ring of job slots while this thread, the
 * only writer, writes the PAK's table rows and then consumes the jobs in entry order. A
 * worker's decode is a guess made when the job is handed out; the writer checks `decoded`
 * itself and decodes on its own thread when the guess was wrong, so the rows are those of
 * --jobs 1, where the writer runs every job itself.
 *
 * Bulk load: into a database holding no PAK yet, the whole run is one transaction (each
 * PAK a savepoint) and the non-unique secondary indexes are dropped at its start and built
 * again at its end, which is cheaper than keeping them up to date row by row. */
#define _XOPEN_SOURCE 700 /* realpath, pread */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"

/* from db.c */
sqlite3 *db_priv_handle(db *d);
sqlite3_stmt *db_priv_stmt(db *d, int which);
long db_priv_warnings(db *d);
int db_priv_put(db *d, int sid, util_err *err, const char *fmt, ...);
int db_priv_sql_fail(db *d, util_err *err, const char *what);
int db_priv_warn(db *d, const char *game, const char *type, int64_t asset_id, int64_t offset,
                 const char *code, const char *msg, int64_t pak_id, util_err *err);
/* Statement indexes of db.c's STMTS list used here (kept in the same order). */
enum {
    S_PAK_GET = 0,
    S_PAK_INS,
    S_ENTRY_INS,
    S_NAME_INS,
    S_WARN_INS,
    S_ERR_INS,
    S_DECODED_GET,
    S_DECODED_INS,
    S_ENTRY_HASH
};

#define FOURCC_ANCS 0x414E4353u
#define FOURCC_EVNT 0x45564E54u

/* ---- reading a PAK ------------------------------------------------------------------- */

/* A PAK file read with pread(), never mapped: only the bytes the ingest needs are read —
 * the tables, every entry's first 8 bytes (compressed: size prefix and codec sniff) or last
 * 32 (stored: 0xFF padding), in bounded chunks into one small buffer, and each ANCS/EVNT
 * payload into its own buffer when its job runs. Memory follows the tables and the
 * payloads in flight, not the file size. db_ingest_mem reads the caller's bytes instead
 * (fd < 0, mem set). Workers pread the same descriptor concurrently. */
typedef struct pakbuf {
    int fd;
    const uint8_t *mem; /* db_ingest_mem: the whole PAK, borrowed */
    size_t size;
    const char *path; /* borrowed: for messages */
} pakbuf;

#define PAKBUF_HEAD  (64u << 10) /* first read of a file's head: tables of most PAKs */
#define PAKBUF_GAP   4096u       /* read across gaps up to this size rather than seek */
#define PAKBUF_CHUNK (1u << 20)  /* most bytes read at once for entry heads and tails */

static void pakbuf_close(pakbuf *b)
{
    if (b->fd >= 0)
        close(b->fd);
    b->fd = -1;
}

/* Open path (errors worded like pak_open's: the same helper). */
static int pakbuf_open(pakbuf *b, const char *path, util_err *err)
{
    memset(b, 0, sizeof *b);
    b->path = path;
    b->fd = -1;
    return util_open_regular(path, &b->fd, &b->size, err);
}

/* The caller's bytes as a pakbuf (db_ingest_mem). */
static void pakbuf_mem(pakbuf *b, const uint8_t *data, size_t len, const char *path)
{
    memset(b, 0, sizeof *b);
    b->fd = -1;
    b->mem = data;
    b->size = len;
    b->path = path;
}

/* Read bytes [off, off + len) of the file into dst. */
static int pakbuf_read(const pakbuf *b, uint8_t *dst, uint64_t off, size_t len, util_err *err)
{
    if (off > b->size || len > b->size - off)
        return util_fail(err, UTIL_EIO, off, "%s: file shrank while being read", b->path);
    if (b->fd < 0) {
        if (len)
            memcpy(dst, b->mem + off, len);
        return 0;
    }
    while (len) {
        ssize_t n = pread(b->fd, dst, len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return util_fail(err, UTIL_EIO, off, "cannot read %s: %s", b->path, strerror(errno));
        if (n == 0)
            return util_fail(err, UTIL_EIO, off, "%s: file shrank while being read", b->path);
        off += (uint64_t)n;
        dst += n;
        len -= (size_t)n;
    }
    return 0;
}

/* FNV-1a of every byte of the file (--rehash), read in 1 MiB pieces. */
static int pakbuf_hash_all(const pakbuf *b, uint64_t *out, util_err *err)
{
    if (b->fd < 0) {
        *out = util_fnv1a(UTIL_FNV_INIT, b->mem, b->size);
        return 0;
    }
    size_t cap = PAKBUF_CHUNK;
    uint8_t *tmp = malloc(cap);
    if (!tmp)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    uint64_t h = UTIL_FNV_INIT, off = 0;
    int rc = 0;
    while (off < b->size && !rc) {
        size_t want = b->size - off < cap ? (size_t)(b->size - off) : cap;
        rc = pakbuf_read(b, tmp, off, want, err);
        h = util_fnv1a(h, tmp, want);
        off += want;
    }
    free(tmp);
    *out = h;
    return rc;
}

/* Parse the tables: read a head of the file and grow it while pak_open_tables asks for
 * more. The errors are those pak_open gives on the whole file. */
static int pakbuf_tables(pak_file **out, const pakbuf *b, util_err *err)
{
    *out = NULL;
    if (b->fd < 0) {
        uint64_t need;
        return pak_open_tables(out, b->mem, b->size, b->size, &need, err);
    }
    size_t have = 0, want = b->size < PAKBUF_HEAD ? b->size : PAKBUF_HEAD;
    uint8_t *head = NULL;
    int rc;
    for (;;) {
        if (want > have) {
            uint8_t *nh = realloc(head, want);
            if (!nh) {
                rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                break;
            }
            head = nh;
            if ((rc = pakbuf_read(b, head + have, have, want - have, err)) != 0)
                break;
            have = want;
        }
        uint64_t need = 0;
        rc = pak_open_tables(out, head ? head : (const uint8_t *)"", have, b->size, &need, err);
        if (rc == 0 || need == 0)
            break;
        uint64_t next = need > (uint64_t)have * 2 ? need : (uint64_t)have * 2;
        next = (next + PAKBUF_HEAD - 1) / PAKBUF_HEAD * PAKBUF_HEAD;
        want = next < b->size ? (size_t)next : b->size;
    }
    free(head);
    return rc;
}

/* Byte range [lo, hi) of one entry's head or tail. */
typedef struct range {
    uint64_t lo, hi;
    uint32_t entry;
} range;

static int cmp_range(const void *a, const void *b)
{
    const range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* After pakbuf_tables: read every entry's head (compressed) or tail (stored) in chunks of
 * at most PAKBUF_CHUNK bytes and fill decompressed_size and *codecs_out (entry i's
 * pak_codec; owned: caller free()s). */
static int pakbuf_entries(pak_file *p, const pakbuf *b, uint8_t **codecs_out, util_err *err)
{
    int rc = 0;
    range *r = NULL;
    uint8_t *chunk = NULL;
    uint8_t *codecs = calloc(p->entry_count ? p->entry_count : 1, 1);
    *codecs_out = NULL;
    if (!codecs)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    size_t n = 0;
    if (p->entry_count && !(r = malloc((size_t)p->entry_count * sizeof *r))) {
        rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < p->entry_count; i++) {
        pak_entry *e = &p->entries[i];
        if (!e->in_bounds || e->size == 0) {
            pak_entry_sizes(e, NULL, 0, NULL, 0);
            continue;
        }
        uint64_t lo = e->offset, hi = (uint64_t)e->offset + e->size;
        if (e->compressed)
            hi = lo + (e->size < 8 ? e->size : 8);
        else
            lo = hi - (e->size < PAK_ALIGN ? e->size : PAK_ALIGN);
        r[n].lo = lo;
        r[n].hi = hi;
        r[n].entry = i;
        n++;
    }
    if (n == 0)
        goto done;
    qsort(r, n, sizeof *r, cmp_range);
    if (b->fd >= 0 && !(chunk = malloc(PAKBUF_CHUNK))) {
        rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n && !rc;) {
        uint64_t lo = r[i].lo, hi = r[i].hi;
        size_t j = i + 1;
        for (; j < n && r[j].lo <= hi + PAKBUF_GAP; j++) {
            uint64_t h = r[j].hi > hi ? r[j].hi : hi;
            if (h - lo > PAKBUF_CHUNK)
                break;
            hi = h;
        }
        const uint8_t *base = b->mem ? b->mem + lo : chunk;
        if (b->fd >= 0 && (rc = pakbuf_read(b, chunk, lo, (size_t)(hi - lo), err)) != 0)
            break;
        for (; i < j; i++) {
            pak_entry *e = &p->entries[r[i].entry];
            const uint8_t *q = base + (r[i].lo - lo);
            size_t len = (size_t)(r[i].hi - r[i].lo);
            if (e->compressed) {
                pak_entry_sizes(e, q, len, NULL, 0);
                codecs[r[i].entry] = (uint8_t)pak_entry_codec(e, q, len);
            } else {
                pak_entry_sizes(e, NULL, 0, q, len);
            }
        }
    }
done:
    free(r);
    free(chunk);
    if (rc == 0)
        *codecs_out = codecs;
    else
        free(codecs);
    return rc;
}

/* The stored bytes of entry e, read into a new buffer (owned: caller free()s). */
static int pakbuf_stored(const pakbuf *b, const pak_entry *e, uint8_t **out, util_err *err)
{
    *out = malloc(e->size ? e->size : 1);
    if (!*out)
        return util_fail(err, UTIL_ENOMEM, e->offset, "out of memory for %" PRIu32 " bytes",
                         e->size);
    int rc = pakbuf_read(b, *out, e->offset, e->size, err);
    if (rc) {
        free(*out);
        *out = NULL;
    }
    return rc;
}

/* pak_detect_game's last signal: the first readable ANCS among the first 4 in bounds. */
static pak_game game_from_ancs(const pak_file *p, const pakbuf *b)
{
    int tried = 0;
    for (uint32_t i = 0; i < p->entry_count && tried < 4; i++) {
        const pak_entry *e = &p->entries[i];
        if (e->type != FOURCC_ANCS || !e->in_bounds)
            continue;
        tried++;
        uint8_t *stored = NULL, *buf = NULL;
        size_t n = 0;
        if (pakbuf_stored(b, e, &stored, NULL) != 0)
            continue;
        int rc = e->compressed ? pak_inflate_bytes(&buf, &n, stored, e->size, 1, PAK_MAX_INFLATE,
                                                   e->offset, NULL)
                               : 0;
        pak_game g = PAK_GAME_UNKNOWN;
        if (rc == 0)
            g = (pak_game)(e->compressed ? ancs_guess_game(buf, n)
                                         : ancs_guess_game(stored, e->size));
        free(buf);
        free(stored);
        if (g != PAK_GAME_UNKNOWN)
            return g;
    }
    return PAK_GAME_UNKNOWN;
}

/* ---- decode jobs (worker side: no SQLite) ---------------------------------------------- */

/* One ANCS/EVNT entry on its way from the PAK to the writer. The writer sets the inputs
 * before a worker may claim the job, and reads the results once `done` is set. */
typedef struct job {
    const pak_file *p;
    const pakbuf *b;
    uint32_t entry;
    ancs_game game;
    int want_decode; /* guess: decode now (the writer decodes itself when it guessed wrong) */
    int done;
    int inflated; /* 0: entry out of bounds or inflate failed (e says why) */
    uint8_t *buf;
    size_t len;
    size_t hlen; /* len without trailing 0xFF padding */
    uint64_t hash;
    int decoded; /* decode attempted; dec_rc its result */
    int dec_rc;
    util_err e;
    util_arena arena;
    ancs_set set;
    ancs_evnt_file ev;
} job;

static void job_decode(job *j)
{
    const pak_entry *e = &j->p->entries[j->entry];
    if (e->type == FOURCC_ANCS)
        j->dec_rc = ancs_decode(&j->set, j->buf, j->len, j->game, &j->arena, &j->e);
    else
        j->dec_rc = ancs_evnt_decode(&j->ev, j->buf, j->len, j->game, &j->arena, &j->e);
    j->decoded = 1;
}

/* Inflate and hash the entry; decode it when asked to. */
static void job_run(job *j)
{
    const pak_entry *e = &j->p->entries[j->entry];
    util_err_clear(&j->e);
    if (!e->in_bounds)
        return;
    /* what pak_inflate does, from bytes read now */
    uint8_t *stored = NULL;
    if (pakbuf_stored(j->b, e, &stored, &j->e) != 0)
        return;
    if (e->compressed) {
        int rc = pak_inflate_bytes(&j->buf, &j->len, stored, e->size, 1, PAK_MAX_INFLATE, e->offset,
                                   &j->e);
        free(stored);
        if (rc != 0)
            return;
    } else {
        j->buf = stored;
        j->len = e->size;
    }
    j->inflated = 1;
    /* Stored copies keep their 0xFF padding and compressed ones do not: compare copies
     * without trailing 0xFF bytes. */
    size_t hlen = j->len;
    while (hlen > 0 && j->buf[hlen - 1] == 0xFF)
        hlen--;
    j->hlen = hlen;
    j->hash = util_fnv1a(UTIL_FNV_INIT, j->buf, hlen);
    if (j->want_decode)
        job_decode(j);
}

static void job_set(job *j, const pak_file *p, const pakbuf *b, uint32_t entry, ancs_game game,
                    int want)
{
    j->p = p;
    j->b = b;
    j->entry = entry;
    j->game = game;
    j->want_decode = want;
}

/* Free the results; the slot is ready for the next job. */
static void job_clear(job *j)
{
    free(j->buf);
    util_arena_free(&j->arena);
    j->buf = NULL;
    j->len = j->hlen = 0;
    j->done = j->inflated = j->decoded = j->dec_rc = 0;
}

/* Worker threads and the ring of job slots. Jobs carry a sequence number that keeps
 * growing across PAKs; job k lives in ring[k % cap]. Workers claim jobs with
 * claim <= k < limit; the writer raises limit as it consumes. */
typedef struct pipeline {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    pthread_t *threads;
    int nthreads; /* 0: the writer runs every job itself (--jobs 1) */
    int quit;
    job *ring;
    size_t cap;
    size_t claim, limit;
} pipeline;

static void *worker_main(void *arg)
{
    pipeline *pl = arg;
    pthread_mutex_lock(&pl->mu);
    for (;;) {
        while (!pl->quit && pl->claim >= pl->limit)
            pthread_cond_wait(&pl->work, &pl->mu);
        if (pl->quit)
            break;
        job *j = &pl->ring[pl->claim++ % pl->cap];
        pthread_mutex_unlock(&pl->mu);
        job_run(j);
        pthread_mutex_lock(&pl->mu);
        j->done = 1;
        pthread_cond_broadcast(&pl->done);
    }
    pthread_mutex_unlock(&pl->mu);
    return NULL;
}

/* Start `jobs` worker threads when jobs > 1 (fewer when threads cannot be made; with none
 * the writer does the work). */
static int pipeline_start(pipeline *pl, int jobs, util_err *err)
{
    memset(pl, 0, sizeof *pl);
    if (jobs < 1)
        jobs = 1;
    pl->cap = jobs > 1 ? (size_t)jobs * 4 : 1;
    pl->ring = calloc(pl->cap, sizeof *pl->ring);
    if (!pl->ring)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    for (size_t i = 0; i < pl->cap; i++)
        util_arena_init(&pl->ring[i].arena);
    pthread_mutex_init(&pl->mu, NULL);
    pthread_cond_init(&pl->work, NULL);
    pthread_cond_init(&pl->done, NULL);
    if (jobs > 1) {
        pl->threads = calloc((size_t)jobs, sizeof *pl->threads);
        if (!pl->threads)
            return 0; /* run the jobs on the writer */
        for (int i = 0; i < jobs; i++) {
            if (pthread_create(&pl->threads[i], NULL, worker_main, pl) != 0)
                break;
            pl->nthreads++;
        }
    }
    return 0;
}

static void pipeline_stop(pipeline *pl)
{
    if (!pl->ring)
        return;
    pthread_mutex_lock(&pl->mu);
    pl->quit = 1;
    pthread_cond_broadcast(&pl->work);
    pthread_mutex_unlock(&pl->mu);
    for (int i = 0; i < pl->nthreads; i++)
        pthread_join(pl->threads[i], NULL);
    for (size_t i = 0; i < pl->cap; i++)
        job_clear(&pl->ring[i]);
    free(pl->threads);
    free(pl->ring);
    pthread_mutex_destroy(&pl->mu);
    pthread_cond_destroy(&pl->work);
    pthread_cond_destroy(&pl->done);
    memset(pl, 0, sizeof *pl);
}

static void pipeline_wait(pipeline *pl, job *j)
{
    pthread_mutex_lock(&pl->mu);
    while (!j->done)
        pthread_cond_wait(&pl->done, &pl->mu);
    pthread_mutex_unlock(&pl->mu);
}

/* Let workers claim jobs up to sequence number limit (exclusive). */
static void pipeline_release(pipeline *pl, size_t limit)
{
    pthread_mutex_lock(&pl->mu);
    pl->limit = limit;
    pthread_cond_broadcast(&pl->work);
    pthread_mutex_unlock(&pl->mu);
}

/* Take back the jobs no worker has claimed and wait for the claimed ones not yet consumed
 * (sequence numbers from `from` on), clearing them: nothing refers to the PAK afterwards. */
static void pipeline_drain(pipeline *pl, size_t from)
{
    pthread_mutex_lock(&pl->mu);
    pl->limit = pl->claim;
    size_t end = pl->claim;
    pthread_mutex_unlock(&pl->mu);
    for (size_t k = from; k < end; k++) {
        job *j = &pl->ring[k % pl->cap];
        pipeline_wait(pl, j);
        job_clear(j);
    }
}

typedef struct devino {
    dev_t dev;
    ino_t ino;
} devino;

typedef struct ing {
    db *d;
    sqlite3 *h;
    const db_ingest_opts *o;
    db_ingest_stats *st;
    util_err *err;
    devino *seen; /* visited directories and files */
    size_t nseen, capseen;
    char **files;
    size_t nfiles, capfiles;
    int changed;
    int bulk;       /* one transaction for the run, each PAK a savepoint */
    uint64_t chash; /* --rehash: FNV-1a of every byte of the current PAK */
    pipeline pl;
    sqlite3_stmt *entry_batch; /* put_entries */
    const uint8_t *mem_data;   /* db_ingest_mem: the one PAK's bytes, used instead of its path */
    size_t mem_len;
} ing;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int seen_add(ing *g, const struct stat *sb)
{
    for (size_t i = 0; i < g->nseen; i++)
        if (g->seen[i].dev == sb->st_dev && g->seen[i].ino == sb->st_ino)
            return 1;
    if (g->nseen == g->capseen) {
        size_t cap = g->capseen ? g->capseen * 2 : 64;
        devino *n = realloc(g->seen, cap * sizeof *n);
        if (!n)
            return -1;
        g->seen = n;
        g->capseen = cap;
    }
    g->seen[g->nseen].dev = sb->st_dev;
    g->seen[g->nseen].ino = sb->st_ino;
    g->nseen++;
    return 0;
}

/* ---- load_errors ----------------------------------------------------------------------- */

/* One load_errors row plus the stderr line. entry < 0: whole-PAK fault. */
static int load_error(ing *g, const char *path, const char *game, int64_t entry, uint32_t type,
                      uint32_t id, const char *stage, uint64_t off, const char *msg)
{
    char fc[5];
    sqlite3_stmt *st = db_priv_stmt(g->d, S_ERR_INS);
    util_fourcc_str(type, fc);
    sqlite3_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
    if (entry >= 0) {
        sqlite3_bind_int64(st, 2, entry);
        sqlite3_bind_text(st, 3, fc, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 4, id);
    }
    sqlite3_bind_text(st, 5, stage, -1, SQLITE_STATIC);
    if (off != UINT64_MAX)
        sqlite3_bind_int64(st, 6, (int64_t)off);
    sqlite3_bind_text(st, 7, msg, -1, SQLITE_TRANSIENT);
    if (game)
        sqlite3_bind_text(st, 8, game, -1, SQLITE_TRANSIENT);
    int s = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (s != SQLITE_DONE)
        return db_priv_sql_fail(g->d, g->err, "insert load_errors");
    g->st->errors++;
    if (g->o->log && !g->o->quiet) {
        if (g->o->progress)
            fputs("\r\033[K", g->o->log);
        char at[32] = "";
        if (off != UINT64_MAX)
            snprintf(at, sizeof at, " @0x%" PRIx64, off);
        if (entry >= 0)
            fprintf(g->o->log, "%s entry %" PRId64 " %s %08X %s%s: %s\n", base_name(path), entry,
                    fc, id, stage, at, msg);
        else
            fprintf(g->o->log, "%s %s%s: %s\n", path, stage, at, msg);
    }
    return 0;
}

/* ---- removing a PAK's rows ------------------------------------------------------------ */

static int exec_bind_id(ing *g, const char *sql, int64_t id, const char *text)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(g->h, sql, -1, &st, NULL) != SQLITE_OK)
        return db_priv_sql_fail(g->d, g->err, sql);
    if (text)
        sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_int64(st, 1, id);
    int s = sqlite3_step(st);
    sqlite3_finalize(st);
    return s == SQLITE_DONE ? 0 : db_priv_sql_fail(g->d, g->err, sql);
}

/* Delete everything that came from PAK old_id (path): its entries, names, warnings,
 * load_errors, and the derived rows of assets decoded from its copies. */
static int delete_pak(ing *g, int64_t old_id, const char *path)
{
    int rc = 0;
    if (old_id >= 0) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(g->h, "SELECT game, type, asset_id FROM decoded WHERE pak_id = ?1",
                               -1, &st, NULL) != SQLITE_OK)
            return db_priv_sql_fail(g->d, g->err, "select decoded");
        sqlite3_bind_int64(st, 1, old_id);
        /* collect first: deleting while stepping the same table is not allowed */
        struct {
            char game[4], type[5];
            uint32_t id;
        } *list = NULL;
        size_t n = 0, cap = 0;
        int s;
        while ((s = sqlite3_step(st)) == SQLITE_ROW) {
            if (n == cap) {
                cap = cap ? cap * 2 : 32;
                void *nl = realloc(list, cap * sizeof *list);
                if (!nl) {
                    free(list);
                    sqlite3_finalize(st);
                    return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                }
                list = nl;
            }
            snprintf(list[n].game, sizeof list[n].game, "%s",
                     (const char *)sqlite3_column_text(st, 0));
            snprintf(list[n].type, sizeof list[n].type, "%s",
                     (const char *)sqlite3_column_text(st, 1));
            list[n].id = (uint32_t)sqlite3_column_int64(st, 2);
            n++;
        }
        sqlite3_finalize(st);
        if (s != SQLITE_DONE)
            rc = db_priv_sql_fail(g->d, g->err, "select decoded");
        for (size_t i = 0; i < n && !rc; i++)
            rc = db_delete_asset(g->d, list[i].game, list[i].type, list[i].id, g->err);
        free(list);
        if (rc)
            return rc;
        static const char *const by_id[] = {
            "DELETE FROM pak_entries WHERE pak_id = ?1",
            "DELETE FROM pak_names WHERE pak_id = ?1",
            "DELETE FROM warnings WHERE pak_id = ?1",
            "DELETE FROM paks WHERE pak_id = ?1",
        };
        for (size_t i = 0; i < sizeof by_id / sizeof by_id[0]; i++)
            if ((rc = exec_bind_id(g, by_id[i], old_id, NULL)) != 0)
                return rc;
    }
    return exec_bind_id(g, "DELETE FROM load_errors WHERE pak_path = ?1", 0, path);
}

/* ---- transactions -------------------------------------------------------------------- */

static int tx_exec(ing *g, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(g->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        util_fail(g->err, UTIL_ESQL, UINT64_MAX, "%s: %s", sql, msg ? msg : sqlite3_errmsg(g->h));
        sqlite3_free(msg);
        return UTIL_ESQL;
    }
    return 0;
}

/* One PAK's changes: a transaction, or a savepoint inside the bulk load's transaction. */
static int tx_begin(ing *g)
{
    return g->bulk ? tx_exec(g, "SAVEPOINT pak") : db_begin(g->d, g->err);
}

static int tx_commit(ing *g)
{
    return g->bulk ? tx_exec(g, "RELEASE pak") : db_commit(g->d, g->err);
}

static void tx_rollback(ing *g)
{
    if (g->bulk)
        sqlite3_exec(g->h, "ROLLBACK TO pak; RELEASE pak", NULL, NULL, NULL);
    else
        db_rollback(g->d);
}

/* ingest_state.final_pass_pending is set inside every transaction that changes a PAK's rows
 * and cleared inside the final pass's: a run killed in between leaves it set, and the next run
 * then does the final pass even when every PAK is unchanged, without re-checking `assets`
 * against pak_entries (which costs seconds on a large corpus; --rehash still does that). */
static int set_pending(ing *g, int on)
{
    return tx_exec(g, on ? "UPDATE ingest_state SET value = 1 WHERE key = 'final_pass_pending'"
                         : "UPDATE ingest_state SET value = 0 WHERE key = 'final_pass_pending'");
}

static int pending_flag(ing *g, int *out)
{
    sqlite3_stmt *st = NULL;
    *out = 0;
    const char *sql = "SELECT value FROM ingest_state WHERE key = 'final_pass_pending'";
    if (sqlite3_prepare_v2(g->h, sql, -1, &st, NULL) != SQLITE_OK)
        return db_priv_sql_fail(g->d, g->err, "ingest_state");
    int s = sqlite3_step(st);
    if (s == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0) != 0;
    sqlite3_finalize(st);
    return s == SQLITE_ROW || s == SQLITE_DONE ? 0 : db_priv_sql_fail(g->d, g->err, "ingest_state");
}

/* A PAK with no signal of its game (empty, or only stored resources of types both games
 * have) holds nothing whose decoding depends on the game; it takes the game most PAKs of
 * its folder were detected as (a dump keeps each game's PAKs together), else MP1. */
static int settle_unknown_games(ing *g)
{
    if (g->o->game != PAK_GAME_UNKNOWN)
        return 0;
    return tx_exec(
        g, "UPDATE paks SET game = coalesce((SELECT s.game FROM paks s WHERE s.game_detected IN "
           "('MP1', 'MP2') AND rtrim(s.path, replace(s.path, '/', '')) = rtrim(paks.path, "
           "replace(paks.path, '/', '')) GROUP BY s.game ORDER BY count(*) DESC, s.game LIMIT 1), "
           "'MP1') WHERE game_detected = 'unknown';"
           "UPDATE warnings SET game = (SELECT p.game FROM paks p WHERE p.pak_id = "
           "warnings.pak_id) WHERE code = 'game_unknown' AND pak_id IS NOT NULL;");
}

/* ---- writing one decoded entry ------------------------------------------------------- */

/* The writer's half of job j (entry of a PAK with row pak_id): if (game, type, id) has no
 * decoded rows yet write the decode's rows, else compare the copy's hash with the canonical
 * one. Faults become load_errors; only SQL failures and out of memory are returned. */
static int finish_entry(ing *g, job *j, int64_t pak_id, const char *path, const char *game)
{
    const pak_entry *e = &j->p->entries[j->entry];
    uint32_t i = j->entry;
    int is_ancs = e->type == FOURCC_ANCS;
    const char *tname = is_ancs ? "ANCS" : "EVNT";
    int rc = 0;
    if (!e->in_bounds)
        return load_error(g, path, game, i, e->type, e->id, "inflate", e->offset,
                          "entry data lies outside the file");
    if (!j->inflated) {
        if (j->e.code == UTIL_ENOMEM)
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory inflating %s", path);
        return load_error(g, path, game, i, e->type, e->id, "inflate", j->e.offset, j->e.msg);
    }
    if ((rc = db_priv_put(g->d, S_ENTRY_HASH, g->err, "iui", pak_id, i, (int64_t)j->hash)) != 0)
        return rc;
    /* already decoded from another copy? */
    sqlite3_stmt *q = db_priv_stmt(g->d, S_DECODED_GET);
    sqlite3_bind_text(q, 1, game, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, e->id);
    sqlite3_bind_text(q, 3, tname, -1, SQLITE_STATIC);
    int s = sqlite3_step(q);
    int have = s == SQLITE_ROW;
    int64_t canon = have ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    if (s != SQLITE_ROW && s != SQLITE_DONE)
        return db_priv_sql_fail(g->d, g->err, "select decoded");
    if (have) {
        if (canon != (int64_t)j->hash) {
            char msg[160];
            snprintf(msg, sizeof msg,
                     "entry %u: inflated bytes (%zu without 0xFF padding) differ from the "
                     "decoded copy of %s %08X",
                     i, j->hlen, tname, e->id);
            rc = db_priv_warn(g->d, game, tname, e->id, -1, "copy_differs", msg, pak_id, g->err);
        }
        return rc;
    }
    if (!j->decoded)
        job_decode(j);
    const char *status = "ok";
    if (j->dec_rc != 0) {
        if (j->e.code == UTIL_ENOMEM && (!is_ancs || j->arena.limit == 0))
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory decoding");
        status = "decode_error";
        rc = load_error(g, path, game, i, e->type, e->id, "decode", j->e.offset, j->e.msg);
    } else if (is_ancs) {
        rc = db_put_ancs(g->d, game, e->id, &j->set, g->err);
        g->st->ancs++;
        g->st->characters += j->set.char_count;
    } else {
        rc = db_put_evnt(g->d, game, e->id, &j->ev, g->err);
        g->st->evnt++;
    }
    if (rc == 0)
        rc = db_priv_put(g->d, S_DECODED_INS, g->err, "ssuiuuis", game, tname, e->id, pak_id, i,
                         (unsigned)j->len, (int64_t)j->hash, status);
    return rc;
}

/* Whether (game, type, id) has no decoded rows now: the guess handed to a worker. */
static int want_decode(ing *g, const char *game, const pak_entry *e)
{
    sqlite3_stmt *q = db_priv_stmt(g->d, S_DECODED_GET);
    sqlite3_bind_text(q, 1, game, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, e->id);
    sqlite3_bind_text(q, 3, e->type == FOURCC_ANCS ? "ANCS" : "EVNT", -1, SQLITE_STATIC);
    int s = sqlite3_step(q);
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    return s != SQLITE_ROW;
}

/* ---- one PAK ---------------------------------------------------------------------------- */

static int has_type(const pak_file *p, uint32_t type)
{
    for (uint32_t i = 0; i < p->entry_count; i++)
        if (p->entries[i].type == type)
            return 1;
    return 0;
}

static int has_compressed(const pak_file *p)
{
    for (uint32_t i = 0; i < p->entry_count; i++)
        if (p->entries[i].compressed)
            return 1;
    return 0;
}

/* Look the path up in paks: old id (-1 if none) and whether it can be skipped. */
static int lookup_old(ing *g, const char *path, const struct stat *sb, const pak_file *p,
                      int64_t *old_id, int *skip)
{
    sqlite3_stmt *st = db_priv_stmt(g->d, S_PAK_GET);
    *old_id = -1;
    *skip = 0;
    sqlite3_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
    int s = sqlite3_step(st);
    if (s == SQLITE_ROW) {
        *old_id = sqlite3_column_int64(st, 0);
        int same = p && sqlite3_column_int64(st, 1) == (int64_t)sb->st_size &&
                   sqlite3_column_int64(st, 2) == (int64_t)sb->st_mtim.tv_sec &&
                   sqlite3_column_int64(st, 3) == (int64_t)sb->st_mtim.tv_nsec &&
                   sqlite3_column_int64(st, 4) == (int64_t)p->tables_hash &&
                   sqlite3_column_text(st, 6) &&
                   !strcmp((const char *)sqlite3_column_text(st, 6), "ok");
        if (same && g->o->rehash) {
            same = sqlite3_column_type(st, 5) == SQLITE_INTEGER &&
                   sqlite3_column_int64(st, 5) == (int64_t)g->chash;
        }
        *skip = same;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (s != SQLITE_ROW && s != SQLITE_DONE)
        return db_priv_sql_fail(g->d, g->err, "select paks");
    return 0;
}

static int insert_pak_row(ing *g, const char *path, const struct stat *sb, const pak_file *p,
                          const char *game, const char *detected, const char *status,
                          int64_t *pak_id)
{
    sqlite3_stmt *st = db_priv_stmt(g->d, S_PAK_INS);
    sqlite3_bind_text(st, 1, path, -1, SQLITE_TRANSIENT);
    if (game)
        sqlite3_bind_text(st, 2, game, -1, SQLITE_STATIC);
    if (detected)
        sqlite3_bind_text(st, 3, detected, -1, SQLITE_STATIC);
    if (sb) {
        sqlite3_bind_int64(st, 4, (int64_t)sb->st_size);
        sqlite3_bind_int64(st, 5, (int64_t)sb->st_mtim.tv_sec);
        sqlite3_bind_int64(st, 6, (int64_t)sb->st_mtim.tv_nsec);
    }
    if (p) {
        sqlite3_bind_int64(st, 7, (int64_t)p->tables_hash);
        if (g->o->rehash)
            sqlite3_bind_int64(st, 8, (int64_t)g->chash);
        sqlite3_bind_int64(st, 9, p->header_unused);
        sqlite3_bind_int64(st, 10, p->named_count);
        sqlite3_bind_int64(st, 11, p->entry_count);
    }
    sqlite3_bind_text(st, 12, status, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 13, (int64_t)time(NULL));
    int s = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (s != SQLITE_DONE)
        return db_priv_sql_fail(g->d, g->err, "insert paks");
    *pak_id = sqlite3_last_insert_rowid(g->h);
    return 0;
}

/* A PAK that cannot be read: replace its rows by an 'error' paks row and a load_errors row. */
static int pak_failed(ing *g, const char *path, const struct stat *sb, int64_t old_id,
                      const char *game, uint64_t off, const char *msg)
{
    int rc;
    int64_t pak_id;
    if ((rc = tx_begin(g)) != 0)
        return rc;
    if ((rc = set_pending(g, 1)) == 0 && (rc = delete_pak(g, old_id, path)) == 0 &&
        (rc = insert_pak_row(g, path, sb, NULL, game, NULL, "error", &pak_id)) == 0 &&
        (rc = load_error(g, path, game, -1, 0, 0, "pak", off, msg)) == 0)
        rc = tx_commit(g);
    if (rc)
        tx_rollback(g);
    g->changed = 1;
    return rc;
}

static int do_pak_file(ing *g, const char *path, const struct stat *sb, pak_file *p, pakbuf *b);

/* Open one PAK and ingest it; an unreadable PAK becomes an 'error' row, not a failure. */
static int do_pak(ing *g, const char *path, const struct stat *sb)
{
    pak_file *p = NULL;
    pakbuf b = {.fd = -1};
    util_err e;
    int rc = 0;
    int64_t old_id = -1;
    int skip = 0;
    util_err_clear(&e);
    if (g->mem_data)
        pakbuf_mem(&b, g->mem_data, g->mem_len, path);
    else
        rc = pakbuf_open(&b, path, &e);
    if (rc == 0)
        rc = pakbuf_tables(&p, &b, &e);
    if (rc == 0 && g->o->rehash)
        rc = pakbuf_hash_all(&b, &g->chash, &e);
    if (rc != 0) {
        pak_close(p);
        pakbuf_close(&b);
        if (e.code == UTIL_ENOMEM)
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory opening %s", path);
        if ((rc = lookup_old(g, path, sb, NULL, &old_id, &skip)) != 0)
            return rc;
        return pak_failed(g, path, sb, old_id, NULL, e.offset, e.msg);
    }
    rc = do_pak_file(g, path, sb, p, &b);
    pakbuf_close(&b);
    return rc;
}

/* pak_entries rows of p, ENTRY_BATCH rows per statement (one statement per row costs
 * SQLite more than the row itself), the rest one by one. */
#define ENTRY_BATCH 64

static int put_entries(ing *g, const pak_file *p, int64_t pak_id)
{
    int rc = 0;
    uint32_t i = 0;
    if (p->entry_count >= ENTRY_BATCH && !g->entry_batch) {
        char *sql = sqlite3_mprintf("INSERT INTO pak_entries VALUES");
        for (int r = 0; r < ENTRY_BATCH && sql; r++) {
            char *n = sqlite3_mprintf("%s%s(?,?,?,?,?,?,?,?,?,?,NULL)", sql, r ? "," : "");
            sqlite3_free(sql);
            sql = n;
        }
        if (!sql)
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        int s = sqlite3_prepare_v3(g->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &g->entry_batch, NULL);
        sqlite3_free(sql);
        if (s != SQLITE_OK)
            return db_priv_sql_fail(g->d, g->err, "prepare pak_entries batch");
    }
    for (; i + ENTRY_BATCH <= p->entry_count; i += ENTRY_BATCH) {
        sqlite3_stmt *st = g->entry_batch;
        char fc[ENTRY_BATCH][5];
        int col = 1;
        for (uint32_t k = 0; k < ENTRY_BATCH; k++) {
            const pak_entry *en = &p->entries[i + k];
            util_fourcc_str(en->type, fc[k]);
            sqlite3_bind_int64(st, col++, pak_id);
            sqlite3_bind_int64(st, col++, i + k);
            sqlite3_bind_text(st, col++, fc[k], 4, SQLITE_STATIC);
            sqlite3_bind_int64(st, col++, en->id);
            sqlite3_bind_int64(st, col++, en->compressed);
            sqlite3_bind_int64(st, col++, en->offset);
            sqlite3_bind_int64(st, col++, en->size);
            sqlite3_bind_int64(st, col++, en->decompressed_size);
            sqlite3_bind_int64(st, col++, (int64_t)en->table_offset);
            sqlite3_bind_int64(st, col++, en->in_bounds);
        }
        int s = sqlite3_step(st);
        sqlite3_reset(st);
        if (s != SQLITE_DONE)
            return db_priv_sql_fail(g->d, g->err, "insert pak_entries");
    }
    for (; i < p->entry_count && !rc; i++) {
        const pak_entry *en = &p->entries[i];
        char fc[5];
        util_fourcc_str(en->type, fc);
        rc = db_priv_put(g->d, S_ENTRY_INS, g->err, "iusuuuuuid-", pak_id, i, fc, en->id,
                         en->compressed, en->offset, en->size, en->decompressed_size,
                         (int64_t)en->table_offset, en->in_bounds);
    }
    return rc;
}

/* Ingest the PAK p read through b (p closed here) in one transaction. */
static int do_pak_file(ing *g, const char *path, const struct stat *sb, pak_file *p, pakbuf *b)
{
    int rc = 0;
    int64_t old_id = -1, pak_id = -1;
    int skip = 0;
    uint32_t *pending = NULL; /* ANCS/EVNT entry indexes */
    uint8_t *codecs = NULL;   /* pak_codec of each entry */
    pipeline *pl = &g->pl;
    /* job sequence numbers: this PAK's start, next to hand out, next to consume */
    size_t n_pending = 0, base = pl->limit, next = base, consumed = base;
    if ((rc = lookup_old(g, path, sb, p, &old_id, &skip)) != 0)
        goto done;
    if (skip) {
        g->st->paks_skipped++;
        goto done;
    }
    util_err e;
    util_err_clear(&e);
    if ((rc = pakbuf_entries(p, b, &codecs, &e)) != 0) {
        if (e.code == UTIL_ENOMEM) {
            rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory opening %s", path);
            goto done;
        }
        rc = pak_failed(g, path, sb, old_id, NULL, e.offset, e.msg);
        goto done;
    }
    int conflict = 0;
    pak_game det = pak_detect_game_codecs(p, codecs, &conflict);
    if (det == PAK_GAME_UNKNOWN)
        det = game_from_ancs(p, b);
    pak_game pg = g->o->game != PAK_GAME_UNKNOWN ? g->o->game : det;
    int guessed = 0;
    if (pg == PAK_GAME_UNKNOWN) {
        if (has_compressed(p) || has_type(p, FOURCC_ANCS)) {
            rc = pak_failed(g, path, sb, old_id, NULL, UINT64_MAX,
                            "cannot tell MP1 from MP2 (use --game)");
            goto done;
        }
        pg = PAK_GAME_MP1; /* nothing in it depends on the game */
        guessed = 1;
    }
    const char *game = pg == PAK_GAME_MP2 ? "MP2" : "MP1";
    ancs_game ag = pg == PAK_GAME_MP2 ? ANCS_GAME_MP2 : ANCS_GAME_MP1;
    if (p->entry_count) {
        pending = malloc((size_t)p->entry_count * sizeof *pending);
        if (!pending) {
            rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            goto done;
        }
    }
    for (uint32_t i = 0; i < p->entry_count; i++)
        if (p->entries[i].type == FOURCC_ANCS || p->entries[i].type == FOURCC_EVNT)
            pending[n_pending++] = i;
    g->changed = 1;
    if ((rc = tx_begin(g)) != 0)
        goto done;
    if ((rc = set_pending(g, 1)) != 0 || (rc = delete_pak(g, old_id, path)) != 0)
        goto rollback;
    if ((rc = insert_pak_row(g, path, sb, p, game, pak_game_name(det), "ok", &pak_id)) != 0)
        goto rollback;
    /* Hand the first jobs to the workers: they decode while the table rows are written. */
    if (pl->nthreads > 0) {
        size_t first = n_pending < pl->cap ? n_pending : pl->cap;
        for (size_t k = 0; k < first; k++)
            job_set(&pl->ring[(base + k) % pl->cap], p, b, pending[k], ag,
                    want_decode(g, game, &p->entries[pending[k]]));
        next = base + first;
        pipeline_release(pl, next);
    }
    if ((rc = put_entries(g, p, pak_id)) != 0)
        goto rollback;
    for (uint32_t i = 0; i < p->named_count; i++) {
        const pak_named *nm = &p->named[i];
        char fc[5];
        util_fourcc_str(nm->type, fc);
        if ((rc = db_priv_put(g->d, S_NAME_INS, g->err, "iussu", pak_id, i, nm->name, fc,
                              nm->id)) != 0)
            goto rollback;
    }
    for (size_t i = 0; i < p->anomaly_count; i++) {
        const pak_anomaly *a = &p->anomalies[i];
        char fc[5] = "PAK";
        int64_t id = -1;
        if (a->entry_index >= 0 && (uint64_t)a->entry_index < p->entry_count) {
            util_fourcc_str(p->entries[a->entry_index].type, fc);
            id = p->entries[a->entry_index].id;
        }
        if ((rc = db_priv_warn(g->d, game, fc, id, (int64_t)a->offset, a->code, a->msg, pak_id,
                               g->err)) != 0)
            goto rollback;
    }
    if (guessed || conflict) {
        if ((rc =
                 db_priv_warn(g->d, game, "PAK", -1, -1, guessed ? "game_unknown" : "game_conflict",
                              guessed ? "no signal tells the game; took the game of the "
                                        "other PAKs in its folder"
                                      : "game signals disagree; used the strongest",
                              pak_id, g->err)) != 0)
            goto rollback;
    }
    g->st->resources += p->entry_count;
    /* Consume the jobs in entry order, handing out one more for each one written. */
    for (size_t k = 0; k < n_pending; k++) {
        job *j = &pl->ring[(base + k) % pl->cap];
        if (pl->nthreads > 0) {
            pipeline_wait(pl, j);
        } else {
            job_set(j, p, b, pending[k], ag, 0); /* finish_entry decodes when needed */
            job_run(j);
        }
        rc = finish_entry(g, j, pak_id, path, game);
        job_clear(j);
        consumed++;
        if (rc)
            goto rollback;
        if (pl->nthreads > 0 && next < base + n_pending) {
            size_t kn = next - base;
            job_set(&pl->ring[next % pl->cap], p, b, pending[kn], ag,
                    want_decode(g, game, &p->entries[pending[kn]]));
            pipeline_release(pl, ++next);
        }
    }
    if ((rc = tx_commit(g)) != 0)
        goto rollback;
    g->st->paks_ingested++;
    goto done;
rollback:
    pipeline_drain(pl, consumed);
    tx_rollback(g);
done:
    free(pending);
    free(codecs);
    pak_close(p);
    return rc;
}

/* ---- assets ---------------------------------------------------------------------------- */

typedef struct arow {
    uint32_t asset_id;
    uint32_t type; /* FourCC text packed big-endian: compares like the text */
    int64_t pak_id;
    uint32_t game; /* index into the games list */
} arow;

static void fourcc_text(uint32_t v, char out[5])
{
    out[0] = (char)(v >> 24);
    out[1] = (char)(v >> 16);
    out[2] = (char)(v >> 8);
    out[3] = (char)v;
    out[4] = 0;
}

static int cmp_arow(const void *a, const void *b)
{
    const arow *x = a, *y = b;
    if (x->game != y->game)
        return x->game < y->game ? -1 : 1;
    if (x->asset_id != y->asset_id)
        return x->asset_id < y->asset_id ? -1 : 1;
    if (x->pak_id != y->pak_id)
        return x->pak_id < y->pak_id ? -1 : 1;
    return x->type < y->type ? -1 : x->type > y->type;
}

/* Rebuild `assets` (one row per game and asset ID: first type in text order, copies, PAKs
 * holding it) and the id_type_conflict warnings from pak_entries. Done here with one scan
 * and a sort rather than by a GROUP BY with DISTINCT aggregates, which SQLite runs several
 * times slower. Runs inside the caller's transaction. */
#define ASSET_BATCH 64

static int rebuild_assets(ing *g)
{
    sqlite3_stmt *st = NULL, *ins = NULL, *warn = NULL, *multi = NULL;
    char fcs[ASSET_BATCH][5];
    int nb = 0, single = 0; /* rows bound to multi; 1 once the rest go one by one */
    arow *rows = NULL;
    size_t n = 0, cap = 0;
    char games[8][8];
    int64_t *game_of_pak = NULL; /* game index by pak_id, -1: none */
    int64_t max_pak = 0;
    uint32_t ngames = 0;
    int rc = 0, s;
    if ((rc = tx_exec(g, "DELETE FROM assets; DELETE FROM warnings WHERE code = "
                         "'id_type_conflict'")) != 0)
        return rc;
    if (sqlite3_prepare_v2(g->h, "SELECT max(pak_id) FROM paks", -1, &st, NULL) != SQLITE_OK ||
        (s = sqlite3_step(st)) != SQLITE_ROW) {
        rc = db_priv_sql_fail(g->d, g->err, "rebuild assets");
        goto done;
    }
    max_pak = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    st = NULL;
    if (max_pak < 0 || max_pak > (int64_t)(SIZE_MAX / sizeof *game_of_pak) - 1) {
        rc = util_fail(g->err, UTIL_ESQL, UINT64_MAX, "rebuild assets: pak_id %" PRId64, max_pak);
        goto done;
    }
    game_of_pak = malloc(((size_t)max_pak + 1) * sizeof *game_of_pak);
    if (!game_of_pak) {
        rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        goto done;
    }
    for (int64_t i = 0; i <= max_pak; i++)
        game_of_pak[i] = -1;
    if (sqlite3_prepare_v2(g->h, "SELECT pak_id, game FROM paks WHERE game IS NOT NULL", -1, &st,
                           NULL) != SQLITE_OK) {
        rc = db_priv_sql_fail(g->d, g->err, "rebuild assets");
        goto done;
    }
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(st, 0);
        const char *gm = (const char *)sqlite3_column_text(st, 1);
        uint32_t k = 0;
        while (k < ngames && strcmp(games[k], gm))
            k++;
        if (k == ngames) {
            if (ngames == 8 || strlen(gm) >= sizeof games[0]) {
                rc = util_fail(g->err, UTIL_ESQL, UINT64_MAX, "rebuild assets: game '%s'", gm);
                goto done;
            }
            snprintf(games[ngames++], sizeof games[0], "%s", gm);
        }
        if (id >= 0 && id <= max_pak)
            game_of_pak[id] = k;
    }
    sqlite3_finalize(st);
    st = NULL;
    if (s != SQLITE_DONE) {
        rc = db_priv_sql_fail(g->d, g->err, "rebuild assets");
        goto done;
    }
    if (sqlite3_prepare_v2(g->h, "SELECT pak_id, asset_id, type FROM pak_entries", -1, &st, NULL) !=
        SQLITE_OK) {
        rc = db_priv_sql_fail(g->d, g->err, "rebuild assets");
        goto done;
    }
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t pid = sqlite3_column_int64(st, 0);
        const unsigned char *t = sqlite3_column_text(st, 2);
        if (pid < 0 || pid > max_pak || game_of_pak[pid] < 0)
            continue;
        if (!t || sqlite3_column_bytes(st, 2) != 4) {
            rc = util_fail(g->err, UTIL_ESQL, UINT64_MAX, "rebuild assets: type of 4 bytes");
            goto done;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 4096;
            arow *nr = realloc(rows, cap * sizeof *nr);
            if (!nr) {
                rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                goto done;
            }
            rows = nr;
        }
        rows[n].asset_id = (uint32_t)sqlite3_column_int64(st, 1);
        rows[n].type = (uint32_t)t[0] << 24 | (uint32_t)t[1] << 16 | (uint32_t)t[2] << 8 | t[3];
        rows[n].pak_id = pid;
        rows[n].game = (uint32_t)game_of_pak[pid];
        n++;
    }
    sqlite3_finalize(st);
    st = NULL;
    if (s != SQLITE_DONE) {
        rc = db_priv_sql_fail(g->d, g->err, "rebuild assets");
        goto done;
    }
    if (n)
        qsort(rows, n, sizeof *rows, cmp_arow);
    if (sqlite3_prepare_v2(g->h,
                           "INSERT INTO assets(game, asset_id, type, copies, pak_count) "
                           "VALUES(?1, ?2, ?3, ?4, ?5)",
                           -1, &ins, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(g->h,
                           "INSERT INTO warnings(game, type, asset_id, code, message) "
                           "VALUES(?1, ?2, ?3, 'id_type_conflict', ?4)",
                           -1, &warn, NULL) != SQLITE_OK) {
        rc = db_priv_sql_fail(g->d, g->err, "rebuild assets");
        goto done;
    }
    {
        sqlite3_str *q = sqlite3_str_new(g->h);
        sqlite3_str_appendall(q,
                              "INSERT INTO assets(game, asset_id, type, copies, pak_count) VALUES");
        for (int r = 0; r < ASSET_BATCH; r++)
            sqlite3_str_appendall(q, r ? ",(?,?,?,?,?)" : "(?,?,?,?,?)");
        char *sql = sqlite3_str_finish(q);
        int ps = sql ? sqlite3_prepare_v2(g->h, sql, -1, &multi, NULL) : SQLITE_NOMEM;
        sqlite3_free(sql);
        if (ps != SQLITE_OK) {
            rc = db_priv_sql_fail(g->d, g->err, "rebuild assets");
            goto done;
        }
    }
    size_t groups_left = 0; /* assets rows still to write, this one included */
    for (size_t i = 0; i < n; i++)
        groups_left +=
            i == 0 || rows[i].game != rows[i - 1].game || rows[i].asset_id != rows[i - 1].asset_id;
    for (size_t i = 0; i < n && !rc;) {
        size_t j = i + 1;
        uint32_t tmin = rows[i].type, pak_count = 1;
        int conflict = 0;
        for (; j < n && rows[j].game == rows[i].game && rows[j].asset_id == rows[i].asset_id; j++) {
            pak_count += rows[j].pak_id != rows[j - 1].pak_id;
            if (rows[j].type != tmin)
                conflict = 1;
            if (rows[j].type < tmin)
                tmin = rows[j].type;
        }
        char fc[5];
        fourcc_text(tmin, fc);
        /* ASSET_BATCH rows per INSERT while enough rows remain, then one by one */
        if (nb == 0 && groups_left < ASSET_BATCH)
            single = 1;
        groups_left--;
        sqlite3_stmt *as = single ? ins : multi;
        int c0 = single ? 0 : nb * 5;
        memcpy(fcs[single ? 0 : nb], fc, 5);
        sqlite3_bind_text(as, c0 + 1, games[rows[i].game], -1, SQLITE_STATIC);
        sqlite3_bind_int64(as, c0 + 2, rows[i].asset_id);
        sqlite3_bind_text(as, c0 + 3, fcs[single ? 0 : nb], 4, SQLITE_STATIC);
        sqlite3_bind_int64(as, c0 + 4, (int64_t)(j - i));
        sqlite3_bind_int64(as, c0 + 5, pak_count);
        if (single || ++nb == ASSET_BATCH) {
            s = sqlite3_step(as);
            sqlite3_reset(as);
            nb = 0;
            if (s != SQLITE_DONE)
                rc = db_priv_sql_fail(g->d, g->err, "insert assets");
        }
        if (!rc && conflict) {
            /* the distinct types in text order, comma-separated */
            uint32_t types[8];
            size_t nt = 0;
            char msg[160] = "asset ID held as ";
            for (size_t k = i; k < j; k++) {
                size_t m = 0;
                while (m < nt && types[m] != rows[k].type)
                    m++;
                if (m == nt && nt < 8)
                    types[nt++] = rows[k].type;
            }
            for (size_t a = 1; a < nt; a++)
                for (size_t b = a; b > 0 && types[b - 1] > types[b]; b--) {
                    uint32_t t = types[b];
                    types[b] = types[b - 1];
                    types[b - 1] = t;
                }
            for (size_t m = 0; m < nt; m++) {
                char t4[5];
                fourcc_text(types[m], t4);
                size_t len = strlen(msg);
                snprintf(msg + len, sizeof msg - len, "%s%s", m ? "," : "", t4);
            }
            sqlite3_bind_text(warn, 1, games[rows[i].game], -1, SQLITE_STATIC);
            sqlite3_bind_text(warn, 2, fc, 4, SQLITE_STATIC);
            sqlite3_bind_int64(warn, 3, rows[i].asset_id);
            sqlite3_bind_text(warn, 4, msg, -1, SQLITE_STATIC);
            s = sqlite3_step(warn);
            sqlite3_reset(warn);
            if (s != SQLITE_DONE)
                rc = db_priv_sql_fail(g->d, g->err, "insert warnings");
        }
        i = j;
    }
done:
    sqlite3_finalize(st);
    sqlite3_finalize(ins);
    sqlite3_finalize(warn);
    sqlite3_finalize(multi);
    free(rows);
    free(game_of_pak);
    return rc;
}

/* ---- final pass ------------------------------------------------------------------------ */

/* Decode every ANCS/EVNT held by some readable PAK that has no decoded rows (its canonical
 * PAK was replaced or removed), then rebuild `assets`. Rare work: runs on this thread. */
static int final_pass(ing *g)
{
    int rc = 0;
    sqlite3_stmt *st = NULL;
    char *cur_path = NULL;
    pak_file *p = NULL;
    pakbuf b = {.fd = -1};
    const char *sql =
        "SELECT p.path, p.pak_id, p.game, e.entry_index FROM pak_entries e JOIN paks p "
        "USING (pak_id) WHERE e.type IN ('ANCS', 'EVNT') AND p.status = 'ok' AND NOT EXISTS "
        "(SELECT 1 FROM decoded x WHERE x.game = p.game AND x.asset_id = e.asset_id AND "
        "x.type = e.type) AND NOT EXISTS (SELECT 1 FROM load_errors l WHERE l.pak_path = "
        "p.path AND l.entry_index = e.entry_index) ORDER BY p.pak_id, e.entry_index";
    if ((rc = tx_begin(g)) != 0)
        return rc;
    if (sqlite3_prepare_v2(g->h, sql, -1, &st, NULL) != SQLITE_OK) {
        rc = db_priv_sql_fail(g->d, g->err, "orphan scan");
        goto done;
    }
    /* Collect the work first; finish_entry writes to tables this SELECT reads. */
    typedef struct orphan {
        char *path;
        int64_t pak_id;
        char game[4];
        uint32_t entry;
    } orphan;
    orphan *work = NULL;
    size_t n = 0, cap = 0;
    int s;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            orphan *nw = realloc(work, cap * sizeof *nw);
            if (!nw) {
                rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                break;
            }
            work = nw;
        }
        work[n].path = strdup((const char *)sqlite3_column_text(st, 0));
        work[n].pak_id = sqlite3_column_int64(st, 1);
        snprintf(work[n].game, sizeof work[n].game, "%s", (const char *)sqlite3_column_text(st, 2));
        work[n].entry = (uint32_t)sqlite3_column_int64(st, 3);
        if (!work[n].path) {
            rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            break;
        }
        n++;
    }
    if (!rc && s != SQLITE_DONE)
        rc = db_priv_sql_fail(g->d, g->err, "orphan scan");
    sqlite3_finalize(st);
    st = NULL;
    for (size_t i = 0; i < n && !rc; i++) {
        if (!cur_path || strcmp(cur_path, work[i].path)) {
            pak_close(p);
            p = NULL;
            pakbuf_close(&b);
            cur_path = work[i].path;
            util_err e;
            util_err_clear(&e);
            int orc;
            if (g->mem_data) {
                pakbuf_mem(&b, g->mem_data, g->mem_len, cur_path);
                orc = 0;
            } else {
                orc = pakbuf_open(&b, cur_path, &e);
            }
            /* the jobs read their own payloads: no entry heads needed */
            if (orc == 0)
                orc = pakbuf_tables(&p, &b, &e);
            if (orc != 0) {
                pak_close(p);
                p = NULL;
                if (e.code == UTIL_ENOMEM)
                    rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory opening %s",
                                   cur_path);
                else
                    rc = load_error(g, cur_path, work[i].game, -1, 0, 0, "pak", e.offset, e.msg);
                continue;
            }
        }
        if (!p || work[i].entry >= p->entry_count)
            continue;
        job j;
        memset(&j, 0, sizeof j);
        util_arena_init(&j.arena);
        job_set(&j, p, &b, work[i].entry,
                !strcmp(work[i].game, "MP2") ? ANCS_GAME_MP2 : ANCS_GAME_MP1, 0);
        job_run(&j);
        rc = finish_entry(g, &j, work[i].pak_id, cur_path, work[i].game);
        job_clear(&j);
    }
    pak_close(p);
    pakbuf_close(&b);
    for (size_t i = 0; i < n; i++)
        free(work[i].path);
    free(work);
    if (rc)
        goto done;
    if ((rc = settle_unknown_games(g)) != 0 || (rc = rebuild_assets(g)) != 0 ||
        (rc = set_pending(g, 0)) != 0)
        goto done;
    rc = tx_commit(g);
done:
    sqlite3_finalize(st);
    if (rc)
        tx_rollback(g);
    return rc;
}

/* ---- finding PAKs ---------------------------------------------------------------------- */

static int add_file(ing *g, const char *path)
{
    char *real = realpath(path, NULL);
    if (!real)
        real = strdup(path);
    if (!real)
        return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    if (g->nfiles == g->capfiles) {
        size_t cap = g->capfiles ? g->capfiles * 2 : 64;
        char **n = realloc(g->files, cap * sizeof *n);
        if (!n) {
            free(real);
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        }
        g->files = n;
        g->capfiles = cap;
    }
    g->files[g->nfiles++] = real;
    return 0;
}

static int cmp_name(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int c = strcasecmp(x, y);
    return c ? c : strcmp(x, y);
}

static int is_pak_name(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && !strcasecmp(name + n - 4, ".pak");
}

static int walk(ing *g, const char *path, int explicit_arg, int depth)
{
    struct stat sb;
    int rc = 0;
    if (stat(path, &sb) != 0) {
        if (explicit_arg || is_pak_name(path)) {
            char msg[192];
            snprintf(msg, sizeof msg, "cannot stat: %s", strerror(errno));
            return load_error(g, path, NULL, -1, 0, 0, "pak", UINT64_MAX, msg);
        }
        return 0;
    }
    if (S_ISREG(sb.st_mode)) {
        if (!explicit_arg && !is_pak_name(path))
            return 0;
        int r = seen_add(g, &sb);
        if (r < 0)
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        return r ? 0 : add_file(g, path);
    }
    if (!S_ISDIR(sb.st_mode)) {
        /* a FIFO, socket or device named *.pak is recorded, never opened (a FIFO blocks) */
        if (explicit_arg || is_pak_name(path))
            return load_error(g, path, NULL, -1, 0, 0, "pak", UINT64_MAX,
                              "not a regular file or folder");
        return 0;
    }
    int r = seen_add(g, &sb);
    if (r < 0)
        return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    if (r || depth > 64)
        return 0; /* already visited (symlink loop) or absurdly deep */
    DIR *dir = opendir(path);
    if (!dir) {
        char msg[192];
        snprintf(msg, sizeof msg, "cannot open folder: %s", strerror(errno));
        return load_error(g, path, NULL, -1, 0, 0, "pak", UINT64_MAX, msg);
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) {
                rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                break;
            }
            names = nn;
        }
        if (!(names[n] = strdup(de->d_name))) {
            rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            break;
        }
        n++;
    }
    closedir(dir);
    if (!rc && n) /* an empty folder has no list: qsort(NULL, 0) is undefined */
        qsort(names, n, sizeof *names, cmp_name);
    for (size_t i = 0; i < n && !rc; i++) {
        size_t len = strlen(path) + strlen(names[i]) + 2;
        char *sub = malloc(len);
        if (!sub) {
            rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            break;
        }
        snprintf(sub, len, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", names[i]);
        rc = walk(g, sub, 0, depth + 1);
        free(sub);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

static void progress(ing *g, size_t done, const char *path)
{
    if (!g->o->progress || !g->o->log)
        return;
    size_t total = g->nfiles ? g->nfiles : 1;
    int width = 30, fill = (int)(done * (size_t)width / total);
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[width] = 0;
    fprintf(g->o->log, "\r\033[K[%s] %zu/%zu %s", bar, done, g->nfiles,
            path ? base_name(path) : "");
    fflush(g->o->log);
}

/* ---- bulk load ----------------------------------------------------------------------- */

/* Non-unique secondary indexes dropped for a bulk load, rebuilt at its end. Unique ones
 * stay: INSERT OR IGNORE relies on them. */
typedef struct idxlist {
    char **sql;
    size_t n;
} idxlist;

static void idxlist_free(idxlist *x)
{
    for (size_t i = 0; i < x->n; i++)
        free(x->sql[i]);
    free(x->sql);
    x->sql = NULL;
    x->n = 0;
}

/* Inside the bulk transaction: remember and drop the indexes. */
static int bulk_drop_indexes(ing *g, idxlist *x)
{
    sqlite3_stmt *st = NULL;
    int rc = 0, s;
    size_t cap = 0;
    if (sqlite3_prepare_v2(g->h,
                           "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS "
                           "NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%' ORDER BY name",
                           -1, &st, NULL) != SQLITE_OK)
        return db_priv_sql_fail(g->d, g->err, "list indexes");
    char **names = NULL;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        if (x->n == cap) {
            cap = cap ? cap * 2 : 32;
            char **ns = realloc(x->sql, cap * sizeof *ns);
            char **nn = ns ? realloc(names, cap * sizeof *nn) : NULL;
            if (ns)
                x->sql = ns;
            if (!nn) {
                rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                break;
            }
            names = nn;
        }
        x->sql[x->n] = strdup((const char *)sqlite3_column_text(st, 1));
        names[x->n] =
            sqlite3_mprintf("DROP INDEX \"%w\"", (const char *)sqlite3_column_text(st, 0));
        if (!x->sql[x->n] || !names[x->n]) {
            free(x->sql[x->n]);
            sqlite3_free(names[x->n]);
            rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            break;
        }
        x->n++;
    }
    if (!rc && s != SQLITE_DONE)
        rc = db_priv_sql_fail(g->d, g->err, "list indexes");
    sqlite3_finalize(st);
    for (size_t i = 0; i < x->n; i++) {
        if (!rc)
            rc = tx_exec(g, names[i]);
        sqlite3_free(names[i]);
    }
    free(names);
    return rc;
}

static int bulk_create_indexes(ing *g, const idxlist *x)
{
    for (size_t i = 0; i < x->n; i++) {
        int rc = tx_exec(g, x->sql[i]);
        if (rc)
            return rc;
    }
    return 0;
}

/* Whether the database holds no PAK yet (then the run is a bulk load). */
static int db_is_empty(ing *g)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(g->h, "SELECT 1 FROM paks LIMIT 1", -1, &st, NULL) != SQLITE_OK)
        return 0;
    int empty = sqlite3_step(st) == SQLITE_DONE;
    sqlite3_finalize(st);
    return empty;
}

/* Page cache of the ingest connection: large enough for the B-tree pages a PAK's rows
 * touch, bounded so the whole run stays well under 64 MiB. Sorts for index builds spill to
 * temporary files rather than memory. */
#define INGEST_CACHE_KIB 16384

/* Whether a previous run died between its last PAK commit and the end of its final pass:
 * `assets` differs from what pak_entries say, or an ANCS/EVNT lacks rows. Then this run
 * must do the final pass even when every PAK is unchanged. */
static int final_pass_pending(ing *g, int *out)
{
    static const char sql[] =
        "SELECT EXISTS (SELECT p.game, e.asset_id, min(e.type), count(*), count(DISTINCT "
        "e.pak_id) FROM pak_entries e JOIN paks p USING (pak_id) GROUP BY p.game, e.asset_id "
        "EXCEPT SELECT game, asset_id, type, copies, pak_count FROM assets) OR EXISTS (SELECT "
        "game, asset_id, type, copies, pak_count FROM assets EXCEPT SELECT p.game, e.asset_id, "
        "min(e.type), count(*), count(DISTINCT e.pak_id) FROM pak_entries e JOIN paks p USING "
        "(pak_id) GROUP BY p.game, e.asset_id) OR EXISTS (SELECT 1 FROM pak_entries e JOIN paks "
        "p USING (pak_id) WHERE e.type IN ('ANCS', 'EVNT') AND p.status = 'ok' AND NOT EXISTS "
        "(SELECT 1 FROM decoded x WHERE x.game = p.game AND x.asset_id = e.asset_id AND x.type "
        "= e.type) AND NOT EXISTS (SELECT 1 FROM load_errors l WHERE l.pak_path = p.path AND "
        "l.entry_index = e.entry_index))";
    sqlite3_stmt *st = NULL;
    *out = 0;
    if (sqlite3_prepare_v2(g->h, sql, -1, &st, NULL) != SQLITE_OK)
        return db_priv_sql_fail(g->d, g->err, "final pass check");
    int s = sqlite3_step(st);
    if (s == SQLITE_ROW)
        *out = sqlite3_column_int(st, 0) != 0;
    sqlite3_finalize(st);
    return s == SQLITE_ROW ? 0 : db_priv_sql_fail(g->d, g->err, "final pass check");
}

int db_ingest_paths(db *d, const char *const *paths, int npaths, const db_ingest_opts *opts,
                    db_ingest_stats *stats, util_err *err)
{
    ing g = {.d = d, .h = db_priv_handle(d), .o = opts, .st = stats, .err = err};
    idxlist idx = {NULL, 0};
    int rc = 0;
    double t0 = now_seconds();
    long warn0 = db_priv_warnings(d);
    memset(stats, 0, sizeof *stats);
    for (int i = 0; i < npaths && !rc; i++)
        rc = walk(&g, paths[i], 1, 0);
    stats->paks_seen = (long)g.nfiles;
    if (!rc) {
        char pragma[80];
        snprintf(pragma, sizeof pragma, "PRAGMA cache_size = -%d; PRAGMA temp_store = FILE",
                 INGEST_CACHE_KIB);
        rc = tx_exec(&g, pragma);
    }
    if (!rc)
        rc = pipeline_start(&g.pl, opts->jobs, err);
    if (!rc && g.nfiles > 0 && db_is_empty(&g)) {
        rc = db_begin(d, err);
        if (!rc) {
            g.bulk = 1;
            rc = bulk_drop_indexes(&g, &idx);
        }
    }
    for (size_t i = 0; i < g.nfiles && !rc; i++) {
        progress(&g, i, g.files[i]);
        struct stat sb;
        if (stat(g.files[i], &sb) != 0) {
            char msg[192];
            snprintf(msg, sizeof msg, "cannot stat: %s", strerror(errno));
            rc = load_error(&g, g.files[i], NULL, -1, 0, 0, "pak", UINT64_MAX, msg);
            continue;
        }
        rc = do_pak(&g, g.files[i], &sb);
    }
    if (!rc && !g.changed)
        rc = pending_flag(&g, &g.changed);
    if (!rc && !g.changed && opts->rehash)
        rc = final_pass_pending(&g, &g.changed);
    if (!rc && g.changed) {
        progress(&g, g.nfiles, "finishing");
        rc = final_pass(&g);
    }
    if (g.bulk) {
        if (!rc)
            rc = bulk_create_indexes(&g, &idx);
        if (!rc)
            rc = db_commit(d, err);
        if (rc)
            db_rollback(d);
        g.bulk = 0;
    }
    idxlist_free(&idx);
    pipeline_stop(&g.pl);
    sqlite3_finalize(g.entry_batch);
    if (opts->progress && opts->log)
        fputs("\r\033[K", opts->log);
    for (size_t i = 0; i < g.nfiles; i++)
        free(g.files[i]);
    free(g.files);
    free(g.seen);
    stats->warnings = db_priv_warnings(d) - warn0;
    stats->seconds = now_seconds() - t0;
    return rc;
}

int db_ingest_mem(db *d, const char *name, const uint8_t *data, size_t len,
                  const db_ingest_opts *opts, db_ingest_stats *stats, util_err *err)
{
    ing g = {.d = d,
             .h = db_priv_handle(d),
             .o = opts,
             .st = stats,
             .err = err,
             .mem_data = data ? data : (const uint8_t *)"",
             .mem_len = len};
    double t0 = now_seconds();
    long warn0 = db_priv_warnings(d);
    struct stat sb;
    memset(stats, 0, sizeof *stats);
    memset(&sb, 0, sizeof sb);
    sb.st_size = (off_t)len;
    stats->paks_seen = 1;
    int rc = pipeline_start(&g.pl, opts->jobs, err);
    if (!rc)
        rc = do_pak(&g, name, &sb);
    if (!rc && g.changed)
        rc = final_pass(&g);
    pipeline_stop(&g.pl);
    sqlite3_finalize(g.entry_batch);
    stats->warnings = db_priv_warnings(d) - warn0;
    stats->seconds = now_seconds() - t0;
    return rc;
}
