#!/usr/bin/env python
"""A held-out estimate of extraction quality: retrain on 80% of train.json, score the other 20%.

    python bench/heldout_folds.py                   # folds 0 and 1 (about 10-20 min each on 2 cores)
    python bench/heldout_folds.py --seeds 0 1 2     # three recognizers per fold, decoded as one (~25 min each)
    python bench/heldout_folds.py --folds 0 --keep build/folds   # keep the models and splits
    python bench/heldout_folds.py --seeds 0 1 --train-args="--dropout 0.3"   # a training setting

The rules were tuned by reading dev.json, and dev.json picks the recognizer's checkpoint, so
dev figures are optimistic; SciERC's test split is not here. A fold of train.json is text no
rule was written against: fold k holds out the abstracts whose sha1(doc_key) mod 5 == k. For
each fold this copies kg/ and scripts/ into a scratch folder, retrains the recognizers
(scripts/train_ner.py, one per seed) and the span typer (scripts/train_typer.py) on the other abstracts
(dev.json still picks the checkpoint), then scores the pipeline and its parts (recognizer
alone, + span typer, + rules, all) on the held-out abstracts and on dev.json with those same
models. The gap between the two columns is what tuning on dev is worth; the held-out column
is the estimate. KeyBERT is off (it never changes a mention's text or type). Prints JSON.

Caveat: the head-noun statistics of the rules (rules.UNRELIABLE_HEADS, the task heads) were
counted on all of train.json, held-out folds included, which favours the held-out figure a little.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT.parent / "shared" / "bench" / "scierc"
PARTS = {"recognizer": {"use_rules": False, "use_typer": False}, "+typer": {"use_rules": False},
         "+rules": {"use_typer": False}, "all": {}}

# Run inside the scratch copy: scores each part of the pipeline on each gold file; with several
# recognizers also the whole pipeline with the first alone (what the others add, same models).
SCORER = """
import json, sys
from kg.evaluate import evaluate_many
from kg.extract import Extractor, models
parts, golds = json.loads(sys.argv[1]), json.loads(sys.argv[2])
dirs = models.ner_dirs()
runs = [(part, kw, dirs) for part, kw in parts.items()]
if len(dirs) > 1:
    runs.append(("all, " + dirs[0].name + " alone", {}, dirs[:1]))
out = {}
for gold_name, path in golds.items():
    for part, kw, use in runs:
        r = evaluate_many(path, Extractor(use_keybert=False, recognition=models.Recognition(dirs=tuple(use)), **kw))
        out.setdefault(gold_name, {})[part] = {m: {"f1": round(r[m]["micro"]["f1"], 4),
            "per_type_f1": {t: round(v["f1"], 4) for t, v in r[m]["per_type"].items()}} for m in r}
print(json.dumps(out))
"""


def split(train: Path, fold: int) -> tuple[list[str], list[str]]:
    lines = [ln for ln in train.read_text(encoding="utf-8").splitlines(keepends=True) if ln.strip()]
    held, rest = [], []
    for ln in lines:
        key = json.loads(ln)["doc_key"]
        (held if int(hashlib.sha1(key.encode("utf-8")).hexdigest(), 16) % 5 == fold else rest).append(ln)
    return held, rest


def run(cmd: list[str], cwd: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(cwd), HF_HUB_OFFLINE="1")
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd[:3])} failed: {proc.stderr.strip()[-2000:]}")
    return proc.stdout


def run_all(cmds: list[list[str]], cwd: Path) -> None:
    """Run the commands side by side; stop at the first that fails."""
    env = dict(os.environ, PYTHONPATH=str(cwd), HF_HUB_OFFLINE="1")
    logs = [tempfile.TemporaryFile(mode="w+") for _ in cmds]  # not pipes: a full one would stall its writer
    procs = [subprocess.Popen(c, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, text=True)
             for c, log in zip(cmds, logs)]
    for c, proc, log in zip(cmds, procs, logs):
        if proc.wait() != 0:
            log.seek(0)
            sys.exit(f"bench: {' '.join(c[:4])} failed: {log.read().strip()[-2000:]}")


def one_fold(fold: int, bench: Path, work: Path, seeds: list[int], train_args: list[str] = ()) -> dict:
    work.mkdir(parents=True)
    held, rest = split(bench / "train.json", fold)
    data = work / "bench"
    data.mkdir()
    (data / "train.json").write_text("".join(rest), encoding="utf-8")
    shutil.copyfile(bench / "dev.json", data / "dev.json")
    (work / "heldout.json").write_text("".join(held), encoding="utf-8")
    repo = work / "repo"
    ignore = shutil.ignore_patterns("__pycache__", "ner-*", "typer.npz")
    shutil.copytree(ROOT / "kg", repo / "kg", ignore=ignore)
    shutil.copytree(ROOT / "scripts", repo / "scripts", ignore=ignore)
    t0 = time.perf_counter()
    # Recognizers are decoded together, so a fold can train several (two at a time: one training keeps about one
    # core busy) to measure an ensemble.
    for i in range(0, len(seeds), 2):
        run_all([[sys.executable, "scripts/train_ner.py", "--seed", str(s), "--bench", str(data), *train_args]
                 for s in seeds[i:i + 2]], repo)
    run([sys.executable, "scripts/train_typer.py", "--bench", str(data)], repo)
    trained = time.perf_counter() - t0
    check = run([sys.executable, "-c", "import kg, kg.extract.models as m; print(kg.__file__); "
                 "print([str(p) for p in m.ner_dirs()])"], repo)
    if str(repo) not in check or str(ROOT / "kg") in check:
        sys.exit(f"bench: the scratch copy did not load its own models: {check}")
    scores = json.loads(run([sys.executable, "-c", SCORER, json.dumps(PARTS),
                             json.dumps({"heldout": str(work / "heldout.json"), "dev": str(data / "dev.json")})],
                            repo).strip().splitlines()[-1])
    return {"fold": fold, "recognizer_seeds": seeds, "train_args": list(train_args),
            "heldout_abstracts": len(held), "train_abstracts": len(rest),
            "training_s": round(trained), "scores": scores,
            "gap_dev_minus_heldout": {m: round(scores["dev"]["all"][m]["f1"] - scores["heldout"]["all"][m]["f1"], 4)
                                      for m in scores["dev"]["all"]}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--folds", type=int, nargs="+", default=[0, 1], choices=range(5))
    ap.add_argument("--bench", type=Path, default=BENCH, help="folder with SciERC train.json and dev.json")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0],
                    help="recognizers to train per fold; decoded as one, as the shipped ner-* folders are")
    ap.add_argument("--keep", type=Path, default=None, help="keep the scratch folders (models, splits) here")
    ap.add_argument("--train-args", default="",
                    help='more options for scripts/train_ner.py, one string: --train-args="--epochs 60"')
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        # Absolute: the training scripts run with the scratch copy as their working folder.
        base = (args.keep or Path(tmp)).resolve()
        results = []
        for k in args.folds:
            results.append(one_fold(k, args.bench.resolve(), base / f"fold{k}", args.seeds,
                                    shlex.split(args.train_args)))
            print(json.dumps(results[-1]), file=sys.stderr, flush=True)
    print(json.dumps({"folds": results}, indent=2))


if __name__ == "__main__":
    main()
