/* read_all.c — benchmark (a): read every byte of every file named on the command line (any
 * name: a PAK or a disc image) or of every *.pak under the folders named, once, with read(2) into a
 * 1 MiB buffer, and print the byte count and a checksum so the work cannot be skipped. */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "walk.h"

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

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISREG(st.st_mode))
            read_file(argv[i]);
        else
            bench_walk(argv[i], read_file);
    }
    printf("read %" PRIu64 " bytes (checksum %" PRIu64 ")\n", total, sum);
    return 0;
}
