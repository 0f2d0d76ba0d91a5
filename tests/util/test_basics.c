/* test_util.c — the byte reader, writer, arena and ID parsing on hand-built bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "util.h"

static void test_reader_big_endian(void **state)
{
    (void)state;
    static const uint8_t b[] = {0x12, 0x34, 0x56, 0x78, 0xFF, 0xFE, 0x3F, 0x80, 0x00, 0x00, 0x7F};
    util_rd r = util_rd_make(b, sizeof b, 100);
    util_err e;
    util_err_clear(&e);
    uint32_t u32;
    int16_t s16;
    float f;
    uint8_t u8;
    assert_int_equal(util_rd_u32(&r, &u32, &e), 0);
    assert_int_equal(u32, 0x12345678u);
    assert_int_equal(util_rd_s16(&r, &s16, &e), 0);
    assert_int_equal(s16, -2);
    assert_int_equal(util_rd_f32(&r, &f, &e), 0);
    assert_true(f == 1.0f);
    assert_int_equal(util_rd_u8(&r, &u8, &e), 0);
    assert_int_equal(u8, 0x7F);
    assert_int_equal(util_rd_u8(&r, &u8, &e), UTIL_ETRUNC);
    assert_int_equal(e.code, UTIL_ETRUNC);
    assert_int_equal(e.offset, 111); /* base 100 + 11 bytes read */
}

static void test_reader_truncation_offsets(void **state)
{
    (void)state;
    static const uint8_t b[] = {1, 2, 3};
    util_rd r = util_rd_make(b, sizeof b, 0);
    util_err e;
    uint32_t v;
    assert_int_equal(util_rd_u32(&r, &v, &e), UTIL_ETRUNC);
    assert_int_equal(e.offset, 0);
    assert_int_equal(r.pos, 0); /* a failed read consumes nothing */
    uint16_t h;
    assert_int_equal(util_rd_u16(&r, &h, &e), 0);
    assert_int_equal(h, 0x0102);
    assert_int_equal(util_rd_u16(&r, &h, &e), UTIL_ETRUNC);
    assert_int_equal(e.offset, 2);
}

static void test_reader_cstr(void **state)
{
    (void)state;
    static const uint8_t b[] = {'a', 'b', 0, 0, 'x', 'y'};
    util_rd r = util_rd_make(b, sizeof b, 10);
    util_err e;
    const char *s;
    size_t n;
    assert_int_equal(util_rd_cstr(&r, &s, &n, &e), 0);
    assert_string_equal(s, "ab");
    assert_int_equal(n, 2);
    assert_int_equal(util_rd_cstr(&r, &s, &n, &e), 0);
    assert_string_equal(s, "");
    assert_int_equal(util_rd_cstr(&r, &s, &n, &e), UTIL_ETRUNC);
    assert_int_equal(e.offset, 14);
}

static void test_reader_sub_keeps_offsets(void **state)
{
    (void)state;
    static const uint8_t b[] = {0, 0, 0, 0, 0xAA, 0xBB, 0xCC};
    util_rd r = util_rd_make(b, sizeof b, 1000);
    util_err e;
    util_rd child;
    assert_int_equal(util_rd_skip(&r, 4, &e), 0);
    assert_int_equal(util_rd_sub(&r, 2, &child, &e), 0);
    assert_int_equal(util_rd_off(&child), 1004);
    uint32_t v;
    assert_int_equal(util_rd_u32(&child, &v, &e), UTIL_ETRUNC);
    assert_int_equal(e.offset, 1004);
    assert_int_equal(util_rd_sub(&r, 2, &child, &e), UTIL_ETRUNC);
    assert_int_equal(e.offset, 1006);
}

static void test_check_count(void **state)
{
    (void)state;
    uint8_t b[16] = {0};
    util_rd r = util_rd_make(b, sizeof b, 0);
    util_err e;
    assert_int_equal(util_rd_check_count(&r, 4, 4, "x", &e), 0);
    assert_int_equal(util_rd_check_count(&r, 5, 4, "x", &e), UTIL_ETRUNC);
    assert_int_equal(util_rd_check_count(&r, 0x7FFFFFFF, 4, "x", &e), UTIL_ETRUNC);
    assert_int_equal(util_rd_check_count(&r, 0xFFFFFFFF, 1, "x", &e), UTIL_ETRUNC);
}

static void test_writer(void **state)
{
    (void)state;
    util_wr w;
    util_wr_init(&w);
    util_wr_u32(&w, 0x00030005);
    util_wr_u16(&w, 0xBEEF);
    util_wr_f32(&w, -2.0f);
    util_wr_cstr(&w, "hi");
    util_wr_fill(&w, 0xFF, 3);
    util_wr_put_u32_at(&w, 0, 0xCAFEBABE);
    static const uint8_t want[] = {0xCA, 0xFE, 0xBA, 0xBE, 0xBE, 0xEF, 0xC0, 0x00,
                                   0x00, 0x00, 'h',  'i',  0,    0xFF, 0xFF, 0xFF};
    assert_int_equal(util_wr_status(&w, NULL), 0);
    assert_int_equal(w.len, sizeof want);
    assert_memory_equal(w.buf, want, sizeof want);
    size_t n;
    uint8_t *b = util_wr_take(&w, &n);
    assert_int_equal(n, sizeof want);
    assert_null(w.buf);
    free(b);
}

