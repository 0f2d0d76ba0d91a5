/* names.c — asset names: Prime World Editor asset name maps (AssetNameMap32.xml) read with
 * expat into `asset_names` and written back out, and the PAKs' named resources copied into
 * `asset_names` with source 'pak' (see db.h, section "names").
 *
 * Import streams: the file is read in fixed-size chunks into expat's buffer and every
 * <Asset> becomes a row as soon as its end tag is seen, inside one transaction per map that
 * first deletes the rows of the same source; any fault rolls the transaction back, so a map
 * that is not well-formed leaves the database as it was. The same transaction fills
 * asset_name_trigrams (the index `find` searches) again from every map's rows. Memory is
 * the chunk, the six fields of the current asset (each capped) and SQLite's page cache. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <expat.h>
#include <sqlite3.h>

#include "internal.h"

#define CHUNK     (64 * 1024)
#define FIELD_MAX (64 * 1024) /* longest accepted text of one field */

enum { F_KEY, F_NAME, F_DIR, F_TYPE, F_AUTO_NAME, F_AUTO_DIR, F_COUNT, F_NONE = -1 };
static const char *const field_tag[F_COUNT] = {"Key",  "Name",        "Directory",
                                               "Type", "AutoGenName", "AutoGenDir"};

typedef struct fieldbuf {
    char *s;
    size_t len, cap;
    int have; /* the element was seen in this asset */
} fieldbuf;

typedef struct nparse {
    XML_Parser p;
    int depth;      /* of the element being read; root = 1 */
    int inner;      /* inside the nested <AssetNameMap> (depth 2) */
    int in_asset;   /* inside <Asset> (depth 3) */
    int in_value;   /* inside <Value> (depth 4) */
    int field;      /* F_* being collected, F_NONE */
    int skip_depth; /* > 0: inside an element we ignore, started at this depth */
    uint32_t key;   /* parsed <Key> of the current asset */
    int key_ok;
    fieldbuf f[F_COUNT];
    sqlite3 *h;
    sqlite3_stmt *ins;
    const char *source;
    long entries;
    /* the first fault */
    int code;
    unsigned long line;
    char msg[160];
} nparse;

static void np_fail(nparse *np, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void np_fail(nparse *np, int code, const char *fmt, ...)
{
    if (np->code)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(np->msg, sizeof np->msg, fmt, ap);
    va_end(ap);
    np->code = code;
    np->line = (unsigned long)XML_GetCurrentLineNumber(np->p);
    XML_StopParser(np->p, XML_FALSE);
}

/* Exactly 8 hex digits (either case), ASCII white space around them allowed. */
static int parse_key(const char *s, size_t n, uint32_t *out)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n != 8)
        return -1;
    uint32_t v = 0;
    for (size_t i = 0; i < 8; i++) {
        int c = (unsigned char)s[i], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            return -1;
        v = v << 4 | (uint32_t)d;
    }
    *out = v;
    return 0;
}

/* The field's text is exactly word (its len bytes; an empty field may have no buffer). */
static int field_is(const fieldbuf *b, const char *word)
{
    size_t n = strlen(word);
    return b->len == n && b->s && !memcmp(b->s, word, n);
}

/* "true"/"1" -> 1, "false"/"0" -> 0, else -1 (stored as NULL); an empty element is -1. */
static int parse_bool(const fieldbuf *b)
{
    if (!b->have)
        return -1;
    if (field_is(b, "true") || field_is(b, "1"))
        return 1;
    if (field_is(b, "false") || field_is(b, "0"))
        return 0;
    return -1;
}

