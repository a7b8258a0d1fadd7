"""The packages of kg/ are the pipeline's stages, and data flows one way: a stage imports the stages
before it, never one after it (docs/code.md). Imports inside functions count too.

``KNOWN`` lists the imports that still run against the flow, to be removed, not added to: the
build folder's layout (file names, ``Manifest``, ``Build``) is read by analyses and views, and
``kg train`` scores with ``kg.evaluate``. A new one fails this test.
"""
import ast
from pathlib import Path

KG = Path(__file__).resolve().parent.parent / "kg"

# From the contracts to the command line.
ORDER = ["records", "schema", "errors", "text", "util", "corpus", "extract", "evaluate", "concepts", "graph",
         "analysis", "store", "export", "view", "builds", "cli"]

KNOWN = {
    ("analysis/related.py", "builds"), ("analysis/related.py", "store"), ("analysis/stats.py", "builds"),
    ("export/shard_import.py", "builds"), ("extract/relation_training.py", "evaluate"),
    ("extract/training.py", "evaluate"), ("view/__init__.py", "builds"), ("view/names.py", "builds"),
}


def stage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "kg" and parts[1] in ORDER else None


def imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names)


def against_the_flow() -> set[tuple[str, str]]:
    found = set()
    for path in KG.rglob("*.py"):
        rel = path.relative_to(KG)
        me = stage("kg." + rel.parts[0].removesuffix(".py"))
        if me is None:
            continue
        for module in imports(path):
            other = stage(module)
            if other and ORDER.index(other) > ORDER.index(me):
                found.add((rel.as_posix(), other))
    return found


def test_every_package_of_kg_is_a_stage_or_a_contract():
    top = {p.name for p in KG.iterdir() if p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists())}
    staged = {p.removesuffix(".py") for p in top} - {"__init__", "__main__"}
    assert staged <= set(ORDER), staged - set(ORDER)
    assert len([p for p in top if p.endswith(".py")]) <= 8  # the contracts, not the stages' modules


def test_no_stage_imports_a_later_one():
    found = against_the_flow()
    assert found <= KNOWN, f"imports against the flow: {sorted(found - KNOWN)}"
