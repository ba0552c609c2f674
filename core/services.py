"""What every engine is opened with: where state lives, the settings, and the models, loaded once.

Both front ends hold one ``Services``: the TUI builds it at start (``app/tui.py``), the CLI keeps
one in its click context (``app/cli_support.Context.services``). Each ``open_<engine>(services,
**options)`` takes what it needs from it: ``llm()`` and ``embedder()`` load on first use (seconds
for a GGUF: call them from a worker, never the UI thread) and stay loaded for the next request;
``library()`` opens a new connection, which the caller closes (SQLite connections belong to the
thread that opened them, and requests run in worker threads).

An engine closes what it opened itself (its library connection, its sandbox, an LLM it loaded for
a model of its own); the models ``Services`` holds are closed by ``Services.close()``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from scholar_tui import models
from scholar_tui.config.locations import Locations
from scholar_tui.config.settings import Settings, load_settings
from scholar_tui.core.llm import open_llm

if TYPE_CHECKING:
    from scholar_tui.indexes.library import Library

LLMFactory = Callable[[Settings, Locations], models.LLM]
EmbedderFactory = Callable[[Settings], models.Embedder]


def _load_embedder(settings: Settings) -> models.Embedder:
    return models.load_embedder(settings)  # looked up at call time, so tests can swap the backend


class Services:
    """The settings in force and the active models, shared by every engine a front end opens."""

    def __init__(
        self,
        where: Locations,
        settings: Settings,
        *,
        llm_factory: LLMFactory = open_llm,
        embedder_factory: EmbedderFactory = _load_embedder,
    ) -> None:
        self.where = where
        self.settings = settings
        self._llm_factory = llm_factory
        self._embedder_factory = embedder_factory
        self._llm: models.LLM | None = None
        self._embedder: models.Embedder | None = None
        self._lock = threading.Lock()

    def llm(self) -> models.LLM:
        """The active LLM, loaded on first use (seconds for a GGUF: call from a worker)."""
        with self._lock:
            if self._llm is None:
                self._llm = self._llm_factory(self.settings, self.where)
            return self._llm

    def embedder(self) -> models.Embedder:
        with self._lock:
            if self._embedder is None:
                self._embedder = self._embedder_factory(self.settings)
            return self._embedder

    def library(self) -> Library:
        """A new connection to the library, for the calling thread; the caller closes it."""
        from scholar_tui.indexes.library import Library

        return Library.open(self.where)

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
