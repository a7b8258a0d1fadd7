// Task-dataset pairs: the datasets that at least two papers addressing a task evaluate on, most
// papers first. As in method_task_pairs.cypher, a pair of one paper is left out, so entities of a
// single paper are dropped before the join, and count(*) counts papers (one edge per paper and entity).
MATCH (t:Task)<-[:ADDRESSES]-(p:Paper)-[:EVALUATES_ON]->(d:Dataset)
WHERE t.papers > 1 AND d.papers > 1
WITH t.name AS task, d.name AS dataset, count(*) AS papers
WHERE papers > 1
RETURN task, dataset, papers
ORDER BY papers DESC, task, dataset
LIMIT 50
