/* fuzz_names.c — an asset name map (Prime World Editor's AssetNameMap32.xml) from memory
 * through db_names_import_mem into an in-memory database that already holds one map.
 * Invariants: an import either succeeds or is refused as UTIL_EFORMAT with a line; a refused
 * map leaves the other map's row and its own (absent) rows as they were; an accepted map
 * holds one row per distinct key; its export imports again with the same number of assets. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int grab(void *ctx, int ncols, const db_cell *cells)
{
    int64_t *v = ctx;
    *v = ncols == 1 && cells[0].type == DB_INT ? cells[0].i : -1;
    return 0;
}

static int64_t count(db *d, const char *sql)
{
    int64_t v = -2;
    util_err e;
    util_err_clear(&e);
    db_sink s = {&v, NULL, grab, NULL};
    if (db_exec(d, sql, 0, NULL, &s, &e) != 0 || v < 0)
        abort();
    return v;
}

static const char keep_map[] =
    "<AssetNameMap><AssetNameMap><Asset><Key>00000001</Key><Value><Name>one</Name>"
    "<Directory>d/</Directory><Type>ANIM</Type></Value></Asset></AssetNameMap></AssetNameMap>";

static db *shared_db(void)
{
    static db *d;
    util_err e;
    util_err_clear(&e);
    if (!d) {
        db_names_stats st;
        if (db_open(&d, ":memory:", DB_OPEN_READWRITE, &e) != 0 ||
            db_names_import_mem(d, "keep.xml", keep_map, sizeof keep_map - 1, &st, &e) != 0)
            abort();
    } else if (db_exec(d, "DELETE FROM asset_names WHERE source IN ('f.xml', 'r.xml')", 0, NULL,
                       NULL, &e) != 0) {
        abort();
    }
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    db *d = shared_db();
    db_names_stats st;
    util_err e;
    util_err_clear(&e);
    int rc = db_names_import_mem(d, "f.xml", (const char *)data, size, &st, &e);
    if (count(d, "SELECT count(*) FROM asset_names WHERE source = 'keep.xml' AND asset_id = 1 "
                 "AND name = 'one'") != 1)
        abort();
    if (rc != 0) {
        if (rc == UTIL_EFORMAT && st.line == 0 && strstr(e.msg, "a map cannot be named"))
            abort();
        if (rc != UTIL_EFORMAT && rc != UTIL_ENOMEM)
            abort();
        if (count(d, "SELECT count(*) FROM asset_names WHERE source = 'f.xml'") != 0)
            abort();
        return 0;
    }
    int64_t rows = count(d, "SELECT count(*) FROM asset_names WHERE source = 'f.xml'");
    if (rows != st.rows || st.entries - st.duplicates != rows)
        abort();

    /* the export of both maps imports again, one row per asset ID */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        abort();
    long exported = 0;
    if (db_names_export(d, f, &exported, &e) != 0)
        abort();
    fclose(f);
    if (db_names_import_mem(d, "r.xml", buf, len, &st, &e) != 0 || st.rows != exported)
        abort();
    free(buf);
    return 0;
}
