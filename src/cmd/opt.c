/* opt.c — what every subcommand shares (see cli.h): the one option parser (a table of
 * options, each accepted as `--name VALUE`, `--name=VALUE` and, when it has one, `-x VALUE` /
 * `-xVALUE`), error lines, and the Ctrl-C flag. */
#include <signal.h>
#include <stdarg.h>
#include <string.h>

#include "cli.h"
#include "db.h"

void cli_error(const char *fmt, ...)
{
    va_list ap;
    fputs("ancsdb: ", stderr);
    va_start(ap, fmt);
    util_text_vprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static volatile sig_atomic_t *sigint_flag;

static void on_sigint(int sig)
{
    (void)sig;
    if (sigint_flag)
        *sigint_flag = 1;
}

int cli_open_db(db **out, const char *cmd, const char *dbpath, int mode, const char *release,
                util_err *e)
{
    *out = NULL;
    db *d = NULL;
    if (db_open(&d, dbpath, mode, e) != 0) {
        cli_error("%s: %s", cmd, e->msg);
        return EXIT_FATAL;
    }
    if (mode == DB_OPEN_READONLY && db_final_pass_pending(d))
        cli_say(stderr,
                "%s: note: an ingest into %s has not finished its final pass (it is running, "
                "or it stopped): the assets, census, reach and world references may be behind "
                "the PAKs until 'ancsdb ingest' of the same paths ends\n",
                cmd, dbpath);
    /* --release: TEMP views named like the tables show that release only */
    if (release && db_scope_release(d, release, e) != 0) {
        cli_error("%s: %s", cmd, e->msg);
        db_close(d);
        return e->code == DB_ENORELEASE ? EXIT_USAGE : EXIT_FATAL;
    }
    *out = d;
    return EXIT_OK;
}

void cli_catch_sigint(volatile sig_atomic_t *flag)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigint_flag = flag;
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_RESETHAND; /* a second Ctrl-C ends the process at once */
    sigaction(SIGINT, &sa, NULL);
}

void cli_args_init(cli_args *a, const char *cmd, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->argc = argc;
    a->argv = argv;
    a->i = 1;
}

static const cli_option *find_long(const cli_option *opts, const char *name, size_t n)
{
    for (const cli_option *o = opts; o->name || o->short_name; o++)
        if (o->name && strlen(o->name) == n && !strncmp(o->name, name, n))
            return o;
    return NULL;
}

static const cli_option *find_short(const cli_option *opts, char c)
{
    for (const cli_option *o = opts; o->name || o->short_name; o++)
        if (o->short_name == c)
            return o;
    return NULL;
}

/* The value following option argv[i - 1]: the next argument, unless there is none or it is
 * itself a long option (`--db --quiet` is a missing value, not a file named --quiet). */
static int take_next(cli_args *a)
{
    if (a->i >= a->argc)
        return -1;
    const char *v = a->argv[a->i];
    if (v[0] == '-' && v[1] == '-' && v[2] != '\0')
        return -1;
    a->value = v;
    a->i++;
    return 0;
}

int cli_next(cli_args *a, const cli_option *opts)
{
    a->value = NULL;
    a->opt = NULL;
    if (a->i >= a->argc)
        return CLI_END;
    char *arg = a->argv[a->i++];
    /* a negative number (`area-deps AREA -1`) is an argument, not an option */
    int negative = arg[0] == '-' && arg[1] >= '0' && arg[1] <= '9' && !find_short(opts, arg[1]);
    if (a->only_pos || arg[0] != '-' || arg[1] == '\0' || negative) {
        a->value = arg;
        return CLI_POS;
    }
    if (!strcmp(arg, "--")) {
        a->only_pos = 1;
        return cli_next(a, opts);
    }
    a->opt = arg;
    const cli_option *o;
    const char *inline_value = NULL;
    if (arg[1] == '-') {
        const char *name = arg + 2, *eq = strchr(name, '=');
        size_t n = eq ? (size_t)(eq - name) : strlen(name);
        o = find_long(opts, name, n);
        if (!o) {
            cli_error("%s: unknown option '%.*s' ('ancsdb %s --help' lists the options)", a->cmd,
                      (int)(n + 2), arg, a->cmd);
            return CLI_ERR;
        }
        if (eq) {
            inline_value = eq + 1;
            if (!o->takes_value) {
                cli_error("%s: --%s takes no value", a->cmd, o->name);
                return CLI_ERR;
            }
        }
    } else {
        o = find_short(opts, arg[1]);
        if (!o) {
            cli_error("%s: unknown option '-%c' ('ancsdb %s --help' lists the options)", a->cmd,
                      arg[1], a->cmd);
            return CLI_ERR;
        }
        if (arg[2] != '\0') {
            if (!o->takes_value) {
                cli_error("%s: unknown option '%s' ('ancsdb %s --help' lists the options)", a->cmd,
                          arg, a->cmd);
                return CLI_ERR;
            }
            inline_value = arg + 2;
        }
    }
    if (o->takes_value) {
        if (inline_value)
            a->value = inline_value;
        else if (take_next(a) != 0) {
            if (arg[1] == '-')
                cli_error("%s: --%s needs a value", a->cmd, o->name);
            else
                cli_error("%s: -%c needs a value", a->cmd, o->short_name);
            return CLI_ERR;
        }
    }
    return o->id;
}
