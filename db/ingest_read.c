/* ingest_read.c — the ingest's side of reading a PAK: its byte source (a file read with
 * pread, a byte range of a disc image, or db_ingest_mem's bytes), the hash of every byte
 * (--rehash). The tables and entries are read
 * through pak.h's pak_open_src_tables / pak_read_entry_heads / pak_entry_read: an unchanged
 * PAK costs a stat and one read of its tables; a changed one a read of every byte (each
 * entry is hashed). */
#define _GNU_SOURCE /* readahead, preadv2 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <xxhash.h>
#ifdef ANCSDB_XXH_DISPATCH
#include <xxh_x86dispatch.h> /* XXH3 as fast as this CPU allows (CMakeLists.txt) */
#endif

#include "ingest_internal.h"

#define READ_CHUNK (1u << 20) /* bytes hashed per read */

int ing_open(ing *g, const char *file, const char *image, int64_t off, uint64_t len,
             util_src **image_src, util_src **out, util_err *err)
{
    *image_src = NULL;
    if (g->mem_data)
        return util_src_open_mem(out, g->mem_data, g->mem_len, err);
    if (off < 0)
        return util_src_open_file(out, file, err);
    util_src *f = NULL;
    int rc = util_src_open_file(&f, image, err);
    if (rc == 0 && (rc = disc_container_open(image_src, f, ing_cache_bytes(g), NULL, err)) != 0)
        util_src_close(f); /* a plain image is f itself; a container owns f */
    if (rc == 0)
        rc = util_src_open_range(out, *image_src, (uint64_t)off, len, err);
    if (rc) {
        util_src_close(*image_src);
        *image_src = NULL;
    }
    return rc;
}

static size_t run_memory(const ing *g)
{
    return g->o && g->o->memory ? g->o->memory : DB_INGEST_MEMORY;
}

size_t ing_unit_max(const ing *g)
{
    return run_memory(g) / 4;
}

size_t ing_cache_bytes(const ing *g)
{
    size_t m = run_memory(g);
    m /= 32;
    if (m < ((size_t)1 << 20))
        m = (size_t)1 << 20;
    if (m > ((size_t)8 << 20))
        m = (size_t)8 << 20;
    return m;
}

/* Where the kernel may read an item's bytes ahead: its file, and its range in it (len 0:
 * the whole file); for a PAK in a container, the part of the container file that stores the
 * PAK's bytes. 0 when there is none: the bytes are in memory, or the container stores them
 * as nothing. */
static int ahead_plan(const ing *g, const iw_item *it, ing_ahead_item *out)
{
    if (g->mem_data)
        return 0;
    const iw_release *r = &g->L.rels[it->rel];
    uint64_t off = it->off, len = it->len;
    if (!it->file && r->image && r->image->container.kind != DISC_KIND_GCM &&
        (disc_container_span(r->image->src, it->off, it->len, &off, &len) != 0 || len == 0))
        return 0;
    out->file = it->file ? it->file : r->source;
    out->off = it->file ? 0 : (off_t)off;
    out->len = it->file ? 0 : (off_t)len;
    out->open = it->file && !r->has_disc && !g->o->rehash; /* ing_do_pak's lazy is 0 */
    return out->file != NULL;
}

/* The plan's file, opened (-1: only a hint, the read proper reports what is wrong), and
 * its length when the plan takes the whole file. */
static int ahead_open(ing_ahead_item *p)
{
    int fd = open(p->file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat sb;
    if (fd >= 0 && (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))) {
        close(fd);
        fd = -1;
    }
    if (fd >= 0 && p->len == 0)
        p->len = sb.st_size;
    return fd;
}

void ing_prefetch(const ing *g, const iw_item *it)
{
    ing_ahead_item p;
    int fd = ahead_plan(g, it, &p) ? ahead_open(&p) : -1;
    if (fd < 0)
        return;
    (void)posix_fadvise(fd, p.off, p.len, POSIX_FADV_WILLNEED);
    close(fd);
}

/* ---- the read-ahead thread (a first ingest) ------------------------------------------- */

#define AHEAD_CHUNK ((off_t)4 << 20) /* bytes asked of the kernel at once */

/* Whether the byte at off is in the page cache (a read of it would not wait for the disk). */
static int cached(int fd, off_t off)
{
    char c;
    struct iovec v = {&c, 1};
    return preadv2(fd, &v, 1, off, RWF_NOWAIT) == 1;
}

/* Whether the thread is to stop, or to leave item i (the ingest is past it); else waits
 * while i is more than ING_AHEAD_ITEMS ahead (ING_AHEAD_READ when it is not to open it). */
static int ahead_wait(ing_ahead *a, size_t i, int wait)
{
    size_t most = a->items[i].open ? ING_AHEAD_ITEMS : ING_AHEAD_READ;
    pthread_mutex_lock(&a->mu);
    while (wait && !a->quit && i > a->cur + most)
        pthread_cond_wait(&a->cv, &a->mu);
    int leave = a->quit || a->cur > i;
    pthread_mutex_unlock(&a->mu);
    return leave;
}

enum { AHEAD_NONE, AHEAD_OPENING, AHEAD_OPENED, AHEAD_TAKEN };

/* Item i's tables and entry sizes, once the writer is at most ING_AHEAD_PAKS - 1 items
 * before it. */
