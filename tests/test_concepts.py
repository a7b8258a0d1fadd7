"""The concept stage: one node per concept, one type each, Datasets that are named datasets, and a
specificity a reader can filter on."""
from kg.concepts import find_concepts
from kg.concepts.specificity import is_generic_name
from kg.concepts.typer import is_language
from kg.graph import build_graph
from kg.schema import ARTIFACT, BROAD, GENERIC, SPECIFIC
from kg.analysis.stats import top_entities
from tests.helpers import extraction, paper


def concepts(*specs, known=None):
    """find_concepts over (id, text, [(surface, type), ...]) papers (``known``: its known dataset names)."""
    papers = [paper(pid, text) for pid, text, _ in specs]
    exs = [extraction(p, *items) for p, (_, _, items) in zip(papers, specs)]
    return papers, exs, find_concepts(papers, exs, known=known)


def names(r, etype=None):
    return {e.name for e in r.entities.values() if etype is None or e.type == etype}


def test_spellings_that_differ_in_hyphens_spaces_and_plurals_are_one_concept():
    _, _, r = concepts(
        ("a", "We use multi-task learning on ACE 2005.", [("multi-task learning", "Method"), ("ACE 2005", "Dataset")]),
        ("b", "We use multitask learning on ACE2005.", [("multitask learning", "Method"), ("ACE2005", "Dataset")]),
        ("c", "Also multi-task learning on the ACE 2005 data.", [("multi-task learning", "Method"),
                                                              ("ACE 2005", "Dataset")]),
        ("d", "Pre-trained language models and pretrained language models.",
         [("Pre-trained language models", "Method"), ("pretrained language models", "Method")]),
    )
    assert len([e for e in r.entities.values() if e.type == "Method" and "task" in e.name]) == 1
    assert len([e for e in r.entities.values() if e.type == "Dataset"]) == 1
    assert {e.name for e in r.entities.values() if e.type == "Dataset"} == {"ACE 2005"}  # the commonest spelling
    assert len([e for e in r.entities.values() if "language model" in e.id]) == 1


def test_names_that_must_stay_apart():
    _, _, r = concepts(
        ("a", "We fine-tune BERT and RoBERTa for machine translation.",
         [("BERT", "Method"), ("RoBERTa", "Method"), ("machine translation", "Task")]),
        ("b", "BERT helps neural machine translation; RoBERTa too.",
         [("BERT", "Method"), ("neural machine translation", "Task"), ("RoBERTa", "Method")]),
    )
    assert {"BERT", "RoBERTa"} <= names(r, "Method")
    assert {"machine translation", "neural machine translation"} <= names(r, "Task")


def test_an_acronym_defined_in_one_abstract_stands_for_its_long_form_in_every_abstract():
    _, _, r = concepts(
        ("a", "Language models (LMs) are strong.", [("Language models", "Method"), ("LMs", "Method")]),
        ("b", "LMs fail at negation.", [("LMs", "Method")]),
        ("c", "We probe LMs with bidirectional LMs.", [("LMs", "Method"), ("bidirectional LMs", "Method")]),
    )
    lm = r.entities["Method:language model"]
    assert {"LMs", "Language models"} <= set(lm.aliases)
    # Inside a longer name too: "bidirectional LMs" is "bidirectional language model".
    assert "Method:bidirectional language model" in r.entities


def test_an_acronym_people_write_far_more_than_its_long_form_names_the_node():
    specs = [("a", "Bidirectional Encoder Representations from Transformers (BERT) is used.",
              [("Bidirectional Encoder Representations from Transformers", "Method"), ("BERT", "Method")])]
    specs += [(f"p{i}", f"We fine-tune BERT on task {i}.", [("BERT", "Method")]) for i in range(4)]
    _, _, r = concepts(*specs)
    (bert,) = [e for e in r.entities.values() if e.type == "Method"]
    assert bert.name == "BERT" and "Bidirectional Encoder Representations from Transformers" in bert.aliases


