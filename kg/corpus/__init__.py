"""Read a corpus of abstracts into ``Paper`` records: ``read_corpus(path)``.

One module per format, each with a ``sniff`` and a ``read``, tried in the order of the registry
``kg.corpus.formats.FORMATS`` (as spaCy's converters and NetworkX's readers are laid out):

* ``plaintext``: one abstract per blank-line-separated paragraph, an optional header first;
  ``lines``: one abstract per line;
* ``jsonfile``: JSON Lines, a JSON array, one object or an API response holding a list of them;
* ``scierc``: SciERC JSON Lines (also the gold files of ``kg eval``);
* ``csvfile``: CSV or TSV with an abstract column, whatever the file is called;
* ``bibtex``, ``ris``: what reference managers export;
* ``tagged``: PubMed's MEDLINE (``.nbib``) and Web of Science's plain-text exports.

Around them: ``source`` decodes the file, ``fields`` maps the field names exports use,
``papers`` turns a record into a ``Paper`` (cleaning its text with ``latex``, titling it with
``titles``), and ``read`` puts the papers of a file into a ``Corpus``.
"""
from kg.corpus.formats import FORMAT_NAMES, FORMATS, Format
from kg.corpus.papers import MAX_WORDS, paper_id, rejoin_broken_words
from kg.corpus.read import Corpus, read_corpus

__all__ = ["FORMATS", "FORMAT_NAMES", "Format", "MAX_WORDS", "Corpus", "paper_id", "read_corpus",
           "rejoin_broken_words"]
