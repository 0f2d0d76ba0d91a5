/* test_names_import.c — asset name maps (db_names_*): import of hand-written maps with
 * entities, UTF-8, CDATA, comments, a BOM and lower-case keys; refusal of maps that are not
 * well-formed with the database unchanged; re-import replacing a source; Type checks against
 * pak_entries; export -> import round trip; the PAKs' names and asset_label's choice (a
 * map's name wins over the PAK's). Expected rows are written out by hand from the XML. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "testutil.h"

/* ---- helpers ------------------------------------------------------------------------- */

typedef struct rows {
    int n;
    char text[64][256]; /* each row: cells joined with '|' (NULL -> "-") */
} rows;

static int r_row(void *ctx, int ncols, const db_cell *cells)
{
    rows *r = ctx;
    if (r->n == 64)
        return 1;
    char *out = r->text[r->n++];
    out[0] = 0;
    for (int c = 0; c < ncols; c++) {
        size_t len = strlen(out);
        if (cells[c].type == DB_INT)
            snprintf(out + len, 256 - len, "%s%lld", c ? "|" : "", (long long)cells[c].i);
        else if (cells[c].type == DB_TEXT)
            snprintf(out + len, 256 - len, "%s%s", c ? "|" : "", cells[c].s);
        else
            snprintf(out + len, 256 - len, "%s-", c ? "|" : "");
    }
    return 0;
}

static void run(db *d, rows *r, const char *sql)
{
    db_sink s = {r, NULL, r_row, NULL};
    util_err e;
    util_err_clear(&e);
    r->n = 0;
    int rc = db_exec(d, sql, 0, NULL, &s, &e);
    if (rc != 0)
        fail_msg("SQL failed: %s\n%s", e.msg, sql);
}

/* All of asset_names as text, ordered. */
static void names(db *d, rows *r)
{
    run(d, r,
        "SELECT printf('%08X', asset_id), ifnull(type, '-'), name, ifnull(directory, '-'), "
        "source, ifnull(auto_name, '-'), ifnull(auto_dir, '-') FROM asset_names "
        "ORDER BY asset_id, source");
}

static db *open_mem(void)
{
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_open(&d, ":memory:", DB_OPEN_READWRITE, &e), 0);
    return d;
}

static int import(db *d, const char *source, const char *xml, db_names_stats *st, util_err *e)
{
    util_err_clear(e);
    return db_names_import_mem(d, source, xml, strlen(xml), st, e);
}

#define ASSET(key, name, dir, type)                                                                \
    "  <Asset><Key>" key "</Key><Value><Name>" name "</Name><Directory>" dir                       \
    "</Directory><Type>" type "</Type><AutoGenName>false</AutoGenName>"                            \
    "<AutoGenDir>true</AutoGenDir></Value></Asset>\n"
#define MAP(body)                                                                                  \
    "<AssetNameMap Game=\"MPRM\">\n <AssetNameMap>\n" body " </AssetNameMap>\n</AssetNameMap>\n"

/* ---- import -------------------------------------------------------------------------- */

