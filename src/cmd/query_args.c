/* query_args.c — named queries: their header, how command-line arguments bind to their
 * parameters, and what to say when an asset ID given is in no PAK (see cli.h). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
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

int cli_query_parse(cli_query_info *out, const char *text, util_err *err)
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
                if (out->param_count == CLI_QUERY_MAX_PARAMS)
                    return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "more than %d params",
                                     CLI_QUERY_MAX_PARAMS);
                s += 6;
                while (s < eol && isspace((unsigned char)*s))
                    s++;
                const char *ne = s;
                while (ne < eol && !isspace((unsigned char)*ne))
                    ne++;
                int k = out->param_count++;
                int bracket = ne - s > 2 && *s == '[' && ne[-1] == ']'; /* [NAME] */
                int mark = !bracket && ne - s > 1 && ne[-1] == '?';     /* NAME? */
                int optional = bracket || mark;
                copy_trim(out->params[k].name, sizeof out->params[k].name, bracket ? s + 1 : s,
                          optional ? ne - 1 : ne);
                out->params[k].optional = optional;
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
                if (!optional && k > out->required)
                    return util_fail(err, UTIL_EFORMAT, UINT64_MAX,
                                     "param %s is required but follows an optional one",
                                     out->params[k].name);
                if (!optional)
                    out->required = k + 1;
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

static int is_id_param(const char *name)
{
    return !strcmp(name, "ID") || ends_with(name, "_ID");
}

/* The asset type a WORLD or AREA parameter (or *_WORLD, *_AREA) names: a world is its MLVL,
 * an area its MREA (CONTRACT.md "Worlds"); NULL for other parameters. */
static const char *place_type(const char *name)
{
    if (!strcmp(name, "WORLD") || ends_with(name, "_WORLD"))
        return "MLVL";
    if (!strcmp(name, "AREA") || ends_with(name, "_AREA"))
        return "MREA";
    return NULL;
}

/* The FourCC an ID parameter's name implies: ANCS_ID -> ANCS; NULL for ID and others. */
static const char *type_of_param(const char *name, char *buf, size_t size)
{
    size_t n = strlen(name);
    if (n != 7 || strcmp(name + 4, "_ID") != 0 || size < 5)
        return NULL;
    for (size_t i = 0; i < 4; i++)
        if (!isupper((unsigned char)name[i]) && !isdigit((unsigned char)name[i]))
            return NULL;
    memcpy(buf, name, 4);
    buf[4] = 0;
    return buf;
}

