"""The one shape every engine has, and the AutoFeedback events that engines share.

An engine is opened by one factory with one first argument, the front end's ``core.services.Services``:
``open_pasa(services, **options)``, ``open_soay(…)``, ``open_conference(…)``, ``open_autofeedback(…)``.
Each returns the engine, an ``Engine`` (below): a context manager whose ``close()`` closes what the
factory opened for it (library connections, a sandbox, an LLM it loaded itself), never the models
``Services`` holds. A request answers with one stream of typed events: a plain (sync) generator,
because everything it waits on blocks (SQLite, llama.cpp, LanceDB, the sandbox).

- Every request method takes ``cancel: threading.Event | None`` (``models.CancelToken`` is one).
  Setting it from any thread stops the stream at the engine's next check, between steps: the step
  under way finishes first (a SQLite query, one sandbox run, one generation), except in PaSa, which
  also hands the ``Event`` to every generation so that a crawl stops between tokens. The stream then
  ends with its usual last event where it has room to say so (PaSa's ``CrawlFinished.cancelled``,
  SoAy's ``Failed`` at stage ``cancelled``, AutoFeedback's ``FeedbackFinished`` with status
  ``cancelled``), or simply ends (STAR's ``build``, ``ask`` and ``evaluate``: nothing half-written is
  indexed). Closing the generator (``stream.close()``) stops it too, at the ``yield`` it is paused on.
- The CLI and the benchmarks iterate the generator; ``--json`` prints ``event.to_json()``.
- The TUI runs it in a thread worker (``app/panes/workers.py``'s ``engine_worker``), which posts each
  event to its pane as an ``EngineEvent`` message and a failure as one ``EngineFailed`` line; no
  ``asyncio.run`` in a worker, no widget touched from it.
- Nobody rewords an event: ``summary()`` is its one-line text for the CLI, the status bar and
  the panes; panes only choose where to put it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field, fields


def counted(number: int, noun: str) -> str:
    """'1 action', '3 actions': how every summary counts."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def cancelled(cancel: threading.Event | None) -> bool:
    """Whether a request's ``cancel`` is set (None: it cannot be)."""
    return cancel is not None and cancel.is_set()


class Engine:
    """Base of the four engines: a context manager that closes what its factory opened for it.

    The factory hands each resource's closer to ``owns``; ``close()`` runs them once, last opened
    first, and ``closed`` says it ran (a test asserts on it and on the resources themselves).
    """

    closed: bool = False

    def owns(self, close: Callable[[], object]) -> None:
        self.__dict__.setdefault("_closers", ExitStack()).callback(close)

    def close(self) -> None:
        closers: ExitStack = self.__dict__.pop("_closers", ExitStack())
        try:
            closers.close()  # every closer runs, even when one fails
        finally:
            self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


@dataclass
class Event:
    """Base of every engine event; subclasses are dataclasses with a ``kind`` field."""

    def summary(self) -> str:
        """One line a person reads; subclasses say what happened in their own words."""
        return type(self).__name__

    def to_json(self) -> dict:
        data = asdict(self)
        if "kind" not in {f.name for f in fields(self)}:
            data["kind"] = type(self).__name__
        return data


@dataclass
class FeedbackRound(Event):
    """One AutoFeedback round on a model-made request (a SoAy program, a PaSa tool call).

    ``ok`` is False when the request was found wanting; ``reason`` then says why (a static
    finding's detail or the dynamic analysis' reason) and ``feedback`` is what went back to the
    model.
    """

    loop_id: int | None
    round: int
    stage: str  # "static" | "dynamic"
    request: str
    ok: bool
    sub_type: str | None = None
    reason: str = ""
    feedback: str = ""
    kind: str = "feedback_round"

    def summary(self) -> str:
        if self.ok:
            return f"AutoFeedback round {self.round} ({self.stage}): ok"
        return f"AutoFeedback round {self.round} ({self.stage}): {self.sub_type or 'wanting'}: {self.reason}"


@dataclass
class FeedbackFinished(Event):
    """How an AutoFeedback loop ended: ``solved``, ``limit_hit`` (waits in the API debugger) or ``failed``."""

    loop_id: int | None
    status: str
    static_rounds: int
    dynamic_rounds: int
    rounds: list[FeedbackRound] = field(default_factory=list)
    kind: str = "feedback_finished"

    def summary(self) -> str:
        where = f"loop {self.loop_id}" if self.loop_id is not None else "loop"
        text = f"AutoFeedback ({where}, {self.status})"
        wanting = [r.reason for r in self.rounds if not r.ok and r.reason]
        if wanting:
            text += ": " + "; ".join(wanting)
        if self.status == "limit_hit":
            text += " — fix it by hand in the API debugger (F4)"
        return text
