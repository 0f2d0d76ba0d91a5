/* fuzz_ingest.c — one PAK from memory through the whole ingest path (tables, inflate, ANCS,
 * EVNT, MLVL and STRG decode, rows, the final pass) into an emptied in-memory database, via
 * db_ingest_mem (seeds with worlds: mp1_world.pak, mp2_world.pak). The game
 * (auto, MP1, MP2) and --jobs (1 or 2) are chosen from the input size so every input shape
 * meets both decoders and both the single-thread and the worker-thread paths. One input in
 * five is read as a PAK of a disc image (MP1's or MP2's game code, written to $TMPDIR), where
 * each entry's sizes are read just before its job, followed there by a healthy PAK; the image
 * is a plain ISO, a CISO, or a GCZ of 512-byte blocks or an RVZ of 32 KiB groups in which one
 * block or group of the input's PAK is damaged (where a later entry's sizes are read, when its
 * tables parse), so that the PAK fails part-way through; half of those under a tight memory
 * budget, which keeps jobs unclaimed while the workers read ahead.
 * Invariants: ingest never fails fatally on a healthy database; one paks row per PAK; an
 * 'ok' PAK has one pak_entries row per table entry; each load_errors row names a stage; the
 * log has one line per load_errors row (none for the faults of a PAK rolled back); the
 * healthy PAK after the input's loads with the content hashes of its bytes (XXH3 computed
 * here): nothing the input's PAK, or its failed reads, leave behind reaches it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xxhash.h>

#include "db.h"
#include "fixture.h"
#include "pak.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct one_row {
    int rows;
    int64_t v[4];
} one_row;

static int grab(void *ctx, int ncols, const db_cell *cells)
{
    one_row *r = ctx;
    for (int c = 0; c < ncols && c < 4; c++)
        r->v[c] = cells[c].type == DB_INT ? cells[c].i : -1;
    r->rows++;
    return 0;
}

static one_row query(db *d, const char *sql)
{
    one_row r;
    memset(&r, 0, sizeof r);
    util_err e;
    util_err_clear(&e);
    db_sink s = {&r, NULL, grab, NULL};
    if (db_exec(d, sql, 0, NULL, &s, &e) != 0 || r.rows != 1)
        abort();
    return r;
}

/* the ingest's log: lines counted (each is a fault's: the only other line, a PAK gone from
 * its release, needs an earlier ingest) */
static long g_lines;

static void count_line(void *ctx, const char *line)
{
    (void)ctx;
    if (!line || strncmp(line, "ancsdb: ", 8))
        abort();
    g_lines++;
}

typedef struct wipe_list {
    char sql[4096];
} wipe_list;

static int add_table(void *ctx, int ncols, const db_cell *cells)
{
    wipe_list *w = ctx;
    size_t n = strlen(w->sql);
    (void)ncols;
    if (cells[0].type == DB_TEXT)
        snprintf(w->sql + n, sizeof w->sql - n, "DELETE FROM \"%s\";", cells[0].s);
    return 0;
}

/* One database for the whole run (creating the schema costs more than most inputs); every
 * table is emptied after each input so inputs stay independent. */
static db *shared_db(void)
{
    static db *d;
    static wipe_list wipe;
    util_err err;
    util_err_clear(&err);
    if (!d) {
        if (db_open(&d, ":memory:", DB_OPEN_READWRITE, &err) != 0)
            abort();
        db_sink s = {&wipe, NULL, add_table, NULL};
        if (db_exec(d,
                    "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = "
                    "'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
                    0, NULL, &s, &err) != 0)
            abort();
    } else if (db_exec(d, wipe.sql, 0, NULL, NULL, &err) != 0) {
        abort();
    }
    return d;
}

/* The healthy PAK of the disc: AFTER_N stored entries of AFTER_LEN bytes (more than an entry
 * read whole with its sizes, so a job that took bytes left in its slot would hash them), at
 * "zz.pak", after "fuzz.pak" on the disc and in the ingest's order. */
#define AFTER_N   4
#define AFTER_LEN (20u << 10)
static uint64_t g_after_hash[AFTER_N];

static const uint8_t *after_pak(size_t *len)
{
    static uint8_t *pak;
    static size_t pak_len;
    if (!pak) {
        util_err e;
        util_err_clear(&e);
        pak_builder *b = pak_builder_new();
        uint8_t *bytes = malloc(AFTER_LEN);
        if (!b || !bytes)
            abort();
        for (uint32_t i = 0; i < AFTER_N; i++) {
            for (uint32_t k = 0; k < AFTER_LEN; k++)
                bytes[k] = (uint8_t)((k * 7 + i * 13 + k / 256) & 0x7F); /* never 0xFF */
            g_after_hash[i] = XXH3_64bits(bytes, AFTER_LEN);
            if (pak_builder_add(b, 0x434D444Cu /* CMDL */, 0x7A000000u + i, bytes, AFTER_LEN,
                                PAK_CODEC_NONE, &e) != 0)
                abort();
        }
        if (pak_builder_finish_mem(b, &pak, &pak_len, &e) != 0)
            abort();
        pak_builder_free(b);
        free(bytes);
    }
    *len = pak_len;
    return pak;
}

