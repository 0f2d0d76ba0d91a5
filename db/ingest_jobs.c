/* ingest_jobs.c — entry jobs and the worker threads that run them. With --jobs N > 1, N
 * workers read and hash every entry of the current PAK and decode its ANCS/EVNT (no SQLite)
 * into a ring of job slots while the one writer thread writes rows and consumes the jobs in
 * entry order. A worker's decode is a guess made when the job is handed out; the writer
 * looks the content up itself and decodes on its own thread when the guess was wrong, so
 * the rows are those of --jobs 1, where the writer runs every job itself. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>
#ifdef ANCSDB_XXH_DISPATCH
#include <xxh_x86dispatch.h> /* XXH3 as fast as this CPU allows (CMakeLists.txt) */
#endif

#include "ingest_internal.h"

int ing_decoded_type(uint32_t type)
{
    return type == UTIL_FCC_ANCS || type == UTIL_FCC_EVNT || type == UTIL_FCC_MLVL ||
           type == UTIL_FCC_STRG;
}

const char *ing_type_name(uint32_t type)
{
    switch (type) {
    case UTIL_FCC_ANCS:
        return "ANCS";
    case UTIL_FCC_EVNT:
        return "EVNT";
    case UTIL_FCC_MLVL:
        return "MLVL";
    case UTIL_FCC_STRG:
        return "STRG";
    default:
        return "?";
    }
}

void ing_job_decode(ing_job *j)
{
    const pak_entry *e = &j->p->entries[j->entry];
    /* Shared tables can make a STRG decode into many times its size: its decoder keeps within
     * its arena's limit (a decode error past it). The other decoders take what they need. */
    j->arena.limit = e->type == UTIL_FCC_STRG ? j->budget : 0;
    if (e->type == UTIL_FCC_ANCS)
        j->dec_rc = ancs_decode(&j->set, j->buf, j->len, j->game, &j->arena, &j->e);
    else if (e->type == UTIL_FCC_MLVL)            /* docs/formats.md §11 */
        j->dec_rc = world_is_mlvl(j->buf, j->len) /* else not decoded: ing_finish_entry */
                        ? world_mlvl_decode(&j->mlvl, j->buf, j->len, &j->arena, &j->e)
                        : UTIL_EFORMAT;
    else if (e->type == UTIL_FCC_STRG) /* §12 */
        j->dec_rc = world_is_strg(j->buf, j->len)
                        ? world_strg_decode(&j->strg, j->buf, j->len, &j->arena, &j->e)
                        : UTIL_EFORMAT;
    else
        j->dec_rc = ancs_evnt_decode(&j->ev, j->buf, j->len, j->game, &j->arena, &j->e);
    j->decoded = 1;
}

/* ---- large entries --------------------------------------------------------------------- */

/* An entry that is not decoded is read, inflated and hashed a window at a time
 * (pak_entry_stream: ING_STREAM_NEED bytes, whatever its size) when it is stored uncompressed
 * and over ING_LARGE bytes (no slower than whole), when it is compressed and holds over
 * ING_LARGE_WHOLE bytes whole (stored and inflated), or when it would not fit the memory
 * budget; and a compressed one of over ING_LARGE bytes whole when the large entries held
 * whole would then hold over ING_LARGE_WHOLE bytes together. It is then inflated by zlib's
 * streaming interface, about half as fast as libdeflate, which inflates the others whole: a
 * disc's areas and textures, of megabytes, would otherwise add many megabytes each to the
 * peak RSS (docs/benchmark.md: two workers each holding an entry of 12 MiB took a first
 * ingest from 54 to 72-74 MiB). Either way gives the same content (run_streamed). */
#define ING_LARGE       (1u << 20)
#define ING_LARGE_WHOLE (8u << 20)
#define ING_STREAM_NEED (2u * PAK_STREAM_WINDOW + (64u << 10))

/* Bytes entry e holds whole: stored and inflated. */
static size_t whole_need(const pak_entry *e)
{
    return (size_t)e->size + (e->compressed ? (size_t)e->decompressed_size : 0);
}

/* Bytes entry e needs in memory read whole: its stored bytes, and its inflated bytes twice
 * (the inflated buffer and the decoder's copy of it). */
static size_t held_need(const pak_entry *e)
{
    size_t inflated = e->compressed ? (size_t)e->decompressed_size : (size_t)e->size;
    return (size_t)e->size + 2 * inflated;
}

/* Whether entry e is read a window at a time whatever the budget. */
static int always_streamed(const pak_entry *e)
{
    return !ing_decoded_type(e->type) &&
           (e->compressed ? whole_need(e) > ING_LARGE_WHOLE : e->size > ING_LARGE);
}

size_t ing_entry_need(const pak_entry *e)
{
    return always_streamed(e) ? ING_STREAM_NEED : held_need(e);
}

/* Whether large compressed entry e may be inflated whole now: if so its bytes count among
 * those held (until large_done). */
