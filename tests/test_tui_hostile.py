"""Every tab with text that did not come from us (#29, defects 1–3): a library record, a model's
replies, a config value, a conference site and an AutoFeedback loop, each holding Rich markup that
would run an action (``[@click=app.quit]``), a stray closing tag (``[/nope]``) and terminal control
(ESC[2J, OSC 52 clipboard write, OSC 8 link, C1 CSI, BEL, DEL, a bidi override).

Each test drives the app through Pilot and asserts: the app still runs, no action fired (clicking
the text shown does nothing), and no raw control character is in any segment Textual draws
(tests/tui_screen.py walks the composed screen).
"""

from __future__ import annotations

import json

import pytest
from textual import events
from textual.app import App
from textual.widgets import Input, ListView, Static, TextArea, Tree

from scholar_tui.app.panes.conference import ConferencePane
from scholar_tui.app.panes.paper_search import PaperSearchPane
from scholar_tui.app.panes.scholar_qa import ScholarQAPane
from scholar_tui.app.tui import ScholarApp
from scholar_tui.core.conference.describe import StructuralDescriber
from scholar_tui.core.conference.engine import ConferenceEngine
from scholar_tui.core.conference.tree import load_json_tree
from scholar_tui.core.llm import open_llm
from scholar_tui.core.pasa.factory import prepare
from scholar_tui.core.pasa.tools import LibraryTools
from scholar_tui.core.sandbox import APICall, SandboxResult
from scholar_tui.core.soay.engine import ProgramRan
from scholar_tui.indexes.autofeedback_log import FeedbackLog
from scholar_tui.indexes.records import AuthorRecord, PaperRecord
from scholar_tui.models.base import LLMError

from .conftest import ScriptedLLM
from .library_support import HashingEmbedder
from .pasa_support import RoutedLLM
from .pilot_support import (
    wait_for,
    wait_for_workers,
)
from .tui_screen import assert_clean, screenful

CLICKS = "[@click=app.quit]QUIT[/] [@click=app.screenshot('notes.txt','~/papers')]CLICKME[/]"
STRAY = "answer [/INST] done [/nope]"
MARKUP = f"{CLICKS} {STRAY}"
BYTES = (
    "\x1b[2J \x1b]52;c;SGVsbG8=\x07 \x1b]8;;http://evil.example/\x1b\\link\x1b]8;;\x1b\\ \x9b2J \x07 \x7f \u202eevil\t."
)
EVIL = f"{MARKUP} {BYTES}"


@pytest.fixture
def fired(monkeypatch) -> list:
    """The actions hostile text could name, recorded instead of run."""
    calls: list = []

    async def quit_(self) -> None:
        calls.append("quit")

    def screenshot(self, filename=None, path=None) -> None:
        calls.append(("screenshot", filename, path))

    monkeypatch.setattr(App, "action_quit", quit_)
    monkeypatch.setattr(App, "action_screenshot", screenshot)
    return calls


async def click_the_text(pilot, app, fired: list) -> None:
    """Click each hostile link text where it shows: nothing may happen."""
    for word in ("QUIT", "CLICKME"):
        spot = screenful(app).find(word)
        if spot is not None:
            await pilot.click(offset=spot)
            await pilot.pause()
    assert fired == []
    assert app.is_running


def with_raw_bytes(library, table: str, column: str, like: str) -> None:
    """Put the control characters back into stored text: import strips them, but data stored before
    that rule (or written by another program) still holds them, and the screen must not care."""
    with library.transaction():
        for row_id, value in library.conn.execute(
            f"select rowid, {column} from {table} where {column} like ?", [like]
        ).fetchall():
            library.conn.execute(f"update {table} set {column} = ? where rowid = ?", [f"{value} {BYTES}", row_id])


@pytest.fixture
def hostile_library(where, mini_library):
    """The PaSa test library plus a paper whose title, abstract, venue and second author are hostile."""
    with mini_library.transaction():
        mini_library.store_paper(
            PaperRecord(
                title=f"Graph neural networks {MARKUP}",
                source="bibtex",
                date="2021-05-01",
                abstract=f"Graph networks abstract {MARKUP}",
                venue=f"Venue {MARKUP}",
                authors=[AuthorRecord("Ada Quillfeather"), AuthorRecord(f"Bob {MARKUP}")],
            )
        )
    for table, column in (
        ("papers", "title"),
        ("papers", "abstract"),
        ("papers", "venue"),
        ("people", "name"),
        ("authorships", "name_as_written"),
    ):
        with_raw_bytes(mini_library, table, column, "%[@click=app.quit]%")
    prepare(where, mini_library, HashingEmbedder())
    return mini_library