def test_a_dataset_is_a_named_dataset():
    papers, exs, r = concepts(
        ("a", "We evaluate on SQuAD and English tweets from social media.",
         [("SQuAD", "Dataset"), ("English", "Dataset"), ("social media", "Dataset")]),
        ("b", "Results on SQuAD, in English and Chinese-English, with labeled data.",
         [("SQuAD", "Dataset"), ("English", "Dataset"), ("Chinese-English", "Dataset"), ("labeled data", "Dataset")]),
        ("c", "Experiments on the Penn Treebank.", [("Penn Treebank", "Dataset")]),
    )
    assert names(r, "Dataset") == {"SQuAD", "Penn Treebank"}
    # The mentions of what is no dataset resolve to no node; the graph has no edge for them.
    assert r.mention_entity["a"][1:] == [None, None]
    g = build_graph(papers, exs, r)
    assert {v for _, v in g.out_edges("a")} == {"Dataset:squad"}


def test_languages_come_from_iso_639():
    assert is_language("English") and is_language("Chinese-English") and is_language("Swahili text")
    assert is_language("English→German") and is_language("English->German")
    assert not is_language("low-resource languages") and not is_language("Penn Treebank")


def test_a_model_typed_as_a_dataset_is_a_method_and_a_benchmark_typed_as_a_task_is_a_dataset():
    _, _, r = concepts(
        ("a", "We fine-tuned RoBERTa and report results on GLUE.", [("RoBERTa", "Dataset"), ("GLUE", "Task")]),
        ("b", "The RoBERTa model does well on the GLUE benchmark.", [("RoBERTa", "Dataset"), ("GLUE", "Task")]),
        ("c", "RoBERTa embeddings; GLUE benchmark tasks.", [("RoBERTa", "Dataset"), ("GLUE", "Task")]),
    )
    assert "RoBERTa" in names(r, "Method") and "GLUE" in names(r, "Dataset")


def test_a_named_concept_is_linked_where_the_tagger_missed_it():
    papers, exs, r = concepts(
        ("a", "We report results on SQuAD.", [("SQuAD", "Dataset")]),
        ("b", "SQuAD is our benchmark.", [("SQuAD", "Dataset")]),
        ("c", "We also test on SQuAD and on X-SQuAD-like sets.", []),  # the tagger found nothing here
        ("d", "A squad of annotators.", []),  # not the name: case matters
    )
    ((m, eid),) = r.linked["c"]
    assert eid == "Dataset:squad" and m.text == "SQuAD" and papers[2].text[m.start:m.end] == "SQuAD"
    assert "d" not in r.linked
    g = build_graph(papers, exs, r)
    assert g.has_edge("c", "Dataset:squad") and g.nodes["Dataset:squad"]["papers"] == 3


def test_a_concept_linked_by_its_acronym_is_named_by_it():
    # The tagger tagged the long form once; the papers write the acronym, linked where written.
    specs = [("a", "The Conference on Natural Language Learning (CoNLL) holds shared tasks.",
              [("Conference on Natural Language Learning (CoNLL)", "Dataset")]),
             ("b", "The Conference on Natural Language Learning data and CoNLL tasks.",
              [("Conference on Natural Language Learning", "Dataset"), ("CoNLL", "Dataset")])]
    specs += [(f"p{i}", f"We evaluate on CoNLL data, split {i}.", []) for i in range(5)]
    _, _, r = concepts(*specs)
    (eid,) = {e for found in r.linked.values() for _, e in found}
    assert r.entities[eid].name == "CoNLL"
    assert "Conference on Natural Language Learning (CoNLL)" in r.entities[eid].aliases


def test_generic_words_fields_and_adjectives_are_generic():
    for name in ("training", "neural networks", "deep neural networks", "natural language processing",
                 "natural language processing applications", "pre-trained", "state-of-the-art", "encoder-decoder", "machine learning"):
        assert is_generic_name(name), name
    for name in ("knowledge distillation", "machine translation", "language model", "word embedding",
                 "reinforcement learning", "named entity recognition", "information extraction"):
        assert not is_generic_name(name), name


