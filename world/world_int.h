/* world_int.h — what the world/ sources share and nothing outside world/ sees: the decoder
 * state. */
#ifndef ANCSDB_WORLD_INT_H
#define ANCSDB_WORLD_INT_H

#include "world.h"

/* The decoder state: util.h's (cursor over the arena copy of the input, arena, error,
 * report), with its helpers util_dec_start, _finish, _warn, _oom, _array and _count. */
typedef util_dec wdec;

#endif
