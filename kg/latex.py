"""Clean LaTeX and HTML markup out of an abstract so extraction sees plain prose.

The raw abstract is kept on the Paper; only the cleaned text is read by the
extractor (and mention spans index it).
"""
from __future__ import annotations

import html
import re

_STYLE = re.compile(
    r"\\(?:textbf|textit|textrm|texttt|textsc|textsf|emph|underline|text|mathrm|mathbf|mathit|"
    r"mathcal|mathbb|mathsf|operatorname|boldsymbol|bm)\s*\{([^{}]*)\}"
)
# A dropped citation takes the space or tie before it: "ImageNet~\cite{x}." reads "ImageNet.".
_DROP = re.compile(r"[\s~]*\\(?:citep?|citet|citeauthor|cite|ref|eqref|label|footnote|url)\*?\s*(?:\[[^\]]*\])?\{[^{}]*\}")
_HREF = re.compile(r"\\href\s*\{[^{}]*\}\s*\{([^{}]*)\}")  # \href{url}{text} reads as its text
_ESCAPED = {r"\%": "%", r"\&": "&", r"\_": "_", r"\#": "#", r"\$": "$", r"\{": "{", r"\}": "}"}
# A tag's attributes must have values, so that the comparisons of "x<a and b>y" are not taken
# for one. Inline tags sit inside words ("H<sub>2</sub>O", "<b>FastNet</b>,"): removed outright.
# Any other tag separates what is around it ("A<br>B", "</p><p>", "<jats:p>").
_ATTRS = r"""(?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s<>]+))*\s*/?>"""
# Crossref's JATS abstracts spell them with a prefix: "<jats:italic>", "<jats:sub>".
_INLINE_TAG = re.compile(r"</?(?:[\w-]+:)?(?:a|abbr|b|bold|code|em|font|i|italic|mark|monospace|s|sc|small|span|"
                         r"strong|sub|sup|tt|u|underline)" + _ATTRS, re.IGNORECASE)
_TAG = re.compile(r"</?[A-Za-z][\w:.-]*" + _ATTRS)
# Symbols written as commands: "$9\times$" reads "9×", not "9times" (other commands keep their name).
_SYMBOLS = {"times": "×", "pm": "±", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "approx": "≈",
            "sim": "~", "cdot": "·", "infty": "∞", "rightarrow": "→", "to": "→", "neq": "≠", "ll": "≪",
            "gg": "≫", "deg": "°", "circ": "°", "ldots": "…", "dots": "…", "cdots": "…"}
_SYMBOL = re.compile(r"\\(%s)(?![A-Za-z])" % "|".join(sorted(_SYMBOLS, key=len, reverse=True)))


def clean_latex(text: str) -> str:
    """Plain text for extraction: markup removed, words rejoined, white space collapsed."""
    text = _HREF.sub(r"\1", text)
    text = _DROP.sub("", text)
    for _ in range(4):  # nested styles, innermost first
        new = _STYLE.sub(r"\1", text)
        if new == text:
            break
        text = new
    for k, v in _ESCAPED.items():
        text = text.replace(k, v)
    text = _SYMBOL.sub(lambda m: _SYMBOLS[m.group(1)], text)
    text = re.sub(r"\$([^$]*)\$", r"\1", text)  # inline math keeps its symbols
    text = re.sub(r"\\([A-Za-z]+)", r"\1", text)  # \alpha -> alpha
    text = text.replace("\\ ", " ").replace("~", " ").replace("---", "—").replace("``", '"').replace("''", '"')
    text = re.sub(r"\\(?=\W)", "", text)
    text = re.sub(r"(?<!\w)\{([^{}]*)\}", r"\1", text)
    text = re.sub(r"\{([^{}]*)\}", r"\1", text)
    text = _INLINE_TAG.sub("", text)
    text = _TAG.sub(" ", text)
    text = html.unescape(text)
    return re.sub(r"\s+", " ", text).strip()
