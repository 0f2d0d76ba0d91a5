/* gen_sql.c — run at build time: SQL written from the declarations of db/columns.h.
 *
 *   gen_sql views OUT.c OUT.sql   every `v_` view: OUT.c holds db_views_sql[][2] = {name,
 *                                 "CREATE VIEW ..."} in creation order (db/views.c makes
 *                                 them), OUT.sql the same statements for people to read
 *   gen_sql fill IN OUT           IN with each line `-- @gen NAME [ARG...]` replaced by the
 *                                 text NAME writes (census fields, release-diff-fields
 *                                 lists); every other line as it is
 *
 * A host tool: it prints, and exits 1 on a bad declaration or an unwritable file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../columns.h"

typedef struct id_col {
    const char *table, *column, *shown, *type;
} id_col;
typedef struct pair {
    const char *table, *column, *extra;
} pair;
/* owners: column = the key columns */
typedef struct owner_col {
    const char *table, *ancs, *char_index, *when;
} owner_col;

#define ID_ROW(t, c, s, ty) {#t, #c, #s, ty},
static const id_col ids[] = {DB_ID_COLUMNS(ID_ROW)};
#define HEX_ROW(t, c) {#t, #c, NULL},
static const pair hexes[] = {DB_HEX_COLUMNS(HEX_ROW)};
#define ENUM_ROW(t, c, l) {#t, #c, #l},
static const pair enums[] = {DB_ENUM_COLUMNS(ENUM_ROW)};
#define CHAR_ROW(t, a, c, w) {#t, #a, #c, w},
static const owner_col chars[] = {DB_CHARACTER_OWNERS(CHAR_ROW)};
#define OWNER_ROW(t, k) {#t, k, NULL},
static const pair owners[] = {DB_OWNERS(OWNER_ROW)};

enum { IT_END, IT_COL, IT_BARE, IT_CHAR, IT_EXPR };
typedef struct item {
    int kind;
    const char *a, *b, *c;
} item;
#define VI_C(col)              {IT_COL, #col, NULL, NULL},
#define VI_B(col)              {IT_BARE, #col, NULL, NULL},
#define VI_K()                 {IT_CHAR, NULL, NULL, NULL},
#define VI_X(expr, name, join) {IT_EXPR, expr, #name, join},
#define VIEW_ITEMS(v, t, f)    static const item items_##v[] = {DBV_##v(VI_C, VI_B, VI_K, VI_X){0}};
DB_VIEWS(VIEW_ITEMS)
typedef struct view {
    const char *name, *table, *from;
    const item *items;
} view;
#define VIEW_ROW(v, t, f) {#v, #t, #f, items_##v},
static const view views[] = {DB_VIEWS(VIEW_ROW)};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void die(const char *what, const char *arg)
{
    fprintf(stderr, "gen_sql: %s%s%s\n", what, arg ? ": " : "", arg ? arg : "");
    exit(1);
}

/* ---- a growing string ------------------------------------------------------------------ */
typedef struct buf {
    char *p;
    size_t n, cap;
} buf;

static void put(buf *b, const char *s)
{
    size_t k = strlen(s);
    if (b->n + k + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->n + k + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p)
            die("out of memory", NULL);
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, k + 1);
    b->n += k;
}

static void putf(buf *b, const char *fmt, const char *a, const char *c, const char *d)
{
    char tmp[1024];
    int n = snprintf(tmp, sizeof tmp, fmt, a, c, d);
    if (n < 0 || (size_t)n >= sizeof tmp)
        die("line too long", fmt);
    put(b, tmp);
}

/* ---- roles -------------------------------------------------------------------------------*/
static const id_col *find_id(const char *table, const char *column)
{
    for (size_t i = 0; i < NELEM(ids); i++)
        if (!strcmp(ids[i].table, table) && !strcmp(ids[i].column, column))
            return &ids[i];
    return NULL;
}

static const pair *find_pair(const pair *list, size_t n, const char *table, const char *column)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(list[i].table, table) && (!column || !strcmp(list[i].column, column)))
            return &list[i];
    return NULL;
}

