"""Clean LaTeX and HTML markup out of an abstract so extraction sees plain prose, and the Markdown
emphasis OpenReview's abstracts carry ("a *unified* framework").

The raw abstract is kept on the Paper; only the cleaned text is read by the
extractor (and mention spans index it).
"""
from __future__ import annotations

import html
import re
import unicodedata

# BibTeX's accents as combining marks: "G\"odel", "\'{e}", "{\c c}", "\v{s}" -> "Gödel", "é", "ç", "š".
_ACCENT_MARKS = {"`": "\u0300", "'": "\u0301", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
                 ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327", "k": "\u0328",
                 "r": "\u030a", "d": "\u0323", "b": "\u0331"}
# A lettered accent needs a brace or a space after it ("\c{c}", "\c c"), so that "\cite" or "\dots" is
# never one. The accented letter may be braced, and may be the dotless "\i" that carries an accent.
_ACCENT = re.compile(r"""\\(?:([`'^"~=.])|([uvHckrdb])(?=[\s{])\s*)"""
                     r"(?:\{\s*(\\[ij](?![A-Za-z])|[A-Za-z])\s*\}|(\\[ij](?![A-Za-z])|[A-Za-z]))")
# Letters of their own: "S{\o}ren", "Stra\ss{}e", "{\L}{\'o}d{\'z}". A whole command only, so that
# "\lambda", "\log" or "\in" never lose their first letters to "\l", "\i".
_LETTERS = {"ss": "ß", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "aa": "å", "AA": "Å", "o": "ø", "O": "Ø",
            "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ"}
# Not '\"{O}zt\"{u}rk' nor '{\"{O}}zg{\"{u}}r': an umlaut is braced or touches its letter.
_ESCAPED_QUOTES = re.compile(r'(?<![\w\\{])\\"(?![{\s])([^"\\{}]{1,200}?)(?<!\s)\\"(?![\w{])')
_LETTER = re.compile(r"\\(%s)(?![A-Za-z])(\{\}| (?=[a-z]))?" % "|".join(_LETTERS))

# "*unified*", "**not**": Markdown emphasis around words, not a product ("a*b*c") or a footnote mark.
_EMPHASIS = re.compile(r"(?<![\w*])(\*{1,2})(?=[^\s*])([^*\n]{1,200}?)(?<=[^\s*])\1(?![\w*])")
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
# Greek letters read as the letters: "$\mu$m" is "μm", "$\Lambda$CDM" "ΛCDM". The variant forms are the
# letter a reader would type ("ε-greedy"), so that both spellings name one thing.
_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
          "eta": "η", "theta": "θ", "vartheta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ",
          "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "π", "rho": "ρ", "varrho": "ρ", "sigma": "σ",
          "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ",
          "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
          "Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω"}
# Symbols written as commands: "$9\times$" reads "9×", not "9times" (other commands keep their name).
# "\textless"/"\textgreater" (Mendeley writes "{\textgreater}50") become entities, read back as "<"/">"
# only after the HTML tags are gone, so that "\textless b\textgreater" is never taken for a tag.
# "\par" ends a paragraph: a space.
_SYMBOLS = _GREEK | {
    "times": "×", "pm": "±", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "approx": "≈", "sim": "~",
    "cdot": "·", "infty": "∞", "rightarrow": "→", "to": "→", "neq": "≠", "ll": "≪", "gg": "≫", "deg": "°",
    "circ": "°", "ldots": "…", "dots": "…", "cdots": "…", "sqrt": "√", "partial": "∂", "nabla": "∇",
    "textless": "&lt;", "textgreater": "&gt;", "par": " ",
    # text-mode symbols, as Mendeley and Zotero write them into BibTeX
    "textendash": "–", "textemdash": "—", "textquotedblleft": "“", "textquotedblright": "”",
    "textquoteleft": "‘", "textquoteright": "’", "textdegree": "°", "textregistered": "®",
    "textcopyright": "©", "texttrademark": "™", "textasciitilde": "~", "guillemotleft": "«",
    "guillemotright": "»", "textonehalf": "½", "textbullet": "•", "textpm": "±", "textmu": "µ",
    "texttimes": "×", "textellipsis": "…", "textasciicircum": "^", "textbackslash": "\\"}
