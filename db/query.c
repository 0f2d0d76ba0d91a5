/* query.c — named-query headers and argument binding (see db.h). No SQLite here. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"

/* Copy [s, e) trimmed into out (size n). */
static void copy_trim(char *out, size_t n, const char *s, const char *e)
{
    while (s < e && isspace((unsigned char)*s))
        s++;
    while (e > s && isspace((unsigned char)e[-1]))
        e--;
    size_t len = (size_t)(e - s);
    if (len >= n)
        len = n - 1;
    memcpy(out, s, len);
    out[len] = 0;
}

int db_query_parse(db_query_info *out, const char *text, util_err *err)
{
    memset(out, 0, sizeof *out);
    const char *p = text;
    int line = 0;
    while (*p) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        const char *s = p;
        while (s < eol && (*s == ' ' || *s == '\t'))
            s++;
        if (eol - s < 2 || s[0] != '-' || s[1] != '-')
            break; /* end of the comment block */
        s += 2;
        if (line == 0) {
            copy_trim(out->description, sizeof out->description, s, eol);
        } else {
            while (s < eol && isspace((unsigned char)*s))
                s++;
            if ((size_t)(eol - s) > 6 && !strncmp(s, "param:", 6)) {
                if (out->param_count == DB_QUERY_MAX_PARAMS)
                    return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "more than %d params",
                                     DB_QUERY_MAX_PARAMS);
                s += 6;
                while (s < eol && isspace((unsigned char)*s))
                    s++;
                const char *ne = s;
                while (ne < eol && !isspace((unsigned char)*ne))
                    ne++;
                int k = out->param_count++;
                if (ne - s > 2 && *s == '[' && ne[-1] == ']') { /* [NAME]: optional */
                    out->params[k].optional = 1;
                    s++;
                    copy_trim(out->params[k].name, sizeof out->params[k].name, s, ne - 1);
                } else if (ne - s > 1 && ne[-1] == '?') { /* NAME?: optional */
                    out->params[k].optional = 1;
                    copy_trim(out->params[k].name, sizeof out->params[k].name, s, ne - 1);
                } else {
                    if (k > 0 && out->params[k - 1].optional)
                        return util_fail(err, UTIL_EFORMAT, UINT64_MAX,
                                         "param line %d: a required param after an optional one",
                                         line + 1);
                    copy_trim(out->params[k].name, sizeof out->params[k].name, s, ne);
                }
                /* skip the separator: an em dash (UTF-8 E2 80 94), '-' or ':' */
                const char *m = ne;
                while (m < eol && (isspace((unsigned char)*m) || *m == '-' || *m == ':' ||
                                   (unsigned char)*m == 0xE2 || (unsigned char)*m == 0x80 ||
                                   (unsigned char)*m == 0x94))
                    m++;
                copy_trim(out->params[k].meaning, sizeof out->params[k].meaning, m, eol);
                if (!out->params[k].name[0])
                    return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "param line %d has no name",
                                     line + 1);
            }
        }
        line++;
        p = *eol ? eol + 1 : eol;
    }
    if (!out->description[0])
        return util_fail(err, UTIL_EFORMAT, 0, "query does not start with '-- description'");
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

int db_query_binds(db_bind *out, const db_query_info *q, int argc, char **argv, util_err *err)
{
    int required = 0;
    while (required < q->param_count && !q->params[required].optional)
        required++;
    if (argc < required || argc > q->param_count) {
        if (required == q->param_count)
            return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "expects %d argument%s, got %d",
                             q->param_count, q->param_count == 1 ? "" : "s", argc);
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "expects %d to %d arguments, got %d",
                         required, q->param_count, argc);
    }
    for (int i = argc; i < q->param_count; i++)
        memset(&out[i], 0, sizeof out[i]); /* DB_NULL */
    for (int i = 0; i < argc; i++) {
        const char *name = q->params[i].name;
        const char *a = argv[i];
        memset(&out[i], 0, sizeof out[i]);
        uint32_t id;
        if (!strcmp(name, "NAME_OR_ID")) {
            if (util_parse_id(a, &id) == 0) {
                out[i].type = DB_INT;
                out[i].i = id;
            } else {
                out[i].type = DB_TEXT;
                out[i].s = a;
            }
        } else if (!strcmp(name, "ID") || ends_with(name, "_ID")) {
            if (util_parse_id(a, &id) != 0)
                return util_fail(err, UTIL_EFORMAT, UINT64_MAX,
                                 "%s: '%s' is not an asset ID (0x1A2B3C4D, 1A2B3C4D or "
                                 "decimal)",
                                 name, a);
            out[i].type = DB_INT;
            out[i].i = id;
        } else if (!strcmp(name, "INDEX") || ends_with(name, "_INDEX")) {
            char *end;
            long long v = strtoll(a, &end, 10);
            if (!*a || *end || v < 0 || v > INT32_MAX)
                return util_fail(err, UTIL_EFORMAT, UINT64_MAX,
                                 "%s: '%s' is not an index (a decimal number from 0)", name, a);
            out[i].type = DB_INT;
            out[i].i = v;
        } else if (!strcmp(name, "TYPE") || ends_with(name, "_TYPE")) {
            uint32_t fc;
            for (char *c = argv[i]; *c; c++) /* asset types are upper case: part = PART */
                *c = (char)toupper((unsigned char)*c);
            if (util_fourcc_parse(a, &fc) != 0)
                return util_fail(err, UTIL_EFORMAT, UINT64_MAX,
                                 "%s: '%s' is not a FourCC (4 characters, e.g. PART)", name, a);
            out[i].type = DB_TEXT;
            out[i].s = a;
        } else {
            out[i].type = DB_TEXT;
            out[i].s = a;
        }
    }
    return 0;
}

const char *db_query_lookup(const char *const (*table)[2], const char *name)
{
    for (size_t i = 0; table && table[i][0]; i++)
        if (!strcmp(table[i][0], name))
            return table[i][1];
    return NULL;
}
