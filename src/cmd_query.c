/* cmd_query.c — `ancsdb query` (named queries compiled in from queries/NAME.sql) and
 * `ancsdb sql` (ad-hoc read-only SQL). Results go through the out_* formats. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "db.h"

/* generated from queries/NAME.sql by cmake/embed_sql.cmake */
extern const char *const ancsdb_embedded_queries[][2];

static const char query_usage[] =
    "usage: ancsdb query [--db FILE] [--format table|csv|json|tsv] NAME [ARG...]\n"
    "       ancsdb query --list [--format ...]\n"
    "\n"
    "Runs the named research query NAME against the database (default corpus.db), binding\n"
    "each ARG as a parameter (never pasted into the SQL). Asset IDs are accepted as\n"
    "0x1A2B3C4D, 1A2B3C4D or decimal; TYPE is a FourCC such as PART. Asset-ID columns print\n"
    "as 8 upper-case hex digits in every format. The database is opened read-only.\n"
    "\n"
    "options:\n"
    "  --db FILE      database file (default corpus.db)\n"
    "  --format FMT   table (default), csv (RFC 4180), json (array of objects) or tsv\n"
    "  --list         list every query with its description and parameters\n"
    "  -h, --help     show this help\n"
    "\n"
    "exit status: 0 ok, 2 usage error (unknown query, wrong arguments), 3 fatal (no\n"
    "             database, SQL failure)\n";

static const char sql_usage[] =
    "usage: ancsdb sql [--db FILE] [--format table|csv|json|tsv] \"SELECT ...\"\n"
    "\n"
    "Runs ad-hoc SQL against the database (default corpus.db), opened read-only: statements\n"
    "that write fail. Integer columns named like asset-ID columns (asset_id, ancs_id,\n"
    "particle_id, ...) print as 8 upper-case hex digits; use printf('%%08X', x) for others.\n"
    "Tables and views: see the schema (`ancsdb sql \"SELECT sql FROM sqlite_master\"`).\n"
    "\n"
    "options:\n"
    "  --db FILE      database file (default corpus.db)\n"
    "  --format FMT   table (default), csv, json or tsv\n"
    "  -h, --help     show this help\n"
    "\n"
    "exit status: 0 ok, 2 usage error, 3 fatal (no database, SQL error, write refused)\n";

typedef struct qsink {
    out_format fmt;
    FILE *f;
    out_table *t;
} qsink;

static void sink_begin(void *ctx, int ncols, const char *const *names)
{
    qsink *s = ctx;
    if (s->t)
        out_finish(s->t);
    s->t = out_begin(s->f, s->fmt, ncols, names);
}

static int sink_row(void *ctx, int ncols, const db_cell *cells)
{
    qsink *s = ctx;
    if (!s->t)
        return 1;
    for (int c = 0; c < ncols; c++) {
        const db_cell *x = &cells[c];
        switch (x->type) {
        case DB_INT:
            out_auto_int(s->t, x->i);
            break;
        case DB_REAL:
            out_real(s->t, x->r);
            break;
        case DB_TEXT:
            out_text(s->t, x->s);
            break;
        case DB_BLOB: {
            char *hex = malloc(x->n * 2 + 3);
            if (!hex) {
                out_null(s->t);
                break;
            }
            strcpy(hex, "x'");
            for (size_t k = 0; k < x->n; k++)
                snprintf(hex + 2 + 2 * k, 3, "%02X", (unsigned char)x->s[k]);
            out_text(s->t, hex);
            free(hex);
            break;
        }
        default:
            out_null(s->t);
        }
    }
    out_row_end(s->t);
    return 0;
}

static void sink_end(void *ctx)
{
    qsink *s = ctx;
    if (s->t)
        out_finish(s->t);
    s->t = NULL;
}

/* Common option parsing; positional arguments are moved to pos[]. Returns -1 on usage
 * error (already reported), 1 when help was printed, 0 otherwise. */
static int parse_common(const char *cmd, const char *usage, int argc, char **argv,
                        const char **dbpath, out_format *fmt, int *list, char **pos, int *npos)
{
    int only_pos = 0;
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v;
        if (only_pos || argv[i][0] != '-' || !argv[i][1]) {
            pos[(*npos)++] = argv[i];
        } else if (!strcmp(argv[i], "--")) {
            only_pos = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 1;
        } else if (list && !strcmp(argv[i], "--list")) {
            *list = 1;
        } else if ((v = cli_opt_value(argc, argv, &i, "--db", &missing)) != NULL) {
            *dbpath = v;
        } else if ((v = cli_opt_value(argc, argv, &i, "--format", &missing)) != NULL) {
            if (out_parse_format(v, fmt)) {
                cli_error("%s: unknown format '%s' (table, csv, json or tsv)", cmd, v);
                return -1;
            }
        } else if (missing) {
            cli_error("%s: %s needs a value", cmd, argv[i]);
            return -1;
        } else {
            cli_error("%s: unknown option '%s'", cmd, argv[i]);
            fputs(usage, stderr);
            return -1;
        }
    }
    return 0;
}

static void print_params(FILE *f, const db_query_info *qi)
{
    if (qi->param_count == 0)
        fputs("  (no parameters)\n", f);
    for (int k = 0; k < qi->param_count; k++)
        fprintf(f, "  %s — %s\n", qi->params[k].name, qi->params[k].meaning);
}

