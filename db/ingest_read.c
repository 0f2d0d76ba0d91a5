/* ingest_read.c — the ingest's side of reading a PAK: its byte source (a file read with
 * pread, or db_ingest_mem's bytes), the hash of every byte (--rehash), and the ANCS signal
 * of the game decision. The tables and entries are read through pak.h's pak_open_src_tables
 * / pak_read_entry_info / pak_inflate: only the bytes the ingest needs, so opaque resources
 * cost neither time nor memory and an unchanged PAK costs a stat and one read of its
 * tables. */
#include <stdlib.h>

#include "ingest_internal.h"

#define READ_CHUNK (1u << 20) /* bytes hashed per read */

int ing_open(ing *g, const char *path, util_src **out, util_err *err)
{
    if (g->mem_data)
        return util_src_open_mem(out, g->mem_data, g->mem_len, err);
    return util_src_open_file(out, path, err);
}

int ing_hash_all(const util_src *src, uint64_t *out, util_err *err)
{
    uint64_t size = util_src_size(src);
    uint8_t *tmp = malloc(READ_CHUNK);
    if (!tmp)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    uint64_t h = UTIL_FNV_INIT, off = 0;
    int rc = 0;
    while (off < size && !rc) {
        size_t want = size - off < READ_CHUNK ? (size_t)(size - off) : READ_CHUNK;
        rc = util_src_read(src, tmp, off, want, err);
        h = util_fnv1a(h, tmp, want);
        off += want;
    }
    free(tmp);
    *out = h;
    return rc;
}

pak_game ing_game_from_ancs(const pak_file *p, size_t budget)
{
    int tried = 0;
    for (uint32_t i = 0; i < p->entry_count && tried < 4; i++) {
        const pak_entry *e = &p->entries[i];
        if (e->type != UTIL_FCC_ANCS || !e->in_bounds || ing_entry_need(e) > budget)
            continue;
        tried++;
        uint8_t *buf = NULL;
        size_t n = 0;
        if (pak_inflate(&buf, &n, p, i, PAK_MAX_INFLATE, NULL) != 0)
            continue;
        ancs_game g = ancs_guess_game(buf, n);
        free(buf);
        if (g == ANCS_GAME_MP1)
            return PAK_GAME_MP1;
        if (g == ANCS_GAME_MP2)
            return PAK_GAME_MP2;
    }
    return PAK_GAME_UNKNOWN;
}
