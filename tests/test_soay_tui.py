"""The Scholar Q&A tab through Pilot: a typed question shows solution, program, result, feedback, answer."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Input, ListView, Static

from scholar_tui.app.panes.scholar_qa import ScholarQAPane
from scholar_tui.app.services import Services
from scholar_tui.app.tui import ScholarApp
from scholar_tui.config.settings import load_settings

from .conftest import ScriptedLLM
from .library_support import imported, prepared_library, real_embedder  # noqa: F401
from .pilot_support import wait_for

pytestmark = pytest.mark.embeddings



def text_of(app, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


async def test_a_typed_question_shows_every_stage(where, imported, real_embedder):  # noqa: F811
    services = Services(where, load_settings(where), llm_factory=lambda settings, where: ScriptedLLM(),
                        embedder_factory=lambda settings: real_embedder)
    app = ScholarApp(services, load_model_on_start=False)
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
        assert "Xuan-Truong Vu" in text_of(app, "#qa-result") and "API calls: searchPerson, getCoauthors" in text_of(app, "#qa-result")
        assert "solved" in text_of(app, "#qa-feedback")
        # the answer and the record it came from
        assert "The coauthors of Marcus Michelen: Xuan-Truong Vu." in text_of(app, "#qa-answer")
        assert "from getCoauthors(person_id='person:1')" in text_of(app, "#qa-answer")
        assert len(app.query_one("#qa-history", ListView)) == 1
        await pilot.click("#qa-export")
        await pilot.pause()
        exported = sorted((where.data_dir / "exports").glob("scholar-qa-*.json"))
        assert json.loads(exported[-1].read_text())[0]["value"] == ["Xuan-Truong Vu"]
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
