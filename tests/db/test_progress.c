/* test_db_progress.c — db_ingest_opts.progress: db/ reports progress through the callback
 * (each PAK before it is read, "finishing" before the final pass, NULL before a fault line on
 * the log and at the end) and writes no terminal escapes itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "pak.h"
#include "testutil.h"

typedef struct calls {
    int draws, clears, finishing;
    size_t last_done, total;
    char names[4][64];
} calls;

static void on_progress(void *ctx, size_t done, size_t total, const char *path)
{
    calls *c = ctx;
    if (!path) {
        c->clears++;
        return;
    }
    if (!strcmp(path, "finishing")) {
        c->finishing++;
        assert_int_equal(done, total);
        return;
    }
    assert_true(c->draws < 4);
    const char *base = strrchr(path, '/');
    snprintf(c->names[c->draws], sizeof c->names[0], "%s", base ? base + 1 : path);
    assert_int_equal(done, (size_t)c->draws); /* done counts the PAKs before this one */
    c->draws++;
    c->last_done = done;
    c->total = total;
}

static void to_file(void *ctx, const char *line)
{
    fprintf(ctx, "%s\n", line);
}

static void test_progress(void **state)
{
    (void)state;
    char *dir = tu_tempdir();
    assert_non_null(dir);
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s/a.pak", dir);
    snprintf(b, sizeof b, "%s/b.pak", dir);
    util_err e;
    util_err_clear(&e);
    pak_builder *pb = pak_builder_new();
    uint8_t fill[40] = {1, 2, 3};
    assert_int_equal(
        pak_builder_add(pb, 0x434D444Cu, 0x1234u, fill, sizeof fill, PAK_CODEC_ZLIB, &e), 0);
    assert_int_equal(pak_builder_finish_file(pb, a, &e), 0);
    pak_builder_free(pb);
    assert_int_equal(tu_write_file(b, "not a pak", 9), 0); /* a fault line on the log */

    FILE *log = tmpfile();
    assert_non_null(log);
    calls c;
    memset(&c, 0, sizeof c);
    db_ingest_opts o = {.game = PAK_GAME_UNKNOWN,
                        .jobs = 1,
                        .log = to_file,
                        .log_ctx = log,
                        .progress = on_progress,
                        .progress_ctx = &c};
    db *d = NULL;
    assert_int_equal(db_open(&d, ":memory:", DB_OPEN_READWRITE, &e), 0);
    db_ingest_stats st;
    const char *paths[] = {dir};
    assert_int_equal(db_ingest_paths(d, paths, 1, &o, &st, &e), 0);
    assert_int_equal(st.errors, 1);
    assert_int_equal(c.draws, 2);
    assert_string_equal(c.names[0], "a.pak");
    assert_string_equal(c.names[1], "b.pak");
    assert_int_equal(c.total, 2);
    assert_int_equal(c.finishing, 1);
    assert_true(c.clears >= 2); /* before b.pak's fault line, and at the end */

    /* the log holds the fault line and no escape sequence */
    long n = ftell(log);
    assert_true(n > 0);
    rewind(log);
    char *text = calloc(1, (size_t)n + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, log), (size_t)n);
    assert_non_null(strstr(text, "b.pak"));
    assert_null(strchr(text, '\033'));
    assert_null(strchr(text, '\r'));
    free(text);
    fclose(log);
    db_close(d);
    remove(a);
    remove(b);
    remove(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
