"""kg train-relations: train the relation model over a tagger (kg/extract/relation_training.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kg.cli.app import app
from kg.errors import KgError

BENCH = Path("../shared/bench")


@app.command("train-relations")
def train_relations_command(
    tagger_dir: Annotated[Path, typer.Argument(metavar="TAGGER_DIR", show_default=False,
                                               help="A tagger folder written by `kg train`; the relation model is saved in it.")],
    train: Annotated[list[Path] | None, typer.Option(
        "--train", metavar="GOLD", show_default=False,
        help="Abstracts with relations in SciERC's JSON Lines (repeatable). Default: SciERC's train.json from ../shared/bench.")] = None,
    dev: Annotated[Path | None, typer.Option(
        "--dev", metavar="GOLD", show_default=False,
        help="Abstracts with relations that pick the epoch and threshold (default: SciERC's dev.json when --train is not given).")] = None,
    holdout: Annotated[int | None, typer.Option(
        "--holdout", metavar="FOLD", min=0, max=4, show_default=False,
        help="Leave fold FOLD (0-4) out of the training files, as `kg train --holdout` does.")] = None,
    epochs: Annotated[int, typer.Option("--epochs", metavar="N", min=1)] = 8,
    seed: Annotated[int, typer.Option("--seed", metavar="N")] = 0,
    threads: Annotated[int | None, typer.Option("--threads", metavar="N", min=1, show_default=False,
                                                help="torch threads (default: torch's choice, all cores).")] = None,
) -> None:
    """Train the relation model over TAGGER_DIR's tagger and save it in TAGGER_DIR.

    The relation model reads the tagger's hidden states, so it belongs to one tagger: train it
    again after `kg train`. SciERC's seven relation types (USED-FOR, EVALUATE-FOR, ...); about 7
    minutes on two cores.

    \b
    Examples:
      kg train my-tagger && kg train-relations my-tagger
      kg train runs/fold1 --holdout 1 && kg train-relations runs/fold1 --holdout 1
      kg eval ../shared/bench/scierc/dev.json --model my-tagger --relations
    """
    from kg.extract import relation_training, tagger

    tagger.check_folder(tagger_dir)
    if not train:
        train = [BENCH / "scierc" / "train.json"]
        dev = dev or BENCH / "scierc" / "dev.json"
    for p in [*train, *([dev] if dev else [])]:
        if not p.is_file():
            raise KgError(f"{p}: no such file; give your training files with --train")
    spec = relation_training.RelationSpec(train=tuple(train), dev=dev, holdout=holdout, epochs=epochs, seed=seed,
                                          threads=threads)
    info = relation_training.train(spec, tagger_dir)
    best = max(info["history"], key=lambda h: (h.get("dev_f1", 0.0), h["epoch"]))
    typer.echo(f"Saved the relation model of epoch {best['epoch']} to {tagger_dir}/ "
               f"(threshold {info['threshold']}, dev F1 with gold entities {best.get('dev_f1', '-')})")
