/* fuzz_pak_inflate.c — libFuzzer target: one compressed entry's stored bytes (u32 size,
 * zlib or LZO segments, padding) through pak_inflate_bytes with a 4 MiB cap. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pak.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint64_t base = 0x20; /* errors must name offsets inside [base, base + size] */
    uint8_t *out = NULL;
    size_t n = 0;
    util_err err;
    util_err_clear(&err);
    int rc = pak_inflate_bytes(&out, &n, data, size, 1, 4u << 20, base, &err);
    if (rc == 0) {
        uint32_t declared =
            (uint32_t)data[0] << 24 | (uint32_t)data[1] << 16 | (uint32_t)data[2] << 8 | data[3];
        if (size < 4 || n != declared)
            abort();
        volatile uint8_t sink = 0;
        for (size_t k = 0; k < n; k++)
            sink ^= out[k];
        (void)sink;
        free(out);
    } else if (out || !err.code ||
               (err.offset != UINT64_MAX && (err.offset < base || err.offset > base + size))) {
        abort();
    }
    return 0;
}
