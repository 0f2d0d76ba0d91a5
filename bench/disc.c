/* disc.c — bench_disc IMAGE DIR: a GameCube disc image (game code GM8E01, docs/formats.md
 * §10) holding every regular file under DIR at the same paths, written by the fixture
 * builder; bench/containers.sh (BENCH_LARGE=1) puts bench_bigpak's PAKs of large entries
 * in one, for dolphin-tool to convert. Not a tool for game files. */
#include <stdio.h>

#include "fixture.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: bench_disc IMAGE DIR\n");
        return 2;
    }
    fixture_disc_opts o;
    fixture_disc_opts_init(&o, "GM8E01", 0, "bench_disc");
    util_err e;
    util_err_clear(&e);
    if (fixture_disc_write_dir(argv[1], &o, argv[2], &e) != 0) {
        fprintf(stderr, "bench_disc: %s: %s\n", argv[1], e.msg);
        return 1;
    }
    return 0;
}
