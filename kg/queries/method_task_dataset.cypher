// The strongest method-task-dataset chains: a method used for a task and evaluated on a dataset,
// ranked by the papers behind the weaker link, then by the links' joint confidence.
MATCH (t:Task)<-[u:USED_FOR]-(m:Method)-[e:EVALUATED_ON]->(d:Dataset)
WITH m, t, d, u, e, CASE WHEN u.papers < e.papers THEN u.papers ELSE e.papers END AS support
RETURN m.name AS method, t.name AS task, d.name AS dataset, support,
       u.papers AS used_for_papers, e.papers AS evaluated_on_papers, u.score * e.score AS confidence
ORDER BY support DESC, confidence DESC, method, task, dataset
LIMIT 50
