/* db.h — the SQLite side of ancsdb: schema, PAK ingest (one transaction per PAK), the
 * mapping of decoded ANCS/EVNT structs to rows, and a small statement runner used by the
 * named queries and `ancsdb sql`. Uses pak.h, ancs.h and SQLite; never parses bytes itself
 * and never prints to stdout (diagnostics go to the FILE * given in the options).
 * The files of db/ and their jobs: see internal.h and ingest_internal.h. */
#ifndef ANCSDB_DB_H
#define ANCSDB_DB_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ancs.h"
#include "pak.h"
#include "util.h"
#include "world.h"

/* An SQLite call failed (err.msg has SQLite's message). */
enum { UTIL_ESQL = UTIL_ELAST - 1 };

/* PRAGMA user_version of the schema this code writes. A database of version 5 or 6 opened
 * for writing is upgraded in place (db/schema/31_name_search.sql, 60_worlds.sql); one opened
 * for reading, or with another non-zero version, is refused (DB_EVERSION). */
#define DB_SCHEMA_VERSION 7

/* PRAGMA application_id of an ancsdb database ("ANDB"): a file without it is not ours and
 * is never written (not even its journal mode). */
#define DB_APPLICATION_ID 0x414E4442

/* The full CREATE script (tables, indexes, views), with `--` comments on columns. */
extern const char db_schema_sql[];

/* The census refill run by every ingest's final pass (db/census/census.sql). */
extern const char db_census_sql[];

/* Errors besides the UTIL_E* codes. */
enum {
    DB_EVERSION = -20,  /* schema version mismatch or foreign database */
    DB_EPARAM = -21,    /* db_exec: a parameter of the SQL has no value, or a name is bound twice */
    DB_EINTR = -22,     /* db_exec_ex: stopped by the caller's flag */
    DB_ENORELEASE = -23 /* db_scope_release: no release with that label */
};

enum { DB_OPEN_READWRITE = 0, DB_OPEN_READONLY = 1 };

typedef struct db db;

/* Open (and for DB_OPEN_READWRITE create or check the schema of) the database at path
 * (":memory:" works). Read-write connections use WAL, synchronous=NORMAL,
 * temp_store=MEMORY. owned: caller frees *out with db_close. Errors: UTIL_ESQL (cannot open),
 * DB_EVERSION (other schema version), UTIL_ENOMEM. */
int db_open(db **out, const char *path, int mode, util_err *err);
/* db_open; a read-write open first takes an exclusive lock on path + "-lock" (held until
 * db_close) so that two writers run one after the other: when another holds it,
 * waiting(ctx, path) is called (may be NULL) and the open waits for it. Read-only opens of a
 * folder or file that cannot be written read the file as immutable (no WAL files needed). */
int db_open_wait(db **out, const char *path, int mode, void (*waiting)(void *ctx, const char *path),
                 void *ctx, util_err *err);
void db_close(db *d);

/* ---- ingest -------------------------------------------------------------------------- */

#define DB_INGEST_MEMORY ((size_t)256 << 20)

typedef struct db_ingest_opts {
    pak_game game; /* PAK_GAME_UNKNOWN = detect per PAK; else force this game */
    int jobs;      /* decoder threads feeding the one writer; <= 1: all on the caller's */
    int quiet;     /* no per-fault lines on the log */
    /* Bytes of entry data (stored, inflated and the decoder's copy) in flight across all
     * decoder threads; a job
     * waits for room rather than allocate past it, and an entry needing more is a
     * load_errors row. 0: DB_INGEST_MEMORY. */
    size_t memory;
    int rehash;          /* also compare a hash of every byte before skipping an unchanged PAK */
    const char *release; /* --release LABEL: the release of PATHs that are not discs; NULL:
                            the base name of the PATH given (of its folder for a PAK file) */
    /* Diagnostics (NULL = silent): one line at a time without its newline (a fault, a PAK
     * removed from its release); the caller prints it. */
    void (*log)(void *ctx, const char *line);
    void *log_ctx;
    /* Progress (NULL = none): called with path set before each of the `total` PAKs (done of
     * them finished) and with done == total and path "finishing" before the final pass; with
     * path NULL when a line is about to be written on the log and at the end of the run (a
     * bar drawn on the log should be cleared then). db/ draws and prints nothing itself. */
    void (*progress)(void *ctx, size_t done, size_t total, const char *path);
    void *progress_ctx;
    /* When *stop becomes non-zero (a signal handler sets it) the run ends after the PAK being
     * read: every PAK before is committed, the final pass is left to the next run. NULL: never. */
    volatile sig_atomic_t *stop;
} db_ingest_opts;

