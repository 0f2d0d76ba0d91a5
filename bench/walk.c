/* walk.c — call fn on every *.pak (any case) under the given paths, in directory order. */
#include "walk.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

void bench_walk(const char *path, void (*fn)(const char *path))
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISREG(st.st_mode)) {
        size_t n = strlen(path);
        if (n > 4 && !strcasecmp(path + n - 4, ".pak"))
            fn(path);
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
        bench_walk(child, fn);
    }
    closedir(d);
}
