/* test_db_pipeline.c — the ingest's workers (db/ingest_jobs.c) on a PAK whose entries' sizes
 * are read by the workers themselves (a disc that names its game): when the writer takes back
 * the jobs no worker claimed (ing_pipeline_drain, as when a PAK fails), a small entry's bytes
 * that a worker read ahead with its sizes are freed with the job, and the next job in that
 * slot hashes its own bytes. Expected hashes are XXH3-64 of the bytes given to the PAK
 * builder, computed here with the xxhash library.
 *
 * No timing: the writer waits for job 0 (ing_pipeline_wait), which returns once no worker
 * is busy; a worker goes idle only when no handed-out job's sizes are left to read.
 *
 * And entries hashed ahead of their jobs (ing_pipeline_ahead_begin): with no job handed out,
 * the workers hash every entry that is not decoded; each job then takes those results and
 * reads nothing, and a job whose entry failed ahead reads it again and says why. The same
 * for the next PAK offered (ing_pipeline_ahead_next), hashed while the one before is still
 * being written. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "ingest_internal.h"
#include "testutil.h"

#define FC_CMDL 0x434D444Cu
#define BIG     (100u << 10) /* more than ING_PRE_MAX: its sizes alone are read ahead */
#define SMALL   200u         /* read whole with its sizes */
#define LARGE   (24u << 10)  /* the second PAK's entries: their bytes are never read ahead */
#define NSMALL  4

/* A PAK of n stored entries (sizes[i] bytes each, made from seed + i) in *out. */
static void build_pak(uint32_t seed, const size_t *sizes, size_t n, uint8_t **out, size_t *len)
{
    util_err e;
    util_err_clear(&e);
    pak_builder *b = pak_builder_new();
    assert_non_null(b);
    for (size_t i = 0; i < n; i++) {
        uint8_t *bytes = tu_bytes(seed + (uint32_t)i, sizes[i]);
        assert_int_equal(
            pak_builder_add(b, FC_CMDL, seed + (uint32_t)i, bytes, sizes[i], PAK_CODEC_NONE, &e),
            0);
        free(bytes);
    }
    assert_int_equal(pak_builder_finish_mem(b, out, len, &e), 0);
    pak_builder_free(b);
}

/* What ingest_pak.c's hand_out does: job seq for entry k of p (lazy: sizes still to read). */
static ing_job *hand_out(ing_pipeline *pl, pak_file *p, size_t seq, uint32_t k, int lazy)
{
    ing_job *j = &pl->ring[seq % pl->cap];
    ing_job_set(j, p, k, ANCS_GAME_MP1, 0);
    j->lazy_p = lazy ? p : NULL;
    j->info = ING_SIZES_TO_READ;
    j->seq = seq;
    return j;
}