static void test_escapes_utf8_cdata_comments_bom(void **state)
{
    (void)state;
    db *d = open_mem();
    db_names_stats st;
    util_err e;
    /* BOM, XML declaration, comments, a CDATA name, entities, UTF-8, lower-case key,
     * white space around a key, an element the format does not have */
    const char *xml =
        "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<!-- a comment before the root -->\n"
        "<AssetNameMap Game=\"MPRM\" ArchiveVer=\"1\" FileVer=\"0\">\n"
        "  <AssetNameMap>\n"
        "    <!-- a comment between assets -->\n" ASSET(
            "002d417f", "door_upper", "AnimatedObjects/IceWorld/",
            "ANCS") "    <Asset><Key>\n  0A0B0C0D </Key><Value><Name>Cr&#232;me &amp; Co "
                    "&lt;1&gt;</Name>"
                    "<Directory>Caf\xC3\xA9 &quot;x&quot;/</Directory><Type>PART</Type>"
                    "<Extra><Deep>ignored</Deep></Extra></Value></Asset>\n"
                    "    <Asset><Key>FFFFFFFE</Key><Value><Name><![CDATA[a<b>&c]]></Name>"
                    "<Directory/><Type>TXTR</Type><AutoGenName>true</AutoGenName>"
                    "<AutoGenDir>false</AutoGenDir></Value></Asset>\n"
                    "  </AssetNameMap>\n"
                    "</AssetNameMap>\n";
    assert_int_equal(import(d, "m.xml", xml, &st, &e), 0);
    assert_int_equal(st.entries, 3);
    assert_int_equal(st.rows, 3);
    assert_int_equal(st.replaced, 0);
    rows r;
    names(d, &r);
    assert_int_equal(r.n, 3);
    assert_string_equal(r.text[0], "002D417F|ANCS|door_upper|AnimatedObjects/IceWorld/|m.xml|0|1");
    assert_string_equal(r.text[1],
                        "0A0B0C0D|PART|Cr\xC3\xA8me & Co <1>|Caf\xC3\xA9 \"x\"/|m.xml|-|-");
    assert_string_equal(r.text[2], "FFFFFFFE|TXTR|a<b>&c||m.xml|1|0");
    run(d, &r, "SELECT label FROM asset_label WHERE asset_id = 0x0A0B0C0D");
    assert_int_equal(r.n, 1);
    assert_string_equal(r.text[0], "Caf\xC3\xA9 \"x\"/Cr\xC3\xA8me & Co <1>");
    db_close(d);
}

/* The rows of a map imported as "keep.xml", to see that refusals change nothing. */
static db *db_with_keep(void)
{
    db *d = open_mem();
    db_names_stats st;
    util_err e;
    assert_int_equal(import(d, "keep.xml", MAP(ASSET("00000001", "one", "d/", "ANIM")), &st, &e),
                     0);
    return d;
}

static void refused(const char *xml, const char *source, unsigned long line, const char *reason)
{
    db *d = db_with_keep();
    db_names_stats st;
    util_err e;
    rows before, after;
    names(d, &before);
    assert_int_equal(import(d, source, xml, &st, &e), UTIL_EFORMAT);
    if (line)
        assert_int_equal(st.line, line);
    if (reason && !strstr(e.msg, reason))
        fail_msg("reason '%s' does not say '%s'", e.msg, reason);
    names(d, &after);
    assert_int_equal(after.n, before.n);
    for (int i = 0; i < after.n; i++)
        assert_string_equal(after.text[i], before.text[i]);
    db_close(d);
}

static void test_truncated_refused(void **state)
{
    (void)state;
    /* same source as the rows already there: the delete must be rolled back too */
    const char *full =
        MAP(ASSET("00000002", "two", "d/", "ANIM") ASSET("00000003", "three", "d/", "ANIM"));
    char cut[512];
    size_t n = strlen(full) - 40;
    memcpy(cut, full, n);
    cut[n] = 0;
    refused(cut, "keep.xml", 0, NULL);
    refused("", "keep.xml", 0, NULL);
    refused(MAP(ASSET("00000002", "two", "d/", "ANIM")) "<AssetNameMap/>", "other.xml", 6, NULL);
}

static void test_wrong_root_refused(void **state)
{
    (void)state;
    refused("<?xml version=\"1.0\"?>\n<AssetMap>\n" ASSET("00000002", "two", "d/",
                                                          "ANIM") "</AssetMap>\n",
            "keep.xml", 2, "root element");
}

