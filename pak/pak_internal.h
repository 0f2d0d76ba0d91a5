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

/* A new pak_file of `size` bytes with no source, or NULL out of memory. */
pak_file *pak_new(uint64_t size);

#endif