typedef struct after_rows {
    int rows, bad;
} after_rows;

static int after_row(void *ctx, int ncols, const db_cell *cells)
{
    after_rows *a = ctx;
    int64_t i = ncols == 2 && cells[0].type == DB_INT ? cells[0].i : -1;
    if (i < 0 || i >= AFTER_N || cells[1].type != DB_INT || (uint64_t)cells[1].i != g_after_hash[i])
        a->bad++;
    a->rows++;
    return 0;
}

/* Where in the PAK data[0..len) the sizes of entry h % count (of the second half of its
 * table, so that jobs come before it) are read, or UINT64_MAX when its tables do not parse. */
static uint64_t entry_sizes_at(const uint8_t *data, size_t len, uint64_t h)
{
    util_src *src = NULL;
    pak_file *p = NULL;
    util_err e;
    util_err_clear(&e);
    uint64_t at = UINT64_MAX;
    if (util_src_open_mem(&src, data, len, &e) != 0)
        return at;
    if (pak_open_src_tables(&p, src, &e) == 0 && p->entry_count > 0) {
        uint32_t n = p->entry_count, i = n / 2 + (uint32_t)(h % (n - n / 2));
        const pak_entry *x = &p->entries[i];
        at = x->compressed ? x->offset : (uint64_t)x->offset + (x->size ? x->size - 1 : 0);
    }
    pak_close(p);
    util_src_close(src);
    return at;
}

