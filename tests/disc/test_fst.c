/* test_disc_fst.c — the file system table (docs/formats.md §10) on hand-built images: nested
 * folders, zero-length files, names differing only in case, each file's bytes as a byte
 * source; and every kind of hostile FST (past the end of the image, a name offset past the
 * table, a next index going backwards or past its parent, a parent loop, too many entries),
 * a file past the end, a truncated image, every prefix of an FST; an entry whose name no path
 * can carry left out, the rest read. */
#include <stdlib.h>
#include <string.h>

#include "disc.h"
#include "testutil.h"

static void put32(uint8_t *q, uint32_t v)
{
    q[0] = (uint8_t)(v >> 24);
    q[1] = (uint8_t)(v >> 16);
    q[2] = (uint8_t)(v >> 8);
    q[3] = (uint8_t)v;
}

typedef struct ent {
    uint8_t flags;     /* 1 directory, 0 file */
    uint32_t name_off; /* 24 bits */
    uint32_t w1, w2;   /* file: offset, length; directory: parent, next */
} ent;

#define FST_AT 0x440u

/* An image: header (game GM8E01, revision 1) with the FST at 0x440: the entries, then
 * names_len bytes of names; then zeros up to image_len. Caller free()s. */
static uint8_t *make_image(size_t image_len, const ent *e, size_t n, const char *names,
                           size_t names_len)
{
    uint8_t *img = calloc(1, image_len);
    assert_non_null(img);
    memcpy(img, "GM8E01", 6);
    img[7] = 1;
    put32(img + 0x1C, 0xC2339F3D);
    memcpy(img + 0x20, "Metroid Prime", 13);
    size_t fst_size = n * 12 + names_len;
    put32(img + 0x424, FST_AT);
    put32(img + 0x428, (uint32_t)fst_size);
    put32(img + 0x42C, (uint32_t)fst_size);
    assert_true(FST_AT + fst_size <= image_len);
    for (size_t i = 0; i < n; i++) {
        uint8_t *q = img + FST_AT + i * 12;
        put32(q, (uint32_t)e[i].flags << 24 | e[i].name_off);
        put32(q + 4, e[i].w1);
        put32(q + 8, e[i].w2);
    }
    memcpy(img + FST_AT + n * 12, names, names_len);
    return img;
}

/* names: "a.pak\0Audio\0x.dsp\0Sub\0deep.bin\0empty\0z.bin\0" */
static const char nested_names[] = "a.pak\0Audio\0x.dsp\0Sub\0deep.bin\0empty\0z.bin";
#define N_A              0u
#define N_AUDIO          6u
#define N_X              12u
#define N_SUB            18u
#define N_DEEP           22u
#define N_EMPTY          31u
#define N_Z              37u
#define NESTED_IMAGE_LEN 0x1000u

/* 0 root (8 entries) | 1 a.pak @0x800 len 5 | 2 Audio/ (parent 0, next 7) | 3 Audio/x.dsp
 * @0x900 len 3 | 4 Audio/Sub/ (parent 2, next 7) | 5 Audio/Sub/deep.bin @0x980 len 4 |
 * 6 Audio/Sub/empty @0x9A0 len 0 | 7 z.bin @0xA00 len 0x600 (to the end of the image) */
static ent nested[] = {
    {1, 0, 0, 8},     {0, N_A, 0x800, 5},    {1, N_AUDIO, 0, 7},     {0, N_X, 0x900, 3},
    {1, N_SUB, 2, 7}, {0, N_DEEP, 0x980, 4}, {0, N_EMPTY, 0x9A0, 0}, {0, N_Z, 0xA00, 0x600},
};
#define NESTED_N (sizeof nested / sizeof nested[0])

static uint8_t *nested_image(const ent *e)
{
    uint8_t *img = make_image(NESTED_IMAGE_LEN, e, NESTED_N, nested_names, sizeof nested_names);
    memcpy(img + 0x800, "hello", 5);
    memcpy(img + 0x900, "dsp", 3);
    memcpy(img + 0x980, "deep", 4);
    memset(img + 0xA00, 0x5A, 0x600);
    return img;
}

static void expect_bytes(const disc_image *d, const char *path, const void *want, size_t len)
{
    const disc_file *f = disc_find(d, path);
    assert_non_null(f);
    assert_int_equal(f->length, len);
    util_src *s = NULL;
    util_err err;
    util_err_clear(&err);
    assert_int_equal(disc_file_open(&s, d, f, &err), 0);
    assert_int_equal(util_src_size(s), len);
    uint8_t *buf = malloc(len + 1);
    assert_int_equal(util_src_read(s, buf, 0, len, &err), 0);
    assert_memory_equal(buf, want, len);
    assert_int_equal(util_src_base(s), f->offset);
    free(buf);
    util_src_close(s);
}

