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
 * reads nothing, and a job whose entry failed ahead reads it again and says why. */
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

static void test_hashed_ahead(void **state)
{
    (void)state;
    util_err e;
    util_err_clear(&e);
    /* entry 0 an ANCS (never hashed ahead: its job keeps its bytes), 1-4 stored (sizes not
     * a multiple of 32: the PAK pads them with 0xFF), 5-9 zlib, 9 damaged below */
    pak_builder *b = pak_builder_new();
    assert_non_null(b);
    uint8_t *data[NAHEAD];
    size_t len[NAHEAD];
    for (uint32_t k = 0; k < NAHEAD; k++) {
        len[k] = 3000 + 7 * k;
        data[k] = tu_bytes(300 + k, len[k]);
        data[k][len[k] - 1] = 0x5A; /* no 0xFF at the end: the padding is all there is */
        assert_int_equal(pak_builder_add(b, k == 0 ? FC_ANCS : FC_CMDL, 300 + k, data[k], len[k],
                                         k >= 5 ? PAK_CODEC_ZLIB : PAK_CODEC_NONE, &e),
                         0);
    }
    uint8_t *bytes;
    size_t blen;
    assert_int_equal(pak_builder_finish_mem(b, &bytes, &blen, &e), 0);
    pak_builder_free(b);
    counted c = {.b = bytes};
    atomic_init(&c.n, 0);
    util_src *src;
    assert_int_equal(util_src_open_custom(&src, blen, counted_read, &c, NULL, &e), 0);
    pak_file *p;
    assert_int_equal(pak_open_src_tables(&p, src, &e), 0);
    assert_int_equal(pak_read_entry_heads(p, &e), 0);
    /* entry 9's deflate stream after its first 8 bytes: 0xFF (a block of a reserved type) */
    const pak_entry *bad = &p->entries[NAHEAD - 1];
    assert_true(bad->compressed && bad->size > 16);
    memset(bytes + bad->offset + 8, 0xFF, bad->size - 8);

    ing_pipeline pl;
    assert_int_equal(ing_pipeline_start(&pl, 2, 0, &e), 0);
    assert_int_equal(pl.nthreads, 2);
    size_t base = pl.limit;
    int before = atomic_load(&c.n);
    ing_pipeline_ahead_begin(&pl, p, base);
    /* until every entry is hashed ahead: each end of a worker's last one wakes this wait */
    pthread_mutex_lock(&pl.mu);
    for (;;) {
        int left = pl.ah_running > 0;
        for (uint32_t k = 1; k < NAHEAD; k++)
            left |= pl.ah[k].state == ING_AH_NONE || pl.ah[k].state == ING_AH_RUNNING;
        if (!left)
            break;
        pthread_cond_wait(&pl.done, &pl.mu);
    }
    assert_int_equal(pl.ah[0].state, ING_AH_NONE);
    for (uint32_t k = 1; k < NAHEAD - 1; k++)
        assert_int_equal(pl.ah[k].state, ING_AH_DONE);
    assert_int_equal(pl.ah[NAHEAD - 1].state, ING_AH_FAILED);
    pthread_mutex_unlock(&pl.mu);
    assert_int_equal(atomic_load(&c.n), before + NAHEAD - 1); /* one read each */

    /* the jobs: each takes its entry's results; only the ANCS and the damaged entry read */
    for (uint32_t k = 0; k < NAHEAD; k++) {
        ing_job *j = hand_out(&pl, p, base + k, k, 0);
        ing_pipeline_release(&pl, base + k + 1);
        ing_pipeline_wait(&pl, j);
        if (k == NAHEAD - 1) {
            assert_false(j->hashed);
            assert_int_not_equal(j->e.code, 0); /* the job's own read says why */
        } else {
            assert_true(j->hashed);
            assert_true(j->hash == XXH3_64bits(data[k], len[k])); /* no trailing 0xFF */
            assert_int_equal(j->has_stored_hash, k >= 5);
            if (k >= 5)
                assert_true(j->stored_hash ==
                            XXH3_64bits(bytes + p->entries[k].offset, p->entries[k].size));
            else
                assert_int_equal(j->unpadded, len[k]); /* the padding left out */
        }
        ing_job_clear(j);
    }
    assert_int_equal(atomic_load(&c.n), before + NAHEAD - 1 + 2);
    ing_pipeline_ahead_end(&pl);
    assert_null(pl.ah);
    ing_pipeline_stop(&pl);
    pak_close(p);
    util_src_close(src);
    for (uint32_t k = 0; k < NAHEAD; k++)
        free(data[k]);
    free(bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drain_frees_bytes_read_ahead),
        cmocka_unit_test(test_hashed_ahead),
    };
    return tu_status(cmocka_run_group_tests(tests, NULL, NULL));
}
