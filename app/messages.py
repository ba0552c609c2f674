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


class VectorsWanted(Message):
    """A PaSa search found many papers without a vector (searched by words): the Library tab's
    background index should embed them."""


class EngineEvent(Message):
    """One event of a request a pane's thread worker runs (an engine's typed event, or a pane's own
    step with a ``kind``), posted by the worker to its pane: ``post_message`` is thread-safe, and
    the pane renders it on the UI thread (``app/panes/workers.py``)."""

    bubble = False  # the pane that ran the request renders it; no other widget should

    def __init__(self, event) -> None:
        super().__init__()
        self.event = event  # has .kind and .summary()


class EngineFailed(Message):
    """A pane's thread worker raised: ``line`` is what the pane shows (one line); the traceback is
    in the log file already (``app/panes/workers.py``)."""

    bubble = False

    def __init__(self, worker: str, line: str) -> None:
        super().__init__()
        self.worker = worker  # the worker method's name: which request failed (a pane may run several)
        self.line = line
