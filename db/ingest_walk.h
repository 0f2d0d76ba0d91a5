/* ingest_walk.h — what an ingest reads, found from the PATHs given: releases (a disc image,
 * an extracted disc, a folder, or the folder of a PAK file) and the PAKs of each (a file, or
 * a byte range of a disc image). No SQLite: the ingest turns the list into rows. */
#ifndef ANCSDB_INGEST_WALK_H
#define ANCSDB_INGEST_WALK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "disc.h"
#include "pak.h"
#include "util.h"

/* One release found. */
typedef struct iw_release {
    char *label;        /* disc: GM8E01_00; else --release LABEL or the folder's base name */
    int has_disc;       /* hdr holds a disc header */
    disc_header hdr;    /* the disc header (image or sys/boot.bin) */
    char *source;       /* absolute path of the image, folder or file it is read from */
    const char *kind;   /* "image", "extracted", "folder", "file" */
    int whole;          /* the whole release was read: its PAKs not found are gone */
    pak_game game;      /* the game its disc code names (GM8 MP1, G2M MP2), else UNKNOWN */
    disc_image *image;  /* kind "image": the open image the PAKs are ranges of; owned */
    int64_t release_id; /* set by the ingest (releases.release_id), -1 until then */
} iw_release;

/* One PAK found. */
typedef struct iw_item {
    char *path;         /* paks.path: the absolute file path, or IMAGE:DISC_PATH */
    char *file;         /* the file to open; NULL for a PAK inside an image */
    char *release_path; /* path inside its release */
    size_t rel;         /* index into iw_list.rels */
    uint64_t off, len;  /* a PAK inside an image: its bytes in the image */
} iw_item;

/* Receives every input that cannot be read: stage "pak" (load_errors.stage has three values,
 * pak, inflate and decode: a disc or container that cannot be read is a fault of reading PAKs
 * too), the path it concerns (the image, the image:disc path, the file or folder), the byte
 * offset (UINT64_MAX when none) and a one-line message. rel: the release it belongs to, or
 * SIZE_MAX. Non-zero return (a fatal SQL failure) stops the walk with that value. */
typedef int (*iw_fault_fn)(void *ctx, const char *path, size_t rel, const char *stage, uint64_t off,
                           const char *msg);

typedef struct iw_list {
    iw_release *rels;
    size_t nrels, caprels;
    iw_item *items;
    size_t nitems, capitems;
    struct iw_seen *seen; /* visited files and folders (dev, ino) */
    size_t nseen, capseen;
    const char *release_opt; /* --release LABEL, or NULL */
    size_t cache_bytes;      /* a disc container's decompressed blocks kept (0: default) */
    size_t unit_max;         /* a container whose cache_unit is larger is refused (0: any) */
    size_t memory;           /* the run's --memory, for that refusal's message */
    iw_fault_fn fault;
    void *ctx;
} iw_list;

/* Add the releases and PAKs of one PATH given on the command line: a PAK file, a disc image
 * or a disc container read in place (RVZ, WIA, GCZ, CISO; recognised by its magic whatever
 * its name), an extracted disc, or a folder searched recursively for *.pak, *.iso, *.gcm,
 * *.rvz, *.wia, *.gcz and *.ciso (any case; extracted discs inside are releases of their
 * own). WBFS, NKit images and Wii discs are refused through fault. Items of one release are in
 * path order. 0, or UTIL_ENOMEM / the fault callback's non-zero return. */
int iw_add_path(iw_list *l, const char *path, util_err *err);

/* The release for a PAK given as bytes in memory under the name `name` (db_ingest_mem): the
 * --release label or the base name of name's folder; one item. */
int iw_add_mem(iw_list *l, const char *name, size_t len, util_err *err);

void iw_free(iw_list *l);

/* The game a disc game code names: "GM8..." MP1, "G2M..." MP2, else UNKNOWN. */
pak_game iw_game_of_code(const char *game_code);

#endif
