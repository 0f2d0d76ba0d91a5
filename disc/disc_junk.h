/* disc_junk.h — the lagged Fibonacci generator behind a GameCube disc's junk padding
 * (docs/formats.md §13.2), internal to disc/. disc.h's disc_junk_fill is the public face. */
#ifndef ANCSDB_DISC_JUNK_H
#define ANCSDB_DISC_JUNK_H

#include <stddef.h>
#include <stdint.h>

#define DISC_JUNK_K          521u    /* long lag, in 32-bit words */
#define DISC_JUNK_J          32u     /* short lag */
#define DISC_JUNK_SEED_WORDS 17u     /* words of a seed */
#define DISC_JUNK_SEED_SIZE  68u     /* bytes of a seed as RVZ stores it (big-endian words) */
#define DISC_JUNK_BLOCK      0x8000u /* the generator restarts at each multiple of this */

typedef struct disc_lfg {
    uint8_t out[DISC_JUNK_K * 4]; /* the next output bytes, in order */
    size_t pos;                   /* next byte of out to hand out */
} disc_lfg;

/* Start from a 68-byte big-endian seed (RVZ's packed junk run). */
void disc_lfg_seed_bytes(disc_lfg *g, const uint8_t seed[DISC_JUNK_SEED_SIZE]);
/* Start as the disc mastering did for the 32 KiB block holding disc offset off, positioned at
 * off (game_id: the first 4 bytes of the disc header). */
void disc_lfg_seed_disc(disc_lfg *g, const uint8_t game_id[4], uint8_t disc_number, uint64_t off);
/* Drop n bytes of output. */
void disc_lfg_skip(disc_lfg *g, uint64_t n);
/* The next n bytes of output. */
void disc_lfg_get(disc_lfg *g, uint8_t *dst, size_t n);

#endif
