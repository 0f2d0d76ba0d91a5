/* cli.h — the ancsdb command line: subcommands, exit codes, options, output formats. */
#ifndef ANCSDB_CLI_H
#define ANCSDB_CLI_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

/* Exit status (CONTRACT.md); 130 when Ctrl-C stopped the command (128 + SIGINT). */
enum { EXIT_OK = 0, EXIT_PARTIAL = 1, EXIT_USAGE = 2, EXIT_FATAL = 3, EXIT_INTERRUPTED = 130 };

/* Each subcommand gets argv with argv[0] = its own name ("pak", "ingest", ...). */
int cmd_pak(int argc, char **argv);
int cmd_ancs(int argc, char **argv);
int cmd_disc(int argc, char **argv);
int cmd_ingest(int argc, char **argv);
/* db_ingest_opts.progress for a terminal: a bar on the FILE * ctx (stderr). */
void cli_ingest_progress(void *ctx, size_t done, size_t total, const char *path);
/* db_ingest_opts.log: the line, made terminal-safe, and a newline on the FILE * ctx. */
void cli_ingest_log(void *ctx, const char *line);
int cmd_query(int argc, char **argv);
int cmd_sql(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_graph(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_names(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* A subcommand's entry (cmd_ingest, cmd_names, ...), as main dispatches to it. */
typedef int (*cli_command_fn)(int argc, char **argv);

/* Print "ancsdb: <msg>\n" to stderr, msg made terminal-safe (cli_say). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- options (opt.c) -------------------------------------------------------------------
 * Every subcommand lists its options in a table ending with {0}; each is accepted as
 * `--name VALUE`, `--name=VALUE` and, with a short name, `-x VALUE` and `-xVALUE`. `--` ends
 * the options; `-` alone is a positional argument. A value may not start with `--` (so that
 * `--db --quiet` is reported as a missing value). */
typedef struct cli_option {
    const char *name; /* long name without the dashes, or NULL */
    char short_name;  /* or 0 */
    int takes_value;
    int id; /* >= 0: what cli_next returns for it */
} cli_option;

typedef struct cli_args {
    const char *cmd; /* "pak list": names the command in messages */
    int argc;
    char **argv;
    int i;             /* next argument */
    int only_pos;      /* after "--" */
    const char *value; /* the option's value, or the positional argument */
    const char *opt;   /* the option as written */
} cli_args;

enum { CLI_END = -1, CLI_POS = -2, CLI_ERR = -3 };

/* Start at argv[1]. */
void cli_args_init(cli_args *a, const char *cmd, int argc, char **argv);
/* The next option's id (a->value holds its value), CLI_POS (a->value is the argument),
 * CLI_END, or CLI_ERR after printing "ancsdb: CMD: --x needs a value" or "unknown option":
 * the caller exits with EXIT_USAGE. */
int cli_next(cli_args *a, const cli_option *opts);

/* ---- the database (opt.c) -------------------------------------------------------------
 * The one way a reading command opens the database: dbpath in mode (DB_OPEN_READONLY or
 * DB_OPEN_READWRITE), then --release LABEL (NULL: every release) as TEMP views. EXIT_OK with
 * *out set; else "ancsdb: CMD: why" printed, *out NULL, e holding the error, and EXIT_USAGE
 * for a release the database does not hold, EXIT_FATAL otherwise. */
struct db;
int cli_open_db(struct db **out, const char *cmd, const char *dbpath, int mode, const char *release,
                util_err *e);

/* ---- Ctrl-C (opt.c) --------------------------------------------------------------------
 * Install a SIGINT handler that sets *flag (once: a second Ctrl-C kills as usual). */
void cli_catch_sigint(volatile sig_atomic_t *flag);

/* ---- strings we print (textout.c) ------------------------------------------------------
 * JSON: s[0..n) as a JSON string literal that is always valid UTF-8. Well-formed UTF-8 passes
 * through; `"` `\` and \n \r \t are escaped as such; other control characters (C0, DEL, C1:
 * \u0000-\u001f, \u007f-\u009f), U+2028/U+2029 and the bidirectional controls as \uXXXX;
 * each byte XX that is not part of well-formed UTF-8 (always >= 0x80) as the lone surrogate
 * \udcXX (U+DC80-U+DCFF, which well-formed UTF-8 cannot hold), so a valid U+009B (\u009b) and
 * an invalid byte 0x9B (\udc9b) differ and the original bytes can be recovered. */
void cli_json_string(FILE *f, const char *s, size_t n);
void cli_json_cstr(FILE *f, const char *s);
/* Terminal-safe text by the one policy (util_text_safe): control characters shown as \n \r
 * \t, \xNN or \uXXXX, bytes that are not UTF-8 as \xNN. owned: caller frees; NULL when out
 * of memory. */
char *cli_term_escape(const char *s, size_t n);
/* printf to f (stdout or stderr) of a line holding data (names, paths): the whole text goes
 * through the same policy; a final '\n' stays a line end. Every message is printed by this
 * or cli_error. */
void cli_say(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Terminal cells UTF-8 text takes, for aligning columns: display width as wcwidth counts it
 * (CJK and other wide characters 2 cells, combining marks 0, others 1). */
size_t cli_text_width(const char *s);
/* Bytes of s's longest prefix of whole characters that fits in `cells` terminal cells;
 * *used (may be NULL): the cells that prefix takes. */
size_t cli_text_fit(const char *s, size_t cells, size_t *used);

/* ---- output formats (output.c) -------------------------------------------------------- */

typedef enum { OUT_TABLE = 0, OUT_CSV, OUT_JSON, OUT_TSV } out_format;

/* Parse "table", "csv", "json", "tsv"; 0 on success. */
int out_parse_format(const char *s, out_format *out);

/* The one list of column names that hold asset IDs (asset_id, ancs_id, model_id, ...). */
int out_is_asset_column(const char *name);

typedef struct out_table out_table;

/* `table` output fits a terminal's width (the widest text columns cut with an ellipsis) when
 * f is a terminal, unless out_set_wide(1) was called (--wide); a pipe or file gets every
 * character. The width is the terminal's (TIOCGWINSZ), else $COLUMNS, else 80. */
void out_set_wide(int wide);

/* Begin a result of ncols named columns written to f. owned: out_finish frees it. */
out_table *out_begin(FILE *f, out_format fmt, int ncols, const char *const *names);
void out_null(out_table *t);
void out_text(out_table *t, const char *s);
/* Text of n bytes that may hold NULs or bytes that are not UTF-8. */
void out_textn(out_table *t, const char *s, size_t n);
/* A BLOB: x'0A1B...' (an SQL literal) in every format. */
void out_blob(out_table *t, const void *p, size_t n);
void out_int(out_table *t, int64_t v);
void out_real(out_table *t, double v);
/* An asset ID: 8 upper-case hex digits in every format. */
void out_id(out_table *t, uint32_t v);
/* End the current row (every column must have been given). */
void out_row_end(out_table *t);
/* Flush (tables are aligned once every row is known) and free. Returns rows written. */
long out_finish(out_table *t);

/* ---- SQL results through the output formats (cmd_query.c) ------------------------ */

struct db;
struct db_bind;
struct db_exec_opts;

/* How cli_print_sql decides that an integer column is an asset ID (printed as 8 hex digits):
 * by the table column it is read from (sqlite3 column origin) being in out_is_asset_column's
 * list; for a computed column, ID_BY_NAME also accepts its name (named queries, whose column
 * names follow the tables'), ID_BY_ORIGIN does not (ad-hoc SQL). */
enum { ID_BY_ORIGIN = 0, ID_BY_NAME = 1 };

/* Run every statement of sql on d with binds as ?1..?n (and what o adds: named parameters,
 * the stop flag) and print each result set to f in fmt. *rows (may be NULL): rows printed.
 * 0, or the db_exec_ex error (err filled). */
int cli_print_sql(struct db *d, FILE *f, out_format fmt, int id_rule, const char *sql, int nbind,
                  const struct db_bind *binds, const struct db_exec_opts *o, long *rows,
                  util_err *err);

/* ---- named queries (query_args.c) -------------------------------------------------------
 * queries/NAME.sql opens with a comment block: first line the description, then one
 * `-- param: NAME — meaning` line per parameter in bind order (?1, ?2, ...). A name in
 * brackets or followed by `?` (`-- param: [FIELD_PATTERN] — ...`, `-- param: CHAR_INDEX? — ...`)
 * is optional: it may be left out (binding NULL); optional parameters come last. */
#define CLI_QUERY_MAX_PARAMS 8

typedef struct cli_query_info {
    char description[200];
    int param_count; /* all parameters */
    int required;    /* the first `required` ones must be given */
    struct {
        char name[32]; /* TYPE, ID, NAME_OR_ID, ... (decides how an argument binds); no [] */
        char meaning[160];
        int optional;
    } params[CLI_QUERY_MAX_PARAMS];
} cli_query_info;

/* Parse the header of a named query's text. UTIL_EFORMAT when malformed. */
int cli_query_parse(cli_query_info *out, const char *text, util_err *err);

/* Turn command-line arguments into binds (out[0..q->param_count)) by the parameter names:
 * ID (or a name ending in _ID) -> asset ID (INTEGER) by util_parse_id; TYPE (or *_TYPE) ->
 * FourCC text (exactly 4 characters, upper-cased in place in argv); NAME_OR_ID -> INTEGER when
 * it reads as an asset ID, else TEXT; INDEX (or *_INDEX) -> decimal INTEGER >= 0; others TEXT;
 * an optional parameter not given -> NULL. UTIL_EFORMAT naming the bad argument or count. */
int cli_query_binds(struct db_bind *out, const cli_query_info *q, int argc, char **argv,
                    util_err *err);

/* cli_query_binds, except that an ID argument that is not an asset ID binds as TEXT: a name,
 * which cli_query_resolve_names turns into the ID once the database is open. */
int cli_query_binds_names(struct db_bind *out, const cli_query_info *q, int argc, char **argv,
                          util_err *err);
/* Each ID parameter bound as TEXT by cli_query_binds_names becomes the ID of the one asset
 * of that name (cli_asset_arg; of the type the TYPE argument gives, or ANCS for ANCS_ID).
 * EXIT_OK, or EXIT_USAGE / EXIT_FATAL after printing why. */
int cli_query_resolve_names(struct db *d, struct db_bind *binds, const cli_query_info *q, int argc,
                            char **argv, const char *qname);

/* ---- an asset given by ID or name (the one rule for every command) ----------------------
 * arg names the asset when it is an asset ID (util_parse_id), or its name: a name map's name
 * or a PAK's name, with or without the directory, compared exactly but for ASCII case
 * (cli_name_matches). type (a FourCC, or NULL: any) narrows the names. EXIT_OK with *id set;
 * EXIT_USAGE after printing "'x' is neither an asset ID nor the name of an asset", or the
 * candidates (type, ID, full name) when the name is several assets'; EXIT_FATAL on a SQL
 * failure. cmd prefixes the messages ("graph", "query deps"). */
int cli_asset_arg(struct db *d, const char *cmd, const char *arg, const char *type, uint32_t *id);
/* 1 when arg is name, or directory + name (one '/' or '\' between them however directory
 * ends), ignoring ASCII case. */
int cli_name_matches(const char *arg, const char *directory, const char *name);

/* Find NAME in a {name, text} table ending with {NULL, NULL}; NULL when absent. */
const char *cli_query_lookup(const char *const (*table)[2], const char *name);

/* After a query printed no row: for each ID argument that is in no PAK, say so on stderr
 * ("no asset 0x12345678"), adding its other reading when that one is an asset ("as decimal
 * it is 0x00BC614E, a CMDL in Metroid2.pak"). */
void cli_query_explain_empty(struct db *d, const char *qname, const cli_query_info *q, int argc,
                             char **argv);

/* After a query with ANCS_ID and CHAR_INDEX printed no row: when the set has no such
 * character, say which it has (stderr). */
void cli_query_explain_char(struct db *d, const char *qname, const cli_query_info *q,
                            const struct db_bind *binds, int argc);
/* After an empty `area-deps AREA LAYER`: LAYER is no layer of the area (its layers listed),
 * or names one that lists no dependency. */
void cli_query_explain_layer(struct db *d, const char *qname, const cli_query_info *q,
                             const struct db_bind *binds, int argc);

/* A value of `sql --param`: a decimal integer or 0x-hex binds as INTEGER, anything else as
 * TEXT (s borrowed). */
void cli_bind_value(struct db_bind *out, const char *s);

#endif
