"""Write kg's list of known dataset names (kg/concepts/known_datasets.txt) from Papers with Code's
dataset tags: distant supervision for the concept stage (kg/concepts/known.py).

The tags are those of ../shared/bench/real/acl_2017_2019_pwc.json ({paper id: [dataset names]},
Papers with Code, CC BY-SA 4.0). Each tag gives its name and, for "Long Name (SHORT)", both parts;
a name is kept when it is written like one (kg.concepts.linking.is_name: "SQuAD", "Penn Treebank";
"Hate Speech" too, every word capitalised, which the stage then checks against the corpus's
lower-case use), is not a language and is not a paper's title. ``--years`` keeps the tags of the
papers of those years only, to check the stage on years the list never saw:

    python scripts/known_datasets.py                                   # the shipped list, all years
    python scripts/known_datasets.py --years 2017,2018 --out known-2017-2018.txt
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "real"
OUT = Path(__file__).resolve().parents[1] / "kg" / "concepts" / "known_datasets.txt"


def forms(tag: str) -> list[str]:
    """A tag's names: itself and, for "Long Name (SHORT)", both parts."""
    m = re.match(r"^(.*?)\s*\(([^()]+)\)\s*$", tag)
    return [tag, m.group(1), m.group(2)] if m else [tag]


def main() -> None:
    from kg.concepts.linking import is_name
    from kg.concepts.typer import is_language

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tags", type=Path, default=REAL / "acl_2017_2019_pwc.json")
    ap.add_argument("--corpus", type=Path, default=REAL / "acl_2017_2019.jsonl",
                    help="the tagged papers, for --years")
    ap.add_argument("--years", help="only the tags of papers of these years (e.g. 2017,2018)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    tags = json.loads(args.tags.read_text(encoding="utf-8"))
    if args.years:
        years = {int(y) for y in args.years.split(",")}
        year_of = {p["id"]: p.get("year") for p in map(json.loads, args.corpus.open(encoding="utf-8")) if p}
        tags = {pid: ts for pid, ts in tags.items() if year_of.get(pid) in years}
    names = set()
    for ts in tags.values():
        for tag in ts:
            for form in forms(tag.strip()):
                form = form.strip()
                if 3 <= len(form) <= 40 and ":" not in form and len(form.split()) <= 5 \
                        and is_name(form) and not is_language(form):
                    names.add(form)
    header = ("# Dataset names Papers with Code tags on ACL Anthology papers (CC BY-SA 4.0), one a line:\n"
              "# kg's concept stage reads them as known datasets (kg/concepts/known.py).\n"
              f"# Made by: python scripts/known_datasets.py{' --years ' + args.years if args.years else ''}\n")
    args.out.write_text(header + "".join(f"{n}\n" for n in sorted(names, key=str.lower)), encoding="utf-8")
    print(f"{args.out}: {len(names)} names")


if __name__ == "__main__":
    main()
