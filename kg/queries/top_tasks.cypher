// Tasks addressed by the most papers.
MATCH (p:Paper)-[:ADDRESSES]->(t:Task)
RETURN t.name AS task, count(DISTINCT p) AS papers
ORDER BY papers DESC, task
LIMIT 20