/* ---- views -------------------------------------------------------------------------------*/
/* Adds join to joins unless it is there already. */
static void add_join(const char **joins, size_t *n, const char *join)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(joins[i], join))
            return;
    if (*n >= 64)
        die("too many joins", join);
    joins[(*n)++] = join;
}

static void view_sql(buf *b, const view *v)
{
    const char *joins[64];
    char *owned[64];
    size_t nj = 0, no = 0;
    buf cols = {0};
    int first = 1;
    char tmp[1024];
    putf(b, "CREATE VIEW %s AS\nSELECT ", v->name, NULL, NULL);
    for (const item *it = v->items; it->kind != IT_END; it++) {
        if (!first)
            put(&cols, ",\n       ");
        first = 0;
        if (it->kind == IT_EXPR) {
            putf(&cols, "%s AS %s", it->a, it->b, NULL);
            if (*it->c)
                add_join(joins, &nj, it->c);
            continue;
        }
        if (it->kind == IT_CHAR) {
            const owner_col *o = NULL;
            for (size_t i = 0; i < NELEM(chars); i++)
                if (!strcmp(chars[i].table, v->table))
                    o = &chars[i];
            if (!o)
                die("K() in a view of a table without DB_CHARACTER_OWNERS", v->name);
            put(&cols, "c.name AS character");
            snprintf(tmp, sizeof tmp,
                     "LEFT JOIN characters c ON %s%sc.game = t.game AND c.ancs_id = t.%s\n"
                     "                      AND c.content_id = t.content_id AND c.char_index = "
                     "t.%s",
                     o->when, *o->when ? " AND " : "", o->ancs, o->char_index);
            owned[no] = strdup(tmp);
            if (!owned[no])
                die("out of memory", NULL);
            add_join(joins, &nj, owned[no++]);
            continue;
        }
        const char *c = it->a;
        const id_col *id = find_id(v->table, c);
        const pair *hex = find_pair(hexes, NELEM(hexes), v->table, c);
        const pair *en = find_pair(enums, NELEM(enums), v->table, c);
        if (it->kind == IT_BARE && !id)
            die("B() of a column that is no ID", c);
        if (id) {
            putf(&cols,
                 "CASE WHEN t.%s IS NULL THEN NULL ELSE printf('%%08X', t.%s) END COLLATE "
                 "NOCASE AS %s",
                 c, c, id->shown);
            if (it->kind == IT_COL) {
                putf(&cols, ",\n       n_%s.label AS %s_name", id->shown, id->shown, NULL);
                snprintf(tmp, sizeof tmp, "LEFT JOIN asset_label n_%s ON n_%s.asset_id = t.%s",
                         id->shown, id->shown, c);
                owned[no] = strdup(tmp);
                if (!owned[no])
                    die("out of memory", NULL);
                add_join(joins, &nj, owned[no++]);
            }
        } else if (hex) {
            putf(&cols, "CASE WHEN t.%s IS NULL THEN NULL ELSE printf('%%08X', t.%s) END AS %s", c,
                 c, c);
        } else if (en) {
            putf(&cols, "t.%s,\n       l_%s.label AS %s_label", c, c, c);
            snprintf(tmp, sizeof tmp, "LEFT JOIN label_%s l_%s ON l_%s.value = t.%s", en->extra, c,
                     c, c);
            owned[no] = strdup(tmp);
            if (!owned[no])
                die("out of memory", NULL);
            add_join(joins, &nj, owned[no++]);
        } else {
            putf(&cols, "t.%s", c, NULL, NULL);
        }
        if (no >= 60)
            die("too many columns", v->name);
    }
    put(b, cols.p);
    free(cols.p);
    putf(b, "\nFROM %s t", v->from, NULL, NULL);
    for (size_t i = 0; i < nj; i++) {
        put(b, "\n");
        put(b, joins[i]);
    }
    for (size_t i = 0; i < no; i++)
        free(owned[i]);
}