static void test_nested(void **state)
{
    (void)state;
    uint8_t *img = nested_image(nested);
    disc_image *d = NULL;
    util_err err;
    util_err_clear(&err);
    assert_int_equal(disc_open_mem(&d, img, NESTED_IMAGE_LEN, &err), 0);
    assert_string_equal(d->header.label, "GM8E01_01");
    assert_int_equal(d->size, NESTED_IMAGE_LEN);
    assert_int_equal(d->fst.entry_count, 8);
    assert_int_equal(d->fst.dir_count, 2);
    assert_int_equal(d->fst.file_count, 5);
    assert_int_equal(d->fst.out_of_bounds, 0);
    static const char *paths[] = {"a.pak", "Audio/x.dsp", "Audio/Sub/deep.bin", "Audio/Sub/empty",
                                  "z.bin"};
    static const uint32_t index[] = {1, 3, 5, 6, 7};
    for (size_t i = 0; i < 5; i++) {
        const disc_file *f = &d->fst.files[i];
        assert_string_equal(f->path, paths[i]);
        assert_int_equal(f->index, index[i]);
        assert_int_equal(f->entry_offset, FST_AT + 12 * index[i]);
        assert_int_equal(f->offset, nested[index[i]].w1);
        assert_int_equal(f->length, nested[index[i]].w2);
        assert_true(f->in_bounds);
    }
    assert_string_equal(d->fst.files[2].name, "deep.bin");
    assert_string_equal(d->fst.files[0].name, "a.pak");
    expect_bytes(d, "a.pak", "hello", 5);
    expect_bytes(d, "audio/x.DSP", "dsp", 3);
    expect_bytes(d, "/Audio/Sub/deep.bin", "deep", 4);
    expect_bytes(d, "Audio/Sub/empty", "", 0);
    uint8_t z[0x600];
    memset(z, 0x5A, sizeof z);
    expect_bytes(d, "z.bin", z, sizeof z);
    assert_null(disc_find(d, "Audio"));
    assert_null(disc_find(d, "Audio/Sub"));
    assert_null(disc_find(d, "deep.bin"));
    assert_null(disc_find(d, "a.pa"));
    disc_close(d);
    free(img);
}

static void test_case_differing_names(void **state)
{
    (void)state;
    static const char names[] = "Metroid1.pak\0METROID1.PAK\0metroid1.pak";
    ent e[] = {{1, 0, 0, 4}, {0, 0, 0x600, 1}, {0, 13, 0x601, 1}, {0, 26, 0x602, 1}};
    uint8_t *img = make_image(0x700, e, 4, names, sizeof names);
    img[0x600] = 'a';
    img[0x601] = 'b';
    img[0x602] = 'c';
    disc_image *d = NULL;
    assert_int_equal(disc_open_mem(&d, img, 0x700, NULL), 0);
    assert_int_equal(d->fst.file_count, 3);
    /* an exact match wins; otherwise the first that differs only in case */
    expect_bytes(d, "Metroid1.pak", "a", 1);
    expect_bytes(d, "METROID1.PAK", "b", 1);
    expect_bytes(d, "metroid1.pak", "c", 1);
    expect_bytes(d, "mETROID1.pak", "a", 1);
    disc_close(d);
    free(img);
}

static void expect_open_fails(uint8_t *img, size_t len, int code, uint64_t offset)
{
    disc_image *d = NULL;
    util_err err;
    util_err_clear(&err);
    assert_int_equal(disc_open_mem(&d, img, len, &err), code);
    assert_null(d);
    assert_int_equal(err.code, code);
    assert_int_equal(err.offset, offset);
    assert_true(err.msg[0] != '\0');
}

static void test_fst_past_end(void **state)
{
    (void)state;
    uint8_t *img = nested_image(nested);
    put32(img + 0x424, NESTED_IMAGE_LEN - 16); /* 16 bytes left, FST is bigger */
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, 0x424);
    put32(img + 0x424, 0xFFFFFFF0u);
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, 0x424);
    put32(img + 0x424, FST_AT);
    put32(img + 0x428, 0);
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, 0x428);
    put32(img + 0x428, 0x7FFFFFFF); /* over the cap: refused before any allocation */
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, 0x428);
    free(img);
}