static int large_whole(ing_pipeline *pl, const pak_entry *e)
{
    if (!pl)
        return 1;
    size_t need = whole_need(e);
    if (pl->nthreads > 0)
        pthread_mutex_lock(&pl->mu);
    int ok = need <= ING_LARGE_WHOLE - pl->large;
    if (ok)
        pl->large += need;
    if (pl->nthreads > 0)
        pthread_mutex_unlock(&pl->mu);
    return ok;
}

static void large_done(ing_pipeline *pl, const pak_entry *e)
{
    if (!pl)
        return;
    if (pl->nthreads > 0)
        pthread_mutex_lock(&pl->mu);
    pl->large -= whole_need(e);
    if (pl->nthreads > 0)
        pthread_mutex_unlock(&pl->mu);
}

/* XXH3-64 of the bytes handed to it; with `content`, of all but their trailing 0xFF bytes,
 * which wait until a byte after them shows they are not the end. */
typedef struct hash_sink {
    XXH3_state_t *st;
    int content;
    uint64_t ff;
} hash_sink;

static int hash_bytes(void *ctx, const uint8_t *b, size_t n, util_err *err)
{
    (void)err;
    hash_sink *h = ctx;
    size_t k = n;
    if (h->content)
        while (k > 0 && b[k - 1] == 0xFF)
            k--;
    if (k == 0) {
        h->ff += n;
        return 0;
    }
    if (h->ff > 0) {
        uint8_t ffs[512];
        memset(ffs, 0xFF, sizeof ffs);
        for (size_t m; h->ff > 0; h->ff -= m) {
            m = h->ff < sizeof ffs ? (size_t)h->ff : sizeof ffs;
            XXH3_64bits_update(h->st, ffs, m);
        }
    }
    XXH3_64bits_update(h->st, b, k);
    h->ff = n - k;
    return 0;
}

/* XXH3-64 of entry i's stored bytes (inflate 0) or of its content (1: inflated, without the
 * trailing 0xFF bytes), read a window at a time. */
static int hash_streamed(const pak_file *p, uint32_t i, int inflate, XXH3_state_t *st,
                         uint64_t *out, util_err *err)
{
    hash_sink h = {.st = st, .content = inflate};
    XXH3_64bits_reset(st);
    int rc = pak_entry_stream(p, i, inflate, PAK_MAX_INFLATE, hash_bytes, &h, err);
    if (rc == 0)
        *out = XXH3_64bits_digest(st);
    return rc;
}

/* XXH3-64 of entry i's content (*content) and of its stored bytes (*stored), in one reading. */
static int hash_both(const pak_file *p, uint32_t i, XXH3_state_t *st, XXH3_state_t *st2,
                     uint64_t *content, uint64_t *stored, util_err *err)
{
    hash_sink c = {.st = st, .content = 1}, s = {.st = st2, .content = 0};
    XXH3_64bits_reset(st);
    XXH3_64bits_reset(st2);
    int rc = pak_entry_stream_both(p, i, PAK_MAX_INFLATE, hash_bytes, &c, hash_bytes, &s, err);
    if (rc == 0) {
        *content = XXH3_64bits_digest(st);
        *stored = XXH3_64bits_digest(st2);
    }
    return rc;
}

/* ---- jobs ------------------------------------------------------------------------------ */

/* An entry that is not decoded and holds at most ING_SCRATCH_MAX bytes stored and as many
 * inflated is read and inflated into buffers the thread keeps from job to job, not into
 * new ones it frees at once: malloc gave such buffers back and took them again (at 10x real
 * size 0.3 s of CPU in page faults and copies into new pages, docs/benchmark.md). A thread
 * keeps at most two such buffers (2 MiB) and gives them back when it has no more jobs to
 * run (ing_scratch_free). */
#define ING_SCRATCH_MAX ING_LARGE

typedef struct {
    uint8_t *stored;   /* ING_SCRATCH_MAX bytes once allocated */
    uint8_t *inflated; /* inflated_cap bytes */
    size_t inflated_cap;
} scratch_bufs;

static _Thread_local scratch_bufs scratch;

void ing_scratch_free(void)
{
    free(scratch.stored);
    free(scratch.inflated);
    memset(&scratch, 0, sizeof scratch);
}

/* After a job in the scratch buffers: an inflated buffer that grew past ING_SCRATCH_MAX (its
 * entry's sizes said less, and the stream held more) goes back at once. */
static void scratch_trim(void)
{
    if (scratch.inflated_cap > ING_SCRATCH_MAX)
        ing_scratch_free();
}

static int fits_scratch(const pak_entry *e)
{
    return e->size <= ING_SCRATCH_MAX &&
           (!e->compressed || e->decompressed_size <= ING_SCRATCH_MAX);
}

/* Entry e (fits_scratch): its stored bytes into the thread's scratch buffer. */
static int scratch_read(ing_job *j, const pak_entry *e, uint8_t **out, size_t *len)
{
    if (!scratch.stored && !(scratch.stored = malloc(ING_SCRATCH_MAX)))
        return util_fail(&j->e, UTIL_ENOMEM, e->offset, "out of memory for %u bytes",
                         ING_SCRATCH_MAX);
    int rc = pak_entry_read_into(j->p, j->entry, scratch.stored, &j->e);
    *out = rc ? NULL : scratch.stored;
    *len = rc ? 0 : e->size;
    return rc;
}