def test_every_concept_has_a_level_and_the_top_lists_leave_generic_ones_out():
    specs = [(f"p{i}", f"Training neural networks with BERT for knowledge distillation on task {i}.",
              [("Training", "Method"), ("neural networks", "Method"), ("BERT", "Method"),
               ("knowledge distillation", "Method")]) for i in range(3)]
    papers, exs, r = concepts(*specs)
    level = {e.name: e.level for e in r.entities.values()}
    assert level["BERT"] == ARTIFACT and level["neural networks"] == GENERIC
    assert level["knowledge distillation"] in (SPECIFIC, BROAD)
    assert all(0.0 <= e.specificity <= 1.0 for e in r.entities.values())
    g = build_graph(papers, exs, r)
    shown = {e.name for e in top_entities(g, "Method", 10)}
    assert "neural networks" not in shown and {"BERT", "knowledge distillation"} <= shown
    assert "neural networks" in {e.name for e in top_entities(g, "Method", 10, everything=True)}


def test_an_acronym_spelled_without_its_hyphen_is_the_same_concept():
    _, _, r = concepts(
        ("a", "Generative Pre-trained Transformer 2 (GPT-2) is large.",
         [("Generative Pre-trained Transformer 2", "Method"), ("GPT-2", "Method")]),
        ("b", "We fine-tune GPT2 for dialogue.", [("GPT2", "Method")]),
        ("c", "GPT-2 writes stories.", [("GPT-2", "Method")]),
    )
    (gpt2,) = [e for e in r.entities.values() if e.type == "Method"]
    assert {"GPT-2", "GPT2", "Generative Pre-trained Transformer 2"} <= set(gpt2.aliases)


def test_a_name_the_corpus_writes_as_a_source_or_an_event_is_no_dataset():
    papers, exs, r = concepts(
        ("a", "We collect sentences from Wikipedia and test on the SQuAD dataset.",
         [("Wikipedia", "Dataset"), ("SQuAD dataset", "Dataset")]),
        ("b", "Wikipedia articles and Wikipedia editors; results on SQuAD.",
         [("Wikipedia", "Dataset"), ("SQuAD", "Dataset")]),
        ("c", "Entities in Wikipedia are linked; we report on the SQuAD benchmark.",
         [("Wikipedia", "Dataset"), ("SQuAD", "Dataset")]),
        ("d", "Our system for the IJCNLP 2017 shared task.", [("IJCNLP 2017", "Dataset")]),
        ("e", "We took part in the IJCNLP 2017 shared task on reviews.", [("IJCNLP 2017", "Dataset")]),
    )
    assert names(r, "Dataset") == {"SQuAD"}
    # Their mentions stay in the records, resolved to no node.
    assert r.mention_entity["a"] == [None, "Dataset:squad"] and r.mention_entity["d"] == [None]


def test_a_name_written_with_a_data_head_is_the_dataset_of_that_name():
    _, _, r = concepts(
        ("a", "We align the Newsela corpus.", [("Newsela corpus", "Dataset")]),
        ("b", "Experiments on the Newsela dataset.", [("Newsela dataset", "Dataset")]),
        ("c", "We release the Stanford Question Answering Dataset (SQuAD).",
         [("Stanford Question Answering Dataset", "Dataset")]),
        ("d", "Results on the Stanford Question Answering Dataset and on SQuAD.",
         [("Stanford Question Answering Dataset", "Dataset"), ("SQuAD", "Dataset")]),
    )
    assert r.entities["Dataset:newsela"].name == "Newsela"
    # A long form an acronym stands for keeps its head: it is SQuAD, not "Stanford Question Answering".
    assert {e.id for e in r.entities.values() if e.type == "Dataset"} == {"Dataset:newsela",
                                                                           "Dataset:stanford question answering dataset"}


def test_an_acronym_written_with_a_data_head_still_names_the_node():
    specs = [("a", "The Stanford Natural Language Inference (SNLI) corpus.",
              [("Stanford Natural Language Inference (SNLI) corpus", "Dataset")]),
             ("b", "Stanford Natural Language Inference data.", [("Stanford Natural Language Inference", "Dataset")])]
    specs += [(f"p{i}", f"Results on the SNLI dataset and on SNLI, round {i}.",
               [("SNLI dataset", "Dataset"), ("SNLI", "Dataset")]) for i in range(2)]
    _, _, r = concepts(*specs)
    (snli,) = [e for e in r.entities.values() if e.type == "Dataset"]
    assert snli.name == "SNLI"


