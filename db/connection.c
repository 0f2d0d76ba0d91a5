/* connection.c — opening and closing the database: pragmas, the schema check or creation,
 * the statements prepared once per connection (transactions and SQL helpers: sql.c); and
 * the two kinds of thread that work beside the writer on a connection of their own, the
 * checkpointer and the reader. */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include "internal.h"

/* SQLITE_BloomFilter of sqliteInt.h (SQLite 3.38 and later): the bit of the optimisation mask
 * of SQLITE_TESTCTRL_OPTIMIZATIONS that turns Bloom filters off. */
#define DB_NO_BLOOM_FILTER 0x00080000u

static int prepare(db *d, const char *sql, sqlite3_stmt **out, util_err *err)
{
    if (sqlite3_prepare_v3(d->h, sql, -1, SQLITE_PREPARE_PERSISTENT, out, NULL) != SQLITE_OK)
        return dbi_sql_fail(d, err, sql);
    return 0;
}

/* Tables keyed by (game, ancs_id) that hold rows derived from one ANCS. */
static const char *const ancs_tables[] = {
    "characters",          "character_anims",  "anim_id_map",
    "particle_refs",       "pas_states",       "pas_parms",
    "pas_anim_infos",      "pas_values",       "anim_aabbs",
    "indexed_aabbs",       "effects",          "effect_components",
    "animations",          "meta_anim_nodes",  "anim_primitives",
    "transitions",         "half_transitions", "additive_animations",
    "animation_resources", "event_sets",       "char_reach",
};

static const char *const common_ancs[] = {
    "DELETE FROM ancs WHERE game = ?1 AND asset_id = ?2 AND content_id = ?3",
    ("DELETE FROM events WHERE game = ?1 AND owner_type = 'ANCS' AND owner_id = ?2 AND "
     "content_id = ?3"),
    ("DELETE FROM asset_refs WHERE game = ?1 AND src_type = 'ANCS' AND src_id = ?2 AND "
     "content_id = ?3"),
    "DELETE FROM warnings WHERE content_id = ?3",
    "DELETE FROM census_contents WHERE content_id = ?3",
    "DELETE FROM contents WHERE content_id = ?3",
};
static const char *const common_evnt[] = {
    "DELETE FROM evnt WHERE game = ?1 AND asset_id = ?2 AND content_id = ?3",
    ("DELETE FROM events WHERE game = ?1 AND owner_type = 'EVNT' AND owner_id = ?2 AND "
     "content_id = ?3"),
    ("DELETE FROM asset_refs WHERE game = ?1 AND src_type = 'EVNT' AND src_id = ?2 AND "
     "content_id = ?3"),
    "DELETE FROM warnings WHERE content_id = ?3",
    "DELETE FROM census_contents WHERE content_id = ?3",
    "DELETE FROM contents WHERE content_id = ?3",
};

