"""The one place the Pilot tests get their app and wait for it.

``make_app`` (a fixture, registered for every test by ``pytest_plugins`` in conftest.py: take it as an
argument) builds the app over the test's own home with a scripted model and the hashing embedder
unless the test gives its own, and fails the test if a worker queried a widget
(``watch_queries``); ``wait_for`` waits for what a test is about, ``wait_for_workers`` for
every worker to end and what they posted to be shown.
"""

from __future__ import annotations

import functools
import threading
import time

import pytest
from textual.dom import DOMNode

from scholar_tui.app.tui import ScholarApp
from scholar_tui.config.settings import load_settings
from scholar_tui.core.services import Services

from .conftest import ScriptedLLM
from .library_support import HashingEmbedder


def make_services(where, llm=None, embedder=None, *, llm_factory=None, embedder_factory=None) -> Services:
    """The shared services with these models (a factory instead, to make loading fail or count)."""
    llm = llm or ScriptedLLM()
    embedder = embedder or HashingEmbedder()
    return Services(
        where,
        load_settings(where),
        llm_factory=llm_factory or (lambda settings, where: llm),
        embedder_factory=embedder_factory or (lambda settings: embedder),
    )


def build_app(
    where, llm=None, embedder=None, *, llm_factory=None, embedder_factory=None, load_model_on_start=False, **options
) -> ScholarApp:
    """The app over ``where`` (see ``make_services``). The model is not loaded at start unless asked:
    most tests are about a tab, not the status bar."""
    services = make_services(where, llm, embedder, llm_factory=llm_factory, embedder_factory=embedder_factory)
    return ScholarApp(services, load_model_on_start=load_model_on_start, **options)


QUERIES = ("query", "query_one", "query_exactly_one", "query_children")


def watch_queries(monkeypatch) -> list[str]:
    """From now on, every widget query made off this (the UI) thread is recorded in the list returned.
    A worker reports through messages (app/panes/workers.py): a widget read or changed from its
    thread races the UI thread, and an error there is lost with the worker."""
    seen: list[str] = []
    ui_thread = threading.current_thread()  # the test's, where pytest-asyncio runs the app's loop
    for name in QUERIES:
        real = getattr(DOMNode, name)

        def guarded(self, *args, _real=real, _name=name, **kwargs):
            if threading.current_thread() is not ui_thread:
                seen.append(f"{type(self).__name__}.{_name}{args} in {threading.current_thread().name}")
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(DOMNode, name, guarded)
    return seen


@pytest.fixture
def off_thread_queries(monkeypatch):
    """The widget queries made off the UI thread (``watch_queries``); the test fails if there was one."""
    seen = watch_queries(monkeypatch)
    yield seen
    assert not seen, f"widgets queried from a worker thread: {seen}"


@pytest.fixture
def make_app(where, monkeypatch):
    """``build_app`` over this test's home: ``make_app(llm=None, embedder=None, **options)``; the test
    fails if a worker queried a widget (``watch_queries``)."""
    seen = watch_queries(monkeypatch)
    yield functools.partial(build_app, where)
    assert not seen, f"widgets queried from a worker thread: {seen}"


async def wait_for(pilot, condition, timeout: float = 60.0, step: float = 0.05) -> None:
    """Let the app run until ``condition()`` holds (workers post their events meanwhile)."""
    clock = 0.0
    while not condition():
        await pilot.pause(step)
        clock += step
        assert clock < timeout, "timed out waiting for the pane"


async def wait_for_workers(pilot, timeout: float = 60.0) -> None:
    """Until every worker has ended and what they posted is handled: one round when the last
    worker's events start none (``pause`` drains every message queue), another when they do (an
    import lists the conferences anew)."""
    app = pilot.app
    deadline = time.monotonic() + timeout
    while True:
        await app.workers.wait_for_complete()
        await pilot.pause()
        if all(worker.is_finished for worker in app.workers):
            return
        assert time.monotonic() < deadline, "timed out waiting for the workers"
