/* disc_sha1.h — SHA-1 (FIPS 180-4), for disc/ and the fixture builder: WIA and RVZ headers and
 * purge groups carry SHA-1 hashes of their bytes (docs/formats.md §13.1). Not for security. */
#ifndef ANCSDB_DISC_SHA1_H
#define ANCSDB_DISC_SHA1_H

#include <stddef.h>
#include <stdint.h>

#define DISC_SHA1_LEN 20u

typedef struct disc_sha1_ctx {
    uint32_t h[5];
    uint64_t total; /* bytes hashed so far */
    uint8_t block[64];
    size_t fill; /* bytes waiting in block */
} disc_sha1_ctx;

void disc_sha1_init(disc_sha1_ctx *s);
void disc_sha1_update(disc_sha1_ctx *s, const void *p, size_t n);
void disc_sha1_final(disc_sha1_ctx *s, uint8_t out[DISC_SHA1_LEN]);
/* The hash of n bytes at p in one call. */
void disc_sha1(uint8_t out[DISC_SHA1_LEN], const void *p, size_t n);

#endif
