/* internal.h — what the db/ files share and nothing outside db/ sees: the connection
 * struct, the statements prepared once per connection, the row writer, the warnings and
 * load_errors rows, and small helpers. The ingest's own types (jobs, run context) are in
 * ingest_internal.h.
 *
 * The files of db/, one job each:
 *   sql.c           SQL helpers (dbi_exec, dbi_sql_fail, ...) and transactions
 *   connection.c    open/close, pragmas, schema check or creation; the checkpointer and
 *                   reader threads, each on a connection of its own
 *   exec.c          db_exec: the statement runner of named queries and `ancsdb sql`
 *   names.c         asset name maps: import and export
 *   tables.h        every table the row writer fills, columns named in C
 *   columns.h       what the columns mean (asset IDs, enumerations, owners) and the layout
 *                   of every v_ view: db/gen/gen_sql.c writes the views from it at build time
 *   views.c         the v_ views made (or made again) in a file; db_is_id_column
 *   rows.c          the row writer and its batcher (INSERT text built from tables.h); the
 *                   warnings and asset_refs rows every decoder's writer shares
 *   rows_ancs.c     an ANCS: ancs, characters and their sub-tables, asset_refs (ancs_reach)
 *   rows_anim.c     an ANCS's animation set: animations, meta-animation trees, transitions
 *   rows_evnt.c     an EVNT and event nodes
 *   rows_world.c    an MLVL (worlds, areas, layers, dependencies, asset_refs) and a STRG
 *                   (strings)
 *   faults.c        load_errors rows; the ingest's lines for the log callback
 *   ingest.c        db_ingest_paths / db_ingest_mem: the run, releases rows, PAKs gone
 *   ingest_walk.c   the releases and PAKs of the PATHs given: files, folders, disc images,
 *                   extracted discs (no SQLite)
 *   release_scope.c db_scope_release: TEMP views that show one release
 *   ingest_read.c   a PAK's byte source (a file, a range of an image), --rehash
 *   ingest_game.c   the game decision: signals, --game, the disc code, PAKs without a signal
 *   ingest_jobs.c   entry jobs (read, hash, inflate, decode), the workers
 *   ingest_cache.c  the hash cache: stored bytes' hash -> content hash
 *   ingest_tx.c     per-PAK transaction, skip check (by release), moved/adopted PAKs,
 *                   deleting a PAK's or a content's rows
 *   ingest_pak.c    one PAK: game, paks/pak_names/pak_entries rows, consuming its jobs
 *   ingest_entry.c  one entry: its hashes; an ANCS/EVNT/MLVL/STRG's content, decoded once
 *   ingest_world.c  the MLVLs' asset_refs rows: their decodes waiting for their area names
 *   final_pass.c    unknown games, unheld contents, copy_differs per release, assets,
 *                   the census
 *   census_rows.c   the census of an ANCS or EVNT decode, counted from the rows written
 *   census_run.c    the census script (db/census/) statement by statement, its counts per
 *                   content and its sum per set of releases in hash tables
 *   groups.c        counts per group of values in a hash table (both census files)
 *   assets.c        the one definition of `assets` (rebuild and check)
 *   bulk.c          the indexes dropped and rebuilt around a bulk load */
#ifndef ANCSDB_DB_INTERNAL_H
#define ANCSDB_DB_INTERNAL_H

#include <stdint.h>

#include <sqlite3.h>

#include "db.h"
#include "tables.h"

/* ---- statements prepared once per connection (queries and updates; rows are written by
 * the row writer below) ----------------------------------------------------------------- */

#define DB_STMTS(X)                                                                                \
    X(PAK_GET, "SELECT pak_id, file_size, mtime, mtime_ns, tables_hash, content_hash, "            \
               "status, path FROM paks WHERE release_id = ?1 AND release_path = ?2")               \
    X(PAK_BY_PATH, "SELECT pak_id FROM paks WHERE path = ?1")                                      \
    X(CONTENT_GET, "SELECT content_id, status, error_offset, error, size FROM contents WHERE "     \
                   "game = ?1 AND type = ?2 AND asset_id = ?3 AND hash = ?4")                      \
    X(CONTENT_ANY, "SELECT 1 FROM contents WHERE game = ?1 AND type = ?2 AND asset_id = ?3 "       \
                   "LIMIT 1")                                                                      \
    X(STRG_NAME, "SELECT text FROM strings WHERE game = ?1 AND strg_id = ?2 AND content_id = ?3 "  \
                 "AND language = 'ENGL' AND string_index = 0 AND text IS NOT NULL")                \
    X(STRG_NAME_ANY, "SELECT text FROM strings WHERE game = ?1 AND strg_id = ?2 AND language = "   \
                     "'ENGL' AND string_index = 0 AND text IS NOT NULL ORDER BY content_id DESC "  \
                     "LIMIT 1")

