"""The Scholar Q&A tab through Pilot: a typed question shows solution, program, result, feedback, answer."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Label, ListView, Static

from scholar_tui.app.panes.scholar_qa import ScholarQAPane

from .pilot_support import (
    wait_for,
)

pytestmark = pytest.mark.embeddings


def text_of(app, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


async def test_a_typed_question_shows_every_stage(where, imported, real_embedder, make_app):
    app = make_app(embedder=real_embedder)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        pane = app.query_one(ScholarQAPane)
        assert app.focused is app.query_one("#qa-question", Input)
        await pilot.press(*"Which collaborators does Marcus Michelen have?")
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(pane.history) == 1)
        await pilot.pause()
        assert "searchPerson → getCoauthors" in text_of(app, "#qa-solution")
        program = app.query_one("#qa-program", Static).content  # a rich Syntax: the highlighted source
        assert "getCoauthors(person_id=person['person_id'])" in program.code
        assert "Xuan-Truong Vu" in text_of(app, "#qa-result") and "API calls: searchPerson, getCoauthors" in text_of(
            app, "#qa-result"
        )
        assert "solved" in text_of(app, "#qa-feedback")
        # the answer and the record it came from
        assert "The coauthors of Marcus Michelen: Xuan-Truong Vu." in text_of(app, "#qa-answer")
        assert "from getCoauthors(person_id='person:1')" in text_of(app, "#qa-answer")
        assert len(app.query_one("#qa-history", ListView)) == 1
        await pilot.click("#qa-export")
        await pilot.pause()
        exported = sorted((where.data_dir / "exports").glob("scholar-qa-*.md"))
        markdown = exported[-1].read_text()
        assert "Xuan-Truong Vu" in markdown and "getCoauthors" in markdown and "**Answer:**" in markdown
        # a question about no one in the library says so in the answer view; the app stays up
        app.query_one("#qa-question", Input).value = "What is the weather like today?"
        await pilot.click("#qa-ask")
        await wait_for(pilot, lambda: len(pane.history) == 2)
        await pilot.pause()
        assert "no scholar or paper of the library is named" in text_of(app, "#qa-answer")
        # a field no API returns: the plain sentence, not the nearest field's value
        app.query_one("#qa-question", Input).value = "What is the h-index of Marcus Michelen?"
        await pilot.click("#qa-ask")
        await wait_for(pilot, lambda: len(pane.history) == 3)
        await pilot.pause()
        assert text_of(app, "#qa-answer").strip() == "The library has no h-index for Marcus Michelen."
        await pilot.press("ctrl+q")


def history_item(app, text: str) -> int:
    """The History list's row that holds ``text``."""
    listing = app.query_one("#qa-history", ListView)
    rows = [str(item.query_one(Label).render()) for item in listing.children]
    return next(index for index, row in enumerate(rows) if text in row)


async def test_history_reopens_each_question_with_its_own_answer(where, imported, real_embedder, make_app):
    """The mix-up of issue #26: ask two questions, pick the first in History: its own solution,
    program, result and answer show, and Copy answer copies its answer, not the last one's."""
    first, second = "Which collaborators does Marcus Michelen have?", "What is the weather like today?"
    app = make_app(embedder=real_embedder)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("f2")
        pane = app.query_one(ScholarQAPane)
        for number, question in enumerate((first, second), start=1):
            app.query_one("#qa-question", Input).value = question
            await pilot.click("#qa-ask")
            await wait_for(pilot, lambda: len(pane.history) == number)
        await pilot.pause()
        listing = app.query_one("#qa-history", ListView)
        listing.focus()
        listing.index = history_item(app, first)
        await pilot.press("enter")
        await pilot.pause()
        assert app.query_one("#qa-question", Input).value == first
        assert "searchPerson → getCoauthors" in text_of(app, "#qa-solution")
        assert "getCoauthors(person_id=person['person_id'])" in app.query_one("#qa-program", Static).content.code
        assert "Xuan-Truong Vu" in text_of(app, "#qa-result")
        assert "The coauthors of Marcus Michelen: Xuan-Truong Vu." in text_of(app, "#qa-answer")
        await pilot.click("#qa-copy")
        assert app.clipboard == "The coauthors of Marcus Michelen: Xuan-Truong Vu."
        # and the second one reopens as itself: no program or result left from the first
        listing.index = history_item(app, second)
        listing.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert "no scholar or paper of the library is named" in text_of(app, "#qa-answer")
        assert "Xuan-Truong Vu" not in text_of(app, "#qa-result")
        await pilot.press("ctrl+q")

    # the next day: a new app on the same data remembers both, with the first's program
    app = make_app(embedder=real_embedder)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        assert len(app.query_one("#qa-history", ListView)) == 2
        await pilot.press("up")
        assert app.query_one("#qa-question", Input).value == second  # the last asked comes first
        await pilot.press("up")
        assert app.query_one("#qa-question", Input).value == first
        listing = app.query_one("#qa-history", ListView)
        listing.index = history_item(app, first)
        listing.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert "getCoauthors(person_id=person['person_id'])" in app.query_one("#qa-program", Static).content.code
        await pilot.press("ctrl+q")
