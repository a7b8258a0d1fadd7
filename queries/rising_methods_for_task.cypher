// Methods rising among a task's papers: those addressing it in its first year against its last, by a
// two-proportion z statistic (a shift of 2 papers scores below one of 200); kg trends --task NAME also
// counts "method used for the task" statements and ranks by a log-likelihood ratio.
// param task: the task's name, any case (kg query top_tasks lists them)
MATCH (t:Task)<-[:ADDRESSES]-(p:Paper)
WHERE toLower(t.name) = toLower($task) AND p.year IS NOT NULL
WITH min(p.year) AS first_year, max(p.year) AS last_year
MATCH (t:Task)<-[:ADDRESSES]-(p:Paper)
WHERE toLower(t.name) = toLower($task) AND p.year IN [first_year, last_year]
WITH first_year, last_year, count(DISTINCT CASE WHEN p.year = first_year THEN p.id END) AS n1,
     count(DISTINCT CASE WHEN p.year = last_year THEN p.id END) AS n2
MATCH (t:Task)<-[:ADDRESSES]-(p:Paper)-[:USES]->(m:Method)
WHERE toLower(t.name) = toLower($task) AND p.year IN [first_year, last_year] AND first_year < last_year
WITH m, first_year, last_year, n1, n2,
     count(DISTINCT CASE WHEN p.year = first_year THEN p.id END) AS a,
     count(DISTINCT CASE WHEN p.year = last_year THEN p.id END) AS b
WITH m, first_year, last_year, n1, n2, a, b, 1.0 * (a + b) / (n1 + n2) AS pooled
RETURN m.name AS method, first_year, a AS first_papers, n1 AS first_task_papers, last_year, b AS last_papers,
       n2 AS last_task_papers,
       round(CASE WHEN pooled >= 1.0 THEN 0.0
             ELSE (1.0 * b / n2 - 1.0 * a / n1) / sqrt(pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2)) END, 2) AS z
ORDER BY z DESC, last_papers DESC, method
LIMIT 20
