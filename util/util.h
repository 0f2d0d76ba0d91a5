/* util.h — format-neutral building blocks shared by pak/ and ancs/: the error type,
 * the bounds-checked big-endian reader, the growable writer and the arena.
 * Depends on libc only. */
#ifndef ANCSDB_UTIL_H
#define ANCSDB_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

enum { UTIL_ETRUNC = -1, UTIL_EFORMAT = -2, UTIL_ENOMEM = -3, UTIL_EIO = -4, UTIL_ESQL = -5 };

typedef struct util_err {
    int code;        /* a UTIL_E* value; 0 until something fails */
    uint64_t offset; /* fault's byte offset in the decoder's input; UINT64_MAX if none */
    char msg[192];   /* one line, no trailing newline */
} util_err;

/* Reset *e to "no error" (code 0, offset UINT64_MAX, empty message). */
void util_err_clear(util_err *e);

/* Fill *e (when e != NULL) and return `code`, so each failure site is one line. */
int util_fail(util_err *e, int code, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Short stable name of an error code ("truncated", "format", ...). */
const char *util_strerror(int code);

/* ---- reader ---------------------------------------------------------------- */

typedef struct util_rd {
    const uint8_t *p; /* first byte of this view */
    size_t len, pos;  /* view size; next unread byte (pos <= len always) */
    uint64_t base;    /* offset of p[0] in the original input */
} util_rd;

/* A view of len bytes at p whose first byte has absolute offset `base`. */
util_rd util_rd_make(const uint8_t *p, size_t len, uint64_t base);

static inline size_t util_rd_left(const util_rd *r)
{
    return r->len - r->pos;
}

/* Absolute offset of the next unread byte. */
static inline uint64_t util_rd_off(const util_rd *r)
{
    return r->base + r->pos;
}

int util_rd_need(const util_rd *r, size_t n, util_err *e);
int util_rd_u8(util_rd *r, uint8_t *out, util_err *e);
int util_rd_u16(util_rd *r, uint16_t *out, util_err *e);
int util_rd_s16(util_rd *r, int16_t *out, util_err *e);
int util_rd_u32(util_rd *r, uint32_t *out, util_err *e);
int util_rd_s32(util_rd *r, int32_t *out, util_err *e);
int util_rd_f32(util_rd *r, float *out, util_err *e);
/* Borrow n bytes: *out points into the input, valid as long as the input is. */
int util_rd_bytes(util_rd *r, size_t n, const uint8_t **out, util_err *e);
int util_rd_skip(util_rd *r, size_t n, util_err *e);
/* Zero-terminated string: *out borrows the input (terminator included, so it is a C
 * string), *len_out (may be NULL) is strlen. UTIL_ETRUNC when no terminator remains. */
int util_rd_cstr(util_rd *r, const char **out, size_t *len_out, util_err *e);
/* Carve the next n bytes into *child (absolute offsets kept) and advance past them. */
int util_rd_sub(util_rd *r, size_t n, util_rd *child, util_err *e);
/* Check that `count` elements of at least `min_size` bytes each can still fit. */
int util_rd_check_count(const util_rd *r, uint32_t count, size_t min_size, const char *what,
                        util_err *e);

/* ---- writer ---------------------------------------------------------------- */

typedef struct util_wr {
    uint8_t *buf; /* owned: free with util_wr_free */
    size_t len, cap;
    int failed; /* sticky: set once an allocation fails; later writes do nothing */
} util_wr;

void util_wr_init(util_wr *w);
void util_wr_free(util_wr *w);
/* Hand the buffer to the caller (caller free()s it) and reset the writer. */
uint8_t *util_wr_take(util_wr *w, size_t *len_out);
int util_wr_reserve(util_wr *w, size_t extra);
void util_wr_u8(util_wr *w, uint8_t v);
void util_wr_u16(util_wr *w, uint16_t v);
void util_wr_u32(util_wr *w, uint32_t v);
void util_wr_s32(util_wr *w, int32_t v);
void util_wr_f32(util_wr *w, float v);
void util_wr_bytes(util_wr *w, const void *p, size_t n);
/* Zero-terminated string (the terminator is written). NULL writes an empty string. */
void util_wr_cstr(util_wr *w, const char *s);
void util_wr_fill(util_wr *w, uint8_t byte, size_t n);
/* Overwrite 4 bytes at pos (pos + 4 <= len) with v, big-endian. */
void util_wr_put_u32_at(util_wr *w, size_t pos, uint32_t v);
/* 0, or UTIL_ENOMEM (filling *e) when any write failed. */
int util_wr_status(const util_wr *w, util_err *e);

/* ---- arena ----------------------------------------------------------------- */

typedef struct util_arena_block util_arena_block;
typedef struct util_arena {
    util_arena_block *head;
    size_t total;    /* bytes handed out so far */
    size_t limit;    /* 0 = no limit; else allocations beyond it fail (tests, caps) */
    int malloc_each; /* debug: one malloc per allocation so ASan sees each block */
    long fail_after; /* tests: the (n+1)-th allocation fails when >= 0; -1 = never */
} util_arena;

void util_arena_init(util_arena *a);
/* Zeroed memory aligned for any type, or NULL when out of memory / over the limit. */
void *util_arena_alloc(util_arena *a, size_t size);
/* count * size bytes with overflow check, zeroed. */
void *util_arena_array(util_arena *a, size_t count, size_t size);
char *util_arena_strdup(util_arena *a, const char *s);
/* Free every block; the arena is empty and reusable afterwards. NULL-tolerant. */
void util_arena_free(util_arena *a);

/* ---- files ----------------------------------------------------------------- */

/* Open path read-only if it is a regular file (O_NONBLOCK, so a FIFO put in its place cannot
 * block); *fd_out and *size_out on success; UTIL_EIO naming the path otherwise. */
int util_open_regular(const char *path, int *fd_out, size_t *size_out, util_err *e);

/* ---- byte sources ------------------------------------------------------------ */

/* Where bytes come from: a regular file (pread, never mmap), memory, or a byte range of
 * another source (a PAK inside a disc image). Every reader of PAKs and discs goes through
 * one. A read past the end, or a short read because the file shrank, is UTIL_EIO naming
 * the absolute offset in this source. */
typedef struct util_src util_src;

/* Open path if it is a regular file (O_NONBLOCK: a FIFO cannot block). owned: caller frees
 * with util_src_close. UTIL_EIO naming the path; UTIL_ENOMEM. */
int util_src_open_file(util_src **out, const char *path, util_err *e);
/* len bytes at p. borrowed: p must outlive the source. */
int util_src_open_mem(util_src **out, const void *p, size_t len, util_err *e);
/* The bytes [off, off + len) of parent, which must be inside it (UTIL_EIO otherwise) and
 * outlive the new source. Offsets of the new source start at 0. */
int util_src_open_range(util_src **out, util_src *parent, uint64_t off, uint64_t len, util_err *e);
void util_src_close(util_src *s);
/* Size in bytes (the file's size when it was opened). */
uint64_t util_src_size(const util_src *s);
/* Offset of this source's byte 0 in the outermost source (0 unless a range). */
uint64_t util_src_base(const util_src *s);
/* Read exactly len bytes at off into dst. UTIL_EIO (offset = off + bytes read) when the range
 * is outside the source or the file ends early. */
int util_src_read(const util_src *s, void *dst, uint64_t off, size_t len, util_err *e);
/* Read [off, off + len) into a new malloc()ed buffer; caller free()s *out. */
int util_src_read_alloc(const util_src *s, uint8_t **out, uint64_t off, size_t len, util_err *e);

/* ---- misc ------------------------------------------------------------------ */

/* Parse an asset ID as "0x1A2B3C4D", "1A2B3C4D" (8 hex digits) or decimal. */
int util_parse_id(const char *s, uint32_t *out);
/* FourCC as a 5-byte C string. */
void util_fourcc_str(uint32_t fourcc, char out[5]);
/* FourCC from a string of exactly 4 chars; 0 on success. */
int util_fourcc_parse(const char *s, uint32_t *out);
/* 64-bit FNV-1a over n bytes, continuing from h (start with UTIL_FNV_INIT). */
#define UTIL_FNV_INIT 0xcbf29ce484222325ULL
uint64_t util_fnv1a(uint64_t h, const void *p, size_t n);

#endif
