/* test_pak_corpus.c — every PAK of the shared sample corpus against its truth:
 * resources.tsv (every table entry and the CRC-32 of its bytes) and truth.json (named
 * resources and counts per PAK). Skips when the corpus is absent. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "pak.h"
#include "testutil.h"

/* ---- resources.tsv ------------------------------------------------------------------ */

typedef struct tsv_row {
    char game[8], pak[64], type[5];
    unsigned long index, id, compressed, offset, stored_size, decompressed_size, crc32;
} tsv_row;

typedef struct tsv {
    tsv_row *rows;
    size_t n;
} tsv;

static void load_tsv(tsv *t, const char *corpus)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/resources.tsv", corpus);
    size_t len;
    char *text = (char *)tu_read_file(path, &len);
    assert_non_null(text);
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    t->rows = calloc(lines + 1, sizeof *t->rows);
    t->n = 0;
    char *save = NULL;
    char *line = strtok_r(text, "\n", &save);
    assert_non_null(line);
    assert_string_equal(line, "game\tpak\tindex\ttype\tid\tcompressed\toffset\tstored_size\t"
                              "decompressed_size\tcrc32");
    while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
        tsv_row *r = &t->rows[t->n++];
        int got = sscanf(line, "%7[^\t]\t%63[^\t]\t%lu\t%4[^\t]\t%lu\t%lu\t%lu\t%lu\t%lu\t%lu",
                         r->game, r->pak, &r->index, r->type, &r->id, &r->compressed, &r->offset,
                         &r->stored_size, &r->decompressed_size, &r->crc32);
        assert_int_equal(got, 10);
    }
    free(text);
}

/* ---- truth.json: just enough to read games.<g>.paks[] ------------------------------- */

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
        p++;
    return p;
}

/* The JSON string at p (escapes \" \\ and \/ only, which is all names use) into out. */
static const char *read_string(const char *p, char *out, size_t cap)
{
    size_t n = 0;
    assert_int_equal(*p, '"');
    for (p++; *p != '"'; p++) {
        assert_true(*p != '\0');
        if (*p == '\\') {
            p++;
            assert_true(*p == '"' || *p == '\\' || *p == '/');
        }
        assert_true(n + 1 < cap);
        out[n++] = *p;
    }
    out[n] = '\0';
    return p + 1;
}

/* Skip one JSON value (object, array, string, number, literal). */
static const char *skip_value(const char *p)
{
    p = skip_ws(p);
    if (*p == '"') {
        char tmp[4096];
        return read_string(p, tmp, sizeof tmp);
    }
    if (*p == '{' || *p == '[') {
        int depth = 0;
        do {
            if (*p == '"') {
                p = skip_value(p);
                continue;
            }
            if (*p == '{' || *p == '[')
                depth++;
            else if (*p == '}' || *p == ']')
                depth--;
            assert_true(*p != '\0');
            p++;
        } while (depth > 0);
        return p;
    }
    while (*p && *p != ',' && *p != '}' && *p != ']')
        p++;
    return p;
}

/* Value of member `key` of the JSON object at p, or NULL. */
static const char *member(const char *p, const char *key)
{
    p = skip_ws(p);
    assert_int_equal(*p, '{');
    p = skip_ws(p + 1);
    while (*p == '"') {
        char k[128];
        p = skip_ws(read_string(p, k, sizeof k));
        assert_int_equal(*p, ':');
        p = skip_ws(p + 1);
        if (!strcmp(k, key))
            return p;
        p = skip_ws(skip_value(p));
        if (*p == ',')
            p = skip_ws(p + 1);
    }
    return NULL;
}

typedef struct truth_named {
    char type[5];
    unsigned long id;
    char name[256];
} truth_named;

typedef struct truth_pak {
    char path[128];
    unsigned long file_size, named_count, resource_count;
    truth_named *named;
    size_t nnamed;
} truth_pak;

/* Parse the object at p (one element of paks[]). */
static const char *read_truth_pak(const char *p, truth_pak *tp)
{
    const char *end = skip_value(p);
    const char *v = member(p, "path");
    assert_non_null(v);
    read_string(v, tp->path, sizeof tp->path);
    assert_non_null(v = member(p, "file_size"));
    tp->file_size = strtoul(v, NULL, 10);
    assert_non_null(v = member(p, "named_count"));
    tp->named_count = strtoul(v, NULL, 10);
    assert_non_null(v = member(p, "resource_count"));
    tp->resource_count = strtoul(v, NULL, 10);
    assert_non_null(v = member(p, "named_resources"));
    assert_int_equal(*v, '[');
    const char *arr_end = skip_value(v);
    (void)end;
    tp->named = calloc(tp->named_count + 1, sizeof *tp->named);
    tp->nnamed = 0;
    for (const char *q = skip_ws(v + 1); *q == '{'; q = skip_ws(q)) {
        const char *oend = skip_value(q);
        assert_true(tp->nnamed < tp->named_count);
        truth_named *n = &tp->named[tp->nnamed++];
        const char *f;
        assert_non_null(f = member(q, "type"));
        read_string(f, n->type, sizeof n->type);
        assert_non_null(f = member(q, "id"));
        n->id = strtoul(f, NULL, 10);
        assert_non_null(f = member(q, "name"));
        read_string(f, n->name, sizeof n->name);
        q = skip_ws(oend);
        if (*q == ',')
            q++;
        assert_true(q <= arr_end);
    }
    return end;
}

