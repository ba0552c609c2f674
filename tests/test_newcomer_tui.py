"""A newcomer's first minutes in the app: empty tabs say what to do, the Library tab imports a file
with a completing path box and adds papers found online, and the help screen explains each tab."""

from __future__ import annotations

import httpx
from textual.widgets import Button, Checkbox, DataTable, Input, Label, Select, Static, Tree

from scholar_tui.app.help import HelpScreen
from scholar_tui.app.panes.api_debugger import CHOOSE_LOOP
from scholar_tui.app.panes.library import LibraryPane
from scholar_tui.app.widgets.paths import complete_path
from scholar_tui.core import readiness
from scholar_tui.indexes.autofeedback_log import FeedbackLog

from .library_support import openalex_handler
from .pilot_support import (
    wait_for,
    wait_for_workers,
)


def _text(app, selector: str) -> str:
    return str(app.query_one(selector).render())


def test_complete_path_completes_as_far_as_unambiguous(tmp_path):
    (tmp_path / "feeds").mkdir()
    (tmp_path / "feeds" / "arxiv-del.xml").write_text("x")
    (tmp_path / "feeds" / "arxiv-test.xml").write_text("x")
    (tmp_path / "feeds" / ".hidden").write_text("x")
    assert complete_path(f"{tmp_path}/fe") == f"{tmp_path}/feeds/"
    assert complete_path(f"{tmp_path}/feeds/ar") == f"{tmp_path}/feeds/arxiv-"
    assert complete_path(f"{tmp_path}/feeds/arxiv-d") == f"{tmp_path}/feeds/arxiv-del.xml"
    assert complete_path(f"{tmp_path}/feeds/zz") is None
    assert complete_path(f"{tmp_path}/nowhere/x") is None
    assert complete_path("") is None


async def test_empty_tabs_say_what_is_missing_and_what_to_do(where, make_app):
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("f2")
        assert _text(app, "#qa-hint").startswith("The library is empty: import a file")
        app.query_one("#qa-question", Input).value = "How many papers has Adrian Del Maestro written?"
        await pilot.press("enter")
        await pilot.pause()
        assert app.query_one("#scholar-qa-pane")._engine is None  # no engine ran over an empty library
        await pilot.press("f3")
        await wait_for(pilot, lambda: "No conference yet" in _text(app, "#conf-status"))
        await pilot.press("f4")
        await pilot.pause()
        assert _text(app, "#debugger-loop-title").startswith("No AutoFeedback loop logged yet: ask in Scholar Q&A")
        await pilot.press("f5")
        await pilot.pause()
        assert _text(app, "#library-hint").startswith("The library is empty")
        assert app.focused is app.query_one("#import-path")  # where a newcomer starts
        app.query_one("#library-query", Input).value = "graph neural networks"
        await pilot.click("#search-button")
        await pilot.pause()
        assert str(app.query_one("#results-title", Label).render()).startswith("The library is empty")


async def test_network_state_shows_in_settings_and_the_status_bar(where, monkeypatch, make_app):
    monkeypatch.setattr(readiness, "SOURCES", {"arXiv": "http://127.0.0.1:9/", "OpenAlex": "http://127.0.0.1:9/x"})
    app = make_app()
    app.check_network_on_start = True
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_for_workers(pilot)
        hint = _text(app, "#settings-hint")
        assert hint.startswith(
            "Cannot reach arXiv (127.0.0.1:9), OpenAlex (127.0.0.1:9) within 10 s: online search is off"
        )
        assert "arXiv/OpenAlex unreachable" in str(app.query_one("#status-bar").render())


async def test_library_import_with_path_completion_merges_del_maestro(where, shared_data, make_app):
    feed = shared_data / "online" / "arxiv-atom-au-del_maestro.xml"
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("f5")
        await pilot.pause()
        box = app.query_one("#import-path", Input)
        box.value = str(feed)[:-12]  # '…/arxiv-atom-au-del_' : the rest is unambiguous
        box.cursor_position = len(box.value)
        await wait_for(pilot, lambda: box._suggestion == str(feed))
        await pilot.press("tab")
        assert box.value == str(feed)
        assert app.query_one("#import-kind", Select).value == "arxiv"  # guessed from the name
        await pilot.press("enter")
        await wait_for_workers(pilot)
        message = _text(app, "#import-message")
        assert (
            "added 10 papers, 11 people" in message
            and "name variant merged: “A. Del Maestro” is “Adrian Del Maestro”" in message
        )
        assert _text(app, "#library-hint") == ""