static int binds_impl(db_bind *out, const cli_query_info *q, int argc, char **argv, int names,
                      util_err *err)
{
    if (argc < q->required || argc > q->param_count) {
        if (q->required == q->param_count)
            return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "expects %d argument%s, got %d",
                             q->param_count, q->param_count == 1 ? "" : "s", argc);
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX, "expects %d to %d arguments, got %d",
                         q->required, q->param_count, argc);
    }
    for (int i = 0; i < q->param_count; i++) {
        const char *name = q->params[i].name;
        memset(&out[i], 0, sizeof out[i]);
        if (i >= argc) {
            out[i].type = DB_NULL;
            continue;
        }
        const char *a = argv[i];
        uint32_t id;
        if (!strcmp(name, "NAME_OR_ID")) {
            if (util_parse_id(a, &id) == 0) {
                out[i].type = DB_INT;
                out[i].i = id;
            } else {
                out[i].type = DB_TEXT;
                out[i].s = a;
            }
        } else if (is_id_param(name) || place_type(name)) {
            if (names && util_parse_id(a, &id) != 0) {
                out[i].type = DB_TEXT; /* a name: cli_query_resolve_names */
                out[i].s = a;
                continue;
            }
            if (util_parse_id(a, &id) != 0)
                return util_fail(err, UTIL_EFORMAT, UINT64_MAX,
                                 "%s: '%s' is not an %sID (0x1A2B3C4D or up to 8 hex "
                                 "digits, or 9 to 10 decimal digits)",
                                 name, a, place_type(name) ? "" : "asset ");
            out[i].type = DB_INT;
            out[i].i = id;
        } else if (!strcmp(name, "TYPE") || ends_with(name, "_TYPE")) {
            uint32_t fc;
            for (char *c = argv[i]; *c; c++) /* asset types are upper case: part = PART */
                *c = (char)toupper((unsigned char)*c);
            if (util_fourcc_parse(a, &fc) != 0)
                return util_fail(err, UTIL_EFORMAT, UINT64_MAX,
                                 "%s: '%s' is not a FourCC (4 characters, e.g. PART)", name, a);
            out[i].type = DB_TEXT;
            out[i].s = a;
        } else if (!strcmp(name, "GAME")) {
            for (char *c = argv[i]; *c; c++) /* mp1 = MP1 */
                *c = (char)toupper((unsigned char)*c);
            if (strcmp(a, "MP1") != 0 && strcmp(a, "MP2") != 0)
                return util_fail(err, UTIL_EFORMAT, UINT64_MAX,
                                 "%s: '%s' is not a game (MP1 or MP2)", name, a);
            out[i].type = DB_TEXT;
            out[i].s = a;
        } else if (!strcmp(name, "INDEX") || ends_with(name, "_INDEX")) {
            char *end;
            errno = 0;
            long long v = strtoll(a, &end, 10);
            if (!*a || *end || errno || v < 0 || v > INT32_MAX)
                return util_fail(err, UTIL_EFORMAT, UINT64_MAX,
                                 "%s: '%s' is not an index (a decimal number from 0)", name, a);
            out[i].type = DB_INT;
            out[i].i = v;
        } else {
            out[i].type = DB_TEXT;
            out[i].s = a;
        }
    }
    return 0;
}

int cli_query_binds(db_bind *out, const cli_query_info *q, int argc, char **argv, util_err *err)
{
    return binds_impl(out, q, argc, argv, 0, err);
}

int cli_query_binds_names(db_bind *out, const cli_query_info *q, int argc, char **argv,
                          util_err *err)
{
    return binds_impl(out, q, argc, argv, 1, err);
}

const char *cli_query_lookup(const char *const (*table)[2], const char *name)
{
    for (size_t i = 0; table && table[i][0]; i++)
        if (!strcmp(table[i][0], name))
            return table[i][1];
    return NULL;
}

/* ---- an ID that is in no PAK ------------------------------------------------------------- */

typedef struct where_row {
    int found;
    char type[8];
    char path[1024];
    int64_t paks;
} where_row;

static int where_cb(void *ctx, int ncols, const db_cell *c)
{
    where_row *w = ctx;
    if (ncols < 3 || c[0].type != DB_TEXT || c[1].type != DB_TEXT)
        return 1;
    w->found = 1;
    snprintf(w->type, sizeof w->type, "%s", c[0].s);
    snprintf(w->path, sizeof w->path, "%s", c[1].s);
    w->paks = c[2].type == DB_INT ? c[2].i : 1;
    return 1;
}

/* Run sql with binds on d, each row to row(ctx, ...); a failure is only returned: these
 * lookups explain an empty answer and stay silent when they cannot. */
static int lookup(struct db *d, const char *sql, int nbind, const db_bind *binds, void *ctx,
                  int (*row)(void *, int, const db_cell *))
{
    db_sink sink = {ctx, NULL, row, NULL};
    util_err e;
    util_err_clear(&e);
    return db_exec(d, sql, nbind, binds, &sink, &e);
}

/* Which PAK holds asset id (the first by game and path), and in how many PAKs it is. */
static int where_is(struct db *d, uint32_t id, where_row *w)
{
    static const char sql[] =
        "SELECT e.type, p.path, (SELECT count(DISTINCT x.pak_id) FROM pak_entries x "
        "WHERE x.asset_id = ?1) FROM pak_entries e JOIN paks p USING (pak_id) "
        "WHERE e.asset_id = ?1 ORDER BY p.game, p.path, e.entry_index LIMIT 1";
    db_bind b = {DB_INT, id, NULL};
    memset(w, 0, sizeof *w);
    return lookup(d, sql, 1, &b, w, where_cb);
}

