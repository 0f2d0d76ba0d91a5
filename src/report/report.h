/* report.h — `ancsdb report`: a static HTML site of the database that opens from file:// with
 * no server and no network. report_main.c (options, progress, the run), report_html.c (page
 * frame, escaping, style sheet, inline-SVG bar charts), report_index.c (index, census, search
 * index), report_ancs.c (one page per ANCS with its dependency graph, one per asset),
 * report_world.c (one page per world; where ANCS and assets are loaded). */
#ifndef ANCSDB_REPORT_H
#define ANCSDB_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

struct db;

/* One asset a character reaches (a row of queries/deps.sql). Its texts wait in the report's
 * spill file (memory stays small however many there are): rep_ref_texts reads them back. */
typedef struct rep_ref {
    char game[4];
    char type[5]; /* '????' for third-list IDs */
    uint8_t has_name;
    uint32_t ancs_id;
    int char_index;
    uint32_t id;
    uint32_t len; /* bytes at off in the spill file: character, name, via, each NUL-ended */
    uint64_t off;
} rep_ref;

typedef struct report report;
struct report {
    struct db *d;
    const char *dbpath;        /* the database file (the page writers open it too) */
    const struct report *root; /* a page writer's: the report it writes for (else NULL) */
    const char *dir;           /* the folder asked for (-o) */
    int dirfd;                 /* it, opened once (-1 until then) */
    char *stage;               /* DIR/.ancsdb-report-??????: this run's own folder (mkdtemp) */
    int stagefd;               /* it, opened; every page is written below it by openat */
    int subfd;                 /* the folder below it a page was last written in (-1: none) */
    char subname[16];          /* its name */
    int earlier;               /* DIR holds an earlier report: its unchanged files are kept */
    int oldsubfd;              /* the folder of it a page was last looked for in (-1: none) */
    char oldsubname[16];       /* its name */
    struct rep_buf {           /* files being written while an earlier report is there */
        FILE *f;               /* open_memstream's (NULL: free) */
        char *buf;
        size_t len;
        char rel[128];
    } open[4];
    const char *dbname;    /* shown in page footers */
    int have_dot;          /* Graphviz found */
    char dot_version[160]; /* what `dot -V` said (part of every graph's key) */
    int jobs;              /* dot processes, and page writers, at once */
    long drawn, reused;    /* graphs drawn by dot in this run, taken from the earlier report */
    FILE *svgs;            /* the reused drawings (a temporary file), NULL until the first */
    uint64_t svgs_len;
    double t0;    /* when the run began (CLOCK_MONOTONIC seconds) */
    int progress; /* stderr is a terminal */
    int quiet;
    long pages, bytes; /* written so far */
    /* every asset reached, sorted by (game, type, id) once the ANCS pages are done */
    rep_ref *refs;
    size_t nrefs, caprefs;
    FILE *spill; /* the refs' texts (a temporary file), NULL until the first */
    uint64_t spill_len;
    char *text; /* rep_ref_texts' buffer */
    size_t text_cap;
    FILE *finds; /* the search index's entries as search.js lists them (temporary) */
    size_t nfinds;
    util_err err;
};

/* ---- report_sql.c: the SQL texts (see there) ---- */
extern const char rep_sql_has_releases[];
extern const char rep_rel_all[];
extern const char rep_rel_label[];
extern const char rep_sql_counts[];
extern const char rep_sql_totals[];
extern const char rep_sql_types[];
extern const char rep_sql_sets[];
extern const char rep_sql_all_ancs[];
extern const char rep_sql_chars[];
extern const char rep_sql_where[];
/* Run sql into t (db_exec_rows) with ?1 game (NULL: NULL), ?2 id, ?3 s3 as text, else k3 as
 * an integer, else (k3 < 0) NULL. 0, or -1 with r->err filled; t freed by db_rows_free. */
struct db_rows;
int rep_rows(report *r, struct db_rows *t, const char *sql, const char *game, int64_t id,
             const char *s3, int64_t k3);

/* ---- report_files.c: where pages are written ----
 * A report is written into a private folder made inside DIR (so two runs never share a work
 * file), every file opened by openat below it without following a link, then moved into DIR
 * entry by entry with rename, which replaces an earlier report's file (or a link planted in
 * its place) without writing through it. DIR must be new, empty, or an earlier report (it
 * holds REP_MARKER); anything else is refused before anything is written. */
#define REP_MARKER ".ancsdb-report"
/* Open (creating when missing) and check DIR, make the private folder. -1 with r->err. */
int rep_stage_begin(report *r, const char *dir);
/* Move the finished report into DIR and remove the private folder. -1 with r->err. */
int rep_stage_commit(report *r);
/* Remove what is left of the private folder (after a failure); NULL-tolerant. */
void rep_stage_abort(report *r);
/* Up to len bytes of fd at off (pread, again after a signal): fewer only at its end or on an
 * error (errno then set, else 0). */
