"""Sentence embeddings through sentence-transformers, loaded from local files only."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from .base import LLMError


class Embedder:
    """Normalised float32 vectors for texts; the model loads on first use."""

    def __init__(self, model_path: str, *, name: str | None = None, device: str = "cpu", batch_size: int = 32) -> None:
        self.model_path = model_path
        self.name = name or model_path
        self.device = device
        self.batch_size = batch_size
        self._model = None
        self._lock = threading.Lock()

    def _load(self):
        with self._lock:
            if self._model is None:
                try:
                    from sentence_transformers import SentenceTransformer
                    from transformers.utils import logging as transformers_logging

                    # transformers draws a "Loading weights" bar on stderr, over the CLI's progress lines
                    transformers_logging.disable_progress_bar()
                    self._model = SentenceTransformer(
                        self.model_path, device=self.device, local_files_only=True
                    )
                except (OSError, ValueError, ImportError) as error:
                    raise LLMError(f"cannot load embedding model {self.name}: {error}") from error
        return self._model

    @property
    def dimension(self) -> int:
        model = self._load()
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(getter())

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self._load().encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return vectors.astype(np.float32, copy=False)

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]