typedef struct db_ingest_stats {
    long paks_seen;      /* PAKs found (files, and PAKs inside disc images) */
    long paks_ingested;  /* (re)written */
    long paks_skipped;   /* unchanged */
    long paks_elsewhere; /* of paks_skipped: read again because they came from another copy
                          * of their release (an image's extracted folder, a moved file),
                          * their entries found the same */
    long resources;      /* table entries of the (re)written PAKs */
    long ancs;           /* ANCS decoded in this run */
    long evnt;           /* EVNT decoded in this run */
    long characters;     /* characters of those ANCS */
    long inflated;       /* compressed entries inflated (the others' content was known from
                          * their stored bytes, seen in the database or earlier in the run) */
    long errors;         /* load_errors rows created in this run */
    long warnings;       /* warnings rows created in this run */
    int interrupted;     /* *opts->stop ended the run before every PAK was read */
    double seconds;
} db_ingest_stats;

/* Ingest every path (a .pak file or a folder searched recursively for *.pak in any case).
 * Faults of single PAKs/resources become load_errors rows and do not stop the run; the
 * return value is 0 unless something fatal happened (SQLite write failure, disk full,
 * out of memory): then UTIL_ESQL / UTIL_ENOMEM with err filled. */
int db_ingest_paths(db *d, const char *const *paths, int npaths, const db_ingest_opts *opts,
                    db_ingest_stats *stats, util_err *err);

/* Ingest one PAK held in memory (data[0..len), borrowed for the call) as if it were the
 * file `name` (the paks.path and load_errors.pak_path): the same per-PAK code path as
 * db_ingest_paths, reading from memory instead of the file. Used by the fuzz target and
 * tests. Same return values as db_ingest_paths. */
int db_ingest_mem(db *d, const char *name, const uint8_t *data, size_t len,
                  const db_ingest_opts *opts, db_ingest_stats *stats, util_err *err);

/* ---- structs -> rows (used by the ingest loop; public for tests) --------------------- */

/* Write every row derived from one decoded ANCS of game ("MP1"/"MP2"), content content_id
 * (contents.content_id; every row carries it): ancs, characters and their sub-tables, the
 * animation set, MP2 embedded events, asset_refs and decoder warnings. Runs inside the
 * caller's transaction (if any). */
int db_put_ancs(db *d, const char *game, uint32_t asset_id, int64_t content_id, const ancs_set *set,
                util_err *err);
/* Write the rows of one decoded EVNT resource: evnt, events, asset_refs, warnings. */
int db_put_evnt(db *d, const char *game, uint32_t asset_id, int64_t content_id,
                const ancs_evnt_file *ev, util_err *err);
/* Write the rows of one decoded MLVL (mlvl_worlds, mlvl_areas, area_layers, area_deps, ...;
 * db/schema/60_worlds.sql) or STRG (strg, strings) of content content_id, and its decoder
 * warnings. */
int db_put_mlvl(db *d, const char *game, uint32_t asset_id, int64_t content_id, const world_mlvl *m,
                util_err *err);
/* The asset_refs rows (src_type 'MLVL') of that decoded MLVL, with `via` naming area i
 * area_names[i] (NULL: no name), and the labels used (mlvl_ref_labels), so that the final
 * pass makes them again when an area's name is another (db/census/20_world.sql). */
int db_put_mlvl_refs(db *d, const char *game, uint32_t asset_id, int64_t content_id,
                     const world_mlvl *m, const char *const *area_names, util_err *err);
int db_put_strg(db *d, const char *game, uint32_t asset_id, int64_t content_id, const world_strg *s,
                util_err *err);
/* Delete every row derived from content content_id of asset (game, type, asset_id), and the
 * contents row itself. */
int db_delete_content(db *d, const char *game, const char *type, uint32_t asset_id,
                      int64_t content_id, util_err *err);

