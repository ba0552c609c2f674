"""The Conference QA pane through Textual's Pilot: pick a conference, type a question, read the evidence."""

from pathlib import Path

from textual.app import App
from textual.widgets import DataTable, Input, Select, Static, Tree

import scholar_tui.app
from scholar_tui.app.panes.conference import ConferencePane
from scholar_tui.core.conference.describe import StructuralDescriber
from scholar_tui.core.conference.engine import ConferenceEngine
from scholar_tui.core.conference.tree import load_json_tree

from .conference_fakes import HashingEmbedder
from .conftest import ScriptedLLM
from .pilot_support import (
    make_services,
    wait_for_workers,
)

TINY = Path(__file__).parent / "fixtures" / "conference" / "tinyqa" / "TINY2024.json"


class PaneApp(App):
    """The pane alone, with the app's stylesheet (other tabs' panes are not this test's subject)."""

    CSS_PATH = str(Path(scholar_tui.app.__file__).parent / "app.tcss")

    def __init__(self, services) -> None:
        super().__init__()
        self.services = services

    def compose(self):
        yield ConferencePane(self.services, id="conference-qa-pane")


async def test_typed_question_shows_answers_and_evidence(where, off_thread_queries):
    list(ConferenceEngine(where, HashingEmbedder()).build(load_json_tree(TINY), "tiny", StructuralDescriber()))
    llm = ScriptedLLM("1")
    app = PaneApp(make_services(where, llm))
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_for_workers(pilot)
        assert app.query_one("#conf-select", Select).value == "TINY2024"  # the only conference is picked
        await pilot.click("#conf-question")  # as a person would, before typing
        await pilot.press(*"How much is virtual registration for ACM members?")
        await pilot.press("enter")
        await wait_for_workers(pilot)
        table = app.query_one("#conf-evidence", DataTable)
        assert table.row_count == 5
        paths = [str(table.get_row_at(row)[2]) for row in range(table.row_count)]
        assert any("ACM Members»Virtual»$300" in path for path in paths)
        answer = str(app.query_one("#conf-answer", Static).render())
        assert answer.startswith("Answer (span): $300")  # computed, offline
        assert "cites [1]" in str(app.query_one("#conf-answer-box").border_subtitle)  # on the box's edge
        assert str(table.get_row_at(0)[0]) == "*1" and paths[0].endswith("ACM Members»Virtual»$300")
        assert llm.history == []  # the default tiny model is not asked to write answers
        assert "description:" in str(app.query_one("#conf-description", Static).render())
        # the first path is both rankers' first: marked kept, its fused score shown, the reason beside
        assert str(table.get_row_at(0)[1]).endswith(" kept") and float(str(table.get_row_at(0)[1]).split()[0]) < 1
        assert "kept in the top 5:" in str(app.query_one("#conf-description", Static).render())
        # the tree browser shows the conference and opens branches on demand
        tree = app.query_one("#conf-tree", Tree)
        assert str(tree.root.label).startswith("TINY2024 (27 paths)")
        labels = [str(child.label) for child in tree.root.children]
        assert labels[:3] == ["Dates", "Attend", "Organization"]
        tree.root.children[0].expand()
        await pilot.pause()
        assert [str(child.label) for child in tree.root.children[0].children] == ["Important Dates", "Sessions"]


async def test_a_yes_no_answer_shows_its_verdict_and_the_sentence_that_decides_it(where, off_thread_queries):
    list(ConferenceEngine(where, HashingEmbedder()).build(load_json_tree(TINY), "tiny", StructuralDescriber()))
    app = PaneApp(make_services(where, ScriptedLLM("1")))
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_for_workers(pilot)
        await pilot.click("#conf-question")
        await pilot.press(*"Is child care free?")
        await pilot.press("enter")
        await wait_for_workers(pilot)
        shown = app.query_one("#conf-answer", Static).render()
        assert (
            str(shown) == "Answer (yes_no): Yes\nbecause: free on-site child care is offered for registered attendees."
        )
        verdict = str(shown).index("Yes")
        assert any(span.start <= verdict < span.end and "bold" in str(span.style) for span in shown.spans)
        assert str(app.query_one("#conf-answer-box").border_subtitle).startswith("cites [")  # and what it cites


async def test_import_from_a_path_in_the_pane(where, off_thread_queries):
    app = PaneApp(make_services(where))
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_for_workers(pilot)
        assert "No conference yet" in str(app.query_one("#conf-status", Static).render())
        app.query_one("#conf-import-path", Input).value = str(TINY)
        await pilot.click("#conf-import")
        await wait_for_workers(pilot)
        status = str(app.query_one("#conf-status", Static).render())
        assert "TINY2024: index: 27 paths" in status and "49 generated" in status and "(structural)" in status
        assert app.query_one("#conf-select", Select).value == "TINY2024"
