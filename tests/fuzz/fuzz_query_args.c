/* fuzz_query_args.c — named-query arguments over arbitrary bytes: the input is split at NUL
 * bytes into a query header (first piece) and arguments. Each argument is read as an asset ID
 * (util_parse_id: when it accepts, printing the value as 8 hex digits and reading it again
 * gives the same value); the header is parsed (cli_query_parse), and the arguments bound by
 * its parameters and by the parameters of every named query compiled in (cli_query_binds: a
 * bind is NULL, an INTEGER, or TEXT pointing into the arguments). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "db.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern const char *const ancsdb_embedded_queries[][2];

static void bind_all(const cli_query_info *q, int argc, char **argv)
{
    db_bind b[CLI_QUERY_MAX_PARAMS];
    util_err err;
    memset(b, 0, sizeof b);
    if (cli_query_binds(b, q, argc, argv, &err) != 0)
        return;
    for (int k = 0; k < q->param_count; k++) {
        if (b[k].type == DB_TEXT) {
            int inside = 0;
            for (int a = 0; a < argc && !inside; a++)
                inside = b[k].s >= argv[a] && b[k].s <= argv[a] + strlen(argv[a]);
            if (!inside || !b[k].s)
                abort();
        } else if (b[k].type != DB_INT && b[k].type != DB_NULL) {
            abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    /* pieces at NUL bytes: header, then up to 16 arguments */
    char *argv[17];
    int argc = 0;
    char *p = text + strlen(text) + 1;
    while (p <= text + size && argc < 16) {
        argv[argc++] = p;
        p += strlen(p) + 1;
    }
    argv[argc] = NULL;
    for (int a = 0; a < argc; a++) {
        uint32_t id, again;
        if (util_parse_id(argv[a], &id) == 0) {
            char hex[16];
            snprintf(hex, sizeof hex, "0x%08" PRIX32, id);
            if (util_parse_id(hex, &again) != 0 || again != id)
                abort();
        }
    }
    cli_query_info q;
    util_err err;
    if (cli_query_parse(&q, text, &err) == 0) {
        if (q.required > q.param_count || q.param_count > CLI_QUERY_MAX_PARAMS)
            abort();
        bind_all(&q, argc, argv);
    }
    for (size_t k = 0; ancsdb_embedded_queries[k][0]; k++) {
        /* binding may upper-case arguments in place: each query gets fresh copies */
        char *copy[17];
        int n = 0;
        for (; n < argc; n++)
            if (!(copy[n] = strdup(argv[n])))
                break;
        copy[n] = NULL;
        if (n == argc && cli_query_parse(&q, ancsdb_embedded_queries[k][1], &err) == 0)
            bind_all(&q, argc, copy);
        for (int a = 0; a < n; a++)
            free(copy[a]);
    }
    free(text);
    return 0;
}
