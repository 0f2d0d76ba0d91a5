/* The option parser every subcommand uses: `--opt VALUE`, `--opt=VALUE`, `-o VALUE`, `-oVALUE`,
 * a missing value and an unknown option as distinct usage errors, `--` and `-`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

enum { O_HELP, O_DB, O_QUIET, O_OUT };
static const cli_option opts[] = {{"help", 'h', 0, O_HELP},
                                  {"db", 0, 1, O_DB},
                                  {"quiet", 'q', 0, O_QUIET},
                                  {"output", 'o', 1, O_OUT},
                                  {0}};

/* Parse argv (NULL-terminated, argv[0] = command) into "id=value;" text. */
static void parse(char *out, size_t n, char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    cli_args a;
    cli_args_init(&a, "test", argc, argv);
    out[0] = 0;
    int k;
    while ((k = cli_next(&a, opts)) != CLI_END) {
        size_t len = strlen(out);
        if (k == CLI_ERR) {
            snprintf(out + len, n - len, "ERR;");
            return;
        }
        snprintf(out + len, n - len, "%d=%s;", k, a.value ? a.value : "");
    }
}

#define P(expect, ...)                                                                             \
    do {                                                                                           \
        char *argv[] = {"test", __VA_ARGS__, NULL};                                                \
        char got[256];                                                                             \
        parse(got, sizeof got, argv);                                                              \
        assert_string_equal(got, expect);                                                          \
    } while (0)

static void test_forms(void **state)
{
    (void)state;
    P("1=x.db;", "--db", "x.db");
    P("1=x.db;", "--db=x.db");
    P("1=;", "--db=");
    P("3=d;", "-o", "d");
    P("3=d;", "-od");
    P("3=d;", "--output=d");
    P("2=;-2=a;", "--quiet", "a");
    P("2=;-2=a;", "-q", "a");
    P("-2=a;1=b;-2=c;", "a", "--db", "b", "c");
    P("-2=--db;-2=-q;", "--", "--db", "-q");
    P("-2=-;", "-");
    P("0=;", "--help");
    P("0=;", "-h");
}

static void test_errors(void **state)
{
    (void)state;
    P("ERR;", "--db");            /* missing value */
    P("ERR;", "--db", "--quiet"); /* a long option is not a value */
    P("ERR;", "-o");
    P("ERR;", "--bogus");
    P("ERR;", "--quiet=1"); /* a flag takes no value */
    P("ERR;", "-x");
    P("ERR;", "-qq");
    P("ERR;", "--d", "x"); /* no abbreviations */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forms),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
