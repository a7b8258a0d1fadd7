"""Analyses of a build's graph that read it and write nothing: trends over the years (``kg.analysis.trends``).

Related papers, topics and the build's statistics are to move here too; each is one module
taking the NetworkX graph of a build (``kg.open_build(path).graph()``) and returning typed
dataclasses, which the CLI only formats.
"""
from kg.analysis.trends import ConceptTrend, Periods, Trends, trends

__all__ = ["ConceptTrend", "Periods", "Trends", "trends"]
