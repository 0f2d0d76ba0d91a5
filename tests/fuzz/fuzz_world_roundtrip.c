/* fuzz_world_roundtrip.c — whatever decodes as an MLVL or a STRG must re-encode to the
 * identical bytes (trailing bytes included). A STRG whose body the decoder kept as stored
 * (a `strg_layout` warning) must be one the encoder lays out otherwise: its decoded strings
 * encoded without that body differ from the input. */
#include <stdlib.h>
#include <string.h>

#include "world.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same(const util_wr *w, const uint8_t *data, size_t size)
{
    if (w->len != size || (size && memcmp(w->buf, data, size) != 0))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    util_arena a;
    util_arena_init(&a);
    util_err err;
    world_mlvl m;
    if (world_mlvl_decode(&m, data, size, &a, &err) == 0) {
        util_wr w;
        util_wr_init(&w);
        if (world_mlvl_encode(&w, &m, &err) != 0)
            abort();
        same(&w, data, size);
        util_wr_free(&w);
    }
    util_arena_free(&a);

    util_arena_init(&a);
    world_strg s;
    if (world_strg_decode(&s, data, size, &a, &err) == 0) {
        util_wr w;
        util_wr_init(&w);
        if (world_strg_encode(&w, &s, &err) != 0)
            abort();
        same(&w, data, size);
        util_wr_free(&w);
        if (s.raw_body) {
            util_wr_init(&w);
            s.raw_body = NULL;
            s.raw_body_len = 0;
            if (world_strg_encode(&w, &s, &err) == 0 && w.len == size && !memcmp(w.buf, data, size))
                abort();
            util_wr_free(&w);
        }
    }
    util_arena_free(&a);
    return 0;
}