static void test_bad_key_refused(void **state)
{
    (void)state;
    refused(MAP(ASSET("00000002", "two", "d/", "ANIM") ASSET("0000000G", "bad", "d/", "ANIM")),
            "keep.xml", 4, "8 hex digits");
    refused(MAP(ASSET("1234567", "short", "d/", "ANIM")), "x.xml", 3, "8 hex digits");
    refused(MAP(ASSET("0x123456", "prefixed", "d/", "ANIM")), "x.xml", 3, "8 hex digits");
    refused(MAP(ASSET("123456789", "long", "d/", "ANIM")), "x.xml", 3, "8 hex digits");
    refused(MAP("  <Asset><Value><Name>n</Name></Value></Asset>\n"), "x.xml", 3, "Key");
    refused(MAP("  <Asset><Key>00000005</Key><Value></Value></Asset>\n"), "x.xml", 3, "Name");
    refused(MAP("  <Asset><Key>000<b/>00005</Key></Asset>\n"), "x.xml", 3, "inside");
}

static void test_entity_declaration_refused(void **state)
{
    (void)state;
    refused("<!DOCTYPE AssetNameMap [\n<!ENTITY a \"aaaaaaaaaa\">\n"
            "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n]>\n" MAP(
                ASSET("00000002", "&b;", "d/", "ANIM")),
            "x.xml", 2, "entity");
}

/* Empty <AutoGenDir/> and <AutoGenName></AutoGenName> with no earlier asset giving them text
 * (the field's buffer never allocated): imported, the flags NULL. */
static void test_empty_bool_fields(void **state)
{
    (void)state;
    db *d = open_mem();
    db_names_stats st;
    util_err e;
    rows r;
    assert_int_equal(import(d, "e.xml",
                            MAP("  <Asset><Key>00000007</Key><Value><Name>n</Name><AutoGenDir/>"
                                "<AutoGenName></AutoGenName></Value></Asset>\n"
                                "  <Asset><Key>00000008</Key><Value><Name>m</Name>"
                                "<AutoGenName>true</AutoGenName><AutoGenName/></Value></Asset>\n"),
                            &st, &e),
                     0);
    names(d, &r);
    assert_int_equal(r.n, 2);
    assert_string_equal(r.text[0], "00000007|-|n|-|e.xml|-|-");
    /* the second, empty <AutoGenName> is the one read: not the first one's "true" */
    assert_string_equal(r.text[1], "00000008|-|m|-|e.xml|-|-");
    db_close(d);
}

/* An <Asset> inside another (still well-formed) is refused with its line. */
static void test_nested_asset_refused(void **state)
{
    (void)state;
    refused(MAP("  <Asset><Key>00000002</Key><Value><Name>outer</Name></Value>\n"
                "  <Asset><Key>00000003</Key><Value><Name>inner</Name></Value></Asset>\n"
                "  </Asset>\n"),
            "keep.xml", 4, "<Asset> inside <Asset>");
    refused(MAP("  <Asset><Key>00000002</Key><Value><Name>outer</Name>\n"
                "  <Extra><Asset><Key>00000003</Key></Asset></Extra></Value></Asset>\n"),
            "keep.xml", 4, "<Asset> inside <Asset>");
}

/* One token (here an attribute of an ignored element) longer than the cap: refused with the
 * line it starts on, before expat buffers it whole. */
static void test_huge_token_refused(void **state)
{
    (void)state;
    size_t big = 8u << 20;
    static const char pre[] = "<AssetNameMap Game=\"MPRM\">\n <AssetNameMap>\n"
                              "  <Asset><Key>00000002</Key><Value><Name>two</Name></Value>"
                              "</Asset>\n  <Junk a=\"";
    static const char post[] = "\"/>\n </AssetNameMap>\n</AssetNameMap>\n";
    char *xml = malloc(sizeof pre + big + sizeof post);
    assert_non_null(xml);
    memcpy(xml, pre, sizeof pre - 1);
    memset(xml + sizeof pre - 1, 'a', big);
    memcpy(xml + sizeof pre - 1 + big, post, sizeof post);
    refused(xml, "keep.xml", 4, "longer than");
    /* a comment and a processing instruction are tokens too */
    memcpy(xml, pre, sizeof pre - 1);
    memcpy(xml + sizeof pre - 1 - 9, "<!--     ", 9);
    memset(xml + sizeof pre - 1, '>', big);
    memcpy(xml + sizeof pre - 1 + big, "-->\n</AssetNameMap></AssetNameMap>\n",
           sizeof "-->\n</AssetNameMap></AssetNameMap>\n");
    refused(xml, "keep.xml", 4, "longer than");
    free(xml);
}

