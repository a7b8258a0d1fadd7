"""kg's own BERT forward pass and tokenizer compute what transformers' do, to the last bit:
saved taggers load unchanged, and extractions (cached ones among them) stay what they were."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from kg.extract.encoder import EncoderConfig, Layer, WordPieces, additive_mask, base_path, load_encoder

transformers = pytest.importorskip("transformers")
pytestmark = pytest.mark.slow  # torch, transformers and the MiniLM weights, compared bit for bit

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "seeds" / "iclr2025_abstracts.txt"
TEXTS = [line.strip() for line in SEED.read_text(encoding="utf-8").splitlines()[1:] if line.strip()] + [
    "Ünïcödé — “quotes”, αβγ, 中文 and 🙂,\ttabs\nand newlines in BERT-base (110M) on SQuAD v2.0.",
    "",
    "word " * 700,  # several windows
]


def _batch(ids: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
    n = max(map(len, ids))
    input_ids = torch.zeros((len(ids), n), dtype=torch.long)
    mask = torch.zeros((len(ids), n), dtype=torch.long)
    for i, row in enumerate(ids):
        input_ids[i, :len(row)] = torch.tensor(row)
        mask[i, :len(row)] = 1
    return input_ids, mask


@pytest.mark.parametrize("max_length,stride", [(256, 48), (64, 16)])
def test_word_pieces_and_windows_are_transformers_fast_tokenizers(max_length, stride):
    theirs = transformers.AutoTokenizer.from_pretrained(str(base_path()))
    enc = theirs(TEXTS, max_length=max_length, stride=stride, truncation=True, return_overflowing_tokens=True,
                 return_offsets_mapping=True)
    expected = [(enc["overflow_to_sample_mapping"][w], enc["input_ids"][w], [tuple(o) for o in enc["offset_mapping"][w]])
                for w in range(len(enc["input_ids"]))]
    ours = WordPieces(base_path() / "tokenizer.json").windows(TEXTS, max_length, stride)
    assert len(ours) > len(TEXTS)  # the long text was cut into windows
    assert ours == expected


def test_the_encoder_gives_transformers_bert_outputs_bit_for_bit():
    pieces = WordPieces(base_path() / "tokenizer.json").windows(TEXTS[:6], 256, 48)
    input_ids, mask = _batch([ids for _, ids, _ in pieces])
    assert (mask == 0).any()  # padding is part of what is compared
    theirs = transformers.AutoModel.from_pretrained(str(base_path())).eval()
    ours = load_encoder(base_path()).eval()
    with torch.inference_mode():
        a = theirs(input_ids=input_ids, attention_mask=mask, output_hidden_states=True)
        b = ours(input_ids, mask, output_hidden_states=True)
    assert len(a.hidden_states) == len(b.hidden_states) == 7
    for x, y in zip(a.hidden_states, b.hidden_states):
        assert torch.equal(x, y)
    assert torch.equal(a.last_hidden_state, b.last_hidden_state)


def test_an_eager_layer_computes_what_a_bare_config_transformers_layer_does():
    torch.manual_seed(0)
    cfg = transformers.AutoConfig.from_pretrained(str(base_path()))
    theirs = transformers.models.bert.modeling_bert.BertLayer(cfg).eval()
    ours = Layer(EncoderConfig.from_file(base_path() / "config.json"), eager=True).eval()
    ours.load_state_dict(theirs.state_dict())
    x = torch.randn(3, 17, cfg.hidden_size)
    mask = torch.ones(3, 17, dtype=torch.long)
    mask[1, 9:] = 0
    ext = additive_mask(mask)
    with torch.inference_mode():
        a = theirs(x, attention_mask=ext)
        a = a[0] if isinstance(a, tuple) else a
        assert torch.equal(a, ours(x, attention_mask=ext))


def test_extracting_does_not_import_transformers():
    # Its import cost more than the rest of the models' loading: `kg add` of a few papers paid it first.
    code = ("import sys\nfrom kg.extract import Extractor\nfrom kg.records import Paper\n"
            "t = 'We train BERT for named entity recognition on CoNLL-2003.'\n"
            "print(list(Extractor().extract([Paper(id='p', title='', abstract=t, text=t)]))[0].mentions)\n"
            "print(sorted(m for m in ('transformers', 'sentence_transformers') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    mentions, imported = out.stdout.strip().splitlines()
    assert "BERT" in mentions
    assert json.loads(imported.replace("'", '"')) == []
