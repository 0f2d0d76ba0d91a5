/* disc_wia.c — WIA and RVZ containers (docs/formats.md §13). Not read yet: every open is
 * refused, so callers can be written against disc_wia.h. */
#include <stdlib.h>

#include "disc_wia.h"

int disc_wia_open(disc_wia **out, util_src *file, size_t cache_bytes, util_err *err)
{
    (void)file;
    (void)cache_bytes;
    *out = NULL;
    return util_fail(err, UTIL_EFORMAT, 0, "WIA and RVZ containers are not read yet");
}

int disc_wia_read(disc_wia *w, void *dst, uint64_t off, size_t len, util_err *err)
{
    (void)w;
    (void)dst;
    (void)len;
    return util_fail(err, UTIL_EIO, off, "WIA and RVZ containers are not read yet");
}

const disc_wia_info *disc_wia_get_info(const disc_wia *w)
{
    (void)w;
    return NULL;
}

void disc_wia_close(disc_wia *w)
{
    (void)w;
}