static void test_reimport_replaces(void **state)
{
    (void)state;
    db *d = db_with_keep();
    db_names_stats st;
    util_err e;
    assert_int_equal(import(d, "other.xml", MAP(ASSET("00000001", "uno", "o/", "ANIM")), &st, &e),
                     0);
    assert_int_equal(
        import(d, "keep.xml",
               MAP(ASSET("00000002", "two", "d/", "ANIM") ASSET("00000003", "three", "d/", "ANIM")
                       ASSET("00000003", "three again", "d/", "ANIM")),
               &st, &e),
        0);
    assert_int_equal(st.entries, 3);
    assert_int_equal(st.rows, 2);
    assert_int_equal(st.duplicates, 1);
    assert_int_equal(st.replaced, 1);
    rows r;
    names(d, &r);
    assert_int_equal(r.n, 3);
    assert_string_equal(r.text[0], "00000001|ANIM|uno|o/|other.xml|0|1");
    assert_string_equal(r.text[1], "00000002|ANIM|two|d/|keep.xml|0|1");
    assert_string_equal(r.text[2], "00000003|ANIM|three again|d/|keep.xml|0|1");
    /* a source named like the PAKs' names is refused */
    assert_int_equal(import(d, "pak", MAP(ASSET("00000009", "n", "d/", "ANIM")), &st, &e),
                     UTIL_EFORMAT);
    db_close(d);
}

static void test_type_mismatch_counted(void **state)
{
    (void)state;
    db *d = open_mem();
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_exec(d,
                             "INSERT INTO pak_entries (pak_id, entry_index, type, asset_id, "
                             "compressed, data_offset, stored_size) VALUES (1, 0, 'ANCS', 16, 0, "
                             "0, 32), (1, 1, 'CMDL', 17, 0, 32, 32), (2, 0, 'TXTR', 16, 0, 0, 32)",
                             0, NULL, NULL, &e),
                     0);
    db_names_stats st;
    /* 16 is ANCS in one PAK and TXTR in another: both agree; 17 is CMDL, not CSKR; 99 is in
     * no PAK: nothing to disagree with */
    assert_int_equal(
        import(d, "t.xml",
               MAP(ASSET("00000010", "a", "d/", "TXTR") ASSET("00000011", "b", "d/", "CSKR")
                       ASSET("00000063", "c", "d/", "PART")),
               &st, &e),
        0);
    assert_int_equal(st.type_mismatches, 1);
    rows r;
    run(d, &r, "SELECT type FROM asset_names WHERE asset_id = 17");
    assert_string_equal(r.text[0], "CSKR"); /* kept as the map says */
    db_close(d);
}

/* A map bigger than the read chunk, from a file: every entry arrives. */
static void test_file_streaming(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    char path[512];
    snprintf(path, sizeof path, "%s/Big Map.xml", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("<AssetNameMap>\n<AssetNameMap>\n", f);
    for (int i = 0; i < 3000; i++)
        fprintf(f,
                "<Asset><Key>%08x</Key><Value><Name>name_%d_&amp;_%s</Name><Directory>dir/%d/"
                "</Directory><Type>PART</Type></Value></Asset>\n",
                0x10000000 + i, i, "\xC3\xA9", i % 7);
    fputs("</AssetNameMap>\n</AssetNameMap>\n", f);
    fclose(f);
    db *d = open_mem();
    db_names_stats st;
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_names_import(d, path, &st, &e), 0);
    assert_int_equal(st.rows, 3000);
    rows r;
    run(d, &r,
        "SELECT count(*), count(DISTINCT name), min(source), max(source) FROM asset_names "
        "WHERE name = 'name_' || (asset_id - 268435456) || '_&_\xC3\xA9' AND directory = "
        "'dir/' || ((asset_id - 268435456) % 7) || '/'");
    assert_string_equal(r.text[0], "3000|3000|Big Map.xml|Big Map.xml");
    /* a missing file */
    snprintf(path, sizeof path, "%s/none.xml", dir);
    assert_int_equal(db_names_import(d, path, &st, &e), UTIL_EIO);
    db_close(d);
    assert_int_equal(tu_remove_tree(dir), 0);
    free(dir);
}

