/* cmd_query.c — `ancsdb query`: the named queries compiled in from queries/NAME.sql, and
 * cli_print_sql, which prints any SQL result through the out_* formats. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "db.h"

/* generated from queries/NAME.sql by cmake/embed_sql.cmake */
extern const char *const ancsdb_embedded_queries[][2];

static const char query_usage[] =
    "usage: ancsdb query [--db FILE] [--release LABEL[,LABEL...]] [--format table|csv|json|tsv]\n"
    "                    [--all-paths] [--wide] NAME [ARG...]\n"
    "       ancsdb query [--format ...] --list\n"
    "\n"
    "Runs the named research query NAME against the database (default corpus.db), binding\n"
    "each ARG as a parameter (never pasted into the SQL); `ancsdb query --list` shows every\n"
    "query with its parameters ([ARG] = may be left out). Asset IDs are accepted as\n"
    "0x1A2B3C4D or up to 8 hex digits (1A2B3C4D: always hex), or as 9 or 10 decimal digits\n"
    "(439041101), or as the asset's name (a name map's or PAK's name, with or without its\n"
    "directory, ASCII case ignored; a name of several assets lists them and exits 2); when\n"
    "an ID is in no PAK but its other reading is an asset, or is of another type than the\n"
    "one asked for, the query says so on stderr.\n"
    "TYPE is a FourCC such as PART. Asset-ID columns print as 8 upper-case hex digits in\n"
    "every format. The database is opened read-only. Ctrl-C stops a running query.\n"
    "\n"
    "options:\n"
    "  --db FILE      database file (default corpus.db)\n"
    "  --release LABEL[,LABEL...]  look at these releases only (releases.label, e.g.\n"
    "                 GM8E01_00 or GM8E01_00,G2ME01_00; every release when absent)\n"
    "  --format FMT   table (default), csv (RFC 4180), json (array of objects) or tsv\n"
    "  --list         list every query with its description and parameters\n"
    "  --all-paths    deps: one row per path (way) a character reaches an asset, not per\n"
    "                 asset (every row keeps the asset's `paths` count)\n"
    "  --wide         table format: print every character; on a terminal a table is\n"
    "                 otherwise fitted to its width (the widest text cells cut with "
    "'\xe2\x80\xa6')\n"
    "  -h, --help     show this help\n"
    "\n"
    "exit status: 0 ok, 2 usage error (unknown query, wrong arguments), 3 fatal (no\n"
    "             database, SQL failure), 130 interrupted\n";

/* ---- printing a result ----------------------------------------------------------------- */

typedef struct qsink {
    out_format fmt;
    FILE *f;
    out_table *t;
    int id_rule;
    int ncols;
    unsigned char *is_id; /* per column: integers are asset IDs */
    const char *const *names;
    long rows;
    int failed; /* out of memory or write error in out_finish */
} qsink;

static void sink_flush(qsink *s)
{
    if (s->t) {
        long n = out_finish(s->t);
        if (n < 0)
            s->failed = 1;
        else
            s->rows += n;
    }
    s->t = NULL;
}

static void sink_begin(void *ctx, int ncols, const char *const *names)
{
    qsink *s = ctx;
    sink_flush(s);
    free(s->is_id);
    s->is_id = calloc((size_t)(ncols > 0 ? ncols : 1), 1);
    s->ncols = ncols;
    s->names = names;
    if (!s->is_id)
        s->failed = 1;
    s->t = out_begin(s->f, s->fmt, ncols, names);
}

/* The column's meaning: the table column it is read from; for a computed column its name
 * (named queries only). */
static void sink_origin(void *ctx, int col, const char *table, const char *column)
{
    qsink *s = ctx;
    if (!s->is_id || col < 0 || col >= s->ncols)
        return;
    if (table && column)
        s->is_id[col] = (unsigned char)out_is_asset_column(column);
    else
        s->is_id[col] = s->id_rule == ID_BY_NAME && out_is_asset_column(s->names[col]);
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
            if (s->is_id && c < s->ncols && s->is_id[c] && x->i >= 0 && x->i <= 0xFFFFFFFFll)
                out_id(s->t, (uint32_t)x->i);
            else
                out_int(s->t, x->i);
            break;
        case DB_REAL:
            out_real(s->t, x->r);
            break;
        case DB_TEXT:
            out_textn(s->t, x->s, x->n);
            break;
        case DB_BLOB:
            out_blob(s->t, x->s, x->n);
            break;
        default:
            out_null(s->t);
        }
    }
    out_row_end(s->t);
    return 0;
}

static void sink_end(void *ctx)
{
    sink_flush(ctx);
}