def test_a_name_introduced_as_data_is_a_dataset_and_a_title_cased_task_is_not():
    _, _, r = concepts(
        ("a", "We present QuAC, a dataset for question answering in context.", [("QuAC", "Method")]),
        ("b", "QuAC introduces challenges.", [("QuAC", "Method")]),
        ("c", "Word Sense Disambiguation datasets and the Word Sense Disambiguation benchmark.",
         [("Word Sense Disambiguation", "Task")]),
        ("d", "Results on Word Sense Disambiguation data, a task of word sense disambiguation.",
         [("Word Sense Disambiguation", "Task")]),
        ("e", "Supervised word sense disambiguation needs word sense disambiguation corpora.", []),
    )
    assert "QuAC" in names(r, "Dataset")
    # Written in lower case as often as capitalised: the name of a task, not of a dataset.
    assert "Word Sense Disambiguation" in names(r, "Task")


def test_a_name_with_based_after_it_is_that_name_and_a_word_with_based_is_not():
    _, _, r = concepts(
        ("a", "We fine-tune BERT for tagging.", [("BERT", "Method")]),
        ("b", "BERT-based models and rule-based systems.", [("BERT-based models", "Method"),
                                                          ("rule-based systems", "Method")]),
        ("c", "A BERT-based tagger beats rule-based tagging.", [("BERT-based", "Method"), ("rule-based", "Method")]),
    )
    (bert,) = [e for e in r.entities.values() if "bert" in e.id.lower()]
    assert bert.name == "BERT" and "BERT-based" in bert.aliases
    assert any("rule-based" in e.id for e in r.entities.values())


def test_a_datasets_treebanks_are_the_dataset_but_the_penn_treebank_is_its_own():
    _, _, r = concepts(
        ("u1", "We parse Universal Dependencies (UD) data.", [("Universal Dependencies (UD)", "Dataset")]),
        ("u2", "Results on UD improve.", [("UD", "Dataset")]),
        ("u3", "We train on the UD treebanks and the Penn Treebank.", [("UD treebanks", "Dataset"),
                                                                       ("Penn Treebank", "Dataset")]),
        ("p1", "Penn said so. The Penn Treebank is parsed.", [("Penn", "Dataset"), ("Penn Treebank", "Dataset")]),
    )
    assert r.mention_entity["u3"][0] == r.mention_entity["u1"][0]
    assert r.mention_entity["u3"][1] == r.mention_entity["p1"][1] != r.mention_entity["u1"][0]
    assert r.entities[r.mention_entity["u3"][1]].name == "Penn Treebank"


_KNOWN_CORPUS = (
    # The tagger missed FewRel in f1 and f2, and typed Universal Dependencies a task.
    ("f1", "We evaluate on FewRel and report accuracy.", [("accuracy", "Metric")]),
    ("f2", "Results on FewRel improve over the FewRel baselines.", [("baselines", "Method")]),
    ("u1", "We parse the Universal Dependencies treebanks.", [("Universal Dependencies", "Task")]),
    ("u2", "We ask how Universal Dependencies help parsing.", [("Universal Dependencies", "Task")]),
    # "Hate Speech" is known as a dataset's name, but this corpus writes the words as words.
    ("h1", "Hate Speech is common online; hate speech detection matters.", [("hate speech detection", "Task")]),
    ("h2", "We study hate speech in tweets and hate speech in forums.", [("hate speech", "Task")]),
    # Text from Wikipedia is a source, whatever a list says.
    ("w1", "Sentences from Wikipedia are used, with text from Wikipedia.", [("Sentences", "Dataset")]),
)


