/* The one string policy: JSON strings are always valid UTF-8 (expected bytes from RFC 8259
 * and the UTF-8 definition of RFC 3629), table text is terminal-safe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

static char *json_of(const char *s, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    cli_json_string(f, s, n);
    fclose(f);
    return buf;
}

#define J(in, expect)                                                                              \
    do {                                                                                           \
        char *got = json_of(in, sizeof(in) - 1);                                                   \
        assert_string_equal(got, expect);                                                          \
        free(got);                                                                                 \
    } while (0)

static void test_json(void **state)
{
    (void)state;
    J("abc", "\"abc\"");
    J("a\"b\\c", "\"a\\\"b\\\\c\"");
    J("\n\r\t", "\"\\n\\r\\t\"");
    J("\x01\x1b[2J", "\"\\u0001\\u001b[2J\"");
    J("\x7f", "\"\\u007f\"");
    J("caf\xc3\xa9", "\"caf\xc3\xa9\"");   /* UTF-8 e-acute passes through */
    J("\xe2\x82\xac", "\"\xe2\x82\xac\""); /* euro sign */
    J("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"");
    /* a byte XX that is not UTF-8 as the lone surrogate U+DCXX: never the same escape as a
     * valid character */
    J("caf\xe9", "\"caf\\udce9\"");                 /* Latin-1 byte: not UTF-8 */
    J("\xc3", "\"\\udcc3\"");                       /* truncated sequence */
    J("\xc0\xaf", "\"\\udcc0\\udcaf\"");            /* overlong */
    J("\xed\xa0\x80", "\"\\udced\\udca0\\udc80\""); /* surrogate */
    J("\xc2\x85", "\"\\u0085\"");                   /* C1 control (valid UTF-8) escaped */
    /* issue 20 item 9: a valid U+009B and an invalid byte 0x9B print differently */
    J("\xc2\x9b", "\"\\u009b\"");
    J("\x9b", "\"\\udc9b\"");
    J("\xc2\x9d\x9d", "\"\\u009d\\udc9d\"");
    J("\xe2\x80\xae", "\"\\u202e\"");               /* right-to-left override */
    J("a\0b", "\"a\\u0000b\"");
}

#define T(in, expect)                                                                              \
    do {                                                                                           \
        char *got = cli_term_escape(in, sizeof(in) - 1);                                           \
        assert_non_null(got);                                                                      \
        assert_string_equal(got, expect);                                                          \
        free(got);                                                                                 \
    } while (0)

static void test_terminal(void **state)
{
    (void)state;
    T("plain", "plain");
    T("\x1b[2J", "\\x1b[2J");
    T("a\nb\tc\rd", "a\\nb\\tc\\rd");
    T("caf\xc3\xa9", "caf\xc3\xa9");
    T("caf\xe9", "caf\\xe9");
    T("\x7f\xc2\x9b", "\\x7f\\x9b");
    T("\xe2\x80\xae", "\\u202e");
    /* invisible format characters: zero-width space, right-to-left mark, BOM */
    T("a\xe2\x80\x8b" "b\xe2\x80\x8f" "c\xef\xbb\xbf", "a\\u200bb\\u200fc\\ufeff");
    T("\xe2\x80\x8a", "\xe2\x80\x8a"); /* U+200A hair space is visible: kept */
    assert_int_equal(cli_text_width("caf\xc3\xa9"), 4);
    /* display width: CJK characters take two cells, combining marks none */
    assert_int_equal(cli_text_width("\xe6\x97\xa5\xe6\x9c\xac"), 4); /* 日本 */
    assert_int_equal(cli_text_width("e\xcc\x81"), 1);                /* e + U+0301 */
    assert_int_equal(cli_text_width("\xef\xbc\xa1x"), 3);            /* fullwidth A */
    size_t used = 0;
    assert_int_equal(cli_text_fit("\xe6\x97\xa5\xe6\x9c\xac", 3, &used), 3); /* one of two */
    assert_int_equal(used, 2);
    assert_int_equal(cli_text_fit("abc", 5, &used), 3);
    assert_int_equal(used, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_terminal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