int cli_print_sql(struct db *d, FILE *f, out_format fmt, int id_rule, const char *sql, int nbind,
                  const struct db_bind *binds, const struct db_exec_opts *o, long *rows,
                  util_err *err)
{
    qsink s = {.fmt = fmt, .f = f, .id_rule = id_rule};
    db_sink sink = {&s, sink_begin, sink_row, sink_end};
    db_exec_opts eo = {0};
    if (o)
        eo = *o;
    eo.origin = sink_origin;
    int rc = db_exec_ex(d, sql, nbind, binds, &eo, &sink, err);
    sink_flush(&s);
    free(s.is_id);
    if (rows)
        *rows = s.rows;
    if (rc == 0 && (s.failed || fflush(f) != 0))
        rc = util_fail(err, UTIL_EIO, UINT64_MAX, "cannot write the output");
    return rc;
}

/* ---- ancsdb query ------------------------------------------------------------------------ */

static void print_params(FILE *f, const cli_query_info *qi)
{
    if (qi->param_count == 0)
        fputs("  (no parameters)\n", f);
    for (int k = 0; k < qi->param_count; k++)
        fprintf(f, "  %s%s — %s\n", qi->params[k].name, qi->params[k].optional ? " (optional)" : "",
                qi->params[k].meaning);
}

static int list_queries(out_format fmt)
{
    static const char *const names[] = {"name", "description", "params"};
    out_table *t = out_begin(stdout, fmt, 3, names);
    if (!t)
        return EXIT_FATAL;
    for (size_t i = 0; ancsdb_embedded_queries[i][0]; i++) {
        cli_query_info qi;
        util_err e;
        util_err_clear(&e);
        out_text(t, ancsdb_embedded_queries[i][0]);
        if (cli_query_parse(&qi, ancsdb_embedded_queries[i][1], &e) != 0) {
            out_text(t, e.msg);
            out_null(t);
        } else {
            char params[CLI_QUERY_MAX_PARAMS * 200] = "";
            for (int k = 0; k < qi.param_count; k++) {
                size_t n = strlen(params);
                snprintf(params + n, sizeof params - n, "%s%s%s%s (%s)", k ? ", " : "",
                         qi.params[k].optional ? "[" : "", qi.params[k].name,
                         qi.params[k].optional ? "]" : "", qi.params[k].meaning);
            }
            out_text(t, qi.description);
            out_text(t, params);
        }
        out_row_end(t);
    }
    return out_finish(t) < 0 || fflush(stdout) != 0 ? EXIT_FATAL : EXIT_OK;
}

static void query_usage_of(const char *name, const cli_query_info *qi)
{
    fprintf(stderr, "usage: ancsdb query %s", name);
    for (int k = 0; k < qi->param_count; k++)
        fprintf(stderr, qi->params[k].optional ? " [%s]" : " %s", qi->params[k].name);
    fprintf(stderr, "\n%s\nparameters:\n", qi->description);
    print_params(stderr, qi);
}

/* The exit status of a failed cli_print_sql, after saying why. */
static int sql_failure(const char *what, const util_err *e)
{
    if (e->code == DB_EINTR) {
        cli_error("%s: interrupted", what);
        return EXIT_INTERRUPTED;
    }
    cli_error("%s: %s", what, e->msg);
    return e->code == DB_EPARAM ? EXIT_USAGE : EXIT_FATAL;
}

