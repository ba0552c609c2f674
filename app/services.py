"""The models and settings the panes share, loaded once and on demand (off the UI thread)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from scholar_tui.config.locations import Locations
from scholar_tui.config.settings import Settings, load_settings
from scholar_tui.core.llm import open_llm
from scholar_tui.models import LLM, Embedder, load_embedder

LLMFactory = Callable[[Settings, Locations], LLM]


class Services:
    def __init__(
        self,
        where: Locations,
        settings: Settings,
        *,
        llm_factory: LLMFactory = open_llm,
        embedder_factory: Callable[[Settings], Embedder] = load_embedder,
    ) -> None:
        self.where = where
        self.settings = settings
        self._llm_factory = llm_factory
        self._embedder_factory = embedder_factory
        self._llm: LLM | None = None
        self._embedder: Embedder | None = None
        self._lock = threading.Lock()

    def llm(self) -> LLM:
        """The active LLM, loaded on first use (seconds for a GGUF: call from a worker)."""
        with self._lock:
            if self._llm is None:
                self._llm = self._llm_factory(self.settings, self.where)
            return self._llm

    def embedder(self) -> Embedder:
        with self._lock:
            if self._embedder is None:
                self._embedder = self._embedder_factory(self.settings)
            return self._embedder

    @property
    def llm_loaded(self) -> bool:
        return self._llm is not None

    def reload_settings(self) -> None:
        """Re-read the config (after `models use`); the next llm() call loads the new model."""
        with self._lock:
            self.settings = load_settings(self.where)
            if self._llm is not None:
                self._llm.close()
                self._llm = None
            self._embedder = None

    def close(self) -> None:
        with self._lock:
            if self._llm is not None:
                self._llm.close()
                self._llm = None
