// The stored top related papers of one paper, with the shared concepts behind each.
// param paper: the paper's id
MATCH (a:Paper {id: $paper})-[r:RELATED_TO]->(b:Paper)
RETURN r.rank AS rank, b.id AS paper, b.title AS title, r.score AS score, r.shared AS shared
ORDER BY rank
