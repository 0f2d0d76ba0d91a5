/* json_min.c — see json_min.h. Recursive descent, depth-limited. */
#include "json_min.h"

#include <stdlib.h>
#include <string.h>

typedef struct jp {
    const char *s;
    size_t len, pos;
    int depth;
} jp;

static void ws(jp *p)
{
    while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\n' ||
                               p->s[p->pos] == '\r' || p->s[p->pos] == '\t'))
        p->pos++;
}

static void node_clear(jm_node *n)
{
    if (n->type == JM_STR)
        free(n->str);
    if (n->type == JM_ARR || n->type == JM_OBJ) {
        for (size_t i = 0; i < n->count; i++) {
            node_clear(&n->items[i]);
            if (n->keys)
                free(n->keys[i]);
        }
        free(n->items);
        free(n->keys);
    }
    memset(n, 0, sizeof *n);
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static char *parse_str(jp *p)
{
    if (p->pos >= p->len || p->s[p->pos] != '"')
        return NULL;
    p->pos++;
    size_t cap = 16, n = 0;
    char *out = malloc(cap);
    while (out && p->pos < p->len && p->s[p->pos] != '"') {
        unsigned c = (unsigned char)p->s[p->pos++];
        if (c == '\\') {
            if (p->pos >= p->len)
                break;
            char e = p->s[p->pos++];
            switch (e) {
            case 'n':
                c = '\n';
                break;
            case 't':
                c = '\t';
                break;
            case 'r':
                c = '\r';
                break;
            case 'b':
                c = '\b';
                break;
            case 'f':
                c = '\f';
                break;
            case 'u': {
                unsigned v = 0;
                for (int k = 0; k < 4; k++) {
                    int h = p->pos < p->len ? hexval(p->s[p->pos++]) : -1;
                    if (h < 0) {
                        free(out);
                        return NULL;
                    }
                    v = v * 16 + (unsigned)h;
                }
                /* a surrogate pair is one character */
                if (v >= 0xD800 && v <= 0xDBFF && p->pos + 6 <= p->len && p->s[p->pos] == '\\' &&
                    p->s[p->pos + 1] == 'u') {
                    unsigned lo = 0;
                    int ok = 1;
                    for (int k = 0; k < 4; k++) {
                        int h = hexval(p->s[p->pos + 2 + (size_t)k]);
                        ok &= h >= 0;
                        lo = lo * 16 + (unsigned)(h < 0 ? 0 : h);
                    }
                    if (ok && lo >= 0xDC00 && lo <= 0xDFFF) {
                        v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
                        p->pos += 6;
                    }
                }
                /* UTF-8: every byte but the last goes out here, the last below */
                if (v >= 0x80) {
                    char nb4[4];
                    int k = 0;
                    if (v < 0x800) {
                        nb4[k++] = (char)(0xC0 | v >> 6);
                    } else if (v < 0x10000) {
                        nb4[k++] = (char)(0xE0 | v >> 12);
                        nb4[k++] = (char)(0x80 | (v >> 6 & 0x3F));
                    } else {
                        nb4[k++] = (char)(0xF0 | v >> 18);
                        nb4[k++] = (char)(0x80 | (v >> 12 & 0x3F));
                        nb4[k++] = (char)(0x80 | (v >> 6 & 0x3F));
                    }
                    for (int j = 0; j < k; j++) {
                        if (n + 2 > cap) {
                            char *nb = realloc(out, cap *= 2);
                            if (!nb) {
                                free(out);
                                return NULL;
                            }
                            out = nb;
                        }
                        out[n++] = nb4[j];
                    }
                    v = 0x80 | (v & 0x3F);
                }
                c = v;
                break;
            }
            default:
                c = (unsigned char)e;
            }
        }
        if (n + 2 > cap) {
            char *nb = realloc(out, cap *= 2);
            if (!nb) {
                free(out);
                return NULL;
            }
            out = nb;
        }
        out[n++] = (char)c;
    }
    if (!out || p->pos >= p->len) {
        free(out);
        return NULL;
    }
    p->pos++; /* closing quote */
    out[n] = 0;
    return out;
}

static int parse_value(jp *p, jm_node *n);

static int push(jm_node *n, size_t *cap, int with_keys)
{
    if (n->count < *cap)
        return 0;
    size_t nc = *cap ? *cap * 2 : 4;
    jm_node *ni = realloc(n->items, nc * sizeof *ni);
    if (!ni)
        return -1;
    n->items = ni;
    if (with_keys) {
        char **nk = realloc(n->keys, nc * sizeof *nk);
        if (!nk)
            return -1;
        n->keys = nk;
    }
    *cap = nc;
    return 0;
}

static int parse_value(jp *p, jm_node *n)
{
    memset(n, 0, sizeof *n);
    ws(p);
    if (p->pos >= p->len || ++p->depth > 512)
        return -1;
    char c = p->s[p->pos];
    int rc = 0;
    if (c == '{' || c == '[') {
        int obj = c == '{';
        n->type = obj ? JM_OBJ : JM_ARR;
        p->pos++;
        size_t cap = 0;
        ws(p);
        if (p->pos < p->len && p->s[p->pos] == (obj ? '}' : ']')) {
            p->pos++;
        } else {
            for (;;) {
                if (push(n, &cap, obj))
                    return -1;
                if (obj) {
                    ws(p);
                    char *k = parse_str(p);
                    if (!k)
                        return -1;
                    n->keys[n->count] = k;
                    ws(p);
                    if (p->pos >= p->len || p->s[p->pos] != ':') {
                        n->count++;
                        n->items[n->count - 1].type = JM_NULL;
                        return -1;
                    }
                    p->pos++;
                }
                rc = parse_value(p, &n->items[n->count]);
                n->count++;
                if (rc)
                    return -1;
                ws(p);
                if (p->pos < p->len && p->s[p->pos] == ',') {
                    p->pos++;
                    continue;
                }
                if (p->pos < p->len && p->s[p->pos] == (obj ? '}' : ']')) {
                    p->pos++;
                    break;
                }
                return -1;
            }
        }
    } else if (c == '"') {
        n->type = JM_STR;
        n->str = parse_str(p);
        if (!n->str)
            rc = -1;
    } else if (!strncmp(p->s + p->pos, "null", p->len - p->pos < 4 ? p->len - p->pos : 4) &&
               p->len - p->pos >= 4) {
        n->type = JM_NULL;
        p->pos += 4;
    } else if (p->len - p->pos >= 4 && !strncmp(p->s + p->pos, "true", 4)) {
        n->type = JM_BOOL;
        n->boolean = 1;
        p->pos += 4;
    } else if (p->len - p->pos >= 5 && !strncmp(p->s + p->pos, "false", 5)) {
        n->type = JM_BOOL;
        p->pos += 5;
    } else {
        size_t start = p->pos;
        int frac = 0;
        while (p->pos < p->len && strchr("+-0123456789.eE", p->s[p->pos])) {
            if (strchr(".eE", p->s[p->pos]))
                frac = 1;
            p->pos++;
        }
        if (p->pos == start || p->pos - start > 63)
            return -1;
        char tmp[64];
        memcpy(tmp, p->s + start, p->pos - start);
        tmp[p->pos - start] = 0;
        n->type = JM_NUM;
        n->num = strtod(tmp, NULL);
        n->is_int = !frac;
        if (!frac)
            n->i = strtoll(tmp, NULL, 10);
    }
    p->depth--;
    return rc;
}

jm_node *jm_parse(const char *text, size_t len)
{
    jp p = {text, len, 0, 0};
    jm_node *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    if (parse_value(&p, n)) {
        jm_free(n);
        return NULL;
    }
    ws(&p);
    if (p.pos != p.len) {
        jm_free(n);
        return NULL;
    }
    return n;
}

void jm_free(jm_node *n)
{
    if (!n)
        return;
    node_clear(n);
    free(n);
}

const jm_node *jm_get(const jm_node *n, const char *key)
{
    if (!n || n->type != JM_OBJ)
        return NULL;
    for (size_t i = 0; i < n->count; i++)
        if (!strcmp(n->keys[i], key))
            return &n->items[i];
    return NULL;
}

const jm_node *jm_at(const jm_node *n, size_t i)
{
    if (!n || n->type != JM_ARR || i >= n->count)
        return NULL;
    return &n->items[i];
}
