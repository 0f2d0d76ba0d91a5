/* pak.h — Metroid Prime 1/2 GameCube PAK archives (docs/formats.md §2–3): read the tables and
 * entries through a byte source (util_src: a file, memory, or a byte range of a disc image),
 * inflate entries (zlib or segmented LZO1X, chosen by sniffing the payload), decide the game
 * from the signals of §2.7, and write PAKs (the fixture builder's first half). Knows nothing
 * of ANCS, discs or SQLite. */
#ifndef ANCSDB_PAK_H
#define ANCSDB_PAK_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define PAK_VERSION     0x00030005u
#define PAK_ALIGN       32u
#define PAK_LZO_SEGMENT 0x4000u
/* Default cap on one entry's declared decompressed size: larger is an error, not an
 * allocation. The largest retail resources are a few MiB. */
#define PAK_MAX_INFLATE (256u << 20)
/* At most this many anomalies are listed per PAK; one "too_many_anomalies" follows. */
#define PAK_MAX_ANOMALIES 10000u

typedef enum { PAK_GAME_UNKNOWN = 0, PAK_GAME_MP1 = 1, PAK_GAME_MP2 = 2 } pak_game;
typedef enum { PAK_CODEC_NONE = 0, PAK_CODEC_ZLIB = 1, PAK_CODEC_LZO = 2 } pak_codec;

/* Named-resource entry (§2.3). */
typedef struct pak_named {
    uint32_t type, id;
    uint32_t name_len; /* as the table declares it */
    const char *name;  /* NUL-terminated copy; borrowed: valid until pak_close */
    uint64_t offset;   /* of the entry in the file */
    /* Offset in the file of the first NUL byte inside the declared name, UINT64_MAX when
     * there is none. The name as a C string stops there (a "name_nul" anomaly says so). */
    uint64_t nul_offset;
} pak_named;

/* Resource-table entry (§2.4). */
typedef struct pak_entry {
    uint32_t index;      /* position in the resource table */
    uint32_t compressed; /* raw flag; non-zero = compressed */
    uint32_t type, id;
    uint32_t size;         /* stored bytes, padding included */
    uint32_t offset;       /* absolute */
    uint64_t table_offset; /* where this 20-byte entry sits in the file */
    int in_bounds;         /* offset + size <= file size (else the entry is unreadable) */
    pak_codec codec;       /* compressed: the payload's codec by bytes 4–5; else NONE */
    /* compressed: the u32 prefix (0 if unreadable). Stored: size minus the trailing 0xFF
     * padding (at most 31 bytes stripped; size itself when out of bounds), which is what
     * resources.tsv and pak_entries call the resource's size. pak_inflate and
     * pak_entry_read still return every stored byte, padding included (§2.8). codec and
     * decompressed_size are 0 until the entry's bytes were read (pak_read_entry_info). */
    uint32_t decompressed_size;
} pak_entry;

/* An anomaly in a PAK that was read anyway (misaligned, overlapping, odd flag, ...). */
typedef struct pak_anomaly {
    int64_t entry_index; /* -1 for the whole PAK */
    uint64_t offset;
    const char *code; /* short stable word: "misaligned", "overlap", "compressed_flag", ... */
    char msg[160];
} pak_anomaly;

typedef struct pak_file {
    util_src *src; /* where entry bytes are read from; NULL after pak_open_tables */
    size_t size;   /* of the source */
    uint32_t header_unused;
    uint32_t named_count;
    pak_named *named;
    uint32_t entry_count;
    pak_entry *entries;
    uint64_t tables_end;  /* offset just past the resource table */
    uint64_t tables_hash; /* FNV-1a of bytes [0, tables_end) */
    size_t anomaly_count;
    pak_anomaly *anomalies;
    int entry_info; /* decompressed_size and codec are filled in */
    void *priv;     /* internal: allocations, the source when owned */
} pak_file;

/* Parse the PAK read through src: header and tables from its head, then every entry's
 * codec and decompressed_size from its first 8 (compressed) or last 32 (stored) bytes, in
 * a few large reads. Entry bytes are read through src later (pak_entry_read, pak_inflate):
 * borrowed, it must outlive the result. owned: caller frees *out with pak_close.
 * UTIL_ETRUNC / UTIL_EFORMAT name the offset; UTIL_EIO when a read fails (a file that
 * shrank: the offset of the first missing byte). */
int pak_open_src(pak_file **out, util_src *src, util_err *err);
/* pak_open_src without the entry reads: the header and tables only (say, to compare
 * tables_hash before reading more). Call pak_read_entry_info to fill codec and
 * decompressed_size. */
