/* test_disc_header.c — the GameCube disc header (docs/formats.md §10) on hand-built bytes: every
 * field, region letters, the release label, truncation at every length, a wrong magic or game
 * code, and the other containers recognised by their magic and refused. */
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

/* 0x440 bytes: game code at 0, disc 0x06, revision 0x07, magic C2339F3D at 0x1C, title at
 * 0x20, DOL 0x420, FST offset 0x424, size 0x428, max size 0x42C. */
static void make_header(uint8_t h[0x440], const char *code, uint8_t disc, uint8_t rev,
                        const char *title)
{
    memset(h, 0, 0x440);
    memcpy(h, code, 6);
    h[6] = disc;
    h[7] = rev;
    h[0x1C] = 0xC2;
    h[0x1D] = 0x33;
    h[0x1E] = 0x9F;
    h[0x1F] = 0x3D;
    memcpy(h + 0x20, title, strlen(title));
    put32(h + 0x420, 0x1E800);
    put32(h + 0x424, 0x4F000);
    put32(h + 0x428, 0x1234);
    put32(h + 0x42C, 0x1300);
}

static void test_fields(void **state)
{
    (void)state;
    uint8_t h[0x440];
    make_header(h, "GM8E01", 0, 2, "Metroid Prime");
    disc_header d;
    util_err err;
    util_err_clear(&err);
    assert_int_equal(disc_parse_header(&d, h, sizeof h, &err), 0);
    assert_string_equal(d.game_code, "GM8E01");
    assert_string_equal(d.game_id, "GM8E");
    assert_string_equal(d.maker, "01");
    assert_int_equal(d.disc_number, 0);
    assert_int_equal(d.revision, 2);
    assert_int_equal(d.region_letter, 'E');
    assert_string_equal(d.region, "NTSC-U");
    assert_string_equal(d.label, "GM8E01_02");
    assert_string_equal(d.title, "Metroid Prime");
    assert_int_equal(d.dol_offset, 0x1E800);
    assert_int_equal(d.fst_offset, 0x4F000);
    assert_int_equal(d.fst_size, 0x1234);
    assert_int_equal(d.fst_max_size, 0x1300);

    make_header(h, "G2MP01", 1, 0, "Metroid Prime 2 Echoes");
    assert_int_equal(disc_parse_header(&d, h, sizeof h, &err), 0);
    assert_string_equal(d.label, "G2MP01_00");
    assert_string_equal(d.region, "PAL");
    assert_int_equal(d.disc_number, 1);
    assert_string_equal(d.title, "Metroid Prime 2 Echoes");

    /* three-digit revisions stay whole */
    make_header(h, "G2MJ01", 0, 123, "x");
    assert_int_equal(disc_parse_header(&d, h, sizeof h, &err), 0);
    assert_string_equal(d.label, "G2MJ01_123");
    assert_string_equal(d.region, "NTSC-J");
}

static void test_regions(void **state)
{
    (void)state;
    assert_string_equal(disc_region_of('E'), "NTSC-U");
    assert_string_equal(disc_region_of('P'), "PAL");
    assert_string_equal(disc_region_of('J'), "NTSC-J");
    assert_string_equal(disc_region_of('K'), "NTSC-K");
    assert_string_equal(disc_region_of('D'), "PAL");
    assert_null(disc_region_of('A'));
    assert_null(disc_region_of('0'));
    uint8_t h[0x440];
    make_header(h, "GM8K01", 0, 0, "t");
    disc_header d;
    assert_int_equal(disc_parse_header(&d, h, sizeof h, NULL), 0);
    assert_string_equal(d.region, "NTSC-K");
    make_header(h, "GM8001", 0, 0, "t"); /* a digit as region letter: no region */
    assert_int_equal(disc_parse_header(&d, h, sizeof h, NULL), 0);
    assert_null(d.region);
}

static void test_title_fills_field(void **state)
{
    (void)state;
    uint8_t h[0x440];
    make_header(h, "GM8E01", 0, 0, "");
    memset(h + 0x20, 'A', 0x3E0); /* no terminator inside the field */
    disc_header d;
    assert_int_equal(disc_parse_header(&d, h, sizeof h, NULL), 0);
    assert_int_equal(strlen(d.title), 0x3E0);
    assert_int_equal(d.title[0x3DF], 'A');
}