#define DB_STMT_ENUM(name, sql) S_##name,
enum { DB_STMTS(DB_STMT_ENUM) S_COUNT };

/* ---- the row writer (rows.c) ----------------------------------------------------------- */

/* One table the writer fills: name, own columns (tables.h), and how it is written. */
typedef struct db_table {
    const char *name;
    const char *const *cols;
    int ncols;     /* own columns; keyed tables have the DB_KEY_COLS before them */
    int keyed;     /* rows derived from one decoded asset: key columns first */
    int or_ignore; /* INSERT OR IGNORE */
    int batch_log; /* up to 2^batch_log rows per INSERT while batching; 0: never batched */
} db_table;
extern const db_table dbi_tables[DBT_COUNT];

#define DB_KEY_ENUM(c) DBK_##c,
enum { DB_KEY_COLS(DB_KEY_ENUM) DBK_COUNT };

/* A value waiting in a row: 'i' integer, 'r' real, 't' text (off/len in the text buffer),
 * 'n' NULL. */
typedef struct db_val {
    char kind;
    int64_t i;
    double r;
    size_t off, len;
} db_val;

typedef struct db_batch db_batch;

/* ---- counts per group of values (groups.c) ---------------------------------------------- */

/* A key's values: DBI_K_<kind>, as sqlite3_column_type tells them. */
enum { DBI_K_NULL, DBI_K_INT, DBI_K_REAL, DBI_K_TEXT, DBI_K_BLOB };

typedef struct dbi_group {
    uint64_t hash;
    size_t key, klen; /* the key's bytes: keys[key .. key + klen) */
    int64_t sum;
    int used;
} dbi_group;

/* Groups in the order they began: slot[order[0 .. n)]. Zeroed is empty. */
typedef struct dbi_groups {
    dbi_group *slot; /* open addressing */
    size_t cap, n;
    size_t *order;
    unsigned char *keys;
    size_t keys_len, keys_cap;
    size_t pending; /* bytes of the key being made, after keys_len */
} dbi_groups;

/* Append a value to the key being made: bytes[0 .. len) (an integer or a real: its 8). */
int dbi_groups_key_put(dbi_groups *g, int kind, const void *bytes, uint64_t len, util_err *err);
/* Add count to the group of the key made (which then begins again). */
int dbi_groups_add(dbi_groups *g, int64_t count, util_err *err);
/* A value of a key: kind DBI_K_<kind>; i (an integer), r (a real) or bytes[0 .. len). */
typedef struct dbi_key_val {
    int kind;
    int64_t i;
    double r;
    const unsigned char *bytes;
    uint64_t len;
} dbi_key_val;
/* The value of key at *at (moved past it). */
dbi_key_val dbi_groups_key_next(const unsigned char *key, size_t *at);
/* 1 when the groups should be written and forgotten (a bound on memory). */
int dbi_groups_full(const dbi_groups *g);
/* Forget every group (the table keeps its size), or free them all. */
void dbi_groups_clear(dbi_groups *g);
void dbi_groups_free(dbi_groups *g);

struct db {
    sqlite3 *h;
    int readonly;
    int ours;        /* the file was checked: an ancsdb database (or a new one) */
    int lock_fd;     /* read-write: the fd holding the lock on REALPATH-lock; -1: none */
    char *lock_path; /* the lock file when this open created it, else NULL */
    sqlite3_stmt *st[S_COUNT];
    sqlite3_stmt *del_ancs[32], *del_evnt[8]; /* db_delete_content's statements */
    size_t ndel_ancs, ndel_evnt;
    sqlite3_stmt *del_mlvl[16], *del_strg[8]; /* the same for MLVL and STRG contents */
    size_t ndel_mlvl, ndel_strg;
    long rows_warned; /* warnings rows written (stats; less those of contents decoded again) */
    int64_t content;  /* contents.content_id of the decode being written (0: none) */
    /* row writer */
    int batching;               /* rows are buffered until dbi_batch_end */
    db_batch *batch[DBT_COUNT]; /* made when a table gets its first row */
    db_val key[DBK_COUNT];      /* key column values of the current decode ('n' until set) */
    char *key_text[DBK_COUNT];  /* their text, for 't' */
    char *btext;                /* text of the buffered rows */
    size_t btext_len, btext_cap;
    int oom; /* a text copy failed: the row fails at dbi_row_end */
    /* an observer of the rows written (NULL: none): seen gets each row before it is
     * buffered, after once it is (census_rows.c counts a decode's census with them) */
    int (*row_seen)(db *d, int table, const db_val *own, util_err *err);
    int (*row_after)(db *d, util_err *err);
    /* the census of the decode being written, counted from its rows (census_rows.c) */
    dbi_groups counted;
    /* read-only connections: statements db_exec_ex prepared, kept for the next run of the
     * same one-statement text (the report runs deps and the graph edges once per ANCS) */
    struct {
        sqlite3_stmt *st;
        char *text; /* the whole text it was prepared from (owned) */
        int busy;   /* running (a sink may run other SQL meanwhile) */
    } cache[8];
    unsigned cache_next; /* the slot replaced next */
};

