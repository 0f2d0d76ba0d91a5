/* json_min.h — a small JSON reader for tests (truth.json): parse text into a tree of nodes.
 * Test-only; not hardened for hostile input beyond bounds checks. */
#ifndef ANCSDB_JSON_MIN_H
#define ANCSDB_JSON_MIN_H

#include <stddef.h>
#include <stdint.h>

typedef enum { JM_NULL, JM_BOOL, JM_NUM, JM_STR, JM_ARR, JM_OBJ } jm_type;

typedef struct jm_node {
    jm_type type;
    int boolean;
    double num;   /* JM_NUM */
    int is_int;   /* the number had no fraction or exponent */
    int64_t i;    /* its integer value when is_int */
    char *str;    /* JM_STR, NUL-terminated (embedded NULs not supported) */
    size_t count; /* JM_ARR / JM_OBJ items */
    struct jm_node *items;
    char **keys; /* JM_OBJ */
} jm_node;

/* Parse text[0..len); NULL on syntax error. owned: caller frees with jm_free. */
jm_node *jm_parse(const char *text, size_t len);
void jm_free(jm_node *n);
/* Member of an object (NULL when absent or n is not an object). */
const jm_node *jm_get(const jm_node *n, const char *key);
/* Element of an array (NULL when out of range or n is not an array). */
const jm_node *jm_at(const jm_node *n, size_t i);

#endif
