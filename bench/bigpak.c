/* bigpak.c — bench_bigpak DIR PAKS ENTRIES MIN_KIB MAX_KIB: PAKS MP1 PAK files
 * DIR/mp1/Large_NN.pak, each of ENTRIES TXTR entries compressed with zlib (level 1, §3.1 of
 * docs/formats.md), each of MIN_KIB to MAX_KIB inflated: bytes of a fixed pseudo-random
 * sequence holding 4 bits each, so that they shrink to about half. Entries far larger than
 * the fixture builder's (at most 0.5 MB), for the peak memory of an ingest that inflates
 * several such entries at once (bench/run.sh BENCH_LARGE). Not a tool for game files. */
#include <errno.h>
#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pak.h"
#include "util.h"

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static long arg(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return errno || *end || v < 1 ? -1 : v;
}

int main(int argc, char **argv)
{
    long paks = argc == 6 ? arg(argv[2]) : -1, entries = argc == 6 ? arg(argv[3]) : -1;
    long lo = argc == 6 ? arg(argv[4]) : -1, hi = argc == 6 ? arg(argv[5]) : -1;
    if (paks < 1 || paks > 99 || entries < 1 || lo < 1 || hi < lo || hi > 256 * 1024) {
        fprintf(stderr, "usage: bench_bigpak DIR PAKS ENTRIES MIN_KIB MAX_KIB "
                        "(PAKS 1-99, MAX_KIB at most 262144)\n");
        return 2;
    }
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/mp1", argv[1]);
    if (n < 0 || (size_t)n >= sizeof path - 16 ||
        ((mkdir(argv[1], 0777) != 0 && errno != EEXIST) ||
         (mkdir(path, 0777) != 0 && errno != EEXIST))) {
        fprintf(stderr, "bench_bigpak: cannot make %s\n", path);
        return 1;
    }
    size_t cap = (size_t)hi << 10;
    uint8_t *raw = malloc(cap);
    size_t zcap = libdeflate_zlib_compress_bound(NULL, cap);
    uint8_t *z = malloc(4 + zcap);
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(1);
    if (!raw || !z || !c) {
        fprintf(stderr, "bench_bigpak: out of memory\n");
        return 1;
    }
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    uint32_t id = 0x10000000;
    int rc = 0;
    for (long p = 0; p < paks && !rc; p++) {
        pak_builder *b = pak_builder_new();
        util_err e;
        util_err_clear(&e);
        for (long k = 0; k < entries && !rc && b; k++) {
            size_t len =
                ((size_t)lo << 10) + (size_t)(next(&seed) % (((uint64_t)(hi - lo) << 10) + 1));
            for (size_t i = 0; i < len; i += 8) {
                uint64_t v = next(&seed) & 0x0F0F0F0F0F0F0F0Full;
                memcpy(raw + i, &v, len - i < 8 ? len - i : 8);
            }
            size_t zl = libdeflate_zlib_compress(c, raw, len, z + 4, zcap);
            z[0] = (uint8_t)(len >> 24), z[1] = (uint8_t)(len >> 16);
            z[2] = (uint8_t)(len >> 8), z[3] = (uint8_t)len;
            rc = zl == 0 || pak_builder_add_stored(b, UTIL_FOURCC('T', 'X', 'T', 'R'), id++, z,
                                                   zl + 4, 1, &e) != 0;
        }
        snprintf(path + n, sizeof path - (size_t)n, "/Large_%02ld.pak", p + 1);
        if (!b || rc || pak_builder_finish_file(b, path, &e) != 0) {
            fprintf(stderr, "bench_bigpak: %s: %s\n", path, e.msg[0] ? e.msg : "out of memory");
            rc = 1;
        }
        pak_builder_free(b);
    }
    if (!rc)
        printf("%ld PAKs of %ld entries of %ld to %ld KiB written in %s/mp1\n", paks, entries, lo,
               hi, argv[1]);
    libdeflate_free_compressor(c);
    free(raw);
    free(z);
    return rc;
}
