/* minimal.c — benchmark (b): the least work any ingest must do. Map each PAK, parse its
 * tables, and inflate only its ANCS and EVNT entries. Prints what it touched. */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "pak.h"

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
        if (t != 0x414E4353u /* ANCS */ && t != 0x45564E54u /* EVNT */)
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

static void walk(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISREG(st.st_mode)) {
        size_t n = strlen(path);
        if (n > 4 && !strcasecmp(path + n - 4, ".pak"))
            do_pak(path);
        return;
    }
    if (!S_ISDIR(st.st_mode))
        return;
    DIR *d = opendir(path);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char child[4096];
        snprintf(child, sizeof child, "%s/%s", path, de->d_name);
        walk(child);
    }
    closedir(d);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        walk(argv[i]);
    printf("paks %" PRIu64 ", entries %" PRIu64 ", ANCS/EVNT inflated %" PRIu64 " (%" PRIu64
           " bytes)\n",
           paks, entries, inflated, inflated_bytes);
    return 0;
}
