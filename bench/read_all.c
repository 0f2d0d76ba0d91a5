/* read_all.c — benchmark (a): read every byte of every file named on the command line (or
 * every *.pak under the folders named) once, with read(2) into a 1 MiB buffer, and print the
 * byte count and a checksum so the work cannot be skipped. */
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static uint8_t buf[1 << 20];
static uint64_t total, sum;

static void read_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        perror(path);
        return;
    }
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        total += (uint64_t)n;
        for (ssize_t i = 0; i < n; i += 64)
            sum += buf[i];
    }
    close(fd);
}

static void walk(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISREG(st.st_mode)) {
        size_t n = strlen(path);
        if (n > 4 && !strcasecmp(path + n - 4, ".pak"))
            read_file(path);
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
    printf("read %" PRIu64 " bytes (checksum %" PRIu64 ")\n", total, sum);
    return 0;
}