static void test_title_encodings(void **state)
{
    (void)state;
    uint8_t h[0x440];
    disc_header d;
    /* NTSC-J: Shift-JIS; bytes of "メトロイドプライム" as Python's shift_jis codec gives them */
    static const uint8_t sjis[] = {0x83, 0x81, 0x83, 0x67, 0x83, 0x8d, 0x83, 0x43, 0x83,
                                   0x68, 0x83, 0x76, 0x83, 0x89, 0x83, 0x43, 0x83, 0x80};
    make_header(h, "GM8J01", 0, 0, "");
    memcpy(h + 0x20, sjis, sizeof sjis);
    assert_int_equal(disc_parse_header(&d, h, sizeof h, NULL), 0);
    assert_string_equal(d.title, "\xe3\x83\xa1\xe3\x83\x88\xe3\x83\xad\xe3\x82\xa4\xe3\x83\x89"
                                 "\xe3\x83\x97\xe3\x83\xa9\xe3\x82\xa4\xe3\x83\xa0");
    assert_memory_equal(d.title_raw, sjis, sizeof sjis);
    assert_int_equal(strlen(d.title_raw), sizeof sjis);
    /* a lead byte with no second byte left: '?' */
    h[0x20 + sizeof sjis] = 0x83;
    assert_int_equal(disc_parse_header(&d, h, sizeof h, NULL), 0);
    assert_int_equal(d.title[strlen(d.title) - 1], '?');
    /* elsewhere Windows-1252: 0xE9 is U+00E9; 0x81 is undefined there: '?' */
    make_header(h, "GM8P01", 0, 0,
                "Metro\xe9\x81"
                "d");
    assert_int_equal(disc_parse_header(&d, h, sizeof h, NULL), 0);
    assert_string_equal(d.title, "Metro\xc3\xa9?d");
    assert_string_equal(d.title_raw, "Metro\xe9\x81"
                                     "d");
    /* a whole field of non-ASCII bytes fits the UTF-8 title */
    memset(h + 0x20, 0xE9, 0x3E0);
    assert_int_equal(disc_parse_header(&d, h, sizeof h, NULL), 0);
    assert_int_equal(strlen(d.title), 2 * 0x3E0);
}

static void test_truncated(void **state)
{
    (void)state;
    uint8_t h[0x440];
    make_header(h, "GM8E01", 0, 0, "Metroid Prime");
    for (size_t len = 0; len < sizeof h; len++) {
        disc_header d;
        util_err err;
        util_err_clear(&err);
        int rc = disc_parse_header(&d, h, len, &err);
        assert_int_equal(rc, UTIL_ETRUNC);
        assert_int_equal(err.code, UTIL_ETRUNC);
        assert_int_equal(err.offset, len);
    }
}

