/* groups.c — counts per group of values in a hash table, where SQLite's GROUP BY sorts every
 * row (it has no hash aggregate): the census counts each content's fields with it, both the
 * row writer (db/census_rows.c) and the census script (db/census_run.c).
 *
 * A key is a row of values, each a type byte, a 64-bit length and the bytes (an integer's or
 * a real's 8). Groups compare as SQLite's GROUP BY does for the values the census holds: NULL
 * apart from every other value, text and blobs byte for byte (BINARY), integers by value. (An
 * integer and a real of equal value, which GROUP BY puts together, stay apart here; the
 * census's columns hold no reals where an integer could stand.) */
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>
#ifdef ANCSDB_XXH_DISPATCH
#include <xxh_x86dispatch.h> /* XXH3 as fast as this CPU allows (CMakeLists.txt) */
#endif

#include "internal.h"

static int reserve(unsigned char **buf, size_t *cap, size_t need, util_err *err)
{
    if (need <= *cap)
        return 0;
    size_t ncap = need > 4096 ? need * 2 : 8192;
    unsigned char *nb = realloc(*buf, ncap);
    if (!nb)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    *buf = nb;
    *cap = ncap;
    return 0;
}

int dbi_groups_key_put(dbi_groups *g, int kind, const void *bytes, uint64_t len, util_err *err)
{
    size_t at = g->keys_len + g->pending;
    int rc = reserve(&g->keys, &g->keys_cap, at + 1 + sizeof len + len, err);
    if (rc)
        return rc;
    g->keys[at++] = (unsigned char)kind;
    memcpy(g->keys + at, &len, sizeof len);
    at += sizeof len;
    if (len) {
        memcpy(g->keys + at, bytes, len);
        at += len;
    }
    g->pending = at - g->keys_len;
    return 0;
}

dbi_key_val dbi_groups_key_next(const unsigned char *key, size_t *at)
{
    dbi_key_val v = {.kind = key[(*at)++]};
    memcpy(&v.len, key + *at, sizeof v.len);
    *at += sizeof v.len;
    v.bytes = key + *at;
    *at += v.len;
    if (v.kind == DBI_K_INT)
        memcpy(&v.i, v.bytes, sizeof v.i);
    else if (v.kind == DBI_K_REAL)
        memcpy(&v.r, v.bytes, sizeof v.r);
    return v;
}

static int grow(dbi_groups *g, util_err *err)
{
    size_t cap = g->cap ? g->cap * 2 : 256;
    dbi_group *ns = calloc(cap, sizeof *ns);
    size_t *no = realloc(g->order, cap * sizeof *no);
    if (!ns || !no) {
        free(ns);
        if (no)
            g->order = no;
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    }
    g->order = no;
    for (size_t k = 0; k < g->n; k++) {
        const dbi_group *s = &g->slot[g->order[k]];
        size_t i = (size_t)s->hash & (cap - 1);
        while (ns[i].used)
            i = (i + 1) & (cap - 1);
        ns[i] = *s;
        g->order[k] = i;
    }
    free(g->slot);
    g->slot = ns;
    g->cap = cap;
    return 0;
}

int dbi_groups_add(dbi_groups *g, int64_t count, util_err *err)
{
    size_t klen = g->pending;
    g->pending = 0;
    if ((g->n + 1) * 4 > g->cap * 3) {
        int rc = grow(g, err);
        if (rc)
            return rc;
    }
    const unsigned char *key = g->keys + g->keys_len;
    uint64_t h = XXH3_64bits(key, klen);
    size_t i = (size_t)h & (g->cap - 1);
    for (; g->slot[i].used; i = (i + 1) & (g->cap - 1)) {
        dbi_group *s = &g->slot[i];
        if (s->hash == h && s->klen == klen && !memcmp(g->keys + s->key, key, klen)) {
            s->sum += count;
            return 0;
        }
    }
    g->slot[i] = (dbi_group){h, g->keys_len, klen, count, 1};
    g->keys_len += klen; /* kept */
    g->order[g->n++] = i;
    return 0;
}

/* The most a table holds before its groups are written and forgotten (a group then written
 * again is summed with its earlier rows by the census's last GROUP BY, or, in
 * census_contents, is two rows of one value whose counts add up): a hostile corpus of many
 * distinct values keeps the memory at ~10 MiB, as SQLite's sorter kept its own. */
#define GROUPS_MAX           65536
#define GROUPS_MAX_KEY_BYTES ((size_t)4 << 20)

int dbi_groups_full(const dbi_groups *g)
{
    return g->n >= GROUPS_MAX || g->keys_len >= GROUPS_MAX_KEY_BYTES;
}

void dbi_groups_clear(dbi_groups *g)
{
    for (size_t k = 0; k < g->n; k++)
        g->slot[g->order[k]].used = 0;
    g->n = 0;
    g->keys_len = 0;
    g->pending = 0;
}

void dbi_groups_free(dbi_groups *g)
{
    free(g->slot);
    free(g->order);
    free(g->keys);
    memset(g, 0, sizeof *g);
}
