"""kg: typed knowledge graphs of scientific abstracts.

The library behind the `kg` command; a notebook holds a ``Build`` (docs/python.md)::

    import kg
    b = kg.build("seeds/iclr2025_abstracts.txt")   # or kg.open_build("exports/iclr2025_abstracts")
    b.query("top_methods")                         # rows as dicts
    b.related("ThinK", k=5, by="method")           # related papers, with the concepts shared
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

# Imported on first use, so `kg query` does not pay for what `kg build` needs.
_LAZY = {
    "Build": "kg.builds", "Found": "kg.builds", "build": "kg.builds", "open_build": "kg.builds",
    "BuildOptions": "kg.builds.options", "BuildResult": "kg.builds.pipeline", "KgError": "kg.errors",
}
__all__ = ["Build", "BuildOptions", "BuildResult", "Found", "KgError", "__version__", "build", "open_build"]

if TYPE_CHECKING:
    from kg.builds import Build, Found, build, open_build
    from kg.builds.options import BuildOptions
    from kg.builds.pipeline import BuildResult
    from kg.errors import KgError


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'kg' has no attribute {name!r}")
