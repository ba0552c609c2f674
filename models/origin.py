"""What made a model call: the PaSa crawl, the SoAy question, the conference question or the
AutoFeedback loop it belongs to, so the prompt log links every call to its run.

The origin is a ``contextvars`` variable, not an argument: engines are opened with the LLM they
use, and threading an origin through every call of every agent would change every signature on
the way. A stream takes the origin in force when it is made (``base.Stream``) and its completion
carries it into the prompt log.

An engine's request is a generator that a worker thread drives and that hands control back at each
``yield``; ``traced`` sets the origin only while the engine's own code runs (around each step), so
whatever the consumer does between two events is never counted as the engine's. Origins nest: an
AutoFeedback loop inside a SoAy question keeps the question as its parent.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import uuid
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

ORIGIN_KINDS = ("pasa", "soay", "conference", "autofeedback")


@dataclass(frozen=True)
class Origin:
    kind: str
    """One of ``ORIGIN_KINDS``."""
    run: str
    """The run's id: a loop's row id for AutoFeedback, a fresh short id for a crawl or a question."""
    text: str | None = None
    """The query, question or instruction, as asked."""
    parent: Origin | None = None
    """The origin in force when this one began (a SoAy question around its AutoFeedback loop)."""

    def as_log_columns(self) -> dict[str, str | None]:
        return {
            "origin": self.kind,
            "origin_run": self.run,
            "origin_text": self.text,
            "parent_origin": self.parent.kind if self.parent else None,
            "parent_run": self.parent.run if self.parent else None,
        }


_CURRENT: contextvars.ContextVar[Origin | None] = contextvars.ContextVar("scholar_tui_prompt_origin", default=None)


def current_origin() -> Origin | None:
    return _CURRENT.get()


def new_run_id() -> str:
    """A short id for a run that has no row of its own yet (its history row is written at its end)."""
    return uuid.uuid4().hex[:8]


def _origin(kind: str, run: str | int | None, text: str | None) -> Origin:
    if kind not in ORIGIN_KINDS:
        raise ValueError(f"prompt origin {kind!r} is none of {', '.join(ORIGIN_KINDS)}")
    return Origin(kind, new_run_id() if run is None else str(run), text, current_origin())


@contextmanager
def prompt_origin(kind: str, run: str | int | None = None, text: str | None = None) -> Iterator[Origin]:
    """Model calls made inside the block are logged as made by ``kind``'s run ``run`` (a fresh id
    when None). For code that makes its calls without yielding in between (one AutoFeedback round)."""
    origin = _origin(kind, run, text)
    token = _CURRENT.set(origin)
    try:
        yield origin
    finally:
        _CURRENT.reset(token)


Yielded = TypeVar("Yielded")
Returned = TypeVar("Returned")


def traced(
    kind: str, events: Iterable[Yielded], run: str | int | None = None, text: str | None = None
) -> Generator[Yielded, None, Any]:
    """``events`` unchanged, with ``kind``'s origin in force while each of its steps runs; returns
    what the generator returns. Closing this closes ``events`` (a cancelled request stops there)."""
    origin = _origin(kind, run, text)
    iterator = iter(events)
    try:
        while True:
            token = _CURRENT.set(origin)  # set and reset in the thread that runs this step
            try:
                event = next(iterator)
            except StopIteration as finished:
                return finished.value
            finally:
                _CURRENT.reset(token)
            yield event
    finally:
        close = getattr(iterator, "close", None)
        if close is not None:
            close()


Params = ParamSpec("Params")


def logs_prompts_as(
    kind: str, text: str | None = None
) -> Callable[[Callable[Params, Iterator[Yielded]]], Callable[Params, Generator[Yielded, None, Any]]]:
    """Decorate an engine's request generator: its model calls are logged as ``kind``'s, each
    request a run of its own, with the argument named ``text`` (the query, the question) as what
    was asked."""

    def decorate(request: Callable[Params, Iterator[Yielded]]) -> Callable[Params, Generator[Yielded, None, Any]]:
        signature = inspect.signature(request)

        @functools.wraps(request)
        def wrapper(*args: Params.args, **kwargs: Params.kwargs) -> Generator[Yielded, None, Any]:
            asked = None
            if text is not None:
                value = signature.bind_partial(*args, **kwargs).arguments.get(text)
                asked = value if isinstance(value, str) else None
            return traced(kind, request(*args, **kwargs), text=asked)

        return wrapper

    return decorate
