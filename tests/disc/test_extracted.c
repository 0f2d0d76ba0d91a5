/* test_disc_extracted.c — Dolphin's extracted layout (sys/boot.bin beside files/, docs/formats.md
 * §10) in hand-made folders: recognised or not, the header from boot.bin, the files found
 * under files/ (nested, empty, links to files followed, links to folders and dangling links
 * skipped), sorted by path, read back; a bad boot.bin and folders nested too deep fail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disc.h"
#include "testutil.h"

static void put32(uint8_t *q, uint32_t v)
{
    q[0] = (uint8_t)(v >> 24);
    q[1] = (uint8_t)(v >> 16);
    q[2] = (uint8_t)(v >> 8);
    q[3] = (uint8_t)v;
}

static void boot_bin(uint8_t h[0x440], const char *code, uint8_t rev, const char *title)
{
    memset(h, 0, 0x440);
    memcpy(h, code, 6);
    h[7] = rev;
    put32(h + 0x1C, 0xC2339F3D);
    memcpy(h + 0x20, title, strlen(title));
    put32(h + 0x424, 0x7FFFFFF0); /* an extracted disc's FST fields are not used */
    put32(h + 0x428, 0x7FFFFFF0);
}

static char *path_of(const char *root, const char *rel)
{
    size_t n = strlen(root) + strlen(rel) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", root, rel);
    return p;
}

static void make_dir(const char *root, const char *rel)
{
    char *p = path_of(root, rel);
    assert_int_equal(mkdir(p, 0777), 0);
    free(p);
}

static void make_file(const char *root, const char *rel, const void *data, size_t len)
{
    char *p = path_of(root, rel);
    assert_int_equal(tu_write_file(p, len ? data : "", len), 0);
    free(p);
}

static void make_link(const char *root, const char *target, const char *rel)
{
    char *p = path_of(root, rel);
    assert_int_equal(symlink(target, p), 0);
    free(p);
}

static void remove_tree(char *root)
{
    assert_int_equal(tu_remove_tree(root), 0);
    free(root);
}

static void expect_bytes(const disc_image *d, const char *path, const char *want)
{
    const disc_file *f = disc_find(d, path);
    assert_non_null(f);
    assert_int_equal(f->length, strlen(want));
    assert_true(f->in_bounds);
    util_src *s = NULL;
    assert_int_equal(disc_file_open(&s, d, f, NULL), 0);
    char buf[64] = {0};
    assert_int_equal(util_src_read(s, buf, 0, strlen(want), NULL), 0);
    assert_string_equal(buf, want);
    util_src_close(s);
}

static void test_layout(void **state)
{
    (void)state;
    char *root = tu_tempdir();
    uint8_t h[0x440];
    boot_bin(h, "G2MJ01", 0, "Metroid Prime 2 Dark Echoes");
    assert_false(disc_is_extracted(root));
    make_dir(root, "sys");
    make_file(root, "sys/boot.bin", h, sizeof h);
    assert_false(disc_is_extracted(root)); /* no files/ yet */
    make_file(root, "files", "x", 1);
    assert_false(disc_is_extracted(root)); /* files is not a folder */
    char *p = path_of(root, "files");
    assert_int_equal(unlink(p), 0);
    free(p);
    make_dir(root, "files");
    assert_true(disc_is_extracted(root));

    make_dir(root, "files/Audio");
    make_dir(root, "files/Audio/Deep");
    make_file(root, "files/Metroid1.pak", "metroid", 7);
    make_file(root, "files/Audio/a.dsp", "dsp", 3);
    make_file(root, "files/Audio/Deep/empty", "", 0);
    make_link(root, "../Metroid1.pak", "files/Audio/link.pak"); /* followed */
    make_link(root, "..", "files/Audio/up");                    /* a folder: skipped */
    make_link(root, "nowhere", "files/dangling");               /* skipped */

    disc_image *d = NULL;
    util_err err;
    util_err_clear(&err);
    if (disc_open_extracted(&d, root, &err) != 0)
        fail_msg("%s", err.msg);
    assert_string_equal(d->header.label, "G2MJ01_00");
    assert_string_equal(d->header.region, "NTSC-J");
    assert_string_equal(d->header.title, "Metroid Prime 2 Dark Echoes");
    assert_string_equal(d->dir, root);
    assert_null(d->src);
    assert_int_equal(d->fst.file_count, 4);
    static const char *sorted[] = {"Audio/Deep/empty", "Audio/a.dsp", "Audio/link.pak",
                                   "Metroid1.pak"};
    for (uint32_t i = 0; i < 4; i++) {
        assert_string_equal(d->fst.files[i].path, sorted[i]);
        assert_int_equal(d->fst.files[i].index, i);
    }
    assert_string_equal(d->fst.files[1].name, "a.dsp");
    expect_bytes(d, "metroid1.PAK", "metroid");
    expect_bytes(d, "Audio/a.dsp", "dsp");
    expect_bytes(d, "Audio/Deep/empty", "");
    expect_bytes(d, "Audio/link.pak", "metroid");
    assert_null(disc_find(d, "dangling"));
    disc_close(d);
    remove_tree(root);
}

static void test_bad_boot_bin(void **state)
{
    (void)state;
    char *root = tu_tempdir();
    make_dir(root, "sys");
    make_dir(root, "files");
    uint8_t h[0x440];
    boot_bin(h, "GM8E01", 0, "t");
    disc_image *d = NULL;
    util_err err;

    make_file(root, "sys/boot.bin", h, 0x100); /* short */
    util_err_clear(&err);
    assert_int_equal(disc_open_extracted(&d, root, &err), UTIL_ETRUNC);
    assert_null(d);
    assert_int_equal(err.offset, 0x100);

    h[0x1C] = 0; /* no magic */
    make_file(root, "sys/boot.bin", h, sizeof h);
    util_err_clear(&err);
    assert_int_equal(disc_open_extracted(&d, root, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, 0x1C);

    memcpy(h, "WBFS", 4);
    make_file(root, "sys/boot.bin", h, sizeof h);
    util_err_clear(&err);
    assert_int_equal(disc_open_extracted(&d, root, &err), UTIL_EFORMAT);
    assert_non_null(strstr(err.msg, "WBFS"));

    char *missing = path_of(root, "nothing");
    util_err_clear(&err);
    assert_int_equal(disc_open_extracted(&d, missing, &err), UTIL_EIO);
    free(missing);
    remove_tree(root);
}

static void test_too_deep(void **state)
{
    (void)state;
    char *root = tu_tempdir();
    uint8_t h[0x440];
    boot_bin(h, "GM8E01", 1, "t");
    make_dir(root, "sys");
    make_file(root, "sys/boot.bin", h, sizeof h);
    char rel[4096] = "files";
    make_dir(root, rel);
    for (unsigned i = 0; i <= DISC_MAX_DEPTH + 1; i++) {
        strcat(rel, "/d");
        make_dir(root, rel);
    }
    disc_image *d = NULL;
    util_err err;
    util_err_clear(&err);
    assert_int_equal(disc_open_extracted(&d, root, &err), UTIL_EFORMAT);
    assert_null(d);
    remove_tree(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_bad_boot_bin),
        cmocka_unit_test(test_too_deep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