int pak_open_src_tables(pak_file **out, util_src *src, util_err *err);
int pak_read_entry_info(pak_file *p, util_err *err);
/* pak_read_entry_info for the compressed entries alone: their codecs and inflated sizes,
 * what a game's decision and a memory budget need before any entry is read. A stored
 * in-bounds entry is left codec NONE and decompressed_size 0, for pak_entry_sizes_from to
 * set from its bytes: a reader that reads every entry anyway spares one read per stored
 * entry (its last 32 bytes). Leaves entry_info 0. */
int pak_read_entry_heads(pak_file *p, util_err *err);
/* Entry e's codec and decompressed_size as pak_read_entry_info sets them, from its stored
 * bytes read whole (stored, len >= e->size). With fewer bytes, or none (out of bounds,
 * empty), they are what pak_read_entry_info sets when it reads nothing. */
void pak_entry_sizes_from(pak_entry *e, const uint8_t *stored, size_t len);
/* What pak_read_entry_info fills, for entry i alone (its first 8 or last 32 bytes, one
 * read), leaving entry_info as it was. A reader that reads entries one by one can fill each
 * entry's sizes just before it reads the entry: a container then decodes each of its blocks
 * once, not once for the sizes and again for the bytes. Touches entry i only, so threads
 * may fill different entries at once. */
int pak_read_entry_info_one(pak_file *p, uint32_t i, util_err *err);
/* pak_read_entry_info_one and pak_entry_read in one read: entry i's stored bytes whole,
 * its sizes set from them (the bytes pak_read_entry_info_one reads are a part of them), the
 * bytes in *out (*len of them; caller frees). An entry out of bounds or empty is left to
 * pak_entry_read (its sizes set, *out NULL, 0 returned). On a failed read nothing is set:
 * pak_read_entry_info_one reads less and may still succeed. */
int pak_entry_read_sized(pak_file *p, uint32_t i, uint8_t **out, size_t *len, util_err *err);
/* pak_open_src on the bytes data[0..size), borrowed: they must outlive the result. */
int pak_open_mem(pak_file **out, const uint8_t *data, size_t size, util_err *err);
/* pak_open_src on the regular file at path, read with pread (never mapped; a FIFO cannot
 * block). owned: pak_close closes the file. UTIL_EIO naming the path on OS errors. */
int pak_open(pak_file **out, const char *path, util_err *err);
void pak_close(pak_file *p);

/* The stored bytes of entry i, all of them (0xFF padding included: docs/formats.md §2.8), read
 * into a new buffer. owned: caller free()s *out. UTIL_ETRUNC for an entry past the end of
 * the file, UTIL_EIO when the read fails. */
int pak_entry_read(const pak_file *p, uint32_t i, uint8_t **out, size_t *len, util_err *err);
/* pak_entry_read into the caller's buffer of at least the entry's stored size. */
int pak_entry_read_into(const pak_file *p, uint32_t i, uint8_t *buf, util_err *err);

/* Whether entry i can be read: it exists, p has a source, its bytes lie within it (else
 * pak_entry_read's error). */
int pak_entry_check(const pak_file *p, uint32_t i, util_err *err);
/* *out: entry i with its sizes as pak_read_entry_info_one sets them (one read of its first 8
 * or last 32 bytes), p left as it is. */
int pak_entry_sizes_read(const pak_file *p, uint32_t i, pak_entry *out, util_err *err);

/* Bytes of an entry read a window at a time; a non-zero return stops the reading and is
 * returned (err set by the sink). */
typedef int (*pak_sink_fn)(void *ctx, const uint8_t *bytes, size_t n, util_err *err);
/* The window of pak_entry_stream: it reads and hands on at most this many bytes at once. */
#define PAK_STREAM_WINDOW (256u << 10)
/* Entry i through sink in order, in pieces of at most PAK_STREAM_WINDOW bytes, holding two
 * windows (and zlib's state) whatever the entry's size. inflate 0: the stored bytes, as
 * pak_entry_read gives them; 1: the resource, as pak_inflate gives it (a compressed entry
 * inflated with the same checks and errors, through zlib's streaming interface, a stored
 * one its stored bytes). Bytes handed on before an error are part of no result. */
int pak_entry_stream(const pak_file *p, uint32_t i, int inflate, size_t cap, pak_sink_fn sink,
                     void *ctx, util_err *err);
/* pak_entry_stream of the resource (inflate 1) that also hands every stored byte of the
 * entry, once and in order, to `stored`: as they are read for inflating, then those after
 * the stream's end. Both hashes of an entry in one reading. */
