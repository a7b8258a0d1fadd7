"""The graph stage: the NetworkX knowledge graph of a corpus (``build``) and its files (``io``).

``from kg.graph import build_graph, papers_of, entities_of`` as before; the JSON and GraphML
files are ``kg.graph.io``.
"""
from kg.graph.build import build_graph, entities_of, mention_edge, paper_text, papers_of

__all__ = ["build_graph", "entities_of", "mention_edge", "paper_text", "papers_of"]
