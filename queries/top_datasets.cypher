// Datasets and benchmarks the most papers evaluate on.
// Generic concepts (level 'generic': "training", "neural networks") are left out; drop the WHERE
// line to list them too (kg stats --all does the same). Levels: docs/schema.md.
MATCH (p:Paper)-[:EVALUATES_ON]->(d:Dataset)
WHERE d.level IS NULL OR d.level <> 'generic'
RETURN d.name AS dataset, count(DISTINCT p) AS papers
ORDER BY papers DESC, dataset
LIMIT 20
