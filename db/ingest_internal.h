/* ingest_internal.h — the ingest's private types and the functions its files share: the
 * PAK reading (ingest_read.c), decode jobs and worker threads (ingest_jobs.c), transactions,
 * skip check and deletes (ingest_tx.c), one PAK (ingest_pak.c), one entry (ingest_entry.c),
 * the final pass (final_pass.c), the releases and PAKs to read (ingest_walk.c) and bulk
 * indexes (bulk.c);
 * db_ingest_paths / db_ingest_mem (ingest.c) run them. */
#ifndef ANCSDB_DB_INGEST_INTERNAL_H
#define ANCSDB_DB_INGEST_INTERNAL_H

#include <pthread.h>
#include <sys/stat.h>

#include "ingest_walk.h"
#include "internal.h"

typedef struct ing ing;

/* ---- reading a PAK (ingest_read.c) -------------------------------------------------------
 * A PAK is read through a util_src, never mapped: pak_open_src_tables, then (when it is not
 * skipped) pak_read_entry_info (in a disc that names its game: pak_read_entry_info_one for
 * each entry just before its job), then each payload by pak_inflate when its job runs.
 * Memory follows the tables and the payloads in flight, not the file size. Workers read the
 * same source concurrently (pread). */

/* Ask the kernel to start reading item it's bytes (a PAK file, or its range of a disc
 * image) into the page cache, so that a cold read overlaps the work on the PAK before it. A
 * hint: failures are ignored. */
void ing_prefetch(const ing *g, const iw_item *it);
/* A first ingest's read-ahead thread: it has the kernel read the PAKs in order, at most
 * ING_AHEAD_ITEMS past the one being read (ING_AHEAD_READ for a PAK it does not open), so
 * the disk works while the workers inflate and hash (a cold page cache). Only a hint: what
 * it cannot open it leaves to the read proper; it reads nothing but its plan, made before it
 * starts.
 * It also opens the next PAK files of a folder without a disc header (whose game its codecs
 * decide, so that every entry's sizes and codec are read before its first job), at most
 * ING_AHEAD_PAKS - 1 past the current one: their tables and those sizes, read while the PAKs
 * before are written, are handed to the writer (ing_ahead_take), whose workers waited for
 * them between two PAKs (1x: 0.06 s in all), and whose idle workers hash their entries ahead
 * (ing_ahead_peek, ing_pipeline_ahead_next). Every such file but the first is opened there,
 * so a fault in one is reported from there. */
/* Four: with two, a corpus of many small PAKs (the fixture's 1x cut in 175) left the workers
 * idle between PAKs once the next two were hashed, and its first ingest took 1.41 s against
 * 1.36 s (docs/benchmark.md); each PAK opened ahead holds its tables and a 24-byte hash
 * slot per entry (10x, 48,000 entries: about 3.5 MB). A PAK in a disc image is not opened
 * or hashed ahead, and its bytes are read ahead as before, two PAKs ahead: four asked more
 * of a cold disk at once with nothing to gain. */
#define ING_AHEAD_ITEMS 4
#define ING_AHEAD_READ  2
typedef struct ing_opened {
    util_src *src;
    pak_file *p;
    int rc; /* util_src_open_file, then pak_open_src_tables (e says why) */
    util_err e;
    int info_rc; /* pak_read_entry_info, when rc is 0 (info_e says why) */
    util_err info_e;
} ing_opened;
typedef struct ing_ahead_item {
    const char *file; /* NULL: nothing to read ahead */
    off_t off, len;
    int open;  /* plan: a PAK file (off 0, len 0) to open too */
    int state; /* AHEAD_*, guarded by mu */
    ing_opened opened;
} ing_ahead_item;
typedef struct ing_ahead {
    pthread_t t;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    ing_ahead_item *items; /* one per item, planned before the thread starts */
    size_t n;
    size_t cur;  /* the item being read (guarded by mu) */
    int running; /* the thread has items left (guarded by mu) */
    int quit, started;
} ing_ahead;
void ing_ahead_start(ing_ahead *a, const ing *g);
void ing_ahead_at(ing_ahead *a, size_t item);
/* Item i as the thread opened it (*out; out->rc 0: opened), waiting while it opens it: 1;
 * 0 when it did not (the caller opens it; the thread no longer will). */
