/* pak_internal.h — what the pak/ files share and nothing outside pak/ sees. */
#ifndef ANCSDB_PAK_INTERNAL_H
#define ANCSDB_PAK_INTERNAL_H

#include "pak.h"

/* Everything a pak_file owns beyond its public arrays, released by pak_close. */
typedef struct pak_priv {
    util_src *own_src; /* the source pak_open / pak_open_mem opened, or NULL */
    char *names;       /* all names, each NUL-terminated */
    size_t anomaly_cap;
} pak_priv;

/* Largest LZO1X output for one 0x4000-byte segment: n + n/16 + 64 + 3 (docs/formats.md §3.2). */
#define PAK_LZO_SEGMENT_BOUND (PAK_LZO_SEGMENT + PAK_LZO_SEGMENT / 16 + 64 + 3)

/* A new pak_file of `size` bytes with no source, or NULL out of memory. */
pak_file *pak_new(uint64_t size);

/* ---- the parse of a head of bytes (pak_src.c reads them; tests call these directly) -- */

/* Parse only the header and tables from head[0..head_len), the first bytes of a file of
 * file_size bytes: every check and error is the one pak_open_src gives. When the tables
 * run past head_len, returns UTIL_ETRUNC with *need set to a longer head that lets the
 * parse go on (*need is 0 otherwise). The result has no source (pak_entry_read and
 * pak_inflate refuse it) and every decompressed_size 0: call pak_entry_sizes on each
 * entry. owned: caller frees *out with pak_close. */
int pak_open_tables(pak_file **out, const uint8_t *head, size_t head_len, uint64_t file_size,
                    uint64_t *need, util_err *err);
/* Set e->decompressed_size and e->codec as pak_read_entry_info does: compressed, from the
 * entry's first head_len bytes (8 are enough); stored, the size less the trailing 0xFF
 * padding seen in tail (the entry's last tail_len bytes; min(size, 32) are enough). Pass
 * NULL for bytes not read (out-of-bounds entries need none). */
void pak_entry_sizes(pak_entry *e, const uint8_t *head, size_t head_len, const uint8_t *tail,
                     size_t tail_len);
/* The codec vote of entry e from its first head_len bytes (6 are enough): NONE unless it is
 * compressed, in bounds and at least 6 bytes long. */
pak_codec pak_entry_codec(const pak_entry *e, const uint8_t *head, size_t head_len);

#endif
