/* output.c — result tables as aligned text, CSV (RFC 4180), JSON or TSV (CONTRACT.md). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "db.h"

int out_parse_format(const char *s, out_format *out)
{
    static const char *const names[] = {"table", "csv", "json", "tsv"};
    for (int i = 0; i < 4; i++)
        if (s && !strcmp(s, names[i])) {
            *out = (out_format)i;
            return 0;
        }
    return -1;
}

/* The columns db/columns.h declares asset IDs (and named queries' computed ID columns). */
int out_is_asset_column(const char *name)
{
    return db_is_id_column(name);
}

/* One cell as text plus how JSON should render it. */
enum { CELL_NULL, CELL_NUM, CELL_STR };
typedef struct cell {
    char *text; /* NUL-terminated; may also hold NULs (len says) */
    size_t len;
    int kind;
} cell;

struct out_table {
    FILE *f;
    out_format fmt;
    int ncols, col;
    char **names;
    long rows;
    /* table format: every cell kept until out_finish; others stream */
    cell *cells;
    size_t ncells, cap;
    cell *row; /* current row (streaming formats) */
    int oom;
    int term; /* csv or tsv written to a terminal: cells escaped as a table's are */
};

static char *dup_mem(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static char *dup_str(const char *s)
{
    return dup_mem(s, strlen(s));
}

static void csv_field(FILE *f, const char *s, size_t n)
{
    int quote = 0;
    for (size_t i = 0; i < n && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
    if (!quote) {
        fwrite(s, 1, n, f);
        return;
    }
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            fputc('"', f);
        fputc(s[i], f);
    }
    fputc('"', f);
}

static void tsv_field(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '\0':
            fputs("\\0", f);
            break;
        case '\t':
            fputs("\\t", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        case '\r':
            fputs("\\r", f);
            break;
        case '\\':
            fputs("\\\\", f);
            break;
        default:
            fputc(s[i], f);
        }
    }
}

/* A TSV field; on a terminal its escaped form is made terminal-safe as well (after, so that a
 * control shows as \x1b while a backslash of the data stays \\). */
static void tsv_cell(FILE *f, const char *s, size_t n, int term)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = term ? open_memstream(&buf, &len) : NULL;
    if (!m) {
        if (term)
            fputs("?", f); /* out of memory: nothing raw */
        else
            tsv_field(f, s, n);
        return;
    }
    tsv_field(m, s, n);
    fclose(m);
    char *safe = buf ? cli_term_escape(buf, len) : NULL;
    fputs(safe ? safe : "?", f);
    free(safe);
    free(buf);
}

static void header(out_table *t)
{
    const char *sep = t->fmt == OUT_CSV ? "," : "\t";
    if (t->fmt != OUT_CSV && t->fmt != OUT_TSV)
        return;
    for (int i = 0; i < t->ncols; i++) {
        if (i)
            fputs(sep, t->f);
        char *safe =
            t->term && t->fmt == OUT_CSV ? cli_term_escape(t->names[i], strlen(t->names[i])) : NULL;
        const char *name = safe ? safe : t->names[i];
        if (t->fmt == OUT_CSV)
            csv_field(t->f, name, strlen(name));
        else
            tsv_cell(t->f, name, strlen(name), t->term);
        free(safe);
    }
    fputs(t->fmt == OUT_CSV ? "\r\n" : "\n", t->f);
}

out_table *out_begin(FILE *f, out_format fmt, int ncols, const char *const *names)
{
    out_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->f = f;
    t->fmt = fmt;
    t->ncols = ncols;
    t->names = calloc((size_t)(ncols > 0 ? ncols : 1), sizeof *t->names);
    t->row = calloc((size_t)(ncols > 0 ? ncols : 1), sizeof *t->row);
    if (!t->names || !t->row) {
        free(t->names);
        free(t->row);
        free(t);
        return NULL;
    }
    for (int i = 0; i < ncols; i++)
        t->names[i] = dup_str(names[i] ? names[i] : "");
    /* the one string policy: nothing raw reaches a terminal, whatever the format (a file or
     * a pipe gets the bytes as they are) */
    int fd = fileno(f);
    t->term = (fmt == OUT_CSV || fmt == OUT_TSV) && fd >= 0 && isatty(fd);
    header(t);
    if (fmt == OUT_JSON)
        fputc('[', f);
    return t;
}

/* Take text[0..len) (owned) as the next cell. Table cells, and csv cells written to a
 * terminal (tsv's: tsv_cell), are kept terminal-safe (control characters and bytes that are not
 * UTF-8 shown escaped, see cli_term_escape). */
static void put(out_table *t, char *text, size_t len, int kind)
{
    if (t->col >= t->ncols) {
        free(text);
        return;
    }
    if (text && (t->fmt == OUT_TABLE || (t->term && t->fmt == OUT_CSV)) && kind == CELL_STR) {
        char *safe = cli_term_escape(text, len);
        free(text);
        text = safe;
        len = safe ? strlen(safe) : 0;
    }
    if (!text)
        t->oom = 1;
    t->row[t->col].text = text;
    t->row[t->col].len = text ? len : 0;
    t->row[t->col].kind = kind;
    t->col++;
}