static void on_start(void *ud, const XML_Char *name, const XML_Char **atts)
{
    nparse *np = ud;
    (void)atts;
    np->depth++;
    if (np->in_asset && !strcmp(name, "Asset")) {
        np_fail(np, UTIL_EFORMAT, "<Asset> inside <Asset>");
        return;
    }
    if (np->skip_depth)
        return;
    if (np->field != F_NONE) {
        np_fail(np, UTIL_EFORMAT, "element <%s> inside <%s>", name, field_tag[np->field]);
        return;
    }
    if (np->depth == 1) {
        if (strcmp(name, "AssetNameMap") != 0)
            np_fail(np, UTIL_EFORMAT, "root element is <%s>, not <AssetNameMap>", name);
        return;
    }
    if (np->depth == 2 && !strcmp(name, "AssetNameMap")) {
        np->inner = 1;
        return;
    }
    if (np->depth == 3 && np->inner && !strcmp(name, "Asset")) {
        np->in_asset = 1;
        np->key_ok = 0;
        for (int i = 0; i < F_COUNT; i++) {
            np->f[i].len = 0;
            np->f[i].have = 0;
            if (np->f[i].s)
                np->f[i].s[0] = 0;
        }
        return;
    }
    if (np->depth == 4 && np->in_asset && !strcmp(name, "Key")) {
        np->field = F_KEY;
    } else if (np->depth == 4 && np->in_asset && !strcmp(name, "Value")) {
        np->in_value = 1;
        return;
    } else if (np->depth == 5 && np->in_value) {
        for (int i = F_NAME; i < F_COUNT; i++)
            if (!strcmp(name, field_tag[i]))
                np->field = i;
    }
    if (np->field == F_NONE) {
        np->skip_depth = np->depth; /* an element the format does not have: ignored */
        return;
    }
    np->f[np->field].have = 1;
    np->f[np->field].len = 0;
}

static void on_text(void *ud, const XML_Char *s, int len)
{
    nparse *np = ud;
    if (np->field == F_NONE || np->skip_depth || len <= 0)
        return;
    fieldbuf *b = &np->f[np->field];
    if (b->len + (size_t)len > FIELD_MAX) {
        np_fail(np, UTIL_EFORMAT, "<%s> longer than %d bytes", field_tag[np->field], FIELD_MAX);
        return;
    }
    if (b->len + (size_t)len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + (size_t)len + 1)
            cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            np_fail(np, UTIL_ENOMEM, "out of memory");
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, (size_t)len);
    b->len += (size_t)len;
    b->s[b->len] = 0;
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const fieldbuf *b, int empty_is_null)
{
    if (!b->have || (empty_is_null && b->len == 0))
        sqlite3_bind_null(st, i);
    else
        sqlite3_bind_text(st, i, b->s, (int)b->len, SQLITE_STATIC);
}

static void put_asset(nparse *np)
{
    if (!np->f[F_KEY].have) {
        np_fail(np, UTIL_EFORMAT, "<Asset> without <Key>");
        return;
    }
    if (!np->f[F_NAME].have) {
        np_fail(np, UTIL_EFORMAT, "asset %08X: no <Value><Name>", (unsigned)np->key);
        return;
    }
    static const char empty[] = "";
    sqlite3_stmt *st = np->ins;
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, np->key);
    bind_text_or_null(st, 2, &np->f[F_TYPE], 1);
    if (np->f[F_NAME].len)
        sqlite3_bind_text(st, 3, np->f[F_NAME].s, (int)np->f[F_NAME].len, SQLITE_STATIC);
    else
        sqlite3_bind_text(st, 3, empty, 0, SQLITE_STATIC);
    bind_text_or_null(st, 4, &np->f[F_DIR], 0);
    if (np->f[F_DIR].have && !np->f[F_DIR].len)
        sqlite3_bind_text(st, 4, empty, 0, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, np->source, -1, SQLITE_STATIC);
    int an = parse_bool(&np->f[F_AUTO_NAME]), ad = parse_bool(&np->f[F_AUTO_DIR]);
    if (an < 0)
        sqlite3_bind_null(st, 6);
    else
        sqlite3_bind_int(st, 6, an);
    if (ad < 0)
        sqlite3_bind_null(st, 7);
    else
        sqlite3_bind_int(st, 7, ad);
    if (sqlite3_step(st) != SQLITE_DONE) {
        np_fail(np, UTIL_ESQL, "insert: %s", sqlite3_errmsg(np->h));
        return;
    }
    np->entries++;
}

static void on_end(void *ud, const XML_Char *name)
{
    nparse *np = ud;
    int depth = np->depth--;
    if (np->skip_depth) {
        if (depth == np->skip_depth)
            np->skip_depth = 0;
        return;
    }
    if (np->field != F_NONE) {
        if (np->field == F_KEY) {
            fieldbuf *b = &np->f[F_KEY];
            if (parse_key(b->s ? b->s : "", b->len, &np->key) != 0) {
                np_fail(np, UTIL_EFORMAT, "<Key> '%.40s' is not 8 hex digits", b->s ? b->s : "");
                return;
            }
        }
        np->field = F_NONE;
        return;
    }
    if (depth == 4 && np->in_value && !strcmp(name, "Value"))
        np->in_value = 0;
    else if (depth == 3 && np->in_asset) {
        np->in_asset = 0;
        put_asset(np);
    } else if (depth == 2 && np->inner)
        np->inner = 0;
}

