// Methods used by the most papers.
MATCH (p:Paper)-[:USES]->(m:Method)
RETURN m.name AS method, count(DISTINCT p) AS papers
ORDER BY papers DESC, method
LIMIT 20
