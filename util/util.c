/* util.c — error type, reader, writer, arena (see util.h). */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void util_err_clear(util_err *e)
{
    if (!e)
        return;
    e->code = 0;
    e->offset = UINT64_MAX;
    e->msg[0] = '\0';
}

int util_fail(util_err *e, int code, uint64_t off, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        e->code = code;
        e->offset = off;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

const char *util_strerror(int code)
{
    switch (code) {
    case 0:
        return "ok";
    case UTIL_ETRUNC:
        return "truncated";
    case UTIL_EFORMAT:
        return "format";
    case UTIL_ENOMEM:
        return "out of memory";
    case UTIL_EIO:
        return "i/o";
    default:
        return "unknown";
    }
}

/* ---- growable arrays ------------------------------------------------------- */

int util_vec_reserve_(void *items_ptr, size_t *cap, size_t len, size_t extra, size_t elem_size,
                      util_err *e)
{
    if (elem_size == 0 || len > SIZE_MAX / elem_size || extra > SIZE_MAX / elem_size - len)
        return util_fail(e, UTIL_ENOMEM, UINT64_MAX, "array of %zu + %zu elements is too large",
                         len, extra);
    size_t need = len + extra;
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need)
        ncap = ncap > SIZE_MAX / elem_size / 2 ? need : ncap * 2;
    /* The pointer is copied out and back with memcpy: items_ptr is a T ** of any T. */
    void *items;
    memcpy(&items, items_ptr, sizeof items);
    void *grown = realloc(items, ncap * elem_size);
    if (!grown)
        return util_fail(e, UTIL_ENOMEM, UINT64_MAX, "out of memory for %zu elements", ncap);
    memcpy(items_ptr, &grown, sizeof grown);
    *cap = ncap;
    return 0;
}

/* ---- reader ---------------------------------------------------------------- */

util_rd util_rd_make(const uint8_t *p, size_t len, uint64_t base)
{
    util_rd r = {p, len, 0, base};
    return r;
}

int util_rd_need(const util_rd *r, size_t n, util_err *e)
{
    if (r->len - r->pos < n)
        return util_fail(e, UTIL_ETRUNC, r->base + r->pos, "need %zu bytes, %zu left", n,
                         r->len - r->pos);
    return 0;
}

int util_rd_u8(util_rd *r, uint8_t *out, util_err *e)
{
    if (util_rd_need(r, 1, e))
        return UTIL_ETRUNC;
    *out = r->p[r->pos++];
    return 0;
}

int util_rd_u16(util_rd *r, uint16_t *out, util_err *e)
{
    if (util_rd_need(r, 2, e))
        return UTIL_ETRUNC;
    const uint8_t *q = r->p + r->pos;
    *out = (uint16_t)((unsigned)q[0] << 8 | q[1]);
    r->pos += 2;
    return 0;
}

int util_rd_s16(util_rd *r, int16_t *out, util_err *e)
{
    uint16_t v;
    if (util_rd_u16(r, &v, e))
        return UTIL_ETRUNC;
    *out = (int16_t)v;
    return 0;
}

