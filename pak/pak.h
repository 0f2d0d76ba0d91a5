/* pak.h — Metroid Prime 1/2 GameCube PAK archives (FORMATS.md §2–3): read the tables,
 * inflate entries (zlib or segmented LZO1X, chosen by sniffing the payload), detect the
 * game, and write PAKs (the fixture builder's first half). Knows nothing of ANCS or SQLite. */
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
    uint32_t name_len;
    const char *name; /* NUL-terminated copy; borrowed: valid until pak_close */
    uint64_t offset;  /* of the entry in the file */
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
    /* compressed: the u32 prefix (0 if unreadable). Stored: size minus the trailing 0xFF
     * padding (at most 31 bytes stripped; size itself when out of bounds), which is what
     * resources.tsv and pak_entries call the resource's size. pak_inflate still returns
     * every stored byte, padding included (§2.8). */
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
    const uint8_t *data; /* the whole file; borrowed (pak_open_mem) or mapped (pak_open) */
    size_t size;
    uint32_t header_unused;
    uint32_t named_count;
    pak_named *named;
    uint32_t entry_count;
    pak_entry *entries;
    uint64_t tables_end;  /* offset just past the resource table */
    uint64_t tables_hash; /* FNV-1a of bytes [0, tables_end) */
    size_t anomaly_count;
    pak_anomaly *anomalies;
    void *priv; /* internal: mapping and allocations */
} pak_file;

/* Parse the PAK in data[0..size). The bytes are borrowed: they must outlive the result.
 * owned: caller frees *out with pak_close. UTIL_ETRUNC / UTIL_EFORMAT name the offset. */
int pak_open_mem(pak_file **out, const uint8_t *data, size_t size, util_err *err);
/* Parse only the header and tables from head[0..head_len), the first bytes of a file of
 * file_size bytes: every check and error is the one pak_open_mem gives on the whole file.
 * When the tables run past head_len, returns UTIL_ETRUNC with *need set to a longer head
 * that lets the parse go on (*need is 0 otherwise). The result has data NULL (no entry
 * bytes: pak_entry_stored and pak_inflate refuse it) and every decompressed_size 0: call
 * pak_entry_sizes on each entry. owned: caller frees *out with pak_close. */
int pak_open_tables(pak_file **out, const uint8_t *head, size_t head_len, uint64_t file_size,
                    uint64_t *need, util_err *err);
/* Set e->decompressed_size as pak_open_mem does: compressed, the u32 at the start of head
 * (the entry's first head_len bytes; 4 are enough); stored, the size less the trailing 0xFF
 * padding seen in tail (the entry's last tail_len bytes; min(size, 32) are enough). Pass
 * NULL for bytes not read (out-of-bounds entries need none). */
void pak_entry_sizes(pak_entry *e, const uint8_t *head, size_t head_len, const uint8_t *tail,
                     size_t tail_len);
/* Map the file at path read-only and parse it. owned: pak_close unmaps. UTIL_EIO on OS errors. */
int pak_open(pak_file **out, const char *path, util_err *err);
void pak_close(pak_file *p);

/* Stored bytes of entry i (padding included); borrowed until pak_close. */
int pak_entry_stored(const pak_file *p, uint32_t i, const uint8_t **out, size_t *len,
                     util_err *err);

/* Which codec a compressed payload uses, by sniffing bytes 4..5 (§2.7 signal 2). */
pak_codec pak_sniff_codec(const uint8_t *stored, size_t len);

/* Inflate stored bytes: compressed → u32 size + zlib or LZO segments (sniffed); else a copy
 * of the stored bytes. A declared size above cap is UTIL_EFORMAT before any allocation.
 * owned: caller free()s *out. Offsets in err are relative to `stored` plus `base`. */
int pak_inflate_bytes(uint8_t **out, size_t *out_len, const uint8_t *stored, size_t len,
                      int compressed, size_t cap, uint64_t base, util_err *err);
/* Inflate entry i (offsets in err are file offsets). owned: caller free()s *out. */
int pak_inflate(uint8_t **out, size_t *out_len, const pak_file *p, uint32_t i, size_t cap,
                util_err *err);

/* Guess the game from the PAK's bytes (§2.7 signals 2 and 3, then ANCS version). Fills
 * *conflict (may be NULL) with 1 when signals disagree. */
pak_game pak_detect_game(const pak_file *p, int *conflict);
/* The codec vote of entry e from its first head_len bytes (6 are enough): NONE unless it is
 * compressed, in bounds and at least 6 bytes long. */
pak_codec pak_entry_codec(const pak_entry *e, const uint8_t *head, size_t head_len);
/* pak_detect_game's signals 2 and 3 only, with codecs[i] = pak_entry_codec of entry i (for
 * PAKs opened by pak_open_tables). PAK_GAME_UNKNOWN when neither tells: pak_detect_game then
 * tries pak_game_of_ancs on the first (at most 4) in-bounds ANCS that inflate. */
pak_game pak_detect_game_codecs(const pak_file *p, const uint8_t *codecs, int *conflict);
/* Signal 4 on an inflated ANCS: MP2 when the first character's version is 10, else MP1;
 * PAK_GAME_UNKNOWN when buf does not start like a character set. */
pak_game pak_game_of_ancs(const uint8_t *buf, size_t len);
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
/* Write header, tables, 32-aligned data with 0xFF padding. owned: caller free()s *out. */
int pak_builder_finish_mem(pak_builder *b, uint8_t **out, size_t *out_len, util_err *err);
int pak_builder_finish_file(pak_builder *b, const char *path, util_err *err);

#endif
