/* ingest.c — the ingest loop: find PAKs, skip unchanged ones, replace each changed PAK's
 * rows in one transaction, decode every distinct ANCS/EVNT once (first copy canonical),
 * compare other copies by hash, record faults in load_errors and keep going.
 *
 * Derived rows (ancs, characters, events, asset_refs, ...) are keyed by (game, asset_id),
 * not by PAK; the `decoded` table remembers which PAK's copy produced them. Replacing a
 * PAK deletes the derived rows of the assets decoded from it; a final pass decodes every
 * ANCS/EVNT still held by some PAK but without rows, and rebuilds `assets`.
 *
 * Threads: --jobs is accepted but everything runs on the calling thread for now. The
 * decode step (inflate + ancs_decode into an arena) touches no SQLite and could move to
 * workers feeding this single writer. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

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
    const uint8_t *mem_data; /* db_ingest_mem: the one PAK's bytes, used instead of its path */
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

/* ---- decoding one entry ----------------------------------------------------------------- */

/* Inflate entry i of p; if (game, type, id) has no decoded rows yet decode it and write its
 * rows, else compare the copy's hash with the canonical one. Faults become load_errors;
 * only SQL failures are returned. */
static int do_entry(ing *g, const pak_file *p, int64_t pak_id, const char *path, const char *game,
                    uint32_t i)
{
    const pak_entry *e = &p->entries[i];
    int is_ancs = e->type == FOURCC_ANCS;
    const char *tname = is_ancs ? "ANCS" : "EVNT";
    ancs_game ag = !strcmp(game, "MP2") ? ANCS_GAME_MP2 : ANCS_GAME_MP1;
    uint8_t *buf = NULL;
    size_t len = 0;
    util_err e2;
    util_arena arena;
    int rc = 0;
    util_err_clear(&e2);
    util_arena_init(&arena);
    if (!e->in_bounds) {
        rc = load_error(g, path, game, i, e->type, e->id, "inflate", e->offset,
                        "entry data lies outside the file");
        goto done;
    }
    if (pak_inflate(&buf, &len, p, i, PAK_MAX_INFLATE, &e2) != 0) {
        if (e2.code == UTIL_ENOMEM) {
            rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory inflating %s", path);
            goto done;
        }
        rc = load_error(g, path, game, i, e->type, e->id, "inflate", e2.offset, e2.msg);
        goto done;
    }
    /* Stored copies keep their 0xFF padding and compressed ones do not: compare copies
     * without trailing 0xFF bytes. */
    size_t hlen = len;
    while (hlen > 0 && buf[hlen - 1] == 0xFF)
        hlen--;
    uint64_t hash = util_fnv1a(UTIL_FNV_INIT, buf, hlen);
    if ((rc = db_priv_put(g->d, S_ENTRY_HASH, g->err, "iui", pak_id, i, (int64_t)hash)) != 0)
        goto done;
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
    if (s != SQLITE_ROW && s != SQLITE_DONE) {
        rc = db_priv_sql_fail(g->d, g->err, "select decoded");
        goto done;
    }
    if (have) {
        if (canon != (int64_t)hash) {
            char msg[160];
            snprintf(msg, sizeof msg,
                     "entry %u: inflated bytes (%zu without 0xFF padding) differ from the "
                     "decoded copy of %s %08X",
                     i, hlen, tname, e->id);
            rc = db_priv_warn(g->d, game, tname, e->id, -1, "copy_differs", msg, pak_id, g->err);
        }
        goto done;
    }
    const char *status = "ok";
    if (is_ancs) {
        ancs_set set;
        if (ancs_decode(&set, buf, len, ag, &arena, &e2) != 0) {
            if (e2.code == UTIL_ENOMEM && arena.limit == 0) {
                rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory decoding");
                goto done;
            }
            status = "decode_error";
            rc = load_error(g, path, game, i, e->type, e->id, "decode", e2.offset, e2.msg);
        } else {
            rc = db_put_ancs(g->d, game, e->id, &set, g->err);
            g->st->ancs++;
            g->st->characters += set.char_count;
        }
    } else {
        ancs_evnt_file ev;
        if (ancs_evnt_decode(&ev, buf, len, ag, &arena, &e2) != 0) {
            if (e2.code == UTIL_ENOMEM) {
                rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory decoding");
                goto done;
            }
            status = "decode_error";
            rc = load_error(g, path, game, i, e->type, e->id, "decode", e2.offset, e2.msg);
        } else {
            rc = db_put_evnt(g->d, game, e->id, &ev, g->err);
            g->st->evnt++;
        }
    }
    if (rc == 0)
        rc = db_priv_put(g->d, S_DECODED_INS, g->err, "ssuiuuis", game, tname, e->id, pak_id, i,
                         (unsigned)len, (int64_t)hash, status);
done:
    free(buf);
    util_arena_free(&arena);
    return rc;
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
            same =
                sqlite3_column_type(st, 5) == SQLITE_INTEGER &&
                sqlite3_column_int64(st, 5) == (int64_t)util_fnv1a(UTIL_FNV_INIT, p->data, p->size);
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
            sqlite3_bind_int64(st, 8, (int64_t)util_fnv1a(UTIL_FNV_INIT, p->data, p->size));
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
    if ((rc = db_begin(g->d, g->err)) != 0)
        return rc;
    if ((rc = delete_pak(g, old_id, path)) == 0 &&
        (rc = insert_pak_row(g, path, sb, NULL, game, NULL, "error", &pak_id)) == 0 &&
        (rc = load_error(g, path, game, -1, 0, 0, "pak", off, msg)) == 0)
        rc = db_commit(g->d, g->err);
    if (rc)
        db_rollback(g->d);
    g->changed = 1;
    return rc;
}

