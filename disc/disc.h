/* disc.h — GameCube disc images (docs/formats.md §10): the disc header, the file system
 * table (FST), each file as a byte range of the image read through a util_src, Dolphin's
 * extracted layout (sys/boot.bin beside files/), and disc containers (§13): RVZ, WIA, GCZ and
 * CISO read in place as a byte source; WBFS, NKit and Wii discs recognised and refused.
 * Knows nothing of PAKs: a file is a path, an offset and a length. */
#ifndef ANCSDB_DISC_H
#define ANCSDB_DISC_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define DISC_MAGIC       0xC2339F3Du /* at 0x01C of a GameCube disc */
#define DISC_WII_MAGIC   0x5D1C9EA3u /* at 0x018 of a Wii disc */
#define DISC_HEADER_SIZE 0x440u      /* boot.bin */
#define DISC_TITLE_SIZE  0x3E0u      /* title field at 0x020 */
/* Bytes disc_sniff wants to see (NKit's mark sits at 0x200; the header is 0x440). */
#define DISC_SNIFF_SIZE DISC_HEADER_SIZE
/* Caps on what a hostile header may make us allocate: retail FSTs are tens of KiB. */
#define DISC_MAX_FST_SIZE     (16u << 20)
#define DISC_MAX_PATH         1024u       /* bytes of one "dir/sub/name", terminator excluded */
#define DISC_MAX_PATH_BYTES   (64u << 20) /* all paths of one FST together */
#define DISC_FST_SKIPS_LISTED 64u         /* entries left out for their names, listed one by one */
#define DISC_MAX_DEPTH        64u         /* folder depth walked in an extracted disc */
/* Decompressed container blocks kept between reads when the caller gives no budget. */
#define DISC_CACHE_DEFAULT (8u << 20)
/* Largest GCZ or CISO block and WIA/RVZ chunk accepted, so the most one decoded unit a
 * container's reader keeps can take (Dolphin writes 32 KiB to 2 MiB by default). */
#define DISC_MAX_BLOCK (64u << 20)

/* What a file holds (disc_sniff). */
typedef enum {
    DISC_KIND_UNKNOWN = 0, /* none of these: not a disc image */
    DISC_KIND_GCM,         /* a plain GameCube image: readable */
    DISC_KIND_WII,         /* Wii disc (0x5D1C9EA3 at 0x18) */
    DISC_KIND_NKIT,        /* NKit GameCube/Wii image ("NKIT" at 0x200) */
    DISC_KIND_RVZ,         /* "RVZ\x01" at 0 */
    DISC_KIND_WIA,         /* "WIA\x01" at 0 */
    DISC_KIND_GCZ,         /* 0xB10BC001 little-endian at 0 */
    DISC_KIND_CISO,        /* "CISO" at 0 */
    DISC_KIND_WBFS,        /* "WBFS" at 0 */
} disc_kind;

/* ---- header (boot.bin) ------------------------------------------------------------
 * 0x000 game ID, 4 chars (the 4th is the region letter) | 0x004 maker, 2 chars
 * 0x006 disc number u8 | 0x007 revision u8 | 0x018 Wii magic | 0x01C GameCube magic
 * 0x020 title, 0x3E0 bytes, zero-terminated | 0x420 DOL offset | 0x424 FST offset
 * 0x428 FST size | 0x42C maximum FST size. All big-endian. */
typedef struct disc_header {
    char game_code[7]; /* game ID + maker, 6 letters or digits: "GM8E01" */
    char game_id[5];   /* the first 4: "GM8E" */
    char maker[3];     /* "01" */
    uint8_t disc_number;
    uint8_t revision;
    char region_letter; /* game_code[3] */
    const char *region; /* "NTSC-U", "PAL", "NTSC-J", "NTSC-K"; NULL for another letter */
    char label[12];     /* release label: game code, '_', revision in 2+ digits: GM8E01_00 */
    /* The title as UTF-8: Shift-JIS (code page 932) on NTSC-J discs, else Windows-1252,
     * as Dolphin reads GameCube titles; a byte that does not convert becomes '?'. */
    char title[DISC_TITLE_SIZE * 3 + 1];
    char title_raw[DISC_TITLE_SIZE + 1]; /* the bytes as on the disc, zero-terminated */
    uint32_t dol_offset, fst_offset, fst_size, fst_max_size;
} disc_header;