static int list_queries(out_format fmt)
{
    static const char *const names[] = {"name", "description", "params"};
    out_table *t = out_begin(stdout, fmt, 3, names);
    for (size_t i = 0; ancsdb_embedded_queries[i][0]; i++) {
        db_query_info qi;
        util_err e;
        util_err_clear(&e);
        out_text(t, ancsdb_embedded_queries[i][0]);
        if (db_query_parse(&qi, ancsdb_embedded_queries[i][1], &e) != 0) {
            out_text(t, e.msg);
            out_null(t);
        } else {
            char params[DB_QUERY_MAX_PARAMS * 200] = "";
            for (int k = 0; k < qi.param_count; k++) {
                size_t n = strlen(params);
                snprintf(params + n, sizeof params - n, "%s%s (%s)", k ? ", " : "",
                         qi.params[k].name, qi.params[k].meaning);
            }
            out_text(t, qi.description);
            out_text(t, params);
        }
        out_row_end(t);
    }
    out_finish(t);
    return EXIT_OK;
}

int cli_print_sql(struct db *d, FILE *f, out_format fmt, const char *sql, int nbind,
                  const struct db_bind *binds, util_err *err)
{
    qsink s = {fmt, f, NULL};
    db_sink sink = {&s, sink_begin, sink_row, sink_end};
    int rc = db_exec(d, sql, nbind, binds, &sink, err);
    if (s.t)
        out_finish(s.t);
    return rc;
}

static int run_sql(const char *dbpath, out_format fmt, const char *sql, int nbind,
                   const db_bind *binds, const char *what)
{
    db *d = NULL;
    util_err e;
    util_err_clear(&e);
    if (db_open(&d, dbpath, DB_OPEN_READONLY, &e) != 0) {
        cli_error("%s: %s", what, e.msg);
        return EXIT_FATAL;
    }
    int rc = EXIT_OK;
    if (cli_print_sql(d, stdout, fmt, sql, nbind, binds, &e) != 0) {
        cli_error("%s: %s", what, e.msg);
        rc = EXIT_FATAL;
    }
    db_close(d);
    return rc;
}

int cmd_query(int argc, char **argv)
{
    const char *dbpath = "corpus.db";
    out_format fmt = OUT_TABLE;
    int list = 0, npos = 0;
    char **pos = calloc((size_t)argc + 1, sizeof *pos);
    int rc;
    if (!pos) {
        cli_error("query: out of memory");
        return EXIT_FATAL;
    }
    int p = parse_common("query", query_usage, argc, argv, &dbpath, &fmt, &list, pos, &npos);
    if (p != 0) {
        rc = p > 0 ? EXIT_OK : EXIT_USAGE;
        goto done;
    }
    if (list) {
        rc = list_queries(fmt);
        goto done;
    }
    if (npos == 0) {
        cli_error("query: name a query (ancsdb query --list shows them)");
        fputs(query_usage, stderr);
        rc = EXIT_USAGE;
        goto done;
    }
    const char *sql = db_query_lookup(ancsdb_embedded_queries, pos[0]);
    if (!sql) {
        cli_error("query: no query named '%s' (ancsdb query --list shows them)", pos[0]);
        rc = EXIT_USAGE;
        goto done;
    }
    db_query_info qi;
    db_bind binds[DB_QUERY_MAX_PARAMS];
    util_err e;
    util_err_clear(&e);
    if (db_query_parse(&qi, sql, &e) != 0) {
        cli_error("query: %s: %s", pos[0], e.msg);
        rc = EXIT_FATAL;
        goto done;
    }
    if (db_query_binds(binds, &qi, npos - 1, pos + 1, &e) != 0) {
        cli_error("query %s: %s", pos[0], e.msg);
        fprintf(stderr, "usage: ancsdb query %s", pos[0]);
        for (int k = 0; k < qi.param_count; k++)
            fprintf(stderr, qi.params[k].optional ? " [%s]" : " %s", qi.params[k].name);
        fprintf(stderr, "\n%s\nparameters:\n", qi.description);
        print_params(stderr, &qi);
        rc = EXIT_USAGE;
        goto done;
    }
    rc = run_sql(dbpath, fmt, sql, qi.param_count, binds, "query");
done:
    free(pos);
    return rc;
}

int cmd_sql(int argc, char **argv)
{
    const char *dbpath = "corpus.db";
    out_format fmt = OUT_TABLE;
    int npos = 0;
    char **pos = calloc((size_t)argc + 1, sizeof *pos);
    int rc;
    if (!pos) {
        cli_error("sql: out of memory");
        return EXIT_FATAL;
    }
    int p = parse_common("sql", sql_usage, argc, argv, &dbpath, &fmt, NULL, pos, &npos);
    if (p != 0) {
        rc = p > 0 ? EXIT_OK : EXIT_USAGE;
        goto done;
    }
    if (npos != 1) {
        cli_error("sql: give exactly one SQL text (quote it)");
        fputs(sql_usage, stderr);
        rc = EXIT_USAGE;
        goto done;
    }
    rc = run_sql(dbpath, fmt, pos[0], 0, NULL, "sql");
done:
    free(pos);
    return rc;
}
