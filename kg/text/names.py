"""Word shapes that mark a name: "Llama-3.1", "MinAtar", "KIVI", "SWE-Bench".

No spaCy here: entity resolution reads these shapes too, and must not pay for loading it.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
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


# A word where no sentence starts: after a lower-case word, a number, a comma or a bracket.
_MID_SENTENCE_WORD = re.compile(r"(?<=[a-z0-9,;)] )[A-Za-z][a-z]+(?:-[a-z]+)*\b")


@dataclass(frozen=True)
class Casing:
    """How a corpus writes some words where no sentence starts. A capital at a sentence's start says
    nothing of a name ("Text style transfer is ..."); the same word in mid-sentence does."""

    lower: Counter[str]  # word -> times written in lower case mid-sentence
    capitalised: Counter[str]  # word (lower case) -> times written capitalised mid-sentence

    @classmethod
    def of(cls, texts: Iterable[str], words: Iterable[str]) -> Casing:
        """The casing of ``words`` (lower case) over ``texts``."""
        wanted = set(words)
        lower: Counter[str] = Counter()
        capitalised: Counter[str] = Counter()
        if wanted:
            for text in texts:
                for w in _MID_SENTENCE_WORD.findall(text):
                    key = w.lower()
                    if key in wanted:
                        (lower if w[0].islower() else capitalised)[key] += 1
        return cls(lower, capitalised)

    def as_written(self, text: str, sentence: str) -> str:
        """Mention ``text`` of ``sentence`` as the corpus writes it in mid-sentence: at the start of its
        sentence, a first word capitalised there only ("Text style transfer") in lower case when the
        corpus writes the word in lower case more often than capitalised ("Bayesian", "Twitter" stay)."""
        text = text.strip()
        first = sentence_capital(text, sentence)
        if first and self.lower[first.lower()] > self.capitalised[first.lower()]:
            return first.lower() + text[len(first):]
        return text


def sentence_capital(text: str, sentence: str) -> str:
    """The first word of mention ``text`` if the start of ``sentence`` is all that capitalises it
    ("Sarcasm" of "Sarcasm is ..."), else '': not "BERT" or "WordNet", nor a word mid-sentence, nor
    the first of words a title's capitals write ("Chart Question Answering (CQA) is ...")."""
    text = text.strip()
    first, _, rest = text.partition(" ")
    if len(first) > 1 and first[0].isupper() and first[1:].islower() and sentence.lstrip().startswith(text) \
            and not any(w[:1].isupper() and w[1:2].islower() for w in rest.split()):
        return first
    return ""
