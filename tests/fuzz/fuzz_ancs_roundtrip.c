/* fuzz_ancs_roundtrip.c — whatever decodes must re-encode to the identical bytes
 * (trailing bytes included), for both games. */
#include <stdlib.h>
#include <string.h>

#include "ancs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (int g = ANCS_GAME_MP1; g <= ANCS_GAME_MP2; g++) {
        util_arena a;
        util_arena_init(&a);
        util_err err;
        ancs_set s;
        if (ancs_decode(&s, data, size, (ancs_game)g, &a, &err) == 0) {
            util_wr w;
            util_wr_init(&w);
            if (ancs_encode(&w, &s, &err) != 0 || w.len != size ||
                (size && memcmp(w.buf, data, size) != 0))
                abort();
            util_wr_free(&w);
        }
        util_arena_free(&a);
    }
    return 0;
}
