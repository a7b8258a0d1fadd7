"""LaTeX markup in titles, names and abstracts reads as the prose its author meant, in every format."""
import json

from kg.corpus.bibtex import split_bibtex_names
from kg.corpus import read_corpus
from kg.corpus.latex import clean_latex

TITLE = r"\textit{In vivo} imaging of \emph{Caenorhabditis elegans} neurons"
ABSTRACT = (r"We present \textbf{WormTrack}, a tracker for \emph{C. elegans} neurons at $\lambda = 488$ nm "
            r"with $\theta \leq 0.05$ error in $O(n \log n)$ time, for $\Lambda$CDM, any $\kappa$ and "
            r"$x \in X$, in {\textgreater}50 worms.")
PROSE = ("We present WormTrack, a tracker for C. elegans neurons at λ = 488 nm with θ ≤ 0.05 error in "
         "O(n log n) time, for ΛCDM, any κ and x in X, in >50 worms.")


def _bib(tmp_path, fields: str):
    path = tmp_path / "refs.bib"
    path.write_text(f"@article{{worm24,\n{fields}\n}}\n", encoding="utf-8")
    return read_corpus(path)


def test_bibtex_markup_reads_as_the_same_prose_as_json_lines(tmp_path):
    # Commands starting with "l", "i" or "th" (\lambda, \log, \in, \theta) are no accented letters.
    (p,) = _bib(tmp_path, f"  title = {{{{{TITLE}}}}},\n  abstract = {{{ABSTRACT}}}").papers
    assert p.title == "In vivo imaging of Caenorhabditis elegans neurons"
    assert p.text == PROSE
    path = tmp_path / "refs.jsonl"
    path.write_text(json.dumps({"abstract": ABSTRACT}) + "\n", encoding="utf-8")
    (q,) = read_corpus(path).papers
    assert q.text == p.text


def test_accented_names_read_as_letters_in_bibtex_and_in_abstracts(tmp_path):
    names = (r"M{\"u}ller, T. and Ren\'{e}, A. and Andr{\'e}, B. and Fran\c{c}ois, C. and S{\o}ren, D. "
             r"and Stra\ss{}er, E. and {\L}{\'o}d{\'z}, F. and N\'{\i}{\~n}ez, G.")
    abstract = r"We solve the Schr\"odinger equation for G\"odel's universe with a fast solver."
    (p,) = _bib(tmp_path, f"  author = {{{names}}},\n  abstract = {{{abstract}}}").papers
    assert p.authors == ("Müller, T.", "René, A.", "André, B.", "François, C.", "Søren, D.", "Straßer, E.",
                         "Łódź, F.", "Níñez, G.")
    assert p.text == "We solve the Schrödinger equation for Gödel's universe with a fast solver."
    assert clean_latex(abstract) == p.text  # the same abstract from any other format
    assert clean_latex(r"the model\'s output, which we don\'t tune") == "the model's output, which we don't tune"


def test_approximately_stays_approximately_while_ties_become_spaces():
    assert clean_latex(r"pores of $\sim$5 nm") == "pores of ~5 nm"
    assert clean_latex("pores of ~5 nm (~2 per cell)") == "pores of ~5 nm (~2 per cell)"
    assert clean_latex(r"as in Fig.~3, pores of~$\sim$5~nm") == "as in Fig. 3, pores of ~5 nm"


def test_a_command_glued_to_a_word_stays_a_word_of_its_own():
    assert clean_latex(r"sorting in $\mathcal{O}(n\log n)$ time") == "sorting in O(n log n) time"


def test_greek_letter_commands_become_greek_letters():
    assert clean_latex(r"a 5 $\mu$m bead in $\Lambda$CDM with $\alpha=0.1$, $\varepsilon$-greedy") == \
        "a 5 μm bead in ΛCDM with α=0.1, ε-greedy"


def test_text_comparison_commands_become_signs_never_tags():
    assert clean_latex(r"in {\textgreater}50 cells and \textless{}3 steps") == "in >50 cells and <3 steps"
    assert clean_latex(r"we write {\textless}b{\textgreater} for it") == "we write <b> for it"


def test_a_paragraph_break_separates_sentences():
    assert clean_latex(r"The first part ends.\par The second part begins.") == \
        "The first part ends. The second part begins."
    assert clean_latex(r"the $\partial$ operator") == "the ∂ operator"  # a longer command, no break


