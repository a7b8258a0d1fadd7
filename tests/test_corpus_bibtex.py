"""BibTeX, as reference managers export it: no entry lost silently."""
from kg.corpus import read_corpus
from tests.helpers import A1, A2, write


def test_bibtex_entries_become_papers(tmp_path):
    bib = ("% exported by Zotero\n@string{nips = \"NeurIPS\"}\n\n"
           "@article{lol2025,\n  title = {{LOL}: Latent Optimal {L}inear combinations},\n"
           "  author = {Doe, Jane and Roe, Richard},\n  year = {2025},\n  journal = nips,\n"
           f"  abstract = {{{A1}}},\n  keywords = {{linear, latent}},\n  doi = {{10.1/xyz}}\n}}\n\n"
           "@inproceedings{bare, title={Only a title}, year=2020, booktitle={ACL}}\n")
    corpus = read_corpus(write(tmp_path, "refs.bib", bib))
    (p,) = corpus.papers
    assert (p.id, p.title, p.year, p.venue) == ("lol2025", "LOL: Latent Optimal Linear combinations", 2025, "NeurIPS")
    assert p.authors == ("Doe, Jane", "Roe, Richard") and p.url == "https://doi.org/10.1/xyz"
    assert p.text == A1
    assert corpus.warnings == [f"{tmp_path / 'refs.bib'}:14: no abstract; skipped"]


def test_a_bibliography_loses_no_entry_silently(tmp_path):
    # A header line before the first entry, an entry the parser cannot read, a key used twice,
    # LaTeX accents and a brace-protected name with "and" inside.
    bib = ("Exported from MyRefs on 2024-01-01\n\n"                                     # 1
           f"@article{{a1, title={{On G\\\"odel}}, author={{M\\\"uller, T. and {{Barnes and Noble}}}},\n"
           f"  abstract={{{A1}}}}}\n"                                                       # 3-4
           "@article{broken, title={Never closed, abstract={We propose nothing at all here.}\n"  # 5
           f"@article{{a1, title={{Again}}, abstract={{{A2}}}}}\n")                          # 6
    corpus = read_corpus(write(tmp_path, "refs.bib", bib))
    p, again = corpus.papers
    assert (p.title, p.authors) == ("On Gödel", ("Müller, T.", "Barnes and Noble"))
    where = str(tmp_path / "refs.bib")
    assert p.source == f"{where}:3"
    # The second abstract under key a1 is another paper: kept, under an id of its own.
    assert (again.id, again.title, again.source) == ("a1-2", "Again", f"{where}:6")
    assert corpus.warnings == [f"{where}:5: BibTeX entry 'broken' could not be read (an unclosed brace or quote?); "
                               "skipped", f"{where}:6: id 'a1' used twice; this paper kept as 'a1-2'"]


def test_a_bibtex_macro_defined_in_another_file_reads_as_its_name(tmp_path):
    # Venues are often macros whose @string lives in a strings file of its own.
    bib = ('@string{icml = "International Conference on Machine Learning"}\n'
           f"@inproceedings{{a, title={{One}}, booktitle=NeurIPS, month=jan, abstract={{{A1}}}}}\n"
           f"@inproceedings{{b, title={{Two}}, booktitle=\"Proc. \" # icml, abstract={{{A2}}}}}\n")
    corpus = read_corpus(write(tmp_path, "refs.bib", bib))
    assert [p.venue for p in corpus.papers] == ["NeurIPS", "Proc. International Conference on Machine Learning"]
    assert corpus.warnings == []


def test_bibtex_macros_at_a_field_end_or_on_the_next_line_read_as_their_names(tmp_path):
    bib = (f"@inproceedings{{a,\r\n  title = {{One}},\r\n  abstract = {{{A1}}},\r\n  booktitle = NeurIPS\r\n}}\r\n"
           f"@inproceedings{{b, title = {{Two}}, abstract = {{{A2}}}, booktitle =\n   ICML}}\n")
    assert [p.venue for p in read_corpus(write(tmp_path, "refs.bib", bib)).papers] == ["NeurIPS", "ICML"]


def test_a_bibtex_string_defined_after_its_use_gives_its_value(tmp_path):
    bib = (f"@article{{a, title={{One}}, journal = tpami, abstract={{{A1}}}}}\n"
           "@string{tpami = {IEEE Transactions on Pattern Analysis and Machine Intelligence}}\n"
           f"@article{{b, title={{Two}}, journal = tpami, abstract={{{A2}}}}}\n")
    corpus = read_corpus(write(tmp_path, "refs.bib", bib))
    assert {p.venue for p in corpus.papers} == {"IEEE Transactions on Pattern Analysis and Machine Intelligence"}
