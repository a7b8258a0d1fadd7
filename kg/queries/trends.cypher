// A concept's papers per year, and the share of that year's papers naming it (any type: method, task, dataset, metric).
// param name: the concept's name or one of its aliases, any case (kg trends and kg stats print names)
WITH toLower($name) AS wanted
MATCH (p:Paper)
WHERE p.year IS NOT NULL
WITH wanted, p.year AS year, count(p) AS year_papers
OPTIONAL MATCH (q:Paper)-[:USES|ADDRESSES|EVALUATES_ON|MEASURES]->(e)
WHERE q.year = year AND (toLower(e.name) = wanted OR any(a IN e.aliases WHERE toLower(a) = wanted))
WITH year, year_papers, count(DISTINCT q) AS papers
RETURN year, papers, year_papers, round(1.0 * papers / year_papers, 4) AS share
ORDER BY year
