/* world_int.h — what the world/ sources share and nothing outside world/ sees: the decoder
 * state and its warning list. */
#ifndef ANCSDB_WORLD_INT_H
#define ANCSDB_WORLD_INT_H

#include "world.h"

typedef struct wdec {
    util_rd r; /* over the arena copy of the whole input */
    util_arena *a;
    util_err *err;
    world_report *rep;
} wdec;

/* Copy the input into the arena and start a cursor over it; *rep is reset. */
int wdec_start(wdec *d, const uint8_t *buf, size_t len, world_report *rep, util_arena *arena,
               util_err *err);
/* Record what follows the structure (ends at the cursor) and warn when it is not 0xFF. */
int wdec_finish(wdec *d);
/* Add a warning at absolute offset off, the list kept in input order. */
int wdec_warn(wdec *d, uint64_t off, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int wdec_oom(wdec *d);
/* *out = zeroed arena array of n elements (NULL when n is 0). */
int wdec_array(wdec *d, void *out, uint32_t n, size_t size);
/* u32 count that must leave room for count elements of min_size bytes each. */
int wdec_count(wdec *d, uint32_t *n, size_t min_size, const char *what);

#endif