/* 1 when an ingest has committed PAK rows but not yet its final pass (the `assets` table,
 * the census, the reach table and the worlds' references may be behind the PAKs): it is
 * running, or it stopped and the next `ancsdb ingest` of the same paths finishes it. */
int db_final_pass_pending(db *d);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK on the connection. */
int db_begin(db *d, util_err *err);
int db_commit(db *d, util_err *err);
void db_rollback(db *d);

/* ---- names (names.c) ----------------------------------------------------------------- */

/* What one map import did. */
typedef struct db_names_stats {
    long entries;         /* <Asset> entries read */
    long rows;            /* asset_names rows of this source afterwards */
    long duplicates;      /* entries whose Key came again later in the map (the last kept) */
    long replaced;        /* rows of the same source deleted first (a re-import) */
    long type_mismatches; /* rows whose Type the corpus contradicts (kept) */
    unsigned long line;   /* refused map: line of the fault (1 = first), else 0 */
} db_names_stats;

/* Import a Prime World Editor asset name map (AssetNameMap32.xml) into asset_names with
 * source = the file's base name, replacing that source's rows, in one transaction. Streams
 * (fixed-size reads, one row per <Asset>). A map that is not well-formed XML, has another
 * root element than <AssetNameMap>, an <Asset> without <Key> or <Name>, or a Key that is not
 * 8 hex digits is refused: UTIL_EFORMAT with the reason in err and its line in st->line,
 * the database unchanged. UTIL_EIO (unreadable), UTIL_ESQL, UTIL_ENOMEM. */
int db_names_import(db *d, const char *path, db_names_stats *st, util_err *err);
/* The same for xml[0..len) as the map named source (tests). */
int db_names_import_mem(db *d, const char *source, const char *xml, size_t len, db_names_stats *st,
                        util_err *err);

/* Write every named asset to f as a map: one <Asset> per asset ID, holding the row
 * asset_label shows (a map's name, else the PAK name), XML-escaped; *count (may be NULL)
 * = entries. UTIL_ESQL, UTIL_EIO (write error). */
int db_names_export(db *d, FILE *f, long *count, util_err *err);

/* One entry of a map to write. */
typedef struct db_name_entry {
    uint32_t asset_id;
    const char *type;      /* FourCC, or NULL */
    const char *name;      /* the name (without directory) */
    const char *directory; /* e.g. "Characters/Samus/cooked/", or NULL */
    int auto_name;         /* <AutoGenName>: 1 true, else false */
    int auto_dir;          /* <AutoGenDir> */
} db_name_entry;

/* Write entries[0..n) to f as an asset name map in Prime World Editor's format (what
 * db_names_import reads). UTIL_EIO on a write error. */
int db_names_write_map(FILE *f, const db_name_entry *entries, size_t n, util_err *err);

/* Replace the rows of source 'pak' by the PAKs' named resources: one per asset, its first
 * name by PAK path, then position in the named-resource table. Runs in the caller's
 * transaction (the ingest's final pass). */
int db_names_refresh_pak(db *d, util_err *err);
/* ---- releases ------------------------------------------------------------------------- */

/* From now on the connection sees only release `label` (releases.label; several labels
 * separated by commas: those releases, `GM8E01_00,G2ME01_00`): TEMP views named
 * like the tables (paks, pak_entries, pak_names, assets, contents, warnings, load_errors,
 * releases and every table of decoded rows) hold its rows, so any query written against the
 * tables looks at that release. Works on read-only connections. DB_ENORELEASE naming the
 * labels there are when one is no release's; UTIL_ESQL. */
int db_scope_release(db *d, const char *label, util_err *err);

/* 1 when an integer result column called name holds asset IDs (printed as 8 hex digits): a
 * column db/columns.h declares an asset ID, or a named query's computed column named so. */
int db_is_id_column(const char *name);

/* A flag a query can test whatever connection runs it: a TEMP view called name exists from
 * now on (`EXISTS (SELECT 1 FROM temp.sqlite_master WHERE name = 'opt_all_paths')`), so
 * that the same SQL runs where the flag is never set. Works on read-only connections. */
int db_scope_flag(db *d, const char *name, util_err *err);

/* ---- statement runner (named queries, `ancsdb sql`) ---------------------------------- */

enum { DB_NULL = 0, DB_INT, DB_REAL, DB_TEXT, DB_BLOB };

