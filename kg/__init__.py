"""kg: typed knowledge graphs of scientific abstracts.

The library behind the `kg` command; a notebook uses the same calls::

    from kg import build, open_build
    result = build("seeds/iclr2025_abstracts.txt")
    b = open_build(result.path)
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

# Imported on first use, so `kg query` does not pay for what `kg build` needs.
_LAZY = {
    "Build": "kg.builds", "open_build": "kg.builds",
    "BuildOptions": "kg.builds.pipeline", "BuildResult": "kg.builds.pipeline", "build": "kg.builds.pipeline",
}
__all__ = ["Build", "BuildOptions", "BuildResult", "__version__", "build", "open_build"]

if TYPE_CHECKING:
    from kg.builds import Build, open_build
    from kg.builds.pipeline import BuildOptions, BuildResult, build


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'kg' has no attribute {name!r}")
