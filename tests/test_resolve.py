"""Entity resolution: one node per real-world entity, versions kept apart."""
import pytest

from kg.records import Extraction, Mention
from kg.concepts.resolve import normalize, resolve, singular
from tests.helpers import extraction, paper, small_corpus


@pytest.mark.parametrize("word,expected", [
    ("models", "model"), ("LLMs", "LLM"), ("policies", "policy"), ("analysis", "analysis"),
    ("bias", "bias"), ("losses", "loss"), ("corpus", "corpus"), ("GAN", "GAN"), ("series", "series"),
    # plurals a plain "-s"/"-es" rule gets wrong
    ("metrics", "metric"), ("biases", "bias"), ("meta-analyses", "meta-analysis"), ("atlases", "atlas"),
    ("viruses", "virus"), ("time-series", "time-series"), ("vision-transformers", "vision-transformer"),
    ("matrices", "matrix"), ("indices", "index"), ("hypotheses", "hypothesis"),
    # and the words those rules must leave alone
    ("physics", "physics"), ("robotics", "robotics"), ("causes", "cause"), ("houses", "house"),
    ("promises", "promise"), ("classes", "class"), ("databases", "database"),
])
def test_singular(word, expected):
    assert singular(word) == expected


def test_normalize_folds_case_determiners_plurals_and_hyphen_spacing():
    assert normalize("The Large Language Models") == normalize("large language model")
    assert normalize("Flow - Matching") == "flow-matching"
    assert normalize("Llama-3.1") != normalize("LLaMA")


def test_acronym_and_long_form_merge_across_papers():
    papers, ex = small_corpus()
    r = resolve(papers, ex)
    pmd = r.entities["Method:policy mirror descent"]
    assert pmd.name == "Policy Mirror Descent"
    assert set(pmd.aliases) == {"Policy Mirror Descent", "PMD"}
    # p2 never defines PMD, yet its mention joins the node defined in p1.
    assert "Method:policy mirror descent" in r.mention_entity["p2"]
    assert set(r.entities["Method:natural policy gradient"].aliases) == {"Natural Policy Gradient", "NPG"}
    assert set(r.entities["Method:large language model"].aliases) == {"Large Language Models", "LLMs"}


def test_a_paper_that_defines_an_acronym_itself_keeps_its_own_meaning():
    specs = [
        ("d1", "We apply principal component analysis (PCA) to genotypes. PCA reveals structure.",
         "principal component analysis (PCA)", "PCA"),
        ("d2", "Principal component analysis (PCA) of gene expression. We compare PCA with t-SNE.",
         "Principal component analysis (PCA)", "PCA"),
        ("e1", "We propose probabilistic cellular automata (PCA) for fire spread. Our PCA model fits well.",
         "probabilistic cellular automata (PCA)", "PCA model"),
    ]
    papers, exs = [], []
    for pid, text, long_form, short in specs:
        p = paper(pid, text)
        papers.append(p)
        exs.append(extraction(p, (long_form, "Method"), (short, "Method")))
    r = resolve(papers, exs)
    assert set(r.mention_entity["e1"]) == {"Method:probabilistic cellular automaton"}
    assert set(r.mention_entity["d1"]) == set(r.mention_entity["d2"]) == {"Method:principal component analysis"}


def test_a_name_typed_differently_in_different_papers_is_one_entity_of_the_majority_type():
    # RLHF read as a Method in one paper and a Task in two others is one Task node, its long form too.
    specs = [("a", "Reinforcement Learning from Human Feedback (RLHF) aligns models. RLHF is costly.",
              [("Reinforcement Learning from Human Feedback (RLHF)", "Method"), ("RLHF", "Method")]),
             ("b", "We study RLHF for chat models.", [("RLHF", "Task")]),
             ("c", "RLHF remains hard.", [("RLHF", "Task")])]
    papers = [paper(pid, text) for pid, text, _ in specs]
    r = resolve(papers, [extraction(p, *ents) for p, (_, _, ents) in zip(papers, specs)])
    assert set(r.entities) == {"Task:reinforcement learning from human feedback"}
    # Named by the form people write most: the acronym, in three papers against one.
    assert r.entities["Task:reinforcement learning from human feedback"].name == "RLHF"