/* Parse the header from the first len bytes of an image (or a boot.bin). UTIL_EFORMAT when
 * disc_sniff recognises a container (the message says what it is: disc_kind_refusal);
 * UTIL_ETRUNC when len < DISC_HEADER_SIZE; UTIL_EFORMAT at 0x1C without the GameCube magic,
 * at the byte when the game code is not 6 upper-case
 * letters or digits. FST offset and size are not checked here (disc_open does). */
int disc_parse_header(disc_header *out, const uint8_t *buf, size_t len, util_err *err);

/* The region of a game ID's 4th letter: E N Z -> NTSC-U; J -> NTSC-J; K Q T -> NTSC-K;
 * P D F H I L M S U X Y -> PAL; NULL for any other. */
const char *disc_region_of(char letter);

/* ---- FST ------------------------------------------------------------------------------
 * 12-byte entries, then the name table. Entry: u8 flags (1 directory, 0 file), u24 name
 * offset in the name table; u32 file: byte offset in the image / directory: parent's index;
 * u32 file: length / directory: index of the first entry after its last descendant.
 * Entry 0 is the root; its third word is the number of entries. Pre-order. */
typedef struct disc_file {
    const char *path;      /* "dir/sub/name", no leading slash; borrowed (owner's lifetime) */
    const char *name;      /* the last component: points into path */
    uint32_t index;        /* FST entry index (extracted disc: position in the sorted list) */
    uint64_t entry_offset; /* image offset of its FST entry (extracted disc: 0) */
    uint64_t offset;       /* byte offset in the image (extracted disc: 0) */
    uint64_t length;       /* bytes */
    int in_bounds;         /* offset + length <= image size; else disc_file_open refuses it */
} disc_file;

/* An FST entry left out for its name (empty, "." or "..", or holding '/', which no path can
 * carry): a file, or a directory with everything below it. */
typedef struct disc_fst_skip {
    uint32_t index;        /* FST entry index */
    uint64_t entry_offset; /* image offset of its FST entry */
    uint64_t name_offset;  /* image offset of its name */
    int is_dir;
    char name[68]; /* the name (its first 64 bytes), as stored */
} disc_fst_skip;

typedef struct disc_fst {
    uint32_t entry_count; /* entries, root included (extracted disc: 0) */
    uint32_t dir_count;   /* directories, root excluded */
    uint32_t file_count;
    disc_file *files;        /* file_count files in FST (pre-)order */
    uint32_t out_of_bounds;  /* files whose bytes run past the end of the image */
    uint32_t skipped_count;  /* entries left out for their names */
    disc_fst_skip *skipped;  /* the first skipped_listed of them, in FST order */
    uint32_t skipped_listed; /* at most DISC_FST_SKIPS_LISTED */
} disc_fst;

/* Parse the FST in fst[0..len), which sits at offset base of an image of image_size bytes
 * (base is added to every error offset and entry_offset). Everything lives in arena a.
 * An entry whose name is empty, "." or "..", or holds '/' is left out (a directory with
 * everything below it) and listed in skipped; the rest of the disc is read.
 * One bad FST is one UTIL_EFORMAT naming the byte offset of the fault: root not a directory,
 * entry count larger than the FST, a name offset past the name table or a name running past
 * it, a directory whose parent index is not
 * the directory holding it or whose next index points backwards or past its parent's end, a
 * path longer than DISC_MAX_PATH. A file past the end of the image only clears its
 * in_bounds. UTIL_ENOMEM from the arena. */
int disc_fst_parse(disc_fst *out, const uint8_t *fst, size_t len, uint64_t base,
                   uint64_t image_size, util_arena *a, util_err *err);