def hostile_conference(where, tmp_path) -> None:
    site = {
        f"HOSTILE {STRAY} \x1b[2J 2024": {
            f"Dates {EVIL}": {"Deadline [/nope] \x1b[2J": f"January 31 {EVIL}", "Rebuttal ends": "March 19"},
            "Attend": {CLICKS: {"Students": "$100 \x1b]52;c;SGVsbG8=\x07"}},
        }
    }
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(site), encoding="utf-8")
    list(ConferenceEngine(where, HashingEmbedder()).build(load_json_tree(path), str(path), StructuralDescriber()))


def hostile_loop(where) -> int:
    log = FeedbackLog(where)
    try:
        loop_id = log.start_loop(f"Who is {EVIL}?", source="soay", mode="program")
        log.add_round(
            loop_id,
            "static",
            request=f'searchPerson(name="{EVIL}")',
            sub_type="E2",
            ok=False,
            thought=EVIL,
            feedback=EVIL,
            response=[EVIL],
        )
        log.finish_loop(loop_id, "limit_hit")
        return loop_id
    finally:
        log.close()


# -- defect 1, 2, 3 in the Settings playground: the model's reply ----------------------------------
@pytest.mark.parametrize("reply", [CLICKS, STRAY, BYTES], ids=["click-markup", "stray-tag", "escapes"])
async def test_the_playground_shows_a_model_reply_as_written(where, fired, reply, make_app):
    app = make_app(ScriptedLLM(reply))
    async with app.run_test(size=(160, 60)) as pilot:
        await pilot.press("f6")
        app.query_one("#playground-input", Input).value = "say it"
        await pilot.press("enter")
        await wait_for(pilot, lambda: not app.query_one("#generate").disabled)
        app.query_one("#playground").scroll_visible()
        await pilot.pause()
        await click_the_text(pilot, app, fired)
        assert_clean(app)
        output = app.query_one("#playground-output", Static)
        assert str(output.render()).split()[0] == reply.split()[0].replace("\x1b", "\\x1b")  # literal, not markup


async def test_an_endpoint_error_quoting_its_body_is_one_red_line(where, fired, make_app):
    class Failing(ScriptedLLM):
        def _generate(self, request):
            raise LLMError(f"http://127.0.0.1:9/v1 answered 500: <pre>{EVIL}</pre>")
            yield

    app = make_app(Failing())
    async with app.run_test(size=(160, 60)) as pilot:
        await pilot.press("f6")
        app.query_one("#playground-input", Input).value = "say it"
        await pilot.press("enter")
        await wait_for(pilot, lambda: not app.query_one("#generate").disabled)
        assert "answered 500: <pre>[@click=app.quit]QUIT[/]" in str(app.query_one("#playground-stats", Static).render())
        assert_clean(app)
        await click_the_text(pilot, app, fired)


# -- defect 2: a config value (and a model's error quoting it) at start-up -------------------------
async def test_a_hostile_model_setting_neither_crashes_nor_escapes_at_start(where, fired, make_app):
    where.config_file.write_text(
        '[llm]\nmodel = "/x[/nope]\\u001b[2J[@click=app.quit]QUIT[/].gguf"\n'
        '[ui]\nkeymap = {"app.help" = "f7,[/nope]\\u001b[2J"}\n',
        encoding="utf-8",
    )
    (where.models_dir / "[@click=app.quit]QUIT \x1b]52;c;SGVsbG8=\x07.gguf").write_bytes(b"GGUF")
    app = make_app(llm_factory=open_llm, load_model_on_start=True)  # the real loader: it fails, quoting the setting
    async with app.run_test(size=(160, 60)) as pilot:
        await wait_for_workers(pilot)
        assert app.query_one("#status-bar").model_state == "error"
        assert_clean(app)  # the status bar and the error's notification
        await pilot.press("f6")
        app.query_one("#config-panel").scroll_visible()
        await pilot.pause()
        config = app.query_one("#config-table")
        assert any(
            "/x[/nope]\\x1b[2J[@click=app.quit]QUIT[/].gguf" == str(config.get_row_at(row)[1])
            for row in range(config.row_count)
        )
        assert_clean(app)
        await click_the_text(pilot, app, fired)
        app.query_one("#models-panel").scroll_visible()
        await pilot.pause()
        assert_clean(app)
        await click_the_text(pilot, app, fired)
        await pilot.press("ctrl+p")  # the palette offers the stray GGUF by its name, as written
        await pilot.press(*"use model")
        await pilot.pause(0.3)
        assert "Use model [@click=app.quit]QUIT" in screenful(app).text
        assert_clean(app)
        await click_the_text(pilot, app, fired)