static int do_pak_file(ing *g, const char *path, const struct stat *sb, pak_file *p);

/* Open one PAK and ingest it; an unreadable PAK becomes an 'error' row, not a failure. */
static int do_pak(ing *g, const char *path, const struct stat *sb)
{
    pak_file *p = NULL;
    util_err e;
    int rc = 0;
    int64_t old_id = -1;
    int skip = 0;
    util_err_clear(&e);
    if (g->mem_data)
        rc = pak_open_mem(&p, g->mem_data, g->mem_len, &e);
    else
        rc = pak_open(&p, path, &e);
    if (rc != 0) {
        if (e.code == UTIL_ENOMEM)
            return util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory opening %s", path);
        if ((rc = lookup_old(g, path, sb, NULL, &old_id, &skip)) != 0)
            return rc;
        return pak_failed(g, path, sb, old_id, NULL, e.offset, e.msg);
    }
    return do_pak_file(g, path, sb, p);
}

/* Ingest the opened PAK p (closed here) in one transaction. */
static int do_pak_file(ing *g, const char *path, const struct stat *sb, pak_file *p)
{
    int rc = 0;
    int64_t old_id = -1, pak_id = -1;
    int skip = 0;
    if ((rc = lookup_old(g, path, sb, p, &old_id, &skip)) != 0)
        goto done;
    if (skip) {
        g->st->paks_skipped++;
        goto done;
    }
    int conflict = 0;
    pak_game det = pak_detect_game(p, &conflict);
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
    g->changed = 1;
    if ((rc = db_begin(g->d, g->err)) != 0)
        goto done;
    if ((rc = delete_pak(g, old_id, path)) != 0)
        goto rollback;
    if ((rc = insert_pak_row(g, path, sb, p, game, pak_game_name(det), "ok", &pak_id)) != 0)
        goto rollback;
    for (uint32_t i = 0; i < p->entry_count; i++) {
        const pak_entry *en = &p->entries[i];
        char fc[5];
        util_fourcc_str(en->type, fc);
        if ((rc = db_priv_put(g->d, S_ENTRY_INS, g->err, "iuSuuuuuid-", pak_id, i, fc, en->id,
                              en->compressed, en->offset, en->size, en->decompressed_size,
                              (int64_t)en->table_offset, en->in_bounds)) != 0)
            goto rollback;
    }
    for (uint32_t i = 0; i < p->named_count; i++) {
        const pak_named *nm = &p->named[i];
        char fc[5];
        util_fourcc_str(nm->type, fc);
        if ((rc = db_priv_put(g->d, S_NAME_INS, g->err, "iuSSu", pak_id, i, nm->name, fc,
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
                              guessed ? "no signal tells the game; recorded as MP1"
                                      : "game signals disagree; used the strongest",
                              pak_id, g->err)) != 0)
            goto rollback;
    }
    g->st->resources += p->entry_count;
    for (uint32_t i = 0; i < p->entry_count; i++) {
        uint32_t t = p->entries[i].type;
        if (t != FOURCC_ANCS && t != FOURCC_EVNT)
            continue;
        if ((rc = do_entry(g, p, pak_id, path, game, i)) != 0)
            goto rollback;
    }
    if ((rc = db_commit(g->d, g->err)) != 0)
        goto rollback;
    g->st->paks_ingested++;
    goto done;
rollback:
    db_rollback(g->d);
done:
    pak_close(p);
    return rc;
}

/* ---- final pass ------------------------------------------------------------------------ */

/* Decode every ANCS/EVNT held by some readable PAK that has no decoded rows (its canonical
 * PAK was replaced or removed), then rebuild `assets`. */
