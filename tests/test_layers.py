"""The packages of kg/ are the pipeline's stages, and data flows one way: a stage imports the stages
before it, never one after it (docs/code.md). Imports inside functions count too. No module
imports, however indirectly, a module that imports it.

``KNOWN`` lists the imports that still run against the flow, to be removed, not added to (none
now). A new one fails this test.
"""
import ast
from pathlib import Path

import networkx as nx

KG = Path(__file__).resolve().parent.parent / "kg"

# From the contracts (records, schema, errors, the build folder's layout) to the command line.
ORDER = ["records", "schema", "errors", "layout", "text", "util", "corpus", "evaluate", "extract", "concepts",
         "graph", "store", "analysis", "export", "view", "builds", "cli"]

KNOWN: set[tuple[str, str]] = set()


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


def module_name(path: Path) -> str:
    parts = path.relative_to(KG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def run_time_imports(path: Path, modules: set[str]):
    """The kg modules ``path`` imports when it runs: at its top or inside its functions, not in an
    ``if TYPE_CHECKING:`` block (names for annotations, never imported). ``from P import m`` of
    a module ``m`` is an import of ``P.m``, not of everything in the package ``P``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree)
                   if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                   for n in ast.walk(node)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                yield full if full in modules else node.module
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names)


def import_graph() -> nx.DiGraph:
    paths = {module_name(p): p for p in KG.rglob("*.py")}
    g = nx.DiGraph()
    g.add_nodes_from(paths)
    for name, path in paths.items():
        g.add_edges_from((name, m) for m in run_time_imports(path, set(paths)) if m in paths and m != name)
    return g


def test_every_package_of_kg_is_a_stage_or_a_contract():
    top = {p.name for p in KG.iterdir() if p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists())}
    staged = {p.removesuffix(".py") for p in top} - {"__init__", "__main__"}
    assert staged <= set(ORDER), staged - set(ORDER)
    assert len([p for p in top if p.endswith(".py")]) <= 8  # the contracts, not the stages' modules


def test_no_stage_imports_a_later_one():
    found = against_the_flow()
    assert found <= KNOWN, f"imports against the flow: {sorted(found - KNOWN)}"
    assert KNOWN <= found, f"no longer against the flow, so take them out of KNOWN: {sorted(KNOWN - found)}"


def test_no_import_runs_in_a_circle():
    cycles = list(nx.simple_cycles(import_graph(), length_bound=8))
    assert not cycles, f"import circles: {sorted(cycles)[:5]}"


def test_the_circle_test_sees_imports_inside_functions(tmp_path):
    """What the issue found: circles hidden by imports inside functions are circles."""
    (tmp_path / "a.py").write_text("def f():\n    from kg.b import x\n")
    assert list(run_time_imports(tmp_path / "a.py", {"kg.b"})) == ["kg.b"]
    (tmp_path / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from kg.b import x\n")
    assert "kg.b" not in list(run_time_imports(tmp_path / "c.py", {"kg.b"}))
