"""Word lists more than one stage reads: one home for each, as spaCy keeps ``lang/en/stop_words.py``."""
from __future__ import annotations

# A leading determiner or possessive: dropped from entity keys (kg/concepts/), from concept
# phrases (kg/related.py) and, as the bench protocol says, from texts being scored (kg/evaluate.py).
DETERMINERS: tuple[str, ...] = ("a", "an", "the", "this", "these", "that", "those", "our", "its", "their")

# Heads that add nothing to a name before them ("the Mistral models", "GSM8K benchmark").
GENERIC_HEADS = frozenset("""model models method methods framework frameworks algorithm algorithms approach
    approaches architecture architectures family families variant variants baseline baselines backbone
    backbones dataset datasets benchmark benchmarks suite suites corpus corpora collection environment
    environments task tasks problem problems technique techniques""".split())  # not "series": "time series" is a thing
