/* test_src.c — byte sources (file, memory, range), the whole-file reader and the growable
 * array: reads inside and past the end, a file that shrinks after it was opened, nested
 * range offsets, and FourCC helpers. Expected values are the hand-built bytes themselves. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "util.h"

/* 256 bytes 0, 1, ..., 255 in a new file under a new temp dir; *dir_out freed by caller. */
static char *make_file(char **dir_out)
{
    uint8_t b[256];
    for (int i = 0; i < 256; i++)
        b[i] = (uint8_t)i;
    char *dir = tu_tempdir();
    assert_non_null(dir);
    char *path = malloc(strlen(dir) + 16);
    assert_non_null(path);
    sprintf(path, "%s/bytes.bin", dir);
    assert_int_equal(tu_write_file(path, b, sizeof b), 0);
    *dir_out = dir;
    return path;
}

static void remove_file(char *path, char *dir)
{
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
}

static void test_file_reads(void **state)
{
    (void)state;
    char *dir, *path = make_file(&dir);
    util_src *s;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(util_src_open_file(&s, path, &e), 0);
    assert_int_equal(util_src_size(s), 256);
    assert_int_equal(util_src_base(s), 0);
    uint8_t got[16];
    assert_int_equal(util_src_read(s, got, 100, 16, &e), 0);
    for (int i = 0; i < 16; i++)
        assert_int_equal(got[i], 100 + i);
    assert_int_equal(util_src_read(s, got, 250, 6, &e), 0); /* up to the last byte */
    assert_int_equal(got[5], 255);
    assert_int_equal(util_src_read(s, got, 256, 0, &e), 0); /* empty read at the end */
    /* past the end: nothing read, the offset named */
    assert_int_equal(util_src_read(s, got, 250, 7, &e), UTIL_EIO);
    assert_int_equal(e.code, UTIL_EIO);
    assert_int_equal(e.offset, 250);
    assert_int_equal(util_src_read(s, got, 257, 0, &e), UTIL_EIO);
    assert_int_equal(util_src_read(s, got, UINT64_MAX, 2, &e), UTIL_EIO);
    uint8_t *all;
    assert_int_equal(util_src_read_alloc(s, &all, 0, 256, &e), 0);
    for (int i = 0; i < 256; i++)
        assert_int_equal(all[i], i);
    free(all);
    util_src_close(s);
    remove_file(path, dir);
}

static void test_file_shrinks_after_open(void **state)
{
    (void)state;
    char *dir, *path = make_file(&dir);
    util_src *s;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(util_src_open_file(&s, path, &e), 0);
    assert_int_equal(truncate(path, 100), 0);
    uint8_t got[64];
    /* inside what is left: fine */
    assert_int_equal(util_src_read(s, got, 36, 64, &e), 0);
    assert_int_equal(got[63], 99);
    /* across the new end: an I/O error at the first missing byte, not a crash */
    assert_int_equal(util_src_read(s, got, 80, 64, &e), UTIL_EIO);
    assert_int_equal(e.offset, 100);
    assert_non_null(strstr(e.msg, "0x64"));
    /* wholly past the new end */
    util_err_clear(&e);
    assert_int_equal(util_src_read(s, got, 192, 64, &e), UTIL_EIO);
    assert_int_equal(e.offset, 192);
    /* a range over the file reports offsets in the range */
    util_src *r;
    assert_int_equal(util_src_open_range(&r, s, 64, 128, &e), 0);
    assert_int_equal(util_src_base(r), 64);
    assert_int_equal(util_src_read(r, got, 0, 64, &e), UTIL_EIO);
    assert_int_equal(e.offset, 36); /* file offset 100 = range offset 36 */
    util_src_close(r);
    util_src_close(s);
    remove_file(path, dir);
}