/* ---- export and the map writer ------------------------------------------------------- */

static char *capture(FILE *f, size_t *len)
{
    long n = ftell(f);
    assert_true(n >= 0);
    char *s = malloc((size_t)n + 1);
    rewind(f);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = 0;
    *len = (size_t)n;
    return s;
}

static void test_export_round_trip(void **state)
{
    (void)state;
    db *d = open_mem();
    db_names_stats st;
    util_err e;
    assert_int_equal(import(d, "a.xml",
                            MAP(ASSET("00000001", "x &amp; y", "A &lt;B&gt;/", "ANCS")
                                    ASSET("00000002", "\xE3\x83\xA1\xE3\x83\x88\xE3\x83\xAD", "",
                                          "PART") ASSET("00000003", "]]&gt;", "d/", "TXTR")),
                            &st, &e),
                     0);
    rows want;
    run(d, &want,
        "SELECT asset_id, ifnull(type, '-'), name, directory, auto_name, auto_dir FROM "
        "asset_names ORDER BY asset_id");
    FILE *f = tmpfile();
    assert_non_null(f);
    long count = 0;
    util_err_clear(&e);
    assert_int_equal(db_names_export(d, f, &count, &e), 0);
    assert_int_equal(count, 3);
    size_t len;
    char *xml = capture(f, &len);
    fclose(f);
    db *d2 = open_mem();
    util_err_clear(&e);
    assert_int_equal(db_names_import_mem(d2, "export.xml", xml, len, &st, &e), 0);
    rows got;
    run(d2, &got,
        "SELECT asset_id, ifnull(type, '-'), name, directory, auto_name, auto_dir FROM "
        "asset_names ORDER BY asset_id");
    assert_int_equal(got.n, want.n);
    for (int i = 0; i < got.n; i++)
        assert_string_equal(got.text[i], want.text[i]);
    free(xml);
    db_close(d2);
    db_close(d);
}

static void test_write_map(void **state)
{
    (void)state;
    const db_name_entry in[] = {
        {0xDEADBEEF, "ANCS", "Samus & <Co>", "Characters/Samus/cooked/", 0, 0},
        {0x00000042, NULL, "tab\there\r\nnewline", NULL, 1, 1},
        {0x00000043, "PART",
         "bad\x01"
         "byte\xFF"
         "end",
         "d/", 0, 1},
    };
    FILE *f = tmpfile();
    util_err e;
    util_err_clear(&e);
    assert_int_equal(db_names_write_map(f, in, 3, &e), 0);
    size_t len;
    char *xml = capture(f, &len);
    fclose(f);
    db *d = open_mem();
    db_names_stats st;
    util_err_clear(&e);
    assert_int_equal(db_names_import_mem(d, "w.xml", xml, len, &st, &e), 0);
    rows r;
    names(d, &r);
    assert_int_equal(r.n, 3);
    assert_string_equal(r.text[0], "00000042|-|tab\there\r\nnewline||w.xml|1|1");
    /* bytes XML cannot carry become U+FFFD */
    assert_string_equal(r.text[1], "00000043|PART|bad\xEF\xBF\xBD"
                                   "byte\xEF\xBF\xBD"
                                   "end|d/|w.xml|0|1");
    assert_string_equal(r.text[2], "DEADBEEF|ANCS|Samus & <Co>|Characters/Samus/cooked/|w.xml|0|0");
    free(xml);
    db_close(d);
}

