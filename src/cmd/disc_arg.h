/* disc_arg.h — a file named on the command line that may sit inside a disc: `FILE.pak`, or
 * `IMAGE:DISC/PATH` where IMAGE is a disc image, a container (RVZ, WIA, GCZ, CISO) or a
 * folder extracted by Dolphin, and DISC/PATH the path as the database prints it (paks.path
 * after the image, paks.release_path; case-insensitive, a leading "files/" allowed). */
#ifndef ANCSDB_DISC_ARG_H
#define ANCSDB_DISC_ARG_H

#include "disc.h"
#include "pak.h"

/* A disc opened from a path: an image or container file, or an extracted folder. owned:
 * disc_close. UTIL_EIO when it is neither; the open's error otherwise. */
int cli_disc_open(disc_image **out, const char *path, util_err *err);

/* Where `arg` names a file: *image_len > 0 when it is IMAGE:PATH (IMAGE = arg[0..len),
 * an existing file or folder, and arg itself names nothing); 0 for a plain path. */
size_t cli_disc_split(const char *arg);
/* 1 when arg names nothing on the file system: not a file or folder, nor IMAGE:PATH with an
 * IMAGE that is (a PATH that does not exist is a usage error, exit 2). */
int cli_path_missing(const char *arg);

/* A PAK opened from `arg` (a file, or IMAGE:PATH). */
typedef struct cli_pak {
    pak_file *pak;
    util_src *src;    /* the PAK's bytes inside the disc; NULL for a plain file */
    disc_image *disc; /* the disc holding it, or NULL */
} cli_pak;

/* Open the PAK `arg` names. Errors: CLI_PAK_NOT_ON_DISC (err says so; the caller names arg)
 * when IMAGE holds no file PATH, UTIL_EIO when the image cannot be found, and those of the
 * disc and PAK readers. owned: cli_pak_close. */
#define CLI_PAK_NOT_ON_DISC 1
int cli_pak_open(cli_pak *out, const char *arg, util_err *err);
void cli_pak_close(cli_pak *c);

#endif
