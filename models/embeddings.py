"""Sentence embeddings: llama.cpp in-process (the default) or sentence-transformers (optional).

Both backends give normalised float32 vectors and load on first use. llama.cpp runs GGUF
embedding models, the bundled all-MiniLM-L6-v2 among them once ``gguf_bert`` has converted it;
sentence-transformers (the ``train`` extra) stays for models llama.cpp cannot run.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from scholar_tui.models.base import LLMError
from scholar_tui.models.cpu import Threads

BACKENDS = ("auto", "llama.cpp", "sentence-transformers", "model2vec")
SHORT_BATCH_TOKENS = 64


class Embedder:
    """What engines use: ``name``, ``dimension`` and ``embed(texts)`` -> unit-length rows."""

    backend_name = "none"

    def __init__(self, name: str) -> None:
        self.name = name
        self._lock = threading.Lock()

    @property
    def dimension(self) -> int:
        raise NotImplementedError

    def _embed(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return self._embed(list(texts)).astype(np.float32, copy=False)

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]

    def close(self) -> None:
        """Free the model; the next embed loads it again."""


def normalized(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


class LlamaCppEmbedder(Embedder):
    """A GGUF embedding model run in-process by llama-cpp-python, batched several texts a decode.

    ``prepare`` (when given) makes the GGUF file on first load, e.g. converts the bundled
    sentence-transformers folder. Texts longer than the model reads are truncated as
    sentence-transformers does: the first tokens, then the closing [SEP].
    """

    backend_name = "llama.cpp"

    def __init__(
        self,
        model_path: str | Path | None,
        *,
        name: str,
        prepare=None,
        max_sequences: int = 32,
        n_threads: int | None = None,
        n_gpu_layers: int = 0,
    ) -> None:
        super().__init__(name)
        self.model_path = Path(model_path) if model_path else None
        self._prepare = prepare
        self.max_sequences = max_sequences
        # Unset: a long batch runs on the cores free when it starts (``models.cpu``); set: always this many.
        self.threads = Threads(n_threads)
        self.n_threads = self.threads.cores
        self.n_gpu_layers = n_gpu_layers
        self._llama = None

    def _open(self, path: Path, pooling: int, tokens: int):
        from scholar_tui.models.llama_open import open_llama

        return open_llama(
            model_path=str(path),
            embedding=True,
            pooling_type=pooling,
            n_ctx=tokens,
            n_batch=tokens,
            n_ubatch=tokens,
            n_seq_max=self.max_sequences,
            n_threads=self.n_threads,
            n_threads_batch=self.n_threads,
            n_gpu_layers=self.n_gpu_layers,
        )

    def _open_sized(self, path: Path):
        """Open ``path`` for embedding, sized from its own metadata.

        Non-causal attention needs a whole batch in one micro-batch (n_batch == n_ubatch). 512
        tokens keeps the attention over a packed batch (quadratic in its length) cheap and holds
        one MiniLM/BERT text whole; a model that reads more is reopened with room for one text,
        and one whose file names no pooling with mean pooling (sentence-transformers' default).
        """
        import llama_cpp

        from scholar_tui.models.gguf_bert import MAX_TOKENS_KEY

        llama = self._open(path, llama_cpp.LLAMA_POOLING_TYPE_UNSPECIFIED, 512)
        metadata = llama.metadata
        arch = metadata.get("general.architecture", "")
        trained = int(metadata.get(f"{arch}.context_length", 512))
        self.max_tokens = min(int(metadata.get(MAX_TOKENS_KEY, trained)), trained)
        if f"{arch}.pooling_type" in metadata and self.max_tokens <= 512:
            return llama
        llama.close()
        pooling = int(metadata.get(f"{arch}.pooling_type", llama_cpp.LLAMA_POOLING_TYPE_MEAN))
        return self._open(path, pooling, max(512, self.max_tokens))

    def _load(self):
        with self._lock:
            if self._llama is not None:
                return self._llama
            try:
                import llama_cpp

                if self.model_path is None:
                    self.model_path = Path(self._prepare())
                if not self.model_path.is_file():
                    raise LLMError(f"embedding model file not found: {self.model_path}")
                llama = self._open_sized(self.model_path)
            except (ValueError, RuntimeError, OSError) as error:
                raise LLMError(f"llama.cpp could not load the embedding model {self.name}: {error}") from error
            except ImportError as error:
                raise LLMError(f"llama-cpp-python is not usable: {error}") from error
            self._llama_cpp = llama_cpp
            self._sep = llama_cpp.llama_vocab_sep(llama._model.vocab)
            self._llama = llama
            return llama

    @property
    def dimension(self) -> int:
        return int(self._load().n_embd())

    @property
    def metadata(self) -> dict[str, str]:
        """The GGUF file's key-value metadata (architecture, sizes, …)."""
        return dict(self._load().metadata)

    def tokens(self, text: str) -> list[int]:
        """``text`` as the model reads it: [CLS] … [SEP], cut to ``max_tokens`` like sentence-transformers."""
        return self._tokens(self._load(), text)

    def _tokens(self, llama, text: str) -> list[int]:
        tokens = llama.tokenize(text.encode("utf-8", errors="replace"), add_bos=True, special=False)
        if len(tokens) > self.max_tokens:
            closing = tokens[-1:] if tokens[-1] == self._sep else []
            tokens = tokens[: self.max_tokens - len(closing)] + closing
        return tokens

    def _embed(self, texts: list[str]) -> np.ndarray:
        llama = self._load()
        return self._embed_sequences(llama, [self._tokens(llama, text) for text in texts])

    def embed_token_ids(self, sequences: list[list[int]]) -> np.ndarray:
        """Unit vectors of token id sequences as given (the static distillation embeds each
        vocabulary token alone, which no text tokenizes to)."""
        return self._embed_sequences(self._load(), sequences)

    def _embed_sequences(self, llama, sequences: list[list[int]]) -> np.ndarray:
        vectors = np.empty((len(sequences), llama.n_embd()), dtype=np.float32)
        with self._lock:  # one llama.cpp context: one batch at a time
            pending: list[int] = []  # rows in the batch being filled
            used = 0
            for row, tokens in enumerate(sequences):
                if pending and (used + len(tokens) > llama.n_batch or len(pending) == self.max_sequences):
                    self._decode(llama, pending, vectors)
                    pending, used = [], 0
                llama._batch.add_sequence(tokens, len(pending), True)
                pending.append(row)
                used += len(tokens)
            if pending:
                self._decode(llama, pending, vectors)
        return normalized(vectors)

    def _decode(self, llama, rows: list[int], vectors: np.ndarray) -> None:
        llama_cpp = self._llama_cpp
        llama._ctx.kv_cache_clear()
        # A short batch (a query) on one thread: llama.cpp's threads meet at a barrier after every
        # operation, and when another process holds the second core one query took 1.6 s on two
        # threads against 10 ms on one (2-core machine, load 3); a long batch is worth splitting.
        threads = 1 if llama._batch.n_tokens() <= SHORT_BATCH_TOKENS else self.threads.now()
        llama_cpp.llama_set_n_threads(llama._ctx.ctx, threads, threads)
        try:
            llama._ctx.decode(llama._batch)
        except RuntimeError as error:  # llama.cpp's decode status, e.g. out of memory
            raise LLMError(f"llama.cpp could not embed with {self.name}: {error}") from error
        finally:
            llama._batch.reset()
        width = vectors.shape[1]
        for sequence, row in enumerate(rows):
            pointer = llama_cpp.llama_get_embeddings_seq(llama._ctx.ctx, sequence)
            vectors[row] = np.ctypeslib.as_array(pointer, shape=(width,))

    def close(self) -> None:
        with self._lock:
            if self._llama is not None:
                self._llama.close()
                self._llama = None


class SentenceTransformerEmbedder(Embedder):
    """A sentence-transformers folder run by torch (needs the ``train`` extra), local files only."""

    backend_name = "sentence-transformers"

    def __init__(self, model_path: str, *, name: str | None = None, device: str = "cpu", batch_size: int = 32) -> None:
        super().__init__(name or model_path)
        self.model_path = model_path
        self.device = device
        self.batch_size = batch_size
        self._model: Any = None  # a SentenceTransformer once loaded (the train extra: imported late)

    def _load(self):
        with self._lock:
            if self._model is None:
                try:
                    from sentence_transformers import SentenceTransformer
                    from transformers.utils import logging as transformers_logging
                except ImportError as error:
                    raise LLMError(
                        "the sentence-transformers backend needs the `train` extra "
                        "(uv sync --extra train, or pip install 'scholar-tui[train]')"
                    ) from error
                # transformers draws a "Loading weights" bar on stderr, over the CLI's progress lines
                transformers_logging.disable_progress_bar()
                try:
                    self._model = SentenceTransformer(self.model_path, device=self.device, local_files_only=True)
                except (OSError, ValueError) as error:
                    raise LLMError(f"cannot load embedding model {self.name}: {error}") from error
        return self._model

    @property
    def dimension(self) -> int:
        model = self._load()
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(getter())

    def _embed(self, texts: list[str]) -> np.ndarray:
        return self._load().encode(
            texts, batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )

    def close(self) -> None:
        self._model = None