/* The other reading of an ID argument: 1 to 8 decimal digits were read as hex; read as
 * decimal they are another ID. 0 when there is none. */
static int other_reading(const char *s, uint32_t *out)
{
    size_t n = strlen(s);
    if (n == 0 || n > 8 || strspn(s, "0123456789") != n)
        return 0;
    *out = (uint32_t)strtoul(s, NULL, 10);
    return 1;
}

static int name_reading(struct db *d, const char *arg, const char *type, uint32_t *id, char *what,
                        size_t size);

static int count_cb(void *ctx, int ncols, const db_cell *c)
{
    *(int64_t *)ctx = ncols >= 1 && c[0].type == DB_INT ? c[0].i : 0;
    return 1;
}

/* Whether some PAK holds asset id as a type (1), none (0), or the lookup failed (-1). */
static int held_as(struct db *d, uint32_t id, const char *type)
{
    static const char sql[] =
        "SELECT EXISTS (SELECT 1 FROM pak_entries WHERE asset_id = ?1 AND type = ?2)";
    db_bind b[2] = {{DB_INT, id, NULL}, {DB_TEXT, 0, type}};
    int64_t n = 0;
    return lookup(d, sql, 2, b, &n, count_cb) != 0 ? -1 : n != 0;
}

/* An ID some PAK holds, but never as the type its argument asks for: say what it is. */
static void explain_type(struct db *d, const char *qname, uint32_t id, const char *want,
                         const where_row *w)
{
    if (!want || held_as(d, id, want) != 0)
        return;
    const char *base = strrchr(w->path, '/');
    base = base ? base + 1 : w->path;
    const char *takes = !strcmp(want, "MREA")   ? ": AREA takes an area's MREA ID or name"
                        : !strcmp(want, "MLVL") ? ": WORLD takes a world's MLVL ID or name"
                                                : "";
    cli_error("query %s: 0x%08" PRIX32 " is %s %s (in %s), not %s %s%s", qname, id,
              strchr("AEIOU", w->type[0]) ? "an" : "a", w->type, base,
              strchr("AEIOU", want[0]) ? "an" : "a", want, takes);
}

void cli_query_explain_empty(struct db *d, const char *qname, const cli_query_info *q, int argc,
                             char **argv)
{
    const char *type = NULL;
    for (int i = 0; i < q->param_count && i < argc; i++)
        if (!strcmp(q->params[i].name, "TYPE"))
            type = argv[i];
    for (int i = 0; i < argc && i < q->param_count; i++) {
        uint32_t id, alt;
        const char *place = place_type(q->params[i].name);
        if (!is_id_param(q->params[i].name) && !place &&
            strcmp(q->params[i].name, "NAME_OR_ID") != 0)
            continue;
        if (util_parse_id(argv[i], &id) != 0)
            continue;
        where_row w;
        char buf[8], what[320];
        const char *t = place  ? place
                        : type ? type
                               : type_of_param(q->params[i].name, buf, sizeof buf);
        if (where_is(d, id, &w) != 0)
            continue;
        if (w.found) {
            explain_type(d, qname, id, t, &w);
            continue;
        }
        int named = strcmp(q->params[i].name, "NAME_OR_ID") != 0 &&
                    name_reading(d, argv[i], t, &alt, what, sizeof what);
        if (named) {
            /* a word of hex digits ("Cafe") is read as an ID; it also names an asset */
            cli_error("query %s: '%s' was read as the ID 0x%08" PRIX32 ", which no PAK holds; "
                      "it is also the name of %s: give its ID, %08" PRIX32,
                      qname, argv[i], id, what, alt);
        } else if (other_reading(argv[i], &alt) && alt != id && where_is(d, alt, &w) == 0 &&
                   w.found) {
            const char *base = strrchr(w.path, '/');
            base = base ? base + 1 : w.path;
            char more[48] = "";
            if (w.paks > 1)
                snprintf(more, sizeof more, " and %" PRId64 " other PAK%s", w.paks - 1,
                         w.paks > 2 ? "s" : "");
            cli_error("query %s: no asset 0x%08" PRIX32 "; as decimal it is 0x%08" PRIX32
                      ", %s %s in %s%s",
                      qname, id, alt, strchr("AEIOU", w.type[0]) ? "an" : "a", w.type, base, more);
        } else {
            cli_error("query %s: no asset 0x%08" PRIX32 " in any PAK of the database", qname, id);
        }
    }
}