def test_a_type_tie_goes_to_the_higher_score():
    p = paper("a", "Transformer models solve the Transformer task.")
    m = Mention("Transformer", "Method", 0, 11, p.text, 0.4)
    t = Mention("Transformer", "Task", 29, 40, p.text, 0.9)
    r = resolve([p], [Extraction(paper_id="a", mentions=(m, t))])
    assert set(r.entities) == {"Task:transformer"}


@pytest.mark.parametrize("text", [
    "We adapt Long Form (LF) here. Later, LF wins.",
    "We adapt LF (Long Form) here. Later, LF wins.",
    "We adapt LF, or Long Form, here. Later, LF wins.",
    "We adapt LF, which stands for Long Form, here. Later, LF wins.",
    "We adapt the Long Form, LF, here. Later, LF wins.",
])
def test_an_acronym_links_to_its_long_form_in_each_form_abstracts_write(text):
    p = paper("a", text)
    long_at = text.index("Long Form")
    lf_at = text.index("LF wins")
    ms = (Mention("Long Form", "Method", long_at, long_at + 9, text, 0.8),
          Mention("LF", "Method", lf_at, lf_at + 2, text, 0.8))
    r = resolve([p], [Extraction(paper_id="a", mentions=ms)])
    assert set(r.entities) == {"Method:long form"}


def test_an_acronym_and_its_long_form_typed_differently_are_one_entity():
    p1 = paper("a", "Fine-tuning with Low-Rank Adaptation (LoRA) is cheap.")
    p2 = paper("b", "We compare LoRA with full fine-tuning.")
    p3 = paper("c", "LoRA adapters are small.")
    r = resolve([p1, p2, p3], [extraction(p1, ("Low-Rank Adaptation", "Task")), extraction(p2, ("LoRA", "Method")),
                               extraction(p3, ("LoRA", "Method"))])
    assert set(r.entities) == {"Method:low-rank adaptation"}


def test_a_long_form_with_a_generic_head_and_its_acronym_is_the_long_form():
    p1 = paper("a", "Federated Learning (FL) techniques keep data local.")
    p2 = paper("b", "Federated Learning scales.")
    r = resolve([p1, p2], [extraction(p1, ("Federated Learning (FL) techniques", "Method")),
                           extraction(p2, ("Federated Learning", "Method"))])
    assert set(r.entities) == {"Method:federated learning"}


def test_versions_stay_apart():
    p = paper("a", "We fine-tune LLaMA and Llama-3.1 and Llama-2 models.")
    r = resolve([p], [extraction(p, ("LLaMA", "Method"), ("Llama-3.1", "Method"), ("Llama-2", "Method"))])
    assert len(r.entities) == 3


def test_a_parenthesis_that_is_not_an_acronym_does_not_merge():
    p = paper("a", "We train Gaussian processes (GP) and Deep Networks (XYZ) here.")
    r = resolve([p], [extraction(p, ("Gaussian processes", "Method"), ("GP", "Method"),
                                 ("Deep Networks", "Method"), ("XYZ", "Method"))])
    assert "Method:gaussian process" in r.entities and "Method:xyz" in r.entities
    assert set(r.entities["Method:gaussian process"].aliases) == {"Gaussian processes", "GP"}


def test_a_long_form_written_with_its_acronym_is_one_entity():
    p = paper("a", "Large Language Models (LLMs) are big. LLMs and a large language model help.")
    q = paper("b", "We study LLMs here.")
    r = resolve([p, q], [extraction(p, ("Large Language Models (LLMs)", "Method"), ("LLMs", "Method"),
                                    ("large language model", "Method")),
                         extraction(q, ("LLMs", "Method"))])
    assert set(r.entities) == {"Method:large language model"}
    assert normalize("Policy Mirror Descent (PMD)") == "policy mirror descent"


