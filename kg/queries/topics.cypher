// Research themes (the map's groups: Louvain communities of the related-papers graph), largest first.
MATCH (p:Paper)
WHERE p.topic IS NOT NULL
RETURN p.topic AS topic, p.topic_label AS label, count(p) AS papers
ORDER BY topic
