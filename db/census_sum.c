/* census_sum.c — one step of the census refill (db/census/census.sql.in, where the script
 * says `-- @step census_sum`): the census_contents rows summed per set of releases holding
 * their content (temp.census_cs.rs), game, field and value into temp.census_acc.
 *
 * It is the statement
 *     INSERT INTO census_acc(rs, game, field, value, count)
 *     SELECT s.rs, c.game, c.field, c.value, sum(c.count)
 *     FROM census_contents c JOIN census_cs s ON s.content_id = c.content_id
 *     GROUP BY s.rs, c.game, c.field, c.value
 * with the GROUP BY done in a hash table: SQLite sorted every census_contents row (a
 * million at 10x, 1.4 s) to make a few thousand groups. Groups compare as SQLite's GROUP BY
 * does for these columns: NULL apart from every text, text byte for byte (BINARY). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "ingest_internal.h"

#define NCOLS 4 /* rs, game, field, value */

/* One group: its key (each column's type, its length and its bytes) and its sum. */
typedef struct group {
    uint64_t hash;
    unsigned char *key;
    size_t klen;
    int64_t sum;
} group;

typedef struct groups {
    group *slot; /* open addressing; key NULL: empty */
    size_t cap, n;
    util_arena keys;
    unsigned char *buf; /* the key being looked up */
    size_t buf_cap;
} groups;

/* The key of one row into g->buf: per column its type (one byte: a blob stays apart from a
 * text of the same bytes), a 64-bit length (-1: NULL) and the bytes. The columns have text
 * affinity, so a number arrives as text. */
static int make_key(groups *g, sqlite3_stmt *st, size_t *klen, util_err *err)
{
    size_t need = NCOLS * (1 + sizeof(int64_t));
    for (int c = 0; c < NCOLS; c++)
        need += (size_t)sqlite3_column_bytes(st, c);
    if (need > g->buf_cap) {
        size_t cap = need * 2;
        unsigned char *nb = realloc(g->buf, cap);
        if (!nb)
            return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        g->buf = nb;
        g->buf_cap = cap;
    }
    size_t at = 0;
    for (int c = 0; c < NCOLS; c++) {
        int64_t len = -1;
        const unsigned char *text = NULL;
        int type = sqlite3_column_type(st, c);
        if (type == SQLITE_BLOB) {
            text = sqlite3_column_blob(st, c);
            len = sqlite3_column_bytes(st, c);
        } else if (type != SQLITE_NULL) {
            text = sqlite3_column_text(st, c);
            len = sqlite3_column_bytes(st, c);
            if (!text)
                return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        }
        g->buf[at++] = type == SQLITE_BLOB;
        memcpy(g->buf + at, &len, sizeof len);
        at += sizeof len;
        if (len > 0) {
            memcpy(g->buf + at, text, (size_t)len);
            at += (size_t)len;
        }
    }
    *klen = at;
    return 0;
}

static int grow(groups *g, util_err *err)
{
    size_t cap = g->cap ? g->cap * 2 : 1024;
    group *ns = calloc(cap, sizeof *ns);
    if (!ns)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    for (size_t i = 0; i < g->cap; i++) {
        if (!g->slot[i].key)
            continue;
        size_t k = (size_t)g->slot[i].hash & (cap - 1);
        while (ns[k].key)
            k = (k + 1) & (cap - 1);
        ns[k] = g->slot[i];
    }
    free(g->slot);
    g->slot = ns;
    g->cap = cap;
    return 0;
}

/* Add count to the group of the key in g->buf. */
static int add(groups *g, size_t klen, int64_t count, util_err *err)
{
    if ((g->n + 1) * 4 > g->cap * 3)
        TRY(grow(g, err));
    uint64_t h = XXH3_64bits(g->buf, klen);
    size_t i = (size_t)h & (g->cap - 1);
    for (; g->slot[i].key; i = (i + 1) & (g->cap - 1)) {
        group *s = &g->slot[i];
        if (s->hash == h && s->klen == klen && !memcmp(s->key, g->buf, klen)) {
            s->sum += count;
            return 0;
        }
    }
    unsigned char *key = util_arena_alloc(&g->keys, klen ? klen : 1);
    if (!key)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    memcpy(key, g->buf, klen);
    g->slot[i] = (group){h, key, klen, count};
    g->n++;
    return 0;
}

/* Bind column c of a group's key (at *at) to parameter c + 1 of st. */
static void bind_col(sqlite3_stmt *st, int c, const unsigned char *key, size_t *at)
{
    int blob = key[(*at)++];
    int64_t len;
    memcpy(&len, key + *at, sizeof len);
    *at += sizeof len;
    if (len < 0) {
        sqlite3_bind_null(st, c + 1);
        return;
    }
    if (blob)
        sqlite3_bind_blob(st, c + 1, key + *at, (int)len, SQLITE_STATIC);
    else
        sqlite3_bind_text(st, c + 1, (const char *)key + *at, (int)len, SQLITE_STATIC);
    *at += (size_t)len;
}

static int write_groups(db *d, const groups *g, util_err *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(d->h,
                           "INSERT INTO temp.census_acc(rs, game, field, value, count) "
                           "VALUES (?1, ?2, ?3, ?4, ?5)",
                           -1, &st, NULL) != SQLITE_OK)
        return dbi_sql_fail(d, err, "census sum");
    int rc = 0;
    for (size_t i = 0; i < g->cap && !rc; i++) {
        const group *s = &g->slot[i];
        if (!s->key)
            continue;
        size_t at = 0;
        for (int c = 0; c < NCOLS; c++)
            bind_col(st, c, s->key, &at);
        sqlite3_bind_int64(st, 5, s->sum);
        if (sqlite3_step(st) != SQLITE_DONE)
            rc = dbi_sql_fail(d, err, "census sum");
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return rc;
}

int dbi_census_sum(db *d, util_err *err)
{
    groups g;
    memset(&g, 0, sizeof g);
    util_arena_init(&g.keys);
    sqlite3_stmt *st = NULL;
    int rc = 0, s = SQLITE_DONE;
    if (sqlite3_prepare_v2(d->h,
                           "SELECT s.rs, c.game, c.field, c.value, c.count FROM census_contents c "
                           "JOIN temp.census_cs s ON s.content_id = c.content_id",
                           -1, &st, NULL) != SQLITE_OK)
        rc = dbi_sql_fail(d, err, "census sum");
    while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW) {
        size_t klen = 0;
        if ((rc = make_key(&g, st, &klen, err)) == 0)
            rc = add(&g, klen, sqlite3_column_int64(st, 4), err);
    }
    if (!rc && s != SQLITE_DONE)
        rc = dbi_sql_fail(d, err, "census sum");
    sqlite3_finalize(st);
    if (!rc)
        rc = write_groups(d, &g, err);
    free(g.slot);
    free(g.buf);
    util_arena_free(&g.keys);
    return rc;
}
