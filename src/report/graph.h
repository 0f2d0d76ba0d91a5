/* graph.h — dependency graphs of characters (CONTRACT.md "How a character reaches an asset")
 * read from the database: nodes (the ANCS, its characters, their assets, animation-set
 * entries, MP2 event sets, sounds) drawn once each, labelled edges, Graphviz DOT output and
 * rendering through Graphviz's `dot`. Used by `ancsdb graph` and `ancsdb report`. */
#ifndef ANCSDB_GRAPH_H
#define ANCSDB_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

struct db;

/* Graphs over this many nodes are cut (the rest summarised in a note node). */
#define GRAPH_MAX_DRAWN 500

typedef struct graph_node {
    char kind[8]; /* 'ANCS', 'char', 'anim' (animation-set entry), 'evset', 'sound', or the
                   * FourCC of an asset ('????' for third-list IDs of unknown type) */
    char game[4]; /* 'MP1' / 'MP2' */
    uint32_t id;  /* asset ID; for char/anim/evset the ANCS; for sound the sound ID */
    int64_t sub;  /* char_index, anim_index or event-set index; 0 otherwise */
    char *name;   /* display name (character, animation, asset label); NULL when none */
    int keep;     /* drawn (graph_who prunes; the cut drops the tail) */
} graph_node;

typedef struct graph_edge {
    int from, to;
    char *label; /* NULL when none */
} graph_edge;

typedef struct graph {
    graph_node *nodes;
    size_t nnodes, capnodes;
    graph_edge *edges;
    size_t nedges, capedges;
    int *hash; /* open addressing over nodes, then edges (indexes + 1) */
    size_t hcap;
    int *ehash;
    size_t ehcap;
    size_t cut; /* nodes not drawn because of GRAPH_MAX_DRAWN */
} graph;

void graph_init(graph *g);
void graph_free(graph *g);

/* Add every character of ANCS ancs_id of game ("MP1"/"MP2"; NULL: both games when both have
 * it), or only character char_index when >= 0, with everything it reaches. 0, or
 * UTIL_ESQL / UTIL_ENOMEM. */
int graph_add_ancs(graph *g, struct db *d, const char *game, uint32_t ancs_id, int64_t char_index,
                   util_err *err);

/* Everything that reaches asset (type, id): the graphs of the ANCS whose characters reach it
 * (who-references), pruned to the paths ending at it, plus set-level references. Sets
 * *found to the number of referring (game, ANCS, character) rows. */
int graph_add_who(graph *g, struct db *d, const char *type, uint32_t id, long *found,
                  util_err *err);

/* Mark the first GRAPH_MAX_DRAWN kept nodes (insertion order: ANCS, characters, then layer
 * by layer) and count the rest in g->cut. Called by graph_write_dot. */
void graph_apply_cut(graph *g);

/* URL for a node (e.g. a report page), or NULL; the string is used before the next call. */
typedef const char *(*graph_url_fn)(const graph_node *n, void *ctx);

/* Write g as one DOT digraph named `name`. Labels: type, hex ID, name. */
void graph_write_dot(graph *g, FILE *f, const char *name, graph_url_fn url, void *ctx);

/* Run `dot -Tsvg` on dot[0..n), its output to out_fd. 0; 1 when Graphviz is not installed
 * (nothing written); UTIL_EIO when it fails (err names why). */
int graph_render_svg(const char *dot, size_t n, int out_fd, util_err *err);

/* The one-line display label of a node ("CMDL 1A2B3C4D Name", "character 0 Name", ...) into
 * buf. */
void graph_node_label(const graph_node *n, char *buf, size_t size);

#endif