int ing_ahead_take(ing_ahead *a, size_t i, ing_opened *out);
/* Item i's PAK when the thread has opened it and read its entries' sizes, without waiting,
 * or NULL. It stays the thread's until ing_ahead_take; nothing may change it before then. */
const pak_file *ing_ahead_peek(ing_ahead *a, size_t i);
void ing_ahead_stop(ing_ahead *a);
/* XXH3-64 of every byte of src (--rehash). */
int ing_hash_all(const util_src *src, uint64_t *out, util_err *err);

/* ---- decode jobs and workers (ingest_jobs.c) ---------------------------------------------- */

/* Content hashes known from the stored bytes of compressed entries: (XXH3 of the stored
 * bytes, stored size) -> XXH3 of the inflated bytes. A compressed entry whose stored bytes
 * were seen before (in this run or in the database: another release of the game) is hashed
 * at read speed without being inflated. Open addressing; shared by the workers under the
 * pipeline mutex, filled by the writer. 16 bytes a slot, at most 3/4 full: 10x, ~300,000
 * compressed streams, 8 MiB. */
typedef struct ing_hcache_slot {
    uint64_t key; /* the stored hash and size mixed (0: empty) */
    uint64_t content_hash;
} ing_hcache_slot;

typedef struct ing_hcache {
    ing_hcache_slot *slot;
    size_t cap, n; /* cap: a power of two */
    /* The stored sizes of ING_SIZES_MIN bytes or more among the keys (0: an empty slot): an
     * entry of a size not among them cannot be known, so a large one is hashed both ways in
     * one reading (ingest_jobs.c). Open addressing, a power of two, at most 3/4 full. */
    uint32_t *sizes;
    size_t scap, sn;
} ing_hcache;

#define ING_SIZES_MIN (256u << 10)

struct ing_pipeline;

/* One resource-table entry on its way from the PAK to the writer: read and hashed (every
 * type; inflated unless its stored bytes are known), for ANCS/EVNT/MLVL/STRG also decoded. The
 * writer sets the inputs before a worker may claim the job, and reads the results once `done` is
 * set. */
typedef struct ing_job {
    const pak_file *p;       /* read through its source */
    struct ing_pipeline *pl; /* its hash cache; NULL: none */
    uint32_t entry;
    ancs_game game;
    int want_decode; /* guess: decode now (the writer decodes itself when it guessed wrong) */
    size_t budget;   /* the run's memory budget (0: none): an entry needing more fails */
    size_t reserved; /* of the pipeline's budget, held until ing_job_clear */
    struct ing_pipeline *owner; /* ring slots: the pipeline whose budget is held */
    size_t seq;                 /* sequence number (set by the writer when it hands the job out) */
    /* lazy_p: the entry's sizes are still to be read (pak_read_entry_info_one) from this PAK,
     * by a worker, before the job is claimed (info says how far that is; info_e says why they
     * could not be read, and the writer then fails the PAK); NULL: they are in. */
    pak_file *lazy_p;
    enum { ING_SIZES_TO_READ, ING_SIZES_READING, ING_SIZES_READ, ING_SIZES_FAILED } info;
    util_err info_e;
    uint8_t *pre; /* a small entry's stored bytes, read with its sizes (ING_PRE_MAX) */
    size_t pre_len;
    /* a stored entry's size without its padding, from the bytes read (has_unpadded): the
     * writer sets the entry's decompressed_size from it (pak_read_entry_heads leaves it) */
    uint32_t unpadded;
    int has_unpadded;
    int done;
    int inflated; /* 0: entry out of bounds or inflate failed (e says why) */
    int hashed;   /* hash is set (inflated, or known from the stored bytes) */
    int has_stored_hash;
    uint8_t *buf; /* inflated bytes (kept for ANCS/EVNT only) */
    size_t len;
    size_t hlen;          /* len without trailing 0xFF padding */
    uint64_t hash;        /* XXH3-64 of the first hlen bytes: the content */
    uint64_t stored_hash; /* XXH3-64 of the stored bytes of a compressed entry */
    int decoded;          /* decode attempted; dec_rc its result */
    int dec_rc;
    util_err e;
    util_arena arena;
    ancs_set set;
    ancs_evnt_file ev;
    world_mlvl mlvl;
    world_strg strg;
    /* Ring slots: what the writer's ing_job_clear left for the worker that claims the slot
     * next to free (ingest_jobs.c), and how many bytes that is (the writer's count). */
    uint8_t *dead_buf, *dead_pre;
    util_arena dead_arena;
    size_t dead_bytes;
} ing_job;

