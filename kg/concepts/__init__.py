"""The concept stage: from every paper's mentions to the corpus's concepts, the graph's nodes.

It decides, once for the whole corpus, which mentions are one concept (spelling, plurals,
acronyms defined anywhere), the type of each concept, and how specific it is; the graph, related
papers, themes, views and exports read its decisions.
"""
from kg.concepts.resolve import Resolution, resolve

__all__ = ["Resolution", "resolve"]
