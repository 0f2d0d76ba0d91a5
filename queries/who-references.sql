-- Who references an asset: one row per (game, ANCS, character) reaching it, plus one row with char_index NULL per ANCS referring to it in a way no character owns
-- param: TYPE — FourCC of the asset: PART, SWHC, ELSC, SPSC, EVNT, ANIM, CMDL, CSKR, CINF, CSPP, ...
-- param: ID — asset ID (0x1A2B3C4D, 1A2B3C4D or decimal)
--
-- How a character reaches an asset (CONTRACT.md): its own fields; its particle lists and
-- effect components; the ANIMs of the animations it uses; in MP1 their EVNTs (resource
-- pairs, by ANIM ID) and those EVNTs' particle nodes whose char_index is -1 or the
-- character's position (joined here, so EVNTs ingested from any PAK count); in MP2 the
-- particle nodes of the embedded event sets of its animations (stored at ingest).
-- IDs of the unidentified third particle list have no type: they match any particle type
-- (via 'third_list'). Rows with char_index NULL come from transitions, half/default
-- transitions, and resource pairs / event sets of animations no character uses.
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
)
SELECT h.game,
       h.ancs_id,
       (SELECT l.label FROM asset_label l WHERE l.asset_id = h.ancs_id) AS ancs_id_name,
       h.char_index,
       c.name AS character,
       group_concat(DISTINCT h.via) AS via,
       group_concat(DISTINCT CASE WHEN h.evnt_id IS NOT NULL
                                  THEN printf('%08X', h.evnt_id) END) AS through_evnt,
       group_concat(DISTINCT le.label) AS through_evnt_name
FROM hits h
LEFT JOIN characters c ON c.game = h.game AND c.ancs_id = h.ancs_id
                      AND c.content_id = h.content_id AND c.char_index = h.char_index
LEFT JOIN asset_label le ON le.asset_id = h.evnt_id
GROUP BY h.game, h.ancs_id, h.char_index, c.name
ORDER BY h.game, h.ancs_id, h.char_index IS NOT NULL, h.char_index, c.name;
