// Datasets each task is evaluated on, as the abstracts state it (EVALUATED_ON), most papers first.
MATCH (t:Task)-[r:EVALUATED_ON]->(d:Dataset)
RETURN t.name AS task, d.name AS dataset, r.papers AS papers, r.score AS score
ORDER BY papers DESC, score DESC, task, dataset
LIMIT 50
