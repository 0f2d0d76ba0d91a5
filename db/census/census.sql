-- The census refill (db/final_pass.c), run in the final pass's transaction once the rows
-- and warnings are final. Not part of the schema: it works in TEMP tables and fills the
-- tables census_contents and census (db/schema/40_census.sql).
--
-- 1. Every content not counted yet (new, or decoded again: db_delete_content drops its
--    census_contents rows) is counted on its own into census_contents, reading only its rows
--    (the tables' keys start with game, owner ID and content_id). A second release of a game
--    costs the few contents it does not share with the first. One statement per field: a
--    statement keeps each of its GROUP BY sorters until it ends, and one sorter at a time
--    keeps the memory within the page cache.
-- 2. census is summed from census_contents: a content counts once in the whole corpus and
--    once in every release holding it. Contents held by the same set of releases are summed
--    together (census_cs.rs, a few distinct values), and the sets are then spread over their
--    releases (census_sets). PAK-level fields are counted per release; the corpus sums them.
DROP TABLE IF EXISTS temp.census_new;
DROP TABLE IF EXISTS temp.census_mt;
DROP TABLE IF EXISTS temp.census_cr;
DROP TABLE IF EXISTS temp.census_cs;
DROP TABLE IF EXISTS temp.census_sets;
DROP TABLE IF EXISTS temp.census_sp;
DROP TABLE IF EXISTS temp.census_acc;

-- ---- 1. contents not counted yet ----------------------------------------------------------
-- the content's key under each name the decoded tables use for their owner
CREATE TEMP TABLE census_new(content_id INTEGER PRIMARY KEY, game TEXT NOT NULL,
                             asset_id INTEGER NOT NULL, ancs_id INTEGER NOT NULL,
                             owner_type TEXT NOT NULL, owner_id INTEGER NOT NULL);
INSERT INTO census_new
SELECT content_id, game, asset_id, asset_id, type, asset_id FROM contents c
WHERE NOT EXISTS (SELECT 1 FROM census_contents x WHERE x.content_id = c.content_id);

INSERT INTO census_contents(content_id, game, field, value, count)
SELECT w.content_id, ifnull(w.game, '?'), 'warning.' || w.code, w.type, count(*)
FROM warnings w CROSS JOIN census_new n ON n.content_id = w.content_id
GROUP BY w.content_id, w.game, w.code, w.type;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'ancs.version', CAST(ancs_version AS TEXT), count(*)
    FROM census_new CROSS JOIN ancs USING (game, asset_id, content_id)
GROUP BY content_id, game, ancs_version;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'charset.version', CAST(charset_version AS TEXT), count(*)
    FROM census_new CROSS JOIN ancs USING (game, asset_id, content_id)
GROUP BY content_id, game, charset_version;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'char.version', CAST(version AS TEXT), count(*) FROM census_new
    CROSS JOIN characters USING (game, ancs_id, content_id)
GROUP BY content_id, game, version;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'char.unknown_a', CAST(unknown_a AS TEXT), count(*)
    FROM census_new CROSS JOIN characters USING (game, ancs_id, content_id)
GROUP BY content_id, game, unknown_a;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'char.unknown_b', CAST(unknown_b AS TEXT), count(*)
    FROM census_new CROSS JOIN characters USING (game, ancs_id, content_id)
WHERE unknown_b IS NOT NULL GROUP BY content_id, game, unknown_b;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'char.unknown_c', CAST(unknown_c AS TEXT), count(*)
    FROM census_new CROSS JOIN characters USING (game, ancs_id, content_id)
WHERE unknown_c IS NOT NULL GROUP BY content_id, game, unknown_c;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'char.particles.third_list.count', CAST(third_list_count AS TEXT), count(*)
FROM census_new CROSS JOIN characters USING (game, ancs_id, content_id)
    WHERE third_list_count IS NOT NULL GROUP BY content_id, game, third_list_count;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'char.anim_name.unknown_string',
       CASE WHEN unknown = '' THEN '(empty)' ELSE unknown END, count(*)
FROM census_new CROSS JOIN character_anims USING (game, ancs_id, content_id)
    WHERE unknown IS NOT NULL GROUP BY content_id, game, unknown;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'char.indexed_aabb.anim_id',
       CASE WHEN anim_id = seq THEN 'equals position' ELSE 'differs from position' END,
       count(*)
FROM census_new CROSS JOIN indexed_aabbs USING (game, ancs_id, content_id)
    GROUP BY content_id, game, anim_id = seq;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'char.effect_component.flags', printf('0x%08X', flags), count(*)
FROM census_new CROSS JOIN effect_components USING (game, ancs_id, content_id)
    GROUP BY content_id, game, flags;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'char.effect_component.parented_mode', CAST(parented_mode AS TEXT),
       count(*)
FROM census_new CROSS JOIN effect_components USING (game, ancs_id, content_id)
    GROUP BY content_id, game, parented_mode;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'char.frozen_model', CASE frozen_model_id WHEN 0 THEN '00000000 (none)'
       WHEN 4294967295 THEN 'FFFFFFFF (none)' ELSE 'an asset' END, count(*)
FROM census_new CROSS JOIN characters USING (game, ancs_id, content_id)
    WHERE frozen_model_id IS NOT NULL
GROUP BY content_id, game, CASE frozen_model_id WHEN 0 THEN 0 WHEN 4294967295 THEN 1 ELSE 2 END;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'char.frozen_skin', CASE frozen_skin_id WHEN 0 THEN '00000000 (none)'
       WHEN 4294967295 THEN 'FFFFFFFF (none)' ELSE 'an asset' END, count(*)
FROM census_new CROSS JOIN characters USING (game, ancs_id, content_id)
    WHERE frozen_skin_id IS NOT NULL
GROUP BY content_id, game, CASE frozen_skin_id WHEN 0 THEN 0 WHEN 4294967295 THEN 1 ELSE 2 END;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'pas.magic', pas_magic, count(*) FROM census_new
    CROSS JOIN characters USING (game, ancs_id, content_id) GROUP BY content_id, game, pas_magic;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'pas.state.type', CAST(state_type AS TEXT), count(*)
    FROM census_new CROSS JOIN pas_states USING (game, ancs_id, content_id)
GROUP BY content_id, game, state_type;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'pas.state.parm_count',
       CASE WHEN parm_count > 8 THEN '> 8' ELSE '<= 8' END,
       count(*)
FROM census_new CROSS JOIN pas_states USING (game, ancs_id, content_id)
    GROUP BY content_id, game, parm_count > 8;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'pas.parm.type', CAST(parm_type AS TEXT), count(*)
    FROM census_new CROSS JOIN pas_parms USING (game, ancs_id, content_id)
GROUP BY content_id, game, parm_type;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'pas.parm.weight_function', CAST(weight_function AS TEXT), count(*)
FROM census_new CROSS JOIN pas_parms USING (game, ancs_id, content_id)
    GROUP BY content_id, game, weight_function;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'animset.version', CAST(animset_version AS TEXT), count(*)
    FROM census_new CROSS JOIN ancs USING (game, asset_id, content_id)
GROUP BY content_id, game, animset_version;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'transition.unknown_id', CAST(unknown_id AS TEXT), count(*)
    FROM census_new CROSS JOIN transitions USING (game, ancs_id, content_id)
GROUP BY content_id, game, unknown_id;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'metaanim.blend.unknown_flag', CAST(unknown_flag AS TEXT), count(*)
FROM census_new CROSS JOIN meta_anim_nodes USING (game, ancs_id, content_id)
    WHERE type IN (1, 2) GROUP BY content_id, game, unknown_flag;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'metaanim.random.probability_pattern', prob_pattern, count(*)
FROM census_new CROSS JOIN meta_anim_nodes USING (game, ancs_id, content_id)
    WHERE type = 3 GROUP BY content_id, game, prob_pattern;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'metaanim.play.start_time.type', CAST(start_time_type AS TEXT), count(*)
FROM census_new CROSS JOIN meta_anim_nodes USING (game, ancs_id, content_id)
    WHERE type = 0 GROUP BY content_id, game, start_time_type;
-- meta-transitions of the new contents (transitions, half transitions, default transition),
-- read once for the metatrans.* fields; only blends (types 1, 2) have the other fields
CREATE TEMP TABLE census_mt AS
SELECT content_id, game, trans_type AS t, unknown_flag, run_a, flags, duration_type
FROM census_new CROSS JOIN transitions USING (game, ancs_id, content_id)
UNION ALL
SELECT content_id, game, trans_type, unknown_flag, run_a, flags, duration_type
FROM census_new CROSS JOIN half_transitions USING (game, ancs_id, content_id)
UNION ALL
SELECT content_id, game, default_trans_type, default_trans_unknown_flag, default_trans_run_a,
       default_trans_flags, default_trans_duration_type
FROM census_new CROSS JOIN ancs USING (game, asset_id, content_id);
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'metatrans.type', CAST(t AS TEXT), count(*) FROM census_mt
GROUP BY content_id, game, t;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'metatrans.unknown_flag', CAST(unknown_flag AS TEXT), count(*)
FROM census_mt WHERE t IN (1, 2) GROUP BY content_id, game, unknown_flag;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'metatrans.run_a', CAST(run_a AS TEXT), count(*)
FROM census_mt WHERE t IN (1, 2) GROUP BY content_id, game, run_a;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'metatrans.flags', printf('0x%08X', flags), count(*)
FROM census_mt WHERE t IN (1, 2) GROUP BY content_id, game, flags;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'metatrans.duration.type', CAST(duration_type AS TEXT), count(*)
FROM census_mt WHERE t IN (1, 2) GROUP BY content_id, game, duration_type;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'evnt.version', CAST(version AS TEXT), count(*) FROM census_new
    CROSS JOIN evnt USING (game, asset_id, content_id)
GROUP BY content_id, game, version;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'evnt.embedded.version', CAST(version AS TEXT), count(*)
    FROM census_new CROSS JOIN event_sets USING (game, ancs_id, content_id)
GROUP BY content_id, game, version;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'evnt.embedded.count_vs_animations',
       CASE WHEN event_set_count = animation_count THEN 'equal'
            WHEN event_set_count > animation_count THEN 'more sets than animations'
            ELSE 'fewer sets than animations' END, count(*)
FROM census_new CROSS JOIN ancs USING (game, asset_id, content_id) WHERE event_set_count IS NOT NULL
GROUP BY content_id, game, CASE WHEN event_set_count = animation_count THEN 0
                   WHEN event_set_count > animation_count THEN 1 ELSE 2 END;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'poi.unknown_u16', CAST(unknown_u16 AS TEXT), count(*)
    FROM census_new CROSS JOIN events USING (game, owner_type, owner_id, content_id)
GROUP BY content_id, game, unknown_u16;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'poi.index', CAST("index" AS TEXT), count(*) FROM census_new
    CROSS JOIN events USING (game, owner_type, owner_id, content_id)
GROUP BY content_id, game, "index";
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'poi.unique', CAST("unique" AS TEXT), count(*) FROM census_new
    CROSS JOIN events USING (game, owner_type, owner_id, content_id)
GROUP BY content_id, game, "unique";
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'poi.flags', printf('0x%08X', flags), count(*) FROM census_new
    CROSS JOIN events USING (game, owner_type, owner_id, content_id)
GROUP BY content_id, game, flags;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'poi.type per kind', kind || ':' || poi_type, count(*)
    FROM census_new CROSS JOIN events USING (game, owner_type, owner_id, content_id)
GROUP BY content_id, game, kind, poi_type;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'poi.sound.id_high_bits', printf('0x%08X', sound_id & 4294901760), count(*)
FROM census_new CROSS JOIN events USING (game, owner_type, owner_id, content_id)
    WHERE kind = 'sound' GROUP BY content_id, game, sound_id & 4294901760;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'poi.sound.echoes_unknown_a', CAST(echoes_unknown_a AS TEXT), count(*)
FROM census_new CROSS JOIN events USING (game, owner_type, owner_id, content_id)
    WHERE echoes_unknown_a IS NOT NULL GROUP BY content_id, game, echoes_unknown_a;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'poi.sound.echoes_unknown_b', CAST(echoes_unknown_b AS TEXT), count(*)
FROM census_new CROSS JOIN events USING (game, owner_type, owner_id, content_id)
    WHERE echoes_unknown_b IS NOT NULL GROUP BY content_id, game, echoes_unknown_b;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'poi.sound.echoes_unknown_c', CAST(echoes_unknown_c AS TEXT), count(*)
FROM census_new CROSS JOIN events USING (game, owner_type, owner_id, content_id)
    WHERE echoes_unknown_c IS NOT NULL GROUP BY content_id, game, echoes_unknown_c;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'poi.sound.echoes_unknown_d', CAST(echoes_unknown_d AS TEXT), count(*)
FROM census_new CROSS JOIN events USING (game, owner_type, owner_id, content_id)
    WHERE echoes_unknown_d IS NOT NULL GROUP BY content_id, game, echoes_unknown_d;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'poi.particle.duration', CAST(duration AS TEXT), count(*)
    FROM census_new CROSS JOIN events USING (game, owner_type, owner_id, content_id)
WHERE kind = 'particle' GROUP BY content_id, game, duration;
INSERT INTO census_contents(content_id, game, field, value, count)
SELECT content_id, game, 'poi.particle.parented_mode', CAST(parented_mode AS TEXT), count(*)
FROM census_new CROSS JOIN events USING (game, owner_type, owner_id, content_id)
    WHERE kind = 'particle' GROUP BY content_id, game, parented_mode;

-- ---- 2. the census of the corpus and of each release -------------------------------------
-- which releases hold each content, and the set of them as one key
CREATE TEMP TABLE census_cr AS
SELECT DISTINCT e.content_id, p.release_id FROM pak_entries e JOIN paks p ON p.pak_id = e.pak_id
WHERE e.content_id IS NOT NULL;
CREATE TEMP TABLE census_cs(content_id INTEGER PRIMARY KEY, rs TEXT NOT NULL);
INSERT INTO census_cs
SELECT content_id, group_concat(release_id) FROM (SELECT content_id, release_id FROM census_cr
                                                  ORDER BY content_id, release_id)
GROUP BY content_id;
CREATE TEMP TABLE census_sets AS
SELECT DISTINCT s.rs, r.release_id FROM census_cs s JOIN census_cr r ON r.content_id = s.content_id;

-- every PAK with its release
CREATE TEMP TABLE census_sp AS
SELECT release_id AS rid, pak_id, game, status, header_unused FROM paks;

-- rs set: counted per set of releases; rs NULL: counted in release rid, and in the corpus
-- (rid NULL: in the corpus only)
CREATE TEMP TABLE census_acc(rs TEXT, rid INTEGER, game TEXT, field TEXT, value TEXT,
                             count INTEGER);

INSERT INTO census_acc(rs, game, field, value, count)
SELECT s.rs, c.game, c.field, c.value, sum(c.count)
FROM census_contents c JOIN census_cs s ON s.content_id = c.content_id
GROUP BY s.rs, c.game, c.field, c.value;

INSERT INTO census_acc(rid, game, field, value, count)
SELECT rid, game, 'pak.header.unused', printf('0x%08X', header_unused), count(*)
FROM census_sp WHERE status = 'ok' GROUP BY rid, game, header_unused
UNION ALL
-- the compressed flags of the entries; assets held by more than one entry of a release,
-- whether the copies' contents (compressed flags) agree (duplicates are counted within a
-- release, like copy_differs; contents differing between releases are expected): counted
-- by db/assets.c while it rebuilt the assets table, just before
SELECT rid, game, field, value, count FROM temp.census_pak
UNION ALL
-- warnings about a PAK: its release
SELECT s.rid, ifnull(w.game, '?'), 'warning.' || w.code, w.type, count(*)
FROM warnings w JOIN census_sp s ON s.pak_id = w.pak_id
WHERE w.content_id IS NULL GROUP BY s.rid, w.game, w.code, w.type
UNION ALL
-- warnings about an asset, with neither PAK nor content (id_type_conflict: a fact of the
-- whole corpus): once in the corpus, and in every release holding the asset
SELECT NULL, ifnull(game, '?'), 'warning.' || code, type, count(*) FROM warnings
WHERE content_id IS NULL AND pak_id IS NULL GROUP BY game, code, type
UNION ALL
SELECT r.rid, ifnull(w.game, '?'), 'warning.' || w.code, w.type, count(*)
FROM warnings w JOIN (SELECT DISTINCT p.release_id AS rid, e.asset_id
                      FROM pak_entries e JOIN paks p ON p.pak_id = e.pak_id
                      WHERE e.asset_id IN (SELECT asset_id FROM warnings
                                           WHERE content_id IS NULL AND pak_id IS NULL)) r
    ON r.asset_id = w.asset_id
WHERE w.content_id IS NULL AND w.pak_id IS NULL GROUP BY r.rid, w.game, w.code, w.type;

DELETE FROM census;
INSERT INTO census(release_id, game, field, value, count)
SELECT rid, game, field, value, sum(count) FROM (
    SELECT NULL AS rid, game, field, value, count FROM census_acc WHERE rs IS NOT NULL
    UNION ALL
    SELECT s.release_id, a.game, a.field, a.value, a.count
    FROM census_acc a JOIN census_sets s ON s.rs = a.rs
    UNION ALL
    SELECT rid, game, field, value, count FROM census_acc WHERE rs IS NULL
    UNION ALL -- the corpus's PAK-level counts: the sum of the releases'
    SELECT NULL, game, field, value, count FROM census_acc WHERE rs IS NULL AND rid IS NOT NULL)
GROUP BY rid, game, field, value;

DROP TABLE temp.census_new;
DROP TABLE temp.census_mt;
DROP TABLE temp.census_cr;
DROP TABLE temp.census_cs;
DROP TABLE temp.census_sets;
DROP TABLE temp.census_sp;
DROP TABLE temp.census_pak;
DROP TABLE temp.census_acc;