# -- defects 1–3 in Scholar Q&A: an imported author in the answer, the result and the history -------
async def test_scholar_qa_shows_a_hostile_author_as_text(where, hostile_library, fired, make_app):
    app = make_app(ScriptedLLM())
    async with app.run_test(size=(180, 60)) as pilot:
        await pilot.press("f2")
        pane = app.query_one(ScholarQAPane)
        # a paper question: its answer is the hostile title (a "who" question now refuses a coauthor
        # whose name holds '@' and digits as not a name, which answer_kind's tests cover)
        app.query_one("#qa-question", Input).value = "Which papers did Ada Quillfeather write?"
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(pane.history) == 1)
        await pilot.pause()
        await click_the_text(pilot, app, fired)
        app.query_one("#qa-answer", Static).update("")
        history = app.query_one("#qa-history", ListView)
        history.focus()
        history.index = 0
        await pilot.press("enter")  # the history brings the answer back
        await pilot.pause()
        await click_the_text(pilot, app, fired)
        assert_clean(app)
        answer = str(app.query_one("#qa-answer", Static).render())
        assert "Graph neural networks [@click=app.quit]QUIT[/]" in answer and "\\x1b]52;c;SGVsbG8=\\x07" in answer
        assert "Graph neural networks [@click=app.quit]QUIT[/]" in str(app.query_one("#qa-result", Static).render())


# -- #26 / #29 item 11: a result line cut at an unbalanced '[' and a value holding '\[' ------------
async def test_the_result_pane_shows_the_value_and_its_line_as_they_are(where, fired, make_app):
    app = make_app(ScriptedLLM())
    value = ["Zeros of \\[random] polynomials", "On [3, 4" + "x" * 300]
    result = SandboxResult(
        ok=True, value=value, calls=[APICall("searchPerson", {}, True), APICall("getPersonPubs", {}, True)]
    )
    async with app.run_test(size=(180, 60)) as pilot:
        await pilot.press("f2")
        app.query_one(ScholarQAPane).show_event(ProgramRan(result))
        await pilot.pause()
        shown = str(app.query_one("#qa-result", Static).render())
        assert shown == json.dumps(value, indent=2, ensure_ascii=False) + "\n" + ProgramRan(result).summary()
        assert shown.endswith("API calls: searchPerson, getPersonPubs")  # no '[/]' after it
        assert "Zeros of \\\\[random]" in shown and "\\\\\\[" not in shown  # JSON's own escape only


# -- defects 2, 3 in Conference QA: a site's keys in the tree, the evidence and the answer ---------
async def test_the_conference_tab_shows_hostile_keys_as_text(where, tmp_path, fired, make_app):
    hostile_conference(where, tmp_path)
    app = make_app(ScriptedLLM())
    async with app.run_test(size=(180, 60)) as pilot:
        await pilot.press("f3")
        pane = app.query_one(ConferencePane)
        await wait_for(pilot, lambda: pane._tree is not None)
        await pilot.pause()
        tree = app.query_one("#conf-tree", Tree)
        tree.root.expand_all()
        await pilot.pause()
        labels = [str(node.label) for node in tree.root.children]
        assert any(label.startswith("Dates [@click=app.quit]QUIT[/]") for label in labels), labels
        name = "HOSTILE answer [/INST] done [/nope] \\x1b[2J 2024"
        assert str(tree.root.label).startswith(name) and name in screenful(app).text  # the tree and the picker
        assert_clean(app)
        await click_the_text(pilot, app, fired)
        app.query_one("#conf-question", Input).value = "When is the deadline?"
        app.query_one("#conf-question", Input).focus()
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: (
                app.query_one("#conf-evidence").row_count > 0
                and "Answer" in str(app.query_one("#conf-answer", Static).render())
            ),
        )
        await pilot.pause()
        assert_clean(app)
        await click_the_text(pilot, app, fired)


class HostileRoutedLLM(RoutedLLM):
    """PaSa's sessions as scripted; anything else it is asked (the playground) gets the hostile reply."""

    def reply_for(self, request) -> str:
        content = request.messages[-1]["content"] if request.messages else ""
        if self.kind_of(request) == "selector" and "Searched Paper:" not in content:
            return EVIL
        return super().reply_for(request)


# -- defect 3 in the editors: Input and TextArea draw ESC and C1 raw --------------------------------
async def test_pasted_control_characters_show_as_text_in_the_boxes(where, fired, make_app):
    app = make_app(ScriptedLLM())
    async with app.run_test(size=(160, 60)) as pilot:
        query = app.query_one("#pasa-query", Input)
        query.focus()
        await pilot.pause()
        query.post_message(events.Paste(f"graph {EVIL}"))  # a title copied from a terminal, with its escapes
        await pilot.pause()
        assert query.value.startswith("graph [@click=app.quit]QUIT[/]") and "\\x1b]52;c;SGVsbG8=\\x07" in query.value
        assert_clean(app)
        await pilot.press("f4")
        editor = app.query_one("#debugger-request", TextArea)
        editor.focus()
        await pilot.pause()
        editor.post_message(events.Paste(f'searchPerson(name="{BYTES}")\r\n'))
        await pilot.pause()
        assert editor.text.startswith('searchPerson(name="\\x1b[2J \\x1b]52;c;') and "\r" not in editor.text
        assert_clean(app)
        await click_the_text(pilot, app, fired)