/* A row being filled: dbi_row_begin, dbi_int/real/text for its non-NULL columns (COL(t, c);
 * columns not set are NULL), dbi_row_end. */
typedef struct db_row {
    db *d;
    const db_table *t;
    db_val *v; /* own columns (key columns sit before them) */
} db_row;

int dbi_row_begin(db_row *r, db *d, const db_table *t, util_err *err);
void dbi_int(db_row *r, int col, int64_t v);
void dbi_real(db_row *r, int col, double v);
void dbi_text(db_row *r, int col, const char *s); /* copied; NULL leaves the column NULL */
void dbi_text_n(db_row *r, int col, const char *s, size_t n); /* s[0 .. n) */
/* Write the row now (outside a batch, or a table with batch_log 0) or buffer it. */
int dbi_row_end(db_row *r, util_err *err);

/* Set key column k (DBK_<column>) that every keyed row carries from now on: text (copied;
 * NULL: NULL) or an integer. Unset keys are NULL. */
int dbi_key_text(db *d, int k, const char *s, util_err *err);
void dbi_key_int(db *d, int k, int64_t v);

/* Buffer rows from now on; dbi_batch_end writes them (each table's rows in order, 2^k per
 * INSERT: the same rows and outcome as one INSERT per row) or drops them (discard). */
void dbi_batch_begin(db *d);
int dbi_batch_end(db *d, int discard, util_err *err);
void dbi_rows_free(db *d);
/* Finalize the statements db_exec_ex keeps (before the connection closes). */
void dbi_cache_free(db *d);

/* ---- warnings (rows.c) and load_errors (faults.c) rows ------------------------------------ */

/* One warnings row. asset_id, offset, pak_id < 0: NULL. A row with no PAK written while a
 * decode is written (d->content) belongs to that content. */
int dbi_warn(db *d, const char *game, const char *type, int64_t asset_id, int64_t offset,
             const char *code, const char *msg, int64_t pak_id, util_err *err);
/* One load_errors row. entry < 0: whole-PAK fault (entry, type, asset NULL); off UINT64_MAX,
 * game NULL and release_id < 0: NULL. */
int dbi_load_error(db *d, const char *path, const char *game, int64_t release_id, int64_t entry,
                   uint32_t type, uint32_t id, const char *stage, uint64_t off, const char *msg,
                   util_err *err);

/* ---- decoded rows (rows_ancs.c, rows_anim.c, rows_evnt.c; shared helpers in rows.c) ------ */

/* rows.c: one asset_refs row from the current decode; char_index < 0: NULL (set level). */
int dbi_put_ref(db *d, const char *src_type, uint32_t src_id, const char *dst_type, uint32_t dst_id,
                int64_t char_index, const char *via, util_err *err);
/* rows.c: a warnings row per decoder warning of the report. */
int dbi_put_report_warnings(db *d, const char *game, const char *type, uint32_t id,
                            const ancs_report *rep, util_err *err);
/* events rows of one event set (owner 'ANCS', anim_index >= 0) or EVNT (anim_index -1). */
int dbi_put_event_nodes(db *d, const char *owner_type, uint32_t owner_id, int64_t anim_index,
                        const ancs_evnt *ev, int mp2, util_err *err);

/* Writing one ANCS: the set, and the meta-animation tree being walked. */
typedef struct dbi_ancs_w {
    db *d;
    uint32_t ancs_id;
    const ancs_set *set;
    util_err *err;
    const char *owner; /* meta_anim_nodes.owner of the tree being written */
    uint32_t owner_index;
    uint32_t seq, prim_seq;
} dbi_ancs_w;

/* The animation set's rows: animations and their trees, transitions, additive animations,
 * half transitions, resource pairs, event sets. */
int dbi_put_animset(dbi_ancs_w *w);

/* ---- helpers (connection.c) -------------------------------------------------------------- */

/* A UTIL_ESQL error "what: <SQLite's message>". */
int dbi_sql_fail(db *d, util_err *err, const char *what);
/* Run sql (no rows wanted): UTIL_ESQL naming the statement on failure. */
int dbi_exec(db *d, const char *sql, util_err *err);
/* Prepare sql, bind ?1 to text (when not NULL) or else to id, step once, finalize. */
int dbi_exec_bind(db *d, const char *sql, int64_t id, const char *text, util_err *err);
/* census_run.c: temp.census_acc's rows per set of releases, game, field and value, from
 * census_contents, with the rows of also (a table of the same columns) when not NULL, and
 * temp.census_cs (the step `-- @step census_sum` of the census script). */