int pak_entry_stream_both(const pak_file *p, uint32_t i, size_t cap, pak_sink_fn sink, void *ctx,
                          pak_sink_fn stored, void *stored_ctx, util_err *err);

/* Which codec a compressed payload uses, by sniffing bytes 4..5 (§2.7 signal 2). */
pak_codec pak_sniff_codec(const uint8_t *stored, size_t len);

/* Inflate stored bytes: compressed → u32 size + zlib or LZO segments (sniffed); else a copy
 * of the stored bytes. A declared size above cap is UTIL_EFORMAT before any allocation.
 * owned: caller free()s *out. Offsets in err are relative to `stored` plus `base`. */
int pak_inflate_bytes(uint8_t **out, size_t *out_len, const uint8_t *stored, size_t len,
                      int compressed, size_t cap, uint64_t base, util_err *err);
/* pak_inflate_bytes of compressed bytes into the caller's buffer *buf of *buf_cap bytes
 * (NULL, 0: none yet), replaced by a larger one when the declared size needs it; the caller
 * keeps it from call to call and free()s it. */
int pak_inflate_reuse(uint8_t **buf, size_t *buf_cap, size_t *out_len, const uint8_t *stored,
                      size_t len, size_t cap, uint64_t base, util_err *err);
/* Entry i as a resource: a compressed entry inflated to its declared size, a stored one
 * as every stored byte. Read through the PAK's source; offsets in err are file offsets.
 * owned: caller free()s *out. */
int pak_inflate(uint8_t **out, size_t *out_len, const pak_file *p, uint32_t i, size_t cap,
                util_err *err);

/* ---- which game (docs/formats.md §2.7) ---------------------------------------------------- */

/* What the caller knows beyond the PAK's own tables and payloads. */
typedef struct pak_game_signals {
    const char *disc_id; /* signal 1: the disc's game code ("GM8E", "G2MP"), NULL if none */
    pak_game ancs;       /* signal 4: what the first character's version of an ANCS of this
                            PAK says (the caller decodes it; ancs_guess_game), or UNKNOWN */
} pak_game_signals;

/* The one game decision. Strongest first: the disc ID, the payload codecs (zlib MP1, LZO
 * MP2; majority of compressed entries), the resource types only one game has (majority),
 * then the caller's ANCS signal. s may be NULL (no signal beyond the PAK). *conflict (may
 * be NULL) is 1 when the signals present disagree. PAK_GAME_UNKNOWN when nothing tells:
 * a caller that has not yet looked at an ANCS may then do so and ask again. Needs entry
 * codecs (pak_open_src or pak_read_entry_info). */
pak_game pak_game_decide(const pak_file *p, const pak_game_signals *s, int *conflict);
/* The game a disc's game code names ("GM8…" MP1, "G2M…" MP2), else PAK_GAME_UNKNOWN: the
 * signal pak_game_decide puts first, whatever the entries say. */
pak_game pak_game_of_disc(const char *disc_id);
const char *pak_game_name(pak_game g); /* "MP1", "MP2", "unknown" */

/* ---- writing (fixtures, demo, bench) ---------------------------------------------- */

typedef struct pak_builder pak_builder;

/* owned: caller frees with pak_builder_free. */
pak_builder *pak_builder_new(void);
void pak_builder_free(pak_builder *b);
int pak_builder_add_named(pak_builder *b, uint32_t type, uint32_t id, const char *name,
                          util_err *err);
/* Add a resource; the bytes are copied (and compressed now when codec != NONE). LZO uses
 * LZO1X-999 in 0x4000-byte segments, storing a segment raw when it would not shrink. */
int pak_builder_add(pak_builder *b, uint32_t type, uint32_t id, const uint8_t *data, size_t len,
                    pak_codec codec, util_err *err);
/* Add a resource as a PAK stores it: bytes (for a compressed one its size prefix, payload and
 * any padding) copied as they are, with the compressed flag given; a PAK re-packed keeps
 * every entry's bytes (bench/repack.c). */
int pak_builder_add_stored(pak_builder *b, uint32_t type, uint32_t id, const uint8_t *bytes,
                           size_t len, uint32_t compressed, util_err *err);
/* Write header, tables, 32-aligned data with 0xFF padding. owned: caller free()s *out. */
int pak_builder_finish_mem(pak_builder *b, uint8_t **out, size_t *out_len, util_err *err);
/* The same written to the file path, created or truncated (util_create_file: never through a
 * symbolic link, only a regular file). */
int pak_builder_finish_file(pak_builder *b, const char *path, util_err *err);

#endif