/* ing_job_run for an entry held whole: read, inflated, hashed, decoded if asked. */
static void run_whole(ing_job *j, const pak_entry *e, int keep)
{
    uint8_t *stored = j->pre;
    size_t slen = j->pre_len;
    j->pre = NULL;
    int in_scratch = !stored && !keep && fits_scratch(e);
    if (!stored && (in_scratch ? scratch_read(j, e, &stored, &slen)
                               : pak_entry_read(j->p, j->entry, &stored, &slen, &j->e)) != 0)
        return;
    if (!e->compressed) {
        pak_entry sized = *e;
        pak_entry_sizes_from(&sized, stored, slen);
        j->unpadded = sized.decompressed_size;
        j->has_unpadded = 1;
    }
    if (e->compressed) {
        j->stored_hash = XXH3_64bits(stored, slen);
        j->has_stored_hash = 1;
        if (!keep && j->pl && ing_cache_get(j->pl, j->stored_hash, e->size, &j->hash)) {
            if (!in_scratch)
                free(stored);
            j->hashed = 1;
            return;
        }
        int rc;
        if (in_scratch) {
            rc = pak_inflate_reuse(&scratch.inflated, &scratch.inflated_cap, &j->len, stored, slen,
                                   PAK_MAX_INFLATE, e->offset, &j->e);
            if (rc == 0)
                j->buf = scratch.inflated;
        } else {
            rc = pak_inflate_bytes(&j->buf, &j->len, stored, slen, 1, PAK_MAX_INFLATE, e->offset,
                                   &j->e);
            free(stored);
        }
        if (rc != 0) {
            if (in_scratch)
                scratch_trim();
            return;
        }
    } else {
        j->buf = stored;
        j->len = slen;
    }
    j->inflated = 1;
    /* Stored copies keep their 0xFF padding and compressed ones do not: a content is the
     * bytes without trailing 0xFF bytes. */
    size_t hlen = j->len;
    while (hlen > 0 && j->buf[hlen - 1] == 0xFF)
        hlen--;
    j->hlen = hlen;
    j->hash = XXH3_64bits(j->buf, hlen);
    j->hashed = 1;
    /* known at once to every later job: the same stored bytes in a later PAK, hashed ahead
     * before the writer reaches this entry, are not inflated again */
    if (j->has_stored_hash && j->pl)
        ing_cache_put(j->pl, j->stored_hash, e->size, j->hash);
    if (!keep) {
        if (!in_scratch)
            free(j->buf);
        else
            scratch_trim();
        j->buf = NULL;
        return;
    }
    if (j->want_decode)
        ing_job_decode(j);
}

/* ing_job_run for an entry read a window at a time: the stored bytes hashed, and (unless
 * their content is known) the content; a stored entry's size without its padding. */
static void run_streamed(ing_job *j, const pak_entry *e)
{
    XXH3_state_t *st2 = NULL; /* the stored bytes' hash, read with the content's */
    XXH3_state_t *st = XXH3_createState();
    if (!st) {
        util_fail(&j->e, UTIL_ENOMEM, e->offset, "out of memory for a hash state");
        return;
    }
    /* A content may be known (ing_cache_get) only when an entry of this stored size was seen:
     * then the stored bytes are hashed first, so that a known content is not inflated; else
     * both hashes come from one reading (through a disc container, each block decoded once). */
    if (e->compressed && j->pl &&
        (e->size < ING_SIZES_MIN || ing_cache_size_seen(j->pl, e->size))) {
        if (hash_streamed(j->p, j->entry, 0, st, &j->stored_hash, &j->e) != 0)
            goto done;
        j->has_stored_hash = 1;
        if (ing_cache_get(j->pl, j->stored_hash, e->size, &j->hash)) {
            j->hashed = 1;
            goto done;
        }
    } else if (e->compressed) {
        if (!(st2 = XXH3_createState())) {
            util_fail(&j->e, UTIL_ENOMEM, e->offset, "out of memory for a hash state");
            goto done;
        }
    } else {
        pak_entry sized;
        if (pak_entry_sizes_read(j->p, j->entry, &sized, &j->e) != 0)
            goto done;
        j->unpadded = sized.decompressed_size;
        j->has_unpadded = 1;
    }
    if (st2 ? hash_both(j->p, j->entry, st, st2, &j->hash, &j->stored_hash, &j->e) != 0
            : hash_streamed(j->p, j->entry, 1, st, &j->hash, &j->e) != 0) {
        /* zlib refuses some damaged streams libdeflate inflates (found by fuzzing: a
         * literal/length code of 286 or 287): such an entry is inflated whole, as it might
         * have been, when the budget holds it (else it would have been a load error that
         * way too). So its content, or its error, never depends on the way it went. */
        int refused = j->e.code == UTIL_EFORMAT || j->e.code == UTIL_ETRUNC;
        if (e->codec == PAK_CODEC_ZLIB && refused && (!j->budget || held_need(e) <= j->budget)) {
            util_err_clear(&j->e);
            run_whole(j, e, 0);
        }
        goto done;
    }
    j->has_stored_hash |= st2 != NULL;
    j->inflated = 1;
    j->hashed = 1;
    if (j->has_stored_hash && j->pl)
        ing_cache_put(j->pl, j->stored_hash, e->size, j->hash);
done:
    XXH3_freeState(st);
    XXH3_freeState(st2);
}

