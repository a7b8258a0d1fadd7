"""CSV files for ``neo4j-admin database import full``: the route for graphs too big for transactions.

One node file per label (``id:ID``, ``:LABEL``, typed properties) and one
relationship file per type and label pair (``:START_ID``, ``:END_ID``,
``:TYPE``, typed properties), plus a README.md holding the exact command.
Field rules follow the import tool's defaults: ``,`` between fields, ``"``
quotes doubled inside, an empty unquoted field for "no property", a quoted
``""`` for an empty string or list. Array elements are joined with U+001F
(the ASCII unit separator), which no abstract is expected to contain; one
that does is an error rather than a silently split value.
"""
from __future__ import annotations

import math
import shlex
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from kg.errors import KgError
from kg.export.rows import ExportGraph, NodeGroup, RelGroup
from kg.export.values import PropertyValue, element_type, is_list_type

ARRAY_DELIMITER = "\x1f"
ARRAY_DELIMITER_OPTION = "U+001F"
_TYPES = {"STRING": "string", "INT64": "long", "DOUBLE": "double", "BOOL": "boolean"}


@dataclass(frozen=True)
class ImportFiles:
    folder: Path
    nodes: list[Path]
    relationships: list[Path]
    command: str  # the neo4j-admin line, with absolute paths

    @property
    def files(self) -> list[Path]:
        return self.nodes + self.relationships


README_TITLE = "# kg graph as neo4j-admin import files"  # how a folder kg wrote is recognised


def header_type(schema_type: str) -> str:
    """kg.schema's type as a neo4j-admin header type: ``long``, ``string[]``..."""
    base = _TYPES[element_type(schema_type)]
    return base + "[]" if is_list_type(schema_type) else base


def field(value: PropertyValue | None, where: str) -> str:
    """One CSV field as neo4j-admin reads it."""
    if value is None:
        return ""
    if isinstance(value, list):
        parts = [_text(v) for v in value]
        if any(ARRAY_DELIMITER in p for p in parts):
            raise KgError(f"{where}: a list element holds U+001F, the array delimiter of the import files")
        return _quote(ARRAY_DELIMITER.join(parts))
    if isinstance(value, str):
        return _quote(value)
    return _text(value)


def _text(v: bool | int | float | str) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"  # Java's spelling, which the import tool parses
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return repr(v)
    return str(v)


def _quote(s: str) -> str:
    return '"' + s.replace('"', '""') + '"'


def _line(fields: list[str]) -> str:
    return ",".join(fields) + "\n"


def node_lines(group: NodeGroup) -> list[str]:
    props = [(k, t) for k, t in group.properties.items() if k != "id"]
    lines = [_line(["id:ID", ":LABEL"] + [f"{k}:{header_type(t)}" for k, t in props])]
    for r in group.rows:
        where = f"{group.label} {r.id!r}"
        lines.append(_line([field(r.id, where), group.label] + [field(r.props[k], f"{where}.{k}") for k, _ in props]))
    return lines


def relationship_lines(group: RelGroup) -> list[str]:
    props = list(group.properties.items())
    lines = [_line([":START_ID", ":END_ID", ":TYPE"] + [f"{k}:{header_type(t)}" for k, t in props])]
    for r in group.rows:
        where = f"{group.type} {r.start!r}->{r.end!r}"
        lines.append(_line([field(r.start, where), field(r.end, where), group.type]
                           + [field(r.props[k], f"{where}.{k}") for k, _ in props]))
    return lines


def import_command(nodes: list[Path], relationships: list[Path], database: str = "neo4j") -> str:
    parts = [
        "neo4j-admin database import full",
        database,  # Neo4j 5.19+ wants the database before the options
        "--overwrite-destination",
        "--id-type=string",
        "--multiline-fields=true",  # abstracts may hold line breaks
        f"--array-delimiter={ARRAY_DELIMITER_OPTION}",
    ]
    parts += [f"--nodes={shlex.quote(str(p))}" for p in nodes]
    parts += [f"--relationships={shlex.quote(str(p))}" for p in relationships]
    return " ".join(parts)