static void test_bad_magic_and_code(void **state)
{
    (void)state;
    uint8_t h[0x440];
    disc_header d;
    util_err err;
    make_header(h, "GM8E01", 0, 0, "t");
    h[0x1F] = 0x3E;
    util_err_clear(&err);
    assert_int_equal(disc_parse_header(&d, h, sizeof h, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, 0x1C);

    make_header(h, "GM8e01", 0, 0, "t");
    util_err_clear(&err);
    assert_int_equal(disc_parse_header(&d, h, sizeof h, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, 3);

    make_header(h, "GM8E01", 0, 0, "t");
    h[5] = 0;
    util_err_clear(&err);
    assert_int_equal(disc_parse_header(&d, h, sizeof h, &err), UTIL_EFORMAT);
    assert_int_equal(err.offset, 5);
}

typedef struct container {
    const char *what;
    disc_kind kind;
    const char *name;
} container;

/* Fill h (0x440 bytes) with a file of the given container, magics from docs/formats.md §10. */
static void make_container(uint8_t h[0x440], disc_kind k)
{
    memset(h, 0, 0x440);
    switch (k) {
    case DISC_KIND_RVZ:
        memcpy(h, "RVZ\x01", 4);
        break;
    case DISC_KIND_WIA:
        memcpy(h, "WIA\x01", 4);
        break;
    case DISC_KIND_GCZ: /* 0xB10BC001 little-endian */
        h[0] = 0x01;
        h[1] = 0xC0;
        h[2] = 0x0B;
        h[3] = 0xB1;
        break;
    case DISC_KIND_CISO:
        memcpy(h, "CISO", 4);
        h[5] = 0x80; /* block size 0x8000, little-endian */
        break;
    case DISC_KIND_WBFS:
        memcpy(h, "WBFS", 4);
        break;
    case DISC_KIND_NKIT:
        make_header(h, "GM8E01", 0, 0, "Metroid Prime");
        memcpy(h + 0x200, "NKIT", 4);
        break;
    case DISC_KIND_WII:
        memcpy(h, "RMCE01", 6);
        h[0x18] = 0x5D;
        h[0x19] = 0x1C;
        h[0x1A] = 0x9E;
        h[0x1B] = 0xA3;
        break;
    case DISC_KIND_GCM:
        make_header(h, "GM8E01", 0, 0, "Metroid Prime");
        break;
    default:
        memcpy(h, "\x00\x03\x00\x05", 4); /* a PAK */
        break;
    }
}

static void test_containers(void **state)
{
    (void)state;
    static const container cs[] = {
        {"rvz", DISC_KIND_RVZ, "RVZ"},         {"wia", DISC_KIND_WIA, "WIA"},
        {"gcz", DISC_KIND_GCZ, "GCZ"},         {"ciso", DISC_KIND_CISO, "CISO"},
        {"wbfs", DISC_KIND_WBFS, "WBFS"},      {"nkit", DISC_KIND_NKIT, "NKit"},
        {"wii", DISC_KIND_WII, "Wii disc"},    {"gcm", DISC_KIND_GCM, "GameCube disc image"},
        {"pak", DISC_KIND_UNKNOWN, "unknown"},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        uint8_t h[0x440];
        make_container(h, cs[i].kind);
        assert_int_equal(disc_sniff(h, sizeof h, 1u << 30), cs[i].kind);
        assert_string_equal(disc_kind_name(cs[i].kind), cs[i].name);
        int refused = cs[i].kind == DISC_KIND_WBFS || cs[i].kind == DISC_KIND_NKIT ||
                      cs[i].kind == DISC_KIND_WII;
        int contained = cs[i].kind != DISC_KIND_GCM && cs[i].kind != DISC_KIND_UNKNOWN && !refused;
        assert_int_equal(disc_kind_refused(cs[i].kind), refused);
        assert_int_equal(disc_kind_container(cs[i].kind), contained);
        assert_int_equal(disc_kind_refusal(cs[i].kind) != NULL, refused);
        if (!refused && !contained)
            continue;
        /* a container or a refused kind is not a plain header: the parser and disc_open_mem
         * name the format; a refused one says that ancsdb reads GameCube discs */
        disc_header d;
        util_err err;
        util_err_clear(&err);
        assert_int_equal(disc_parse_header(&d, h, sizeof h, &err), UTIL_EFORMAT);
        assert_non_null(strstr(err.msg, cs[i].name));
        if (refused)
            assert_non_null(strstr(err.msg, "ancsdb reads GameCube discs"));
        disc_image *dp = NULL;
        util_err_clear(&err);
        assert_int_equal(disc_open_mem(&dp, h, sizeof h, &err), UTIL_EFORMAT);
        assert_null(dp);
        assert_non_null(strstr(err.msg, cs[i].name));
        util_src *src = NULL;
        assert_int_equal(util_src_open_mem(&src, h, sizeof h, NULL), 0);
        disc_kind got = DISC_KIND_GCM;
        assert_int_equal(disc_sniff_src(&got, src, NULL), 0);
        assert_int_equal(got, cs[i].kind);
        util_src_close(src);
        /* a file holding only the first bytes is recognised as well */
        if (cs[i].kind != DISC_KIND_NKIT && cs[i].kind != DISC_KIND_WII) {
            assert_int_equal(disc_sniff(h, 4, 4), cs[i].kind);
            assert_int_equal(util_src_open_mem(&src, h, 4, NULL), 0);
            assert_int_equal(disc_sniff_src(&got, src, NULL), 0);
            assert_int_equal(got, cs[i].kind);
            util_src_close(src);
            util_err_clear(&err);
            assert_int_equal(disc_open_mem(&dp, h, 4, &err), UTIL_EFORMAT);
            assert_non_null(strstr(err.msg, cs[i].name));
        }
    }
    /* too short to tell, or too short a file */
    uint8_t h[0x440];
    make_container(h, DISC_KIND_GCM);
    assert_int_equal(disc_sniff(h, 3, 3), DISC_KIND_UNKNOWN);
    assert_int_equal(disc_sniff(h, 0x20, 0x20), DISC_KIND_GCM);
    assert_int_equal(disc_sniff(h, sizeof h, 0x10), DISC_KIND_UNKNOWN);
    make_container(h, DISC_KIND_NKIT);
    assert_int_equal(disc_sniff(h, 0x200, 0x200), DISC_KIND_GCM); /* mark not seen yet */
}

static void test_open_short_image(void **state)
{
    (void)state;
    uint8_t h[0x440];
    make_header(h, "GM8E01", 0, 0, "Metroid Prime");
    disc_image *d = NULL;
    util_err err;
    util_err_clear(&err);
    assert_int_equal(disc_open_mem(&d, h, 0x43F, &err), UTIL_ETRUNC);
    assert_null(d);
    assert_int_equal(err.offset, 0x43F);
    util_err_clear(&err);
    assert_int_equal(disc_open_mem(&d, h, 0, &err), UTIL_ETRUNC);
    assert_int_equal(err.offset, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_regions),
        cmocka_unit_test(test_title_fills_field),
        cmocka_unit_test(test_title_encodings),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_bad_magic_and_code),
        cmocka_unit_test(test_containers),
        cmocka_unit_test(test_open_short_image),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