/* Whether entries of this type are decoded (ANCS, EVNT, MLVL, STRG), and its name. */
int ing_decoded_type(uint32_t type);
const char *ing_type_name(uint32_t type);

void ing_job_set(ing_job *j, const pak_file *p, uint32_t entry, ancs_game game, int want);
/* Inflate and hash the entry; decode it when asked to. */
void ing_job_run(ing_job *j);
/* The calling thread's buffers for entries not decoded (ingest_jobs.c), given back. */
void ing_scratch_free(void);
void ing_job_decode(ing_job *j);
/* Free the results; the slot is ready for the next job. */
void ing_job_clear(ing_job *j);

/* An entry hashed ahead of its job (ing_pipeline_ahead_begin): a worker with no job to claim
 * reads, inflates and hashes an entry of the current PAK that is not handed out yet and not
 * decoded (its results are a few numbers, not bytes), so that the workers keep busy while the
 * writer spends a while on rows; the entry's job later takes these results and reads nothing.
 * Once the current PAK has no such entry left, it hashes one of the next PAKs the read-ahead
 * thread has opened (ing_pipeline_ahead_next). */
typedef struct ing_ahead_hash {
    uint8_t state; /* ING_AH_NONE, ING_AH_RUNNING, ING_AH_DONE, ING_AH_FAILED (its job runs it) */
    uint8_t inflated, has_stored_hash, has_unpadded;
    uint32_t unpadded;
    uint64_t hash, stored_hash;
} ing_ahead_hash;
enum { ING_AH_NONE, ING_AH_RUNNING, ING_AH_DONE, ING_AH_FAILED };
/* PAKs whose entries are hashed ahead at once: the current one and the next ones the
 * read-ahead thread has opened (at most ING_AHEAD_ITEMS past the current one) */
#define ING_AHEAD_PAKS 5
_Static_assert(ING_AHEAD_PAKS - 1 <= ING_AHEAD_ITEMS, "a PAK offered is one the thread opens");
/* A PAK whose entries are hashed ahead: ah[k] for its entry k; next: the first entry not
 * looked at yet; n: its entries, 0 once no more are to start. */
typedef struct ing_ahead_pak {
    ing_ahead_hash *ah;
    const pak_file *p;
    size_t base; /* the job of p's entry 0 (the next PAK: none is handed out yet) */
    size_t n, next;
    int running; /* workers hashing one of its entries */
} ing_ahead_pak;

/* Worker threads and the ring of job slots. Jobs carry a sequence number that keeps
 * growing across PAKs; job k lives in ring[k % cap]. Workers claim jobs with
 * claim <= k < limit; the writer raises limit as it consumes. */
typedef struct ing_pipeline {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    pthread_t *threads;
    int nthreads; /* 0: the writer runs every job itself (--jobs 1) */
    int quit;
    ing_job *ring;
    size_t cap;
    size_t claim, limit;
    int idle;    /* workers waiting for a job */
    int waiting; /* the writer waits for jobs wseq..wend to be done */
    size_t wseq, wend;
    size_t batch;        /* jobs a writer waits for at once, and wakes a worker for */
    size_t budget, used; /* bytes of entry data: the limit, and reserved by claimed jobs */
    size_t large;        /* bytes of large entries held whole (ingest_jobs.c) */
    ing_hcache cache;    /* guarded by mu while workers run */
    int info_reading;    /* workers reading an unclaimed job's sizes (see ing_job.lazy_p) */
    int draining;        /* the writer waits for those reads to end (ing_pipeline_drain) */
    /* entries hashed ahead: ah[0] of the PAK whose jobs are handed out
     * (ing_pipeline_ahead_begin), then of the next ones in order (ing_pipeline_ahead_next) */
    ing_ahead_pak ah[ING_AHEAD_PAKS];
    int ah_waiting;    /* workers whose claimed job waits for its entry hashed ahead */
    size_t deferred;   /* the writer's: bytes left in slots for the workers to free */
    size_t unreserved; /* the writer's: budget bytes of jobs consumed, not yet given back */
} ing_pipeline;