/* Read and hash the entry, inflating it unless its stored bytes are known (ANCS, EVNT, MLVL
 * and STRG are always inflated: they may be decoded); decode it when asked to. */
void ing_job_run(ing_job *j)
{
    const pak_entry *e = &j->p->entries[j->entry];
    int keep = ing_decoded_type(e->type);
    util_err_clear(&j->e);
    if (!e->in_bounds || (j->lazy_p && j->info == ING_SIZES_FAILED))
        return; /* sizes not read: the writer fails the PAK */
    int over = j->budget && held_need(e) > j->budget;
    int large = !keep && whole_need(e) > ING_LARGE;
    if (large && !over && !always_streamed(e) && large_whole(j->pl, e)) {
        run_whole(j, e, keep);
        large_done(j->pl, e);
    } else if (large || (!keep && over)) {
        free(j->pre); /* read again a window at a time */
        j->pre = NULL;
        j->pre_len = 0;
        run_streamed(j, e);
    } else if (over) {
        util_fail(&j->e, UTIL_EFORMAT, e->offset,
                  "entry needs %zu bytes in memory (%" PRIu32 " stored, %" PRIu32
                  " inflated, twice: the decoder reads a copy), more than the memory budget "
                  "of %zu MiB (ingest --memory)",
                  held_need(e), e->size, e->compressed ? e->decompressed_size : e->size,
                  j->budget >> 20);
    } else {
        run_whole(j, e, keep);
    }
}

void ing_job_set(ing_job *j, const pak_file *p, uint32_t entry, ancs_game game, int want)
{
    j->p = p;
    j->entry = entry;
    j->game = game;
    j->want_decode = want;
}

/* Whether job j's bytes fit beside those in flight (an entry over the whole budget fails
 * without memory, so it always fits). */
static int fits(const ing_pipeline *pl, const ing_job *j)
{
    size_t need = ing_entry_need(&j->p->entries[j->entry]);
    return need > pl->budget || pl->used == 0 || need <= pl->budget - pl->used;
}

/* Under the lock: whether job j's sizes are in (or could not be read). Until then a worker
 * may be writing them, outside the lock: nothing else reads them. */
static int sized(const ing_job *j)
{
    return !j->lazy_p || j->info == ING_SIZES_READ || j->info == ING_SIZES_FAILED;
}

/* Whether job j can be claimed: its sizes are in and fit. */
static int ready(const ing_pipeline *pl, const ing_job *j)
{
    return sized(j) && fits(pl, j);
}

/* Freeing on the writer what a worker allocated takes that worker's malloc arena lock, and
 * on 2 cores its holder is often a worker the scheduler has just put aside: at 10x real size
 * the writer slept 1.4 s of its ~11 s in such frees (`perf sched`). So the writer leaves a
 * decoded entry's bytes and decoded structs in its slot, and the worker that claims the slot
 * next frees them before its job, up to DEFER_MAX bytes at once (beyond that, or over
 * DEFER_ONE_MAX for one job, the writer frees them itself). */
#define DEFER_MAX     (4u << 20)
#define DEFER_ONE_MAX (1u << 20)

typedef struct dead_mem {
    uint8_t *buf, *pre;
    util_arena arena;
} dead_mem;

static void dead_free(dead_mem *d)
{
    free(d->buf);
    free(d->pre);
    util_arena_free(&d->arena);
}

/* Under the lock, by the worker claiming j: what j's slot holds to free (j keeps none). */
static dead_mem dead_take(ing_job *j)
{
    dead_mem d = {.buf = j->dead_buf, .pre = j->dead_pre};
    util_arena_move(&d.arena, &j->dead_arena);
    j->dead_buf = j->dead_pre = NULL;
    return d;
}

/* On the writer: free what j's slot still holds (its job was never claimed), count what the
 * claiming worker freed, then leave j's results there or free them. */
static void clear_mem(ing_job *j)
{
    ing_pipeline *pl = j->owner;
    dead_mem left = dead_take(j);
    dead_free(&left);
    if (pl) {
        pl->deferred -= j->dead_bytes;
        j->dead_bytes = 0;
    }
    size_t bytes = (j->buf ? j->len : 0) + (j->pre ? j->pre_len : 0) + j->arena.total;
    if (pl && pl->nthreads > 0 && !pl->quit && bytes <= DEFER_ONE_MAX &&
        pl->deferred + bytes <= DEFER_MAX) {
        j->dead_buf = j->buf;
        j->dead_pre = j->pre;
        util_arena_move(&j->dead_arena, &j->arena);
        j->dead_bytes = bytes;
        pl->deferred += bytes;
    } else {
        free(j->buf);
        free(j->pre);
        util_arena_free(&j->arena);
    }
}

