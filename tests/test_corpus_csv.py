"""CSV and TSV corpora, as spreadsheets and reference databases write them."""
import json

import pytest

from kg.corpus import read_corpus
from kg.errors import KgError
from tests.helpers import A1, A2, write


def test_json_array_and_csv(tmp_path):
    arr = read_corpus(write(tmp_path, "c.json", json.dumps([{"abstract": A1}, {"abstract": A2}])))
    assert len(arr.papers) == 2
    csv_text = 'id,title,abstract\nq1,First,"' + A1 + '"\nq2,Second,"' + A2.replace("a", "a") + '"\n'
    c = read_corpus(write(tmp_path, "c.csv", csv_text))
    assert [(p.id, p.title) for p in c.papers] == [("q1", "First"), ("q2", "Second")]


@pytest.mark.parametrize("delimiter", ["\t", ";"])
def test_a_csv_file_is_read_with_the_delimiter_its_header_uses(tmp_path, delimiter):
    rows = [delimiter.join(["title", "abstract", "Why I saved this paper"]), delimiter.join(["One", A1, "x"]),
            delimiter.join(["Two", A2, "y"])]
    corpus = read_corpus(write(tmp_path, "papers.csv", "\n".join(rows) + "\n"))
    assert [(p.title, p.abstract) for p in corpus.papers] == [("One", A1), ("Two", A2)]


def test_a_csv_row_is_located_at_its_first_line_and_scopus_dois_and_zotero_dates_are_read(tmp_path):
    text = f'Title,Abstract,DOI,Date\nOne,"{A1}\nsecond line",10.1/x,5/17/2024\nTwo,"{A2}",,\n'
    corpus = read_corpus(write(tmp_path, "scopus.csv", text))
    one, two = corpus.papers
    assert (one.source, two.source) == (f"{tmp_path / 'scopus.csv'}:2", f"{tmp_path / 'scopus.csv'}:4")
    assert (one.url, one.year) == ("https://doi.org/10.1/x", 2024)
    assert (two.url, two.year) == (None, None)


def test_a_zotero_csv_export_is_read_under_its_own_column_names(tmp_path):
    csv_text = ('"Key","Item Type","Publication Year","Author","Title","Publication Title","Url","Abstract Note",'
                '"Manual Tags"\n'
                f'"ABCD1234","journalArticle","2017","Vaswani, Ashish; Shazeer, Noam","LOL paper","NeurIPS",'
                f'"https://x.org/1","{A1}","attention; transformers"\n'
                '"EFGH5678","journalArticle","2019","Devlin, Jacob","No abstract","NAACL","","",""\n'
                f'"IJKL9012","journalArticle","2020","Doe, Jane","One author","ACL","","{A2}",""\n')
    corpus = read_corpus(write(tmp_path, "My Library.csv", csv_text))
    p, q = corpus.papers
    assert q.authors == ("Doe, Jane",)  # one author, surname first
    assert (p.id, p.title, p.year, p.venue, p.url) == ("ABCD1234", "LOL paper", 2017, "NeurIPS", "https://x.org/1")
    assert p.authors == ("Vaswani, Ashish", "Shazeer, Noam") and p.keywords == ("attention", "transformers")
    assert corpus.warnings == [f"{tmp_path / 'My Library.csv'}:3: no abstract; skipped"]


def test_a_database_placeholder_is_no_abstract(tmp_path):
    rows = ["Authors,Title,Year,Source title,Abstract",
            f'"Doe J., Roe R.",One,2020,ACL,"{A1}"',
            "Roe R.,Two,2021,EMNLP,[No abstract available]",
            "Poe P.,Three,2021,EMNLP,[No abstract available]"]
    corpus = read_corpus(write(tmp_path, "scopus.csv", "\n".join(rows) + "\n"))
    assert [p.title for p in corpus.papers] == ["One"] and corpus.papers[0].authors == ("Doe J.", "Roe R.")
    assert corpus.skipped == 2 and corpus.merged == 0  # not one "abstract" and a duplicate of it


def test_a_malformed_csv_row_is_named_by_its_own_line(tmp_path):
    csv_text = f'title,abstract\nA,"{A1}"\n"B"x,"{A2}"\nC,"{A1} More."\n'
    with pytest.raises(KgError, match=r"bad.csv:3: malformed CSV"):
        read_corpus(write(tmp_path, "bad.csv", csv_text))


def test_a_tab_separated_file_under_any_name_may_have_ragged_rows(tmp_path):
    # Web of Science ends each row with a tab the header lacks; a hand-made TSV leaves its last
    # column off where there is nothing to say.
    trailing = f"TI\tAB\nOne\t{A1}\t\nTwo\t{A2}\t\n"
    assert [p.title for p in read_corpus(write(tmp_path, "savedrecs.txt", trailing)).papers] == ["One", "Two"]
    ragged = f"title\tabstract\tkeywords\nOne\t{A1}\tx; y\nTwo\t{A2}\nThree\t{A1} Again.\n"
    assert [p.title for p in read_corpus(write(tmp_path, "mine.txt", ragged)).papers] == ["One", "Two", "Three"]


def test_web_of_science_tab_ids_are_accession_numbers_and_dois_and_years_are_checked(tmp_path):
    tab = "PT\tTI\tAB\tID\tDI\tUT\nJ\tReefs\t" + A1 + "\tNEURAL-NETWORKS; CLASSIFICATION\t10.1/reef\tWOS:1\n"
    (p,) = read_corpus(write(tmp_path, "savedrecs.txt", tab)).papers
    assert (p.id, p.url) == ("WOS:1", "https://doi.org/10.1/reef")
    rows = [{"abstract": A1, "doi": "http://dx.doi.org/10.1000/xyz", "date": 1700000000000},
            {"abstract": A2, "doi": "doi:10.1000/abc", "year": 2024},
            {"abstract": A2 + " It is new.", "year": "0000-00-00"}]
    one, two, three = read_corpus(write(tmp_path, "d.jsonl", "\n".join(json.dumps(r) for r in rows))).papers
    assert (one.url, one.year, two.url, two.year) == ("https://doi.org/10.1000/xyz", None,
                                                      "https://doi.org/10.1000/abc", 2024)
    assert three.year is None


def test_line_breaks_inside_a_quoted_csv_cell_are_the_cells_own(tmp_path):
    # More CRs than twice the LFs used to make the reader take the file for classic Mac line ends
    # and turn every CR into LF, inside quoted cells too: "parse-\rtree" was read "parsetree".
    cell = "\r".join(["We list the steps of our method, one a line:", "parse-", "tree building,", "scoring,",
                      "and ranking", "of the candidates.", "It works", "well."])
    corpus = read_corpus(write(tmp_path, "steps.csv", f'id,abstract\n1,"{cell}"\n2,"{A1}"\n'.encode(), mode="wb"))
    assert [p.abstract for p in corpus.papers] == [cell, A1]
    assert "parse- tree" in corpus.papers[0].text
    # A whole CSV with classic Mac line ends is still read row by row, its cells' breaks kept.
    mac = read_corpus(write(tmp_path, "mac.csv", f'id,abstract\r1,"{A1}\rmore"\r2,"{A2}"\r'.encode(), mode="wb"))
    assert [p.abstract for p in mac.papers] == [f"{A1}\rmore", A2]