typedef struct char_span {
    int64_t n, max;
} char_span;

/* The position of the query's parameter name among the argc arguments given, or -1. */
static int param_at(const cli_query_info *q, int argc, const char *name)
{
    for (int i = 0; i < argc && i < q->param_count; i++)
        if (!strcmp(q->params[i].name, name))
            return i;
    return -1;
}

static int char_span_row(void *ctx, int ncols, const db_cell *c)
{
    char_span *s = ctx;
    if (ncols >= 2) {
        s->n = c[0].type == DB_INT ? c[0].i : 0;
        s->max = c[1].type == DB_INT ? c[1].i : -1;
    }
    return 0;
}

void cli_query_explain_char(struct db *d, const char *qname, const cli_query_info *q,
                            const db_bind *binds, int argc)
{
    int ancs = param_at(q, argc, "ANCS_ID"), ci = param_at(q, argc, "CHAR_INDEX");
    if (ancs < 0 || ci < 0 || binds[ancs].type != DB_INT || binds[ci].type != DB_INT)
        return;
    char_span s = {0, -1};
    db_bind b = {DB_INT, binds[ancs].i, NULL};
    if (lookup(d,
               "SELECT count(DISTINCT char_index), max(char_index) FROM characters "
               "WHERE ancs_id = ?1",
               1, &b, &s, char_span_row) != 0 ||
        s.n == 0 || (binds[ci].i >= 0 && binds[ci].i <= s.max))
        return;
    cli_error("query %s: ANCS 0x%08" PRIX32 " has no character %" PRId64 " (its characters: 0 to "
              "%" PRId64 ")",
              qname, (uint32_t)binds[ancs].i, binds[ci].i, s.max);
}

void cli_bind_value(db_bind *out, const char *s)
{
    char *end;
    memset(out, 0, sizeof *out);
    out->type = DB_TEXT;
    out->s = s;
    if (!*s)
        return;
    errno = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2]) {
        unsigned long long v = strtoull(s + 2, &end, 16);
        if (!*end && !errno && isxdigit((unsigned char)s[2]) && v <= INT64_MAX) {
            out->type = DB_INT;
            out->i = (int64_t)v;
        }
        return;
    }
    long long v = strtoll(s, &end, 10);
    if (!*end && !errno && !isspace((unsigned char)s[0]) && s[0] != '+') {
        out->type = DB_INT;
        out->i = v;
    }
}

/* ---- an asset given by its name -------------------------------------------------------- */

/* ASCII case-insensitive comparison of s[0..n) with the whole of t. */
static int same_ci(const char *s, size_t n, const char *t)
{
    size_t m = strlen(t);
    if (n != m)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)s[i]) != tolower((unsigned char)t[i]))
            return 0;
    return 1;
}

int cli_name_matches(const char *arg, const char *directory, const char *name)
{
    size_t n = strlen(arg);
    if (!name || !*name || !n)
        return 0;
    if (same_ci(arg, n, name))
        return 1;
    size_t dl = directory ? strlen(directory) : 0;
    while (dl && (directory[dl - 1] == '/' || directory[dl - 1] == '\\'))
        dl--;
    if (!dl || n <= dl + 1 || (arg[dl] != '/' && arg[dl] != '\\'))
        return 0;
    for (size_t i = 0; i < dl; i++) {
        char a = arg[i] == '\\' ? '/' : arg[i], b = directory[i] == '\\' ? '/' : directory[i];
        if (tolower((unsigned char)a) != tolower((unsigned char)b))
            return 0;
    }
    return same_ci(arg + dl + 1, n - dl - 1, name);
}