/* Tables keyed by (game, mlvl_id) that hold rows derived from one MLVL. */
static const char *const mlvl_tables[] = {
    "mlvl_worlds", "mlvl_memory_relays", "mlvl_audio_groups", "mlvl_areas",   "area_layers",
    "area_deps",   "area_attached",      "area_dock_links",   "area_modules", "mlvl_ref_labels",
};
static const char *const common_mlvl[] = {
    ("DELETE FROM asset_refs WHERE game = ?1 AND src_type = 'MLVL' AND src_id = ?2 AND "
     "content_id = ?3"),
    "DELETE FROM warnings WHERE content_id = ?3",
    "DELETE FROM census_contents WHERE content_id = ?3",
    "DELETE FROM contents WHERE content_id = ?3",
};
static const char *const common_strg[] = {
    "DELETE FROM strg WHERE game = ?1 AND strg_id = ?2 AND content_id = ?3",
    "DELETE FROM strings WHERE game = ?1 AND strg_id = ?2 AND content_id = ?3",
    "DELETE FROM warnings WHERE content_id = ?3",
    "DELETE FROM census_contents WHERE content_id = ?3",
    "DELETE FROM contents WHERE content_id = ?3",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
_Static_assert(NELEM(mlvl_tables) + NELEM(common_mlvl) <= 16, "del_mlvl too small");
_Static_assert(NELEM(common_strg) <= 8, "del_strg too small");
_Static_assert(NELEM(ancs_tables) + NELEM(common_ancs) <= 32, "del_ancs too small");
_Static_assert(NELEM(common_evnt) <= 8, "del_evnt too small");

#define DB_STMT_SQL(name, sql) sql,
static const char *const stmt_sql[] = {DB_STMTS(DB_STMT_SQL)};

/* The statements of internal.h's list and db_delete_content's per-table deletes. */
static int prepare_all(db *d, util_err *err)
{
    int rc = 0;
    for (int i = 0; i < S_COUNT; i++)
        TRY(prepare(d, stmt_sql[i], &d->st[i], err));
    char sql[256];
    for (size_t k = 0; k < NELEM(ancs_tables); k++) {
        snprintf(sql, sizeof sql,
                 "DELETE FROM %s WHERE game = ?1 AND ancs_id = ?2 AND content_id = ?3",
                 ancs_tables[k]);
        TRY(prepare(d, sql, &d->del_ancs[d->ndel_ancs++], err));
    }
    for (size_t i = 0; i < NELEM(common_ancs); i++)
        TRY(prepare(d, common_ancs[i], &d->del_ancs[d->ndel_ancs++], err));
    for (size_t i = 0; i < NELEM(common_evnt); i++)
        TRY(prepare(d, common_evnt[i], &d->del_evnt[d->ndel_evnt++], err));
    for (size_t k = 0; k < NELEM(mlvl_tables); k++) {
        snprintf(sql, sizeof sql,
                 "DELETE FROM %s WHERE game = ?1 AND mlvl_id = ?2 AND content_id = ?3",
                 mlvl_tables[k]);
        TRY(prepare(d, sql, &d->del_mlvl[d->ndel_mlvl++], err));
    }
    for (size_t i = 0; i < NELEM(common_mlvl); i++)
        TRY(prepare(d, common_mlvl[i], &d->del_mlvl[d->ndel_mlvl++], err));
    for (size_t i = 0; i < NELEM(common_strg); i++)
        TRY(prepare(d, common_strg[i], &d->del_strg[d->ndel_strg++], err));
    return rc;
}

/* The database file's own path: symbolic links resolved (of the file when it exists, else
 * of its folder), so that every name of one database shares one lock. NULL with err set. */
static char *real_db_path(const char *path, util_err *err)
{
    char *r = NULL;
    for (int tries = 0;; tries++) {
        if ((r = realpath(path, NULL)) != NULL)
            return r;
        int e = errno;
        struct stat st;
        if (e == ENOENT) {
            util_test_point("db_path_missing");
            if (lstat(path, &st) != 0)
                break; /* no such file: its folder's path, below */
            /* something is there now: another ingest created the database between the two
             * looks (resolved again), or a link to nothing */
            if (!S_ISLNK(st.st_mode) && tries < 3)
                continue;
        }
        return util_fail(err, UTIL_EIO, UINT64_MAX, "cannot resolve the database path %s: %s", path,
                         strerror(e)),
               NULL;
    }
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory"), NULL;
    char *rd = realpath(dir, NULL);
    int e = errno;
    free(dir);
    if (!rd)
        return util_fail(err, UTIL_EIO, UINT64_MAX, "cannot resolve the folder of %s: %s", path,
                         strerror(e)),
               NULL;
    const char *base = slash ? slash + 1 : path;
    size_t need = strlen(rd) + strlen(base) + 2;
    r = malloc(need);
    if (r)
        snprintf(r, need, "%s%s%s", rd, strcmp(rd, "/") ? "/" : "", base);
    free(rd);
    return r ? r : (util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory"), NULL);
}

/* The exclusive lock of a writer: the database file's real path + "-lock", a regular file
 * created when missing (never through a symbolic link). A writer never runs without it: when
 * it cannot be opened or created the open is refused. No lock for ":memory:". */
static int take_lock(db *d, const char *path, void (*waiting)(void *, const char *), void *ctx,
                     util_err *err)
{
    if (!strcmp(path, ":memory:") || !*path)
        return 0;
    char *real = real_db_path(path, err);
    if (!real)
        return err ? err->code : UTIL_EIO;
    size_t n = strlen(real);
    char *lp = malloc(n + 6);
    if (!lp) {
        free(real);
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    }
    memcpy(lp, real, n);
    memcpy(lp + n, "-lock", 6);
    free(real);
    int created = 1;
    int fd = open(lp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0 && errno == EEXIST) {
        created = 0;
        fd = open(lp, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    }
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        fd = -1;
        errno = EINVAL;
    }
    if (fd < 0) {
        int e = errno;
        int rc = util_fail(err, UTIL_EIO, UINT64_MAX,
                           "cannot open the writer lock %s: %s (it must be a regular file "
                           "that can be written; nothing was written without it)",
                           lp, e == ELOOP ? "it is a symbolic link" : strerror(e));
        free(lp);
        return rc;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK) {
            int e = errno;
            close(fd);
            int rc = util_fail(err, UTIL_EIO, UINT64_MAX, "cannot lock %s: %s", lp, strerror(e));
            free(lp);
            return rc;
        }
        if (waiting)
            waiting(ctx, path);
        while (flock(fd, LOCK_EX) != 0)
            if (errno != EINTR) {
                int e = errno;
                close(fd);
                int rc =
                    util_fail(err, UTIL_EIO, UINT64_MAX, "cannot lock %s: %s", lp, strerror(e));
                free(lp);
                return rc;
            }
    }
    d->lock_fd = fd;
    if (created)
        d->lock_path = lp; /* removed again if the file turns out not to be ours */
    else
        free(lp);
    return 0;
}

/* "file:PATH?immutable=1" with PATH's URI-special bytes escaped; NULL: out of memory. */
static char *immutable_uri(const char *path)
{
    size_t n = strlen(path);
    char *u = malloc(3 * n + 32), *o = u;
    if (!u)
        return NULL;
    o += sprintf(o, "file:");
    for (const char *c = path; *c; c++) {
        if (*c == '%' || *c == '?' || *c == '#')
            o += sprintf(o, "%%%02X", (unsigned char)*c);
        else
            *o++ = *c;
    }
    strcpy(o, "?immutable=1");
    return u;
}

/* The folder of path, or path itself, cannot be written by us: a reader cannot create the
 * WAL index, so the file is read as immutable. */
static int cannot_write(const char *path)
{
    char *dir = strdup(path);
    if (!dir)
        return 0;
    char *sl = strrchr(dir, '/');
    if (sl == dir)
        sl[1] = 0;
    else if (sl)
        *sl = 0;
    else
        strcpy(dir, ".");
    int r = access(dir, W_OK) != 0 || (access(path, F_OK) == 0 && access(path, W_OK) != 0);
    free(dir);
    return r;
}

/* The schema file called name (db/schema/NAME.sql), or NULL. */
static const char *schema_file(const char *name)
{
    for (size_t i = 0; db_schema_files[i][0]; i++)
        if (!strcmp(db_schema_files[i][0], name))
            return db_schema_files[i][1];
    return NULL;
}

/* An older file gets the objects added since its version, in one transaction (a failure
 * leaves it as it was):
 *   5 -> 6: 31_name_search.sql, the trigrams of the names already imported;
 *   6 -> 7: 60_worlds.sql (worlds and string tables); MLVL and STRG entries were not decoded
 *           when the file was written, so every PAK is read again by the next ingest (its
 *           tables hash is forgotten: an unchanged PAK is no longer skipped once).
 * A later version must say how a version-5, -6 or -7 file gets its own objects too, or
 * refuse it. */
_Static_assert(DB_SCHEMA_VERSION == 7, "a new schema version: upgrade or refuse versions 5 to 7");
static int upgrade(db *d, int64_t from, util_err *err)
{
    const char *names = schema_file("31_name_search"), *worlds = schema_file("60_worlds");
    if (!names || !worlds)
        return util_fail(err, UTIL_ESQL, UINT64_MAX, "schema files missing in this ancsdb");
    int rc = dbi_exec(d, "BEGIN IMMEDIATE", err);
    if (rc != 0)
        return rc;
    if (from <= 5 && ((rc = dbi_exec(d, names, err)) != 0 || (rc = dbi_names_reindex(d, err)) != 0))
        goto fail;
    if (from <= 6 && ((rc = dbi_exec(d, worlds, err)) != 0 ||
                      (rc = dbi_exec(d, "UPDATE paks SET tables_hash = NULL", err)) != 0))
        goto fail;
    if ((rc = dbi_exec(d, "PRAGMA user_version = 7", err)) != 0 ||
        (rc = dbi_exec(d, "COMMIT", err)) != 0)
        goto fail;
    return 0;
fail:
    db_rollback(d);
    return rc;
}

int db_open(db **out, const char *path, int mode, util_err *err)
{
    return db_open_wait(out, path, mode, NULL, NULL, err);
}

int db_open_wait(db **out, const char *path, int mode, void (*waiting)(void *ctx, const char *path),
                 void *ctx, util_err *err)
{
    int rc = 0;
    *out = NULL;
    db *d = calloc(1, sizeof *d);
    if (!d)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    d->lock_fd = -1;
    d->readonly = mode == DB_OPEN_READONLY;
    /* reading a database that is not there: say how to make one (and create nothing) */
    if (d->readonly && strcmp(path, ":memory:") && access(path, F_OK) != 0 && errno == ENOENT) {
        rc = util_fail(err, UTIL_EIO, UINT64_MAX,
                       "no database %s: make one with 'ancsdb ingest --db %s PATH...' (PAK "
                       "files, folders or disc images)",
                       path, path);
        goto done;
    }
    if (!d->readonly && (rc = take_lock(d, path, waiting, ctx, err)) != 0)
        goto done;
    /* A db handle is used by one thread at a time (the ingest's workers never touch
     * SQLite): no per-connection mutex. No memory statistics: they take a global mutex on
     * every allocation. sqlite3_config fails harmlessly once the library is initialised. */
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    /* A sorter keeps at least this many pages in memory before it spills a run to a
     * temporary file (SQLite's default 250: 2 MiB of 8 KiB pages). A statement with ~50
     * GROUP BYs (the census) keeps every sorter until it ends; 32 lets a small cache_size
     * bound them. Statements run with the default cache (2 MiB) sort as before. */
    sqlite3_config(SQLITE_CONFIG_PMASZ, 32);
    int flags = SQLITE_OPEN_NOMUTEX |
                (d->readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    char *uri = NULL;
    if (d->readonly && strcmp(path, ":memory:") && cannot_write(path)) {
        if (!(uri = immutable_uri(path))) {
            rc = util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
            goto done;
        }
        flags |= SQLITE_OPEN_URI;
    }
    int orc = sqlite3_open_v2(uri ? uri : path, &d->h, flags, NULL);
    free(uri);
    if (orc != SQLITE_OK) {
        rc = util_fail(err, UTIL_ESQL, UINT64_MAX, "cannot open database %s: %s", path,
                       d->h ? sqlite3_errmsg(d->h) : "out of memory");
        goto done;
    }
    sqlite3_extended_result_codes(d->h, 1);
    sqlite3_busy_timeout(d->h, 5000);
    /* Whether the file is ours, before anything is written to it. */
    int64_t ver = 0, tables = 0, appid = 0;
    if ((rc = dbi_query_int(d, "PRAGMA application_id", &appid, err)) != 0)
        goto done;
    if ((rc = dbi_query_int(d, "PRAGMA user_version", &ver, err)) != 0)
        goto done;
    if ((rc = dbi_query_int(d, "SELECT count(*) FROM sqlite_master", &tables, err)) != 0)
        goto done;
    /* a file with tables, or with a version or application mark of its own, is someone's */
    if ((tables != 0 || ver != 0 || appid != 0) && appid != DB_APPLICATION_ID) {
        rc = util_fail(err, DB_EVERSION, UINT64_MAX,
                       "%s is not an ancsdb database (application_id %" PRId64
                       ", user_version %" PRId64 ", %" PRId64 " objects); it was not changed",
                       path, appid, ver, tables);
        goto done;
    }
    /* Versions 5 and 6 lack only what later schema files create: a writer upgrades them in
     * place (below); a reader cannot. */
    int older = ver == 5 || ver == 6;
    if (tables != 0 && older && d->readonly) {
        rc = util_fail(err, DB_EVERSION, UINT64_MAX,
                       "%s has schema version %" PRId64 ", this ancsdb uses %d: the next "
                       "'ancsdb ingest' or 'ancsdb names import' into it upgrades it in place",
                       path, ver, DB_SCHEMA_VERSION);
        goto done;
    }
    if (tables != 0 && ver != DB_SCHEMA_VERSION && !older) {
        rc = util_fail(err, DB_EVERSION, UINT64_MAX,
                       "%s has schema version %" PRId64 ", this ancsdb uses %d: %s", path, ver,
                       DB_SCHEMA_VERSION,
                       ver < DB_SCHEMA_VERSION ? "re-ingest into a new database file"
                                               : "use a newer ancsdb");
        goto done;
    }
    if (tables == 0)
        ver = 0;
    d->ours = 1;
    /* No Bloom filters: SQLite builds one by scanning the whole inner table when it guesses
     * that many lookups miss; every join here walks a key, and those scans were most of deps
     * and of the report's dependency graphs (no named query got slower without them), and
     * of the final pass's keyed reads of a few new contents. The mask names the
     * optimisations turned off. */
    sqlite3_test_control(SQLITE_TESTCTRL_OPTIMIZATIONS, d->h, DB_NO_BLOOM_FILTER);
    if (d->readonly) {
        if (ver == 0) {
            rc = util_fail(err, UTIL_ESQL, UINT64_MAX,
                           "%s holds no ancsdb data yet (run 'ancsdb ingest')", path);
            goto done;
        }
        if ((rc = dbi_exec(d, "PRAGMA query_only = 1", err)) != 0)
            goto done;
        /* No ATTACH: it would create files, and VACUUM INTO (which attaches its target)
         * creates its output file before query_only refuses the write. */
        sqlite3_limit(d->h, SQLITE_LIMIT_ATTACHED, 0);
        *out = d;
        return 0;
    }
    /* A new file gets 8 KiB pages (SQLite's default is 4 KiB): a bulk load of millions of
     * small rows runs faster (fewer pages to split, write and checkpoint). 16 KiB is no
     * faster and raises the peak RSS of queries with several sorts (sorters keep a minimum
     * number of pages each). Only possible before the first table exists and before WAL
     * mode. */
    if (ver == 0 && tables == 0)
        if ((rc = dbi_exec(d, "PRAGMA page_size = 8192", err)) != 0)
            goto done;
    /* WAL cannot apply to :memory:; the pragma then reports "memory", which is fine. */
    if ((rc = dbi_exec(d, "PRAGMA journal_mode = WAL", err)) != 0)
        goto done;
    if ((rc = dbi_exec(d, "PRAGMA synchronous = NORMAL", err)) != 0)
        goto done;
    if ((rc = dbi_exec(d, "PRAGMA temp_store = MEMORY", err)) != 0)
        goto done;
    if ((rc = dbi_exec(d, "PRAGMA foreign_keys = OFF", err)) != 0)
        goto done;
    if (ver == 0) {
        char sql[128];
        if ((rc = dbi_exec(d, "BEGIN IMMEDIATE", err)) != 0)
            goto done;
        if (dbi_exec(d, db_schema_sql, err) != 0) {
            rc = util_fail(err, UTIL_ESQL, UINT64_MAX, "cannot create the tables in %s: %s", path,
                           sqlite3_errmsg(d->h));
            sqlite3_exec(d->h, "ROLLBACK", NULL, NULL, NULL);
            goto done;
        }
        snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d",
                 DB_APPLICATION_ID, DB_SCHEMA_VERSION);
        if ((rc = dbi_exec(d, sql, err)) != 0)
            goto done;
        if ((rc = dbi_exec(d, "COMMIT", err)) != 0)
            goto done;
    }
    if (tables != 0 && older && (rc = upgrade(d, ver, err)) != 0)
        goto done;
    /* the v_ views as this ancsdb writes them (a new file, or one an older ancsdb made) */
    if ((rc = dbi_views_sync(d, err)) != 0)
        goto done;
    if ((rc = prepare_all(d, err)) != 0)
        goto done;
    *out = d;
    return 0;
done:
    if (d && d->lock_path && !d->ours)
        unlink(d->lock_path); /* a file that is not ours keeps nothing of ours beside it */
    db_close(d);
    return rc;
}

/* ---- connections beside the writer ------------------------------------------------------- */

int dbi_wal_file(db *d)
{
    const char *path = sqlite3_db_filename(d->h, "main");
    if (!path || !*path)
        return 0;
    sqlite3_stmt *st = NULL;
    int wal = 0;
    if (sqlite3_prepare_v2(d->h, "PRAGMA journal_mode", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        const char *mode = (const char *)sqlite3_column_text(st, 0);
        wal = mode && !strcmp(mode, "wal");
    }
    sqlite3_finalize(st);
    return wal;
}

struct db_checkpointer {
    sqlite3 *h;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned asked; /* checkpoints asked for after the first (dbi_checkpoint_more) */
    unsigned done;  /* checkpoints run (all of them once it is asked + 1) */
    int stop;       /* dbi_checkpoint_finish: no more */
};

/* The checkpointer's and the readers' threads run SQLite on stacks of 2 MiB, not the
 * default 8: their statements are the project's own, shallow ones, and under an address-space
 * limit (`ulimit -v`, tests/cli/e2e_ulimit.sh) every thread's stack counts whole. */
#define SIDE_STACK (2u << 20)

static int side_thread(pthread_t *t, void *(*fn)(void *), void *arg)
{
    pthread_attr_t at;
    if (pthread_attr_init(&at) != 0)
        return -1;
    int rc = pthread_attr_setstacksize(&at, SIDE_STACK);
    if (rc == 0)
        rc = pthread_create(t, &at, fn, arg);
    pthread_attr_destroy(&at);
    return rc;
}

/* The side threads work for what the writer does next, and the writer is what a run waits
 * for: they yield to it. Linux keeps a nice value per thread, so each raises its own by
 * SIDE_NICE (elsewhere the value is the process's, and they leave it). On 2 cores the final
 * pass of a 10x first ingest shares the writer's core with the census's readers and the
 * checkpointer: at equal niceness the writer waited to run 0.16-0.39 s of its 2.1-2.8 s
 * there, with them at +10 0.01-0.13 s (docs/benchmark.md). */
#define SIDE_NICE 10

static void side_yield(void)
{
#ifdef __linux__
    id_t tid = (id_t)syscall(SYS_gettid);
    errno = 0;
    int now = getpriority(PRIO_PROCESS, tid);
    if (now == -1 && errno != 0)
        return;
    setpriority(PRIO_PROCESS, tid, now + SIDE_NICE > 19 ? 19 : now + SIDE_NICE);
#endif
}

static void *checkpoint_main(void *arg)
{
    db_checkpointer *c = arg;
    side_yield();
    /* a first read opens the file and its WAL (a checkpoint of a connection that read
     * nothing yet does nothing); PASSIVE: copies what it can and never waits for the writer;
     * what it leaves, the writer's last close copies */
    if (sqlite3_exec(c->h, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) != SQLITE_OK)
        return NULL;
    for (;;) {
        sqlite3_wal_checkpoint_v2(c->h, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        pthread_mutex_lock(&c->mu);
        c->done++;
        while (c->done == c->asked + 1 && !c->stop)
            pthread_cond_wait(&c->cv, &c->mu);
        int more = c->done < c->asked + 1;
        pthread_mutex_unlock(&c->mu);
        if (!more)
            return NULL;
    }
}

db_checkpointer *dbi_checkpoint_start(db *d)
{
    if (!dbi_wal_file(d))
        return NULL;
    db_checkpointer *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    /* opened here, in the thread that uses SQLite so far */
    if (sqlite3_open_v2(sqlite3_db_filename(d->h, "main"), &c->h,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
        side_thread(&c->thread, checkpoint_main, c) != 0) {
        sqlite3_close(c->h);
        pthread_cond_destroy(&c->cv);
        pthread_mutex_destroy(&c->mu);
        free(c);
        return NULL;
    }
    return c;
}

void dbi_checkpoint_more(db_checkpointer *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&c->mu);
    c->asked++;
    pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

unsigned dbi_checkpoint_finish(db_checkpointer *c)
{
    if (!c)
        return 0;
    pthread_mutex_lock(&c->mu);
    c->stop = 1;
    pthread_cond_signal(&c->cv);
    pthread_mutex_unlock(&c->mu);
    pthread_join(c->thread, NULL);
    unsigned done = c->done;
    sqlite3_close(c->h);
    pthread_cond_destroy(&c->cv);
    pthread_mutex_destroy(&c->mu);
    free(c);
    return done;
}

/* ---- a reader thread ------------------------------------------------------------------ */

struct db_reader {
    db *d;
    char *path, *setup; /* what reader_main opens and runs first */
    int (*fn)(db *rd, void *arg, util_err *err);
    void *arg;
    pthread_t thread;
    int started, joined, rc;
    util_err err;
};

static void *reader_main(void *arg)
{
    db_reader *r = arg;
    side_yield();
    if ((r->rc = db_open(&r->d, r->path, DB_OPEN_READONLY, &r->err)) != 0 ||
        (r->setup && (r->rc = dbi_exec(r->d, r->setup, &r->err)) != 0))
        return NULL;
    r->rc = dbi_exec(r->d, "BEGIN", &r->err);
    if (!r->rc)
        r->rc = r->fn(r->d, r->arg, &r->err);
    /* the TEMP rows stay; only the snapshot of the committed rows ends */
    if (!r->rc)
        r->rc = dbi_exec(r->d, "COMMIT", &r->err);
    else
        sqlite3_exec(r->d->h, "ROLLBACK", NULL, NULL, NULL);
    return NULL;
}

db_reader *dbi_reader_start(db *d, const char *setup, int (*fn)(db *, void *, util_err *),
                            void *arg)
{
    if (!dbi_wal_file(d))
        return NULL;
    db_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->fn = fn;
    r->arg = arg;
    /* Opened in its thread, beside the writer (at 1x, 3-4 ms of the writer's for each reader
     * when opened here): d's connection has initialised the library, so db_open's
     * configuration calls there change nothing. A reader that cannot open fails its join,
     * as one whose statements fail does. */
    const char *path = sqlite3_db_filename(d->h, "main");
    if (!path || !(r->path = strdup(path)) || (setup && !(r->setup = strdup(setup))) ||
        side_thread(&r->thread, reader_main, r) != 0) {
        dbi_reader_free(r);
        return NULL;
    }
    r->started = 1;
    return r;
}

int dbi_reader_join(db_reader *r)
{
    if (r->started && !r->joined) {
        pthread_join(r->thread, NULL);
        r->joined = 1;
    }
    return r->rc;
}

db *dbi_reader_db(db_reader *r)
{
    return r->d;
}

void dbi_reader_free(db_reader *r)
{
    if (!r)
        return;
    dbi_reader_join(r);
    db_close(r->d);
    free(r->path);
    free(r->setup);
    free(r);
}

void db_close(db *d)
{
    if (!d)
        return;
    dbi_rows_free(d);
    dbi_cache_free(d);
    for (int i = 0; i < S_COUNT; i++)
        sqlite3_finalize(d->st[i]);
    for (size_t i = 0; i < d->ndel_ancs; i++)
        sqlite3_finalize(d->del_ancs[i]);
    for (size_t i = 0; i < d->ndel_evnt; i++)
        sqlite3_finalize(d->del_evnt[i]);
    for (size_t i = 0; i < d->ndel_mlvl; i++)
        sqlite3_finalize(d->del_mlvl[i]);
    for (size_t i = 0; i < d->ndel_strg; i++)
        sqlite3_finalize(d->del_strg[i]);
    /* analysis_limit: ANALYZE samples about 1000 rows per index instead of reading every row
     * (0.5 s after a 10x bulk load; the query plans stay the same). */
    if (d->h && !d->readonly && d->ours)
        sqlite3_exec(d->h, "PRAGMA analysis_limit = 1000; PRAGMA optimize", NULL, NULL, NULL);
    sqlite3_close(d->h);
    if (d->lock_fd >= 0)
        close(d->lock_fd); /* releases the lock */
    free(d->lock_path);
    free(d);
}