def write_import(eg: ExportGraph, folder: Path) -> ImportFiles:
    """Write the CSVs and README.md into ``folder``, replacing it whole only once all are written."""
    folder = check_out_folder(folder)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        node_files, rel_files = [], []
        for ng in eg.nodes:
            if ng.rows:  # a header-only file would only add noise to the command
                node_files.append(_write(tmp / f"nodes_{ng.label}.csv", node_lines(ng)))
        for rg in eg.relationships:
            name = f"relationships_{rg.type}_{rg.start_label}_{rg.end_label}.csv"
            rel_files.append(_write(tmp / name, relationship_lines(rg)))
        final_nodes = [folder / p.name for p in node_files]
        final_rels = [folder / p.name for p in rel_files]
        command = import_command(final_nodes, final_rels)
        in_docker = import_command([Path("/import", p.name) for p in node_files],
                                   [Path("/import", p.name) for p in rel_files])
        (tmp / "README.md").write_text(_readme(eg, command, in_docker), encoding="utf-8")
        replace_folder(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return ImportFiles(folder, final_nodes, final_rels, command)


def check_out_folder(folder: Path) -> Path:
    """``folder`` made absolute, if import files may be written there; else a KgError."""
    folder = Path(folder).absolute()
    if folder.exists() and not folder.is_dir():
        raise KgError(f"{folder}: is a file; --out takes a folder for the import CSVs")
    if not folder.parent.is_dir():
        raise KgError(f"{folder.parent}: no such folder for --out")
    if folder.is_symlink() or (folder.is_dir() and any(folder.iterdir()) and not is_import_folder(folder)):
        # The folder is replaced whole: anything else in it would be deleted with it.
        raise KgError(f"{folder}: is a folder that kg did not write; kg replaces its --out folder whole, "
                      f"so give a new or empty folder, or an earlier neo4j-import export's")
    return folder


def replace_folder(tmp: Path, folder: Path) -> None:
    """Put the finished folder ``tmp`` in the place of ``folder``."""
    tmp.chmod(0o755)  # mkdtemp makes it owner-only
    if folder.exists():
        old = folder.with_name(f".{folder.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        folder.rename(old)
        tmp.rename(folder)
        shutil.rmtree(old, ignore_errors=True)
    else:
        tmp.rename(folder)


def is_import_folder(folder: Path) -> bool:
    """A folder ``write_import`` wrote: its README and node and relationship CSVs, nothing else."""
    readme = folder / "README.md"
    try:
        if not readme.read_text(encoding="utf-8").startswith(README_TITLE):
            return False
    except (OSError, UnicodeDecodeError):
        return False
    return all(f == readme or (f.is_file() and f.suffix == ".csv" and f.name.startswith(("nodes_", "relationships_")))
               for f in folder.iterdir())


def _write(path: Path, lines: list[str]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        f.writelines(lines)
    return path


def _readme(eg: ExportGraph, command: str, docker_cmd: str) -> str:
    return readme({**eg.node_counts(), **eg.relationship_counts()}, command, docker_cmd)


def readme(counts: dict[str, int], command: str, docker_cmd: str) -> str:
    """README.md of an import folder: the counts and the commands that import it."""
    counts = ", ".join(f"{k} {v}" for k, v in counts.items())
    return f"""{README_TITLE}

Counts: {counts}.

Import into an empty database with Neo4j stopped (the tool writes the store
files directly; `--overwrite-destination` replaces the database named after `full`):

```
{command}
```

With Docker instead, from inside this folder (it is mounted at /import; the
database goes to the volume `kg-neo4j-data`), then start Neo4j on that volume:

```
docker run --rm -v "$PWD:/import" -v kg-neo4j-data:/data neo4j:5 {docker_cmd}
docker run -d --name kg-neo4j-imported -p 7474:7474 -p 7687:7687 -v kg-neo4j-data:/data -e NEO4J_AUTH=neo4j/kgpassword neo4j:5
```

Add uniqueness constraints if you will MERGE into it later:
`CREATE CONSTRAINT kg_paper_id IF NOT EXISTS FOR (n:Paper) REQUIRE n.id IS UNIQUE` (likewise Method, Task, Dataset, Metric).

Files: one per node label (`id:ID`, `:LABEL`, typed properties) and one per
relationship type (`:START_ID`, `:END_ID`, `:TYPE`, typed properties). List
elements are separated by U+001F; an empty unquoted field means "no property".
"""