/* One result cell; s/n borrowed until the callback returns. */
typedef struct db_cell {
    int type;
    int64_t i;
    double r;
    const char *s; /* DB_TEXT: NUL-terminated; DB_BLOB: n bytes */
    size_t n;
} db_cell;

/* A parameter value: DB_INT or DB_TEXT (DB_NULL binds NULL). */
typedef struct db_bind {
    int type;
    int64_t i;
    const char *s;
} db_bind;

/* Receives the result of each statement: begin once (column names), then row per row,
 * then end. A non-zero return from row stops the statement. */
typedef struct db_sink {
    void *ctx;
    void (*begin)(void *ctx, int ncols, const char *const *names);
    int (*row)(void *ctx, int ncols, const db_cell *cells);
    void (*end)(void *ctx);
} db_sink;

/* Run every statement of sql in turn, binding binds[0..nbind) as ?1..?n of each statement
 * that has parameters; statements that return columns report to sink. Every parameter of a
 * statement must get a value: DB_EPARAM naming it otherwise. Errors: UTIL_ESQL with SQLite's
 * message (e.g. "attempt to write a readonly database"), DB_EPARAM, UTIL_ENOMEM. */
int db_exec(db *d, const char *sql, int nbind, const db_bind *binds, const db_sink *sink,
            util_err *err);

/* What db_exec_ex adds to db_exec; every member may be 0/NULL. */
typedef struct db_exec_opts {
    /* Named parameters: values[k] binds :names[k], @names[k] or $names[k] (names without the
     * prefix), whichever the statement uses. A parameter also bound by position, or a name
     * that no statement of the text uses: DB_EPARAM. */
    int nnamed;
    const char *const *names;
    const db_bind *values;
    /* Non-zero: a positional value beyond the parameters of every statement is DB_EPARAM
     * (`ancsdb sql --param`); otherwise extra values are ignored. */
    int exact;
    /* Checked while a statement runs and between rows: when *stop becomes non-zero (a signal
     * handler sets it) the statement ends and db_exec_ex returns DB_EINTR. */
    volatile sig_atomic_t *stop;
    /* Called after sink->begin for each result column: the table and column it is read from
     * (through views and subqueries), or NULLs for an expression. ctx is sink->ctx. */
    void (*origin)(void *ctx, int col, const char *table, const char *column);
} db_exec_opts;

int db_exec_ex(db *d, const char *sql, int nbind, const db_bind *binds, const db_exec_opts *o,
               const db_sink *sink, util_err *err);

/* ---- a result held in memory (exec.c) ------------------------------------------------
 * db_exec_rows runs sql as db_exec does and keeps every row: names[c] the column names of
 * the first result, row r's column c at cells[r * ncols + c], TEXT and BLOB bytes copied
 * (NUL-terminated, n kept). A row of another width than the first stops the run. */
typedef struct db_rows {
    int ncols;
    char **names; /* ncols names, or NULL before any result */
    size_t nrows, cap;
    db_cell *cells; /* owned */
    int oom;
} db_rows;

/* *out is emptied first; on failure it holds the rows read so far. UTIL_ENOMEM ("out of
 * memory"), or db_exec's errors. owned: free with db_rows_free (also after a failure). */
int db_exec_rows(db_rows *out, db *d, const char *sql, int nbind, const db_bind *binds,
                 util_err *err);
/* NULL-tolerant; leaves *t empty. */
void db_rows_free(db_rows *t);
/* The index of the column called name, or -1. */
int db_rows_col(const db_rows *t, const char *name);

static inline const db_cell *db_rows_at(const db_rows *t, size_t row, int col)
{
    return &t->cells[row * (size_t)t->ncols + (size_t)col];
}
/* The cell's text; NULL unless it is TEXT. */
static inline const char *db_rows_text(const db_rows *t, size_t row, int col)
{
    const db_cell *c = db_rows_at(t, row, col);
    return c->type == DB_TEXT ? c->s : NULL;
}
/* The cell's integer; -1 unless it is INTEGER. */
static inline int64_t db_rows_int(const db_rows *t, size_t row, int col)
{
    const db_cell *c = db_rows_at(t, row, col);
    return c->type == DB_INT ? c->i : -1;
}

#endif