int dbi_census_sum(db *d, const char *also, util_err *err);

/* census_rows.c: the census of one decode (an ANCS or an EVNT) counted from the rows it
 * writes, as db/census/census.sql counts a content it finds without census_contents rows:
 * dbi_census_begin before its first row (it makes itself the row writer's observer);
 * dbi_census_end after its last row writes the census_contents rows (or, with discard,
 * forgets the counts). */
void dbi_census_begin(db *d);
int dbi_census_end(db *d, int discard, util_err *err);
/* The fields census_rows.c counts, in db/columns.h's names; NULL after the last. */
extern const char *const dbi_census_fields[];
/* connection.c: whether d's main database is a file in WAL mode (a second connection then
 * reads the last commit while d writes). */
int dbi_wal_file(db *d);
/* connection.c: a PASSIVE checkpoint of d's WAL on a connection of its own, in a thread,
 * while d goes on writing (NULL: none, d is no file in WAL mode or the thread cannot
 * start); more asks for one more once that one is done (after a commit of d); finish waits
 * for every one asked for, closes that connection and says how many ran. */
typedef struct db_checkpointer db_checkpointer;
db_checkpointer *dbi_checkpoint_start(db *d);
void dbi_checkpoint_more(db_checkpointer *c);
unsigned dbi_checkpoint_finish(db_checkpointer *c);
/* connection.c: work that only reads committed rows, on a read-only connection of its own
 * to d's file, in a thread: the thread opens it and runs setup (SQL, or NULL), then
 * fn(rd, arg, err) inside one read transaction, from the last commit. NULL when d is no file
 * in WAL mode or the thread cannot start (the caller then does the work itself). join
 * waits for fn and says what it returned (0: done; not 0 also when the connection could not
 * be opened or set up, and the caller then does the work itself); the connection
 * (dbi_reader_db), with what fn left in its TEMP tables, stays open until free, which joins
 * first. */
typedef struct db_reader db_reader;
db_reader *dbi_reader_start(db *d, const char *setup, int (*fn)(db *rd, void *arg, util_err *err),
                            void *arg);
int dbi_reader_join(db_reader *r);
db *dbi_reader_db(db_reader *r);
void dbi_reader_free(db_reader *r);
/* census_run.c: the parallel section of a census script (`-- @parallel` ... `-- @end
 * parallel`) run on a read-only connection of its own to d's file, in a thread, from the
 * last commit: started once the rows it reads are committed, taken by dbi_census_run. NULL
 * when d is no file in WAL mode or the thread cannot start (dbi_census_run then runs the
 * section itself). Free with dbi_census_helper_free (which waits for the thread). */
typedef struct census_helper census_helper;
census_helper *dbi_census_helper_start(db *d, const char *script);
void dbi_census_helper_free(census_helper *h);
/* census_run.c: run a census script (db_census_sql): its `-- @count` SELECTs counted into
 * census_contents, its `-- @step census_sum` by dbi_census_sum, every other statement as
 * it is; with h (started on the same script), h's rows stand for the parallel section. */
int dbi_census_run(db *d, const char *script, census_helper *h, util_err *err);
/* Step a prepared statement whose result is one integer (or none: 0), then reset it. */
int dbi_query_int(db *d, const char *sql, int64_t *out, util_err *err);
/* FourCC as text (out[4] = 0); returns out. */
const char *dbi_fourcc(uint32_t v, char out[5]);
/* The schema files one by one: {"31_name_search", "text"}, ..., {NULL, NULL}
 * (db/schema/, in name order). */
extern const char *const db_schema_files[][2];
/* Every v_ view: {"v_characters", "CREATE VIEW v_characters AS ..."}, ..., {NULL, NULL}, in
 * creation order (written from columns.h at build time). */
extern const char *const db_views_sql[][2];
/* Make the v_ views as this ancsdb writes them when one is missing or differs (every one is
 * dropped and made again, in one transaction); nothing when they are current (views.c). A
 * writer's open calls it, so a file made by an older ancsdb gets the views of this one. */
int dbi_views_sync(db *d, util_err *err);

/* Empty asset_name_trigrams and fill it again from the map rows of asset_names (names.c;
 * inside the caller's transaction). */
int dbi_names_reindex(db *d, util_err *err);

/* 0 and 0xFFFFFFFF mean "no asset". */
static inline int dbi_id_none(uint32_t id)
{
    return id == 0 || id == 0xFFFFFFFFu;
}

#endif
