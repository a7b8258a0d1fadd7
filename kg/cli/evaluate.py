"""kg eval: run the extractor on a gold file's abstracts and score it (../shared/bench/README.md)."""
from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from kg.cli.app import app
from kg.cli.common import ReportFormat


class Match(str, Enum):
    exact = "exact"
    partial = "partial"


@app.command("eval")
def eval_command(
    gold: Annotated[Path, typer.Argument(metavar="GOLD", help="Gold file: SciERC JSON Lines or the generic gold format.",
                                         show_default=False)],
    match: Annotated[Match, typer.Option("--match", help="exact or partial (whole-word containment).")] = Match.exact,
    fmt: Annotated[ReportFormat, typer.Option("--format", help="table or json.")] = ReportFormat.table,
    model: Annotated[Path | None, typer.Option("--model", metavar="TAGGER_DIR", help="An entity tagger trained by `kg train` (default: the one kg ships).",
                                               show_default=False)] = None,
    no_keybert: Annotated[bool, typer.Option("--no-keybert", help="Skip KeyBERT (scores do not use it).")] = False,
    relations: Annotated[bool, typer.Option("--relations", help="Score relations instead (SciERC gold): end to end, "
                                            "and with the gold entities given.")] = False,
) -> None:
    """Extract entities from the abstracts of GOLD and print precision, recall and F1.

    The micro figure covers Method, Task and Dataset; Metric is reported per type only.

    \b
    Examples:
      kg eval ../shared/bench/scierc/dev.json
      kg eval ../shared/bench/scierc/dev.json --match partial --format json
      kg eval my_gold.jsonl      # {"id", "text", "entities": [{"text", "type"}]} per line
      kg eval my_gold.jsonl --model my-tagger
      kg eval ../shared/bench/scierc/dev.json --relations
    """
    from kg.evaluate import format_relations_table, format_table
    from kg.extract.evaluation import evaluate, evaluate_relations
    from kg.extract import Extractor
    from kg.extract.tagger import check_folder

    if model is not None:
        check_folder(model)
    if relations:
        # Both match modes: the one asked for first, so the per-label rows follow it.
        modes = (match.value, *(m for m in ("exact", "partial") if m != match.value))
        reports = evaluate_relations(gold, Extractor(model=model, use_keybert=not no_keybert), matches=modes)
        typer.echo(json.dumps(reports) if fmt == ReportFormat.json else format_relations_table(reports))
        return
    report = evaluate(gold, Extractor(model=model, use_keybert=not no_keybert), match=match.value)
    if fmt == ReportFormat.json:
        typer.echo(json.dumps(report))
    else:
        typer.echo(format_table(report))