static void test_name_offset_past_table(void **state)
{
    (void)state;
    ent e[NESTED_N];
    memcpy(e, nested, sizeof e);
    e[3].name_off = sizeof nested_names; /* one past the last byte */
    uint8_t *img = nested_image(e);
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, FST_AT + 3 * 12 + 1);
    free(img);
    e[3].name_off = 0xFFFFFF;
    img = nested_image(e);
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, FST_AT + 3 * 12 + 1);
    free(img);
    /* the last name loses its terminator: it runs past the table */
    img = make_image(NESTED_IMAGE_LEN, nested, NESTED_N, nested_names, sizeof nested_names - 1);
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, FST_AT + NESTED_N * 12 + N_Z);
    free(img);
}

static void test_bad_names(void **state)
{
    (void)state;
    /* a file named "", ".", "..", "a/b": left out (listed in skipped, at its name), the file
     * beside it read */
    static const char names[] = "ok\0\0.\0..\0a/b";
    static const uint32_t bad[] = {3, 4, 6, 9}; /* "", ".", "..", "a/b" */
    static const char *const bad_name[] = {"", ".", "..", "a/b"};
    for (size_t i = 0; i < 4; i++) {
        ent e[] = {{1, 0, 0, 3}, {0, 0, 0x600, 1}, {0, bad[i], 0x601, 1}};
        uint8_t *img = make_image(0x700, e, 3, names, sizeof names);
        disc_image *d = NULL;
        assert_int_equal(disc_open_mem(&d, img, 0x700, NULL), 0);
        assert_int_equal(d->fst.file_count, 1);
        assert_string_equal(d->fst.files[0].path, "ok");
        assert_int_equal(d->fst.skipped_count, 1);
        assert_int_equal(d->fst.skipped_listed, 1);
        assert_int_equal(d->fst.skipped[0].index, 2);
        assert_int_equal(d->fst.skipped[0].entry_offset, FST_AT + 2 * 12);
        assert_int_equal(d->fst.skipped[0].name_offset, FST_AT + 3 * 12 + bad[i]);
        assert_false(d->fst.skipped[0].is_dir);
        assert_string_equal(d->fst.skipped[0].name, bad_name[i]);
        disc_close(d);
        free(img);
    }
    /* a directory named "..": left out with everything below it; the file after it read */
    {
        static const char dnames[] = "..\0in.pak\0after.pak";
        ent e[] = {{1, 0, 0, 4}, {1, 0, 0, 3}, {0, 3, 0x600, 1}, {0, 10, 0x601, 1}};
        uint8_t *img = make_image(0x700, e, 4, dnames, sizeof dnames);
        disc_image *d = NULL;
        assert_int_equal(disc_open_mem(&d, img, 0x700, NULL), 0);
        assert_int_equal(d->fst.file_count, 1);
        assert_string_equal(d->fst.files[0].path, "after.pak");
        assert_int_equal(d->fst.skipped_count, 1);
        assert_true(d->fst.skipped[0].is_dir);
        assert_int_equal(d->fst.skipped[0].name_offset, FST_AT + 4 * 12);
        disc_close(d);
        /* its next index past its parent's end: the FST is refused, at the entry's words */
        e[1].w2 = 5;
        free(img);
        img = make_image(0x700, e, 4, dnames, sizeof dnames);
        expect_open_fails(img, 0x700, UTIL_EFORMAT, FST_AT + 1 * 12 + 4);
        free(img);
    }
    /* more than DISC_FST_SKIPS_LISTED: all counted, the first listed */
    {
        enum { N = DISC_FST_SKIPS_LISTED + 6 };
        ent e[N + 2];
        e[0] = (ent){1, 0, 0, N + 2};
        e[1] = (ent){0, 0, 0x600, 1}; /* "ok" */
        for (size_t k = 2; k < N + 2; k++)
            e[k] = (ent){0, 6, 0x601, 1}; /* ".." */
        uint8_t *img = make_image(0x1000, e, N + 2, names, sizeof names);
        disc_image *d = NULL;
        assert_int_equal(disc_open_mem(&d, img, 0x1000, NULL), 0);
        assert_int_equal(d->fst.file_count, 1);
        assert_int_equal(d->fst.skipped_count, N);
        assert_int_equal(d->fst.skipped_listed, DISC_FST_SKIPS_LISTED);
        assert_int_equal(d->fst.skipped[DISC_FST_SKIPS_LISTED - 1].index,
                         DISC_FST_SKIPS_LISTED + 1);
        disc_close(d);
        free(img);
    }
}

