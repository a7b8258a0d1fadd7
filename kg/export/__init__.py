"""Neo4j export routes: a live Bolt load, neo4j-admin import CSVs and a cypher-shell script.

All three read the same typed rows (kg.export.rows), whose values kg.export.values
has already made valid Neo4j property values, so the routes cannot disagree.
"""
