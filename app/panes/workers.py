"""The one path from a pane's thread worker to the pane.

A request (an engine's stream, an import, a send) runs in a thread worker made by
``engine_worker``. The worker never touches a widget: it reports each event with ``report`` (an
``EngineEvent`` message; ``post_message`` is thread-safe) and, when it raises, ``engine_worker``
posts one ``EngineFailed`` and writes the traceback to the log file. On the UI thread the pane
(``ReportsEngine``) renders: an event goes to the pane's ``_on_{event.kind}`` method, or, where it
has none, its ``summary()`` to the pane's status line; a failure becomes one red line there.
"""

from __future__ import annotations

import functools
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import work

from scholar_tui.app.messages import EngineEvent, EngineFailed
from scholar_tui.app.widgets.markup import plain

LOG_FILE = "tui.log"


@dataclass
class Note:
    """A worker's own step for the status line (loading a model, embedding papers), in our words."""

    text: str
    style: str = ""
    kind: str = "note"

    def summary(self) -> str:
        return self.text


def failure_line(error: BaseException) -> str:
    """One line for a person: our own errors are worded for them (an empty library, a bad date, a
    model that will not load); anything else is named by its type (``OSError: …``)."""
    if type(error).__module__.startswith("scholar_tui."):
        return str(error) or type(error).__name__
    return f"{type(error).__name__}: {error}".rstrip(": ")


def log_failure(log_dir: Path, worker: str, error: BaseException) -> None:
    """Append the traceback to the log file (the screen shows one line). A log that cannot be
    written (a full disk, a read-only home) loses the traceback, never the line on screen."""
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    try:
        log_dir.mkdir(parents=True, exist_ok=True)
        with (log_dir / LOG_FILE).open("a", encoding="utf-8") as handle:
            handle.write(f"{stamp} {worker} failed\n{''.join(traceback.format_exception(error))}\n")
    except OSError:
        pass


def engine_worker(group: str) -> Callable[[Callable], Callable]:
    """A pane's request as a thread worker, one at a time in ``group``; whatever it raises is
    reported to the pane (``EngineFailed``) and logged, never raised: the app keeps running."""

    def decorate(method: Callable) -> Callable:
        @functools.wraps(method)
        def run_reporting(self, *args, **kwargs) -> None:
            try:
                method(self, *args, **kwargs)
            except Exception as error:  # the one handler of every worker's failure (see the module's doc)
                log_failure(self.services.where.log_dir, method.__qualname__, error)
                self.post_message(EngineFailed(method.__name__, failure_line(error)))

        return work(thread=True, exclusive=True, group=group, exit_on_error=False)(run_reporting)

    return decorate


class ReportsEngine:
    """Mixin for a widget whose thread workers report back (see the module's doc). The widget
    says where its status line is (``show_status``) and what a failed request frees
    (``show_failure``, which by default only writes the line)."""

    def report(self, event) -> None:
        """From a worker thread: hand ``event`` to this pane (it is rendered on the UI thread)."""
        self.post_message(EngineEvent(event))

    def on_engine_event(self, message: EngineEvent) -> None:
        message.stop()
        self.show_event(message.event)

    def show_event(self, event) -> None:
        """One event, on the UI thread: the pane's ``_on_{kind}``, else its summary as the status."""
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler is None:
            self.show_status(plain(event.summary()))
        else:
            handler(event)

    def on_engine_failed(self, message: EngineFailed) -> None:
        message.stop()
        self.show_failure(message.worker, plain(message.line, "red"))

    def _on_note(self, note: Note) -> None:
        self.show_status(plain(note.text, note.style))

    def show_status(self, text: Text) -> None:
        raise NotImplementedError

    def show_failure(self, worker: str, line: Text) -> None:
        self.show_status(line)