static void test_next_index(void **state)
{
    (void)state;
    ent e[NESTED_N];
    /* backwards */
    memcpy(e, nested, sizeof e);
    e[2].w2 = 1;
    uint8_t *img = nested_image(e);
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, FST_AT + 2 * 12 + 8);
    free(img);
    /* pointing at itself: a loop */
    e[2].w2 = 2;
    img = nested_image(e);
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, FST_AT + 2 * 12 + 8);
    free(img);
    /* past the entry count */
    e[2].w2 = 9;
    img = nested_image(e);
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, FST_AT + 2 * 12 + 8);
    free(img);
    /* a sub-folder reaching past its parent's end */
    memcpy(e, nested, sizeof e);
    e[2].w2 = 6; /* Audio ends before entry 6 ... */
    e[4].w2 = 7; /* ... but Audio/Sub claims entry 6 */
    img = nested_image(e);
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, FST_AT + 4 * 12 + 8);
    free(img);
    /* an empty folder (next = its own index + 1) is fine */
    memcpy(e, nested, sizeof e);
    e[4].w2 = 5;
    img = nested_image(e);
    disc_image *d = NULL;
    assert_int_equal(disc_open_mem(&d, img, NESTED_IMAGE_LEN, NULL), 0);
    assert_string_equal(d->fst.files[2].path, "Audio/deep.bin");
    assert_string_equal(d->fst.files[4].path, "z.bin");
    disc_close(d);
    free(img);
}

static void test_parent_loop(void **state)
{
    (void)state;
    ent e[NESTED_N];
    memcpy(e, nested, sizeof e);
    e[4].w1 = 4; /* Audio/Sub is its own parent */
    uint8_t *img = nested_image(e);
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, FST_AT + 4 * 12 + 4);
    free(img);
    memcpy(e, nested, sizeof e);
    e[2].w1 = 4; /* Audio's parent is its own child */
    img = nested_image(e);
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, FST_AT + 2 * 12 + 4);
    free(img);
}

static void test_entry_count(void **state)
{
    (void)state;
    ent e[NESTED_N];
    memcpy(e, nested, sizeof e);
    e[0].w2 = 1000; /* more entries than the FST can hold */
    uint8_t *img = nested_image(e);
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, FST_AT + 8);
    free(img);
    e[0].w2 = 0;
    img = nested_image(e);
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, FST_AT + 8);
    free(img);
    memcpy(e, nested, sizeof e);
    e[0].flags = 0; /* the root is not a folder */
    img = nested_image(e);
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, FST_AT);
    free(img);
    memcpy(e, nested, sizeof e);
    e[3].flags = 2;
    img = nested_image(e);
    expect_open_fails(img, NESTED_IMAGE_LEN, UTIL_EFORMAT, FST_AT + 3 * 12);
    free(img);
    /* a root alone: no files */
    static const ent root[] = {{1, 0, 0, 1}};
    img = make_image(0x500, root, 1, "", 0);
    disc_image *d = NULL;
    assert_int_equal(disc_open_mem(&d, img, 0x500, NULL), 0);
    assert_int_equal(d->fst.file_count, 0);
    assert_null(disc_find(d, "a"));
    disc_close(d);
    free(img);
}