/* Writes s as a C string literal (in pieces of at most 200 bytes). */
static void c_string(FILE *f, const char *s)
{
    size_t k = 0;
    fputs("\n        \"", f);
    for (; *s; s++, k++) {
        if (k >= 200) {
            fputs("\"\n        \"", f);
            k = 0;
        }
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if (*s == '\n')
            fputs("\\n", f);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static FILE *open_out(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        die("cannot write", path);
    return f;
}

static void close_out(FILE *f, const char *path)
{
    if (ferror(f) | fclose(f))
        die("cannot write", path);
}

static void gen_views(const char *out_c, const char *out_sql)
{
    FILE *fc = open_out(out_c), *fs = open_out(out_sql);
    fputs("/* generated from db/columns.h by db/gen/gen_sql.c: every v_ view, in creation order "
          "*/\n#include <stddef.h>\nextern const char *const db_views_sql[][2];\n"
          "const char *const db_views_sql[][2] = {\n",
          fc);
    fputs("-- generated from db/columns.h by db/gen/gen_sql.c: every v_ view, in creation order\n",
          fs);
    for (size_t i = 0; i < NELEM(views); i++) {
        buf b = {0};
        view_sql(&b, &views[i]);
        fprintf(fc, "    {\"%s\",", views[i].name);
        c_string(fc, b.p);
        fputs("},\n", fc);
        fprintf(fs, "\n%s;\n", b.p);
        free(b.p);
    }
    fputs("    {NULL, NULL}};\n", fc);
    close_out(fc, out_c);
    close_out(fs, out_sql);
}

/* ---- `-- @gen NAME` blocks ---------------------------------------------------------------*/
#define DIFF_ROW(t, c) {#t, #c, NULL},
static const pair diffs[] = {DB_DIFF_FIELDS(DIFF_ROW)};

typedef struct census_field {
    const char *field, *table, *value, *where, *group;
    int cast; /* value and group are a column: CAST(column AS TEXT), column */
} census_field;
#define CENSUS_CV(f, t, c, w)    {f, #t, #c, w, #c, 1},
#define CENSUS_CX(f, t, v, w, g) {f, #t, v, w, g, 0},
static const census_field census[] = {DB_CENSUS_FIELDS(CENSUS_CV, CENSUS_CX){0}};
static const census_field census_world[] = {DB_CENSUS_WORLD_FIELDS(CENSUS_CV, CENSUS_CX){0}};

typedef struct wrap {
    FILE *f;
    int col; /* the column the line has reached */
    const char *indent;
} wrap;

/* Writes piece after a space, or on a new line (indented) past 100 columns. */
static void wrap_put(wrap *w, const char *piece)
{
    int k = (int)strlen(piece);
    if (w->col + 1 + k > 100) {
        fprintf(w->f, "\n%s", w->indent);
        w->col = (int)strlen(w->indent);
    } else {
        fputc(' ', w->f);
        w->col++;
    }
    fputs(piece, w->f);
    w->col += k;
}

/* ), f_<table>(f) AS (VALUES ('column'), ...) for each table of DB_DIFF_FIELDS. */
static void diff_field_lists(FILE *f)
{
    for (size_t i = 0; i < NELEM(diffs); i++) {
        if (i && !strcmp(diffs[i - 1].table, diffs[i].table))
            continue;
        fprintf(f, "), f_%s(f) AS (\n    VALUES", diffs[i].table);
        wrap w = {f, 10, "           "};
        for (size_t k = i; k < NELEM(diffs) && !strcmp(diffs[k].table, diffs[i].table); k++) {
            char piece[128];
            int last = k + 1 == NELEM(diffs) || strcmp(diffs[k + 1].table, diffs[i].table);
            snprintf(piece, sizeof piece, "('%s')%s", diffs[k].column, last ? "" : ",");
            wrap_put(&w, piece);
        }
        fputc('\n', f);
    }
}

/* CASE f.f WHEN 'column' THEN alias.column ... END AS name, for the fields of table. */
static void diff_case(FILE *f, const char *table, const char *alias, const char *name)
{
    int n = 0;
    wrap w = {f, 19, "                    "};
    fputs("           CASE f.f", f);
    for (size_t i = 0; i < NELEM(diffs); i++) {
        if (strcmp(diffs[i].table, table))
            continue;
        char piece[256];
        snprintf(piece, sizeof piece, "WHEN '%s' THEN %s.%s", diffs[i].column, alias,
                 diffs[i].column);
        wrap_put(&w, piece);
        n++;
    }
    if (!n)
        die("diff_case of a table without DB_DIFF_FIELDS", table);
    char end[128];
    snprintf(end, sizeof end, "END AS %s,", name);
    wrap_put(&w, end);
    fputc('\n', f);
}

/* VALUES ('table.column'), ... for the compared fields that hold asset IDs. */
static void diff_id_fields(FILE *f)
{
    wrap w = {f, 10, "           "};
    fputs("    VALUES", f);
    int n = 0;
    for (size_t i = 0; i < NELEM(diffs); i++)
        if (find_id(diffs[i].table, diffs[i].column))
            n++;
    for (size_t i = 0; i < NELEM(diffs); i++) {
        if (!find_id(diffs[i].table, diffs[i].column))
            continue;
        char piece[256];
        snprintf(piece, sizeof piece, "('%s.%s')%s", diffs[i].table, diffs[i].column,
                 --n ? "," : "");
        wrap_put(&w, piece);
    }
    fputc('\n', f);
}

/* One counted SELECT per entry of list (`-- @count`: db/census_run.c counts its rows per
 * content, game, value and group into census_contents, as an INSERT ... GROUP BY content_id,
 * game, group would): the rows of the contents of temp table `from` (which holds their key
 * under each owner name DB_OWNERS uses), in content order: from's rows lead. */
static void census_fields(FILE *f, const census_field *list, const char *from)
{
    for (const census_field *c = list; c->field; c++) {
        const pair *o = find_pair(owners, NELEM(owners), c->table, NULL);
        if (!o)
            die("census field of a table without DB_OWNERS", c->field);
        fputs("-- @count\n", f);
        if (c->cast)
            fprintf(f, "SELECT content_id, game, '%s', CAST(%s AS TEXT), %s\n", c->field, c->value,
                    c->group);
        else
            fprintf(f, "SELECT content_id, game, '%s', %s, %s\n", c->field, c->value, c->group);
        if (*o->column)
            fprintf(f, "FROM %s CROSS JOIN %s USING (%s)", from, c->table, o->column);
        else
            fprintf(f, "FROM %s", c->table);
        if (*c->where)
            fprintf(f, "\nWHERE %s", c->where);
        fputs(";\n", f);
    }
}

static void fill_line(FILE *f, char *line)
{
    char *words[8];
    int n = 0;
    for (char *w = strtok(line, " \t\n"); w && n < 8; w = strtok(NULL, " \t\n"))
        words[n++] = w;
    if (n == 3 && !strcmp(words[2], "diff_field_lists"))
        diff_field_lists(f);
    else if (n == 6 && !strcmp(words[2], "diff_case"))
        diff_case(f, words[3], words[4], words[5]);
    else if (n == 3 && !strcmp(words[2], "diff_id_fields"))
        diff_id_fields(f);
    else if (n == 5 && !strcmp(words[2], "census_fields"))
        census_fields(f, !strcmp(words[4], "world") ? census_world : census, words[3]);
    else
        die("unknown @gen block", n > 2 ? words[2] : line);
}

static void gen_fill(const char *in, const char *out)
{
    FILE *fi = fopen(in, "r");
    if (!fi)
        die("cannot read", in);
    FILE *fo = open_out(out);
    char line[4096];
    while (fgets(line, sizeof line, fi)) {
        if (!strncmp(line, "-- @gen ", 8))
            fill_line(fo, line);
        else
            fputs(line, fo);
    }
    fclose(fi);
    close_out(fo, out);
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "views"))
        gen_views(argv[2], argv[3]);
    else if (argc == 4 && !strcmp(argv[1], "fill"))
        gen_fill(argv[2], argv[3]);
    else
        die("usage: gen_sql views OUT.c OUT.sql | gen_sql fill IN OUT", NULL);
    return 0;
}