int cmd_query(int argc, char **argv)
{
    enum { O_HELP, O_DB, O_FORMAT, O_LIST, O_RELEASE, O_ALL_PATHS, O_WIDE };
    static const cli_option opts[] = {
        {"help", 'h', 0, O_HELP},     {"db", 0, 1, O_DB},
        {"format", 0, 1, O_FORMAT},   {"list", 0, 0, O_LIST},
        {"release", 0, 1, O_RELEASE}, {"all-paths", 0, 0, O_ALL_PATHS},
        {"wide", 0, 0, O_WIDE},       {0}};
    const char *release = NULL;
    int all_paths = 0;
    const char *dbpath = "corpus.db";
    out_format fmt = OUT_TABLE;
    int list = 0, npos = 0, rc = EXIT_OK, k;
    char **pos = calloc((size_t)argc + 1, sizeof *pos);
    db *d = NULL;
    cli_args a;
    if (!pos) {
        cli_error("query: out of memory");
        return EXIT_FATAL;
    }
    cli_args_init(&a, "query", argc, argv);
    /* options may come before or after NAME; after NAME, `--` ends them as usual */
    while ((k = cli_next(&a, opts)) != CLI_END) {
        switch (k) {
        case CLI_ERR:
            rc = EXIT_USAGE;
            goto done;
        case O_HELP:
            fputs(query_usage, stdout);
            goto done;
        case O_DB:
            dbpath = a.value;
            break;
        case O_FORMAT:
            if (out_parse_format(a.value, &fmt)) {
                cli_error("query: unknown format '%s' (table, csv, json or tsv)", a.value);
                rc = EXIT_USAGE;
                goto done;
            }
            break;
        case O_LIST:
            list = 1;
            break;
        case O_RELEASE:
            release = a.value;
            break;
        case O_ALL_PATHS:
            all_paths = 1;
            break;
        case O_WIDE:
            out_set_wide(1);
            break;
        default:
            pos[npos++] = (char *)a.value;
        }
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
    const char *name = pos[0], *sql = cli_query_lookup(ancsdb_embedded_queries, name);
    if (!sql) {
        cli_error("query: no query named '%s' (ancsdb query --list shows them)", name);
        rc = EXIT_USAGE;
        goto done;
    }
    cli_query_info qi;
    db_bind binds[CLI_QUERY_MAX_PARAMS];
    util_err e;
    util_err_clear(&e);
    if (cli_query_parse(&qi, sql, &e) != 0) {
        cli_error("query %s: %s", name, e.msg);
        rc = EXIT_FATAL;
        goto done;
    }
    if (cli_query_binds_names(binds, &qi, npos - 1, pos + 1, &e) != 0) {
        cli_error("query %s: %s", name, e.msg);
        query_usage_of(name, &qi);
        rc = EXIT_USAGE;
        goto done;
    }
    /* --all-paths: the queries that offer it test for the TEMP view opt_all_paths */
    int takes_all_paths = strstr(sql, "'opt_all_paths'") != NULL;
    if (all_paths && !takes_all_paths) {
        cli_error("query %s: takes no --all-paths (deps does)", name);
        rc = EXIT_USAGE;
        goto done;
    }
    if ((rc = cli_open_db(&d, "query", dbpath, DB_OPEN_READONLY, release, &e)) != EXIT_OK)
        goto done;
    if (all_paths && db_scope_flag(d, "opt_all_paths", &e) != 0) {
        cli_error("query: %s", e.msg);
        rc = EXIT_FATAL;
        goto done;
    }
    /* asset names given where an ID is asked become the ID */
    if ((rc = cli_query_resolve_names(d, binds, &qi, npos - 1, pos + 1, name)) != EXIT_OK)
        goto done;
    static volatile sig_atomic_t stop;
    cli_catch_sigint(&stop);
    db_exec_opts eo = {.stop = &stop};
    long rows = 0;
    char what[160];
    snprintf(what, sizeof what, "query %s", name);
    if (cli_print_sql(d, stdout, fmt, ID_BY_NAME, sql, qi.param_count, binds, &eo, &rows, &e))
        rc = sql_failure(what, &e);
    else if (rows == 0) {
        cli_query_explain_empty(d, name, &qi, npos - 1, pos + 1);
        cli_query_explain_char(d, name, &qi, binds, npos - 1);
        cli_query_explain_layer(d, name, &qi, binds, npos - 1);
    }
done:
    db_close(d);
    free(pos);
    return rc;
}

/* ---- ancsdb sql --------------------------------------------------------------------------- */

static const char sql_usage[] =
    "usage: ancsdb sql [--db FILE] [--release LABEL] [--format table|csv|json|tsv]\n"
    "                  [--param [NAME=]VALUE]... \"SELECT ...\"\n"
    "\n"
    "Runs ad-hoc SQL against the database (default corpus.db), opened read-only: statements\n"
    "that write fail. Integer columns read straight from an asset-ID column of a table\n"
    "(asset_id, ancs_id, particle_id, ...) print as 8 upper-case hex digits; computed ones\n"
    "print as numbers (use printf('%08X', x) to see one in hex). The v_ views print IDs as\n"
    "hex text. Ctrl-C stops a running statement.\n"
    "\n"
    "Parameters are bound, never pasted into the SQL: --param NAME=VALUE binds :NAME, @NAME\n"
    "or $NAME; --param VALUE binds the next positional parameter (?1, ?2, ... or ?). A VALUE\n"
    "that is a decimal integer or 0x-hex binds as an INTEGER, anything else as TEXT. A\n"
    "parameter of the SQL without a value is an error, never NULL.\n"
    "\n"
    "examples (each runs as written):\n"
    "  ancsdb sql --param name=Samus \"SELECT game, ancs_id, char_index FROM characters WHERE name "
    "= :name\"\n"
    "  ancsdb sql --param 0x1A2B3C4D \"SELECT game, path, type FROM v_pak_entries WHERE asset = "
    "printf('%08X', ?1)\"\n"
    "  ancsdb sql \"SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY "
    "name\"\n"
    "\n"
    "options:\n"
    "  --db FILE            database file (default corpus.db)\n"
    "  --release LABEL[,LABEL...]  look at these releases only: the tables and v_ views\n"
    "                       hold their rows (releases.label, e.g. GM8E01_00 or\n"
    "                       GM8E01_00,G2ME01_00; every release when absent)\n"
    "  --format FMT         table (default), csv, json or tsv\n"
    "  --param [NAME=]VALUE bind a parameter (repeatable)\n"
    "  --wide               table format on a terminal: every character, not fitted to its\n"
    "                       width\n"
    "  -h, --help           show this help\n"
    "\n"
    "exit status: 0 ok, 2 usage error (also: a parameter without a value, --param NAME\n"
    "             that the SQL does not use, or an unknown release), 3 fatal (no database, SQL "
    "error, write\n"
    "             refused), 130 interrupted\n";

/* NAME of --param NAME=VALUE: a letter or '_' then letters, digits and '_'. */
static size_t param_name_len(const char *s)
{
    size_t n = 0;
    if (!((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
        return 0;
    while ((s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= 'a' && s[n] <= 'z') ||
           (s[n] >= '0' && s[n] <= '9') || s[n] == '_')
        n++;
    return s[n] == '=' ? n : 0;
}

int cmd_sql(int argc, char **argv)
{
    enum { O_HELP, O_DB, O_FORMAT, O_PARAM, O_RELEASE, O_WIDE };
    static const cli_option opts[] = {{"help", 'h', 0, O_HELP},
                                      {"db", 0, 1, O_DB},
                                      {"release", 0, 1, O_RELEASE},
                                      {"format", 0, 1, O_FORMAT},
                                      {"param", 0, 1, O_PARAM},
                                      {"wide", 0, 0, O_WIDE},
                                      {0}};
    const char *dbpath = "corpus.db", *sql = NULL, *release = NULL;
    out_format fmt = OUT_TABLE;
    int rc = EXIT_OK, k, npos = 0, nnamed = 0;
    size_t n = (size_t)argc + 1;
    db_bind *pos = calloc(n, sizeof *pos), *named = calloc(n, sizeof *named);
    char **names = calloc(n, sizeof *names);
    db *d = NULL;
    cli_args a;
    if (!pos || !named || !names) {
        cli_error("sql: out of memory");
        rc = EXIT_FATAL;
        goto done;
    }
    cli_args_init(&a, "sql", argc, argv);
    while ((k = cli_next(&a, opts)) != CLI_END) {
        switch (k) {
        case CLI_ERR:
            rc = EXIT_USAGE;
            goto done;
        case O_HELP:
            fputs(sql_usage, stdout);
            goto done;
        case O_DB:
            dbpath = a.value;
            break;
        case O_RELEASE:
            release = a.value;
            break;
        case O_WIDE:
            out_set_wide(1);
            break;
        case O_FORMAT:
            if (out_parse_format(a.value, &fmt)) {
                cli_error("sql: unknown format '%s' (table, csv, json or tsv)", a.value);
                rc = EXIT_USAGE;
                goto done;
            }
            break;
        case O_PARAM: {
            size_t nl = param_name_len(a.value);
            if (nl) {
                if (!(names[nnamed] = malloc(nl + 1))) {
                    cli_error("sql: out of memory");
                    rc = EXIT_FATAL;
                    goto done;
                }
                memcpy(names[nnamed], a.value, nl);
                names[nnamed][nl] = '\0';
                for (int j = 0; j < nnamed; j++)
                    if (!strcmp(names[j], names[nnamed])) {
                        cli_error("sql: --param %s given twice", names[j]);
                        nnamed++;
                        rc = EXIT_USAGE;
                        goto done;
                    }
                cli_bind_value(&named[nnamed++], a.value + nl + 1);
            } else {
                cli_bind_value(&pos[npos++], a.value);
            }
            break;
        }
        default:
            if (sql) {
                cli_error("sql: give exactly one SQL text (quote it)");
                rc = EXIT_USAGE;
                goto done;
            }
            sql = a.value;
        }
    }
    if (!sql) {
        cli_error("sql: give one SQL text (quote it)");
        fputs(sql_usage, stderr);
        rc = EXIT_USAGE;
        goto done;
    }
    util_err e;
    util_err_clear(&e);
    if ((rc = cli_open_db(&d, "sql", dbpath, DB_OPEN_READONLY, release, &e)) != EXIT_OK)
        goto done;
    static volatile sig_atomic_t stop;
    cli_catch_sigint(&stop);
    db_exec_opts eo = {.nnamed = nnamed,
                       .names = (const char *const *)names,
                       .values = named,
                       .exact = 1,
                       .stop = &stop};
    if (cli_print_sql(d, stdout, fmt, ID_BY_ORIGIN, sql, npos, pos, &eo, NULL, &e))
        rc = sql_failure("sql", &e);
done:
    db_close(d);
    for (int j = 0; names && j < nnamed; j++)
        free(names[j]);
    free(names);
    free(pos);
    free(named);
    return rc;
}
