/* jsonw.h — a small streaming JSON writer for nested documents (`ancsdb export`, the report's
 * search index): objects and arrays, one member per line with two-space indentation, so
 * documents diff line by line. Strings are written by the command line's one JSON string
 * policy (valid UTF-8 always). */
#ifndef ANCSDB_JSONW_H
#define ANCSDB_JSONW_H

#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH 512

typedef struct jw {
    FILE *f;
    int depth;
    int compact;                 /* no newlines or indentation */
    int count[JW_MAX_DEPTH + 1]; /* members written at each level */
} jw;

void jw_init(jw *w, FILE *f, int compact);
/* Each value takes key (inside an object) or NULL (inside an array, or at the top). */
void jw_obj(jw *w, const char *key);
void jw_arr(jw *w, const char *key);
void jw_end_obj(jw *w);
void jw_end_arr(jw *w);
void jw_str(jw *w, const char *key, const char *s); /* NULL writes null */
void jw_int(jw *w, const char *key, int64_t v);
void jw_real(jw *w, const char *key, double v); /* non-finite: the strings "NaN", "Infinity" */
void jw_null(jw *w, const char *key);
void jw_id(jw *w, const char *key, uint32_t v); /* "1A2B3C4D" */
void jw_uint(jw *w, const char *key, uint64_t v);
void jw_bool(jw *w, const char *key, int v); /* true or false */
/* A float as %.9g (enough to read the same float back); non-finite: the strings "nan",
 * "inf", "-inf" (as `ancs dump --json` has always written them). */
void jw_f32(jw *w, const char *key, float v);
/* End the document (a newline unless compact). */
void jw_done(jw *w);

/* The JSON string literal of s (with its quotes) on f. */
void jw_string_literal(FILE *f, const char *s);

#endif
