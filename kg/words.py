"""Word lists more than one stage reads."""
from __future__ import annotations

# A leading determiner or possessive: dropped from entity keys (kg/resolve.py), from concept
# phrases (kg/related.py) and, as the bench protocol says, from texts being scored (kg/evaluate.py).
DETERMINERS: tuple[str, ...] = ("a", "an", "the", "this", "these", "that", "those", "our", "its", "their")
