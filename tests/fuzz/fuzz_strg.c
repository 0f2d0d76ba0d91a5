/* fuzz_strg.c — the STRG decoder on arbitrary bytes; whatever decodes holds valid UTF-8 that
 * the encoder takes back, and the look-ups stay inside the tables. */
#include <stdlib.h>
#include <string.h>

#include "world.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    util_arena a;
    util_arena_init(&a);
    util_err err;
    world_strg s;
    if (world_strg_decode(&s, data, size, &a, &err) == 0) {
        volatile size_t sink = 0;
        for (uint32_t k = 0; k < s.language_count; k++) {
            const world_strg_lang *l = &s.languages[k];
            if (world_strg_find_language(&s, l->lang) == NULL)
                abort();
            for (uint32_t i = 0; i < s.string_count; i++)
                sink += strlen(l->strings[i]);
        }
        for (uint32_t i = 0; i < s.name_count; i++) {
            if (s.names[i].string_index >= s.string_count)
                abort();
            sink += strlen(s.names[i].name);
        }
        (void)world_strg_text(&s, UTIL_FOURCC('E', 'N', 'G', 'L'), 0);
        (void)world_strg_name_of(&s, 0);
        /* laid out again from the strings alone: the decoded text must be encodable */
        world_strg canon = s;
        canon.raw_body = NULL;
        canon.raw_body_len = 0;
        util_wr w;
        util_wr_init(&w);
        if (world_strg_encode(&w, &canon, &err) != 0)
            abort();
        util_wr_free(&w);
        (void)sink;
    }
    util_arena_free(&a);
    return 0;
}
