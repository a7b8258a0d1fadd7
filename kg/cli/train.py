"""kg train: fine-tune the entity tagger on annotated abstracts (kg/extract/training.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from kg.cli.app import app
from kg.errors import KgError

BENCH = Path("../shared/bench")


@app.command("train")
def train_command(
    out: Annotated[Path, typer.Argument(metavar="OUT_DIR", help="Folder for the trained tagger (new or empty).",
                                        show_default=False)],
    train: Annotated[list[Path] | None, typer.Option(
        "--train", metavar="GOLD", show_default=False,
        help="Annotated abstracts to train on, SciERC JSON Lines or the generic gold format (repeatable). "
             "Default: SciERC's and SciREX's train.json from ../shared/bench.")] = None,
    dev: Annotated[Path | None, typer.Option(
        "--dev", metavar="GOLD", show_default=False,
        help="Annotated abstracts that pick the best epoch (default: SciERC's dev.json when --train is not given).")] = None,
    fulltext: Annotated[list[Path] | None, typer.Option(
        "--fulltext", metavar="JSONL[.gz]", show_default=False,
        help="Whole papers in SciREX's format to draw extra windows from (default with the bench data: SciREX's).")] = None,
    fulltext_windows: Annotated[int, typer.Option("--fulltext-windows", metavar="N", min=0,
                                                  help="Windows of full text drawn beside the abstracts.")] = 200,
    holdout: Annotated[int | None, typer.Option(
        "--holdout", metavar="FOLD", min=0, max=4, show_default=False,
        help="Leave fold FOLD (0-4, by a hash of each abstract's key) out of every training file, for held-out figures.")] = None,
    epochs: Annotated[int, typer.Option("--epochs", metavar="N", min=1)] = 7,
    learning_rate: Annotated[float, typer.Option("--learning-rate", metavar="LR", help="The encoder's peak learning rate.")] = 1e-4,
    batch_size: Annotated[int, typer.Option("--batch-size", metavar="N", min=1, help="Windows per step.")] = 8,
    seed: Annotated[int, typer.Option("--seed", metavar="N")] = 0,
    layers: Annotated[int | None, typer.Option("--layers", metavar="N", min=1, max=6, show_default=False,
                                               help="Keep the encoder's first N layers only (faster, default: all six).")] = None,
    threads: Annotated[int | None, typer.Option("--threads", metavar="N", min=1, show_default=False,
                                                help="torch threads (default: torch's choice, all cores).")] = None,
) -> None:
    """Train the entity tagger and save it to OUT_DIR; `kg build --model OUT_DIR` uses it.

    Without --train, trains kg's shipped model: SciERC and SciREX train.json, 200 windows of SciREX
    full text, seven epochs, the epoch picked on SciERC's dev.json (about 25 minutes on two cores). With --train, a
    lab's own annotations in either gold format `kg eval` reads; --dev picks the epoch (without it,
    the last epoch is kept).

    \b
    Examples:
      kg train my-tagger                                    # kg's own model, from ../shared/bench
      kg train my-tagger --train ours.jsonl --dev ours-dev.jsonl
      kg train runs/fold1 --holdout 1                       # then: python bench/extraction_folds.py runs/fold1
      kg build corpus.txt --model my-tagger
    """
    from kg.extract import training
    from kg.extract.tagger import TaggerConfig

    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise KgError(f"{out}: exists and is not an empty folder; give a new one")
    if not train:
        scierc, scirex = BENCH / "scierc", BENCH / "scirex"
        train = [scierc / "train.json", scirex / "train.json"]
        missing = [p for p in train if not p.is_file()]
        if missing:
            raise KgError(f"{missing[0]}: not found; give your training files with --train")
        dev = dev or scierc / "dev.json"
        if fulltext is None and (scirex / "fulltext.jsonl.gz").is_file():
            fulltext = [scirex / "fulltext.jsonl.gz"]
    for p in [*train, *(fulltext or []), *([dev] if dev else [])]:
        if not p.is_file():
            raise KgError(f"{p}: no such file")
    out.mkdir(parents=True, exist_ok=True)  # now: an unwritable folder fails before, not after, training
    spec = training.TrainingSpec(train=tuple(train), dev=dev, fulltext=tuple(fulltext or ()),
                        fulltext_windows=fulltext_windows, holdout=holdout, epochs=epochs, seed=seed, threads=threads,
                                    learning_rate=learning_rate, batch_size=batch_size,
                                    config=TaggerConfig(layers=layers))
    info = training.train(spec, out, progress=True)
    best = max(info["history"], key=lambda h: (h.get("dev", {}).get("exact", 0) + h.get("dev", {}).get("partial", 0),
                                               h["epoch"]))
    typer.echo(f"Saved the tagger of epoch {best['epoch']} to {out}/ ({json.dumps(best.get('dev', {}))} on --dev)")
