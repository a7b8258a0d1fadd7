// Tasks addressed by the most papers.
// Generic concepts (level 'generic': "training", "neural networks") are left out; drop the WHERE
// line to list them too (kg stats --all does the same). Levels: docs/schema.md.
MATCH (p:Paper)-[:ADDRESSES]->(t:Task)
WHERE t.level IS NULL OR t.level <> 'generic'
RETURN t.name AS task, count(DISTINCT p) AS papers
ORDER BY papers DESC, task
LIMIT 20