/* Where names come from: (asset_id, type, directory, name, label) rows whose name may match
 * ?1 (the argument's last path component) or ?2 (the whole argument), both lower-cased;
 * cli_name_matches then decides. The type is the corpus's (assets) where an entry holds the
 * asset. Names are those of the name maps and PAKs (asset_names), and of the worlds: a world's
 * English name and its dark world's (MP2) name the MLVL, an area's English name and its
 * internal name (MP2) its MREA (string 0 of the name STRG in ENGL, every content's). The
 * label of an area says which world it is in, for the list of candidates. */
static const char name_sources_sql[] =
    "WITH named(asset_id, type, directory, name, place) AS ("
    " SELECT n.asset_id, n.type, n.directory, n.name, 0 FROM asset_names n"
    " WHERE lower(n.name) IN (?1, ?2)"
    " UNION ALL"
    " SELECT w.mlvl_id, 'MLVL', NULL, s.text, 1"
    " FROM strings s CROSS JOIN mlvl_worlds w"
    " ON w.game = s.game AND s.strg_id IN (w.world_name_strg, w.dark_world_name_strg)"
    " WHERE s.text COLLATE NOCASE IN (?1, ?2) AND s.language = 'ENGL' AND s.string_index = 0"
    " UNION ALL"
    " SELECT a.mrea_id, 'MREA', NULL, s.text, 1"
    " FROM strings s CROSS JOIN mlvl_areas a ON a.game = s.game AND a.name_strg = s.strg_id"
    " WHERE s.text COLLATE NOCASE IN (?1, ?2) AND s.language = 'ENGL' AND s.string_index = 0"
    " UNION ALL"
    " SELECT a.mrea_id, 'MREA', NULL, a.internal_name, 1 FROM mlvl_areas a"
    " WHERE a.internal_name COLLATE NOCASE IN (?1, ?2)"
    ") "
    "SELECT DISTINCT x.asset_id, ifnull(a.type, x.type), x.directory, x.name,"
    " CASE WHEN x.place AND x.type = 'MREA'"
    " THEN (SELECT x.name || ' (' || m.game || ', area ' || m.area_index || ' of '"
    " || ifnull(w.name, printf('%08X', m.mlvl_id)) || ')'"
    " FROM mlvl_areas m JOIN worlds w ON w.game = m.game AND w.mlvl_id = m.mlvl_id"
    " AND w.content_id = m.content_id WHERE m.mrea_id = x.asset_id"
    " ORDER BY m.content_id DESC LIMIT 1)"
    " WHEN x.place THEN x.name || ' (' || (SELECT group_concat(DISTINCT w.game) FROM mlvl_worlds w"
    " WHERE w.mlvl_id = x.asset_id) || ' world)'"
    " ELSE (SELECT l.label FROM asset_label l WHERE l.asset_id = x.asset_id) END"
    " FROM named x LEFT JOIN assets a ON a.game IN ('MP1', 'MP2')"
    " AND a.asset_id = x.asset_id ORDER BY 1, 2";

#define NAME_MAX_LISTED 20

typedef struct name_hits {
    const char *arg, *type;
    int n; /* distinct (type, id) matching */
    struct {
        uint32_t id;
        char type[8];
        char label[256];
    } hit[NAME_MAX_LISTED];
} name_hits;