/* The file at path ("dir/name", ASCII case-insensitive; an exact match wins over one that
 * differs only in case), or NULL. A leading '/' is ignored. */
const disc_file *disc_fst_find(const disc_fst *f, const char *path);

/* ---- images and extracted discs ----------------------------------------------------- */

/* What holds the disc's bytes. */
typedef struct disc_container_info {
    disc_kind kind;      /* DISC_KIND_GCM (a plain image), RVZ, WIA, GCZ or CISO */
    uint64_t file_size;  /* bytes of the file */
    uint64_t disc_size;  /* bytes of the disc image it holds */
    uint32_t block_size; /* container block (WIA/RVZ chunk) size; 0 for a plain image */
    /* Bytes of one decoded unit (GCZ block, WIA/RVZ group); its reader always keeps the
     * last two, even past cache_bytes. 0 when it keeps none (a plain image, CISO). */
    uint32_t cache_unit;
    const char *compression;   /* "none", "zlib" (GCZ), "purge", "bzip2", "LZMA", "LZMA2", "zstd" */
    int32_t compression_level; /* WIA/RVZ: as stored; else 0 */
    /* A container cut short (a download that stopped): the file ends at file_size, before
     * the stated_size its header needs. It still opens when its tables are there; reading
     * the disc's bytes that lie past the end is a fault then (UTIL_EIO). 0 when whole. */
    uint64_t stated_size;
} disc_container_info;

typedef struct disc_image {
    disc_header header;
    disc_container_info container;
    disc_fst fst;
    uint64_t size;   /* image size in bytes (extracted disc: 0) */
    util_src *src;   /* the image; borrowed from disc_open_src, else owned (extracted: NULL) */
    const char *dir; /* extracted disc: the folder given (holding sys/ and files/); else NULL */
    /* extracted disc: the folders below files/ that could not be read, each left out of the
     * file list ("PATH: reason", PATH relative to files/) */
    char **unreadable;
    uint32_t unreadable_count;
    void *priv;
} disc_image;

/* Read header and FST of the image in src (borrowed: it must outlive the disc). Errors:
 * those of disc_parse_header (UTIL_ETRUNC at the image size when shorter than the header),
 * UTIL_EFORMAT at 0x428 when the FST size is 0 or above DISC_MAX_FST_SIZE, at 0x424 when
 * the FST runs past the end of the image, those of disc_fst_parse, UTIL_EIO from the
 * source. owned: caller frees *out with disc_close. */
int disc_open_src(disc_image **out, util_src *src, util_err *err);
/* The same on a file: a plain image, or any container disc_container_open reads (recognised
 * by its magic whatever the name; disc_close closes it). cache_bytes bounds the container's
 * decompressed blocks kept between reads (0: DISC_CACHE_DEFAULT). A fault of the container
 * is UTIL_EFORMAT / UTIL_ETRUNC whose message names the container offset. */
int disc_open_path(disc_image **out, const char *path, size_t cache_bytes, util_err *err);
/* disc_open_path with the default cache. */
int disc_open_file(disc_image **out, const char *path, util_err *err);
/* The same on bytes in memory (borrowed: p must outlive the disc). */
int disc_open_mem(disc_image **out, const uint8_t *p, size_t len, util_err *err);

/* 1 when dir holds sys/boot.bin (a regular file) and a folder files/, as Dolphin's "Extract
 * Entire Disc" leaves them; 0 otherwise. */
int disc_is_extracted(const char *dir);
/* Open an extracted disc: the header from sys/boot.bin, the files from a walk of files/
 * by util_walk_classify's rule (regular files, symbolic links to regular files; links to
 * folders are not entered; at most DISC_MAX_DEPTH deep), sorted by path, each in bounds with
 * its size. A folder below files/ that cannot be read is left out and listed in
 * d->unreadable; files/ itself unreadable is UTIL_EIO. owned: disc_close. */
int disc_open_extracted(disc_image **out, const char *dir, util_err *err);

void disc_close(disc_image *d);

