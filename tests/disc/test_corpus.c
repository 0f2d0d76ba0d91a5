/* test_disc_corpus.c — the shared corpus's disc images and its Dolphin-extracted disc against
 * truth.json `releases`: header fields, label, region, title, the number of PAKs, and every
 * PAK's bytes in the image equal to the PAK file of that release's folder (mp1/, mp2/ for
 * release a; relb/mp1, relb/mp2 for b). Skips when the corpus is absent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "disc.h"
#include "json_min.h"
#include "testutil.h"

static const jm_node *get(const jm_node *n, const char *key)
{
    const jm_node *v = jm_get(n, key);
    assert_non_null(v);
    return v;
}

static int ends_with_pak(const char *name)
{
    size_t n = strlen(name);
    return n >= 4 && strcasecmp(name + n - 4, ".pak") == 0;
}

static void check_header(const disc_header *h, const jm_node *rel)
{
    assert_string_equal(h->label, get(rel, "label")->str);
    assert_string_equal(h->game_code, get(rel, "game_code")->str);
    assert_string_equal(h->maker, get(rel, "maker")->str);
    assert_int_equal(h->disc_number, get(rel, "disc")->i);
    assert_int_equal(h->revision, get(rel, "revision")->i);
    assert_non_null(h->region);
    assert_string_equal(h->region, get(rel, "region")->str);
    assert_string_equal(h->title, get(rel, "title")->str);
}

/* Every *.pak of d equals the file of the same path under folder; returns how many. */
static int check_paks(const disc_image *d, const char *folder)
{
    int paks = 0;
    for (uint32_t i = 0; i < d->fst.file_count; i++) {
        const disc_file *f = &d->fst.files[i];
        assert_true(f->in_bounds);
        if (!ends_with_pak(f->name))
            continue;
        paks++;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", folder, f->path);
        size_t want_len = 0;
        uint8_t *want = tu_read_file(path, &want_len);
        if (!want)
            fail_msg("%s is in the disc but not in %s", f->path, folder);
        assert_int_equal(f->length, want_len);
        util_src *s = NULL;
        util_err err;
        util_err_clear(&err);
        assert_int_equal(disc_file_open(&s, d, f, &err), 0);
        uint8_t *got = malloc(want_len ? want_len : 1);
        assert_int_equal(util_src_read(s, got, 0, want_len, &err), 0);
        assert_memory_equal(got, want, want_len);
        /* nothing past the file's end is part of its source */
        uint8_t extra;
        assert_int_equal(util_src_read(s, &extra, want_len, 1, &err), UTIL_EIO);
        free(got);
        free(want);
        util_src_close(s);
        /* found again by name, whatever the case */
        char upper[1024];
        snprintf(upper, sizeof upper, "%s", f->path);
        for (char *c = upper; *c; c++)
            if (*c >= 'a' && *c <= 'z')
                *c = (char)(*c - 'a' + 'A');
        assert_ptr_equal(disc_find(d, upper), f);
    }
    return paks;
}

static void test_releases(void **state)
{
    (void)state;
    const char *corpus = tu_corpus_dir();
    if (!corpus) {
        print_message("skipping: shared corpus absent\n");
        TU_SKIP();
    }
    char path[2048];
    snprintf(path, sizeof path, "%s/truth.json", corpus);
    size_t len = 0;
    char *text = (char *)tu_read_file(path, &len);
    assert_non_null(text);
    jm_node *truth = jm_parse(text, len);
    assert_non_null(truth);
    const jm_node *rels = get(truth, "releases");
    assert_int_equal(rels->count, 4);
    int extracted_seen = 0;
    for (size_t r = 0; r < rels->count; r++) {
        const jm_node *rel = jm_at(rels, r);
        const char *game = get(rel, "game")->str;
        const char *which = get(rel, "release")->str;
        char folder[2048];
        if (strcmp(which, "a") == 0)
            snprintf(folder, sizeof folder, "%s/%s", corpus, game);
        else
            snprintf(folder, sizeof folder, "%s/relb/%s", corpus, game);

        snprintf(path, sizeof path, "%s/%s", corpus, get(rel, "iso")->str);
        disc_image *d = NULL;
        util_err err;
        util_err_clear(&err);
        if (disc_open_file(&d, path, &err) != 0)
            fail_msg("%s: %s @0x%llx", path, err.msg, (unsigned long long)err.offset);
        check_header(&d->header, rel);
        assert_int_equal(d->fst.out_of_bounds, 0);
        assert_int_equal(check_paks(d, folder), get(rel, "pak_count")->i);
        /* besides the PAKs: a banner, a video, an audio file; Echoes a SamusGun.pak.bak */
        int bak = 0;
        for (uint32_t i = 0; i < d->fst.file_count; i++)
            bak += strcmp(d->fst.files[i].name, "SamusGun.pak.bak") == 0;
        assert_int_equal(bak, strcmp(game, "mp2") == 0);
        assert_non_null(disc_find(d, "opening.bnr"));

        const jm_node *ex = get(rel, "extracted");
        if (ex->type == JM_STR) {
            extracted_seen++;
            snprintf(path, sizeof path, "%s/%s", corpus, ex->str);
            assert_true(disc_is_extracted(path));
            disc_image *x = NULL;
            util_err_clear(&err);
            if (disc_open_extracted(&x, path, &err) != 0)
                fail_msg("%s: %s", path, err.msg);
            check_header(&x->header, rel);
            assert_string_equal(x->dir, path);
            assert_int_equal(check_paks(x, folder), get(rel, "pak_count")->i);
            /* the same files as in the image, sorted by path */
            assert_int_equal(x->fst.file_count, d->fst.file_count);
            for (uint32_t i = 0; i < x->fst.file_count; i++) {
                assert_non_null(disc_find(d, x->fst.files[i].path));
                if (i)
                    assert_true(strcmp(x->fst.files[i - 1].path, x->fst.files[i].path) < 0);
            }
            disc_close(x);
            /* its sys/ folder alone, or files/ alone, is not an extracted disc */
            snprintf(path, sizeof path, "%s/%s/sys", corpus, ex->str);
            assert_false(disc_is_extracted(path));
            snprintf(path, sizeof path, "%s/%s/files", corpus, ex->str);
            assert_false(disc_is_extracted(path));
        }
        disc_close(d);
    }
    assert_int_equal(extracted_seen, 1);
    assert_false(disc_is_extracted(corpus));
    jm_free(truth);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_releases),
    };
    return tu_status(cmocka_run_group_tests(tests, NULL, NULL));
}