/* A map declaring entities could expand without bound: refuse any declaration. */
static void on_entity_decl(void *ud, const XML_Char *name, int is_param, const XML_Char *value,
                           int value_len, const XML_Char *base, const XML_Char *system_id,
                           const XML_Char *public_id, const XML_Char *notation)
{
    (void)is_param, (void)value, (void)value_len, (void)base, (void)system_id;
    (void)public_id, (void)notation;
    np_fail(ud, UTIL_EFORMAT, "entity declaration '%s' (not accepted in a name map)", name);
}

/* The base name of path (after the last '/'). */
static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int sql_fail(sqlite3 *h, util_err *err, const char *what)
{
    return util_fail(err, UTIL_ESQL, UINT64_MAX, "%s: %s", what, sqlite3_errmsg(h));
}

static int exec_src(sqlite3 *h, const char *sql, const char *source, long *changes, util_err *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
        return sql_fail(h, err, "prepare");
    if (source)
        sqlite3_bind_text(st, 1, source, -1, SQLITE_STATIC);
    int s = sqlite3_step(st);
    if (changes)
        *changes = s == SQLITE_ROW ? (long)sqlite3_column_int64(st, 0) : (long)sqlite3_changes(h);
    sqlite3_finalize(st);
    if (s != SQLITE_DONE && s != SQLITE_ROW)
        return sql_fail(h, err, "names");
    return 0;
}

/* The longest markup token accepted (a tag with its attributes, a comment, a processing
 * instruction, a CDATA section, a declaration). expat keeps a token it has not finished in
 * its buffer, doubling it and scanning it again from its start at every chunk: one 50 MiB
 * attribute costs quadratic time and that much memory. Character data between tags is
 * handed over chunk by chunk (and a field's text is capped at FIELD_MAX), so only markup is
 * measured, by a small scanner ahead of expat that knows where tokens start and end. */
#define TOKEN_MAX (256 * 1024)

typedef struct tokscan {
    int in_tok;            /* inside markup that began at '<' */
    char quote;            /* inside a quoted value of a tag or declaration: its quote */
    const char *end;       /* what closes this token: ">", "-->", "?>", "]]>" */
    size_t len;            /* bytes of the token so far */
    size_t matched;        /* bytes of end matched so far */
    char head[10];         /* its first bytes, to tell its kind */
    unsigned long line;    /* current line, from 1 */
    unsigned long tokline; /* line the token started on */
} tokscan;

/* Scan buf[0..n): 0, or -1 when a token grows past TOKEN_MAX (ts->tokline says where). */
static int tokscan_feed(tokscan *ts, const char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = buf[i];
        if (c == '\n')
            ts->line++;
        if (!ts->in_tok) {
            if (c == '<') {
                ts->in_tok = 1;
                ts->quote = 0;
                ts->end = ">";
                ts->len = 1;
                ts->matched = 0;
                ts->head[0] = '<';
                ts->head[1] = 0;
                ts->tokline = ts->line;
            }
            continue;
        }
        if (++ts->len > TOKEN_MAX)
            return -1;
        if (ts->len < sizeof ts->head) {
            ts->head[ts->len - 1] = c;
            ts->head[ts->len] = 0;
            const char *end = !strcmp(ts->head, "<!--")        ? "-->"
                              : !strcmp(ts->head, "<![CDATA[") ? "]]>"
                              : !strcmp(ts->head, "<?")        ? "?>"
                                                               : NULL;
            if (end) { /* its end is looked for from the next byte on */
                ts->end = end;
                continue;
            }
        }
        if (ts->end[1] == 0) { /* a tag or a declaration: '>' inside quotes does not end it */
            if (ts->quote) {
                if (c == ts->quote)
                    ts->quote = 0;
            } else if (c == '"' || c == '\'') {
                ts->quote = c;
            } else if (c == '>') {
                ts->in_tok = 0;
            }
            continue;
        }
        /* "-->", "?>", "]]>": how many of its bytes the last bytes seen match ("--->" and
         * "]]]>" end too: a third '-' or ']' keeps two matched) */
        if (c == ts->end[ts->matched]) {
            if (ts->end[++ts->matched] == 0)
                ts->in_tok = 0;
        } else if (!(ts->matched == 2 && ts->end[0] == ts->end[1] && c == ts->end[0])) {
            ts->matched = c == ts->end[0];
        }
    }
    return 0;
}