async def test_library_online_search_marks_and_adds_with_references(where, make_app):
    app = make_app()
    LibraryPane.online_transport = httpx.MockTransport(openalex_handler)
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.press("f5")
            app.query_one("#online-source", Select).value = "openalex"
            app.query_one("#online-query", Input).value = "random polynomials"
            await pilot.click("#online-search")
            await wait_for_workers(pilot)
            results = app.query_one("#online-results", DataTable)
            assert results.row_count == 2 and app.query_one("#online-box").display
            assert _text(app, "#import-message").startswith("2 results from OpenAlex for “random polynomials”")
            results.focus()
            results.move_cursor(row=0)
            await pilot.press("enter")  # mark the first result
            assert str(results.get_row_at(0)[0]) == "[x]"
            assert app.query_one("#online-references", Checkbox).value
            await pilot.click("#online-add")
            await wait_for_workers(pilot)
            assert _text(app, "#import-message").startswith("added 1 papers to the library and 3 works they cite")
            assert "4 papers" in _text(app, "#library-counts")
    finally:
        LibraryPane.online_transport = None


async def test_library_online_search_offline_is_one_plain_line(where, make_app):
    def unreachable(request):
        raise httpx.ConnectError("[Errno -2] Name or service not known", request=request)

    app = make_app()
    LibraryPane.online_transport = httpx.MockTransport(unreachable)
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.press("f5")
            app.query_one("#online-query", Input).value = "au:del_maestro"
            await pilot.click("#online-search")
            await wait_for_workers(pilot)
            assert _text(app, "#import-message") == (
                "cannot reach export.arxiv.org (ConnectError): working offline; import files instead; the local library still answers"
            )
            assert not app.query_one("#online-box").display
    finally:
        LibraryPane.online_transport = None


async def test_help_screen_from_the_key_and_the_palette(where, make_app):
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("f7")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-text", Static).render())
        for line in (
            "F2  Scholar Q&A",
            "How many papers has Adrian Del Maestro written?",
            "F5  Library",
            "au:del_maestro",
            "ctrl+s",
            "Send by hand (api-debugger)",
            "ctrl+q",
        ):
            assert line in text, line
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("f2")
        app.query_one("#qa-question", Input).value = ""
        await pilot.press("?")  # inside a question box '?' is text, not help
        assert app.query_one("#qa-question", Input).value == "?"
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Help")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert isinstance(app.screen, HelpScreen)


def no_model(*args, **kwargs):
    """A model factory for tabs that must not load one: nothing is there for them to work on."""
    raise AssertionError("no model may load for an empty library")


async def test_paper_search_on_an_empty_library_says_how_to_fill_it_before_any_model(where, make_app):
    app = make_app(llm_factory=no_model, embedder_factory=no_model)
    async with app.run_test(size=(160, 50)) as pilot:
        app.query_one("#pasa-query", Input).value = "graph neural networks for molecules"
        await pilot.press("enter")
        await wait_for_workers(pilot)
        # the readiness line (the Library tab and an online fetch too), not a crawl over nothing
        assert _text(app, "#pasa-status") == readiness.library_missing_at(app.services.where).summary()
        assert app.query_one("#pasa-cancel", Button).disabled
        assert str(app.query_one("#pasa-tree", Tree).root.label) in (
            "(no search yet)",
            "graph neural networks for molecules",
        )
        assert not app.query_one("#pasa-tree", Tree).root.children


async def test_a_question_with_no_conference_says_how_to_import_one(where, make_app):
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("f3")
        await wait_for(pilot, lambda: "No conference yet" in _text(app, "#conf-status"))
        app.query_one("#conf-question", Input).value = "When does the rebuttal period end?"
        app.query_one("#conf-question", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert _text(app, "#conf-status") == readiness.conference_missing([]).summary()


async def test_the_debugger_hint_follows_the_log(where, make_app):
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        await pilot.press("ctrl+s")  # Send by hand with no loop: says there is none yet
        await pilot.pause()
        assert _text(app, "#debugger-response").startswith("No AutoFeedback loop logged yet")
        log = FeedbackLog(where)  # Scholar Q&A (or the CLI) logs a loop meanwhile
        log.finish_loop(log.start_loop("How many papers has Adrian Del Maestro written?", source="soay"), "solved")
        log.close()
        await pilot.press("f2", "f4")
        await pilot.pause()
        assert _text(app, "#debugger-loop-title") == CHOOSE_LOOP  # no longer "no loop logged yet"
        assert _text(app, "#debugger-response") == ""
        assert app.query_one("#debugger-loops", DataTable).row_count == 1


async def test_an_empty_library_search_shows_the_whole_next_step(where, make_app):
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("f5")
        await pilot.pause()
        app.query_one("#library-query", Input).value = "helium"
        await pilot.click("#search-button")
        await pilot.pause()
        title = app.query_one("#results-title", Label)
        assert str(title.render()) == readiness.library_missing_at(app.services.where).summary()
        assert title.size.height > 1  # wrapped in its column, not cut after "import arxiv"
