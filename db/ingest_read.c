/* ingest_read.c — the ingest's side of reading a PAK: its byte source (a file read with
 * pread, a byte range of a disc image, or db_ingest_mem's bytes), the hash of every byte
 * (--rehash). The tables and entries are read
 * through pak.h's pak_open_src_tables / pak_read_entry_info / pak_entry_read: an unchanged
 * PAK costs a stat and one read of its tables; a changed one a read of every byte (each
 * entry is hashed). */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <xxhash.h>

#include "ingest_internal.h"

#define READ_CHUNK (1u << 20) /* bytes hashed per read */

int ing_open(ing *g, const char *file, const char *image, int64_t off, uint64_t len,
             util_src **image_src, util_src **out, util_err *err)
{
    *image_src = NULL;
    if (g->mem_data)
        return util_src_open_mem(out, g->mem_data, g->mem_len, err);
    if (off < 0)
        return util_src_open_file(out, file, err);
    util_src *f = NULL;
    int rc = util_src_open_file(&f, image, err);
    if (rc == 0 && (rc = disc_container_open(image_src, f, ing_cache_bytes(g), NULL, err)) != 0)
        util_src_close(f); /* a plain image is f itself; a container owns f */
    if (rc == 0)
        rc = util_src_open_range(out, *image_src, (uint64_t)off, len, err);
    if (rc) {
        util_src_close(*image_src);
        *image_src = NULL;
    }
    return rc;
}

size_t ing_cache_bytes(const ing *g)
{
    size_t m = g->o && g->o->memory ? g->o->memory : DB_INGEST_MEMORY;
    m /= 32;
    if (m < ((size_t)1 << 20))
        m = (size_t)1 << 20;
    if (m > ((size_t)8 << 20))
        m = (size_t)8 << 20;
    return m;
}

void ing_prefetch(const ing *g, const iw_item *it)
{
    if (g->mem_data)
        return;
    const iw_release *r = &g->L.rels[it->rel];
    if (!it->file && r->image && r->image->container.kind != DISC_KIND_GCM)
        return; /* a container: its offsets are the disc's, not the file's */
    const char *file = it->file ? it->file : g->L.rels[it->rel].source;
    int fd = file ? open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
    if (fd < 0)
        return; /* only a hint: the read proper reports what is wrong */
    (void)posix_fadvise(fd, it->file ? 0 : (off_t)it->off, it->file ? 0 : (off_t)it->len,
                        POSIX_FADV_WILLNEED);
    close(fd);
}

int ing_hash_all(const util_src *src, uint64_t *out, util_err *err)
{
    uint64_t size = util_src_size(src);
    uint8_t *tmp = malloc(READ_CHUNK);
    XXH3_state_t *h = XXH3_createState();
    if (!tmp || !h) {
        free(tmp);
        XXH3_freeState(h);
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    }
    XXH3_64bits_reset(h);
    uint64_t off = 0;
    int rc = 0;
    while (off < size && !rc) {
        size_t want = size - off < READ_CHUNK ? (size_t)(size - off) : READ_CHUNK;
        rc = util_src_read(src, tmp, off, want, err);
        XXH3_64bits_update(h, tmp, want);
        off += want;
    }
    *out = XXH3_64bits_digest(h);
    XXH3_freeState(h);
    free(tmp);
    return rc;
}
