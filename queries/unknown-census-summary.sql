-- The census condensed to one row per (game, field, release): distinct values, the most common value, its share of the occurrences, occurrences; release '(all)' is the whole corpus
-- param: [FIELD_PATTERN] — only fields matching it: case-insensitive, `*` and `?` wildcards; without a wildcard, fields containing it
WITH c AS (
    SELECT game, field, value, count, release
    FROM unknown_census
    WHERE ?1 IS NULL
       OR lower(field) GLOB lower(CASE WHEN instr(?1, '*') OR instr(?1, '?') THEN ?1
                                       ELSE '*' || ?1 || '*' END)
),
ranked AS (
    SELECT game, field, value, count, release,
           row_number() OVER (PARTITION BY game, field, release ORDER BY count DESC, value) AS rank,
           count(*) OVER (PARTITION BY game, field, release) AS distinct_values,
           sum(count) OVER (PARTITION BY game, field, release) AS occurrences
    FROM c
)
SELECT game,
       field,
       distinct_values,
       value AS most_common,
       printf('%.1f%%', 100.0 * count / occurrences) AS most_common_share,
       occurrences,
       release
FROM ranked
WHERE rank = 1
ORDER BY field, game, release <> '(all)', release;