static void test_drain_frees_bytes_read_ahead(void **state)
{
    (void)state;
    util_err e;
    util_err_clear(&e);
    /* PAK A: one big entry, then small ones; its sizes are read by the workers */
    size_t sa[1 + NSMALL] = {BIG};
    for (int i = 1; i <= NSMALL; i++)
        sa[i] = SMALL;
    uint8_t *a_bytes, *b_bytes;
    size_t a_len, b_len;
    build_pak(100, sa, 1 + NSMALL, &a_bytes, &a_len);
    util_src *a_src;
    assert_int_equal(util_src_open_mem(&a_src, a_bytes, a_len, &e), 0);
    pak_file *a;
    assert_int_equal(pak_open_src_tables(&a, a_src, &e), 0);

    /* A budget of the big entry alone: while job 0 holds it, no other job may be claimed,
     * so the idle worker reads every later job's sizes (and their bytes: they are small) */
    pak_entry big = a->entries[0];
    big.compressed = 0;
    ing_pipeline pl;
    assert_int_equal(ing_pipeline_start(&pl, 2, ing_entry_need(&big), &e), 0);
    assert_int_equal(pl.nthreads, 2);
    assert_true(pl.cap > NSMALL);
    for (uint32_t k = 0; k <= NSMALL; k++)
        hand_out(&pl, a, k, k, 1);
    ing_pipeline_release(&pl, 1 + NSMALL);
    ing_pipeline_wait(&pl, &pl.ring[0]);
    assert_true(pl.ring[0].done);
    assert_int_equal(pl.claim, 1);
    for (int k = 1; k <= NSMALL; k++) {
        assert_int_equal(pl.ring[k].info, ING_SIZES_READ);
        assert_non_null(pl.ring[k].pre); /* read ahead, as the test means */
    }

    /* the PAK fails: the writer takes everything back */
    ing_pipeline_drain(&pl, 0);
    for (size_t k = 0; k < pl.cap; k++)
        assert_null(pl.ring[k].pre);
    pak_close(a);
    util_src_close(a_src);

    /* PAK B in the same slots: large entries, sizes known (not lazy). Each job hashes its
     * own bytes, none left over from PAK A. */
    size_t sb[1 + NSMALL];
    for (int i = 0; i <= NSMALL; i++)
        sb[i] = LARGE;
    build_pak(200, sb, 1 + NSMALL, &b_bytes, &b_len);
    pak_file *b;
    assert_int_equal(pak_open_mem(&b, b_bytes, b_len, &e), 0);
    for (uint32_t k = 1; k <= NSMALL; k++)
        hand_out(&pl, b, pl.claim + k - 1, k, 0);
    size_t first = pl.claim;
    ing_pipeline_release(&pl, first + NSMALL);
    for (uint32_t k = 1; k <= NSMALL; k++) {
        ing_job *j = &pl.ring[(first + k - 1) % pl.cap];
        ing_pipeline_wait(&pl, j);
        uint8_t *want = tu_bytes(200 + k, LARGE);
        assert_true(j->hashed);
        assert_true(j->hash == XXH3_64bits(want, LARGE));
        free(want);
        ing_job_clear(j);
    }
    ing_pipeline_stop(&pl);
    pak_close(b);
    free(a_bytes);
    free(b_bytes);
}

/* A source over bytes that counts the reads made of it (from any thread). */
typedef struct counted {
    const uint8_t *b;
    atomic_int n;
} counted;

static int counted_read(void *ctx, void *dst, uint64_t off, size_t len, util_err *e)
{
    (void)e;
    counted *c = ctx;
    atomic_fetch_add(&c->n, 1);
    memcpy(dst, c->b + off, len);
    return 0;
}

#define FC_ANCS 0x414E4353u
#define NAHEAD  10

/* The PAK of the tests below, read through a source that counts its reads: entry 0 an ANCS
 * (never hashed ahead: its job keeps its bytes), 1-4 stored (sizes not a multiple of 32: the
 * PAK pads them with 0xFF), 5-9 zlib, 9 damaged. */
typedef struct ahead_pak {
    uint8_t *data[NAHEAD];
    size_t len[NAHEAD];
    uint8_t *bytes;
    counted c;
    util_src *src;
    pak_file *p;
} ahead_pak;

static void ahead_pak_open(ahead_pak *t)
{
    util_err e;
    util_err_clear(&e);
    pak_builder *b = pak_builder_new();
    assert_non_null(b);
    for (uint32_t k = 0; k < NAHEAD; k++) {
        t->len[k] = 3000 + 7 * k;
        t->data[k] = tu_bytes(300 + k, t->len[k]);
        t->data[k][t->len[k] - 1] = 0x5A; /* no 0xFF at the end: the padding is all there is */
        assert_int_equal(pak_builder_add(b, k == 0 ? FC_ANCS : FC_CMDL, 300 + k, t->data[k],
                                         t->len[k], k >= 5 ? PAK_CODEC_ZLIB : PAK_CODEC_NONE, &e),
                         0);
    }
    size_t blen;
    assert_int_equal(pak_builder_finish_mem(b, &t->bytes, &blen, &e), 0);
    pak_builder_free(b);
    t->c.b = t->bytes;
    atomic_init(&t->c.n, 0);
    assert_int_equal(util_src_open_custom(&t->src, blen, counted_read, &t->c, NULL, &e), 0);
    assert_int_equal(pak_open_src_tables(&t->p, t->src, &e), 0);
    assert_int_equal(pak_read_entry_heads(t->p, &e), 0);
    /* entry 9's deflate stream after its first 8 bytes: 0xFF (a block of a reserved type) */
    const pak_entry *bad = &t->p->entries[NAHEAD - 1];
    assert_true(bad->compressed && bad->size > 16);
    memset(t->bytes + bad->offset + 8, 0xFF, bad->size - 8);
}

