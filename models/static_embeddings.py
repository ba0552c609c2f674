"""The fast embedding path: static token vectors distilled from the bundled MiniLM (model2vec).

A sentence-transformer reads every text through six attention layers; a static model looks each
token up in a table and averages (Tulkens & van Dongen, model2vec, 2024), some hundred times
faster on a CPU. The table is distilled here, once and offline, as model2vec's ``distill`` does:
every token of the teacher's WordPiece vocabulary is embedded alone (``[CLS] token [SEP]``, mean
pooled) by the teacher we already run, the llama.cpp MiniLM — so neither torch nor the Hub is
needed — then reduced to ``DIMENSIONS`` by PCA and weighted by SIF on a Zipf estimate of each
token's frequency (a BERT vocabulary is roughly in frequency order). The result is saved in
model2vec's own format in the data folder and run by ``model2vec.StaticModel`` from that folder.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from scholar_tui.models.base import LLMError
from scholar_tui.models.embeddings import Embedder

DIMENSIONS = 256  # model2vec's default PCA width
SIF_COEFFICIENT = 1e-4  # model2vec's default
DISTILLER_VERSION = 1  # bump when the table is made differently: cached tables are made again
UNUSED_TOKEN = re.compile(r"\[unused\d+\]$")
TOKENS_PER_CALL = 4096  # token sequences handed to the teacher at once

TokenTeacher = Callable[[list[list[int]]], np.ndarray]


def static_folder(data_dir: Path, teacher_folder: Path, name: str) -> Path:
    """Where the table distilled from ``teacher_folder`` is cached (its weights' size and time
    in the name: another MiniLM makes another table)."""
    weights = teacher_folder / "model.safetensors"
    stamp = f"{DISTILLER_VERSION}:{teacher_folder.resolve()}"
    if weights.is_file():
        stat = weights.stat()
        stamp += f":{stat.st_size}:{stat.st_mtime_ns}"
    digest = hashlib.sha1(stamp.encode()).hexdigest()[:12]
    return data_dir / "static-embeddings" / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', name)}-{digest}"


def _pca(vectors: np.ndarray, dimensions: int) -> np.ndarray:
    """``vectors`` projected on their first ``dimensions`` principal axes (model2vec's PCA)."""
    centred = vectors - vectors.mean(axis=0)
    covariance = centred.T @ centred / max(len(vectors) - 1, 1)
    _, axes = np.linalg.eigh(covariance)
    return centred @ axes[:, ::-1][:, :dimensions]


def _sif_weights(count: int) -> np.ndarray:
    """SIF weights a / (a + p) with p a Zipf estimate from the rank (model2vec's compute_weights)."""
    inverse_rank = 1 / np.arange(2, count + 2)
    probability = inverse_rank / inverse_rank.sum()
    return SIF_COEFFICIENT / (SIF_COEFFICIENT + probability)


def distil(teacher: TokenTeacher, tokenizer_file: Path, out: Path, *, dimensions: int = DIMENSIONS) -> Path:
    """Distil a static model from ``teacher`` (token id sequences -> vectors) into ``out``.

    Special and ``[unused…]`` tokens keep a zero row: the tokenizer never emits them for text."""
    from model2vec import StaticModel
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(tokenizer_file))
    tokenizer.no_truncation()  # MiniLM's file cuts at 128 tokens; a static model reads the whole text
    tokenizer.no_padding()
    vocabulary = tokenizer.get_vocab(with_added_tokens=False)
    special = {token.content for token in tokenizer.get_added_tokens_decoder().values()}
    cls_id, sep_id = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    if cls_id is None or sep_id is None:
        raise LLMError(f"{tokenizer_file} is not a BERT WordPiece tokenizer ([CLS]/[SEP] missing)")
    kept = sorted(i for token, i in vocabulary.items() if token not in special and not UNUSED_TOKEN.match(token))
    taught = np.concatenate(
        [
            np.asarray(teacher([[cls_id, i, sep_id] for i in kept[start : start + TOKENS_PER_CALL]]), dtype=np.float32)
            for start in range(0, len(kept), TOKENS_PER_CALL)
        ]
    )
    reduced = _pca(np.nan_to_num(taught), min(dimensions, taught.shape[1])) * _sif_weights(len(kept))[:, None]
    table = np.zeros((max(vocabulary.values()) + 1, reduced.shape[1]), dtype=np.float32)
    table[kept] = reduced
    model = StaticModel(
        vectors=table,
        tokenizer=tokenizer,
        config={"model_type": "model2vec", "hidden_dim": int(table.shape[1]), "normalize": True},
        normalize=True,
    )
    partial = out.with_name(out.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    model.save_pretrained(str(partial))
    (partial / "distilled_from.json").write_text(json.dumps({"tokens": len(kept), "dimensions": table.shape[1]}))
    shutil.rmtree(out, ignore_errors=True)
    partial.rename(out)  # whole or absent: a distillation cut short is made again
    return out


class StaticEmbedder(Embedder):
    """A model2vec table in ``folder``, made by ``make`` on first use when absent.

    Read with safetensors and tokenizers and pooled as ``model2vec.StaticModel.encode`` does
    (tokens without [CLS]/[SEP], [UNK] dropped, the mean of their rows, unit length; the tests
    hold the two equal): importing model2vec brings huggingface_hub's API client, 0.6–1.0 s of a
    cold ``library search`` on a 2-core machine, for a lookup and a mean. Local files only."""

    backend_name = "model2vec"

    def __init__(self, folder: Path, *, name: str, make: Callable[[], Path] | None = None) -> None:
        super().__init__(name)
        self.folder = folder
        self._make = make
        self._table: np.ndarray | None = None
        self._tokenizer: Any = None  # tokenizers.Tokenizer, imported on first use
        self._unknown: int | None = None

    def _load(self) -> np.ndarray:
        with self._lock:
            if self._table is None:
                if not (self.folder / "model.safetensors").is_file():
                    if self._make is None:
                        raise LLMError(f"static embedding table not found: {self.folder}")
                    self._make()
                try:
                    from safetensors.numpy import load_file
                    from tokenizers import Tokenizer

                    tokenizer = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
                    table = load_file(str(self.folder / "model.safetensors"))["embeddings"]
                except Exception as error:  # safetensors and tokenizers raise their own kinds
                    raise LLMError(f"cannot load the static embedding table {self.folder}: {error}") from error
                tokenizer.no_truncation()
                tokenizer.no_padding()
                self._tokenizer, self._unknown = tokenizer, tokenizer.token_to_id("[UNK]")
                self._table = np.asarray(table, dtype=np.float32)
            return self._table

    @property
    def dimension(self) -> int:
        return int(self._load().shape[1])

    def _embed(self, texts: list[str]) -> np.ndarray:
        table = self._load()
        encodings = self._tokenizer.encode_batch_fast(texts, add_special_tokens=False)
        ids = [np.asarray(encoding.ids, dtype=np.int64) for encoding in encodings]
        if self._unknown is not None:
            ids = [row[row != self._unknown] for row in ids]
        out = np.zeros((len(texts), table.shape[1]), dtype=np.float32)
        filled = [row for row, tokens in enumerate(ids) if len(tokens)]
        if filled:
            lengths = np.array([len(ids[row]) for row in filled])
            starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
            sums = np.add.reduceat(table[np.concatenate([ids[row] for row in filled])], starts, axis=0)
            out[filled] = sums / lengths[:, None]
        return out / (np.linalg.norm(out, axis=1, keepdims=True) + 1e-32)

    def close(self) -> None:
        self._table = None


def llama_teacher(embedder) -> TokenTeacher:
    """The llama.cpp MiniLM as the distillation's teacher (``LlamaCppEmbedder.embed_token_ids``)."""
    return embedder.embed_token_ids