static void test_file_past_end(void **state)
{
    (void)state;
    ent e[NESTED_N];
    memcpy(e, nested, sizeof e);
    e[3].w2 = NESTED_IMAGE_LEN; /* Audio/x.dsp: offset 0x900 + a whole image */
    e[5].w1 = 0xFFFFFFF0u;      /* Audio/Sub/deep.bin starts past the end */
    uint8_t *img = nested_image(e);
    disc_image *d = NULL;
    util_err err;
    util_err_clear(&err);
    assert_int_equal(disc_open_mem(&d, img, NESTED_IMAGE_LEN, &err), 0);
    assert_int_equal(d->fst.out_of_bounds, 2);
    const disc_file *f = disc_find(d, "Audio/x.dsp");
    assert_false(f->in_bounds);
    util_src *s = NULL;
    assert_int_equal(disc_file_open(&s, d, f, &err), UTIL_EFORMAT);
    assert_null(s);
    assert_int_equal(err.offset, 0x900);
    assert_non_null(strstr(err.msg, "Audio/x.dsp"));
    f = disc_find(d, "Audio/Sub/deep.bin");
    assert_false(f->in_bounds);
    assert_int_equal(disc_file_open(&s, d, f, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, 0xFFFFFFF0u);
    /* the intact ones still read */
    expect_bytes(d, "a.pak", "hello", 5);
    expect_bytes(d, "Audio/Sub/empty", "", 0);
    disc_close(d);
    free(img);
}

static void test_truncated_image(void **state)
{
    (void)state;
    uint8_t *img = nested_image(nested);
    for (size_t len = 0; len < NESTED_IMAGE_LEN; len++) {
        disc_image *d = NULL;
        util_err err;
        util_err_clear(&err);
        int rc = disc_open_mem(&d, img, len, &err);
        size_t fst_end = FST_AT + NESTED_N * 12 + sizeof nested_names;
        if (len < 0x440) {
            assert_int_equal(rc, UTIL_ETRUNC);
            assert_int_equal(err.offset, len);
        } else if (len < fst_end) {
            assert_int_equal(rc, UTIL_EFORMAT);
            assert_int_equal(err.offset, 0x424);
        } else {
            /* cut in the middle of z.bin (or earlier): only the cut files are unreadable */
            assert_int_equal(rc, 0);
            uint32_t oob = 0;
            for (uint32_t i = 0; i < d->fst.file_count; i++) {
                const disc_file *f = &d->fst.files[i];
                assert_int_equal(f->in_bounds, f->offset + f->length <= len);
                oob += !f->in_bounds;
            }
            assert_int_equal(d->fst.out_of_bounds, oob);
            if (len >= 0x805)
                expect_bytes(d, "a.pak", "hello", 5);
            disc_close(d);
        }
    }
    free(img);
}

static void test_every_fst_prefix(void **state)
{
    (void)state;
    uint8_t *img = nested_image(nested);
    const uint8_t *fst = img + FST_AT;
    size_t len = NESTED_N * 12 + sizeof nested_names;
    util_arena a;
    util_arena_init(&a);
    disc_fst f;
    assert_int_equal(disc_fst_parse(&f, fst, len, FST_AT, NESTED_IMAGE_LEN, &a, NULL), 0);
    assert_int_equal(f.file_count, 5);
    for (size_t k = 0; k < len; k++) {
        util_err err;
        util_err_clear(&err);
        int rc = disc_fst_parse(&f, fst, k, FST_AT, NESTED_IMAGE_LEN, &a, &err);
        assert_true(rc == UTIL_ETRUNC || rc == UTIL_EFORMAT);
        assert_true(err.offset <= FST_AT + k);
        assert_int_equal(f.file_count, 0);
        assert_null(f.files);
    }
    /* allocation failures are UTIL_ENOMEM, never a crash */
    for (long n = 0; n < 2; n++) {
        util_arena_free(&a);
        a.fail_after = n;
        util_err err;
        util_err_clear(&err);
        assert_int_equal(disc_fst_parse(&f, fst, len, FST_AT, NESTED_IMAGE_LEN, &a, &err),
                         UTIL_ENOMEM);
    }
    util_arena_free(&a);
    free(img);
}

static void test_long_paths(void **state)
{
    (void)state;
    /* 20 nested folders named with 60 bytes each, then a file: 1220+ bytes of path */
    char names[64];
    memset(names, 'd', 60);
    names[60] = 0;
    names[61] = 'f';
    names[62] = 0;
    ent e[22];
    e[0] = (ent){1, 0, 0, 22};
    for (uint32_t i = 1; i <= 20; i++)
        e[i] = (ent){1, 0, i - 1, 22};
    e[21] = (ent){0, 61, 0x800, 1};
    uint8_t *img = make_image(0x1000, e, 22, names, 63);
    /* folder 17 is the first whose path passes 1024 bytes (17 * 61 - 1 = 1036) */
    expect_open_fails(img, 0x1000, UTIL_EFORMAT, FST_AT + 22 * 12);
    free(img);
    /* 16 folders deep: a path of 16 * 61 + 1 = 977 bytes is fine */
    ent s[18];
    s[0] = (ent){1, 0, 0, 18};
    for (uint32_t i = 1; i <= 16; i++)
        s[i] = (ent){1, 0, i - 1, 18};
    s[17] = (ent){0, 61, 0x800, 1};
    img = make_image(0x1000, s, 18, names, 63);
    disc_image *d = NULL;
    assert_int_equal(disc_open_mem(&d, img, 0x1000, NULL), 0);
    assert_int_equal(strlen(d->fst.files[0].path), 16 * 61 + 1);
    assert_int_equal(d->fst.dir_count, 16);
    disc_close(d);
    free(img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested),           cmocka_unit_test(test_case_differing_names),
        cmocka_unit_test(test_fst_past_end),     cmocka_unit_test(test_name_offset_past_table),
        cmocka_unit_test(test_bad_names),        cmocka_unit_test(test_next_index),
        cmocka_unit_test(test_parent_loop),      cmocka_unit_test(test_entry_count),
        cmocka_unit_test(test_file_past_end),    cmocka_unit_test(test_truncated_image),
        cmocka_unit_test(test_every_fst_prefix), cmocka_unit_test(test_long_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
