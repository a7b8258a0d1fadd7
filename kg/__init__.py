"""kg: typed knowledge graphs of scientific abstracts.

The library behind the `kg` command; a notebook uses the same calls::

    from kg import build, open_build
    result = build("seeds/iclr2025_abstracts.txt")
    b = open_build(result.path)
"""
__version__ = "0.1.0"

from kg.builds import Build, open_build  # noqa: E402
from kg.pipeline import BuildOptions, BuildResult, build  # noqa: E402

__all__ = ["Build", "BuildOptions", "BuildResult", "build", "open_build", "__version__"]