/* ---- the hash cache (ingest_cache.c) ---- */
/* The content hash known for stored bytes (1), or 0. */
int ing_cache_get(ing_pipeline *pl, uint64_t stored_hash, uint32_t size, uint64_t *out);
/* Whether an entry of `size` stored bytes (at least ING_SIZES_MIN) may have its content known
 * by ing_cache_get: whether a mapping of that size is there. */
int ing_cache_size_seen(ing_pipeline *pl, uint32_t size);
/* Remember a mapping (only an optimisation: out of memory is ignored). */
void ing_cache_put(ing_pipeline *pl, uint64_t stored_hash, uint32_t size, uint64_t content_hash);
/* Forget every mapping and free the table (after the last PAK of a run). */
void ing_cache_free(ing_pipeline *pl);

/* budget: bytes of entry data in flight across the workers (0: DB_INGEST_MEMORY). */
int ing_pipeline_start(ing_pipeline *pl, int jobs, size_t budget, util_err *err);
/* Bytes an entry needs in memory: its stored bytes, and its inflated bytes twice (the
 * inflated buffer and the decoder's copy of it); for an entry always read a window at a time
 * (a large one not decoded: ingest_jobs.c), the windows. */
size_t ing_entry_need(const pak_entry *e);
void ing_pipeline_stop(ing_pipeline *pl);
void ing_pipeline_wait(ing_pipeline *pl, ing_job *j);
void ing_pipeline_release(ing_pipeline *pl, size_t limit);
void ing_pipeline_drain(ing_pipeline *pl, size_t from);
/* Let idle workers hash entries of p ahead of their jobs (job base is p's entry 0), until
 * ing_pipeline_ahead_end, which waits for those running and must come before p closes.
 * Only where reading ahead costs nothing more: not in a container whose blocks are cached
 * for the jobs close ahead, nor where each entry's sizes are read just before its job.
 * When p is the next PAK already offered, what was hashed of it stays. */
void ing_pipeline_ahead_begin(ing_pipeline *pl, const pak_file *p, size_t base);
/* Offer p, a PAK after the one whose jobs are handed out (offered in their order), opened
 * ahead and with every entry's sizes in: once the PAKs before it have nothing left to hash
 * ahead, idle workers hash p's entries until it begins (ing_pipeline_ahead_begin) or ends.
 * An offer of a PAK offered already, or with ING_AHEAD_PAKS - 1 pending, is ignored. */
void ing_pipeline_ahead_next(ing_pipeline *pl, const pak_file *p);
/* No more entries of p (NULL: of every PAK) are hashed ahead; waits for those running and
 * drops the results. */
void ing_pipeline_ahead_end(ing_pipeline *pl, const pak_file *p);

/* ---- the MLVLs' asset_refs rows (ingest_world.c) -------------------------------------------
 * Their `via` names each area from its name STRG (string 0 in ENGL), which sits in the PAK
 * of its MLVL after it, or in another PAK of the release. So a new MLVL content's decode
 * waits until the release has shown a STRG of every name ID it needs, or until the end of the
 * release's last PAK, and its rows are written then, in that PAK's transaction: each area
 * named from the STRG of that ID with the highest content_id the release has shown, as the
 * view `areas` prefers (without one: the highest of any release). The labels used go to
 * mlvl_ref_labels; the final pass makes the rows of a content again when its labels are not
 * what the view says (a name STRG in another release), and makes those of a content whose
 * rows were not written (its decode was still waiting when a PAK was rolled back or the run
 * ended): so what is chosen here only spares that pass work, it decides no row. */