def test_a_generic_head_after_a_name_is_the_same_entity():
    p = paper("a", "We test the Mistral models, Mistral and the Llama2-7B model on the GSM8K benchmark.")
    q = paper("b", "Results on GSM8K with Llama2-7B.")
    r = resolve([p, q], [extraction(p, ("Mistral models", "Method"), ("Mistral", "Method"),
                                    ("Llama2-7B model", "Method"), ("GSM8K benchmark", "Dataset")),
                         extraction(q, ("GSM8K", "Dataset"), ("Llama2-7B", "Method"))])
    assert set(r.entities) == {"Method:mistral", "Method:llama2-7b", "Dataset:gsm8k"}
    assert set(r.entities["Method:mistral"].aliases) == {"Mistral models", "Mistral"}
    # A name-shaped word needs no other mention to lose the head.
    s = paper("c", "We fine-tune the Qwen2.5 model.")
    assert set(resolve([s], [extraction(s, ("Qwen2.5 model", "Method"))]).entities) == {"Method:qwen2.5"}


def test_a_generic_head_after_ordinary_words_stays():
    # "deep learning models" is not "deep learning" unless the corpus names that Method too,
    # and a Task of the same words is another entity.
    p = paper("a", "Deep learning models and Bayesian networks for reasoning segmentation with a segmentation model.")
    r = resolve([p], [extraction(p, ("Deep learning models", "Method"), ("Bayesian networks", "Method"),
                                 ("reasoning segmentation", "Task"), ("segmentation model", "Method"))])
    assert set(r.entities) == {"Method:deep learning model", "Method:bayesian network",
                               "Task:reasoning segmentation", "Method:segmentation model"}


def test_a_name_written_as_often_in_lower_case_as_capitalised_is_named_in_lower_case():
    # One abstract starts a sentence with it, one writes it in a title's capitals, one in lower case.
    texts = ["Reinforcement learning is used.", "We study Reinforcement Learning here.", "Via reinforcement learning."]
    papers = [paper(f"p{i}", t) for i, t in enumerate(texts)]
    exs = [extraction(p, (form, "Method")) for p, form in
           zip(papers, ["Reinforcement learning", "Reinforcement Learning", "reinforcement learning"])]
    assert resolve(papers, exs).entities["Method:reinforcement learning"].name == "reinforcement learning"
    # Capitals inside a word are how a name is written: "WordNet" stays "WordNet" beside "Wordnet".
    q = [paper("q0", "WordNet is used."), paper("q1", "We use Wordnet.")]
    r = resolve(q, [extraction(q[0], ("WordNet", "Dataset")), extraction(q[1], ("Wordnet", "Dataset"))])
    assert r.entities["Dataset:wordnet"].name == "WordNet"


def test_a_capital_only_a_sentence_start_gives_does_not_name_the_entity():
    # Two abstracts start a sentence with it, one writes it in mid-sentence: it is "sarcasm".
    texts = ["Sarcasm is common online.", "Sarcasm needs context.", "We detect sarcasm in tweets."]
    papers = [paper(f"p{i}", t) for i, t in enumerate(texts)]
    exs = [extraction(p, (form, "Task")) for p, form in zip(papers, ["Sarcasm", "Sarcasm", "sarcasm"])]
    r = resolve(papers, exs)
    assert r.entities["Task:sarcasm"].name == "sarcasm"
    assert set(r.entities["Task:sarcasm"].aliases) == {"Sarcasm", "sarcasm"}  # the forms as written
    # A word the corpus capitalises in mid-sentence keeps its capital; so does the first of a title's
    # capitals, though the corpus writes "chart" in lower case elsewhere.
    texts = ["Twitter data is noisy.", "Twitter data again.", "We use Twitter data and a chart of it.",
             "Chart Question Answering (CQA) is new."]
    papers = [paper(f"q{i}", t) for i, t in enumerate(texts)]
    exs = [extraction(papers[i], ("Twitter data", "Dataset")) for i in range(3)]
    exs.append(extraction(papers[3], ("Chart Question Answering", "Task")))
    r = resolve(papers, exs)
    assert r.entities["Dataset:twitter data"].name == "Twitter data"
    assert r.entities["Task:chart question answering"].name == "Chart Question Answering"


