"""The worked notebook runs top to bottom without an error, as CI's user would run it."""
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="notebook runner not installed (pip install -e '.[test]')")
nbclient = pytest.importorskip("nbclient", reason="notebook runner not installed (pip install -e '.[test]')")

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "iclr2025_walkthrough.ipynb"


def test_notebook_is_what_its_generator_writes():
    """The notebook is edited in scripts/make_notebook.py; a fix made in the .ipynb alone would be
    lost the next time the generator runs."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_notebook", NOTEBOOK.parents[1] / "scripts" / "make_notebook.py")
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    assert nbformat.writes(generator.notebook()) + "\n" == NOTEBOOK.read_text(encoding="utf-8")


def test_notebook_uses_only_the_public_api():
    """The notebook is what a user can write: ``import kg`` and the names of ``kg.__all__``, never
    a module inside kg (whose layout may change)."""
    import ast

    import kg

    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    tree = ast.parse(code)
    modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    modules |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert {m for m in modules if m == "kg" or m.startswith("kg.")} == {"kg"}
    used = {n.attr for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "kg"}
    assert used and used <= set(kg.__all__), used - set(kg.__all__)


def test_notebook_is_stored_without_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not c.get("outputs") and c.get("execution_count") is None for c in nb.cells if c.cell_type == "code")


@pytest.mark.slow
def test_walkthrough_notebook_executes(tmp_path, monkeypatch):
    out = tmp_path / "walkthrough"
    monkeypatch.setenv("KG_WALKTHROUGH_OUT", str(out))  # not exports/ of the clone: the kernel inherits it
    monkeypatch.setenv("KG_CACHE_DIR", str(tmp_path / "cache"))  # kg.build caches as `kg build` does
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()  # raises CellExecutionError naming the failing cell
    text = "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "19 papers" in text
    assert "shared:" in text and "By method:" in text
    assert "no trends: trends need papers with a year" in text  # the seed list has none
    assert (out / "index.html").is_file()  # the build went where it was told
