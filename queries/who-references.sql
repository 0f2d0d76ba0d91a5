-- Who references an asset: one row per way a character reaches it (via: the path, as deps spells it), rows with char_index NULL for ANCS referring to it otherwise, and one row per world area and layer that loads it
-- param: TYPE — FourCC of the asset: PART, SWHC, ELSC, SPSC, EVNT, ANIM, CMDL, CSKR, CINF, CSPP, ...
-- param: ID — asset ID (0x1A2B3C4D, 1A2B3C4D or decimal) or the asset's name (with or without its directory)
--
-- How a character reaches an asset (CONTRACT.md): its own fields; its particle lists and
-- effect components; the ANIMs of the animations it uses; in MP1 their EVNTs (resource
-- pairs, by ANIM ID) and those EVNTs' particle nodes whose char_index is -1 or the
-- character's position (joined here, so EVNTs ingested from any PAK count); in MP2 the
-- particle nodes of the embedded event sets of its animations (stored at ingest).
-- IDs of the unidentified third particle list have no type: they match any particle type
-- (via 'third_list'). Rows with char_index NULL come from transitions, half/default
-- transitions, and resource pairs / event sets of animations no character uses.
--
-- `hits` finds the ANCS (and their contents) that refer to the asset from asset_refs (by its
-- dst_id index); the paths of each character of those contents come from char_reach (the
-- rows `deps` reads, with the same `via`), and, for MP1 event particles, from the EVNT
-- edges of char_reach joined with the EVNT's particle nodes, as `deps` does. A content whose
-- char_reach is not filled (rows written without an ingest's final pass) falls back to
-- asset_refs' field names. Rows alike in every column shown appear once.
--
-- `src_type`, `src_id` name the referring asset: the ANCS of the rows above, or another asset
-- whose asset_refs edge holds it (an MLVL: one row per area and script layer whose dependency
-- list holds it, `via` as `area 3 'Main Plaza' > layer 1 '1st Pass'` or `area 3 '...' > area`
-- for the area's own group; an area's MREA and name STRG too). `world` is the MLVL's name.
-- These rows have ancs_id, char_index and character NULL and follow the game's ANCS rows,
-- by area and layer.
WITH hits(game, ancs_id, content_id, char_index, via, evnt_id) AS (
    SELECT r.game, r.src_id, r.content_id, r.char_index, r.via, NULL
    FROM asset_refs r
    WHERE r.dst_id = ?2 AND r.src_type = 'ANCS'
      AND (r.dst_type = ?1
           OR (r.dst_type IS NULL
               AND ?1 IN ('PART', 'SWHC', 'ELSC', 'SPSC', 'WPSC', 'DPSC', 'CRSC')))
    UNION ALL
    SELECT a.game, a.src_id, a.content_id, a.char_index, 'event', a.dst_id
    FROM asset_refs e
    JOIN asset_refs a ON a.dst_id = e.src_id AND a.game = e.game AND a.src_type = 'ANCS'
                     AND a.dst_type = 'EVNT'
    WHERE e.dst_id = ?2 AND e.src_type = 'EVNT' AND e.dst_type = ?1
      AND (a.char_index IS NULL OR e.char_index IS NULL OR e.char_index = a.char_index)
),
sets AS (
    SELECT DISTINCT game, ancs_id, content_id FROM hits
),
paths(game, ancs_id, content_id, char_index, rule, k1, k2, k3, via) AS (
    SELECT r.game, r.ancs_id, r.content_id, r.char_index, r.rule, r.k1, r.k2, r.k3, r.via
    FROM sets s
    CROSS JOIN char_reach r ON r.game = s.game AND r.ancs_id = s.ancs_id
                           AND r.content_id = s.content_id
    WHERE r.dst_id = ?2
      AND (r.dst_type = ?1
           OR (r.dst_type IS NULL
               AND ?1 IN ('PART', 'SWHC', 'ELSC', 'SPSC', 'WPSC', 'DPSC', 'CRSC')))
    UNION ALL
    SELECT v.game, v.ancs_id, v.content_id, v.char_index, 4, v.k1, v.k2, 2 + e.node_index,
           v.via || ' > EVNT ' || printf('%08X', v.dst_id) || ' > particle node '
               || e.node_index || ifnull(' ''' || e.name || '''', '')
    FROM sets s
    CROSS JOIN char_reach v ON v.game = s.game AND v.ancs_id = s.ancs_id
                           AND v.content_id = s.content_id
    CROSS JOIN events e ON e.game = v.game AND e.owner_type = 'EVNT' AND e.owner_id = v.dst_id
    WHERE v.game = 'MP1' AND v.rule = 4 AND v.k3 = 1 AND v.dst_type = 'EVNT'
      AND e.kind = 'particle' AND e.particle_id = ?2 AND e.particle_type = ?1
      AND (e.char_index = -1 OR e.char_index = v.char_index)
    UNION ALL
    SELECT h.game, h.ancs_id, h.content_id, h.char_index, 9, 0, 0, 0,
           h.via || ifnull(' > EVNT ' || printf('%08X', h.evnt_id), '')
    FROM hits h
    WHERE h.char_index IS NULL
       OR NOT EXISTS (SELECT 1 FROM char_reach r WHERE r.game = h.game
                      AND r.ancs_id = h.ancs_id AND r.content_id = h.content_id)
),
shown AS (
    SELECT p.game, p.ancs_id, p.char_index, c.name AS character, p.via,
           min(p.rule) AS rule, min(p.k1) AS k1, min(p.k2) AS k2, min(p.k3) AS k3
    FROM paths p
    LEFT JOIN characters c ON c.game = p.game AND c.ancs_id = p.ancs_id
                          AND c.content_id = p.content_id AND c.char_index = p.char_index
    GROUP BY p.game, p.ancs_id, p.char_index, c.name, p.via
),
others AS (
    SELECT DISTINCT r.game, r.src_type, r.src_id, r.via
    FROM asset_refs r
    WHERE r.dst_id = ?2 AND r.dst_type = ?1 AND r.src_type NOT IN ('ANCS', 'EVNT')
),
rows_(game, ancs_id, char_index, character, via, src_type, src_id, rule, k1, k2, k3) AS (
    SELECT s.game, s.ancs_id, s.char_index, s.character, s.via, 'ANCS', s.ancs_id, s.rule, s.k1,
           s.k2, s.k3
    FROM shown s
    UNION ALL
    -- by area index, then layer index (the area's own group last), from the via
    SELECT o.game, NULL, NULL, NULL, o.via, o.src_type, o.src_id, 10,
           CASE WHEN o.via LIKE 'area %' THEN CAST(substr(o.via, 6) AS INTEGER) END,
           CASE WHEN instr(o.via, ' > layer ') > 0
                THEN CAST(substr(o.via, instr(o.via, ' > layer ') + 9) AS INTEGER)
                WHEN o.via LIKE '% > area' THEN 1000000 ELSE -1 END,
           0
    FROM others o
)
SELECT s.game,
       s.ancs_id,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = s.ancs_id) AS ancs_id_name,
       s.char_index,
       s.character,
       s.via,
       s.src_type,
       s.src_id,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = s.src_id) AS src_id_name,
       CASE WHEN s.src_type = 'MLVL'
            THEN (SELECT max(w.name) FROM worlds w
                  WHERE w.game = s.game AND w.mlvl_id = s.src_id) END AS world
FROM rows_ s
ORDER BY s.game, s.src_type, s.src_id, s.char_index IS NOT NULL, s.char_index, s.character,
         s.rule, s.k1, s.k2, s.k3, s.via;
