/* util.h — format-neutral building blocks shared by pak/ and ancs/: the error type,
 * the bounds-checked big-endian reader, the growable writer and the arena.
 * Depends on libc only. */
#ifndef ANCSDB_UTIL_H
#define ANCSDB_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Error codes of util/ and of the format layers. Layers above define their own codes below
 * UTIL_ELAST (db.h: UTIL_ESQL). */
enum { UTIL_ETRUNC = -1, UTIL_EFORMAT = -2, UTIL_ENOMEM = -3, UTIL_EIO = -4, UTIL_ELAST = -4 };

/* Evaluate expr (an int: 0 or a negative UTIL_E*) and return it from the calling function
 * when it is negative. */
#define TRY(expr)                                                                                  \
    do {                                                                                           \
        int try_rc_ = (expr);                                                                      \
        if (try_rc_ < 0)                                                                           \
            return try_rc_;                                                                        \
    } while (0)

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

/* ---- growable arrays ------------------------------------------------------- */

/* A typed growable array: `UTIL_VEC(pak_anomaly) v = {0};` then util_vec_push(&v, x, err).
 * items is owned (free with util_vec_free); len elements are in use, cap allocated. */
#define UTIL_VEC(T)                                                                                \
    struct {                                                                                       \
        T *items;                                                                                  \
        size_t len, cap;                                                                           \
    }

/* Make room for `extra` more elements of elem_size bytes in the array whose items pointer is
 * at *items_ptr (a T ** passed as void *). Grows by doubling; checks every size for
 * overflow. UTIL_ENOMEM (the array unchanged) when the memory cannot be had. */
int util_vec_reserve_(void *items_ptr, size_t *cap, size_t len, size_t extra, size_t elem_size,
                      util_err *e);

/* 0 or UTIL_ENOMEM: room for n more elements in *v. */
#define util_vec_reserve(v, n, e)                                                                  \
    util_vec_reserve_(&(v)->items, &(v)->cap, (v)->len, (n), sizeof *(v)->items, (e))
/* 0 or UTIL_ENOMEM: append val (an expression of the element type) to *v. */
#define util_vec_push(v, val, e)                                                                   \
    (util_vec_reserve((v), 1, (e)) ? UTIL_ENOMEM : ((v)->items[(v)->len++] = (val), 0))
/* Free the elements; *v is empty and reusable. */
#define util_vec_free(v) ((void)(free((v)->items), (v)->items = NULL, (v)->len = (v)->cap = 0))

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
/* dst (empty or freed) takes src's blocks, so what was allocated from src lives until
 * util_arena_free(dst); src is left empty and usable, with its limits. */
void util_arena_move(util_arena *dst, util_arena *src);

/* ---- decoders of outside bytes (util_dec.c) ------------------------------------- */

/* A decoder warning: an anomaly in input that was read (docs/formats.md §8). */
typedef struct util_warning {
    struct util_warning *next;
    uint64_t offset;  /* absolute byte offset in the decoder's input */
    const char *code; /* short stable word, e.g. "pas_magic", "trailing_bytes" */
    const char *msg;  /* one line */
} util_warning;

/* What a top-level decode saw besides the structure itself. */
typedef struct util_report {
    size_t consumed;         /* bytes of structure decoded */
    const uint8_t *trailing; /* bytes after it (arena copy; the encoder writes them back) */
    size_t trailing_len;
    int trailing_all_ff;    /* 1 when every trailing byte is 0xFF padding (no warning) */
    util_warning *warnings; /* in input order */
    size_t warning_count;
} util_report;

/* A decoder's state: a cursor over the arena copy of the whole input (strings and the
 * trailing bytes point into that copy), the arena, the error and the report. */
typedef struct util_dec {
    util_rd r;
    util_arena *a;
    util_err *err;
    util_report *rep;
    int game; /* the decoder's own: which game's rules apply (ancs_game) */
} util_dec;

/* Copy the input into the arena and start a cursor over it; *d and *rep are reset. */
int util_dec_start(util_dec *d, const uint8_t *buf, size_t len, util_report *rep, util_arena *arena,
                   util_err *err);
