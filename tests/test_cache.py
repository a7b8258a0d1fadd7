"""The extraction cache returns what was put, relations included, and never another version's entries."""
from kg.builds.cache import ExtractionCache
from kg.records import Extraction, Mention, Paper, Relation


def _paper(text="BERT is used for question answering."):
    return Paper(id="p1", title="t", abstract=text, text=text)


def test_round_trip_keeps_mentions_relations_and_concepts(tmp_path):
    p = _paper()
    ex = Extraction(
        "p1",
        mentions=(Mention("BERT", "Method", 0, 4, p.text, 0.9), Mention("question answering", "Task", 17, 35, p.text, 0.8)),
        relations=(Relation(0, 1, "USED-FOR", 0.7),),
        key_concepts=(("question answering", 0.6),),
    )
    cache = ExtractionCache(tmp_path, "v1")
    cache.put(p, ex)
    assert cache.get(p) == ex
    assert ExtractionCache(tmp_path, "v2").get(p) is None
    assert cache.get(_paper("Another abstract.")) is None