static void ahead_pak_close(ahead_pak *t)
{
    pak_close(t->p);
    util_src_close(t->src);
    for (uint32_t k = 0; k < NAHEAD; k++)
        free(t->data[k]);
    free(t->bytes);
}

/* Wait until every entry of slot s but the ANCS is hashed ahead (each end of a worker's last
 * one wakes this wait), then check each state. */
static void wait_hashed_ahead(ing_pipeline *pl, const ing_ahead_pak *s)
{
    pthread_mutex_lock(&pl->mu);
    for (;;) {
        int left = s->running > 0;
        for (uint32_t k = 1; k < NAHEAD; k++)
            left |= s->ah[k].state == ING_AH_NONE || s->ah[k].state == ING_AH_RUNNING;
        if (!left)
            break;
        pthread_cond_wait(&pl->done, &pl->mu);
    }
    assert_int_equal(s->ah[0].state, ING_AH_NONE);
    for (uint32_t k = 1; k < NAHEAD - 1; k++)
        assert_int_equal(s->ah[k].state, ING_AH_DONE);
    assert_int_equal(s->ah[NAHEAD - 1].state, ING_AH_FAILED);
    pthread_mutex_unlock(&pl->mu);
}

/* The jobs of t's PAK from job base: each takes its entry's results; only the ANCS and the
 * damaged entry read (two reads). */
static void run_jobs(ing_pipeline *pl, ahead_pak *t, size_t base)
{
    int before = atomic_load(&t->c.n);
    for (uint32_t k = 0; k < NAHEAD; k++) {
        ing_job *j = hand_out(pl, t->p, base + k, k, 0);
        ing_pipeline_release(pl, base + k + 1);
        ing_pipeline_wait(pl, j);
        if (k == NAHEAD - 1) {
            assert_false(j->hashed);
            assert_int_not_equal(j->e.code, 0); /* the job's own read says why */
        } else {
            assert_true(j->hashed);
            assert_true(j->hash == XXH3_64bits(t->data[k], t->len[k])); /* no trailing 0xFF */
            assert_int_equal(j->has_stored_hash, k >= 5);
            if (k >= 5)
                assert_true(j->stored_hash ==
                            XXH3_64bits(t->bytes + t->p->entries[k].offset, t->p->entries[k].size));
            else
                assert_int_equal(j->unpadded, t->len[k]); /* the padding left out */
        }
        ing_job_clear(j);
    }
    assert_int_equal(atomic_load(&t->c.n), before + 2);
}

static void test_hashed_ahead(void **state)
{
    (void)state;
    util_err e;
    util_err_clear(&e);
    ahead_pak t;
    ahead_pak_open(&t);
    ing_pipeline pl;
    assert_int_equal(ing_pipeline_start(&pl, 2, 0, &e), 0);
    assert_int_equal(pl.nthreads, 2);
    size_t base = pl.limit;
    int before = atomic_load(&t.c.n);
    ing_pipeline_ahead_begin(&pl, t.p, base);
    wait_hashed_ahead(&pl, &pl.ah[0]);
    assert_int_equal(atomic_load(&t.c.n), before + NAHEAD - 1); /* one read each */
    run_jobs(&pl, &t, base);
    ing_pipeline_ahead_end(&pl, t.p);
    assert_null(pl.ah[0].ah);
    ing_pipeline_stop(&pl);
    ahead_pak_close(&t);
}

/* The next PAK offered while the one before has nothing to hash ahead (a single ANCS): the
 * workers hash its entries; the results stay when the PAK before ends and when it begins,
 * and its jobs take them. The PAKs offered keep their order as others begin and end. A PAK
 * offered and ended without beginning (skipped) leaves nothing. */