typedef struct ing_strg_seen {
    uint64_t key; /* game << 32 | STRG ID, plus one (0: empty slot) */
    int64_t content_id;
} ing_strg_seen;
typedef struct ing_mlvl_wait {
    const char *game; /* "MP1" / "MP2" */
    uint32_t id;
    int64_t content_id;
    int64_t rel_id; /* the release whose PAK held it */
    world_mlvl m;
    util_arena arena; /* m's memory, taken from its job */
} ing_mlvl_wait;
/* MLVL decodes waiting past this many bytes have their rows written at once. */
#define ING_MLVL_WAIT_MAX (8u << 20)
typedef struct ing_worlds {
    int64_t rel_id;      /* the release the STRG map is of */
    ing_strg_seen *seen; /* open addressing, at most half full */
    size_t cap, n;
    UTIL_VEC(ing_mlvl_wait) wait;
    size_t wait_bytes; /* of their arenas */
} ing_worlds;

/* ---- one run ------------------------------------------------------------------------------ */

/* Page cache of the ingest connection: large enough for the B-tree pages a PAK's rows
 * touch, bounded so the whole run stays well under 64 MiB. Sorts for index builds spill to
 * temporary files rather than memory. */
#define INGEST_CACHE_KIB 16384

/* What one PAK's jobs found, by entry index: written to pak_entries after the jobs. */
typedef struct ing_entry_out {
    uint64_t hash, stored_hash;
    int64_t content_id; /* 0: none */
    uint8_t hashed, has_stored;
} ing_entry_out;

/* Where a PAK is read from and what identifies it. */
typedef struct ing_pak_at {
    const char *path;         /* paks.path */
    const char *release_path; /* paks.release_path */
    int64_t release_id;
    int64_t source_offset; /* in the image; -1 for a file */
    pak_game game;         /* the release's disc code names it; else UNKNOWN */
    const char *disc_id;   /* the disc's game ID ("GM8E"), NULL without a disc */
    int block_cache;       /* read through a container's cache of decoded blocks */
    int release_ends;      /* the last PAK of its release this run reads */
    size_t item;           /* its place in the run (g->L.items) */
} ing_pak_at;

struct ing {
    db *d;
    ing_ahead *ahead; /* a first ingest's read-ahead thread, or NULL */
    const db_ingest_opts *o;
    db_ingest_stats *st;
    util_err *err;
    iw_list L;      /* releases and PAKs to read (ingest_walk.h) */
    int64_t rel_id; /* release of the PAK being read (load_errors.release_id), -1 none */
    int64_t *kept;  /* pak_ids read or found unchanged in this run */
    size_t nkept, capkept;
    int changed;
    int bulk;       /* one transaction for the run (a PAK that may fail alone: a savepoint) */
    int savepoint;  /* ing_tx_begin_undo opened one */
    int clean;      /* the run began with no PAK and no content and has deleted no entry:
                     * every content is held by the entries it was decoded from */
    uint64_t chash; /* --rehash: XXH3 of every byte of the current PAK */
    ing_pipeline pl;
    ing_entry_out *out;      /* the current PAK's entries */
    int64_t force_cid;       /* ing_finish_entry: decode again into this content (final pass) */
    int64_t cur_pak;         /* paks.pak_id of the PAK whose entries are being finished (-1) */
    const uint8_t *mem_data; /* db_ingest_mem: the one PAK's bytes, used instead of its path */
    size_t mem_len;
    /* log lines of faults inside a PAK's transaction, kept until it commits (ing_log_hold) */
    char *held;
    size_t held_len, held_cap;
    int holding;
    ing_worlds worlds; /* ingest_world.c */
    /* the indexes this run's bulk load dropped and left to its final pass to build, or NULL
     * (then the pass builds whatever the schema has and the database lacks) */
    const struct ing_indexes *late;
};

/* ingest_world.c: an entry of the PAK being written is STRG content cid. */
void ing_worlds_strg(ing *g, const char *game, uint32_t id, int64_t cid);
/* ingest_world.c: job j's MLVL (new content cid, its rows written) waits for its area names
 * (above); the job's arena is taken. */
int ing_worlds_wait(ing *g, const char *game, uint32_t id, int64_t cid, ing_job *j);
/* ingest_world.c: as a PAK's entries are written and at their end, the asset_refs rows of
 * the MLVLs waiting whose names the release has shown (every one when release_ends: the
 * release's last PAK), and forget them; drop: forget every one (a PAK was rolled back). */
