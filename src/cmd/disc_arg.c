/* disc_arg.c — IMAGE:PATH on the command line (see disc_arg.h). */
#include "disc_arg.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

int cli_disc_open(disc_image **out, const char *path, util_err *err)
{
    struct stat st;
    *out = NULL;
    if (stat(path, &st) != 0)
        return util_fail(err, UTIL_EIO, UINT64_MAX, "%s: no such file or folder", path);
    if (S_ISDIR(st.st_mode)) {
        if (!disc_is_extracted(path))
            return util_fail(err, UTIL_EIO, UINT64_MAX,
                             "%s: a folder without sys/boot.bin and files/ (not an extracted "
                             "disc)",
                             path);
        return disc_open_extracted(out, path, err);
    }
    return disc_open_path(out, path, 0, err);
}

size_t cli_disc_split(const char *arg)
{
    struct stat st;
    if (stat(arg, &st) == 0)
        return 0; /* the whole argument names a file */
    /* the longest prefix before a ':' that exists: IMAGE may itself hold ':' */
    for (size_t n = strlen(arg); n > 0; n--) {
        if (arg[n - 1] != ':' || n == 1)
            continue;
        char *img = malloc(n);
        if (!img)
            return 0;
        memcpy(img, arg, n - 1);
        img[n - 1] = 0;
        int found = stat(img, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
        free(img);
        if (found)
            return n - 1;
    }
    return 0;
}

int cli_path_missing(const char *arg)
{
    struct stat st;
    return stat(arg, &st) != 0 && cli_disc_split(arg) == 0;
}

void cli_pak_close(cli_pak *c)
{
    pak_close(c->pak);
    util_src_close(c->src);
    disc_close(c->disc);
    memset(c, 0, sizeof *c);
}

int cli_pak_open(cli_pak *out, const char *arg, util_err *err)
{
    memset(out, 0, sizeof *out);
    size_t n = cli_disc_split(arg);
    if (n == 0)
        return pak_open(&out->pak, arg, err);
    char *img = malloc(n + 1);
    if (!img)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    memcpy(img, arg, n);
    img[n] = 0;
    const char *path = arg + n + 1;
    int rc = cli_disc_open(&out->disc, img, err);
    if (rc == 0) {
        const disc_file *f = disc_find(out->disc, path);
        if (!f && !strncasecmp(path, "files/", 6)) /* the extracted layout's name for it */
            f = disc_find(out->disc, path + 6);
        if (!f) {
            util_fail(err, UTIL_EIO, UINT64_MAX,
                      "no such file on the disc ('ancsdb disc list %s' lists them)", img);
            rc = CLI_PAK_NOT_ON_DISC;
        } else if ((rc = disc_file_open(&out->src, out->disc, f, err)) == 0)
            rc = pak_open_src(&out->pak, out->src, err);
    }
    free(img);
    if (rc)
        cli_pak_close(out);
    return rc;
}
