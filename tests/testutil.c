/* testutil.c — see testutil.h. */
#include "testutil.h"
#include "ancs.h"
#include "json_min.h"
#include "util.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char *tu_shared_dir(void)
{
    const char *env = getenv("ANCSDB_SHARED");
    const char *d = env ? env : ANCSDB_SHARED_DIR;
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/corpus/truth.json", d);
    struct stat st;
    if (stat(buf, &st) != 0)
        return NULL;
    return d;
}

int tu_skipped;

int tu_status(int cmocka_rc)
{
    return cmocka_rc == 0 && tu_skipped ? 77 : cmocka_rc;
}

const char *tu_corpus_dir(void)
{
    static char buf[4096];
    const char *s = tu_shared_dir();
    if (!s)
        return NULL;
    snprintf(buf, sizeof buf, "%s/corpus", s);
    return buf;
}

const char *tu_ancsdb(void)
{
    return ANCSDB_BINARY;
}

const char *tu_source_dir(void)
{
    return ANCSDB_SOURCE_DIR;
}

uint8_t *tu_read_file(const char *path, size_t *len)
{
    uint8_t *buf = NULL;
    return util_read_file(path, &buf, len, 0, NULL) == 0 ? buf : NULL;
}

uint8_t *tu_bytes(uint32_t seed, size_t len)
{
    uint8_t *b = malloc(len ? len : 1);
    assert_non_null(b);
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < len; i++) {
        x = x * 1103515245u + 12345u;
        b[i] = (uint8_t)((x >> 16) % 40);
    }
    return b;
}

int tu_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, len, f);
    if (fclose(f) != 0 || w != len)
        return -1;
    return 0;
}

char *tu_tempdir(void)
{
    char tmpl[] = "/tmp/ancsdb-test-XXXXXX";
    char *d = mkdtemp(tmpl);
    return d ? strdup(d) : NULL;
}

int tu_remove_tree(const char *dir)
{
    size_t n = strlen(dir) + 16;
    char *cmd = malloc(n);
    if (!cmd || strchr(dir, '\'')) {
        free(cmd);
        return -1;
    }
    snprintf(cmd, n, "rm -rf '%s'", dir);
    int rc = tu_run(cmd, NULL);
    free(cmd);
    return rc;
}

int tu_run(const char *cmd, char **out)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (cap - len < 2) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    if (buf)
        buf[len] = 0;
    int st = pclose(p);
    if (out)
        *out = buf;
    else
        free(buf);
    if (st == -1)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

pak_game tu_pak_game(const pak_file *p, int *conflict)
{
    pak_game g = pak_game_decide(p, NULL, conflict);
    int tried = 0;
    for (uint32_t i = 0; i < p->entry_count && g == PAK_GAME_UNKNOWN && tried < 4; i++) {
        const pak_entry *e = &p->entries[i];
        if (e->type != UTIL_FCC_ANCS || !e->in_bounds)
            continue;
        tried++;
        uint8_t *buf = NULL;
        size_t n = 0;
        if (pak_inflate(&buf, &n, p, i, PAK_MAX_INFLATE, NULL) != 0)
            continue;
        ancs_game a = ancs_guess_game(buf, n);
        free(buf);
        pak_game_signals sig = {NULL, a == ANCS_GAME_MP2   ? PAK_GAME_MP2
                                      : a == ANCS_GAME_MP1 ? PAK_GAME_MP1
                                                           : PAK_GAME_UNKNOWN};
        if (sig.ancs != PAK_GAME_UNKNOWN)
            g = pak_game_decide(p, &sig, conflict);
    }
    return g;
}

uint8_t *tu_pak_entry(const char *path, uint32_t index, uint32_t id, uint32_t type, size_t *len)
{
    pak_file *p = NULL;
    util_err err;
    util_err_clear(&err);
    if (pak_open(&p, path, &err))
        fail_msg("%s: %s", path, err.msg);
    assert_true(index < p->entry_count);
    assert_int_equal(p->entries[index].id, id);
    if (type)
        assert_int_equal(p->entries[index].type, type);
    uint8_t *b = NULL;
    if (pak_inflate(&b, len, p, index, PAK_MAX_INFLATE, &err))
        fail_msg("%s entry %u: %s", path, index, err.msg);
    pak_close(p);
    return b;
}

jm_node *tu_truth_load(int *failed)
{
    *failed = 0;
    if (!tu_corpus_dir())
        return NULL;
    char path[4096 + 16]; /* the corpus folder's path and the file's name */
    snprintf(path, sizeof path, "%s/truth.json", tu_corpus_dir());
    size_t n = 0;
    uint8_t *text = tu_read_file(path, &n);
    jm_node *t = text ? jm_parse((const char *)text, n) : NULL;
    free(text);
    *failed = t == NULL;
    return t;
}

void tu_assert_linear(const char *what, long n, long small, long big)
{
    double ratio = (double)big / (double)(small ? small : 1);
    print_message("%s: %ld steps for %ld, %ld for %ld (ratio %.2f)\n", what, small, n, big, 4 * n,
                  ratio);
    if (ratio > 6.0)
        fail_msg("%s: 4x the input cost %.2fx the work (linear is ~4, quadratic ~16)", what, ratio);
}

/* ---- two readers racing for one block --------------------------------------------------- */

void tu_race_init(tu_race *r, int (*read_b)(void *ctx, util_err *err),
                  unsigned (*waiters)(void *ctx), void *ctx)
{
    memset(r, 0, sizeof *r);
    r->read_b = read_b;
    r->waiters = waiters;
    r->ctx = ctx;
}

static void *race_b(void *arg)
{
    tu_race *r = arg;
    util_err_clear(&r->b_err);
    r->b_rc = r->read_b(r->ctx, &r->b_err);
    atomic_store(&r->b_done, 1);
    return NULL;
}

void tu_race_hook(void *race)
{
    tu_race *r = race;
    if (atomic_fetch_add(&r->calls, 1) != 0)
        return; /* B's own decode, or A's after B's */
    if (pthread_create(&r->b, NULL, race_b, r) != 0)
        return;
    atomic_store(&r->b_started, 1);
    while (!atomic_load(&r->b_done)) {
        if (r->waiters(r->ctx) >= 1) {
            atomic_store(&r->saw_waiter, 1);
            break;
        }
        sched_yield();
    }
}

void tu_race_join(tu_race *r)
{
    assert_true(atomic_load(&r->b_started));
    assert_int_equal(pthread_join(r->b, NULL), 0);
    assert_int_equal(r->waiters(r->ctx), 0);
}