/* Under the lock: the budget of the jobs the writer consumed given back. The workers wait for
 * room in the budget when the next job to claim does not fit; any other wait of theirs ends
 * elsewhere (ing_pipeline_release wakes them for jobs handed out, a batch at a time). */
static void unreserve(ing_pipeline *pl)
{
    if (!pl->unreserved)
        return;
    const ing_job *next = pl->claim < pl->limit ? &pl->ring[pl->claim % pl->cap] : NULL;
    int blocked = pl->idle && next && sized(next) && !fits(pl, next);
    pl->used -= pl->unreserved;
    pl->unreserved = 0;
    if (blocked && fits(pl, next))
        pthread_cond_broadcast(&pl->work);
}

/* Free the results; the slot is ready for the next job. A ring job's budget is given back when the
 * writer next takes the lock (it does for every job it waits for, and before it sleeps), not with a
 * lock of its own here: the pipeline's lock taken three times per entry by the writer and once by a
 * worker, on 2 cores, often found its holder put aside by the scheduler. */
void ing_job_clear(ing_job *j)
{
    if (j->owner && j->reserved) {
        ing_pipeline *pl = j->owner;
        if (pl->nthreads > 0 && !pl->quit) {
            pl->unreserved += j->reserved;
        } else {
            pthread_mutex_lock(&pl->mu);
            pl->unreserved += j->reserved;
            unreserve(pl);
            pthread_mutex_unlock(&pl->mu);
        }
    }
    j->reserved = 0;
    clear_mem(j);
    j->buf = NULL;
    j->pre = NULL;
    j->pre_len = 0;
    j->len = j->hlen = 0;
    j->done = j->inflated = j->decoded = j->dec_rc = j->hashed = j->has_stored_hash = 0;
    j->has_unpadded = 0;
    j->lazy_p = NULL;
    j->info = ING_SIZES_TO_READ;
}

/* Under the lock: the first handed-out job not claimed yet whose sizes no one reads yet. */
static ing_job *sizes_to_read(ing_pipeline *pl)
{
    for (size_t k = pl->claim; k < pl->limit; k++) {
        ing_job *j = &pl->ring[k % pl->cap];
        if (j->lazy_p && j->info == ING_SIZES_TO_READ)
            return j;
    }
    return NULL;
}

/* Entries of at most this many stored bytes are read whole with their sizes: one read, not
 * two (at 10x, the sizes' own small reads cost as much CPU as reading the entries). Bytes so
 * read wait outside the memory budget, at most this much per slot of the ring. */
#define ING_PRE_MAX (16u << 10)

/* Job j's sizes; a small entry's bytes too, kept for its job (unless that read fails:
 * then the sizes alone, as for a large entry, and the job's own read says why). A large
 * stored entry needs none: its stored size is its need, and the job's bytes give the rest. */
static int read_sizes_of(ing_job *j)
{
    const pak_entry *e = &j->lazy_p->entries[j->entry];
    if (e->size > ING_PRE_MAX && !e->compressed && e->in_bounds)
        return 0;
    if (e->size <= ING_PRE_MAX) {
        util_err ignored;
        util_err_clear(&ignored);
        if (pak_entry_read_sized(j->lazy_p, j->entry, &j->pre, &j->pre_len, &ignored) == 0)
            return 0;
    }
    return pak_read_entry_info_one(j->lazy_p, j->entry, &j->info_e);
}

/* Under the lock, which it leaves and takes again: read job j's sizes. A worker that cannot
 * claim the next job reads those of a later one, so that both workers decode a container's
 * blocks (the bytes read here are cached for the job's own read). */
static void read_sizes(ing_pipeline *pl, ing_job *j)
{
    j->info = ING_SIZES_READING;
    pl->info_reading++;
    pthread_mutex_unlock(&pl->mu);
    util_err_clear(&j->info_e);
    int rc = read_sizes_of(j);
    pthread_mutex_lock(&pl->mu);
    j->info = rc ? ING_SIZES_FAILED : ING_SIZES_READ;
    pl->info_reading--;
    if (pl->idle)
        pthread_cond_broadcast(&pl->work);
    if (pl->draining && !pl->info_reading)
        pthread_cond_broadcast(&pl->done);
}

/* ---- entries hashed ahead of their jobs -------------------------------------------------- */

/* Under the lock: stop hashing ahead in slot s, wait for the workers still at it, drop its
 * results. The writer alone moves or empties a slot, so s stays the one waited for. */
static void ahead_drop(ing_pipeline *pl, ing_ahead_pak *s)
{
    s->n = 0; /* no more started */
    while (s->running)
        pthread_cond_wait(&pl->done, &pl->mu);
    free(s->ah);
    memset(s, 0, sizeof *s);
}

/* Under the lock: slot s for p's entries (none hashed yet), and idle workers woken. */
static void ahead_fill(ing_pipeline *pl, ing_ahead_pak *s, const pak_file *p, size_t base)
{
    ing_ahead_hash *ah = calloc(p->entry_count, sizeof *ah); /* none: no hashing ahead */
    if (!ah)
        return;
    *s = (ing_ahead_pak){.ah = ah, .p = p, .base = base, .n = p->entry_count};
    if (pl->idle)
        pthread_cond_broadcast(&pl->work);
}

