// Datasets and benchmarks the most papers evaluate on.
MATCH (p:Paper)-[:EVALUATES_ON]->(d:Dataset)
RETURN d.name AS dataset, count(DISTINCT p) AS papers
ORDER BY papers DESC, dataset
LIMIT 20
