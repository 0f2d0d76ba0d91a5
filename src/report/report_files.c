/* report_files.c — where `ancsdb report` writes (see report.h): a private folder inside DIR,
 * files opened below it by openat without following links, and the move of the finished
 * report into DIR by rename. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

#define STAGE_PREFIX ".ancsdb-report-"
#define TRASH_PREFIX ".ancsdb-old-"

/* Remove name in folder fd and everything below it, never following a link (a link is
 * removed, not what it points to). Errors are ignored: what is left is only clutter. */
static void remove_tree_at(int fd, const char *name, int depth)
{
    if (unlinkat(fd, name, 0) == 0 || errno == ENOENT || depth > 64)
        return;
    int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0)
        return;
    DIR *d = fdopendir(sub);
    if (!d) {
        close(sub);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            remove_tree_at(dirfd(d), e->d_name, depth + 1);
    closedir(d);
    unlinkat(fd, name, AT_REMOVEDIR);
}

/* Threads removing one folder's entries at once. Removing a file can wait on the disk (a
 * filesystem that discards freed blocks waits for each), so several removals at once finish
 * many times sooner than one after the other, whatever the cores. */
#define REMOVERS 32

typedef struct remover {
    int fd;       /* the folder */
    char **names; /* its entries */
    size_t n, first, step;
} remover;

static void *remove_share(void *arg)
{
    remover *w = arg;
    for (size_t i = w->first; i < w->n; i += w->step)
        remove_tree_at(w->fd, w->names[i], 1);
    return NULL;
}

/* remove_tree_at, with the entries of a folder (and, the same way, of its subfolders) removed
 * by REMOVERS threads at once when it holds many. */
static void remove_tree_fast(int fd, const char *name, int depth)
{
    if (unlinkat(fd, name, 0) == 0 || errno == ENOENT || depth > 64)
        return;
    int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0)
        return;
    DIR *d = fdopendir(sub);
    if (!d) {
        close(sub);
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int oom = 0;
    struct dirent *e;
    while (!oom && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 256;
            char **nn = realloc(names, nc * sizeof *nn);
            if (!nn) {
                oom = 1;
                break;
            }
            names = nn;
            cap = nc;
        }
        if (!(names[n] = strdup(e->d_name)))
            oom = 1;
        else
            n++;
    }
    int fdd = dirfd(d);
    if (oom || n < 4 * REMOVERS) {
        for (size_t i = 0; i < n; i++)
            remove_tree_fast(fdd, names[i], depth + 1);
    } else {
        pthread_t t[REMOVERS];
        remover w[REMOVERS];
        int started[REMOVERS] = {0};
        for (size_t k = 0; k < REMOVERS; k++) {
            w[k] = (remover){fdd, names, n, k, REMOVERS};
            started[k] = pthread_create(&t[k], NULL, remove_share, &w[k]) == 0;
            if (!started[k])
                remove_share(&w[k]);
        }
        for (size_t k = 0; k < REMOVERS; k++)
            if (started[k])
                pthread_join(t[k], NULL);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    closedir(d);
    if (oom) /* what is left, one by one */
        remove_tree_at(fd, name, depth);
    else
        unlinkat(fd, name, AT_REMOVEDIR);
}

/* 1 when DIR holds an earlier report: its marker, or (a report made before the marker) an
 * index.html that says so, each a regular file and not a link. */
static int is_report(int dirfd)
{
    struct stat sb;
    if (fstatat(dirfd, REP_MARKER, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode))
        return 1;
    int fd = openat(dirfd, "index.html", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char buf[2048];
    ssize_t n = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? read(fd, buf, sizeof buf - 1) : -1;
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = 0;
    return strstr(buf, "ancsdb report</title>") != NULL ||
           strstr(buf, "— ancsdb report</title>") != NULL;
}

/* The entries of DIR other than . and .. and this tool's own private folders: 0 when none. */
static int has_foreign_entries(int dirfd, char *first, size_t size)
{
    int fd = dup(dirfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    int found = 0;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
            !strncmp(e->d_name, STAGE_PREFIX, strlen(STAGE_PREFIX)) ||
            !strncmp(e->d_name, TRASH_PREFIX, strlen(TRASH_PREFIX)))
            continue;
        snprintf(first, size, "%s", e->d_name);
        found = 1;
    }
    closedir(d);
    return found;
}