static int final_pass(ing *g)
{
    int rc = 0;
    sqlite3_stmt *st = NULL;
    char *cur_path = NULL;
    pak_file *p = NULL;
    const char *sql =
        "SELECT p.path, p.pak_id, p.game, e.entry_index FROM pak_entries e JOIN paks p "
        "USING (pak_id) WHERE e.type IN ('ANCS', 'EVNT') AND p.status = 'ok' AND NOT EXISTS "
        "(SELECT 1 FROM decoded x WHERE x.game = p.game AND x.asset_id = e.asset_id AND "
        "x.type = e.type) AND NOT EXISTS (SELECT 1 FROM load_errors l WHERE l.pak_path = "
        "p.path AND l.entry_index = e.entry_index) ORDER BY p.pak_id, e.entry_index";
    if ((rc = db_begin(g->d, g->err)) != 0)
        return rc;
    if (sqlite3_prepare_v2(g->h, sql, -1, &st, NULL) != SQLITE_OK) {
        rc = db_priv_sql_fail(g->d, g->err, "orphan scan");
        goto done;
    }
    /* Collect the work first; do_entry writes to tables this SELECT reads. */
    typedef struct job {
        char *path;
        int64_t pak_id;
        char game[4];
        uint32_t entry;
    } job;
    job *jobs = NULL;
    size_t n = 0, cap = 0;
    int s;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            job *nj = realloc(jobs, cap * sizeof *nj);
            if (!nj) {
                rc = util_fail(g->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                break;
            }
            jobs = nj;
        }
        jobs[n].path = strdup((const char *)sqlite3_column_text(st, 0));
        jobs[n].pak_id = sqlite3_column_int64(st, 1);
        snprintf(jobs[n].game, sizeof jobs[n].game, "%s", (const char *)sqlite3_column_text(st, 2));
        jobs[n].entry = (uint32_t)sqlite3_column_int64(st, 3);
        if (!jobs[n].path) {
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
        if (!cur_path || strcmp(cur_path, jobs[i].path)) {
            pak_close(p);
            p = NULL;
            cur_path = jobs[i].path;
            util_err e;
            util_err_clear(&e);
            int orc = g->mem_data ? pak_open_mem(&p, g->mem_data, g->mem_len, &e)
                                  : pak_open(&p, cur_path, &e);
            if (orc != 0) {
                rc = load_error(g, cur_path, jobs[i].game, -1, 0, 0, "pak", e.offset, e.msg);
                p = NULL;
                continue;
            }
        }
        if (!p || jobs[i].entry >= p->entry_count)
            continue;
        rc = do_entry(g, p, jobs[i].pak_id, cur_path, jobs[i].game, jobs[i].entry);
    }
    pak_close(p);
    for (size_t i = 0; i < n; i++)
        free(jobs[i].path);
    free(jobs);
    if (rc)
        goto done;
    static const char *const rebuild[] = {
        "DELETE FROM assets",
        "INSERT INTO assets(game, asset_id, type, copies, pak_count) "
        "SELECT p.game, e.asset_id, min(e.type), count(*), count(DISTINCT e.pak_id) "
        "FROM pak_entries e JOIN paks p USING (pak_id) GROUP BY p.game, e.asset_id",
        "DELETE FROM warnings WHERE code = 'id_type_conflict'",
        "INSERT INTO warnings(game, type, asset_id, code, message) "
        "SELECT p.game, min(e.type), e.asset_id, 'id_type_conflict', "
        "'asset ID held as ' || group_concat(DISTINCT e.type) "
        "FROM pak_entries e JOIN paks p USING (pak_id) GROUP BY p.game, e.asset_id "
        "HAVING count(DISTINCT e.type) > 1",
    };
    for (size_t i = 0; i < sizeof rebuild / sizeof rebuild[0]; i++) {
        char *msg = NULL;
        if (sqlite3_exec(g->h, rebuild[i], NULL, NULL, &msg) != SQLITE_OK) {
            rc = util_fail(g->err, UTIL_ESQL, UINT64_MAX, "rebuild assets: %s",
                           msg ? msg : sqlite3_errmsg(g->h));
            sqlite3_free(msg);
            goto done;
        }
    }
    rc = db_commit(g->d, g->err);
done:
    sqlite3_finalize(st);
    if (rc)
        db_rollback(g->d);
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
    int rc = 0;
    double t0 = now_seconds();
    long warn0 = db_priv_warnings(d);
    memset(stats, 0, sizeof *stats);
    for (int i = 0; i < npaths && !rc; i++)
        rc = walk(&g, paths[i], 1, 0);
    stats->paks_seen = (long)g.nfiles;
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
        rc = final_pass_pending(&g, &g.changed);
    if (!rc && g.changed) {
        progress(&g, g.nfiles, "finishing");
        rc = final_pass(&g);
    }
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
    int rc = do_pak(&g, name, &sb);
    if (!rc && g.changed)
        rc = final_pass(&g);
    stats->warnings = db_priv_warnings(d) - warn0;
    stats->seconds = now_seconds() - t0;
    return rc;
}