static uint32_t get_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The disc of files f (the input's PAK, then the healthy one) written to path as a plain
 * image (kind 0), a CISO (1), a GCZ of CTR_BLOCK-byte blocks (2) or an RVZ of RVZ_CHUNK-byte
 * groups stored as they are (3; its files 32 KiB aligned, so that no group holds bytes of both
 * PAKs), with one block or group that holds only the input's PAK damaged when one does: that of
 * entry_sizes_at, else one the input's hash picks. */
#define CTR_BLOCK    512u
#define RVZ_CHUNK    (32u << 10)
#define TIGHT_MEMORY (96u << 10)  /* the healthy PAK's entries fit */
#define TIGHT_RVZ    (128u << 10) /* an RVZ group takes at most a quarter of the budget */
static int write_image(const char *path, unsigned kind, const fixture_disc_opts *opts,
                       const fixture_disc_file f[2], util_err *err)
{
    if (kind == 0)
        return fixture_disc_write(path, opts, f, 2, err);
    uint8_t *img = NULL, *ctr = NULL;
    size_t len = 0, clen = 0;
    int rc = fixture_disc_build(&img, &len, opts, f, 2, err);
    if (!rc && kind == 1)
        rc = fixture_ciso_build(&ctr, &clen, img, len, CTR_BLOCK, NULL, err);
    if (!rc && kind >= 2) {
        fixture_wia_opts wo = {.rvz = 1, .method = 0, .chunk_size = RVZ_CHUNK};
        size_t unit = kind == 2 ? CTR_BLOCK : RVZ_CHUNK, align = kind == 2 ? 32 : RVZ_CHUNK;
        rc = kind == 2 ? fixture_gcz_build(&ctr, &clen, img, len, CTR_BLOCK, 0, err)
                       : fixture_wia_build(&ctr, &clen, img, len, &wo, err);
        /* a minimal image ends with the last file, zz.pak; the input's PAK just before it,
         * aligned; an RVZ group may end in the padding after it */
        size_t pak_at = len - f[1].len - ((f[0].len + align - 1) & ~(align - 1));
        size_t first = (pak_at + unit - 1) / unit;
        size_t end = (pak_at + f[0].len + (kind == 2 ? 0 : unit - 1)) / unit;
        if (!rc && end > first) {
            uint64_t h = XXH3_64bits(f[0].data, f[0].len);
            size_t k = first + h % (end - first);
            /* rather the block where an entry's sizes are read (its first 8 bytes when
             * compressed, its last 32 when stored), so that a read fails part-way through */
            uint64_t at_sizes = entry_sizes_at(f[0].data, f[0].len, h);
            if (at_sizes != UINT64_MAX && (pak_at + at_sizes) / unit >= first &&
                (pak_at + at_sizes) / unit < end)
                k = (pak_at + at_sizes) / unit;
            if (kind == 2) {
                size_t nblocks = (len + CTR_BLOCK - 1) / CTR_BLOCK;
                uint64_t at = 0;
                for (int i = 0; i < 8; i++) /* the block's start in the data: its pointer */
                    at |= (uint64_t)ctr[32 + k * 8 + (size_t)i] << (8 * i);
                ctr[32 + nblocks * 12 + (at & ~(1ull << 63))] ^= 0x5A; /* its Adler-32 fails */
            } else {
                /* the group table, stored as it is (header 2 at 0x48 gives its offset): the
                 * group's stored size 4 bytes short of the chunk it must hold */
                uint64_t table =
                    (uint64_t)get_be32(ctr + 0x48 + 0xC8) << 32 | get_be32(ctr + 0x48 + 0xCC);
                uint8_t *e = ctr + table + k * 12 + 4;
                uint32_t size = get_be32(e);
                for (int i = 0; size >= 4 && i < 4; i++) /* (0: a group of zeros, left) */
                    e[i] = (uint8_t)((size - 4) >> (24 - 8 * i));
            }
        }
    }
    free(img);
    if (!rc) {
        FILE *fp = fopen(path, "wb");
        if (!fp || fwrite(ctr, 1, clen, fp) != clen)
            rc = util_fail(err, UTIL_EIO, UINT64_MAX, "cannot write %s", path);
        if (fp && fclose(fp) != 0 && !rc)
            rc = util_fail(err, UTIL_EIO, UINT64_MAX, "cannot write %s", path);
    }
    free(ctr);
    return rc;
}

/* The scratch image goes when the fuzzer exits (a run that ends by its time limit too). */
static const char *g_image;
static void remove_image(void)
{
    if (g_image)
        unlink(g_image);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const pak_game games[] = {PAK_GAME_UNKNOWN, PAK_GAME_MP1, PAK_GAME_MP2};
    db *d = shared_db();
    util_err err;
    util_err_clear(&err);
    /* jobs 1 decodes on this thread, 2 on workers feeding this writer: both paths */
    db_ingest_opts o = {
        .game = games[size % 3], .jobs = 1 + (int)(size / 3 % 2), .log = count_line};
    g_lines = 0;
    db_ingest_stats st;
    int disc = size % 5 == 4;
    if (disc) {
        static char image[4096];
        if (!image[0]) {
            const char *tmp = getenv("TMPDIR");
            snprintf(image, sizeof image, "%s/fuzz_ingest.%ld.img", tmp && *tmp ? tmp : "/tmp",
                     (long)getpid());
            g_image = image;
            atexit(remove_image);
        }
        fixture_disc_opts opts;
        fixture_disc_opts_init(&opts, size / 5 % 2 ? "G2ME01" : "GM8E01", 0, "fuzz");
        opts.minimal = 1;
        /* the damaged kinds: a GCZ, or an RVZ one time in two */
        unsigned kind = size / 10 % 3 == 2 && size / 480 % 2 ? 3 : size / 10 % 3;
        if (kind == 3)
            opts.align = RVZ_CHUNK;
        size_t after_len;
        const uint8_t *after = after_pak(&after_len);
        fixture_disc_file f[2] = {{.path = "fuzz.pak", .data = data, .len = size},
                                  {.path = "zz.pak", .data = after, .len = after_len}};
        const char *paths[1] = {image};
        o.game = PAK_GAME_UNKNOWN;
        /* half the damaged containers under a tight memory budget: jobs wait for room,
         * unclaimed, while the workers read the next entries' sizes (and small ones whole) */
        if (kind >= 2 && size / 60 % 2)
            o.memory = kind == 2 ? TIGHT_MEMORY : TIGHT_RVZ;
        if (write_image(image, kind, &opts, f, &err) != 0 ||
            db_ingest_paths(d, paths, 1, &o, &st, &err) != 0)
            abort();
    } else if (db_ingest_mem(d, "fuzz.pak", data, size, &o, &st, &err) != 0) {
        abort(); /* only SQLite failures or OOM may be fatal; neither happens here */
    }
    one_row paks = query(d, "SELECT count(*), sum(status = 'ok' AND resource_count <> (SELECT "
                            "count(*) FROM pak_entries e WHERE e.pak_id = p.pak_id)) FROM paks p");
    if (paks.v[0] != 1 + disc || paks.v[1] != 0)
        abort();
    if (disc) {
        after_rows a = {0, 0};
        db_sink s = {&a, NULL, after_row, NULL};
        if (db_exec(d,
                    "SELECT e.entry_index, e.content_hash FROM pak_entries e JOIN paks p USING "
                    "(pak_id) WHERE p.release_path = 'zz.pak' AND p.status = 'ok'",
                    0, NULL, &s, &err) != 0 ||
            a.rows != AFTER_N || a.bad != 0)
            abort();
    }
    one_row errs = query(d, "SELECT count(*), sum(stage NOT IN ('pak', 'inflate', 'decode')) "
                            "FROM load_errors");
    if (errs.v[0] != st.errors || (errs.v[0] > 0 && errs.v[1] != 0))
        abort();
    /* below 16 KiB of input no PAK has enough entries to pass the 256 KiB of kept lines */
    if (size < 16384 && g_lines != errs.v[0])
        abort();
    /* every ANCS/EVNT entry of an 'ok' PAK was either decoded or recorded as an error */
    one_row lost = query(d, "SELECT count(*) FROM pak_entries e WHERE e.type IN ('ANCS', 'EVNT') "
                            "AND NOT EXISTS (SELECT 1 FROM contents x WHERE x.content_id = "
                            "e.content_id AND x.status = 'ok') AND NOT EXISTS (SELECT 1 FROM "
                            "load_errors l WHERE l.entry_index = e.entry_index)");
    if (lost.v[0] != 0)
        abort();
    return 0;
}