/* Record the bytes after the structure (it ends at the cursor); warn "trailing_bytes" when
 * they are not all 0xFF padding. */
int util_dec_finish(util_dec *d);
/* Add a warning at absolute offset off, the list kept in input order. */
int util_dec_warn(util_dec *d, uint64_t off, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* UTIL_ENOMEM at the cursor's offset. */
int util_dec_oom(util_dec *d);
/* *out (a pointer to T *) = zeroed arena array of n elements of size bytes; NULL when n is 0. */
int util_dec_array(util_dec *d, void *out, uint32_t n, size_t size);
/* Read a u32 count that must leave room for count elements of min_size bytes each
 * (util_rd_check_count: UTIL_ETRUNC at the byte after the count, before any allocation). */
int util_dec_count(util_dec *d, uint32_t *n, size_t min_size, const char *what);

/* ---- files ----------------------------------------------------------------- */

/* Open path read-only if it is a regular file (O_NONBLOCK, so a FIFO put in its place cannot
 * block); *fd_out and *size_out on success; UTIL_EIO naming the path otherwise. */
int util_open_regular(const char *path, int *fd_out, size_t *size_out, util_err *e);

/* Create or truncate the file at path for writing ("wb"), never through a symbolic link (its
 * last component may not be one: O_NOFOLLOW) and only a regular file (a FIFO, device or folder
 * in its place is refused, never blocked on). NULL with e set (UTIL_EIO naming the path and
 * why) otherwise. Every file the fixture builder and the demo write is opened so. */
FILE *util_create_file(const char *path, util_err *e);

/* What a folder walk does with one entry of a folder: the one rule every walk of ancsdb
 * follows (plain folders, Dolphin's extracted files/). A regular file, or a symbolic link to
 * one, is read (UTIL_WALK_FILE); a folder is entered (UTIL_WALK_DIR); a symbolic link to a
 * folder is never entered (UTIL_WALK_LINKED_DIR), so a walk stays inside the tree it was
 * given; a dangling link or an entry that vanished is UTIL_WALK_GONE; anything else (FIFO,
 * socket, device) UTIL_WALK_OTHER. *size_out (may be NULL): the file's size. */
typedef enum {
    UTIL_WALK_FILE,
    UTIL_WALK_DIR,
    UTIL_WALK_LINKED_DIR,
    UTIL_WALK_GONE,
    UTIL_WALK_OTHER
} util_walk_kind;
util_walk_kind util_walk_classify(const char *path, uint64_t *size_out);

/* Read the whole regular file at path into a new buffer with one extra 0 byte after the
 * *len_out bytes (so text can be used as a C string); caller free()s *out. A file larger
 * than max bytes is UTIL_EFORMAT before any allocation (max 0: no limit). UTIL_EIO naming
 * the path and offset when it cannot be opened or read (a FIFO, a folder, a file that
 * shrank). */
int util_read_file(const char *path, uint8_t **out, size_t *len_out, size_t max, util_err *e);

/* ---- byte sources ------------------------------------------------------------ */

/* Where bytes come from: a regular file (pread, never mmap), memory, a byte range of
 * another source (a PAK inside a disc image), or a callback (a disc container). Every reader of
 * PAKs and discs goes through one. A read past the end, or a short read because the file shrank, is
 * UTIL_EIO naming the absolute offset in this source. */
typedef struct util_src util_src;

/* Open path if it is a regular file (O_NONBLOCK: a FIFO cannot block). owned: caller frees
 * with util_src_close. UTIL_EIO naming the path; UTIL_ENOMEM. */
int util_src_open_file(util_src **out, const char *path, util_err *e);
/* len bytes at p. borrowed: p must outlive the source. */
int util_src_open_mem(util_src **out, const void *p, size_t len, util_err *e);
/* The bytes [off, off + len) of parent, which must be inside it (UTIL_EIO otherwise) and
 * outlive the new source. Offsets of the new source start at 0. */
int util_src_open_range(util_src **out, util_src *parent, uint64_t off, uint64_t len, util_err *e);
/* A source whose bytes come from a callback (a disc container decompressing blocks): read
 * gets [off, off + len) already checked to lie inside size, and must be safe to call from
 * several threads at once; on failure it fills e (its offset: the offset in this source) and
 * returns the code. close (NULL: none) gets ctx back when the source is closed. owned: caller
 * frees with util_src_close. */
typedef int (*util_src_read_fn)(void *ctx, void *dst, uint64_t off, size_t len, util_err *e);
typedef void (*util_src_close_fn)(void *ctx);
int util_src_open_custom(util_src **out, uint64_t size, util_src_read_fn read, void *ctx,
                         util_src_close_fn close, util_err *e);
void util_src_close(util_src *s);
/* The ctx of s when it is a source util_src_open_custom made with this read function, else
 * NULL (how a module finds its own state behind a source it made). */
void *util_src_custom_ctx(const util_src *s, util_src_read_fn read);
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

/* Parse an asset ID (CONTRACT.md): "0x" and 1 to 8 hex digits, or 1 to 8 hex digits without
 * the prefix (always hex, even when they are all decimal digits: "12345678" = 0x12345678), or
 * 9 or 10 decimal digits (439041101) up to 4294967295. -1 otherwise. */
int util_parse_id(const char *s, uint32_t *out);
/* FourCC value of four characters, big-endian: UTIL_FOURCC('A','N','C','S') == 0x414E4353. */
#define UTIL_FOURCC(a, b, c, d)                                                                    \
    ((uint32_t)(uint8_t)(a) << 24 | (uint32_t)(uint8_t)(b) << 16 | (uint32_t)(uint8_t)(c) << 8 |   \
     (uint32_t)(uint8_t)(d))
/* Resource types the tool names (docs/formats.md §2.7, §4). */
#define UTIL_FCC_ANCS UTIL_FOURCC('A', 'N', 'C', 'S')
#define UTIL_FCC_EVNT UTIL_FOURCC('E', 'V', 'N', 'T')
#define UTIL_FCC_ANIM UTIL_FOURCC('A', 'N', 'I', 'M')
#define UTIL_FCC_CMDL UTIL_FOURCC('C', 'M', 'D', 'L')
#define UTIL_FCC_CSKR UTIL_FOURCC('C', 'S', 'K', 'R')
#define UTIL_FCC_CINF UTIL_FOURCC('C', 'I', 'N', 'F')
#define UTIL_FCC_CSPP UTIL_FOURCC('C', 'S', 'P', 'P')
#define UTIL_FCC_PART UTIL_FOURCC('P', 'A', 'R', 'T')
#define UTIL_FCC_SWHC UTIL_FOURCC('S', 'W', 'H', 'C')
#define UTIL_FCC_ELSC UTIL_FOURCC('E', 'L', 'S', 'C')
#define UTIL_FCC_SPSC UTIL_FOURCC('S', 'P', 'S', 'C')
#define UTIL_FCC_PAS4 UTIL_FOURCC('P', 'A', 'S', '4')
#define UTIL_FCC_CTWK UTIL_FOURCC('C', 'T', 'W', 'K')
#define UTIL_FCC_SRSC UTIL_FOURCC('S', 'R', 'S', 'C')
#define UTIL_FCC_PTLA UTIL_FOURCC('P', 'T', 'L', 'A')
#define UTIL_FCC_RULE UTIL_FOURCC('R', 'U', 'L', 'E')
#define UTIL_FCC_EGMC UTIL_FOURCC('E', 'G', 'M', 'C')
#define UTIL_FCC_STLC UTIL_FOURCC('S', 'T', 'L', 'C')
#define UTIL_FCC_FSM2 UTIL_FOURCC('F', 'S', 'M', '2')
#define UTIL_FCC_MLVL UTIL_FOURCC('M', 'L', 'V', 'L')
#define UTIL_FCC_MREA UTIL_FOURCC('M', 'R', 'E', 'A')
#define UTIL_FCC_STRG UTIL_FOURCC('S', 'T', 'R', 'G')
#define UTIL_FCC_TXTR UTIL_FOURCC('T', 'X', 'T', 'R')
/* The one FourCC-to-text function: 4 characters and a NUL; a byte that is not printable
 * ASCII becomes '?'. */
void util_fourcc_str(uint32_t fourcc, char out[5]);
/* FourCC from a string of exactly 4 chars; 0 on success. */
int util_fourcc_parse(const char *s, uint32_t *out);
/* 64-bit FNV-1a over n bytes, continuing from h (start with UTIL_FNV_INIT). */
#define UTIL_FNV_INIT 0xcbf29ce484222325ULL
uint64_t util_fnv1a(uint64_t h, const void *p, size_t n);

/* ---- test hooks (docs/testing.md) ------------------------------------------------------
 * A named point of a long job: the ingest passes "pak" after each PAK (read, skipped or
 * failed), "entry" before each resource entry's rows and "final" on entering its final pass;
 * a running SQL statement passes "step" at each of its interrupt checks. Inert unless the
 * environment sets ANCSDB_TEST_KILL_AFTER, ANCSDB_TEST_SIGINT_AFTER or ANCSDB_TEST_STOP_AFTER
 * to NAME:N (N >= 1): the N-th time the point NAME is passed, the process raises SIGKILL,
 * SIGINT or SIGSTOP, so tests stop a run at a chosen place instead of at a moment. Called
 * from one thread (the ingest's writer). */
void util_test_point(const char *name);

/* ---- text printed to people (text.c) ------------------------------------------
 * The one string policy for every line ancsdb prints: a terminal never receives a control
 * character or a byte that is not UTF-8 from data (names read from PAKs, discs, name maps,
 * paths). Well-formed UTF-8 passes through, except C0/C1 controls, DEL, U+2028/U+2029, the
 * bidirectional overrides and isolates and the invisible format characters (U+061C,
 * U+200B-U+200F, U+2060-U+2064, U+FEFF, U+FFF9-U+FFFB); those show as \n \r \t, \xNN (code points
 * below 0x100: C0, DEL, C1) or \u and four hex digits, and each byte that is not part of
 * well-formed UTF-8 as \xNN too. */

/* Length (1..4) of the well-formed UTF-8 sequence at s[0..n) (n >= 1) and its code point, or
 * 0 when s[0] does not start one (stray continuation byte, overlong form, surrogate,
 * > U+10FFFF, truncated sequence). */
size_t util_utf8_seq(const unsigned char *s, size_t n, uint32_t *cp);
/* 1 for the code points a terminal may act on (see above). */
int util_cp_unsafe(uint32_t cp);
/* s[0..n) made terminal-safe as a new NUL-terminated string; caller free()s; NULL when out of
 * memory. */
char *util_text_safe(const char *s, size_t n);
/* printf to f through util_text_safe: the whole formatted text is escaped, except the line
 * ends that fmt itself starts and ends with (kept as line ends). Returns what fputs returns
 * (EOF on a write error). */
int util_text_printf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int util_text_vprintf(FILE *f, const char *fmt, va_list ap);

/* ---- XML and HTML text (text.c) ------------------------------------------------------
 * The one escaper of text written into XML (name maps) or HTML (the report): & < > as
 * &amp; &lt; &gt;; well-formed UTF-8 passes through; each byte XML 1.0 cannot carry (C0
 * controls but tab and LF, DEL, bytes that are not well-formed UTF-8, U+FFFE, U+FFFF) becomes
 * U+FFFD. UTIL_XML_QUOTES: also " and ' (as &quot; and &#39;), for attribute values.
 * UTIL_XML_LINE_REFS: tab, LF and CR as &#9; &#10; &#13; (which a parser keeps as they are);
 * without it tab and LF pass through and CR becomes U+FFFD. s NULL: nothing. */
enum { UTIL_XML_QUOTES = 1, UTIL_XML_LINE_REFS = 2 };
void util_xml_escape(FILE *f, const char *s, unsigned flags);

#endif
