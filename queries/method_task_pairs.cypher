// Methods and tasks that at least two papers mention together, by the number of such papers.
// A pair one paper makes is that paper's content (paper_entities.cypher); a recurring pair says
// something about the field. Both ends of one are in two papers or more, so the first WHERE drops
// the entities of a single paper, most of a large corpus, before the join. A paper has one USES
// edge per method and one ADDRESSES edge per task, so count(*) counts papers.
MATCH (m:Method)<-[:USES]-(p:Paper)-[:ADDRESSES]->(t:Task)
WHERE m.papers > 1 AND t.papers > 1
WITH m.name AS method, t.name AS task, count(*) AS papers
WHERE papers > 1
RETURN method, task, papers
ORDER BY papers DESC, method, task
LIMIT 50
