/* fuzz_mlvl.c — the MLVL decoder on arbitrary bytes; whatever decodes is walked through every
 * derived field (layers, dependency groups, module ranges) the way a reader of rows would. */
#include <stdlib.h>
#include <string.h>

#include "world.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    util_arena a;
    util_arena_init(&a);
    util_err err;
    world_mlvl m;
    if (world_mlvl_decode(&m, data, size, &a, &err) == 0) {
        volatile uint64_t sink = 0;
        for (uint32_t i = 0; i < m.area_count; i++) {
            const world_area *ar = &m.areas[i];
            for (uint32_t k = 0; k < ar->attached_count; k++)
                if (ar->attached[k] >= m.area_count)
                    abort();
            for (uint32_t l = 0; l < ar->layer_count; l++) {
                const world_layer *y = &ar->layers[l];
                sink += strlen(y->name) + (uint64_t)y->active;
                if (y->dep_start > ar->dep_count || y->dep_count > ar->dep_count - y->dep_start)
                    abort();
                for (uint32_t k = 0; k < y->dep_count; k++)
                    if (ar->deps[y->dep_start + k].layer_index != (int32_t)l)
                        abort();
                for (uint32_t k = 0; k < y->module_count; k++)
                    sink += strlen(ar->rel_modules[y->module_start + k]);
            }
            if (ar->own_dep_start + (uint64_t)ar->own_dep_count != ar->dep_count)
                abort();
            for (uint32_t k = 0; k < ar->own_dep_count; k++)
                if (ar->deps[ar->own_dep_start + k].layer_index != -1)
                    abort();
        }
        (void)sink;
    }
    util_arena_free(&a);
    return 0;
}
