// Task-dataset pairs: the datasets that papers addressing a task evaluate on, most papers first.
MATCH (t:Task)<-[:ADDRESSES]-(p:Paper)-[:EVALUATES_ON]->(d:Dataset)
WITH t.name AS task, d.name AS dataset, count(DISTINCT p) AS papers
RETURN task, dataset, papers
ORDER BY papers DESC, task, dataset
LIMIT 50