static void test_memory_and_ranges(void **state)
{
    (void)state;
    uint8_t b[64];
    for (int i = 0; i < 64; i++)
        b[i] = (uint8_t)(0x80 + i);
    util_src *m, *r, *rr;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(util_src_open_mem(&m, b, sizeof b, &e), 0);
    assert_int_equal(util_src_size(m), 64);
    uint8_t got[8];
    assert_int_equal(util_src_read(m, got, 60, 4, &e), 0);
    assert_int_equal(got[3], 0x80 + 63);
    assert_int_equal(util_src_read(m, got, 61, 4, &e), UTIL_EIO);
    assert_int_equal(e.offset, 61);
    /* range [16, 48) and inside it [8, 24) = [24, 40) of memory */
    assert_int_equal(util_src_open_range(&r, m, 16, 32, &e), 0);
    assert_int_equal(util_src_open_range(&rr, r, 8, 16, &e), 0);
    assert_int_equal(util_src_size(rr), 16);
    assert_int_equal(util_src_base(rr), 24);
    assert_int_equal(util_src_read(rr, got, 0, 8, &e), 0);
    assert_int_equal(got[0], 0x80 + 24);
    assert_int_equal(util_src_read(rr, got, 12, 8, &e), UTIL_EIO); /* past the range's end */
    assert_int_equal(e.offset, 12);
    assert_int_equal(util_src_read(r, got, 28, 4, &e), 0);
    assert_int_equal(got[0], 0x80 + 44);
    /* a range must lie inside its parent */
    util_src *bad = NULL;
    assert_int_equal(util_src_open_range(&bad, m, 60, 5, &e), UTIL_EIO);
    assert_int_equal(util_src_open_range(&bad, m, 65, 0, &e), UTIL_EIO);
    assert_int_equal(util_src_open_range(&bad, m, 1, UINT64_MAX, &e), UTIL_EIO);
    assert_null(bad);
    util_src_close(rr);
    util_src_close(r);
    util_src_close(m);
}

static void test_read_file(void **state)
{
    (void)state;
    char *dir, *path = make_file(&dir);
    uint8_t *buf;
    size_t n;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(util_read_file(path, &buf, &n, 0, &e), 0);
    assert_int_equal(n, 256);
    assert_int_equal(buf[255], 255);
    assert_int_equal(buf[256], 0); /* terminator after the bytes */
    free(buf);
    assert_int_equal(util_read_file(path, &buf, &n, 255, &e), UTIL_EFORMAT);
    assert_null(buf);
    assert_int_equal(util_read_file(path, &buf, &n, 256, &e), 0);
    free(buf);
    /* a folder and a missing file are I/O errors naming the path */
    assert_int_equal(util_read_file(dir, &buf, &n, 0, &e), UTIL_EIO);
    assert_non_null(strstr(e.msg, dir));
    char missing[4096];
    snprintf(missing, sizeof missing, "%s/none", dir);
    assert_int_equal(util_read_file(missing, &buf, &n, 0, &e), UTIL_EIO);
    assert_non_null(strstr(e.msg, missing));
    /* an empty file is 0 bytes and a terminator */
    assert_int_equal(truncate(path, 0), 0);
    assert_int_equal(util_read_file(path, &buf, &n, 0, &e), 0);
    assert_int_equal(n, 0);
    assert_int_equal(buf[0], 0);
    free(buf);
    remove_file(path, dir);
}

static void test_vec(void **state)
{
    (void)state;
    UTIL_VEC(uint32_t) v = {0};
    util_err e;
    util_err_clear(&e);
    for (uint32_t i = 0; i < 1000; i++)
        assert_int_equal(util_vec_push(&v, i * 3, &e), 0);
    assert_int_equal(v.len, 1000);
    assert_true(v.cap >= 1000);
    for (uint32_t i = 0; i < 1000; i++)
        assert_int_equal(v.items[i], i * 3);
    assert_int_equal(util_vec_reserve(&v, 5000, &e), 0);
    assert_true(v.cap >= 6000);
    assert_int_equal(v.len, 1000);
    /* a size that overflows is refused, and the array is left as it was */
    assert_int_equal(util_vec_reserve(&v, SIZE_MAX / 2, &e), UTIL_ENOMEM);
    assert_int_equal(e.code, UTIL_ENOMEM);
    assert_int_equal(v.len, 1000);
    assert_int_equal(v.items[999], 2997);
    util_vec_free(&v);
    assert_null(v.items);
    assert_int_equal(v.len, 0);
    assert_int_equal(v.cap, 0);
    UTIL_VEC(struct { char c[100]; }) big = {0};
    assert_int_equal(util_vec_reserve(&big, SIZE_MAX / 50, &e), UTIL_ENOMEM);
    assert_null(big.items);
}

