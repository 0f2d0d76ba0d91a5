/* fuzz_pak_index.c — libFuzzer target: PAK tables (pak_open_mem), then every entry
 * inflated with a small cap and read whole with its sizes, and game detection. Invariants violated
 * -> abort(). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pak.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pak_file *p = NULL;
    util_err err;
    util_err_clear(&err);
    if (pak_open_mem(&p, data, size, &err) != 0) {
        if (p || !err.code || (err.code == UTIL_ETRUNC && err.offset > size))
            abort();
        return 0;
    }
    if (p->tables_end > size)
        abort();
    for (uint32_t i = 0; i < p->entry_count; i++) {
        const pak_entry *e = &p->entries[i];
        if (e->in_bounds && (uint64_t)e->offset + e->size > size)
            abort();
        uint8_t *out = NULL;
        size_t n = 0;
        util_err_clear(&err);
        int rc = pak_inflate(&out, &n, p, i, 1u << 20, &err);
        if (rc == 0) {
            if (e->compressed && n != e->decompressed_size)
                abort();
            /* touch every byte so ASan sees a short buffer */
            volatile uint8_t sink = 0;
            for (size_t k = 0; k < n; k++)
                sink ^= out[k];
            (void)sink;
        } else if (out || (err.offset != UINT64_MAX && err.offset > size)) {
            abort();
        }
        free(out);
        /* the sizes read with the entry's bytes are those the tables' reads gave */
        pak_codec codec = e->codec;
        uint32_t dsize = e->decompressed_size;
        util_err_clear(&err);
        if (pak_entry_read_sized(p, i, &out, &n, &err) != 0 || e->codec != codec ||
            e->decompressed_size != dsize)
            abort();
        if (e->in_bounds && e->size ? !out || n != e->size || memcmp(out, data + e->offset, n)
                                    : out != NULL)
            abort();
        free(out);
    }
    int conflict = 0;
    pak_game g = pak_game_decide(p, NULL, &conflict);
    if (g != PAK_GAME_UNKNOWN && g != PAK_GAME_MP1 && g != PAK_GAME_MP2)
        abort();
    pak_close(p);
    return 0;
}