static int name_row(void *ctx, int ncols, const db_cell *c)
{
    name_hits *h = ctx;
    if (ncols < 5 || c[0].type != DB_INT || c[3].type != DB_TEXT)
        return 0;
    const char *type = c[1].type == DB_TEXT ? c[1].s : "";
    if (!cli_name_matches(h->arg, c[2].type == DB_TEXT ? c[2].s : NULL, c[3].s))
        return 0;
    if (h->type && strcasecmp(h->type, type) != 0)
        return 0;
    uint32_t id = (uint32_t)c[0].i;
    int listed = h->n < NAME_MAX_LISTED ? h->n : NAME_MAX_LISTED;
    for (int i = 0; i < listed; i++)
        if (h->hit[i].id == id && !strcmp(h->hit[i].type, type))
            return 0; /* named twice (a map and a PAK): one asset */
    if (h->n < NAME_MAX_LISTED) {
        h->hit[h->n].id = id;
        snprintf(h->hit[h->n].type, sizeof h->hit[h->n].type, "%s", type);
        /* the asset's own label, and the name that matched when the label does not show it
         * (a PAK name of an asset the name map calls otherwise) */
        const char *label = c[4].type == DB_TEXT ? c[4].s : c[3].s;
        const char *dir = c[2].type == DB_TEXT ? c[2].s : "";
        if (strstr(label, c[3].s))
            snprintf(h->hit[h->n].label, sizeof h->hit[h->n].label, "%s", label);
        else
            snprintf(h->hit[h->n].label, sizeof h->hit[h->n].label, "%s (named %s%s)", label, dir,
                     c[3].s);
    }
    h->n++;
    return 0;
}

/* The assets (of type, when given) that arg names, into h: 0, or a SQLite or memory
 * failure (e says which). */