int rep_stage_begin(report *r, const char *dir)
{
    r->dir = dir;
    r->dirfd = r->stagefd = r->subfd = r->oldsubfd = -1;
    r->earlier = 0;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot create %s: %s", dir,
                         strerror(errno));
    r->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (r->dirfd < 0)
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot open the folder %s: %s", dir,
                         strerror(errno));
    char first[256];
    int foreign = has_foreign_entries(r->dirfd, first, sizeof first);
    if (foreign < 0)
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot read the folder %s: %s", dir,
                         strerror(errno));
    if (foreign && !is_report(r->dirfd))
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX,
                         "%s is not empty (it holds %s) and is not an earlier report: give a new "
                         "or empty folder",
                         dir, first);
    r->earlier = foreign;
    size_t n = strlen(dir) + sizeof "/" STAGE_PREFIX "XXXXXX";
    r->stage = malloc(n);
    if (!r->stage)
        return util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    snprintf(r->stage, n, "%s/" STAGE_PREFIX "XXXXXX", dir);
    if (!mkdtemp(r->stage)) {
        free(r->stage);
        r->stage = NULL;
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot create a folder in %s: %s", dir,
                         strerror(errno));
    }
    r->stagefd = open(r->stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (r->stagefd < 0)
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot open %s: %s", r->stage,
                         strerror(errno));
    int fd = rep_openat(r, REP_MARKER);
    if (fd < 0)
        return -1;
    static const char note[] = "This folder is a report written by `ancsdb report`; the next "
                               "report into it replaces it.\n";
    ssize_t w = write(fd, note, sizeof note - 1);
    if (close(fd) != 0 || w != (ssize_t)(sizeof note - 1))
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "write error in %s: %s", r->stage,
                         strerror(errno ? errno : EIO));
    return 0;
}

/* The folder rel is in, below the private folder (made when missing, no link followed), and
 * where rel's last part begins (*base). The private folder itself, or r->subfd (kept open for
 * the next page: pages of a kind share a folder, so most pages cost no folder lookup), or for
 * a deeper rel a folder the caller closes (*owned). -1 with r->err filled. */
static int stage_folder(report *r, const char *rel, size_t *base, int *owned)
{
    *owned = 0;
    char buf[1024];
    if (snprintf(buf, sizeof buf, "%s", rel) >= (int)sizeof buf)
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "%s: path too long", rel);
    const char *last = strrchr(buf, '/');
    *base = last ? (size_t)(last - buf) + 1 : 0;
    if (!last)
        return r->stagefd;
    const char *first = strchr(buf, '/');
    int one = first == last && (size_t)(first - buf) < sizeof r->subname;
    if (one && r->subfd >= 0 && (size_t)(first - buf) == strlen(r->subname) &&
        !strncmp(buf, r->subname, (size_t)(first - buf)))
        return r->subfd;
    int at = r->stagefd;
    char *p = buf, *slash;
    while ((slash = strchr(p, '/')) != NULL) {
        *slash = 0;
        int sub = -1;
        if (mkdirat(at, p, 0777) != 0 && errno != EEXIST)
            util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot create %s/%s: %s", r->dir, buf,
                      strerror(errno));
        else if ((sub = openat(at, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
            util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot open the folder %s/%s: %s", r->dir,
                      buf, strerror(errno));
        if (at != r->stagefd)
            close(at);
        if ((at = sub) < 0)
            return -1;
        *slash = '/';
        p = slash + 1;
    }
    if (one) {
        if (r->subfd >= 0)
            close(r->subfd);
        r->subfd = at;
        snprintf(r->subname, sizeof r->subname, "%.*s", (int)(first - buf), buf);
    } else {
        *owned = 1;
    }
    return at;
}

int rep_openat(report *r, const char *rel)
{
    size_t base;
    int owned;
    int at = stage_folder(r, rel, &base, &owned);
    if (at < 0)
        return -1;
    /* a new file each time: a name written twice (two asset types that name one page) must
     * not write into the file the first time linked from the earlier report */
    int fd = openat(at, rel + base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST && unlinkat(at, rel + base, 0) == 0)
        fd = openat(at, rel + base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot write %s/%s: %s", r->dir, rel,
                  strerror(errno));
    if (owned)
        close(at);
    return fd;
}

/* The earlier report's folder holding rel (DIR, or one folder below it, not a link; kept open
 * in r->oldsubfd for the next page), where rel's last part begins; -1 when there is none. */