static void test_arena(void **state)
{
    (void)state;
    util_arena a;
    util_arena_init(&a);
    char *p = util_arena_alloc(&a, 10);
    assert_non_null(p);
    for (int i = 0; i < 10; i++)
        assert_int_equal(p[i], 0);
    assert_non_null(util_arena_alloc(&a, 200000));      /* bigger than a block */
    assert_null(util_arena_array(&a, SIZE_MAX / 2, 4)); /* overflow */
    assert_string_equal(util_arena_strdup(&a, "abc"), "abc");
    util_arena_free(&a);
    util_arena_init(&a);
    a.fail_after = 1;
    assert_non_null(util_arena_alloc(&a, 8));
    assert_null(util_arena_alloc(&a, 8));
    util_arena_free(&a);
    util_arena_init(&a);
    a.limit = 1000;
    assert_null(util_arena_alloc(&a, 2000));
    assert_non_null(util_arena_alloc(&a, 100));
    /* a move: the strings stay with the taker; the arena left behind is empty, keeps its limit
       and serves again (ASan reports a block freed twice or lost) */
    char *s = util_arena_strdup(&a, "kept");
    util_arena b;
    util_arena_move(&b, &a);
    assert_int_equal(a.total, 0);
    assert_int_equal(a.limit, 1000);
    assert_true(b.total >= 100 + 5);
    assert_null(util_arena_alloc(&a, 2000));
    assert_string_equal(util_arena_strdup(&a, "new"), "new");
    util_arena_free(&a);
    assert_string_equal(s, "kept");
    util_arena_free(&b);
}

static void test_parse_id(void **state)
{
    (void)state;
    uint32_t v;
    assert_int_equal(util_parse_id("0x1A2B3C4D", &v), 0);
    assert_int_equal(v, 0x1A2B3C4Du);
    assert_int_equal(util_parse_id("1a2b3c4d", &v), 0);
    assert_int_equal(v, 0x1A2B3C4Du);
    assert_int_equal(util_parse_id("439041101", &v), 0); /* 9 digits: decimal */
    assert_int_equal(v, 439041101u);
    assert_int_equal(util_parse_id("4294967295", &v), 0);
    assert_int_equal(v, 0xFFFFFFFFu);
    assert_int_equal(util_parse_id("4294967296", &v), -1);
    assert_int_equal(util_parse_id("0x123456789", &v), -1);
    assert_int_equal(util_parse_id("12g", &v), -1);
    assert_int_equal(util_parse_id("", &v), -1);
    assert_int_equal(util_parse_id("-1", &v), -1);
    /* up to 8 digits are hex even when all are decimal digits (CONTRACT.md) */
    assert_int_equal(util_parse_id("12345678", &v), 0);
    assert_int_equal(v, 0x12345678u);
    assert_int_equal(util_parse_id("1234", &v), 0);
    assert_int_equal(v, 0x1234u);
    assert_int_equal(util_parse_id("0x", &v), -1);
    assert_int_equal(util_parse_id("12345678a", &v), -1);   /* 9 characters: decimal only */
    assert_int_equal(util_parse_id("12345678901", &v), -1); /* 11 digits */
    assert_int_equal(util_parse_id("0439041101", &v), 0);   /* 10 digits: decimal */
    assert_int_equal(v, 439041101u);
}

static void test_fourcc(void **state)
{
    (void)state;
    uint32_t v;
    char s[5];
    assert_int_equal(util_fourcc_parse("ANCS", &v), 0);
    assert_int_equal(v, 0x414E4353u);
    util_fourcc_str(v, s);
    assert_string_equal(s, "ANCS");
    assert_int_equal(util_fourcc_parse("ANC", &v), -1);
}

static void test_open_regular(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    assert_non_null(dir);
    char file[512], fifo[512];
    snprintf(file, sizeof file, "%s/a.pak", dir);
    snprintf(fifo, sizeof fifo, "%s/f.pak", dir);
    assert_int_equal(tu_write_file(file, "12345", 5), 0);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    int fd = -1;
    size_t size = 0;
    util_err e;
    assert_int_equal(util_open_regular(file, &fd, &size, &e), 0);
    assert_int_equal(size, 5);
    close(fd);
    /* a FIFO is refused without blocking, a folder too, a missing file names its path */
    assert_int_equal(util_open_regular(fifo, &fd, &size, &e), UTIL_EIO);
    assert_non_null(strstr(e.msg, "not a regular file"));
    assert_int_equal(util_open_regular(dir, &fd, &size, &e), UTIL_EIO);
    assert_int_equal(util_open_regular("/nonexistent/x.pak", &fd, &size, &e), UTIL_EIO);
    assert_non_null(strstr(e.msg, "/nonexistent/x.pak"));
    unlink(file);
    unlink(fifo);
    rmdir(dir);
    free(dir);
}

