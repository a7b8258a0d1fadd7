"""Word shapes that mark a name: "Llama-3.1", "MinAtar", "KIVI", "SWE-Bench".

No spaCy here: entity resolution reads these shapes too, and must not pay for loading it.
"""
from __future__ import annotations

import re
from functools import lru_cache

from kg.text.acronyms import acronym_singular

_ROMAN = re.compile(r"^[IVX]+$")
COMMON_CAPS = {  # upper-case words that name no method, task or dataset
    "I", "A", "AI", "ML", "GPU", "GPUs", "CPU", "CPUs", "TPU", "TPUs", "API", "APIs", "US", "USA", "UK", "EU",
    "PDF", "URL", "HTTP", "JSON", "XML", "SQL", "RAM", "OK", "II", "III", "IV", "AND", "OR", "NOT", "ID", "IDs",
    "PhD", "IoT", "TV", "LaTeX", "GitHub", "YouTube", "arXiv", "PyTorch", "TensorFlow",
}


@lru_cache(maxsize=1 << 16)  # a corpus repeats its words: resolution, typing and rating ask for each often
def name_strength(word: str) -> int:
    """2: a word only a name looks like; 1: a short acronym; 0: an ordinary word."""
    if word in COMMON_CAPS or len(word) < 2:
        return 0
    core = acronym_singular(word) if len(word) > 3 else word  # "LLMs"; "LMs" stays a shape of its own
    letters = [c for c in core if c.isalpha()]
    if not letters:
        return 0
    if re.search(r"[-]?Bench$", word) and len(word) > 5:
        return 2
    first = core.split("-")[0]
    if "-" in core and first[:1].islower() and not any(c.isupper() or c.isdigit() for c in first):
        return 0  # "human-AI", "text-to-3D": an ordinary word with a name inside
    has_digit = any(c.isdigit() for c in core)
    parts = [x for x in core.split("-") if x]
    if len(parts) > 1 and not has_digit and max(name_strength(x) for x in parts) < 2:
        # Capitalised words or short acronyms joined by hyphens ("English-Spanish", "AS-closed",
        # "Qwen-VL") are no name by their shape alone: a cue may still type them. "N-best" is a word.
        # "Fine-tuning", "Large-scale" at a sentence start have one capital: ordinary words.
        capitalised = sum(1 for x in parts if x[:1].isupper())
        return 1 if capitalised > 1 or any(len(x) > 1 and x.isupper() for x in parts) else 0
    inner_upper = any(c.isupper() for c in core[1:]) and any(c.islower() for c in core)
    upper = sum(c.isupper() for c in letters)
    if inner_upper:
        if re.fullmatch(r"[A-Z]{2}[a-z]{2,}", core):
            return 0  # "REward": capitals marking an acronym's letters
        return 2
    if has_digit and len(letters) >= 2 and upper >= 1:
        return 2  # Llama-3.1, Flickr30K, GPT-4, ResNet-50, T5 is 1 letter: not taken
    if re.fullmatch(r"[a-z]{2,}\d[a-z]{2,}", core):
        return 2  # "word2vec", "seq2seq", "node2vec": a digit inside a word
    if upper == len(letters):
        if _ROMAN.match(core):
            return 0
        return 2 if len(letters) >= 4 else 1
    return 0


def written_as_name(text: str, sentence: str) -> bool:
    """Is a mention ``text`` of ``sentence`` written as a name: a name-shaped word ("GPT-2",
    "SQuAD"), or capitalised where its sentence does not start ("the Transformer", "Penn Treebank")?"""
    text = text.strip()
    if any(name_strength(w) > 0 for w in text.split()):
        return True
    return text[:1].isupper() and not sentence.lstrip().startswith(text)
