"""App-wide messages: what workers report back to the UI thread."""

from __future__ import annotations

from textual.message import Message


class ModelStateChanged(Message):
    """The active LLM started loading, finished loading, or failed."""

    def __init__(self, state: str, detail: str = "") -> None:
        super().__init__()
        self.state = state  # "loading" | "ready" | "error" | "idle"
        self.detail = detail


class SettingsChanged(Message):
    """The config was written (a model chosen); panes showing settings refresh."""


class NetworkChecked(Message):
    """The online sources were probed (at start, within network.timeout_s); ``missing`` is None when reachable."""

    def __init__(self, missing) -> None:
        super().__init__()
        self.missing = missing  # core.readiness.Missing | None


class LibraryChanged(Message):
    """Papers were added to the library outside the Library tab (a PaSa crawl): its counts refresh."""