/* util_create_file: a new file and an existing one (truncated) are written; a symbolic link in
 * the path's place is refused and its target left as it was; a FIFO without a reader and a
 * folder are refused without blocking. */
static void test_create_file(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    assert_non_null(dir);
    char file[512], fifo[512], victim[512], link[512], buf[16] = {0};
    snprintf(file, sizeof file, "%s/a.iso", dir);
    snprintf(fifo, sizeof fifo, "%s/f.iso", dir);
    snprintf(victim, sizeof victim, "%s/victim", dir);
    snprintf(link, sizeof link, "%s/l.iso", dir);
    assert_int_equal(tu_write_file(file, "old bytes", 9), 0);
    assert_int_equal(tu_write_file(victim, "precious", 8), 0);
    assert_int_equal(symlink(victim, link), 0);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    util_err e;
    util_err_clear(&e);
    FILE *f = util_create_file(file, &e);
    assert_non_null(f);
    assert_int_equal(fwrite("new", 1, 3, f), 3);
    assert_int_equal(fclose(f), 0);
    FILE *r = fopen(file, "rb");
    assert_non_null(r);
    assert_int_equal(fread(buf, 1, sizeof buf, r), 3);
    fclose(r);
    assert_string_equal(buf, "new");
    assert_null(util_create_file(link, &e));
    assert_int_equal(e.code, UTIL_EIO);
    assert_non_null(strstr(e.msg, "symbolic link"));
    assert_non_null(strstr(e.msg, link));
    r = fopen(victim, "rb");
    assert_non_null(r);
    memset(buf, 0, sizeof buf);
    assert_int_equal(fread(buf, 1, sizeof buf, r), 8);
    fclose(r);
    assert_string_equal(buf, "precious");
    assert_null(util_create_file(fifo, &e));
    assert_non_null(strstr(e.msg, "not a regular file"));
    assert_null(util_create_file(dir, &e));
    assert_int_equal(e.code, UTIL_EIO);
    unlink(file);
    unlink(fifo);
    unlink(link);
    unlink(victim);
    rmdir(dir);
    free(dir);
}

/* util_xml_escape into a string (open_memstream). */
static char *xml_of(const char *s, unsigned flags)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    util_xml_escape(f, s, flags);
    fclose(f);
    return buf;
}

static void expect_xml(const char *s, unsigned flags, const char *want)
{
    char *got = xml_of(s, flags);
    assert_string_equal(got, want);
    free(got);
}

/* The one XML/HTML escaper: entities, line ends by flag, and U+FFFD (EF BF BD) for each byte
 * XML 1.0 cannot carry (expected bytes written by hand from the XML 1.0 Char production). */
static void test_xml_escape(void **state)
{
    (void)state;
    expect_xml("a&b<c>d\"e'f", 0, "a&amp;b&lt;c&gt;d\"e'f");
    expect_xml("a&b<c>d\"e'f", UTIL_XML_QUOTES, "a&amp;b&lt;c&gt;d&quot;e&#39;f");
    expect_xml("t\tl\nc\r.", 0, "t\tl\nc\xEF\xBF\xBD.");
    expect_xml("t\tl\nc\r.", UTIL_XML_LINE_REFS, "t&#9;l&#10;c&#13;.");
    /* C0 control, DEL, a stray continuation byte, an overlong form, a surrogate, U+FFFF, a cut
     * sequence: one U+FFFD per byte not taken */
    expect_xml("\x01\x7F", 0, "\xEF\xBF\xBD\xEF\xBF\xBD");
    expect_xml("x\x80y", 0, "x\xEF\xBF\xBDy");
    expect_xml("\xC0\xAF", 0, "\xEF\xBF\xBD\xEF\xBF\xBD");
    expect_xml("\xED\xA0\x80", 0, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    expect_xml("\xEF\xBF\xBF", 0, "\xEF\xBF\xBD");
    expect_xml("\xE2\x82", 0, "\xEF\xBF\xBD\xEF\xBF\xBD");
    /* well-formed UTF-8 passes, a C1 control (valid XML) too */
    expect_xml("Caf\xC3\xA9 \xF0\x9F\x98\x80 \xC2\x9B", UTIL_XML_QUOTES,
               "Caf\xC3\xA9 \xF0\x9F\x98\x80 \xC2\x9B");
    expect_xml(NULL, 0, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reader_big_endian),
        cmocka_unit_test(test_reader_truncation_offsets),
        cmocka_unit_test(test_reader_cstr),
        cmocka_unit_test(test_reader_sub_keeps_offsets),
        cmocka_unit_test(test_check_count),
        cmocka_unit_test(test_writer),
        cmocka_unit_test(test_arena),
        cmocka_unit_test(test_parse_id),
        cmocka_unit_test(test_fourcc),
        cmocka_unit_test(test_xml_escape),
        cmocka_unit_test(test_open_regular),
        cmocka_unit_test(test_create_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