/* Under the lock: the slot of p, or NULL. */
static ing_ahead_pak *ahead_slot(ing_pipeline *pl, const pak_file *p)
{
    for (int i = 0; i < ING_AHEAD_PAKS; i++)
        if (pl->ah[i].ah && pl->ah[i].p == p)
            return &pl->ah[i];
    return NULL;
}

/* Under the lock: slot i emptied (it must be), the later ones moved down into it, so that
 * the next PAKs stay in order after the first free slot. */
static void ahead_close_gap(ing_pipeline *pl, int i)
{
    for (; i + 1 < ING_AHEAD_PAKS; i++)
        pl->ah[i] = pl->ah[i + 1];
    memset(&pl->ah[ING_AHEAD_PAKS - 1], 0, sizeof pl->ah[0]);
}

void ing_pipeline_ahead_begin(ing_pipeline *pl, const pak_file *p, size_t base)
{
    if (pl->nthreads == 0 || p->entry_count == 0)
        return;
    pthread_mutex_lock(&pl->mu);
    if (pl->ah[0].ah) /* ended first by its PAK: only to be safe */
        ahead_drop(pl, &pl->ah[0]);
    ing_ahead_pak *s = ahead_slot(pl, p);
    if (s) { /* a next PAK, begun: what is hashed of it stays, first; the others after it */
        int i = (int)(s - pl->ah);
        pl->ah[0] = *s;
        pl->ah[0].base = base;
        memset(s, 0, sizeof *s);
        ahead_close_gap(pl, i);
    } else {
        ahead_fill(pl, &pl->ah[0], p, base);
    }
    pthread_mutex_unlock(&pl->mu);
}

void ing_pipeline_ahead_next(ing_pipeline *pl, const pak_file *p)
{
    if (pl->nthreads == 0 || p->entry_count == 0)
        return;
    pthread_mutex_lock(&pl->mu);
    if (!ahead_slot(pl, p))
        for (int i = 1; i < ING_AHEAD_PAKS; i++)
            if (!pl->ah[i].ah) {
                ahead_fill(pl, &pl->ah[i], p, SIZE_MAX);
                break;
            }
    pthread_mutex_unlock(&pl->mu);
}

void ing_pipeline_ahead_end(ing_pipeline *pl, const pak_file *p)
{
    if (pl->nthreads == 0)
        return;
    pthread_mutex_lock(&pl->mu);
    for (int i = ING_AHEAD_PAKS - 1; i >= 0; i--)
        if (pl->ah[i].ah && (!p || pl->ah[i].p == p)) {
            ahead_drop(pl, &pl->ah[i]);
            if (i > 0)
                ahead_close_gap(pl, i);
        }
    pthread_mutex_unlock(&pl->mu);
}

/* Under the lock: the next entry of slot s to hash ahead, or SIZE_MAX. Only entries not
 * handed out yet (from limit on), not decoded (their jobs keep their bytes), within the file,
 * and whose bytes fit the budget beside those in flight. */
static size_t ahead_candidate(ing_pipeline *pl, ing_ahead_pak *s)
{
    size_t k = s->next;
    if (s->base != SIZE_MAX && pl->limit > s->base && pl->limit - s->base > k)
        k = pl->limit - s->base;
    for (; k < s->n; k++) {
        const pak_entry *e = &s->p->entries[k];
        if (s->ah[k].state == ING_AH_NONE && e->in_bounds && !ing_decoded_type(e->type))
            break;
    }
    s->next = k;
    if (k >= s->n)
        return SIZE_MAX;
    size_t need = ing_entry_need(&s->p->entries[k]);
    if (need > pl->budget || (pl->used && need > pl->budget - pl->used))
        return SIZE_MAX; /* its job will fail it, or there is no room now */
    return k;
}

/* Under the lock: the slot with an entry to hash ahead (*k), the PAKs in their order. */
static ing_ahead_pak *ahead_pick(ing_pipeline *pl, size_t *k)
{
    for (int i = 0; i < ING_AHEAD_PAKS; i++)
        if (pl->ah[i].ah && (*k = ahead_candidate(pl, &pl->ah[i])) != SIZE_MAX)
            return &pl->ah[i];
    return NULL;
}

/* Under the lock, which it leaves and takes again: hash entry k of slot s ahead of its job.
 * Meanwhile the writer may begin or end another PAK, which moves the slot (not its
 * results): it is found again by them. */