/* ---- the PAKs' names and asset_label ------------------------------------------------- */

static void test_pak_names_and_label(void **state)
{
    (void)state;
    db *d = open_mem();
    util_err e;
    util_err_clear(&e);
    assert_int_equal(
        db_exec(d,
                "INSERT INTO paks (pak_id, path, game, status) VALUES (1, '/z/b.pak', 'MP1', "
                "'ok'), (2, '/z/a.pak', 'MP1', 'ok');"
                "INSERT INTO pak_names (pak_id, seq, name, type, asset_id) VALUES "
                "(1, 0, 'B_first', 'ANCS', 7), (2, 3, 'A_later', 'ANCS', 7), "
                "(2, 1, 'A_first', 'ANCS', 7), (1, 1, 'only_pak', 'MLVL', 8), "
                "(2, 0, 'mapped', 'PART', 9)",
                0, NULL, NULL, &e),
        0);
    assert_int_equal(db_names_refresh_pak(d, &e), 0);
    rows r;
    names(d, &r);
    assert_int_equal(r.n, 3); /* one row per asset: first by PAK path, then seq */
    assert_string_equal(r.text[0], "00000007|ANCS|A_first|-|pak|-|-");
    assert_string_equal(r.text[1], "00000008|MLVL|only_pak|-|pak|-|-");
    assert_string_equal(r.text[2], "00000009|PART|mapped|-|pak|-|-");
    db_names_stats st;
    assert_int_equal(import(d, "z.xml", MAP(ASSET("00000009", "from_z", "Z/", "PART")), &st, &e),
                     0);
    assert_int_equal(import(d, "m.xml", MAP(ASSET("00000009", "from_m", "M/", "PART")), &st, &e),
                     0);
    /* the map wins over the PAK name; between maps, the first by source */
    run(d, &r, "SELECT asset_id, label FROM asset_label ORDER BY asset_id");
    assert_int_equal(r.n, 3);
    assert_string_equal(r.text[0], "7|A_first");
    assert_string_equal(r.text[1], "8|only_pak");
    assert_string_equal(r.text[2], "9|M/from_m");
    /* refreshing again keeps the maps' rows */
    assert_int_equal(db_names_refresh_pak(d, &e), 0);
    run(d, &r, "SELECT count(*), sum(source = 'pak') FROM asset_names");
    assert_string_equal(r.text[0], "5|3");
    /* export holds the shown name once per asset */
    FILE *f = tmpfile();
    long count = 0;
    assert_int_equal(db_names_export(d, f, &count, &e), 0);
    assert_int_equal(count, 3);
    size_t len;
    char *xml = capture(f, &len);
    fclose(f);
    assert_non_null(strstr(xml, "<Name>from_m</Name>"));
    assert_null(strstr(xml, "from_z"));
    assert_non_null(strstr(xml, "<Name>A_first</Name>"));
    free(xml);
    db_close(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escapes_utf8_cdata_comments_bom),
        cmocka_unit_test(test_truncated_refused),
        cmocka_unit_test(test_wrong_root_refused),
        cmocka_unit_test(test_bad_key_refused),
        cmocka_unit_test(test_entity_declaration_refused),

        cmocka_unit_test(test_empty_bool_fields),
        cmocka_unit_test(test_nested_asset_refused),
        cmocka_unit_test(test_huge_token_refused),
        cmocka_unit_test(test_reimport_replaces),
        cmocka_unit_test(test_type_mismatch_counted),
        cmocka_unit_test(test_file_streaming),
        cmocka_unit_test(test_export_round_trip),
        cmocka_unit_test(test_write_map),
        cmocka_unit_test(test_pak_names_and_label),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
