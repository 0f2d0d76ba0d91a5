/* Named-query headers (required and optional parameters) and how command-line arguments bind
 * to them; the values `sql --param` binds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "db.h"
#include "testutil.h"

static char *read_query(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/queries/%s.sql", tu_source_dir(), name);
    size_t len;
    uint8_t *b = tu_read_file(path, &len);
    assert_non_null(b);
    char *s = malloc(len + 1);
    memcpy(s, b, len);
    s[len] = 0;
    free(b);
    return s;
}

static void test_query_headers(void **state)
{
    (void)state;
    cli_query_info q;
    util_err e;
    util_err_clear(&e);
    char *sql = read_query("who-references");
    assert_int_equal(cli_query_parse(&q, sql, &e), 0);
    free(sql);
    assert_int_equal(q.param_count, 2);
    assert_int_equal(q.required, 2);
    assert_string_equal(q.params[0].name, "TYPE");
    assert_string_equal(q.params[1].name, "ID");
    db_bind b[CLI_QUERY_MAX_PARAMS];
    char a0[] = "part", a1[] = "0x1A2B3C4D";
    char *argv[2] = {a0, a1};
    assert_int_equal(cli_query_binds(b, &q, 2, argv, &e), 0);
    assert_int_equal(b[1].type, DB_INT);
    assert_int_equal(b[1].i, 0x1A2B3C4D);
    assert_string_equal(b[0].s, "PART");
    assert_int_equal(cli_query_binds(b, &q, 1, argv, &e), UTIL_EFORMAT);
    char bad[] = "xyz";
    argv[1] = bad;
    assert_int_equal(cli_query_binds(b, &q, 2, argv, &e), UTIL_EFORMAT);
    sql = read_query("character");
    assert_int_equal(cli_query_parse(&q, sql, &e), 0);
    free(sql);
    assert_int_equal(q.param_count, 1);
    char nm[] = "Samus", hex[] = "1A2B3C4D";
    char *cargv[1] = {nm};
    assert_int_equal(cli_query_binds(b, &q, 1, cargv, &e), 0);
    assert_int_equal(b[0].type, DB_TEXT);
    cargv[0] = hex;
    assert_int_equal(cli_query_binds(b, &q, 1, cargv, &e), 0);
    assert_int_equal(b[0].type, DB_INT);
    assert_int_equal(b[0].i, 0x1A2B3C4D);
    assert_int_equal(cli_query_parse(&q, "SELECT 1", &e), UTIL_EFORMAT);
    assert_int_equal(cli_query_parse(&q, "-- d\n-- param: X \xE2\x80\x94 the x\nSELECT ?1", &e), 0);
    assert_string_equal(q.params[0].meaning, "the x");
}

/* IDs: up to 8 digits are hex, 9 or 10 digits decimal (CONTRACT.md "query"). */
static void test_id_readings(void **state)
{
    (void)state;
    cli_query_info q;
    util_err e;
    db_bind b[CLI_QUERY_MAX_PARAMS];
    assert_int_equal(cli_query_parse(&q, "-- d\n-- param: ID — an id\nSELECT ?1", &e), 0);
    static const struct {
        const char *arg;
        int ok;
        int64_t v;
    } cases[] = {
        {"12345678", 1, 0x12345678}, {"1234", 1, 0x1234},           {"0x1a2b", 1, 0x1A2B},
        {"439041101", 1, 439041101}, {"4294967295", 1, 4294967295}, {"4294967296", 0, 0},
        {"12345678a", 0, 0},         {"123456789012", 0, 0},        {"", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "%s", cases[i].arg);
        char *argv[1] = {buf};
        int rc = cli_query_binds(b, &q, 1, argv, &e);
        if (!cases[i].ok) {
            assert_int_equal(rc, UTIL_EFORMAT);
            continue;
        }
        assert_int_equal(rc, 0);
        assert_int_equal(b[0].type, DB_INT);
        assert_int_equal(b[0].i, cases[i].v);
    }
}

/* `-- param: [NAME] — ...` may be left out and then binds NULL; it must come last. */
static void test_optional_params(void **state)
{
    (void)state;
    cli_query_info q;
    util_err e;
    db_bind b[CLI_QUERY_MAX_PARAMS];
    assert_int_equal(cli_query_parse(&q,
                                     "-- d\n-- param: TYPE — t\n-- param: [PATTERN] — p\n"
                                     "SELECT ?1, ?2",
                                     &e),
                     0);
    assert_int_equal(q.param_count, 2);
    assert_int_equal(q.required, 1);
    assert_string_equal(q.params[1].name, "PATTERN");
    assert_int_equal(q.params[1].optional, 1);
    char t[] = "ANCS", p[] = "x*";
    char *argv[3] = {t, p, p};
    assert_int_equal(cli_query_binds(b, &q, 1, argv, &e), 0);
    assert_int_equal(b[1].type, DB_NULL);
    assert_int_equal(cli_query_binds(b, &q, 2, argv, &e), 0);
    assert_int_equal(b[1].type, DB_TEXT);
    assert_string_equal(b[1].s, "x*");
    assert_int_equal(cli_query_binds(b, &q, 0, argv, &e), UTIL_EFORMAT);
    assert_int_equal(cli_query_binds(b, &q, 3, argv, &e), UTIL_EFORMAT);
    /* NAME? is the other spelling */
    assert_int_equal(
        cli_query_parse(&q, "-- d\n-- param: ID — i\n-- param: CHAR_INDEX? — c\nSELECT 1", &e), 0);
    assert_int_equal(q.required, 1);
    assert_string_equal(q.params[1].name, "CHAR_INDEX");
    assert_int_equal(q.params[1].optional, 1);
    /* a required parameter after an optional one is a malformed header */
    assert_int_equal(cli_query_parse(&q, "-- d\n-- param: [A] — a\n-- param: B — b\nSELECT 1", &e),
                     UTIL_EFORMAT);
    /* the shipped queries with optional parameters */
    const char *names[] = {"unknown-census", "unknown-census-summary", "warnings"};
    for (size_t i = 0; i < 3; i++) {
        char *sql = read_query(names[i]);
        assert_int_equal(cli_query_parse(&q, sql, &e), 0);
        free(sql);
        assert_int_equal(q.param_count, 1);
        assert_int_equal(q.required, 0);
    }
}

static void test_sql_param_values(void **state)
{
    (void)state;
    db_bind b;
    cli_bind_value(&b, "42");
    assert_int_equal(b.type, DB_INT);
    assert_int_equal(b.i, 42);
    cli_bind_value(&b, "-7");
    assert_int_equal(b.type, DB_INT);
    assert_int_equal(b.i, -7);
    cli_bind_value(&b, "0x1A2B3C4D");
    assert_int_equal(b.type, DB_INT);
    assert_int_equal(b.i, 0x1A2B3C4D);
    cli_bind_value(&b, "1A2B3C4D");
    assert_int_equal(b.type, DB_TEXT);
    cli_bind_value(&b, "Samus");
    assert_int_equal(b.type, DB_TEXT);
    assert_string_equal(b.s, "Samus");
    cli_bind_value(&b, "");
    assert_int_equal(b.type, DB_TEXT);
    cli_bind_value(&b, " 5");
    assert_int_equal(b.type, DB_TEXT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_query_headers),
        cmocka_unit_test(test_id_readings),
        cmocka_unit_test(test_optional_params),
        cmocka_unit_test(test_sql_param_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