/* The file at path in the disc, as disc_fst_find. */
const disc_file *disc_find(const disc_image *d, const char *path);

/* A byte source over file f of d (an image: a range of d->src; extracted: the file itself).
 * Sources of one disc may be read from several threads at once (pread, no shared state).
 * owned: caller frees with util_src_close, before disc_close. UTIL_EFORMAT at the file's
 * offset when it runs past the end of the image; UTIL_EIO from opening a file. */
int disc_file_open(util_src **out, const disc_image *d, const disc_file *f, util_err *err);

/* ---- recognising containers -------------------------------------------------------- */

/* What the file is, from its first head_len bytes (DISC_SNIFF_SIZE are enough; fewer only
 * recognise what they hold) and its size (a GCM needs at least the header). */
disc_kind disc_sniff(const uint8_t *head, size_t head_len, uint64_t file_size);
/* disc_sniff on the first DISC_SNIFF_SIZE bytes of src (fewer when it is smaller).
 * UTIL_EIO from the source. */
int disc_sniff_src(disc_kind *out, const util_src *src, util_err *err);
/* "GameCube disc image", "RVZ", "WIA", "GCZ", "CISO", "WBFS", "NKit", "Wii disc",
 * "unknown". */
const char *disc_kind_name(disc_kind k);
/* 1 for what ancsdb refuses: WBFS, NKit images, Wii discs. */
int disc_kind_refused(disc_kind k);
/* 1 for a container read in place: RVZ, WIA, GCZ, CISO. */
int disc_kind_container(disc_kind k);
/* Why a refused kind is not read (what it is, and that ancsdb reads GameCube discs), one
 * sentence without a trailing period; NULL for a kind that is read. */
const char *disc_kind_refusal(disc_kind k);

/* ---- containers (docs/formats.md §13) ----------------------------------------------------
 * The disc image held in file: a source of the disc's bytes at disc offsets. A plain image
 * (or a file of no known kind, left for disc_parse_header to judge) is file itself; RVZ, WIA,
 * GCZ and CISO are decoded on demand (blocks decompressed by the thread that reads, at most
 * cache_bytes of them kept but always the last two, of info->cache_unit bytes each; 0:
 * DISC_CACHE_DEFAULT), their tables checked against the file's
 * size before anything is allocated. On success *out owns file (closing *out closes it); on
 * failure the caller still does. UTIL_EFORMAT naming a refused kind (disc_kind_refusal) or
 * the container offset of a bad header or table; UTIL_ETRUNC when the tables or blocks run
 * past the end of the file; UTIL_ENOMEM; UTIL_EIO from the file. Reads of *out are safe from
 * several threads; a corrupt block, a hash that does not match or a truncated file is
 * UTIL_EFORMAT whose message names the container offset and the disc offset, and whose
 * util_err offset is the disc offset. info may be NULL. */
int disc_container_open(util_src **out, util_src *file, size_t cache_bytes,
                        disc_container_info *info, util_err *err);
/* Where the container behind src (a source disc_container_open made) stores the disc's bytes
 * [off, off + len): the file range from the first stored unit they touch to the end of the
 * last, in *file_off and *file_len (0 when they are all stored as nothing), for a reader that
 * has the file's pages read ahead. 0; -1 when src is not a container's. */
int disc_container_span(const util_src *src, uint64_t off, uint64_t len, uint64_t *file_off,
                        uint64_t *file_len);

/* ---- junk (docs/formats.md §13.2) ----------------------------------------------------
 * The bytes Nintendo's mastering filled a GameCube disc's gaps with: a lagged Fibonacci
 * generator seeded from the game ID's first 4 bytes, the disc number and the 32 KiB block of
 * the disc offset, restarted at each 0x8000 boundary. Fill dst with the len junk bytes a disc
 * of that game and disc number carries at disc_offset onwards. */
void disc_junk_fill(uint8_t *dst, uint64_t disc_offset, size_t len, const char game_id[4],
                    uint8_t disc_number);

#endif
