// Papers that share methods, tasks, datasets or metrics with one paper, most shared first.
// param paper: the paper's id (list them with: kg query 'MATCH (p:Paper) RETURN p.id, p.title')
MATCH (a:Paper {id: $paper})-[:USES|ADDRESSES|EVALUATES_ON|MEASURES]->(e)<-[:USES|ADDRESSES|EVALUATES_ON|MEASURES]-(b:Paper)
WHERE b.id <> a.id
WITH b, count(DISTINCT e) AS shared, collect(DISTINCT e.name) AS concepts
RETURN b.id AS paper, b.title AS title, shared, concepts
ORDER BY shared DESC, paper
LIMIT 10
