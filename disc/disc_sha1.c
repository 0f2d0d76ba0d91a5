/* disc_sha1.c — SHA-1 as FIPS 180-4 defines it: 512-bit blocks, 80 rounds over five 32-bit
 * words, the message padded with 0x80, zeros and its bit length big-endian. */
#include <string.h>

#include "disc_sha1.h"

static uint32_t rol(uint32_t x, unsigned n)
{
    return x << n | x >> (32 - n);
}

static void compress(uint32_t h[5], const uint8_t *b)
{
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 |
               (uint32_t)b[4 * i + 2] << 8 | b[4 * i + 3];
    for (int i = 16; i < 80; i++)
        w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) {
            f = (bb & c) | (~bb & d);
            k = 0x5A827999u;
        } else if (i < 40) {
            f = bb ^ c ^ d;
            k = 0x6ED9EBA1u;
        } else if (i < 60) {
            f = (bb & c) | (bb & d) | (c & d);
            k = 0x8F1BBCDCu;
        } else {
            f = bb ^ c ^ d;
            k = 0xCA62C1D6u;
        }
        uint32_t t = rol(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rol(bb, 30);
        bb = a;
        a = t;
    }
    h[0] += a;
    h[1] += bb;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

void disc_sha1_init(disc_sha1_ctx *s)
{
    static const uint32_t iv[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
    memcpy(s->h, iv, sizeof iv);
    s->total = 0;
    s->fill = 0;
}

void disc_sha1_update(disc_sha1_ctx *s, const void *p, size_t n)
{
    const uint8_t *q = p;
    s->total += n;
    if (s->fill) {
        size_t take = 64 - s->fill < n ? 64 - s->fill : n;
        memcpy(s->block + s->fill, q, take);
        s->fill += take;
        q += take;
        n -= take;
        if (s->fill < 64)
            return;
        compress(s->h, s->block);
        s->fill = 0;
    }
    for (; n >= 64; q += 64, n -= 64)
        compress(s->h, q);
    if (n) {
        memcpy(s->block, q, n);
        s->fill = n;
    }
}

void disc_sha1_final(disc_sha1_ctx *s, uint8_t out[DISC_SHA1_LEN])
{
    uint64_t bits = s->total * 8;
    uint8_t pad[72] = {0x80};
    size_t padlen = s->fill < 56 ? 56 - s->fill : 120 - s->fill;
    for (int i = 0; i < 8; i++)
        pad[padlen + (size_t)i] = (uint8_t)(bits >> (56 - 8 * i));
    disc_sha1_update(s, pad, padlen + 8);
    for (int i = 0; i < 5; i++) {
        out[4 * i] = (uint8_t)(s->h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
        out[4 * i + 3] = (uint8_t)s->h[i];
    }
}

void disc_sha1(uint8_t out[DISC_SHA1_LEN], const void *p, size_t n)
{
    disc_sha1_ctx s;
    disc_sha1_init(&s);
    disc_sha1_update(&s, p, n);
    disc_sha1_final(&s, out);
}