static int find_names(struct db *d, const char *arg, const char *type, name_hits *h, util_err *e)
{
    const char *base = arg + strlen(arg);
    while (base > arg && base[-1] != '/' && base[-1] != '\\')
        base--;
    char *lb = strdup(base), *la = strdup(arg);
    if (!lb || !la) {
        free(lb);
        free(la);
        return util_fail(e, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    }
    for (char *p = lb; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    for (char *p = la; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    memset(h, 0, sizeof *h);
    h->arg = arg;
    h->type = type && *type ? type : NULL;
    db_bind b[2] = {{DB_TEXT, 0, lb}, {DB_TEXT, 0, la}};
    db_sink sink = {h, NULL, name_row, NULL};
    int rc = *arg ? db_exec(d, name_sources_sql, 2, b, &sink, e) : 0;
    free(lb);
    free(la);
    return rc;
}

/* 1 when arg is the name of exactly one asset (of type, when given): its ID and a
 * description ("MREA 1234ABCD Main Plaza"); 0 otherwise. */
static int name_reading(struct db *d, const char *arg, const char *type, uint32_t *id, char *what,
                        size_t size)
{
    name_hits h;
    util_err e;
    util_err_clear(&e);
    if (find_names(d, arg, type, &h, &e) != 0 || h.n != 1)
        return 0;
    *id = h.hit[0].id;
    snprintf(what, size, "%s %08" PRIX32 " %s", h.hit[0].type, h.hit[0].id, h.hit[0].label);
    return 1;
}

int cli_asset_arg(struct db *d, const char *cmd, const char *arg, const char *type, uint32_t *id)
{
    if (util_parse_id(arg, id) == 0)
        return EXIT_OK;
    name_hits h;
    util_err e;
    util_err_clear(&e);
    int rc = find_names(d, arg, type, &h, &e);
    const char *s = arg; /* cli_error and cli_say make it terminal-safe */
    int out = EXIT_OK;
    if (rc) {
        cli_error("%s: looking up the name '%s': %s", cmd, s, e.msg);
        out = EXIT_FATAL;
    } else if (h.n == 0) {
        const char *what = !h.type                   ? "an asset"
                           : !strcmp(h.type, "MLVL") ? "a world (MLVL)"
                           : !strcmp(h.type, "MREA") ? "an area (MREA)"
                                                     : NULL;
        cli_error("%s: '%s' is neither an asset ID (0x1A2B3C4D or up to 8 hex digits, or 9 "
                  "to 10 decimal digits) nor the name of %s%s",
                  cmd, s, what ? what : "an asset of type ", what ? "" : h.type);
        out = EXIT_USAGE;
    } else if (h.n > 1) {
        cli_error("%s: '%s' names %d assets; give one of their IDs:", cmd, s, h.n);
        for (int i = 0; i < h.n && i < NAME_MAX_LISTED; i++) {
            cli_say(stderr, "  %-4s  %08" PRIX32 "  %s\n", h.hit[i].type, h.hit[i].id,
                    h.hit[i].label);
        }
        if (h.n > NAME_MAX_LISTED)
            cli_say(stderr, "  ... and %d more\n", h.n - NAME_MAX_LISTED);
        out = EXIT_USAGE;
    } else {
        *id = h.hit[0].id;
    }
    return out;
}

/* A release label parameter (its meaning begins "label of", as in release-diff's A and B). */
static int is_release_param(const char *meaning)
{
    return !strncmp(meaning, "label of", 8);
}

typedef struct release_seen {
    int64_t in_view, in_db;
    char *labels; /* the labels in view, ", " between them */
} release_seen;

static int release_row(void *ctx, int ncols, const db_cell *c)
{
    release_seen *r = ctx;
    if (ncols < 3)
        return 0;
    r->in_view = c[0].type == DB_INT ? c[0].i : 0;
    r->in_db = c[1].type == DB_INT ? c[1].i : 0;
    if (c[2].type == DB_TEXT && !r->labels)
        r->labels = strdup(c[2].s);
    return 0;
}

/* EXIT_OK when label is a release in view; else EXIT_USAGE (EXIT_FATAL on a SQL failure)
 * after saying which releases there are: an unknown label would answer "no difference". */
static int check_release(struct db *d, const char *cmd, const char *label)
{
    static const char sql[] =
        "SELECT (SELECT count(*) FROM releases WHERE label = ?1), "
        "(SELECT count(*) FROM main.releases WHERE label = ?1), "
        "(SELECT group_concat(label, ', ') FROM (SELECT label FROM releases ORDER BY label))";
    release_seen r = {0, 0, NULL};
    db_bind b = {DB_TEXT, 0, label};
    db_sink sink = {&r, NULL, release_row, NULL};
    util_err e;
    util_err_clear(&e);
    int out = EXIT_OK;
    if (db_exec(d, sql, 1, &b, &sink, &e) != 0) {
        cli_error("%s: looking up the release '%s': %s", cmd, label, e.msg);
        out = EXIT_FATAL;
    } else if (r.in_view == 0) {
        cli_error("%s: %s release '%s' (releases%s: %s)", cmd,
                  r.in_db ? "--release leaves out the" : "no", label, r.in_db ? " in view" : "",
                  r.labels ? r.labels : "none");
        out = EXIT_USAGE;
    }
    free(r.labels);
    return out;
}

int cli_query_resolve_names(struct db *d, db_bind *binds, const cli_query_info *q, int argc,
                            char **argv, const char *qname)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "query %s", qname);
    for (int i = 0; i < q->param_count && i < argc; i++) {
        int rc = is_release_param(q->params[i].meaning) ? check_release(d, cmd, argv[i]) : EXIT_OK;
        if (rc)
            return rc;
    }
    const char *type = NULL;
    for (int i = 0; i < q->param_count && i < argc; i++)
        if (!strcmp(q->params[i].name, "TYPE"))
            type = argv[i];
    for (int i = 0; i < q->param_count && i < argc; i++) {
        const char *name = q->params[i].name;
        const char *place = place_type(name); /* WORLD, AREA: a world's or an area's name */
        if ((!is_id_param(name) && !place) || !strcmp(name, "NAME_OR_ID") ||
            binds[i].type != DB_TEXT)
            continue; /* (NAME_OR_ID stays text: `character` matches a part of a name) */
        char buf[8];
        const char *t = place ? place : type ? type : type_of_param(name, buf, sizeof buf);
        uint32_t id;
        int rc = cli_asset_arg(d, cmd, argv[i], t, &id);
        if (rc)
            return rc;
        binds[i].type = DB_INT;
        binds[i].i = id;
        binds[i].s = NULL;
    }
    return EXIT_OK;
}

/* The layers of the area an empty `area-deps AREA LAYER` looked at (its world's newest
 * content, as the query; the first area when an MREA is in several): index, name and
 * dependency count of each, and the area's name. */
typedef struct layer_list {
    char area[256];
    char list[1024]; /* "0 'Default', 1 '2nd Pass'" */
    int n, hit;      /* layers; LAYER names one of them (or the area's own group) */
    int64_t hit_index, hit_deps;
    char hit_name[256];
    const char *want;
    int64_t want_index; /* LAYER as an index when it is digits (as the query reads it), else -1 */
} layer_list;

static int layer_row(void *ctx, int ncols, const db_cell *c)
{
    layer_list *l = ctx;
    if (ncols < 4 || c[0].type != DB_INT)
        return 0;
    const char *name = c[1].type == DB_TEXT ? c[1].s : "";
    if (l->n == 0)
        snprintf(l->area, sizeof l->area, "%s", c[3].type == DB_TEXT ? c[3].s : "");
    size_t len = strlen(l->list);
    snprintf(l->list + len, sizeof l->list - len, "%s%" PRId64 " '%s'", l->n ? ", " : "", c[0].i,
             name);
    l->n++;
    if (!l->hit && (l->want_index >= 0 ? l->want_index == c[0].i : !strcasecmp(l->want, name))) {
        l->hit = 1;
        l->hit_index = c[0].i;
        l->hit_deps = c[2].type == DB_INT ? c[2].i : 0;
        snprintf(l->hit_name, sizeof l->hit_name, "%s", name);
    }
    return 0;
}

void cli_query_explain_layer(struct db *d, const char *qname, const cli_query_info *q,
                             const db_bind *binds, int argc)
{
    int area = param_at(q, argc, "AREA"), layer = param_at(q, argc, "LAYER");
    if (area < 0 || layer < 0 || binds[area].type != DB_INT || binds[layer].type != DB_TEXT ||
        !binds[layer].s)
        return;
    layer_list l;
    memset(&l, 0, sizeof l);
    l.want = binds[layer].s;
    /* as the query matches it: digits are an index, anything else a name (ASCII case) */
    size_t wn = strlen(l.want);
    l.want_index = wn > 0 && strspn(l.want, "0123456789") == wn ? strtoll(l.want, NULL, 10) : -1;
    db_bind b = {DB_INT, binds[area].i, NULL};
    if (lookup(d,
               "WITH ar AS (SELECT a.game, a.mlvl_id, a.content_id, a.area_index, a.name "
               "FROM mlvl_latest m JOIN areas a ON a.game = m.game AND a.mlvl_id = m.mlvl_id "
               "AND a.content_id = m.content_id WHERE a.mrea_id = ?1 "
               "ORDER BY a.game, a.mlvl_id, a.area_index LIMIT 1) "
               "SELECT y.layer_index, y.name, y.dependency_count, ar.name FROM ar "
               "JOIN area_layers y ON y.game = ar.game AND y.mlvl_id = ar.mlvl_id "
               "AND y.content_id = ar.content_id AND y.area_index = ar.area_index "
               "ORDER BY y.layer_index",
               1, &b, &l, layer_row) != 0 ||
        l.n == 0)
        return;
    const char *area_name = l.area[0] ? l.area : "the area";
    if (!strcmp(l.want, "-1"))
        cli_error("query %s: layer -1 (the area's own group) of %s lists no dependency", qname,
                  area_name);
    else if (!l.hit)
        cli_error("query %s: '%s' is no layer of %s (its layers: %s)", qname, l.want, area_name,
                  l.list);
    else if (l.hit_deps == 0)
        cli_error("query %s: layer %" PRId64 " '%s' of %s lists no dependency", qname, l.hit_index,
                  l.hit_name, area_name);
}