def test_an_acronyms_letters_picked_out_do_not_name_the_entity():
    # MAVEN's abstract spells its name out as "MAssive eVENt detection"; the others write "event detection".
    texts = ["A MAssive eVENt detection dataset.", "Event detection is hard.", "We study event detection.",
             "Incremental event detection."]
    papers = [paper(f"p{i}", t) for i, t in enumerate(texts)]
    forms = ["eVENt detection", "Event detection", "event detection", "event detection"]
    exs = [extraction(p, (form, "Task")) for p, form in zip(papers, forms)]
    assert resolve(papers, exs).entities["Task:event detection"].name == "event detection"
    # Even where the highlighted form is the commonest, and however a name is written inside a word.
    papers = [paper("h0", "A MAssive eVENt detection dataset; eVENt detection at scale, eVENt detection."),
              paper("h1", "Event detection is hard.")]
    exs = [extraction(papers[0], *[("eVENt detection", "Task")] * 3), extraction(papers[1], ("Event detection", "Task"))]
    assert resolve(papers, exs).entities["Task:event detection"].name == "Event detection"
    q = [paper("q0", "We use fastText and two biLSTMs."), paper("q1", "With fastText vectors and biLSTMs."),
         paper("q2", "Fasttext and a Bilstm.")]
    r = resolve(q, [extraction(q[0], ("fastText", "Method"), ("biLSTMs", "Method")),
                    extraction(q[1], ("fastText", "Method"), ("biLSTMs", "Method")),
                    extraction(q[2], ("Fasttext", "Method"), ("Bilstm", "Method"))])
    assert r.entities["Method:fasttext"].name == "fastText" and r.entities["Method:bilstm"].name == "biLSTMs"


def test_a_long_form_seen_only_with_its_acronym_is_named_without_it():
    p = paper("a", "We propose Policy Mirror Descent (PMD). PMD is fast. Results (see A) hold.")
    r = resolve([p], [extraction(p, ("Policy Mirror Descent (PMD)", "Method"), ("PMD", "Method"),
                                 ("Results (see A)", "Method"))])
    assert r.entities["Method:policy mirror descent"].name == "Policy Mirror Descent"
    assert "Policy Mirror Descent (PMD)" in r.entities["Method:policy mirror descent"].aliases
    # A parenthesis that is no acronym stays part of the name.
    assert r.entities["Method:result"].name == "Results (see A)"


def test_an_acronym_of_a_dashed_long_form_merges_with_it():
    text = "We analyse the Karush–Kuhn–Tucker (KKT) residual and show that the KKT residual decays."
    p = paper("a", text)
    r = resolve([p], [extraction(p, ("Karush–Kuhn–Tucker", "Method"), ("KKT", "Method"))])
    (entity,) = r.entities.values()
    assert entity.name == "Karush–Kuhn–Tucker" and set(entity.aliases) == {"Karush–Kuhn–Tucker", "KKT"}


def test_generic_heads_come_off_one_by_one_but_not_from_a_common_word():
    p = paper("a", "The Mistral model family, a Mistral model and Mistral; a reward model and a reward; "
                   "the summarization task and summarization; time series and time.")
    r = resolve([p], [extraction(p, ("Mistral model family", "Method"), ("Mistral model", "Method"),
                                 ("Mistral", "Method"), ("reward model", "Method"), ("reward", "Method"),
                                 ("summarization task", "Task"), ("summarization", "Task"),
                                 ("time series", "Dataset"), ("time", "Dataset"))])
    assert set(r.entities) == {"Method:mistral", "Method:reward model", "Method:reward", "Task:summarization",
                               "Dataset:time series", "Dataset:time"}
    # Named by the form that is the entity itself, however often the longer ones occur.
    assert r.entities["Method:mistral"].name == "Mistral"