static void test_hashed_ahead_next(void **state)
{
    (void)state;
    util_err e;
    util_err_clear(&e);
    uint8_t *first_bytes, *ancs = tu_bytes(400, 900);
    size_t first_len;
    pak_builder *b = pak_builder_new();
    assert_non_null(b);
    assert_int_equal(pak_builder_add(b, FC_ANCS, 400, ancs, 900, PAK_CODEC_NONE, &e), 0);
    assert_int_equal(pak_builder_finish_mem(b, &first_bytes, &first_len, &e), 0);
    pak_builder_free(b);
    pak_file *first;
    assert_int_equal(pak_open_mem(&first, first_bytes, first_len, &e), 0);
    ahead_pak t;
    ahead_pak_open(&t);

    ing_pipeline pl;
    assert_int_equal(ing_pipeline_start(&pl, 2, 0, &e), 0);
    assert_int_equal(pl.nthreads, 2);
    /* a third PAK, offered after t's: it stays after it */
    uint8_t *x_bytes;
    size_t x_len, x_size = 500;
    build_pak(500, &x_size, 1, &x_bytes, &x_len);
    pak_file *x;
    assert_int_equal(pak_open_mem(&x, x_bytes, x_len, &e), 0);
    int before = atomic_load(&t.c.n);
    ing_pipeline_ahead_begin(&pl, first, pl.limit);
    ing_pipeline_ahead_next(&pl, t.p);
    ing_pipeline_ahead_next(&pl, x);
    ing_pipeline_ahead_next(&pl, t.p); /* offered already: nothing changes */
    assert_true(pl.ah[1].p == t.p && pl.ah[2].p == x);
    wait_hashed_ahead(&pl, &pl.ah[1]);
    assert_int_equal(atomic_load(&t.c.n), before + NAHEAD - 1); /* one read each */
    ing_job *j = hand_out(&pl, first, pl.limit, 0, 0);
    ing_pipeline_release(&pl, j->seq + 1);
    ing_pipeline_wait(&pl, j);
    assert_true(j->hashed && j->hash == XXH3_64bits(ancs, 900));
    ing_job_clear(j);
    ing_pipeline_ahead_end(&pl, first);
    assert_null(pl.ah[0].ah);
    assert_true(pl.ah[1].p == t.p); /* the next PAK's results outlive the one before */

    size_t base = pl.limit;
    ing_pipeline_ahead_begin(&pl, t.p, base);
    assert_true(pl.ah[0].p == t.p && pl.ah[0].base == base);
    assert_true(pl.ah[1].p == x); /* still next */
    assert_null(pl.ah[2].ah);
    wait_hashed_ahead(&pl, &pl.ah[0]); /* already: nothing is hashed again */
    assert_int_equal(atomic_load(&t.c.n), before + NAHEAD - 1);
    run_jobs(&pl, &t, base);
    ing_pipeline_ahead_end(&pl, t.p);
    assert_null(pl.ah[0].ah);
    assert_true(pl.ah[1].p == x);

    /* offered, then ended unread (as a PAK skipped, or after the run stops) */
    ing_pipeline_ahead_next(&pl, first);
    assert_true(pl.ah[2].p == first);
    ing_pipeline_ahead_end(&pl, x);
    assert_true(pl.ah[1].p == first); /* moved down: the order stays */
    ing_pipeline_ahead_end(&pl, NULL);
    for (int i = 0; i < ING_AHEAD_PAKS; i++)
        assert_null(pl.ah[i].ah);
    ing_pipeline_stop(&pl);
    ahead_pak_close(&t);
    pak_close(first);
    pak_close(x);
    free(first_bytes);
    free(x_bytes);
    free(ancs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drain_frees_bytes_read_ahead),
        cmocka_unit_test(test_hashed_ahead),
        cmocka_unit_test(test_hashed_ahead_next),
    };
    return tu_status(cmocka_run_group_tests(tests, NULL, NULL));
}
