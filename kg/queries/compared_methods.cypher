// What each method is compared with (COMPARED_WITH, read both ways), most papers first.
MATCH (m:Method)-[r:COMPARED_WITH]-(other:Method)
RETURN m.name AS method, other.name AS compared_with, r.papers AS papers, r.score AS score
ORDER BY papers DESC, score DESC, method, compared_with
LIMIT 50