def test_a_long_form_with_its_acronym_and_a_generic_head_is_the_long_form():
    p = paper("a", "It gives rise to the Natural Policy Gradient (NPG) method. Natural Policy Gradient is old.")
    r = resolve([p], [extraction(p, ("Natural Policy Gradient (NPG) method", "Method"),
                                 ("Natural Policy Gradient", "Method"))])
    assert set(r.entities) == {"Method:natural policy gradient"}
    q = paper("c", "The Low-Rank Adaptation (LoRA) method family and Low-Rank Adaptation.")
    r = resolve([q], [extraction(q, ("Low-Rank Adaptation (LoRA) method family", "Method"),
                                 ("Low-Rank Adaptation", "Method"))])
    assert set(r.entities) == {"Method:low-rank adaptation"}
    # A parenthesis that defines nothing still keeps its head.
    q = paper("b", "The Gaussian (see below) model and Gaussian.")
    r = resolve([q], [extraction(q, ("Gaussian (see below) model", "Method"), ("Gaussian", "Method"))])
    assert len(r.entities) == 2


def test_names_typed_with_hyphens_or_dashes_are_one_entity():
    assert normalize("Karush–Kuhn–Tucker") == normalize("Karush-Kuhn-Tucker") == "karush-kuhn-tucker"
    assert normalize("GPT\u20114") == "gpt-4"
    p = paper("a", "The Karush–Kuhn–Tucker conditions.")
    q = paper("b", "The Karush-Kuhn-Tucker conditions.")
    r = resolve([p, q], [extraction(p, ("Karush–Kuhn–Tucker", "Method")),
                         extraction(q, ("Karush-Kuhn-Tucker", "Method"))])
    assert len(r.entities) == 1


def test_a_mention_retyped_by_resolution_links_its_paper_with_the_entitys_relationship():
    from kg.graph import build_graph

    specs = [("a", "We study RLHF here.", [("RLHF", "Method")]),
             ("b", "RLHF is a task.", [("RLHF", "Task")]),
             ("c", "RLHF again.", [("RLHF", "Task")])]
    papers = [paper(pid, text) for pid, text, _ in specs]
    exs = [extraction(p, *ents) for p, (_, _, ents) in zip(papers, specs)]
    g = build_graph(papers, exs, resolve(papers, exs))
    assert {d["type"] for _, _, d in g.edges(data=True)} == {"ADDRESSES"}


def test_long_forms_that_differ_in_short_words_define_one_entity():
    p1 = paper("a", "Reinforcement learning from human feedback (RLHF) aligns models.")
    p2 = paper("b", "Reinforcement learning with human feedback (RLHF) fine-tunes a model.")
    p3 = paper("c", "We study RLHF.")
    exs = [extraction(p1, ("RLHF", "Method")), extraction(p2, ("RLHF", "Method")), extraction(p3, ("RLHF", "Method"))]
    r = resolve([p1, p2, p3], exs)
    assert len(r.entities) == 1 and list(r.entities.values())[0].type == "Method"


def test_an_acronym_another_paper_defines_for_another_type_keeps_its_own_meaning():
    # MAP, maximum a posteriori (a Method) in one paper, mean average precision (a Metric) in another.
    p1 = paper("a", "We use maximum a posteriori (MAP) estimation. MAP is fast.")
    p2 = paper("b", "We report mean average precision (MAP). MAP rises.")
    p3 = paper("c", "The MAP of our detector is high.")
    exs = [extraction(p1, ("maximum a posteriori", "Method"), ("MAP", "Method")),
           extraction(p2, ("mean average precision", "Metric"), ("MAP", "Metric")),
           extraction(p3, ("MAP", "Metric"))]
    r = resolve([p1, p2, p3], exs)
    assert r.mention_entity["c"] == ["Metric:mean average precision"]
    assert r.mention_entity["a"] == ["Method:maximum a posteriori"] * 2


