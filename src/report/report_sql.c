/* report_sql.c — every SQL text of `ancsdb report` besides the named queries it runs
 * (queries/deps.sql, queries/unknown-census.sql) and the graph edges (graph.c). Each reads the
 * decoded tables by (game, asset ID); a change to their keys is made here. */
#include <string.h>

#include "db.h"
#include "report.h"

/* ==== SQL ================================================================================
 * @REL@ is replaced by the release label of a PAK row `p`: the releases table's label when
 * the database has releases, else 'all'. Tables: paks, pak_entries, ancs, evnt, characters,
 * load_errors, warnings, releases (when present), asset_label. The characters of a release
 * are summed over the ANCS contents its entries hold, each found by pak_entries_content (an
 * IN list correlated with the group was built again for every ANCS row: 1x, 2.5 s). */
const char rep_sql_has_releases[] =
    "SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'releases') "
    "AND (SELECT count(*) FROM pragma_table_info('paks') WHERE name = 'release_id')";
const char rep_rel_all[] = "'all'";
const char rep_rel_label[] =
    "ifnull((SELECT x.label FROM releases x WHERE x.release_id = p.release_id), '(none)')";
const char rep_sql_counts[] =
    "SELECT rel, game, count(DISTINCT pak_id), count(entry_index), count(DISTINCT asset_id), "
    "count(DISTINCT CASE WHEN type = 'ANCS' THEN asset_id END), "
    "(SELECT ifnull(sum(a.character_count), 0) FROM ancs a WHERE a.game = q.game AND "
    "EXISTS (SELECT 1 FROM pak_entries e2 JOIN paks p USING (pak_id) WHERE e2.content_id = "
    "a.content_id AND p.game = q.game AND e2.type = 'ANCS' AND @REL@ = q.rel)), "
    "count(DISTINCT CASE WHEN type = 'EVNT' THEN asset_id END), "
    "(SELECT count(*) FROM load_errors l JOIN paks p ON p.path = l.pak_path WHERE p.game = "
    "q.game AND @REL@ = q.rel), "
    "(SELECT count(*) FROM warnings w WHERE w.game = q.game) "
    "FROM (SELECT @REL@ AS rel, p.game, p.pak_id, e.entry_index, e.asset_id, e.type FROM paks p "
    "LEFT JOIN pak_entries e USING (pak_id)) q GROUP BY rel, game ORDER BY rel, game";
const char rep_sql_types[] =
    "SELECT @REL@ AS rel, p.game, e.type, count(DISTINCT e.asset_id) AS n FROM paks p JOIN "
    "pak_entries e USING (pak_id) GROUP BY rel, p.game, e.type ORDER BY rel, p.game, n DESC, "
    "e.type";
const char rep_sql_sets[] =
    "SELECT a.game, a.asset_id, l.label, a.character_count, a.animation_count, "
    "(SELECT group_concat(c.name, ', ') FROM (SELECT name FROM characters c WHERE c.game = "
    "a.game AND c.ancs_id = a.asset_id AND c.content_id = a.content_id ORDER BY char_index) c) "
    "FROM ancs a LEFT JOIN asset_label l ON l.asset_id = a.asset_id WHERE a.content_id = "
    "(SELECT max(x.content_id) FROM contents x WHERE x.game = a.game AND x.asset_id = "
    "a.asset_id) ORDER BY a.game, l.label IS NULL, l.label, a.asset_id";
/* ==== end of SQL ========================================================================= */

/* The headline: PAKs, distinct assets (game, asset ID), distinct ANCS and their characters
 * (each ANCS counted once, by its newest content) over every release together. */
const char rep_sql_totals[] =
    "SELECT (SELECT count(*) FROM paks), "
    "(SELECT count(*) FROM (SELECT DISTINCT p.game, e.asset_id FROM paks p JOIN pak_entries e "
    "USING (pak_id))), "
    "(SELECT count(*) FROM (SELECT DISTINCT p.game, e.asset_id FROM paks p JOIN pak_entries e "
    "USING (pak_id) WHERE e.type = 'ANCS')), "
    "(SELECT ifnull(sum(a.character_count), 0) FROM ancs a WHERE a.content_id = (SELECT "
    "max(x.content_id) FROM contents x WHERE x.game = a.game AND x.asset_id = a.asset_id))";
/* ==== end of SQL ========================================================================= */

/* ==== SQL ================================================================================
 * The ANCS of the database with their name and counts; one ANCS's characters with their own
 * IDs' names; where an asset is stored. Reached assets come from queries/deps.sql. Tables:
 * ancs, characters, contents (an ANCS decoded from several contents shows its newest),
 * pak_entries, paks, asset_label. */
const char rep_sql_all_ancs[] =
    "SELECT a.game, a.asset_id, l.label, a.character_count, a.animation_count, "
    "a.transition_count, a.animset_version, a.ancs_version, a.size, "
    "(SELECT group_concat(c.name, ', ') FROM (SELECT name FROM characters c WHERE c.game = "
    "a.game AND c.ancs_id = a.asset_id AND c.content_id = a.content_id ORDER BY char_index) c) "
    "AS names FROM ancs a LEFT JOIN asset_label l ON l.asset_id = a.asset_id WHERE "
    "a.content_id = (SELECT max(x.content_id) FROM contents x WHERE x.game = a.game AND "
    "x.asset_id = a.asset_id) ORDER BY a.game, a.asset_id";
const char rep_sql_chars[] =
    "SELECT c.char_index, c.char_id, c.name, c.version, c.model_id, c.skin_id, c.skeleton_id, "
    "c.anim_name_count, (SELECT count(*) FROM particle_refs p WHERE p.game = c.game AND "
    "p.ancs_id = c.ancs_id AND p.content_id = c.content_id AND p.char_index = c.char_index) AS "
    "particles FROM characters c WHERE c.game = ?1 AND c.ancs_id = ?2 AND c.content_id = "
    "(SELECT max(x.content_id) FROM contents x WHERE x.game = ?1 AND x.asset_id = ?2) "
    "ORDER BY c.char_index";
const char rep_sql_where[] =
    "SELECT p.path, count(*) AS copies, max(e.compressed) AS compressed, "
    "max(e.decompressed_size) AS size FROM pak_entries e JOIN paks p USING (pak_id) "
    "WHERE p.game = ?1 AND e.asset_id = ?2 AND (?3 = char(63, 63, 63, 63) OR e.type = ?3) "
    "GROUP BY p.path ORDER BY p.path";
/* ==== end of SQL ========================================================================= */

int rep_rows(report *r, db_rows *t, const char *sql, const char *game, int64_t id, const char *s3,
             int64_t k3)
{
    db_bind b[3];
    memset(b, 0, sizeof b);
    b[0].type = game ? DB_TEXT : DB_NULL;
    b[0].s = game;
    b[1].type = DB_INT;
    b[1].i = id;
    if (s3) {
        b[2].type = DB_TEXT;
        b[2].s = s3;
    } else if (k3 >= 0) {
        b[2].type = DB_INT;
        b[2].i = k3;
    }
    return db_exec_rows(t, r->d, sql, 3, b, &r->err) ? -1 : 0;
}