int util_rd_u32(util_rd *r, uint32_t *out, util_err *e)
{
    if (util_rd_need(r, 4, e))
        return UTIL_ETRUNC;
    const uint8_t *q = r->p + r->pos;
    *out = (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
    r->pos += 4;
    return 0;
}

int util_rd_s32(util_rd *r, int32_t *out, util_err *e)
{
    uint32_t v;
    if (util_rd_u32(r, &v, e))
        return UTIL_ETRUNC;
    *out = (int32_t)v;
    return 0;
}

int util_rd_f32(util_rd *r, float *out, util_err *e)
{
    uint32_t v;
    if (util_rd_u32(r, &v, e))
        return UTIL_ETRUNC;
    memcpy(out, &v, sizeof v);
    return 0;
}

int util_rd_bytes(util_rd *r, size_t n, const uint8_t **out, util_err *e)
{
    if (util_rd_need(r, n, e))
        return UTIL_ETRUNC;
    *out = r->p + r->pos;
    r->pos += n;
    return 0;
}

int util_rd_skip(util_rd *r, size_t n, util_err *e)
{
    if (util_rd_need(r, n, e))
        return UTIL_ETRUNC;
    r->pos += n;
    return 0;
}

int util_rd_cstr(util_rd *r, const char **out, size_t *len_out, util_err *e)
{
    const uint8_t *start = r->p + r->pos;
    const uint8_t *nul = memchr(start, 0, r->len - r->pos);
    if (!nul)
        return util_fail(e, UTIL_ETRUNC, r->base + r->pos,
                         "unterminated string: no NUL in the %zu bytes left", r->len - r->pos);
    size_t n = (size_t)(nul - start);
    *out = (const char *)start;
    if (len_out)
        *len_out = n;
    r->pos += n + 1;
    return 0;
}

int util_rd_sub(util_rd *r, size_t n, util_rd *child, util_err *e)
{
    if (util_rd_need(r, n, e))
        return UTIL_ETRUNC;
    *child = util_rd_make(r->p + r->pos, n, r->base + r->pos);
    r->pos += n;
    return 0;
}

int util_rd_check_count(const util_rd *r, uint32_t count, size_t min_size, const char *what,
                        util_err *e)
{
    size_t left = r->len - r->pos;
    if (min_size && count > left / min_size)
        return util_fail(e, UTIL_ETRUNC, r->base + r->pos,
                         "%s count %" PRIu32 " needs >= %zu bytes each, %zu left", what, count,
                         min_size, left);
    return 0;
}

/* ---- writer ---------------------------------------------------------------- */

void util_wr_init(util_wr *w)
{
    w->buf = NULL;
    w->len = w->cap = 0;
    w->failed = 0;
}

void util_wr_free(util_wr *w)
{
    if (!w)
        return;
    free(w->buf);
    util_wr_init(w);
}

uint8_t *util_wr_take(util_wr *w, size_t *len_out)
{
    uint8_t *b = w->buf;
    if (len_out)
        *len_out = w->len;
    if (!b && !w->failed)
        b = malloc(1); /* a valid pointer for an empty result */
    util_wr_init(w);
    return b;
}

int util_wr_reserve(util_wr *w, size_t extra)
{
    if (w->failed)
        return UTIL_ENOMEM;
    if (w->cap - w->len >= extra)
        return 0;
    size_t need;
    if (__builtin_add_overflow(w->len, extra, &need)) {
        w->failed = 1;
        return UTIL_ENOMEM;
    }
    size_t cap = w->cap ? w->cap : 256;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    uint8_t *nb = realloc(w->buf, cap);
    if (!nb) {
        w->failed = 1;
        return UTIL_ENOMEM;
    }
    w->buf = nb;
    w->cap = cap;
    return 0;
}

void util_wr_bytes(util_wr *w, const void *p, size_t n)
{
    if (n == 0 || util_wr_reserve(w, n))
        return;
    memcpy(w->buf + w->len, p, n);
    w->len += n;
}

void util_wr_u8(util_wr *w, uint8_t v)
{
    util_wr_bytes(w, &v, 1);
}

void util_wr_u16(util_wr *w, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    util_wr_bytes(w, b, 2);
}

void util_wr_u32(util_wr *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    util_wr_bytes(w, b, 4);
}

void util_wr_s32(util_wr *w, int32_t v)
{
    util_wr_u32(w, (uint32_t)v);
}

void util_wr_f32(util_wr *w, float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    util_wr_u32(w, u);
}

void util_wr_cstr(util_wr *w, const char *s)
{
    if (!s)
        s = "";
    util_wr_bytes(w, s, strlen(s) + 1);
}

void util_wr_fill(util_wr *w, uint8_t byte, size_t n)
{
    if (n == 0 || util_wr_reserve(w, n))
        return;
    memset(w->buf + w->len, byte, n);
    w->len += n;
}

void util_wr_put_u32_at(util_wr *w, size_t pos, uint32_t v)
{
    if (w->failed || pos > w->len || w->len - pos < 4)
        return;
    uint8_t *q = w->buf + pos;
    q[0] = (uint8_t)(v >> 24);
    q[1] = (uint8_t)(v >> 16);
    q[2] = (uint8_t)(v >> 8);
    q[3] = (uint8_t)v;
}

int util_wr_status(const util_wr *w, util_err *e)
{
    if (w->failed)
        return util_fail(e, UTIL_ENOMEM, UINT64_MAX, "out of memory while writing");
    return 0;
}

/* ---- arena ----------------------------------------------------------------- */

struct util_arena_block {
    util_arena_block *next;
    size_t size, used;
    max_align_t data[]; /* payload follows, aligned for any type */
};

#define ARENA_BLOCK 65536u
#define ARENA_ALIGN (sizeof(max_align_t))

void util_arena_init(util_arena *a)
{
    memset(a, 0, sizeof *a);
    a->fail_after = -1;
#ifdef ANCSDB_ARENA_MALLOC_EACH
    a->malloc_each = 1;
#endif
}

void *util_arena_alloc(util_arena *a, size_t size)
{
    if (a->fail_after == 0)
        return NULL;
    if (a->fail_after > 0)
        a->fail_after--;
    size_t rounded = (size + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
    if (rounded < size)
        return NULL;
    if (rounded == 0)
        rounded = ARENA_ALIGN;
    if (a->limit && (rounded > a->limit || a->total > a->limit - rounded))
        return NULL;
    util_arena_block *b = a->head;
    if (a->malloc_each || !b || b->size - b->used < rounded) {
        size_t bsize = rounded;
        if (!a->malloc_each && bsize < ARENA_BLOCK)
            bsize = ARENA_BLOCK;
        if (bsize > SIZE_MAX - sizeof *b)
            return NULL;
        util_arena_block *nb = malloc(sizeof *nb + bsize);
        if (!nb)
            return NULL;
        nb->size = bsize;
        nb->used = 0;
        /* A big one-off block goes behind the current one so its free space is kept. */
        if (b && !a->malloc_each && bsize == rounded && b->size - b->used > 1024) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
    }
    void *p = (char *)b->data + b->used;
    b->used += rounded;
    a->total += rounded;
    memset(p, 0, size);
    return p;
}

void *util_arena_array(util_arena *a, size_t count, size_t size)
{
    size_t n;
    if (__builtin_mul_overflow(count, size, &n))
        return NULL;
    return util_arena_alloc(a, n);
}

char *util_arena_strdup(util_arena *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = util_arena_alloc(a, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void util_arena_free(util_arena *a)
{
    if (!a)
        return;
    util_arena_block *b = a->head;
    while (b) {
        util_arena_block *n = b->next;
        free(b);
        b = n;
    }
    a->head = NULL;
    a->total = 0;
}

void util_arena_move(util_arena *dst, util_arena *src)
{
    *dst = *src;
    src->head = NULL;
    src->total = 0;
}

/* ---- files ----------------------------------------------------------------- */

int util_open_regular(const char *path, int *fd_out, size_t *size_out, util_err *e)
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
    else if ((uint64_t)st.st_size > SIZE_MAX)
        rc = util_fail(e, UTIL_EIO, UINT64_MAX, "%s is too large to map", path);
    if (rc) {
        close(fd);
        return rc;
    }
    *fd_out = fd;
    *size_out = (size_t)st.st_size;
    return 0;
}

FILE *util_create_file(const char *path, util_err *e)
{
    /* O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead of blocking the open */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0666);
    if (fd < 0) {
        int err = errno;
        util_fail(e, UTIL_EIO, UINT64_MAX, "cannot create %s: %s", path,
                  err == ELOOP   ? "it is a symbolic link (nothing is written through one)"
                  : err == ENXIO ? "it is not a regular file"
                                 : strerror(err));
        return NULL;
    }
    struct stat st;
    FILE *f = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        util_fail(e, UTIL_EIO, UINT64_MAX, "cannot create %s: it is not a regular file", path);
    else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 || !(f = fdopen(fd, "wb")))
        util_fail(e, UTIL_EIO, UINT64_MAX, "cannot create %s: %s", path, strerror(errno));
    if (!f)
        close(fd);
    return f;
}

util_walk_kind util_walk_classify(const char *path, uint64_t *size_out)
{
    struct stat lst, st;
    if (size_out)
        *size_out = 0;
    if (lstat(path, &lst) != 0)
        return UTIL_WALK_GONE;
    int link = S_ISLNK(lst.st_mode);
    if (!link)
        st = lst;
    else if (stat(path, &st) != 0)
        return UTIL_WALK_GONE;
    if (S_ISDIR(st.st_mode))
        return link ? UTIL_WALK_LINKED_DIR : UTIL_WALK_DIR;
    if (!S_ISREG(st.st_mode))
        return UTIL_WALK_OTHER;
    if (size_out)
        *size_out = (uint64_t)st.st_size;
    return UTIL_WALK_FILE;
}

/* ---- misc ------------------------------------------------------------------ */

int util_parse_id(const char *s, uint32_t *out)
{
    if (!s || !*s)
        return -1;
    int prefixed = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *d = prefixed ? s + 2 : s;
    size_t n = strlen(d);
    unsigned long long v;
    char *end;
    if (n == 0)
        return -1;
    if (prefixed || n <= 8) {
        if (n > 8)
            return -1;
        for (const char *q = d; *q; q++)
            if (!isxdigit((unsigned char)*q))
                return -1;
        v = strtoull(d, &end, 16);
    } else {
        if (n > 10)
            return -1;
        for (const char *q = d; *q; q++)
            if (!isdigit((unsigned char)*q))
                return -1;
        errno = 0;
        v = strtoull(d, &end, 10);
        if (errno || v > 0xFFFFFFFFull)
            return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

void util_fourcc_str(uint32_t fourcc, char out[5])
{
    for (int i = 0; i < 4; i++) {
        unsigned char c = (unsigned char)(fourcc >> (24 - 8 * i));
        out[i] = (char)(isprint(c) ? c : '?');
    }
    out[4] = '\0';
}

int util_fourcc_parse(const char *s, uint32_t *out)
{
    if (!s || strlen(s) != 4)
        return -1;
    *out = (uint32_t)(unsigned char)s[0] << 24 | (uint32_t)(unsigned char)s[1] << 16 |
           (uint32_t)(unsigned char)s[2] << 8 | (unsigned char)s[3];
    return 0;
}

uint64_t util_fnv1a(uint64_t h, const void *p, size_t n)
{
    const uint8_t *q = p;
    for (size_t i = 0; i < n; i++) {
        h ^= q[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* Whether the variable var says "name:N" with N == count. */
static int test_point_due(const char *var, const char *name, long count)
{
    const char *v = getenv(var);
    size_t n = strlen(name);
    if (!v || strncmp(v, name, n) != 0 || v[n] != ':')
        return 0;
    char *end = NULL;
    long want = strtol(v + n + 1, &end, 10);
    return end != v + n + 1 && *end == '\0' && want >= 1 && count == want;
}

void util_test_point(const char *name)
{
    static int armed = -1;
    static struct {
        const char *name;
        long count;
    } seen[8];
    if (armed < 0)
        armed = getenv("ANCSDB_TEST_KILL_AFTER") != NULL ||
                getenv("ANCSDB_TEST_SIGINT_AFTER") != NULL ||
                getenv("ANCSDB_TEST_STOP_AFTER") != NULL;
    if (!armed)
        return;
    size_t i = 0;
    while (i < sizeof seen / sizeof seen[0] && seen[i].name && strcmp(seen[i].name, name) != 0)
        i++;
    if (i == sizeof seen / sizeof seen[0])
        return;
    seen[i].name = name;
    long c = ++seen[i].count;
    if (test_point_due("ANCSDB_TEST_KILL_AFTER", name, c))
        raise(SIGKILL);
    if (test_point_due("ANCSDB_TEST_SIGINT_AFTER", name, c))
        raise(SIGINT);
    if (test_point_due("ANCSDB_TEST_STOP_AFTER", name, c))
        raise(SIGSTOP);
}
