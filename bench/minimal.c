/* minimal.c — benchmark (b): the least work any ingest must do. Open each PAK, parse its
 * tables, and inflate only its ANCS and EVNT entries. Prints what it touched. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pak.h"
#include "walk.h"

static uint64_t paks, entries, inflated, inflated_bytes;

static void do_pak(const char *path)
{
    pak_file *p = NULL;
    util_err e;
    util_err_clear(&e);
    if (pak_open(&p, path, &e) != 0) {
        fprintf(stderr, "%s: %s\n", path, e.msg);
        return;
    }
    paks++;
    entries += p->entry_count;
    for (uint32_t i = 0; i < p->entry_count; i++) {
        uint32_t t = p->entries[i].type;
        if (t != UTIL_FCC_ANCS && t != UTIL_FCC_EVNT)
            continue;
        uint8_t *out = NULL;
        size_t len = 0;
        if (pak_inflate(&out, &len, p, i, PAK_MAX_INFLATE, &e) == 0) {
            inflated++;
            inflated_bytes += len;
        }
        free(out);
    }
    pak_close(p);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        bench_walk(argv[i], do_pak);
    printf("paks %" PRIu64 ", entries %" PRIu64 ", ANCS/EVNT inflated %" PRIu64 " (%" PRIu64
           " bytes)\n",
           paks, entries, inflated, inflated_bytes);
    return 0;
}