/* Feed the parser from fd (fd >= 0) or from mem[0..len). */
static int run_parser(nparse *np, int fd, const char *mem, size_t len, util_err *err)
{
    size_t pos = 0;
    tokscan ts = {0};
    ts.line = 1;
    for (;;) {
        void *buf = XML_GetBuffer(np->p, CHUNK);
        if (!buf)
            return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
        ssize_t n;
        if (fd >= 0) {
            do
                n = read(fd, buf, CHUNK);
            while (n < 0 && errno == EINTR);
            if (n < 0)
                return util_fail(err, UTIL_EIO, pos, "read error: %s", strerror(errno));
        } else {
            n = (ssize_t)(len - pos < CHUNK ? len - pos : CHUNK);
            memcpy(buf, mem + pos, (size_t)n);
        }
        if (tokscan_feed(&ts, buf, (size_t)n) != 0) {
            np->code = UTIL_EFORMAT;
            np->line = ts.tokline;
            snprintf(np->msg, sizeof np->msg, "a tag or other markup longer than %d bytes",
                     TOKEN_MAX);
            return util_fail(err, np->code, UINT64_MAX, "%s", np->msg);
        }
        pos += (size_t)n;
        int final = n == 0;
        if (XML_ParseBuffer(np->p, (int)n, final) == XML_STATUS_ERROR) {
            if (!np->code) {
                np->code = UTIL_EFORMAT;
                np->line = (unsigned long)XML_GetCurrentLineNumber(np->p);
                snprintf(np->msg, sizeof np->msg, "%s", XML_ErrorString(XML_GetErrorCode(np->p)));
            }
            return util_fail(err, np->code, UINT64_MAX, "%s", np->msg);
        }
        if (final)
            return 0;
    }
}