static int try_inner(int rc, int *reached)
{
    TRY(rc);
    *reached = 1;
    return 7;
}

static void test_try_and_fourcc(void **state)
{
    (void)state;
    int reached = 0;
    assert_int_equal(try_inner(UTIL_EFORMAT, &reached), UTIL_EFORMAT);
    assert_int_equal(reached, 0);
    assert_int_equal(try_inner(0, &reached), 7);
    assert_int_equal(reached, 1);
    assert_int_equal(UTIL_FCC_ANCS, 0x414E4353u);
    assert_int_equal(UTIL_FCC_EVNT, 0x45564E54u);
    assert_int_equal(UTIL_FOURCC('F', 'S', 'M', '2'), 0x46534D32u);
    char s[5];
    util_fourcc_str(UTIL_FCC_CSPP, s);
    assert_string_equal(s, "CSPP");
    util_fourcc_str(0x41000A7Fu, s); /* NUL, LF and DEL are not printable */
    assert_string_equal(s, "A???");
}

/* A callback source: reads are bounds-checked before the callback sees them, its faults come
 * back as they are, a range over it shifts offsets, and close runs once with ctx. */
typedef struct cb_state {
    int reads, closes;
} cb_state;

static int cb_read(void *ctx, void *dst, uint64_t off, size_t len, util_err *e)
{
    cb_state *st = ctx;
    st->reads++;
    if (off <= 900 && off + len > 900)
        return util_fail(e, UTIL_EFORMAT, 900, "byte 900 is broken");
    uint8_t *p = dst;
    for (size_t i = 0; i < len; i++)
        p[i] = (uint8_t)((off + i) * 7);
    return 0;
}

static void cb_close(void *ctx)
{
    ((cb_state *)ctx)->closes++;
}

static void test_custom(void **state)
{
    (void)state;
    cb_state st = {0, 0};
    util_src *s = NULL, *r = NULL;
    util_err e;
    assert_int_equal(util_src_open_custom(&s, 1000, cb_read, &st, cb_close, NULL), 0);
    assert_int_equal(util_src_size(s), 1000);
    uint8_t b[16];
    assert_int_equal(util_src_read(s, b, 10, 4, NULL), 0);
    assert_int_equal(b[0], (uint8_t)70);
    assert_int_equal(b[3], (uint8_t)91);
    assert_int_equal(st.reads, 1);
    util_err_clear(&e);
    assert_int_equal(util_src_read(s, b, 995, 16, &e), UTIL_EIO); /* past the end */
    assert_int_equal(st.reads, 1);                                /* never asked */
    util_err_clear(&e);
    assert_int_equal(util_src_read(s, b, 895, 10, &e), UTIL_EFORMAT);
    assert_int_equal(e.offset, 900);
    assert_string_equal(e.msg, "byte 900 is broken");
    assert_int_equal(util_src_open_range(&r, s, 800, 200, NULL), 0);
    util_err_clear(&e);
    assert_int_equal(util_src_read(r, b, 90, 16, &e), UTIL_EFORMAT);
    assert_int_equal(e.offset, 100); /* named in the range */
    assert_int_equal(util_src_read(r, b, 0, 2, NULL), 0);
    assert_int_equal(b[1], (uint8_t)(801 * 7));
    assert_int_equal(util_src_base(r), 800);
    util_src_close(r);
    assert_int_equal(st.closes, 0);
    util_src_close(s);
    assert_int_equal(st.closes, 1);
    /* no close callback: nothing to call */
    assert_int_equal(util_src_open_custom(&s, 0, cb_read, &st, NULL, NULL), 0);
    assert_int_equal(util_src_read(s, b, 0, 0, NULL), 0);
    util_src_close(s);
    assert_int_equal(st.closes, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_reads),
        cmocka_unit_test(test_custom),
        cmocka_unit_test(test_file_shrinks_after_open),
        cmocka_unit_test(test_memory_and_ranges),
        cmocka_unit_test(test_read_file),
        cmocka_unit_test(test_vec),
        cmocka_unit_test(test_try_and_fourcc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