int ing_worlds_flush(ing *g, int release_ends);
void ing_worlds_drop(ing *g);
/* ingest_world.c: free everything (the end of a run). */
void ing_worlds_free(ing *g);

/* faults.c: one load_errors row, the count, and a line on the log. entry < 0: whole PAK. */
int ing_fault(ing *g, const char *path, const char *game, int64_t entry, uint32_t type, uint32_t id,
              const char *stage, uint64_t off, const char *msg);
/* faults.c: one line (printf format, no newline) handed to the log callback, the progress
 * bar cleared first; nothing when there is no log or the run is quiet. */
void ing_log(ing *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* faults.c: from ing_log_hold on, the lines of ing_fault are kept, not logged; ing_log_release
 * logs them (print 1: the PAK's rows were committed) or drops them (0: rolled back, so the log
 * names no fault the database does not hold). Past HELD_LOG_MAX bytes they are logged at once. */
void ing_log_hold(ing *g);
void ing_log_release(ing *g, int print);

/* ingest_read.c: open the PAK of item it: a file, a byte range of its release's image (a
 * plain image or a container, disc_container_open), or db_ingest_mem's bytes. *image is an image
 * source opened for the purpose (close it after *out; NULL when none). owned: util_src_close. */
int ing_open(ing *g, const char *file, const char *image, int64_t off, uint64_t len,
             util_src **image_src, util_src **out, util_err *err);
/* Bytes of decompressed disc container blocks kept between reads: a thirty-second of the
 * run's --memory budget, within 1..8 MiB (the image is read by the decoder threads through it). */
size_t ing_cache_bytes(const ing *g);
/* The largest decoded unit (GCZ block, WIA/RVZ group) a container may have: its reader keeps
 * two even past that cache, at most half of --memory, so a quarter of it (the default
 * accepts every chunk size: DISC_MAX_BLOCK is 64 MiB). */
size_t ing_unit_max(const ing *g);

/* ingest_tx.c: one PAK's changes are a transaction; in a bulk load, part of its one
 * transaction, in a savepoint when they may have to be undone alone (undo) while the run goes
 * on. ing_tx_begin: no such undo. */
int ing_tx_begin_undo(ing *g, int undo);
int ing_tx_begin(ing *g);
int ing_tx_commit(ing *g);
void ing_tx_rollback(ing *g);
/* ingest_state.final_pass_pending: set with a PAK's changes, cleared by the final pass. */
int ing_set_pending(ing *g, int on);
int ing_pending_flag(ing *g, int *out);
/* The paks row of (release, path inside it): old id (-1 if none), its path (owned, or
 * NULL) and whether the PAK can be skipped (p NULL: never). */
int ing_lookup_old(ing *g, const ing_pak_at *at, const struct stat *sb, const pak_file *p,
                   int64_t *old_id, char **old_path, int *skip);
/* The same file read before as a PAK of another release (or another path inside it), and
 * unchanged: it becomes this one without being read again (*moved 1, *old_id its row). */
int ing_adopt_same_file(ing *g, const ing_pak_at *at, const struct stat *sb, const pak_file *p,
                        int64_t *old_id, int *moved);
/* An unchanged PAK read from another place: only paks.path (and load_errors) change. */
int ing_move_pak(ing *g, int64_t id, const char *old_path, const ing_pak_at *at);
/* A PAK of another release last read from path is gone from there: remove it. */
int ing_evict_path(ing *g, const char *path, int64_t keep_id);
/* Delete everything that came from PAK old_id (path): its entries, names, warnings and
 * load_errors. Contents its entries held stay until the final pass finds them unheld. */
int ing_delete_pak(ing *g, int64_t old_id, const char *path);
/* pak_id of a kept PAK (read or unchanged in this run). */
int ing_kept_add(ing *g, int64_t pak_id);

/* ingest_pak.c: ingest one PAK item; an unreadable one becomes an 'error' row. */
int ing_do_pak(ing *g, const iw_item *it);

/* ---- the game decision (ingest_game.c) ---------------------------------------------------- */
/* The ANCS signal of the game decision: what the first readable ANCS among the first 4 in
 * bounds says (ancs_guess_game), else the version of an MLVL or STRG (4 entries read in
 * all), PAK_GAME_UNKNOWN when none tells. */
pak_game ing_game_from_ancs(const pak_file *p, size_t budget);
typedef struct ing_game_choice {
    pak_game game;     /* the game the PAK's rows get */
    pak_game detected; /* what its signals said (paks.game_detected) */
    int guessed;       /* no signal: MP1 for now, settled after the run */
    int conflict;      /* the signals disagreed; the strongest won */
} ing_game_choice;
/* The game of PAK p at `at`: --game, else the release's disc code, else the signals; -1 when
 * none tells and p holds something whose decoding depends on the game (compressed entries,
 * an ANCS). */
int ing_decide_game(ing *g, const ing_pak_at *at, pak_file *p, ing_game_choice *out);
/* After the run: each PAK without a signal takes its release's disc game, else its folder's
 * game, else MP1 (and its game_unknown warning follows). */
int ing_settle_unknown_games(ing *g);

/* ingest_entry.c: the writer's half of job j (entry of the PAK with row pak_id): note the
 * entry's hashes in g->out; for an ANCS/EVNT find its content or make it (decode, contents
 * row, the decode's rows; a content's rows come from its shortest copy). Faults become
 * load_errors; SQL failures and out of memory are returned. */
int ing_finish_entry(ing *g, ing_job *j, const char *path, const char *game);
/* Whether (game, type, id) is an ANCS/EVNT with no content yet: the guess handed to a
 * worker. */
int ing_want_decode(ing *g, const char *game, const pak_entry *e);

/* final_pass.c: what spans PAKs, recomputed after any PAK changed: unknown games, contents
 * no entry holds, contents whose copy is gone, copy_differs, `assets`, releases; whether a
 * killed run left that undone (*out). */
int ing_final_pass(ing *g, db_checkpointer *ck);
int ing_final_pass_needed(ing *g, int *out);

/* assets.c: rebuild `assets` and the id_type_conflict warnings (inside the caller's
 * transaction), from the rows pre collected (NULL, or it failed: collected here); whether
 * `assets` differs from what pak_entries say (*out). pre_start collects on a reader
 * (connection.c) what the rebuild reads, then runs then(rd, arg, err) there when then is
 * not NULL (NULL: no reader); the final pass starts it once its first transaction is
 * committed, and frees it after the rebuild. pre_db waits for the reader and gives its
 * connection, with what then left in its TEMP tables (NULL: no reader, or it failed). */
typedef struct ing_assets_pre ing_assets_pre;
ing_assets_pre *ing_assets_pre_start(db *d, int (*then)(db *rd, void *arg, util_err *err),
                                     void *arg);
db *ing_assets_pre_db(ing_assets_pre *p);
void ing_assets_pre_free(ing_assets_pre *p);
int ing_rebuild_assets(ing *g, ing_assets_pre *pre);
int ing_assets_differ(ing *g, int *out);

/* bulk.c: the non-unique secondary indexes (of every table, or of table only), dropped
 * (their statements kept in x) before many rows go in, and built again after them. */
typedef struct ing_indexes {
    char **sql;
    size_t n;
} ing_indexes;
int ing_db_is_empty(ing *g);
int ing_drop_indexes(db *d, const char *table, ing_indexes *x, util_err *err);
/* Which of x ing_create_indexes builds: all; those the final pass reads before it calls
 * ing_restore_indexes; the others. */
enum ing_index_set { ING_INDEXES_ALL, ING_INDEXES_EARLY, ING_INDEXES_LATE };
int ing_create_indexes(db *d, const ing_indexes *x, enum ing_index_set which, util_err *err);
/* Build the indexes the database lacks: late's ING_INDEXES_LATE (a bulk load's of this run,
 * left to its final pass), or, with late NULL, every index of the schema it lacks (one a run
 * killed before its final pass left dropped). */
int ing_restore_indexes(db *d, const ing_indexes *late, util_err *err);
void ing_indexes_free(ing_indexes *x);

#endif
