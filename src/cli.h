/* cli.h — the ancsdb command line: subcommands, exit codes, output formats. */
#ifndef ANCSDB_CLI_H
#define ANCSDB_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "util.h"

/* Exit status (CONTRACT.md). */
enum { EXIT_OK = 0, EXIT_PARTIAL = 1, EXIT_USAGE = 2, EXIT_FATAL = 3 };

/* Each subcommand gets argv with argv[0] = its own name ("pak", "ingest", ...). */
int cmd_pak(int argc, char **argv);
int cmd_ancs(int argc, char **argv);
int cmd_ingest(int argc, char **argv);
/* db_ingest_opts.progress for a terminal: a bar on the FILE * ctx (stderr). */
void cli_ingest_progress(void *ctx, size_t done, size_t total, const char *path);
int cmd_query(int argc, char **argv);
int cmd_sql(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_graph(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_names(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* The entry of subcommand name ("ingest", "names", ...) as main dispatches to it; NULL when
 * this build has no such command (the demo skips what is missing). */
typedef int (*cli_command_fn)(int argc, char **argv);
cli_command_fn cli_command(const char *name);

/* Value of option argv[*i] given as "--opt VALUE" (advancing *i) or "--opt=VALUE"; NULL when
 * argv[*i] is not `name`. Sets *missing when the option is last and has no value. */
const char *cli_opt_value(int argc, char **argv, int *i, const char *name, int *missing);

/* Print "ancsdb: <msg>\n" to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- output formats (output.c) ---------------------------------------------------- */

typedef enum { OUT_TABLE = 0, OUT_CSV, OUT_JSON, OUT_TSV } out_format;

/* Parse "table", "csv", "json", "tsv"; 0 on success. */
int out_parse_format(const char *s, out_format *out);

/* Column names that hold asset IDs: printed as 8 upper-case hex digits (a JSON string). */
int out_is_asset_column(const char *name);

typedef struct out_table out_table;

/* Begin a result of ncols named columns written to f. owned: out_finish frees it. */
out_table *out_begin(FILE *f, out_format fmt, int ncols, const char *const *names);
void out_null(out_table *t);
void out_text(out_table *t, const char *s);
void out_int(out_table *t, int64_t v);
void out_real(out_table *t, double v);
/* An asset ID: 8 upper-case hex digits in every format. */
void out_id(out_table *t, uint32_t v);
/* An integer cell that is an asset ID when the column is one (see out_is_asset_column). */
void out_auto_int(out_table *t, int64_t v);
/* End the current row (every column must have been given). */
void out_row_end(out_table *t);
/* Flush (tables are aligned once every row is known) and free. Returns rows written. */
long out_finish(out_table *t);

/* ---- SQL results through the output formats (cmd_query.c) ------------------------ */

struct db;
struct db_bind;
/* Run every statement of sql on d with binds as ?1..?n and print each result set to f in
 * fmt. 0, or the db_exec error (err filled). */
int cli_print_sql(struct db *d, FILE *f, out_format fmt, const char *sql, int nbind,
                  const struct db_bind *binds, util_err *err);

#endif