void out_null(out_table *t)
{
    put(t, dup_str(""), 0, CELL_NULL);
}

void out_textn(out_table *t, const char *s, size_t n)
{
    if (!s) {
        out_null(t);
        return;
    }
    put(t, dup_mem(s, n), n, CELL_STR);
}

void out_text(out_table *t, const char *s)
{
    out_textn(t, s, s ? strlen(s) : 0);
}

void out_blob(out_table *t, const void *p, size_t n)
{
    const unsigned char *b = p;
    if (n > (SIZE_MAX - 4) / 2) {
        put(t, NULL, 0, CELL_STR);
        return;
    }
    char *hex = malloc(n * 2 + 4);
    if (!hex) {
        put(t, NULL, 0, CELL_STR);
        return;
    }
    hex[0] = 'x';
    hex[1] = '\'';
    for (size_t k = 0; k < n; k++)
        snprintf(hex + 2 + 2 * k, 3, "%02X", b[k]);
    hex[2 + 2 * n] = '\'';
    hex[3 + 2 * n] = '\0';
    put(t, hex, n * 2 + 3, CELL_STR);
}

static void put_str(out_table *t, const char *b, int kind)
{
    put(t, dup_str(b), strlen(b), kind);
}

void out_int(out_table *t, int64_t v)
{
    char b[32];
    snprintf(b, sizeof b, "%" PRId64, v);
    put_str(t, b, CELL_NUM);
}

void out_real(out_table *t, double v)
{
    char b[40];
    if (isnan(v) || isinf(v)) {
        snprintf(b, sizeof b, "%s", isnan(v) ? "NaN" : (v > 0 ? "Infinity" : "-Infinity"));
        put_str(t, b, CELL_STR);
        return;
    }
    snprintf(b, sizeof b, "%.15g", v);
    if (strtod(b, NULL) != v)
        snprintf(b, sizeof b, "%.17g", v);
    put_str(t, b, CELL_NUM);
}

void out_id(out_table *t, uint32_t v)
{
    char b[16];
    snprintf(b, sizeof b, "%08" PRIX32, v);
    put_str(t, b, CELL_STR);
}

static void emit_row(out_table *t, cell *row)
{
    FILE *f = t->f;
    if (t->fmt == OUT_JSON) {
        fputs(t->rows ? ",\n{" : "\n{", f);
        for (int i = 0; i < t->ncols; i++) {
            if (i)
                fputc(',', f);
            cli_json_cstr(f, t->names[i]);
            fputc(':', f);
            if (row[i].kind == CELL_NULL)
                fputs("null", f);
            else if (row[i].kind == CELL_NUM)
                fputs(row[i].text, f);
            else
                cli_json_string(f, row[i].text, row[i].len);
        }
        fputc('}', f);
        return;
    }
    for (int i = 0; i < t->ncols; i++) {
        if (i)
            fputc(t->fmt == OUT_CSV ? ',' : '\t', f);
        if (t->fmt == OUT_CSV)
            csv_field(f, row[i].text, row[i].len);
        else
            tsv_cell(f, row[i].text, row[i].len, t->term);
    }
    fputs(t->fmt == OUT_CSV ? "\r\n" : "\n", f);
}

void out_row_end(out_table *t)
{
    while (t->col < t->ncols)
        out_null(t);
    if (t->fmt == OUT_TABLE) {
        if (t->ncells + (size_t)t->ncols > t->cap) {
            size_t cap = t->cap ? t->cap * 2 : 256;
            while (cap < t->ncells + (size_t)t->ncols)
                cap *= 2;
            cell *nc = realloc(t->cells, cap * sizeof *nc);
            if (!nc) {
                t->oom = 1;
                for (int i = 0; i < t->ncols; i++)
                    free(t->row[i].text);
                t->col = 0;
                return;
            }
            t->cells = nc;
            t->cap = cap;
        }
        for (int i = 0; i < t->ncols; i++)
            if (!t->row[i].text) {
                t->row[i].text = dup_str("");
                t->row[i].len = 0;
            }
        memcpy(t->cells + t->ncells, t->row, (size_t)t->ncols * sizeof *t->row);
        t->ncells += (size_t)t->ncols;
    } else {
        for (int i = 0; i < t->ncols; i++)
            if (!t->row[i].text) {
                t->row[i].text = dup_str("");
                t->row[i].len = 0;
            }
        emit_row(t, t->row);
        for (int i = 0; i < t->ncols; i++)
            free(t->row[i].text);
    }
    t->rows++;
    t->col = 0;
}

static void pad(FILE *f, size_t n)
{
    while (n--)
        fputc(' ', f);
}

static int wide_output;

void out_set_wide(int wide)
{
    wide_output = wide;
}

