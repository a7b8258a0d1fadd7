// Methods the abstracts say are used for each task (USED_FOR), most papers first.
MATCH (m:Method)-[r:USED_FOR]->(t:Task)
RETURN t.name AS task, m.name AS method, r.papers AS papers, r.score AS score
ORDER BY papers DESC, score DESC, task, method
LIMIT 50