def test_one_type_per_entity_holds_after_a_generic_head_comes_off():
    p1 = paper("a", "We fine-tune Llama2-7B on code.")
    p2 = paper("b", "The Llama2-7B model is strong.")
    p3 = paper("c", "A Llama2-7B model answers.")
    r = resolve([p1, p2, p3], [extraction(p1, ("Llama2-7B", "Method")), extraction(p2, ("Llama2-7B model", "Task")),
                               extraction(p3, ("Llama2-7B model", "Task"))])
    assert set(r.entities) == {"Task:llama2-7b"}


@pytest.mark.parametrize("word,expected", [("GPT-4s", "GPT-4"), ("Llama-2s", "Llama-2"), ("ViT-Bs", "ViT-B")])
def test_versioned_plurals_lose_their_s(word, expected):
    assert singular(word) == expected


# --- acronym definitions: the long form read back from its anchor gives what the whole regex does --

from hypothesis import given, settings, strategies as st  # noqa: E402

from kg.text import acronyms  # noqa: E402
from tests.helpers import examples  # noqa: E402

_PIECES = ["(", ")", ",", ";", " ", "  ", "\n", "Long", "form", "of", "the", "LF", "LFs", "NLP", "Natural", "Language",
           "Processing", "é", "état", "_x", "'s", "-", "Low-Rank", "LoRA", "GPT-4", "x1", "A", "B", "(AB)", "AB,",
           "\u2013", "3D", ".", "Q&A", "a/b", "one two three four five six seven eight nine ten eleven"]


@settings(max_examples=examples(300))
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map(" ".join))
def test_definitions_before_their_acronym_match_the_whole_patterns(text):
    before = [p for side, p in acronyms._FORMS if side == "before"]
    for pattern, anchor in zip(before, acronyms._ANCHORS):
        whole = [(m.start("long"), m.end("long"), m.start("acro"), m.end("acro")) for m in pattern.finditer(text)]
        assert list(acronyms._before_matches(anchor, text)) == whole


def test_a_long_form_written_with_its_acronym_and_a_generic_head_names_the_entity_without_them():
    p1 = paper("a", "Federated Learning (FL) techniques keep data local.")
    r = resolve([p1], [extraction(p1, ("Federated Learning (FL) techniques", "Method"))])
    assert r.entities["Method:federated learning"].name == "Federated Learning"
    p2 = paper("b", "It gives rise to the Natural Policy Gradient (NPG) method. NPG is old.")
    r = resolve([p2], [extraction(p2, ("Natural Policy Gradient (NPG) method", "Method"), ("NPG", "Method"))])
    (entity,) = r.entities.values()
    assert entity.name == "Natural Policy Gradient"
    assert set(entity.aliases) == {"Natural Policy Gradient (NPG) method", "NPG"}  # as written, nothing made up


def _corpus(specs):
    papers, exs = [], []
    for pid, text, *items in specs:
        p = paper(pid, text)
        papers.append(p)
        exs.append(extraction(p, *items))
    return papers, exs


def test_a_word_the_corpus_names_as_a_method_keeps_its_node_under_a_model_head():
    # "attention" is a Method alone in five papers: "attention models" are attention. "neural" is
    # written in every paper and named alone in few: "neural models" stay a node of their own.
    specs = [(f"a{i}", f"We add attention to a neural parser. Neural methods help {i}.",
              ("attention", "Method")) for i in range(5)]
    specs += [(f"n{i}", f"Neural signals are neural {i}. The neural network is small.", ("neural", "Method"))
              for i in range(1)]
    specs += [("m1", "We compare attention models with neural models.",
               ("attention models", "Method"), ("neural models", "Method"))]
    r = resolve(*_corpus(specs))
    assert r.mention_entity["m1"] == ["Method:attention", "Method:neural model"]