/* All paks of games.<game>.paks. */
static truth_pak *load_truth(const char *json, const char *game, size_t *count)
{
    const char *games = member(json, "games");
    assert_non_null(games);
    const char *g = member(games, game);
    assert_non_null(g);
    const char *paks = member(g, "paks");
    assert_non_null(paks);
    assert_int_equal(*paks, '[');
    size_t cap = 64, n = 0;
    truth_pak *out = calloc(cap, sizeof *out);
    for (const char *q = skip_ws(paks + 1); *q == '{';) {
        assert_true(n < cap);
        q = skip_ws(read_truth_pak(q, &out[n++]));
        if (*q == ',')
            q = skip_ws(q + 1);
    }
    *count = n;
    return out;
}

/* ---- the test ------------------------------------------------------------------------ */

static void check_game(const char *corpus, const char *json, const tsv *t, const char *game,
                       pak_game want)
{
    size_t npaks = 0;
    truth_pak *tps = load_truth(json, game, &npaks);
    assert_true(npaks > 0);

    /* every .pak of the folder is in truth */
    char dirpath[1024];
    snprintf(dirpath, sizeof dirpath, "%s/%s", corpus, game);
    DIR *d = opendir(dirpath);
    assert_non_null(d);
    size_t on_disk = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l > 4 && !strcmp(de->d_name + l - 4, ".pak"))
            on_disk++;
    }
    closedir(d);
    assert_int_equal(on_disk, npaks);

    size_t rows_seen = 0;
    for (size_t k = 0; k < npaks; k++) {
        truth_pak *tp = &tps[k];
        const char *base = strrchr(tp->path, '/');
        assert_non_null(base);
        base++;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", corpus, tp->path);
        pak_file *p = NULL;
        util_err err;
        util_err_clear(&err);
        int rc = pak_open(&p, path, &err);
        if (rc)
            fail_msg("%s: %s @%llu", path, err.msg, (unsigned long long)err.offset);
        assert_int_equal(p->size, tp->file_size);
        assert_int_equal(p->named_count, tp->named_count);
        assert_int_equal(p->entry_count, tp->resource_count);
        assert_int_equal(tp->nnamed, tp->named_count);
        for (uint32_t i = 0; i < p->named_count; i++) {
            char type[5];
            util_fourcc_str(p->named[i].type, type);
            assert_string_equal(type, tp->named[i].type);
            assert_int_equal(p->named[i].id, tp->named[i].id);
            assert_string_equal(p->named[i].name, tp->named[i].name);
            assert_int_equal(p->named[i].name_len, strlen(tp->named[i].name));
        }
        if (p->anomaly_count)
            fail_msg("%s: unexpected anomaly %s: %s", path, p->anomalies[0].code,
                     p->anomalies[0].msg);

        size_t matched = 0;
        int signals = 0;
        for (size_t r = 0; r < t->n; r++) {
            const tsv_row *row = &t->rows[r];
            if (strcmp(row->game, game) || strcmp(row->pak, base))
                continue;
            matched++;
            signals |= row->compressed || !strcmp(row->type, "ANCS") ||
                       strstr("EVNT CTWK SPSC SRSC CSPP PTLA RULE EGMC STLC FSM2", row->type);
            assert_true(row->index < p->entry_count);
            const pak_entry *e = &p->entries[row->index];
            char type[5];
            util_fourcc_str(e->type, type);
            assert_string_equal(type, row->type);
            assert_int_equal(e->id, row->id);
            assert_int_equal(e->compressed, row->compressed);
            assert_int_equal(e->offset, row->offset);
            assert_int_equal(e->size, row->stored_size);
            assert_int_equal(e->decompressed_size, row->decompressed_size);
            assert_true(e->in_bounds);
            uint8_t *out = NULL;
            size_t n = 0;
            rc = pak_inflate(&out, &n, p, e->index, PAK_MAX_INFLATE, &err);
            if (rc)
                fail_msg("%s entry %lu: %s @%llu", path, row->index, err.msg,
                         (unsigned long long)err.offset);
            /* stored entries come with their 0xFF padding; the truth's bytes stop before */
            assert_true(n >= row->decompressed_size);
            for (size_t i = row->decompressed_size; i < n; i++)
                assert_int_equal(out[i], 0xFF);
            uLong crc = crc32(0L, Z_NULL, 0);
            crc = crc32(crc, out, (uInt)row->decompressed_size);
            if (crc != row->crc32)
                fail_msg("%s entry %lu: crc32 %lu, truth %lu", path, row->index, crc, row->crc32);
            free(out);
        }
        assert_int_equal(matched, p->entry_count);
        rows_seen += matched;

        int conflict = -1;
        pak_game g = tu_pak_game(p, &conflict);
        if (!signals) /* nothing compressed, no ANCS, no one-game type (§2.7) */
            assert_true(g == PAK_GAME_UNKNOWN || g == want);
        else if (g != want)
            fail_msg("%s: detected %s, expected %s", path, pak_game_name(g), pak_game_name(want));
        assert_int_equal(conflict, 0);
        pak_close(p);
        free(tp->named);
    }
    /* every tsv row of this game belonged to some pak of truth */
    size_t game_rows = 0;
    for (size_t r = 0; r < t->n; r++)
        game_rows += !strcmp(t->rows[r].game, game);
    assert_int_equal(rows_seen, game_rows);
    free(tps);
}

static void test_corpus(void **state)
{
    (void)state;
    const char *corpus = tu_corpus_dir();
    if (!corpus)
        TU_SKIP();
    tsv t;
    load_tsv(&t, corpus);
    char path[1024];
    snprintf(path, sizeof path, "%s/truth.json", corpus);
    size_t len;
    char *json = (char *)tu_read_file(path, &len);
    assert_non_null(json);
    check_game(corpus, json, &t, "mp1", PAK_GAME_MP1);
    check_game(corpus, json, &t, "mp2", PAK_GAME_MP2);
    free(json);
    free(t.rows);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
    };
    return tu_status(cmocka_run_group_tests(tests, NULL, NULL));
}