def test_a_known_dataset_name_is_a_dataset_where_the_corpus_writes_it_as_one():
    from kg.concepts import KnownDatasets

    known = KnownDatasets(frozenset({"FewRel", "Universal Dependencies", "Hate Speech", "Wikipedia"}))
    _, _, r = concepts(*_KNOWN_CORPUS, known=known)
    linked = {pid: {eid for _, eid in found} for pid, found in r.linked.items()}
    assert "Dataset:fewrel" in linked["f1"] and "Dataset:fewrel" in linked["f2"]
    assert r.entities["Dataset:fewrel"].name == "FewRel"
    assert r.mention_entity["u1"] == r.mention_entity["u2"] == ["Dataset:universal dependency"]
    assert not any(e.startswith("Dataset:hate") for e in r.entities)
    assert "Dataset:wikipedia" not in r.entities

    _, _, bare = concepts(*_KNOWN_CORPUS, known=KnownDatasets.none())
    assert "Dataset:fewrel" not in bare.entities
    assert bare.mention_entity["u1"] == ["Task:universal dependency"]


def test_the_shipped_known_datasets_are_names_not_words():
    from kg.concepts.known import shipped
    from kg.concepts.linking import is_name

    names = shipped().names
    assert {"SQuAD", "Penn Treebank", "GLUE", "MultiNLI"} <= names
    assert all(is_name(n) for n in names) and not {"English", "Wikipedia articles"} & names


def test_a_paper_naming_a_kind_of_a_concept_names_the_concept_too():
    specs = [(f"p{i}", f"We study dependency parsing of corpus {i}.", [("dependency parsing", "Task")]) for i in range(4)]
    specs += [("m", "Multilingual dependency parsing with one model.", [("Multilingual dependency parsing", "Task")]),
              ("s", "We improve syntactic dependency parsing.", [("syntactic dependency parsing", "Task")])]
    papers, exs, r = concepts(*specs)
    g = build_graph(papers, exs, r)
    # Each kind stays its own concept ...
    assert {"dependency parsing", "Multilingual dependency parsing", "syntactic dependency parsing"} <= names(r, "Task")
    # ... and its papers are the broader concept's too, with its words as the mention.
    parsing = "Task:dependency parsing"
    assert g.has_edge("m", parsing) and g.has_edge("s", parsing)
    assert g.nodes[parsing]["papers"] == 6
    (edge,) = g.get_edge_data("m", parsing).values()
    assert edge["surface"] == ["dependency parsing"] and edge["span_starts"] == [len("Multilingual ")]


def test_a_term_of_its_own_or_a_name_does_not_name_the_concept_its_last_words_spell():
    specs = [(f"l{i}", f"Work on language understanding {i}.", [("language understanding", "Task")]) for i in range(3)]
    # Named nearly as often as the shorter words: a term of its own (SLU), not a kind of them.
    specs += [(f"s{i}", f"Spoken language understanding {i}.", [("Spoken language understanding", "Task")])
              for i in range(2)]
    specs += [(f"t{i}", f"We use machine translation {i}.", [("machine translation", "Task")]) for i in range(3)]
    specs += [(f"n{i}", f"We use neural machine translation {i}.", [("neural machine translation", "Task")])
              for i in range(3)]
    # A name names itself: "Multilingual Neural Machine Translation" is a system's name.
    specs += [("x", "We build Multilingual Machine Translation, a system.",
               [("Multilingual Machine Translation", "Method")])]
    papers, exs, r = concepts(*specs)
    g = build_graph(papers, exs, r)
    assert not any(g.has_edge(f"s{i}", "Task:language understanding") for i in range(2))
    assert not any(g.has_edge(f"n{i}", "Task:machine translation") for i in range(3))
    assert not g.has_edge("x", "Task:machine translation")


def test_a_dataset_name_the_tagger_missed_is_found_by_how_papers_write_it():
    from kg.concepts import KnownDatasets

    none = KnownDatasets.none()  # no list: the corpus's own writing finds them
    papers, exs, r = concepts(
        ("a", "Our model reaches 79.9 F1 on the DROP dataset.", []),
        ("b", "We report strong results on DROP and beat prior work.", []),
        ("c", "We present JuICe, a corpus of 1.5 million examples.", [("JuICe", "Method")]),
        ("d", "We use three datasets: FB15k-237, WN18 and WN18RR.", []),
        ("e", "We build a new dataset, called WiC, for evaluation.", []),
        known=none)
    g = build_graph(papers, exs, r)
    assert {"DROP", "JuICe", "FB15k-237", "WN18", "WN18RR", "WiC"} <= names(r, "Dataset")
    assert g.has_edge("b", "Dataset:drop")  # written as data elsewhere: linked where named
    assert "Method:juice" not in r.entities