/* The width to fit a table into: 0 when f is not a terminal or --wide was given. */
static size_t fit_width(FILE *f)
{
    int fd = fileno(f);
    if (wide_output || fd < 0 || !isatty(fd))
        return 0;
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    const char *c = getenv("COLUMNS");
    long v = c ? strtol(c, NULL, 10) : 0;
    return v > 0 && v < 100000 ? (size_t)v : 80;
}

/* Narrow the widest text columns, one cell at a time, until the table fits `width` cells
 * or no text column is wider than TABLE_MIN_CUT (8: IDs are never cut). */
#define TABLE_MIN_CUT 8
static void fit_columns(size_t *w, const unsigned char *text_col, int ncols, size_t width)
{
    size_t total = 0;
    for (int c = 0; c < ncols; c++)
        total += w[c] + (c + 1 < ncols ? 2 : 0);
    while (total > width) {
        int widest = -1;
        for (int c = 0; c < ncols; c++)
            if (text_col[c] && w[c] > TABLE_MIN_CUT && (widest < 0 || w[c] > w[widest]))
                widest = c;
        if (widest < 0)
            return;
        w[widest]--;
        total--;
    }
}

/* Print s in at most `cells` cells: cut, with U+2026 as its last cell, when it is wider.
 * Returns the cells printed. */
static size_t put_cut(FILE *f, const char *s, size_t cells)
{
    size_t cw = cli_text_width(s);
    if (cw <= cells) {
        fputs(s, f);
        return cw;
    }
    if (cells == 0)
        return 0;
    size_t used = 0, n = cli_text_fit(s, cells - 1, &used);
    fwrite(s, 1, n, f);
    fputs("\xe2\x80\xa6", f);
    return used + 1;
}

/* Aligned columns: numbers to the right, text to the left, NULL as an empty cell. Cell text
 * is already terminal-safe (put); column names are escaped here. On a terminal the widest
 * text columns are cut to fit its width (fit_width). */
static void finish_table(out_table *t)
{
    size_t nc = (size_t)(t->ncols > 0 ? t->ncols : 1);
    size_t *w = calloc(nc, sizeof *w);
    char **names = calloc(nc, sizeof *names);
    unsigned char *text_col = calloc(nc, 1);
    if (!w || !names || !text_col) {
        free(w);
        free(names);
        free(text_col);
        t->oom = 1;
        return;
    }
    for (int c = 0; c < t->ncols; c++) {
        names[c] = cli_term_escape(t->names[c], strlen(t->names[c]));
        w[c] = cli_text_width(names[c]);
    }
    for (size_t i = 0; i < t->ncells; i++) {
        size_t cw = cli_text_width(t->cells[i].text);
        if (cw > w[i % nc])
            w[i % nc] = cw;
        if (t->cells[i].kind == CELL_STR)
            text_col[i % nc] = 1;
    }
    size_t width = fit_width(t->f);
    if (width)
        fit_columns(w, text_col, t->ncols, width);
    for (int c = 0; c < t->ncols; c++) {
        const char *nm = names[c] ? names[c] : "";
        size_t cw = put_cut(t->f, nm, w[c]);
        if (c + 1 < t->ncols)
            pad(t->f, w[c] - cw + 2);
    }
    fputc('\n', t->f);
    for (int c = 0; c < t->ncols; c++) {
        for (size_t k = 0; k < w[c]; k++)
            fputc('-', t->f);
        if (c + 1 < t->ncols)
            fputs("  ", t->f);
    }
    fputc('\n', t->f);
    for (size_t i = 0; i < t->ncells; i++) {
        int c = (int)(i % nc);
        const char *s = t->cells[i].text;
        int right = t->cells[i].kind == CELL_NUM;
        size_t cw = cli_text_width(s);
        size_t fill = w[c] > cw ? w[c] - cw : 0;
        if (right)
            pad(t->f, fill);
        cw = put_cut(t->f, s, w[c]);
        if (c + 1 < t->ncols) {
            if (!right)
                pad(t->f, w[c] > cw ? w[c] - cw : 0);
            fputs("  ", t->f);
        } else {
            fputc('\n', t->f);
        }
    }
    for (int c = 0; c < t->ncols; c++)
        free(names[c]);
    free(names);
    free(text_col);
    free(w);
}

long out_finish(out_table *t)
{
    if (!t)
        return -1;
    if (t->col)
        out_row_end(t);
    if (t->fmt == OUT_TABLE)
        finish_table(t);
    else if (t->fmt == OUT_JSON)
        fputs(t->rows ? "\n]\n" : "]\n", t->f);
    long rows = t->oom ? -1 : t->rows;
    for (size_t i = 0; i < t->ncells; i++)
        free(t->cells[i].text);
    for (int i = 0; i < t->ncols; i++)
        free(t->names[i]);
    free(t->cells);
    free(t->names);
    free(t->row);
    free(t);
    return rows;
}