def test_only_words_written_as_acronyms_expand_inside_a_longer_name():
    specs = [
        ("d1", "The mean excitation attention network (MEAN) scores well.", ("mean excitation attention network", "Method")),
        ("d2", "We tag parts of speech (POS) and use part-of-speech (POS) tags.", ("POS", "Task")),
        ("d3", "Part-of-speech (POS) tagging matters.", ("Part-of-speech (POS) tagging", "Task")),
        ("u1", "We report the mean absolute error and POS tagging accuracy; the mean is low.",
         ("mean absolute error", "Metric"), ("POS tagging", "Task")),
    ]
    r = resolve(*_corpus(specs))
    assert r.mention_entity["u1"] == ["Metric:mean absolute error", "Task:part-of-speech tagging"]
    assert r.mention_entity["d3"] == ["Task:part-of-speech tagging"]


def test_a_named_dataset_loses_the_words_that_describe_it():
    specs = [
        ("s1", "We evaluate on the ShARC conversational machine reading dataset and the BUCC data set.",
         ("ShARC conversational machine reading dataset", "Dataset"), ("BUCC data set", "Dataset")),
        ("s2", "Results on ShARC improve.", ("ShARC", "Dataset")),
        # "KG" is a Method where the corpus writes it: the KG updating dataset is no knowledge graph.
        ("k1", "A knowledge graph (KG) is built. The KG helps.", ("knowledge graph (KG)", "Method"), ("KG", "Method")),
        ("k2", "We release the KG updating dataset.", ("KG updating dataset", "Dataset")),
    ]
    r = resolve(*_corpus(specs))
    assert r.mention_entity["s1"] == ["Dataset:sharc", "Dataset:bucc"]
    assert r.entities["Dataset:sharc"].name == "ShARC"
    assert r.entities["Dataset:bucc"].name == "BUCC"
    assert not r.mention_entity["k2"][0].startswith("Method:")


@pytest.mark.parametrize("word,expected", [("WinoBias", "WinoBias"), ("OntoNotes", "OntoNotes"),
                                           ("Transformers", "Transformer"), ("BiLSTMs", "BiLSTM")])
def test_a_name_with_capitals_inside_keeps_its_last_s(word, expected):
    assert singular(word) == expected


def test_a_digit_that_sounds_its_word_defines_an_acronym():
    # "Seq2Seq" is sequence-to-sequence wherever the corpus defines it so; GPT2 stays GPT-2's.
    specs = [
        ("d1", "A sequence-to-sequence (Seq2Seq) model.", ("sequence-to-sequence (Seq2Seq) model", "Method")),
        ("u1", "Our seq2seq models and Seq2Seq baselines.", ("seq2seq models", "Method"), ("Seq2Seq", "Method")),
    ]
    r = resolve(*_corpus(specs))
    assert set(r.mention_entity["u1"]) == {"Method:sequence-to-sequence"}


def test_attention_mechanism_is_attention_where_attention_is_a_method():
    specs = [(f"a{i}", f"We add attention to model {i}.", ("attention", "Method")) for i in range(5)]
    specs += [("m1", "An attention mechanism helps.", ("attention mechanism", "Method"))]
    r = resolve(*_corpus(specs))
    assert r.mention_entity["m1"] == ["Method:attention"]


def test_a_metric_written_with_score_is_the_metric():
    specs = [
        ("r1", "We report ROUGE and BLEU.", ("ROUGE", "Method"), ("BLEU", "Metric")),
        ("r2", "ROUGE scores and BLEU scores improve; the F1-score and F1 score too.",
         ("ROUGE scores", "Metric"), ("BLEU scores", "Metric"), ("F1-score", "Metric"), ("F1 score", "Metric")),
        ("r3", "ROUGE metrics agree, two BLEU points up.", ("ROUGE metrics", "Metric"), ("BLEU points", "Metric")),
    ]
    r = resolve(*_corpus(specs))
    assert r.mention_entity["r2"] == ["Metric:rouge", "Metric:bleu", "Metric:f1", "Metric:f1"]
    assert r.mention_entity["r1"][0] == "Metric:rouge"  # the type most papers give it
    assert r.mention_entity["r3"] == ["Metric:rouge", "Metric:bleu"]
