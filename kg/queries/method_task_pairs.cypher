// Methods and tasks mentioned by the same paper, by the number of papers pairing them.
MATCH (m:Method)<-[:USES]-(p:Paper)-[:ADDRESSES]->(t:Task)
RETURN m.name AS method, t.name AS task, count(DISTINCT p) AS papers
ORDER BY papers DESC, method, task
LIMIT 50