int dbi_names_reindex(db *d, util_err *err)
{
    sqlite3 *h = d->h;
    sqlite3_stmt *sel = NULL, *ins = NULL;
    int rc = dbi_exec(
        d, "INSERT INTO asset_name_trigrams(asset_name_trigrams) VALUES ('delete-all')", err);
    if (rc != 0)
        return rc;
    /* One INSERT per asset rather than one INSERT ... SELECT: a statement writing many rows
     * keeps a copy of every page it changes that existed when it began (to undo itself),
     * in memory here (temp_store), and it reuses the pages 'delete-all' just freed, so that
     * copy grows with the corpus. Rows in asset_id order (the primary key's), which is how FTS5
     * writes fastest. */
    if (sqlite3_prepare_v2(h,
                           "SELECT asset_id, group_concat(ifnull(directory, '') || name, "
                           "char(10)) FROM asset_names WHERE source <> 'pak' GROUP BY asset_id",
                           -1, &sel, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(h, "INSERT INTO asset_name_trigrams(rowid, text) VALUES (?1, ?2)", -1,
                           &ins, NULL) != SQLITE_OK) {
        rc = sql_fail(h, err, "name trigrams");
        goto done;
    }
    int s;
    while ((s = sqlite3_step(sel)) == SQLITE_ROW) {
        sqlite3_bind_int64(ins, 1, sqlite3_column_int64(sel, 0));
        sqlite3_bind_value(ins, 2, sqlite3_column_value(sel, 1));
        if (sqlite3_step(ins) != SQLITE_DONE) {
            rc = sql_fail(h, err, "name trigrams");
            goto done;
        }
        sqlite3_reset(ins);
    }
    if (s != SQLITE_DONE) {
        rc = sql_fail(h, err, "name trigrams");
        goto done;
    }
    /* Its segments merged into one, so that a term is one lookup; then the count of assets
     * per trigram, read from the index by a TEMP fts5vocab table. */
    rc = dbi_exec(d,
                  "INSERT INTO asset_name_trigrams(asset_name_trigrams) VALUES ('optimize');"
                  "DELETE FROM asset_name_trigram_docs;"
                  "DROP TABLE IF EXISTS temp.asset_name_trigram_vocab;"
                  "CREATE VIRTUAL TABLE temp.asset_name_trigram_vocab USING "
                  "fts5vocab(main, asset_name_trigrams, row);"
                  "INSERT INTO asset_name_trigram_docs (trigram, docs) "
                  "SELECT term, doc FROM temp.asset_name_trigram_vocab;"
                  "DROP TABLE temp.asset_name_trigram_vocab",
                  err);
done:
    sqlite3_finalize(sel);
    sqlite3_finalize(ins);
    return rc;
}

static int import_any(db *d, const char *source, int fd, const char *mem, size_t len,
                      db_names_stats *st, util_err *err)
{
    sqlite3 *h = d->h;
    nparse np;
    int rc = 0, in_tx = 0;
    long deleted = 0, rows = 0;
    memset(&np, 0, sizeof np);
    memset(st, 0, sizeof *st);
    np.field = F_NONE;
    np.h = h;
    np.source = source;
    if (!strcmp(source, "pak") || !*source)
        return util_fail(err, UTIL_EFORMAT, UINT64_MAX,
                         "a map cannot be named '%s' (the source of the PAKs' names)", source);
    np.p = XML_ParserCreate(NULL);
    if (!np.p)
        return util_fail(err, UTIL_ENOMEM, UINT64_MAX, "out of memory");
    XML_SetUserData(np.p, &np);
    XML_SetElementHandler(np.p, on_start, on_end);
    XML_SetCharacterDataHandler(np.p, on_text);
    XML_SetEntityDeclHandler(np.p, on_entity_decl);
    if ((rc = db_begin(d, err)) != 0)
        goto done;
    in_tx = 1;
    if ((rc = exec_src(h, "DELETE FROM asset_names WHERE source = ?1", source, &deleted, err)))
        goto done;
    if (sqlite3_prepare_v2(h,
                           "INSERT OR REPLACE INTO asset_names (asset_id, type, name, directory, "
                           "source, auto_name, auto_dir) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                           -1, &np.ins, NULL) != SQLITE_OK) {
        rc = sql_fail(h, err, "prepare");
        goto done;
    }
    if ((rc = run_parser(&np, fd, mem, len, err)) != 0) {
        st->line = np.line;
        goto done;
    }
    if ((rc = dbi_names_reindex(d, err)) != 0)
        goto done;
    if ((rc = exec_src(h, "SELECT count(*) FROM asset_names WHERE source = ?1", source, &rows,
                       err)) != 0)
        goto done;
    /* a Type the corpus contradicts: the ID is in some PAK, never with that type */
    if ((rc = exec_src(h,
                       "SELECT count(*) FROM asset_names n WHERE n.source = ?1 AND n.type IS "
                       "NOT NULL AND EXISTS (SELECT 1 FROM pak_entries e WHERE e.asset_id = "
                       "n.asset_id) AND NOT EXISTS (SELECT 1 FROM pak_entries e WHERE "
                       "e.asset_id = n.asset_id AND e.type = n.type)",
                       source, &st->type_mismatches, err)) != 0)
        goto done;
    if ((rc = db_commit(d, err)) != 0)
        goto done;
    in_tx = 0;
    st->entries = np.entries;
    st->rows = rows;
    st->duplicates = np.entries - rows;
    st->replaced = deleted;
done:
    if (in_tx)
        db_rollback(d);
    sqlite3_finalize(np.ins);
    XML_ParserFree(np.p);
    for (int i = 0; i < F_COUNT; i++)
        free(np.f[i].s);
    return rc;
}

int db_names_import(db *d, const char *path, db_names_stats *st, util_err *err)
{
    int fd = -1;
    size_t size = 0;
    memset(st, 0, sizeof *st);
    int rc = util_open_regular(path, &fd, &size, err);
    if (rc != 0)
        return rc;
    rc = import_any(d, base_name(path), fd, NULL, 0, st, err);
    close(fd);
    return rc;
}

int db_names_import_mem(db *d, const char *source, const char *xml, size_t len, db_names_stats *st,
                        util_err *err)
{
    return import_any(d, source, -1, xml, len, st, err);
}

/* ---- writing a map ------------------------------------------------------------------- */

/* Text as XML character data (util_xml_escape): tab, LF and CR as character references. */
static void put_escaped(FILE *f, const char *s)
{
    util_xml_escape(f, s, UTIL_XML_LINE_REFS);
}

static void put_entry(FILE *f, const db_name_entry *e)
{
    fprintf(f, "        <Asset>\n            <Key>%08X</Key>\n            <Value>\n",
            (unsigned)e->asset_id);
    fputs("                <Name>", f);
    put_escaped(f, e->name);
    fputs("</Name>\n                <Directory>", f);
    put_escaped(f, e->directory);
    fputs("</Directory>\n                <Type>", f);
    put_escaped(f, e->type);
    fprintf(f,
            "</Type>\n                <AutoGenName>%s</AutoGenName>\n"
            "                <AutoGenDir>%s</AutoGenDir>\n            </Value>\n"
            "        </Asset>\n",
            e->auto_name > 0 ? "true" : "false", e->auto_dir > 0 ? "true" : "false");
}

static const char map_head[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                               "<AssetNameMap Game=\"MPRM\" ArchiveVer=\"1\" FileVer=\"0\">\n"
                               "    <AssetNameMap>\n";
static const char map_tail[] = "    </AssetNameMap>\n</AssetNameMap>\n";

static int write_status(FILE *f, util_err *err)
{
    if (fflush(f) != 0 || ferror(f))
        return util_fail(err, UTIL_EIO, UINT64_MAX, "write error: %s", strerror(errno));
    return 0;
}

int db_names_write_map(FILE *f, const db_name_entry *entries, size_t n, util_err *err)
{
    fputs(map_head, f);
    for (size_t i = 0; i < n; i++)
        put_entry(f, &entries[i]);
    fputs(map_tail, f);
    return write_status(f, err);
}

int db_names_export(db *d, FILE *f, long *count, util_err *err)
{
    sqlite3 *h = d->h;
    sqlite3_stmt *st = NULL;
    /* one <Asset> per ID: the row asset_label shows (a map's, else the PAK name) */
    const char *sql =
        "SELECT n.asset_id, n.type, n.name, n.directory, n.auto_name, n.auto_dir "
        "FROM asset_names n WHERE n.source = ifnull((SELECT min(m.source) FROM asset_names m "
        "WHERE m.asset_id = n.asset_id AND m.source <> 'pak'), 'pak') ORDER BY n.asset_id";
    long k = 0;
    int s;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
        return sql_fail(h, err, "export");
    fputs(map_head, f);
    while ((s = sqlite3_step(st)) == SQLITE_ROW) {
        db_name_entry e = {
            .asset_id = (uint32_t)sqlite3_column_int64(st, 0),
            .type = (const char *)sqlite3_column_text(st, 1),
            .name = (const char *)sqlite3_column_text(st, 2),
            .directory = (const char *)sqlite3_column_text(st, 3),
            .auto_name = sqlite3_column_type(st, 4) == SQLITE_NULL ? 0 : sqlite3_column_int(st, 4),
            .auto_dir = sqlite3_column_type(st, 5) == SQLITE_NULL ? 0 : sqlite3_column_int(st, 5),
        };
        put_entry(f, &e);
        k++;
    }
    sqlite3_finalize(st);
    if (s != SQLITE_DONE)
        return sql_fail(h, err, "export");
    fputs(map_tail, f);
    if (count)
        *count = k;
    return write_status(f, err);
}

/* ---- the PAKs' named resources ------------------------------------------------------- */

int db_names_refresh_pak(db *d, util_err *err)
{
    sqlite3 *h = d->h;
    /* one row per asset: its first name by PAK path, then position in the named table */
    static const char sql[] = "DELETE FROM asset_names WHERE source = 'pak';"
                              "INSERT INTO asset_names (asset_id, type, name, directory, source) "
                              "SELECT asset_id, type, name, NULL, 'pak' FROM ("
                              " SELECT n.asset_id, n.type, n.name, row_number() OVER "
                              "  (PARTITION BY n.asset_id ORDER BY p.path, n.seq) AS k "
                              " FROM pak_names n JOIN paks p ON p.pak_id = n.pak_id) WHERE k = 1;";
    char *msg = NULL;
    if (sqlite3_exec(h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        int rc = util_fail(err, UTIL_ESQL, UINT64_MAX, "pak names: %s", msg ? msg : "?");
        sqlite3_free(msg);
        return rc;
    }
    return 0;
}
