"""The one path from a pane's worker to the pane (app/panes/workers.py): a request that raises, in
any tab, ends as one red line where the tab reports, frees what it held, keeps the app running and
leaves its traceback in the log file, not on the screen; no worker touches a widget."""

from __future__ import annotations

import threading

from textual.widgets import DataTable, Input, Select, TextArea

from scholar_tui.app.panes import library as library_pane
from scholar_tui.app.panes import scholar_qa, settings
from scholar_tui.app.panes.api_debugger import APIDebuggerPane
from scholar_tui.app.panes.workers import LOG_FILE, failure_line
from scholar_tui.core.conference import sources as conference_sources
from scholar_tui.core.library.importer import LibraryImportError
from scholar_tui.core.pasa import factory as pasa_factory
from scholar_tui.indexes.autofeedback_log import FeedbackLog

from .pilot_support import (
    build_app,
    wait_for_workers,
)
from .tui_screen import screenful

BOOM = "boom [/nope] \x1b[2J"  # a failure quoting outside text: shown as written, one line
SHOWN = "RuntimeError: boom [/nope] \\x1b[2J"


def boom(*args, **kwargs):
    raise RuntimeError(BOOM)


def text_of(app, selector: str) -> str:
    return str(app.query_one(selector).render())


def test_a_failure_is_named_by_its_type_unless_it_is_one_of_ours():
    assert failure_line(RuntimeError("boom")) == "RuntimeError: boom"
    assert failure_line(OSError()) == "OSError"
    assert failure_line(LibraryImportError("x.bib: line 3: no closing brace")) == "x.bib: line 3: no closing brace"


async def start(pilot, tab: str, boxes: dict[str, str], button: str) -> None:
    await pilot.press(tab)
    await pilot.pause()
    for selector, value in boxes.items():
        pilot.app.query_one(selector, Input).value = value
    await pilot.pause()
    pilot.app.query_one(button).press()
    await wait_for_workers(pilot)


async def test_a_failing_request_in_each_tab_is_one_line_and_the_app_runs(where, make_app, monkeypatch):
    for target, name in (
        (pasa_factory, "check_not_empty"),  # Paper search: the crawl
        (conference_sources, "load_source"),  # Conference QA: an import
        (library_pane, "import_file"),  # Library: an import, an online search
        (library_pane, "open_online"),
        (settings, "run_checks"),  # Settings: the doctor
    ):
        monkeypatch.setattr(target, name, boom)
    monkeypatch.setattr(scholar_qa, "library_missing_at", lambda *args, **kwargs: None)  # Scholar Q&A asks…
    monkeypatch.setattr("scholar_tui.core.soay.open_soay", boom)  # …and its engine fails to open
    monkeypatch.setattr("scholar_tui.core.autofeedback.human.send_by_hand", boom)  # API debugger: a send
    monkeypatch.setattr(library_pane, "library_missing", lambda library: None)  # Library: a search…
    log = FeedbackLog(where)
    loop_id = log.start_loop("zeros of random polynomials", source="pasa")
    log.close()
    app = make_app(llm_factory=boom, embedder_factory=boom)  # …and the playground: models that fail to load
    async with app.run_test(size=(160, 50)) as pilot:
        await start(pilot, "f1", {"#pasa-query": "random polynomials"}, "#pasa-search")
        assert text_of(app, "#pasa-status") == SHOWN and app.query_one("#pasa-cancel").disabled

        await start(pilot, "f2", {"#qa-question": "Who wrote it?"}, "#qa-ask")
        assert text_of(app, "#qa-answer") == SHOWN and not app.query_one("#qa-ask").disabled

        await start(pilot, "f3", {"#conf-import-path": "site.json"}, "#conf-import")
        assert text_of(app, "#conf-status") == SHOWN and not app.query_one("#conf-import").disabled

        await pilot.press("f4")
        app.query_one(APIDebuggerPane).show_loop(loop_id)
        app.query_one("#debugger-request", TextArea).text = 'searchPapers(query="roots")'
        await start(pilot, "f4", {}, "#debugger-send")
        assert text_of(app, "#debugger-response") == SHOWN and not app.query_one("#debugger-send").disabled

        app.query_one("#import-kind", Select).value = "bibtex"
        await start(pilot, "f5", {"#import-path": "papers.bib"}, "#import-button")
        assert text_of(app, "#import-message") == f"import failed: {SHOWN}"
        assert not app.query_one("#import-button").disabled and app.query_one("#import-cancel").disabled
        await start(pilot, "f5", {"#online-query": "random polynomials"}, "#online-search")
        assert text_of(app, "#import-message") == SHOWN and not app.query_one("#online-search").disabled
        await start(pilot, "f5", {"#library-query": "random polynomials"}, "#search-button")
        assert text_of(app, "#results-title") == SHOWN

        await start(pilot, "f6", {"#playground-input": "hello"}, "#generate")
        assert text_of(app, "#playground-stats") == SHOWN and not app.query_one("#generate").disabled
        app.query_one("#doctor-panel").scroll_visible()
        await start(pilot, "f6", {}, "#run-doctor")
        doctor = app.query_one("#doctor-table", DataTable)
        assert [str(cell) for cell in doctor.get_row_at(doctor.row_count - 1)] == ["FAIL", "doctor", SHOWN]
        assert not app.query_one("#run-doctor").disabled

        assert app.is_running and screenful(app).find("Traceback") is None
    logged = (where.log_dir / LOG_FILE).read_text(encoding="utf-8")
    assert logged.count("Traceback (most recent call last)") == 9 and logged.count(f"RuntimeError: {BOOM}") == 9
    for worker in ("run_crawl", "run_question", "import_source", "send_worker", "run_import", "run_doctor"):
        assert f".{worker} failed" in logged


async def test_a_widget_queried_from_a_worker_thread_is_caught(where, off_thread_queries):
    """The guard every Pilot test runs under (``make_app``, pilot_support.watch_queries) sees a
    thread's query: each tab's usual requests are watched by the tests of that tab."""
    app = build_app(where)
    async with app.run_test(size=(120, 40)) as pilot:
        worker = threading.Thread(target=lambda: app.query_one("#pasa-status"), name="a worker")
        worker.start()
        worker.join()
        await pilot.pause()
    assert off_thread_queries == ["ScholarApp.query_one('#pasa-status',) in a worker"]
    off_thread_queries.clear()  # seen: the test passes