static void hash_ahead(ing_pipeline *pl, ing_ahead_pak *s, size_t k)
{
    ing_ahead_hash *ah = s->ah;
    ing_ahead_hash *a = &ah[k];
    size_t need = ing_entry_need(&s->p->entries[k]);
    a->state = ING_AH_RUNNING;
    s->next = k + 1;
    s->running++;
    pl->used += need;
    ing_job j;
    memset(&j, 0, sizeof j);
    util_arena_init(&j.arena);
    j.budget = pl->budget;
    j.pl = pl;
    ing_job_set(&j, s->p, (uint32_t)k, ANCS_GAME_MP1, 0); /* not decoded: no game */
    pthread_mutex_unlock(&pl->mu);
    ing_job_run(&j);
    free(j.buf);
    util_arena_free(&j.arena);
    pthread_mutex_lock(&pl->mu);
    for (int i = 0; i < ING_AHEAD_PAKS; i++)
        if (pl->ah[i].ah == ah)
            s = &pl->ah[i];
    if (j.hashed) {
        a->hash = j.hash;
        a->stored_hash = j.stored_hash;
        a->has_stored_hash = (uint8_t)j.has_stored_hash;
        a->inflated = (uint8_t)j.inflated;
        a->unpadded = j.unpadded;
        a->has_unpadded = (uint8_t)j.has_unpadded;
        a->state = ING_AH_DONE;
    } else {
        a->state = ING_AH_FAILED; /* its job reads it again and says why */
    }
    pl->used -= need;
    s->running--;
    /* a claimed job may wait for these results; the next job may wait for this room; the
     * writer may wait for the last of these to end (ahead_drop) */
    if (pl->ah_waiting || pl->idle)
        pthread_cond_broadcast(&pl->work);
    if (!s->running)
        pthread_cond_broadcast(&pl->done);
}

/* Under the lock: a claimed job whose entry was hashed ahead takes its results (after
 * waiting for them if they are still being made): 1; else 0, and the job runs. */
static int take_ahead(ing_pipeline *pl, ing_job *j)
{
    ing_ahead_pak *s = &pl->ah[0];
    if (!s->ah || j->p != s->p || j->entry >= s->n)
        return 0;
    ing_ahead_hash *a = &s->ah[j->entry];
    while (a->state == ING_AH_RUNNING) {
        pl->ah_waiting++;
        pthread_cond_wait(&pl->work, &pl->mu);
        pl->ah_waiting--;
    }
    if (a->state != ING_AH_DONE)
        return 0;
    j->hash = a->hash;
    j->stored_hash = a->stored_hash;
    j->has_stored_hash = a->has_stored_hash;
    j->inflated = a->inflated;
    j->unpadded = a->unpadded;
    j->has_unpadded = a->has_unpadded;
    j->hashed = 1;
    return 1;
}

static void *worker_main(void *arg)
{
    ing_pipeline *pl = arg;
    pthread_mutex_lock(&pl->mu);
    for (;;) {
        /* Jobs are claimed in order, each once its bytes fit the budget beside those of the
         * jobs claimed before it (which the writer consumes and frees first): no deadlock,
         * and never more than the budget in flight (one entry alone may use all of it). A
         * job whose sizes are not in yet has them read first, by whichever worker is free. */
        while (!pl->quit &&
               (pl->claim >= pl->limit || !ready(pl, &pl->ring[pl->claim % pl->cap]))) {
            ing_job *r = sizes_to_read(pl);
            if (r) {
                read_sizes(pl, r);
                continue;
            }
            size_t k;
            ing_ahead_pak *s = pl->claim >= pl->limit ? ahead_pick(pl, &k) : NULL;
            if (s) {
                hash_ahead(pl, s, k);
                continue;
            }
            pl->idle++;
            if (pl->waiting)
                pthread_cond_broadcast(&pl->done); /* the writer stops waiting for more */
            pthread_cond_wait(&pl->work, &pl->mu);
            pl->idle--;
        }
        if (pl->quit)
            break;
        ing_job *j = &pl->ring[pl->claim++ % pl->cap];
        dead_mem dead = dead_take(j);
        if (!take_ahead(pl, j)) {
            size_t need = ing_entry_need(&j->p->entries[j->entry]);
            if (need <= pl->budget) {
                j->reserved = need;
                pl->used += need;
            }
            pthread_mutex_unlock(&pl->mu);
            dead_free(&dead);
            ing_job_run(j);
            pthread_mutex_lock(&pl->mu);
        } else if (dead.buf || dead.pre || dead.arena.head) {
            pthread_mutex_unlock(&pl->mu);
            dead_free(&dead);
            pthread_mutex_lock(&pl->mu);
        }
        j->done = 1;
        if (pl->waiting && pl->ring[pl->wseq % pl->cap].done && pl->ring[pl->wend % pl->cap].done)
            pthread_cond_broadcast(&pl->done);
    }
    pthread_mutex_unlock(&pl->mu);
    ing_scratch_free();
    return NULL;
}

#define BATCH 16
/* Job slots per worker. The workers run ahead of the writer by at most the ring (and the
 * memory budget): a ring of two batches let them idle whenever the writer spent a while on
 * one entry (an ANCS's thousands of rows), and a first ingest of the 1x PAK folders spent
 * ~0.15 s longer in its PAKs. At 10x real size 128 slots per worker still left each worker
 * idle about 3 s of the PAK phase, every time for want of a job handed out; 256 leave less,
 * 512 less again but took the peak RSS to 64 MiB (docs/benchmark.md). A slot without a job
 * is 1.3 KB. Past the ring, a worker hashes the PAK's entries ahead of their jobs
 * (ing_pipeline_ahead_begin): with that, each worker of a 10x real-size ingest waited about
 * 1.4 s of the PAK phase, against 4.3 s without; and then the next PAKs' entries
 * (ing_pipeline_ahead_next, up to ING_AHEAD_PAKS - 1 of them), though in that corpus the
 * workers still wait about 1 s each, at the end, on the writer's rows of MP2's PAKs
 * (docs/benchmark.md). */
