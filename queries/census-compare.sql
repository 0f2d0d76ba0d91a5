-- MP1 and MP2 side by side: one row per unknown field with each game's distinct values, most common value and its share of the occurrences (NULL where a game has no such field)
-- param: [FIELD_PATTERN] — only fields matching it: case-insensitive, `*` and `?` wildcards; without a wildcard, fields containing it
-- the whole corpus's counts (release '(all)'); with --release, which keeps only the releases
-- named, their counts summed per game (a content in two of them counts twice)
WITH c AS (
    SELECT game, field, value, sum(count) AS count
    FROM unknown_census
    WHERE (release = '(all)'
           OR NOT EXISTS (SELECT 1 FROM unknown_census WHERE release = '(all)'))
      AND (?1 IS NULL
           OR lower(field) GLOB lower(CASE WHEN instr(?1, '*') OR instr(?1, '?') THEN ?1
                                           ELSE '*' || ?1 || '*' END))
    GROUP BY game, field, value
),
ranked AS (
    SELECT game, field, value, count,
           row_number() OVER (PARTITION BY game, field ORDER BY count DESC, value) AS rank,
           count(*) OVER (PARTITION BY game, field) AS distinct_values,
           sum(count) OVER (PARTITION BY game, field) AS occurrences
    FROM c
),
top AS (SELECT * FROM ranked WHERE rank = 1),
fields AS (SELECT DISTINCT field FROM c)
SELECT f.field,
       a.distinct_values AS mp1_distinct,
       a.value AS mp1_most_common,
       CASE WHEN a.field IS NOT NULL THEN printf('%.1f%%', 100.0 * a.count / a.occurrences) END
           AS mp1_share,
       b.distinct_values AS mp2_distinct,
       b.value AS mp2_most_common,
       CASE WHEN b.field IS NOT NULL THEN printf('%.1f%%', 100.0 * b.count / b.occurrences) END
           AS mp2_share
FROM fields f
LEFT JOIN top a ON a.field = f.field AND a.game = 'MP1'
LEFT JOIN top b ON b.field = f.field AND b.game = 'MP2'
ORDER BY f.field;
