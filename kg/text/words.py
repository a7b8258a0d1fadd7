"""Word lists more than one stage reads: one home for each, as spaCy keeps ``lang/en/stop_words.py``."""
from __future__ import annotations

# A leading determiner or possessive: dropped from entity keys (kg/concepts/), from concept
# phrases (kg/analysis/related/phrases.py) and, as the bench protocol says, from texts being scored (kg/evaluate.py).
DETERMINERS: tuple[str, ...] = ("a", "an", "the", "this", "these", "that", "those", "our", "its", "their")

# Short function words inside names: they give an acronym no letter ("Reinforcement Learning from
# Human Feedback" is RLHF), and two spellings of a name may differ in them ("from"/"with").
FUNCTION_WORDS = frozenset("of for from with in on the to by via and or a an at as".split())

# Heads that add nothing to a name before them ("the Mistral models", "GSM8K benchmark").
GENERIC_HEADS = frozenset("""model models method methods framework frameworks algorithm algorithms approach
    approaches architecture architectures family families variant variants baseline baselines backbone
    backbones dataset datasets benchmark benchmarks suite suites corpus corpora collection environment
    environments task tasks problem problems technique techniques system systems articles mechanism
    mechanisms score scores metric metrics point points""".split())  # not "series": "time series" is a thing

# Words that name no entity on their own: a mention made only of these ("downstream tasks", "our
# method", "general-purpose models", "real-world applications") is what SciERC calls Generic
# (kg/extract/postprocess.py drops it).
NOT_A_MENTION = frozenset("""
    a an the this these that those our its their his her my your such each every any some all both other
    another same several many multiple various different diverse numerous few new novel proposed existing
    previous prior traditional conventional standard current recent popular common typical general
    general-purpose generic specific particular given downstream upstream real-world practical
    real large small simple effective efficient powerful strong robust wide broad range variety set
    method methods approach approaches model models technique techniques algorithm algorithms framework
    frameworks system systems task tasks problem problems application applications setting settings
    scenario scenarios domain domains work works solution solutions tool tools strategy strategies scheme
    schemes baseline baselines component components module modules procedure procedures process processes
    dataset datasets data benchmark benchmarks experiment experiments result results evaluation evaluations
    study studies analysis paper way ways one ones they it them we
""".split())

# Words that name no concept on their own in related papers (kg/analysis/related/phrases.py): generic scientific
# nouns and adjectives. They are still part of longer concepts ("language model").
NO_CONCEPT_ALONE = frozenset(
    """
    approach algorithm analysis application aspect based basis benchmark case component
    content context contribution data datum different effective efficient evaluation
    existing experiment experimental feature framework function general good high improved
    information input kind large level low mechanism method methodology model module
    multiple new novel number output paper performance present problem procedure process
    proposed quality representation research result scheme set simple small standard
    state step strategy structure study system task technique theory tool type use
    various way work accuracy improvement measure score issue solution design domain
    art one two three first second several other such well
    learning training complex theoretical space network continuous
    extensive comprehensive challenging real-world scenario significant substantial
    """.split()
)
# The last two lines: words users read as explaining nothing ("learning (Method, 10 papers)",
# "Extensive (Concept)") that abstracts use everywhere; they still count inside longer concepts
# ("reinforcement learning"). Removing them from the concepts, not only from the display, keeps
# the explanation the score: P@5 0.7655 -> 0.7715 on SciERC with the first line, the second
# neutral there (0.7735) and kept for the seed list's reasons (docs/related.md).

# Words of general scientific and machine-learning writing that name no method, task or dataset on
# their own or together ("training", "neural networks", "deep learning", "pre-trained"): a concept
# made only of these, and of NO_CONCEPT_ALONE's and NOT_A_MENTION's words, is generic
# (kg/concepts/specificity.py). Written from the vocabulary of the field's writing in general, not
# read off any corpus's top concepts; a statistic (keyphraseness) catches the words it lacks.
GENERIC_SCIENCE = frozenset("""
    training train trained learning learn learned prediction predictions predict inference
    generalization generalisation annotation annotations generation classification classifier
    classifiers encoder encoders decoder decoders encoding decoding neural deep network networks
    machine machines pre-trained pretrained state-of-the-art sota end-to-end embedding embeddings
    representation representations architecture architectures optimization optimisation supervision
    supervised unsupervised modeling modelling computation computational processing labeling labelling
    statistical automatic automated artificial intelligence recognition detection
    estimation search ranking understanding reasoning metric metrics community
""".split()) | NO_CONCEPT_ALONE | NOT_A_MENTION

# Names of whole fields: generic in any corpus of the field ("natural language processing" in 9%
# of ACL abstracts names no method or task of theirs).
FIELD_NAMES = frozenset("""natural language processing|computational linguistics|artificial intelligence
    |machine learning|deep learning|data mining|computer science""".replace("\n    ", "").split("|"))

# Cues the concept typer (kg/concepts/typer.py) reads around a name: what it is written as.
# The word after a name that says what the name is ("the Transformer model", "the SNLI corpus").
MODEL_CUES_AFTER = frozenset("""model models embedding embeddings encoder encoders architecture architectures
    layer layers representation representations network networks baseline baselines variant variants
    classifier tagger parser fine-tuning finetuning checkpoint checkpoints weights""".split())
DATA_CUES_AFTER = frozenset("""dataset datasets data corpus corpora benchmark benchmarks treebank treebanks
    test dev validation challenge collection leaderboard split splits set sets annotations""".split())
# A noun for data right before a name introduces it: "the cloze-test dataset CLOTH".
DATA_NOUNS = frozenset("dataset datasets corpus corpora benchmark benchmarks treebank treebanks".split())
# The word before it ("fine-tuned BERT", "pre-trained ELMo").
MODEL_CUES_BEFORE = frozenset("""fine-tuned finetuned fine-tune fine-tuning pre-trained pretrained using""".split())
# "<word> on X": X is what something was evaluated or trained on.
EVALUATED_ON_CUES = frozenset("""results experiments evaluated evaluation performance accuracy trained tested
    score scores improvements improvement art achieves achieve obtains outperforms evaluate experiment
    models finetuned fine-tuned""".split())
# What a source of text or knowledge is written with, rather than a dataset: the items it holds
# after its name ("Wikipedia articles", "Twitter users", "WordNet synsets") ...
SOURCE_CUES_AFTER = frozenset("""articles article pages page users user posts post comments comment tweets
    tweet editors edits entries entry synsets synset senses glosses conversations discussions threads
    messages account accounts profile profiles feed feeds stream streams content hierarchy categories
    category infoboxes infobox links dumps dump revisions""".split())
# ... and a preposition right before it, with no article ("from Wikipedia", "in WordNet"; a
# dataset is "the SQuAD dataset", "results on SQuAD"). Not "on": "54.5% on MultiWOZ" is as common
# as "on Twitter".
SOURCE_CUES_BEFORE = frozenset("from in into across within via like".split())
# What an event is written with: "the CoNLL 2017 shared task", "the SemEval workshop".
EVENT_CUES_AFTER = frozenset("""shared workshop workshops conference conferences campaign campaigns
    competition competitions""".split())
# Words that say "data" around a language's name ("English text", "Chinese-English corpora").
DATA_WORDS = frozenset("""data text texts corpus corpora language languages sentences sentence words
    documents speech tweets pairs pair translation translations side""".split())
