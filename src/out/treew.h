/* treew.h — one document written either as an indented text tree (`ancs dump`) or as one
 * compact JSON object through jsonw (`ancs dump --json`): the same calls make both. In the
 * tree each member is a line `name: value` indented two spaces a level, array elements
 * `[i] value`, an array's opening line its length `(n)`; strings quoted and terminal-safe. In
 * JSON a key given inside an array is dropped. */
#ifndef ANCSDB_TREEW_H
#define ANCSDB_TREEW_H

#include <stdint.h>
#include <stdio.h>

#include "jsonw.h"

#define TW_MAX_DEPTH 512

typedef struct tw {
    FILE *f;
    int json;
    jw w; /* JSON mode's writer */
    int depth;
    int count[TW_MAX_DEPTH];  /* tree: items written at each level */
    int is_arr[TW_MAX_DEPTH]; /* the level is an array */
} tw;

void tw_init(tw *t, FILE *f, int json);
/* The document's outer object (JSON: `{` ... `}` and a newline; the tree: nothing). */
void tw_begin(tw *t);
void tw_finish(tw *t);
/* Open an object or an array (its length n shown in the tree), and close it. */
void tw_obj(tw *t, const char *k);
void tw_arr(tw *t, const char *k, uint32_t n);
void tw_end(tw *t, int is_arr);
/* Values; k NULL inside arrays. */
void tw_uint(tw *t, const char *k, uint64_t v);
void tw_int(tw *t, const char *k, int64_t v);
void tw_id(tw *t, const char *k, uint32_t v);     /* 8 upper-case hex digits */
void tw_str(tw *t, const char *k, const char *s); /* NULL: null, "(none)" in the tree */
void tw_null(tw *t, const char *k);               /* an absent field: "(absent)" in the tree */
void tw_f32(tw *t, const char *k, float v);       /* %.9g; nan, inf, -inf */
void tw_f32s(tw *t, const char *k, const float *v, int n); /* an array of n of them */
void tw_bool(tw *t, const char *k, int v);
void tw_fourcc(tw *t, const char *k, uint32_t v); /* a string of 4 characters */

#endif
