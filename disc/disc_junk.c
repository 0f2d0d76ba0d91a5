/* disc_junk.c — the junk a GameCube disc carries between and after its files
 * (docs/formats.md §13.2): a lagged Fibonacci generator, x[n] = x[n-521] xor x[n-32] over
 * 32-bit words, whose 17-word seed comes from the game ID, the disc number and the index of
 * the 32 KiB block, restarted at each block. RVZ stores such runs as their 68-byte seed. */
#include <string.h>

#include "disc.h"
#include "disc_junk.h"

/* One step of the generator: all 521 words advance (XOR is bytewise, so the words are kept as
 * their output bytes). */
static void forward(disc_lfg *g)
{
    uint8_t *b = g->out;
    const size_t lag_bytes = (DISC_JUNK_K - DISC_JUNK_J) * 4, j_bytes = DISC_JUNK_J * 4;
    for (size_t i = 0; i < j_bytes; i++)
        b[i] ^= b[i + lag_bytes];
    for (size_t i = j_bytes; i < DISC_JUNK_K * 4; i++)
        b[i] ^= b[i - j_bytes];
}

/* Fill words 17..520 from the seed in w[0..16], turn each word into its output bytes (the
 * second byte is bits 18..25, not 16..23, as the mastering tool wrote them) and advance four
 * times before the first output. */
static void expand(disc_lfg *g, uint32_t w[DISC_JUNK_K])
{
    for (size_t i = DISC_JUNK_SEED_WORDS; i < DISC_JUNK_K; i++)
        w[i] = (w[i - 17] << 23) ^ (w[i - 16] >> 9) ^ w[i - 1];
    for (size_t i = 0; i < DISC_JUNK_K; i++) {
        uint32_t x = w[i];
        g->out[4 * i] = (uint8_t)(x >> 24);
        g->out[4 * i + 1] = (uint8_t)(x >> 18);
        g->out[4 * i + 2] = (uint8_t)(x >> 8);
        g->out[4 * i + 3] = (uint8_t)x;
    }
    for (int i = 0; i < 4; i++)
        forward(g);
    g->pos = 0;
}

void disc_lfg_seed_bytes(disc_lfg *g, const uint8_t seed[DISC_JUNK_SEED_SIZE])
{
    uint32_t w[DISC_JUNK_K];
    for (size_t i = 0; i < DISC_JUNK_SEED_WORDS; i++)
        w[i] = (uint32_t)seed[4 * i] << 24 | (uint32_t)seed[4 * i + 1] << 16 |
               (uint32_t)seed[4 * i + 2] << 8 | seed[4 * i + 3];
    expand(g, w);
}

void disc_lfg_seed_disc(disc_lfg *g, const uint8_t game_id[4], uint8_t disc_number, uint64_t off)
{
    uint32_t w[DISC_JUNK_K];
    uint32_t seed =
        ((uint32_t)game_id[2] << 24 | (uint32_t)game_id[1] << 16 |
         (uint32_t)(uint8_t)(game_id[3] + game_id[2]) << 8 | (uint8_t)(game_id[0] + game_id[1])) ^
        disc_number;
    uint32_t block = (uint32_t)(off / DISC_JUNK_BLOCK);
    uint32_t n = seed * 0x260BCD5u ^ block * 0x1EF29123u;
    for (size_t i = 0; i < DISC_JUNK_SEED_WORDS; i++) {
        uint32_t v = 0;
        for (unsigned b = 0; b < 32; b++) {
            n = n * 0x5D588B65u + 1;
            v = v >> 1 | (n & 0x80000000u);
        }
        w[i] = v;
    }
    w[16] ^= w[0] >> 9 ^ w[16] << 23;
    expand(g, w);
    disc_lfg_skip(g, off % DISC_JUNK_BLOCK);
}

void disc_lfg_skip(disc_lfg *g, uint64_t n)
{
    const size_t period = DISC_JUNK_K * 4;
    n += g->pos;
    while (n >= period) {
        forward(g);
        n -= period;
    }
    g->pos = (size_t)n;
}

void disc_lfg_get(disc_lfg *g, uint8_t *dst, size_t n)
{
    const size_t period = DISC_JUNK_K * 4;
    while (n) {
        size_t take = period - g->pos < n ? period - g->pos : n;
        memcpy(dst, g->out + g->pos, take);
        dst += take;
        n -= take;
        g->pos += take;
        if (g->pos == period) {
            forward(g);
            g->pos = 0;
        }
    }
}

void disc_junk_fill(uint8_t *dst, uint64_t disc_offset, size_t len, const char game_id[4],
                    uint8_t disc_number)
{
    disc_lfg g;
    const uint8_t *id = (const uint8_t *)game_id;
    while (len) {
        uint64_t in_block = DISC_JUNK_BLOCK - disc_offset % DISC_JUNK_BLOCK;
        size_t n = in_block < len ? (size_t)in_block : len;
        disc_lfg_seed_disc(&g, id, disc_number, disc_offset);
        disc_lfg_get(&g, dst, n);
        dst += n;
        len -= n;
        disc_offset += n;
    }
}