#ifdef ANCSDB_RING_PER_WORKER
#define RING_PER_WORKER ANCSDB_RING_PER_WORKER /* the test build's (CMakeLists.txt) */
#else
#define RING_PER_WORKER 256
#endif

/* Start `jobs` worker threads when jobs > 1 (fewer when threads cannot be made; with none
 * the writer does the work). */
int ing_pipeline_start(ing_pipeline *pl, int jobs, size_t budget, util_err *err)
{
    memset(pl, 0, sizeof *pl);
    pl->budget = budget ? budget : DB_INGEST_MEMORY;
    if (jobs < 1)
        jobs = 1;
    pl->cap = jobs > 1 ? (size_t)jobs * RING_PER_WORKER : 1;
    pl->batch = pl->cap / 2 < BATCH ? (pl->cap + 1) / 2 : BATCH;
    pl->ring = calloc(pl->cap, sizeof *pl->ring);
    if (!pl->ring)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    for (size_t i = 0; i < pl->cap; i++) {
        util_arena_init(&pl->ring[i].arena);
        pl->ring[i].budget = pl->budget;
        pl->ring[i].owner = pl;
        pl->ring[i].pl = pl;
    }
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

void ing_pipeline_stop(ing_pipeline *pl)
{
    ing_scratch_free(); /* the writer's, had it run jobs itself */
    if (!pl->ring)
        return;
    pthread_mutex_lock(&pl->mu);
    pl->quit = 1;
    pthread_cond_broadcast(&pl->work);
    pthread_mutex_unlock(&pl->mu);
    for (int i = 0; i < pl->nthreads; i++)
        pthread_join(pl->threads[i], NULL);
    for (size_t i = 0; i < pl->cap; i++)
        ing_job_clear(&pl->ring[i]);
    free(pl->cache.slot);
    free(pl->threads);
    free(pl->ring);
    pthread_mutex_destroy(&pl->mu);
    pthread_cond_destroy(&pl->work);
    pthread_cond_destroy(&pl->done);
    memset(pl, 0, sizeof *pl);
}

/* The writer and the workers trade places once per batch of jobs, not once per entry
 * (each a sleep and a wake-up, which on a busy 2-core machine cost more than they saved): a
 * writer that must wait for job j waits until the jobs up to j + BATCH - 1 handed out are
 * done too (or no worker is busy), and an idle worker is woken when BATCH jobs are there to
 * claim (or the writer waits for one). */
void ing_pipeline_wait(ing_pipeline *pl, ing_job *j)
{
    pthread_mutex_lock(&pl->mu);
    unreserve(pl);
    if (!j->done) {
        size_t end = j->seq + pl->batch - 1;
        if (end >= pl->limit)
            end = pl->limit - 1;
        if (end < j->seq || end - j->seq >= pl->cap)
            end = j->seq;
        pl->wseq = j->seq;
        pl->wend = end;
        pl->waiting = 1;
        if (pl->idle)
            pthread_cond_broadcast(&pl->work);
        while (!j->done || (!pl->ring[end % pl->cap].done && pl->idle < pl->nthreads && !pl->quit))
            pthread_cond_wait(&pl->done, &pl->mu);
        pl->waiting = 0;
    }
    pthread_mutex_unlock(&pl->mu);
}

/* Let workers claim jobs up to sequence number limit (exclusive). */
void ing_pipeline_release(ing_pipeline *pl, size_t limit)
{
    pthread_mutex_lock(&pl->mu);
    unreserve(pl);
    pl->limit = limit;
    if (pl->idle && limit - pl->claim >= pl->batch)
        pthread_cond_broadcast(&pl->work);
    pthread_mutex_unlock(&pl->mu);
}

/* Take back the jobs no worker has claimed and wait for the claimed ones not yet consumed
 * (sequence numbers from `from` on), clearing them all: nothing refers to the PAK afterwards,
 * and no slot keeps bytes a worker read ahead with an entry's sizes (the next job in that
 * slot would have taken them for its own). */
void ing_pipeline_drain(ing_pipeline *pl, size_t from)
{
    pthread_mutex_lock(&pl->mu);
    unreserve(pl);
    size_t taken_back = pl->limit;
    pl->limit = pl->claim;
    size_t end = pl->claim;
    /* and no worker still reads the sizes of a job taken back: the PAK closes next */
    pl->draining = 1;
    while (pl->info_reading)
        pthread_cond_wait(&pl->done, &pl->mu);
    pl->draining = 0;
    pthread_mutex_unlock(&pl->mu);
    for (size_t k = from; k < end; k++) {
        ing_job *j = &pl->ring[k % pl->cap];
        ing_pipeline_wait(pl, j);
        ing_job_clear(j);
    }
    for (size_t k = end; k < taken_back; k++)
        ing_job_clear(&pl->ring[k % pl->cap]);
}