static void ahead_open_pak(ing_ahead *a, size_t i)
{
    ing_ahead_item *it = &a->items[i];
    pthread_mutex_lock(&a->mu);
    while (!a->quit && it->state == AHEAD_NONE && i > a->cur + ING_AHEAD_PAKS - 1)
        pthread_cond_wait(&a->cv, &a->mu);
    int mine = !a->quit && it->state == AHEAD_NONE;
    if (mine)
        it->state = AHEAD_OPENING;
    pthread_mutex_unlock(&a->mu);
    if (!mine)
        return;
    ing_opened *o = &it->opened;
    util_err_clear(&o->e);
    util_err_clear(&o->info_e);
    o->rc = util_src_open_file(&o->src, it->file, &o->e);
    if (o->rc == 0)
        o->rc = pak_open_src_tables(&o->p, o->src, &o->e);
    if (o->rc == 0)
        o->info_rc = pak_read_entry_heads(o->p, &o->info_e);
    pthread_mutex_lock(&a->mu);
    it->state = AHEAD_OPENED;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
}

static void *ahead_main(void *arg)
{
    ing_ahead *a = arg;
    for (size_t i = 0; i < a->n; i++) {
        if (!a->items[i].file || ahead_wait(a, i, 1))
            continue;
        int fd = ahead_open(&a->items[i]);
        if (fd < 0) {
            if (a->items[i].open) /* its error is the open's to tell */
                ahead_open_pak(a, i);
            continue;
        }
        off_t off = a->items[i].off, len = a->items[i].len;
        /* readahead waits for the disk on this thread, so the next chunk is asked for as
         * soon as this one is in; cached chunks (a warm page cache) cost two reads of a byte */
        for (off_t at = 0; at < len && !ahead_wait(a, i, 0); at += AHEAD_CHUNK) {
            off_t n = len - at < AHEAD_CHUNK ? len - at : AHEAD_CHUNK;
            if (!cached(fd, off + at) || !cached(fd, off + at + n - 1))
                (void)readahead(fd, off + at, (size_t)n);
        }
        close(fd);
        if (a->items[i].open)
            ahead_open_pak(a, i);
    }
    pthread_mutex_lock(&a->mu);
    a->running = 0;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
    return NULL;
}

void ing_ahead_start(ing_ahead *a, const ing *g)
{
    memset(a, 0, sizeof *a);
    if (g->mem_data || g->L.nitems == 0 || !(a->items = calloc(g->L.nitems, sizeof *a->items)))
        return; /* only a hint: without it the ingest reads as it goes */
    a->n = g->L.nitems;
    for (size_t i = 0; i < a->n; i++)
        if (!ahead_plan(g, &g->L.items[i], &a->items[i]))
            a->items[i].file = NULL, a->items[i].open = 0;
    a->items[0].open = 0; /* the writer opens the first at once */
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    a->running = 1;
    a->started = pthread_create(&a->t, NULL, ahead_main, a) == 0;
    if (!a->started) {
        pthread_mutex_destroy(&a->mu);
        pthread_cond_destroy(&a->cv);
        free(a->items);
        a->items = NULL;
    }
}

void ing_ahead_at(ing_ahead *a, size_t item)
{
    if (!a->started)
        return;
    pthread_mutex_lock(&a->mu);
    a->cur = item;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
}

int ing_ahead_take(ing_ahead *a, size_t i, ing_opened *out)
{
    if (!a->started || i >= a->n || !a->items[i].open)
        return 0;
    ing_ahead_item *it = &a->items[i];
    pthread_mutex_lock(&a->mu);
    /* it opens every planned item in order: one not reached yet is waited for too */
    while (it->state == AHEAD_OPENING || (it->state == AHEAD_NONE && a->running))
        pthread_cond_wait(&a->cv, &a->mu);
    int got = it->state == AHEAD_OPENED;
    if (got)
        *out = it->opened;
    it->state = AHEAD_TAKEN;
    memset(&it->opened, 0, sizeof it->opened);
    pthread_mutex_unlock(&a->mu);
    return got;
}

const pak_file *ing_ahead_peek(ing_ahead *a, size_t i)
{
    if (!a->started || i >= a->n || !a->items[i].open)
        return NULL;
    const ing_ahead_item *it = &a->items[i];
    pthread_mutex_lock(&a->mu);
    const pak_file *p = it->state == AHEAD_OPENED && it->opened.rc == 0 && it->opened.info_rc == 0
                            ? it->opened.p
                            : NULL;
    pthread_mutex_unlock(&a->mu);
    return p;
}

void ing_ahead_stop(ing_ahead *a)
{
    if (!a->started)
        return;
    pthread_mutex_lock(&a->mu);
    a->quit = 1;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
    pthread_join(a->t, NULL);
    for (size_t i = 0; i < a->n; i++) { /* opened, not taken: the run stopped before */
        pak_close(a->items[i].opened.p);
        util_src_close(a->items[i].opened.src);
    }
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->cv);
    free(a->items);
    a->items = NULL;
    a->started = 0;
}

int ing_hash_all(const util_src *src, uint64_t *out, util_err *err)
{
    uint64_t size = util_src_size(src);
    uint8_t *tmp = malloc(READ_CHUNK);
    XXH3_state_t *h = XXH3_createState();
    if (!tmp || !h) {
        free(tmp);
        XXH3_freeState(h);
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    }
    XXH3_64bits_reset(h);
    uint64_t off = 0;
    int rc = 0;
    while (off < size && !rc) {
        size_t want = size - off < READ_CHUNK ? (size_t)(size - off) : READ_CHUNK;
        rc = util_src_read(src, tmp, off, want, err);
        XXH3_64bits_update(h, tmp, want);
        off += want;
    }
    *out = XXH3_64bits_digest(h);
    XXH3_freeState(h);
    free(tmp);
    return rc;
}