# "2\\textendash 7" is "2–7", "\\sqrt n" is "√n": the space after these commands only ends their name
# (others keep it: "Intel\\textregistered Xeon" is "Intel® Xeon").
_JOINING = frozenset({"textendash", "textdegree", "textquotedblleft", "textquoteleft", "guillemotleft", "textmu",
                      "sqrt"})
_SYMBOL = re.compile(r"\\(%s)(?![A-Za-z])( (?=\S))?" % "|".join(sorted(_SYMBOLS, key=len, reverse=True)))


def accents_to_unicode(text: str) -> str:
    """``M{\\"u}ller``, ``\\c{C}a\\u{g}lar``, ``S{\\o}ren`` -> "M{ü}ller", "Çağlar", "S{ø}ren".

    Other markup stays, for ``clean_latex`` (which calls this first) to remove."""
    # Quotes some program escaped ('we call it \\"FastNet\\" here') open before a word and
    # close after one: a quotation, not two umlauts.
    text = _ESCAPED_QUOTES.sub(r'"\1"', text)
    text = _ACCENT.sub(_accented, text)
    return _LETTER.sub(_letter, text)


def _accented(m: re.Match) -> str:
    base = m.group(3) or m.group(4)
    if m.group(1) == "'" and m.group(4) in ("s", "t") and not m.string[m.end():m.end() + 1].isalpha():
        return "'" + base  # "John\'s", "don\'t": an apostrophe some program escaped, not an accent
    # The dotless i and j take an accent as i and j do: "\'{\i}" is "í".
    return unicodedata.normalize("NFC", base[-1] + _ACCENT_MARKS[m.group(1) or m.group(2)])


def _letter(m: re.Match) -> str:
    # TeX swallows the space after "\o"; inside a word ("S\o ren") it was only there to end the command.
    inside_word = m.group(2) == " " and m.start() > 0 and m.string[m.start() - 1].isalpha()
    return _LETTERS[m.group(1)] + ("" if inside_word or m.group(2) == "{}" else m.group(2) or "")


def _symbol(m: re.Match) -> str:
    name, space = m.group(1), m.group(2) or ""
    return _SYMBOLS[name] + ("" if name in _JOINING else space)


def clean_latex(text: str) -> str:
    """Plain text for extraction: markup removed, words rejoined, white space collapsed."""
    text = _HREF.sub(r"\1", text)
    text = _DROP.sub("", text)
    text = accents_to_unicode(text)  # first: a braced accent would stop a style's {...} from matching
    for _ in range(4):  # nested styles, innermost first
        new = _STYLE.sub(r"\1", text)
        if new == text:
            break
        text = new
    for k, v in _ESCAPED.items():
        text = text.replace(k, v)
    # A tie joins two words ("Fig.~3", "10~nm"); a "~" that starts a word means "approximately" ("size ~5 nm")
    # and stays, as does the "~" that "\sim" becomes below ("$\sim$5 nm").
    text = re.sub(r"(?<=[^\s(\[{\\])~", " ", text)
    # "\sqrt{n \log n}" keeps its grouping: "√(n log n)"; "\sqrt{n}" is "√n".
    text = re.sub(r"\\sqrt\s*\{([^{}]*)\}",
                  lambda m: "\\sqrt " + (m.group(1) if re.fullmatch(r"\s*\w+\s*", m.group(1)) else f"({m.group(1)})"),
                  text)
    text = _SYMBOL.sub(_symbol, text)
    text = re.sub(r"\$([^$]*)\$", r"\1", text)  # inline math keeps its symbols
    # Other commands keep their name, as a word of its own: "$O(n\log n)$" reads "O(n log n)".
    text = re.sub(r"(?<=\w)\\([A-Za-z]+)", r" \1", text)
    text = re.sub(r"\\([A-Za-z]+)", r"\1", text)
    text = text.replace("\\ ", " ").replace("---", "—").replace("``", '"').replace("''", '"')
    text = re.sub(r"\\(?=\W)", "", text)
    for _ in range(6):  # groups inside groups ("{{Routing in M{ü}nchen}}"), innermost first
        new = re.sub(r"\{([^{}]*)\}", r"\1", text)
        if new == text:
            break
        text = new
    text = _INLINE_TAG.sub("", text)
    text = _TAG.sub(" ", text)
    text = _EMPHASIS.sub(r"\2", text)
    text = html.unescape(text)
    return re.sub(r"\s+", " ", text).strip()