def test_others_in_a_bibtex_author_list_is_no_author(tmp_path):
    fields = "  author = {Wang, Li and Others},\n  abstract = {We track worms with a fast tracker.}"
    (p,) = _bib(tmp_path, fields).papers
    assert p.authors == ("Wang, Li",)
    assert split_bibtex_names("Doe, J. and others") == ["Doe, J."]
    assert split_bibtex_names("{Others and Sons} and Roe, R.") == ["{Others and Sons}", "Roe, R."]


def test_escaped_quotes_and_apostrophes_stay_quotes():
    assert clean_latex('We call it \\"FastNet\\" and the users\\\' data stay private.') == \
        'We call it "FastNet" and the users\' data stay private.'
    assert clean_latex('G\\"odel and \\"Ozt\\"urk') == "Gödel and Öztürk"
    # braced umlauts, as DBLP writes them, are umlauts
    assert clean_latex('{\\"{O}}zg{\\"{u}}r and \\"{O}zt\\"{u}rk: \\"{U}ber die Gr\\"{o}\\ss{}e') == \
        "Özgür and Öztürk: Über die Größe"


def test_text_mode_symbols_and_nested_groups_read_as_prose():
    assert clean_latex("{Retinal disease \\textendash{} a \\textquotedblleft{}specialist\\textquotedblright{} view}") \
        == "Retinal disease – a “specialist” view"
    assert clean_latex("at 37\\textdegree{}C") == "at 37°C"
    assert clean_latex("2\\textendash 7 cells of 10 \\textmu m") == "2–7 cells of 10 µm"
    assert clean_latex("on Intel\\textregistered Xeon, a \\textemdash b") == "on Intel® Xeon, a — b"
    assert clean_latex('{{Routing in M{\\"u}nchen}}') == "Routing in München"


def test_clean_latex_handles_html_and_escapes():
    assert clean_latex("A <i>deep</i> net with 5\\% error &amp; more") == "A deep net with 5% error & more"
    assert clean_latex("a $9\\times$ speed-up, $\\leq 3$ steps, $\\alpha$") == "a 9× speed-up, ≤ 3 steps, α"
    # A root or a gradient reads as its symbol, not as the command's name run into its argument.
    assert clean_latex("an $O(\\sqrt{n})$ bound, $\\sqrt n$ and $\\nabla_\\theta$") == "an O(√n) bound, √n and ∇_θ"
    assert clean_latex("in $O(\\sqrt{n \\log n})$ time") == "in O(√(n log n)) time"


def test_markup_leaves_no_stray_spaces_inside_words_or_before_punctuation():
    assert clean_latex("We propose <b>FastNet</b>, a net.") == "We propose FastNet, a net."
    assert clean_latex("H<sub>2</sub>O at 10<SUP>3</SUP> K") == "H2O at 103 K"
    assert clean_latex("as shown \\cite{smith20}. Next") == "as shown. Next"
    assert clean_latex("accuracy on ImageNet~\\cite{deng09}.") == "accuracy on ImageNet."
    assert clean_latex("code at \\href{https://github.com/x}{GitHub}.") == "code at GitHub."
    # No tag: a tag's attributes have values. The words between the comparisons stay.
    assert clean_latex("for x<a and b>y") == "for x<a and b>y"
    assert clean_latex("if p<q and r>s holds") == "if p<q and r>s holds"
    assert clean_latex("<jats:p>H<jats:sub>2</jats:sub>O</jats:p><jats:p>Next</jats:p>") == "H2O Next"
    assert clean_latex('<jats:p>We study <jats:italic>X</jats:italic>.</jats:p>') == "We study X."
    assert clean_latex('A<br/>B <img src=x onerror=alert(1)>C <p class="a b">D</p>') == "A B C D"
    # Block tags still separate words.
    assert clean_latex("<p>One.</p><p>Two.</p>A<br>B") == "One. Two. A B"


def test_markdown_emphasis_reads_as_its_words_and_products_stay():
    from kg.corpus.latex import clean_latex

    assert clean_latex("a *unified* framework for **text-to-image retrieval**") == \
        "a unified framework for text-to-image retrieval"
    assert clean_latex("compute a*b*c, x * y * z, and p<0.05*") == "compute a*b*c, x * y * z, and p<0.05*"