size_t rep_read_at(int fd, void *buf, size_t len, uint64_t off);
/* Open stage/rel for writing, its folders created, no link followed; an fd, or -1 with
 * r->err filled. */
int rep_openat(report *r, const char *rel);
/* When DIR holds an earlier report whose file rel holds exactly buf[0..len) (a regular file,
 * not a link, one link to it, ours): that file linked as stage/rel, 1. Else 0, nothing made.
 * Keeping a file costs no new file now and no removal when the earlier report goes. */
int rep_link_earlier(report *r, const char *rel, const char *buf, size_t len);

/* ---- report_html.c ---- */

/* Open rel below the report's folder for writing (rep_openat; with an earlier report in DIR,
 * a buffer written out or linked by rep_close); NULL with r->err filled. */
FILE *rep_open(report *r, const char *rel);
/* rep_open, buffered or not: a large file (search.js, 12 MB at 10x; a world's page, up to 5)
 * is written anew whatever the earlier report holds, rather than held in memory. */
FILE *rep_open_as(report *r, const char *rel, int buffered);
/* Close, count the page; -1 with r->err filled on a write error. */
int rep_close(report *r, FILE *f);
/* Close after a failure: nothing more is written of it. */
void rep_discard(report *r, FILE *f);
/* HTML text: util_xml_escape with quotes escaped too (so it may stand in an attribute). */
void rep_esc(FILE *f, const char *s);
/* Page frame: root is "" or "../" (where index.html is). */
void rep_page_begin(FILE *f, const char *root, const char *title);
void rep_page_end(report *r, FILE *f, const char *root);
/* A page of its own: rep_open, the frame, then <h1>title</h1>; NULL with r->err filled. */
FILE *rep_page_open(report *r, const char *rel, const char *root, const char *title);
/* rep_page_open through rep_open_as. */
FILE *rep_page_open_as(report *r, const char *rel, const char *root, const char *title,
                       int buffered);
/* The frame's end and rep_close; -1 with r->err filled. */
int rep_page_close(report *r, FILE *f, const char *root);
/* The style sheet (style.css). */
int rep_write_css(report *r);
/* A horizontal bar chart as inline SVG: n bars labelled labels[i] with values v[i]. */
void rep_bar_chart(FILE *f, const char *title, int n, const char *const *labels, const int64_t *v,
                   const char *color);
/* Relative href of an asset page / ANCS page into buf ("asset/MP1_PART_1A2B3C4D.html"). */
void rep_asset_href(char *buf, size_t size, const char *game, const char *type, uint32_t id);
void rep_ancs_href(char *buf, size_t size, const char *game, uint32_t id);
/* Progress on stderr: a rewritten line on a terminal, else nothing until rep_progress_done. */
void rep_progress(report *r, const char *what, long done, long total);
void rep_progress_done(report *r, const char *what, long total);
/* Add an entry to the search index (written to r->finds). -1 with r->err filled when the
 * temporary file cannot be made. */
int rep_find_add(report *r, const char *kind, const char *game, uint32_t id, const char *name,
                 const char *href);

/* ---- report_pages.c ---- */
/* Close the temporary files, free the refs. */
void rep_free(report *r);
/* n pages, page(r, ctx, i) for each i, with a progress line named what (after the first
 * failure, no more). Up to r->jobs threads write them at once, each a run of consecutive
 * pages with a report of its own (page gets that one: its root is r, its database
 * connection, search entries and reached assets its own; the stage, the drawings and the
 * assets r reached it shares, read only); what each gathered joins r's in the runs' order,
 * so the result is the same as one thread's. */
int rep_pages(report *r, const char *what, size_t n, int (*page)(report *, void *, size_t),
              void *ctx);

/* ---- report_index.c ---- */
int rep_write_index(report *r);
int rep_write_census(report *r);
int rep_write_search(report *r);

/* ---- report_ancs.c ---- */
/* Every ANCS page (graphs rendered by dot when present). */
int rep_write_ancs_pages(report *r);

/* ---- report_assets.c ---- */
/* Every asset page, from the references the ANCS pages gathered. */
int rep_write_asset_pages(report *r);

/* ---- report_world.c ---- */
/* One page per world (world/GAME_ID.html): areas, layers, what each loads. After the asset
 * pages (it links the ones written). */
int rep_write_world_pages(report *r);
/* The index's list of worlds (nothing when the database has none). */
int rep_index_worlds(report *r, FILE *f);
/* An ANCS or asset page's "Loaded in" section: the areas and layers whose dependency lists
 * hold (game, type, id); type '????' matches any type. root is the page's way to index.html. */
int rep_loaded_in(report *r, FILE *f, const char *game, const char *type, uint32_t id,
                  const char *root);
/* Relative href of a world page into buf ("world/MP1_1A2B3C4D.html"). */
void rep_world_href(char *buf, size_t size, const char *game, uint32_t id);

#endif
