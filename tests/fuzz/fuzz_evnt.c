/* fuzz_evnt.c — standalone EVNT decoder (MP1 and MP2 layouts) on arbitrary bytes; whatever
 * decodes must re-encode to the identical bytes. */
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
        ancs_evnt_file f;
        if (ancs_evnt_decode(&f, data, size, (ancs_game)g, &a, &err) == 0) {
            util_wr w;
            util_wr_init(&w);
            if (ancs_evnt_encode(&w, &f, &err) != 0 || w.len != size ||
                (size && memcmp(w.buf, data, size) != 0))
                abort();
            util_wr_free(&w);
        }
        util_arena_free(&a);
    }
    return 0;
}
