// Methods used by the most papers.
// Generic concepts (level 'generic': "training", "neural networks") are left out; drop the WHERE
// line to list them too (kg stats --all does the same). Levels: docs/schema.md.
MATCH (p:Paper)-[:USES]->(m:Method)
WHERE m.level IS NULL OR m.level <> 'generic'
RETURN m.name AS method, count(DISTINCT p) AS papers
ORDER BY papers DESC, method
LIMIT 20
