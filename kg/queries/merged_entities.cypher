// Entities whose node merges several surface forms (acronyms, plurals, case), most forms first.
MATCH (p:Paper)-[:USES|ADDRESSES|EVALUATES_ON|MEASURES]->(e)
WITH e, count(DISTINCT p) AS papers
WHERE size(e.aliases) > 1
RETURN e.type AS type, e.name AS entity, e.aliases AS aliases, papers
ORDER BY size(aliases) DESC, papers DESC, entity
LIMIT 30