# -- every tab in one run: the hostile library, the model's replies, a loop, the help and palette ---
async def test_every_tab_with_hostile_data_and_replies(where, hostile_library, tmp_path, fired, monkeypatch, make_app):
    monkeypatch.chdir(tmp_path)
    # no plain search: the small library would be all found by it, and the Crawler would not search
    monkeypatch.setattr(LibraryTools, "plain_search", lambda self, query, before: [])
    hostile_conference(where, tmp_path)
    loop_id = hostile_loop(where)
    llm = HostileRoutedLLM(search=[f"[Search] graph networks {BYTES} [Stop]"], relevant=lambda title: True)
    app = make_app(llm)
    tabs_seen = []
    async with app.run_test(size=(180, 60)) as pilot:
        # F1: a crawl that finds the hostile paper, and a search query the model wrote
        pane = app.query_one(PaperSearchPane)
        app.query_one("#pasa-query", Input).value = "graph neural networks"
        await pilot.click("#pasa-search")
        await wait_for(pilot, lambda: pane.finished is not None or pane.cancel_token is None)
        await pilot.pause()
        assert pane.finished is not None, str(app.query_one("#pasa-status", Static).render())
        tree = app.query_one("#pasa-tree", Tree)
        tree.root.expand_all()
        searches = [str(node.label) for node in tree.root.children]
        assert any(label.startswith("[Search] graph networks \\x1b[2J \\x1b]52;c;") for label in searches), searches
        results = app.query_one("#pasa-results")
        hostile = next(row for row in range(results.row_count) if "QUIT" in str(results.get_row_at(row)[-1]))
        results.focus()
        results.move_cursor(row=hostile)
        await pilot.pause()
        assert "Graph neural networks [@click=app.quit]QUIT[/]" in str(app.query_one("#pasa-detail", Static).render())
        assert_clean(app)
        await click_the_text(pilot, app, fired)
        tabs_seen.append("paper-search")
        # F2: a question about the hostile author's coauthor
        await pilot.press("f2")
        # a paper question: its answer is the hostile title (a "who" question now refuses a coauthor
        # whose name holds '@' and digits as not a name, which answer_kind's tests cover)
        app.query_one("#qa-question", Input).value = "Which papers did Ada Quillfeather write?"
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(app.query_one(ScholarQAPane).history) == 1)
        await pilot.pause()
        assert_clean(app)
        await click_the_text(pilot, app, fired)
        tabs_seen.append("scholar-qa")
        # F3: the hostile site
        await pilot.press("f3")
        await wait_for(pilot, lambda: app.query_one(ConferencePane)._tree is not None)
        app.query_one("#conf-tree", Tree).root.expand_all()
        await pilot.pause()
        assert_clean(app)
        await click_the_text(pilot, app, fired)
        tabs_seen.append("conference-qa")
        # F4: the loop list, a hostile loop opened, its request in the editor
        await pilot.press("f4")
        await pilot.pause()
        app.query_one("#api-debugger-pane").show_loop(loop_id, prefill=True)
        await pilot.pause()
        editor = app.query_one("#debugger-request", TextArea).text
        assert editor.startswith('searchPerson(name="[@click=app.quit]QUIT[/]') and "\\x1b]52;c;" in editor
        assert_clean(app)
        await click_the_text(pilot, app, fired)
        tabs_seen.append("api-debugger")
        # F5: the hostile paper in the list and in the detail pane
        await pilot.press("f5")
        await pilot.pause()
        library = app.query_one("#library-pane")
        library.show_paper(next(paper["id"] for paper in hostile_library.all_papers() if "QUIT" in paper["title"]))
        await pilot.pause()
        header = str(app.query_one("#paper-header", Static).render())
        assert "Bob [@click=app.quit]QUIT[/]" in header and "Venue [@click=app.quit]QUIT[/]" in header
        assert_clean(app)
        await click_the_text(pilot, app, fired)
        tabs_seen.append("library")
        # F6: a hostile reply in the playground
        await pilot.press("f6")
        app.query_one("#playground-input", Input).value = "say it"
        await pilot.press("enter")
        await wait_for(pilot, lambda: not app.query_one("#generate").disabled)
        await pilot.pause()
        assert_clean(app)
        await click_the_text(pilot, app, fired)
        tabs_seen.append("settings")
        # F7 and the palette, over it all
        await pilot.press("f7")
        await pilot.pause()
        assert_clean(app)
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        assert_clean(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running and fired == []
    assert tabs_seen == list(ScholarApp.TAB_TITLES)
