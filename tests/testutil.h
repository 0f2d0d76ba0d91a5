/* testutil.h — helpers shared by the cmocka suites. */
#ifndef ANCSDB_TESTUTIL_H
#define ANCSDB_TESTUTIL_H

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pak.h"
#include "util.h"

/* Path of the shared folder (holding corpus/), or NULL when it is absent. */
const char *tu_shared_dir(void);
/* Path of the shared corpus folder, or NULL when absent. */
const char *tu_corpus_dir(void);
/* Skip the running cmocka test because something it needs is absent (the sample corpus, a
 * tool) and remember that one was skipped: tu_status then turns the suite's 0 into 77, which
 * ctest reports as skipped (SKIP_RETURN_CODE), never as passed. */
extern int tu_skipped;
#define TU_SKIP()                                                                                  \
    do {                                                                                           \
        tu_skipped = 1;                                                                            \
        skip();                                                                                    \
    } while (0)
/* main's status: cmocka_run_group_tests's result, or 77 when it passed with a test skipped. */
int tu_status(int cmocka_rc);
/* Path of the built ancsdb binary. */
const char *tu_ancsdb(void);
/* Path of the source tree. */
const char *tu_source_dir(void);
/* Read a whole file; caller free()s. NULL on failure. */
uint8_t *tu_read_file(const char *path, size_t *len);
/* len pseudo-random bytes from seed, in a small alphabet (zlib has work to do, and no byte
 * is 0xFF: no padding to strip); fails the running test without memory. Caller free()s. */
uint8_t *tu_bytes(uint32_t seed, size_t len);
/* Write a whole file; 0 on success. */
int tu_write_file(const char *path, const void *data, size_t len);
/* A fresh temporary directory (mkdtemp); caller frees the string. */
char *tu_tempdir(void);
/* Run a shell command, capturing stdout (caller frees *out when non-NULL); returns the
 * exit status, or -1. */
int tu_run(const char *cmd, char **out);
/* Remove a folder and everything in it (rm -rf); the exit status, or -1. */
int tu_remove_tree(const char *dir);

/* Fail unless growing the input 4 times (n, then 4n: areas, animations, sounds) grew the work
 * counted (SQLite steps, probes) about 4 times too: big / small at most 6, where linear work
 * gives about 4 and quadratic about 16. Prints both counts and the ratio. */
void tu_assert_linear(const char *what, long n, long small, long big);

/* The entry at table index `index` of the PAK at path, inflated (pak_inflate); the entry must
 * have asset ID id and, unless type is 0, that type. Fails the running test otherwise; the
 * caller free()s. */
uint8_t *tu_pak_entry(const char *path, uint32_t index, uint32_t id, uint32_t type, size_t *len);

/* The sample corpus's truth.json parsed (json_min.h; jm_free it), or NULL when there is no
 * corpus (*failed 0) or it cannot be read or parsed (*failed 1). For a suite's setup. */
struct jm_node;
struct jm_node *tu_truth_load(int *failed);

/* The game of p as a reader of PAKs decides it: pak_game_decide, and when that cannot tell,
 * again with the ANCS signal of the first of (at most 4) in-bounds ANCS entries that
 * inflates and looks like a character set. */
pak_game tu_pak_game(const pak_file *p, int *conflict);

/* Two readers racing for one block of a disc container's cache (one decode per block at a
 * time). Thread A reads; the cache's decode hook, tu_race_hook with the race as its context,
 * runs on A right after A registered its block as in flight: it starts thread B (read_b)
 * and returns once B waits for A's decode (waiters >= 1), or once B is done, so that on code
 * where B decodes the block itself the caller's checks fail rather than hang. No sleeps:
 * the hook polls. */
typedef struct tu_race {
    int (*read_b)(void *ctx, util_err *err); /* B's read: its status */
    unsigned (*waiters)(void *ctx);          /* threads waiting now for a block in flight */
    void *ctx;
    pthread_t b;
    atomic_int calls;      /* hook calls: one per decode registered in flight */
    atomic_int b_started;  /* pthread_create succeeded */
    atomic_int b_done;     /* B's read returned */
    atomic_int saw_waiter; /* the hook saw B waiting for A's decode */
    int b_rc;              /* B's status and error */
    util_err b_err;
} tu_race;
void tu_race_init(tu_race *r, int (*read_b)(void *ctx, util_err *err),
                  unsigned (*waiters)(void *ctx), void *ctx);
void tu_race_hook(void *race);
/* After A's read: B was started and is joined, and no thread waits any more. */
void tu_race_join(tu_race *r);

#endif
