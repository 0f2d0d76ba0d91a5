/* util_src.c — byte sources: a regular file read with pread, memory, a byte range of
 * another source, and a callback's bytes. No mmap: a file that shrinks under a reader is an error
 * at an offset, never SIGBUS. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

enum { SRC_FILE, SRC_MEM, SRC_RANGE, SRC_CUSTOM };

struct util_src {
    int kind;
    int fd;                 /* SRC_FILE: owned */
    const uint8_t *mem;     /* SRC_MEM: borrowed */
    const util_src *parent; /* SRC_RANGE: borrowed */
    uint64_t off;           /* SRC_RANGE: where byte 0 sits in parent */
    uint64_t size;
    util_src_read_fn read;   /* SRC_CUSTOM */
    util_src_close_fn close; /* SRC_CUSTOM, or NULL */
    void *ctx;               /* SRC_CUSTOM: handed to read and close */
};

static int src_new(util_src **out, int kind, uint64_t size, util_err *e)
{
    util_src *s = calloc(1, sizeof *s);
    if (!s)
        return util_fail(e, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    s->kind = kind;
    s->fd = -1;
    s->size = size;
    *out = s;
    return 0;
}

int util_src_open_file(util_src **out, const char *path, util_err *e)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return util_fail(e, UTIL_EIO, UINT64_MAX, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) != 0)
        rc = util_fail(e, UTIL_EIO, UINT64_MAX, "cannot stat %s: %s", path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        rc = util_fail(e, UTIL_EIO, UINT64_MAX, "%s is not a regular file", path);
    else
        rc = src_new(out, SRC_FILE, (uint64_t)st.st_size, e);
    if (rc) {
        close(fd);
        return rc;
    }
    (*out)->fd = fd;
    return 0;
}

int util_src_open_mem(util_src **out, const void *p, size_t len, util_err *e)
{
    int rc = src_new(out, SRC_MEM, len, e);
    if (rc == 0)
        (*out)->mem = p;
    return rc;
}

int util_src_open_range(util_src **out, util_src *parent, uint64_t off, uint64_t len, util_err *e)
{
    if (off > parent->size || len > parent->size - off)
        return util_fail(
            e, UTIL_EIO, off, "range of %llu bytes at 0x%llx is past the end (%llu bytes)",
            (unsigned long long)len, (unsigned long long)off, (unsigned long long)parent->size);
    int rc = src_new(out, SRC_RANGE, len, e);
    if (rc == 0) {
        (*out)->parent = parent;
        (*out)->off = off;
    }
    return rc;
}

int util_src_open_custom(util_src **out, uint64_t size, util_src_read_fn read, void *ctx,
                         util_src_close_fn close_fn, util_err *e)
{
    int rc = src_new(out, SRC_CUSTOM, size, e);
    if (rc == 0) {
        (*out)->read = read;
        (*out)->ctx = ctx;
        (*out)->close = close_fn;
    }
    return rc;
}

void util_src_close(util_src *s)
{
    if (!s)
        return;
    if (s->kind == SRC_FILE && s->fd >= 0)
        close(s->fd);
    if (s->kind == SRC_CUSTOM && s->close)
        s->close(s->ctx);
    free(s);
}

uint64_t util_src_size(const util_src *s)
{
    return s->size;
}

void *util_src_custom_ctx(const util_src *s, util_src_read_fn read)
{
    return s && s->kind == SRC_CUSTOM && s->read == read ? s->ctx : NULL;
}

uint64_t util_src_base(const util_src *s)
{
    return s->kind == SRC_RANGE ? s->off + util_src_base(s->parent) : 0;
}

int util_src_read(const util_src *s, void *dst, uint64_t off, size_t len, util_err *e)
{
    if (off > s->size || len > s->size - off)
        return util_fail(e, UTIL_EIO, off,
                         "read of %zu bytes at 0x%llx is past the end (%llu bytes)", len,
                         (unsigned long long)off, (unsigned long long)s->size);
    switch (s->kind) {
    case SRC_MEM:
        if (len)
            memcpy(dst, s->mem + off, len);
        return 0;
    case SRC_CUSTOM:
        return len ? s->read(s->ctx, dst, off, len, e) : 0;
    case SRC_RANGE: {
        int rc = util_src_read(s->parent, dst, s->off + off, len, e);
        if (rc && e && e->offset != UINT64_MAX && e->offset >= s->off)
            e->offset -= s->off; /* name the offset in this source */
        return rc;
    }
    default: {
        uint8_t *p = dst;
        size_t done = 0;
        while (done < len) {
            ssize_t n = pread(s->fd, p + done, len - done, (off_t)(off + done));
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                return util_fail(e, UTIL_EIO, off + done, "read error at 0x%llx: %s",
                                 (unsigned long long)(off + done), strerror(errno));
            if (n == 0)
                return util_fail(e, UTIL_EIO, off + done,
                                 "file ended at 0x%llx (it shrank while being read)",
                                 (unsigned long long)(off + done));
            done += (size_t)n;
        }
        return 0;
    }
    }
}

int util_src_read_alloc(const util_src *s, uint8_t **out, uint64_t off, size_t len, util_err *e)
{
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf)
        return util_fail(e, UTIL_ENOMEM, off, "out of memory for %zu bytes", len);
    int rc = util_src_read(s, buf, off, len, e);
    if (rc) {
        free(buf);
        return rc;
    }
    *out = buf;
    return 0;
}

int util_read_file(const char *path, uint8_t **out, size_t *len_out, size_t max, util_err *e)
{
    util_src *s;
    *out = NULL;
    *len_out = 0;
    int rc = util_src_open_file(&s, path, e);
    if (rc)
        return rc;
    uint64_t size = util_src_size(s);
    uint8_t *buf = NULL;
    if (size >= SIZE_MAX || (max && size > max))
        rc = util_fail(e, UTIL_EFORMAT, UINT64_MAX, "%s: %llu bytes is more than the %zu allowed",
                       path, (unsigned long long)size, max ? max : SIZE_MAX - 1);
    else if (!(buf = malloc((size_t)size + 1)))
        rc = util_fail(e, UTIL_ENOMEM, UINT64_MAX, "%s: out of memory for %llu bytes", path,
                       (unsigned long long)size);
    else if ((rc = util_src_read(s, buf, 0, (size_t)size, e)) != 0 && e) {
        char why[sizeof e->msg];
        memcpy(why, e->msg, sizeof why);
        util_fail(e, rc, e->offset, "%s: %s", path, why);
    }
    util_src_close(s);
    if (rc) {
        free(buf);
        return rc;
    }
    buf[size] = 0;
    *out = buf;
    *len_out = (size_t)size;
    return 0;
}