def test_only_a_name_written_as_a_datasets_is_taken_for_one():
    from kg.concepts import KnownDatasets
    from kg.concepts.discover import proposed_names

    texts = ["We collect the English dataset and the news corpus.",  # a language, plain words
             "BERT, a model trained on a large corpus, helps.",  # a model, not introduced as data
             "We introduce Social IQa, the first large-scale benchmark.",  # the end of a longer name
             "Results on the AI2 Reasoning Challenge dataset.",  # the start of one
             "Two datasets: AI2's Reasoning Challenge and ARC.",
             "Two datasets: OpenBookQA and WikiHop."]
    proposed = proposed_names(paper(f"p{i}", t) for i, t in enumerate(texts))
    assert proposed == {"OpenBookQA", "WikiHop"}
    # A name the corpus gives a task ("NER", its acronym) stays the task's.
    _, _, r = concepts(
        ("a", "Named entity recognition (NER) is hard.", [("Named entity recognition", "Task"), ("NER", "Task")]),
        ("b", "We label the NER dataset of news.", [("NER", "Task")]),
        known=KnownDatasets.none())
    assert not names(r, "Dataset") and "Task:named entity recognition" in r.entities


def test_a_known_name_spelled_another_way_is_an_alias_of_its_dataset_not_another_node():
    from kg.concepts import KnownDatasets

    _, _, r = concepts(
        ("a", "Results on ACE 2005 improve.", [("ACE 2005", "Dataset")]),
        ("b", "Our results on ACE 2005 are strong.", [("ACE 2005", "Dataset")]),
        ("c", "Experiments on ACE-2005 show gains.", []),
        known=KnownDatasets(frozenset({"ACE-2005"})))
    assert names(r, "Dataset") == {"ACE 2005"}
    assert "ACE-2005" in r.entities["Dataset:ace 2005"].aliases
    assert any(eid == "Dataset:ace 2005" for _, eid in r.linked["c"])


def test_a_datasets_year_spellings_and_language_pairs_are_the_dataset():
    ds = [("a", "We train on WMT’14 data.", "WMT’14"), ("b", "Results on WMT’14 are strong.", "WMT’14"),
          ("c", "Results on WMT14 English-German improve.", "WMT14 English-German"),
          ("d", "On the WMT 2014 English-French task we win.", "WMT 2014 English-French"),
          ("e", "We use WMT 2014 for training.", "WMT 2014"),
          ("f", "Scores on ACE05 and on WN18.", "ACE05"), ("g", "Results on ACE 2005.", "ACE 2005"),
          ("h", "Results on ACE 2005 again.", "ACE 2005"),
          ("i", "Links in WN18 and WN18RR.", "WN18"), ("j", "Links in WN18RR.", "WN18RR"),
          ("k", "The Chinese Gigaword corpus.", "Chinese Gigaword"), ("l", "The Gigaword corpus.", "Gigaword"),
          ("m", "The Gigaword corpus again.", "Gigaword")]
    _, _, r = concepts(*[(pid, text, [(name, "Dataset")]) for pid, text, name in ds])
    of = {pid: r.mention_entity[pid][0] for pid, _, _ in ds}
    assert of["a"] == of["c"] == of["d"] == of["e"]  # one WMT 2014, whatever part or spelling
    assert of["f"] == of["g"]  # ACE05 is ACE 2005
    assert of["i"] != of["j"]  # WN18 is no year: no paper writes "WN 2018"
    assert of["k"] != of["l"]  # a language before the name makes another dataset
    wmt = r.entities[of["a"]]
    assert {"WMT14 English-German", "WMT 2014"} <= set(wmt.aliases)


def test_a_fields_name_with_its_acronym_in_brackets_is_still_generic():
    assert is_generic_name("natural language processing (NLP) tasks".lower())
    assert not is_generic_name("policy mirror descent (pmd)")
