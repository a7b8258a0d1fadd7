// Everything extracted from one paper, with how often and how confidently.
// param paper: the paper's id
MATCH (p:Paper {id: $paper})-[r:USES|ADDRESSES|EVALUATES_ON|MEASURES]->(e)
RETURN e.type AS type, e.name AS entity, r.mentions AS mentions, r.score AS score
ORDER BY type, score DESC, entity