static int earlier_folder(report *r, const char *rel, size_t *base)
{
    const char *first = strchr(rel, '/');
    if (!first) {
        *base = 0;
        return r->dirfd;
    }
    size_t n = (size_t)(first - rel);
    if (strchr(first + 1, '/') || n >= sizeof r->oldsubname)
        return -1;
    *base = n + 1;
    if (r->oldsubfd >= 0 && n == strlen(r->oldsubname) && !strncmp(rel, r->oldsubname, n))
        return r->oldsubfd;
    if (r->oldsubfd >= 0)
        close(r->oldsubfd);
    snprintf(r->oldsubname, sizeof r->oldsubname, "%.*s", (int)n, rel);
    r->oldsubfd = openat(r->dirfd, r->oldsubname, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    return r->oldsubfd;
}

size_t rep_read_at(int fd, void *buf, size_t len, uint64_t off)
{
    size_t got = 0;
    errno = 0;
    while (got < len) {
        ssize_t k = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    return got;
}

/* Whether the open file fd holds exactly buf[0..len). */
static int same_bytes(int fd, const char *buf, size_t len)
{
    char chunk[65536];
    for (size_t off = 0; off < len;) {
        size_t want = len - off < sizeof chunk ? len - off : sizeof chunk;
        if (rep_read_at(fd, chunk, want, off) != want || memcmp(chunk, buf + off, want))
            return 0;
        off += want;
    }
    return 1;
}

int rep_link_earlier(report *r, const char *rel, const char *buf, size_t len)
{
    if (!r->earlier)
        return 0;
    size_t obase;
    int old = earlier_folder(r, rel, &obase);
    if (old < 0)
        return 0;
    int fd = openat(old, rel + obase, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat sb, now;
    int linked = 0;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_nlink == 1 && sb.st_uid == geteuid() &&
        (uint64_t)sb.st_size == len && same_bytes(fd, buf, len)) {
        size_t base;
        int owned;
        int at = stage_folder(r, rel, &base, &owned);
        if (at >= 0 && linkat(old, rel + obase, at, rel + base, 0) == 0) {
            /* the name may have been swapped since it was read: keep the link only when it
             * is the file compared */
            linked = fstatat(at, rel + base, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
                     now.st_dev == sb.st_dev && now.st_ino == sb.st_ino;
            if (!linked)
                unlinkat(at, rel + base, 0);
        }
        if (at >= 0 && owned)
            close(at);
        if (at < 0) /* a folder that could not be made: the write will say so */
            util_err_clear(&r->err);
    }
    close(fd);
    return linked;
}

/* Move entry name of the private folder into DIR; an entry of that name already there (an
 * earlier report's, or anything planted) is moved into trash first when it is a folder and
 * replaced by the rename otherwise (rename replaces a link itself, never its target). */
static int move_in(report *r, const char *name, int *trashfd, char *trash)
{
    for (int tries = 0; tries < 8; tries++) {
        if (renameat(r->stagefd, name, r->dirfd, name) == 0)
            return 0;
        if (errno != EEXIST && errno != ENOTEMPTY && errno != EISDIR && errno != ENOTDIR)
            break;
        if (*trashfd < 0) {
            if (!mkdtemp(trash))
                break;
            *trashfd = open(trash, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (*trashfd < 0)
                break;
        }
        char old[300];
        snprintf(old, sizeof old, "%d-%s", tries, name);
        if (renameat(r->dirfd, name, *trashfd, old) != 0 && errno != ENOENT)
            break;
    }
    return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot move %s into %s: %s", name, r->dir,
                     strerror(errno));
}

int rep_stage_commit(report *r)
{
    int fd = dup(r->stagefd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return util_fail(&r->err, UTIL_EIO, UINT64_MAX, "cannot read %s: %s", r->stage,
                         strerror(errno));
    }
    /* the names first (renaming while reading a folder may skip entries) */
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while (!rc && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) {
                rc = util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
                break;
            }
            names = nn;
        }
        if (!(names[n] = strdup(e->d_name)))
            rc = util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        else
            n++;
    }
    closedir(d);
    size_t tn = strlen(r->dir) + sizeof "/" TRASH_PREFIX "XXXXXX";
    char *trash = malloc(tn);
    int trashfd = -1;
    if (!trash && !rc)
        rc = util_fail(&r->err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    if (trash)
        snprintf(trash, tn, "%s/" TRASH_PREFIX "XXXXXX", r->dir);
    /* the marker last but one and index.html last: a report is whole once they are in */
    for (int pass = 0; pass < 3 && !rc; pass++)
        for (size_t i = 0; i < n && !rc; i++) {
            int k = !strcmp(names[i], REP_MARKER) ? 1 : !strcmp(names[i], "index.html") ? 2 : 0;
            if (k == pass)
                rc = move_in(r, names[i], &trashfd, trash);
        }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (trashfd >= 0) {
        close(trashfd);
        const char *base = strrchr(trash, '/');
        remove_tree_fast(r->dirfd, base ? base + 1 : trash, 0);
    }
    free(trash);
    if (!rc)
        rep_stage_abort(r);
    return rc;
}

void rep_stage_abort(report *r)
{
    if (r->subfd >= 0) {
        close(r->subfd);
        r->subfd = -1;
    }
    if (r->oldsubfd >= 0) {
        close(r->oldsubfd);
        r->oldsubfd = -1;
    }
    if (r->stagefd >= 0) {
        close(r->stagefd);
        r->stagefd = -1;
    }
    if (r->stage && r->dirfd >= 0) {
        const char *base = strrchr(r->stage, '/');
        remove_tree_fast(r->dirfd, base ? base + 1 : r->stage, 0);
    }
    free(r->stage);
    r->stage = NULL;
    if (r->dirfd >= 0) {
        close(r->dirfd);
        r->dirfd = -1;
    }
}
