"""SoAy with AutoFeedback on (issue #5): a wrong API call is fixed by feedback, or waits for a person."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from textual.widgets import DataTable, Static, TextArea

from scholar_tui.app.cli import cli
from scholar_tui.config.settings import load_settings
from scholar_tui.core.autofeedback.human import send_by_hand
from scholar_tui.core.events import FeedbackFinished, FeedbackRound
from scholar_tui.core.services import Services
from scholar_tui.core.soay import open_soay
from scholar_tui.core.soay.engine import final_answer
from scholar_tui.core.soay.intents import INTENTS
from scholar_tui.indexes.autofeedback_log import FeedbackLog

from .conftest import ScriptedLLM
from .pilot_support import (
    wait_for_workers,
)

pytestmark = pytest.mark.embeddings

QUESTION = "Who are the coauthors of Marcus Michelen?"
RIGHT = (
    "people = searchPerson(name='Marcus Michelen')\nperson = people[0]\n"
    "result = sorted(c['name'] for c in getCoauthors(person_id=person['person_id']))"
)
# getCoauthors takes a person id, not a name: a static E3.1 (name is searchPerson's parameter)
WRONG_PARAMETER = RIGHT.replace("getCoauthors(person_id=person['person_id'])", "getCoauthors(name=person['name'])")
# well formed, but the name is passed as the id: only running it shows the error (dynamic)
WRONG_VALUE = RIGHT.replace("getCoauthors(person_id=person['person_id'])", "getCoauthors(person_id=person['name'])")


@pytest.fixture
def engine_with(where, imported, real_embedder):
    engines = []

    def build(llm, code_mode="model"):
        services = Services(
            where, load_settings(where), llm_factory=lambda s, w: llm, embedder_factory=lambda s: real_embedder
        )
        engine = open_soay(
            services,
            choice_mode="retrieval",
            code_mode=code_mode,
            feedback=True,
        )
        engines.append(engine)
        return engine

    yield build
    for engine in engines:
        engine.close()


def test_a_wrong_parameter_is_fixed_by_static_feedback(where, engine_with):
    llm = ScriptedLLM(WRONG_PARAMETER, RIGHT)
    engine = engine_with(llm)
    events = list(engine.run(QUESTION))
    answer = events[-1].answer
    assert answer.ok and answer.value == ["Xuan-Truong Vu"]
    assert answer.program == RIGHT
    assert answer.feedback["status"] == "solved" and answer.feedback["static_rounds"] == 1
    given = [event for event in events if isinstance(event, FeedbackRound) and not event.ok]
    assert [(event.stage, event.sub_type) for event in given] == [("static", "E3.1")]
    assert "name is a parameter of searchPerson, not of getCoauthors" in given[0].feedback
    # the model's second prompt carries the failed program and the feedback
    retry_prompt = llm.history[1].prompt
    assert WRONG_PARAMETER in retry_prompt and "E3.1 (PARAMETER_INVALID" in retry_prompt
    assert retry_prompt.endswith("Corrected program:\n```python\n")
    done = next(event for event in events if isinstance(event, FeedbackFinished))
    loop = FeedbackLog(where).loop(done.loop_id)
    assert (loop["source"], loop["mode"], loop["status"]) == ("soay", "program", "solved")
    assert [row["sub_type"] for row in FeedbackLog(where).rounds(done.loop_id)] == ["E3.1", None]


def test_a_wrong_value_gets_dynamic_feedback_then_waits_for_a_person(where, engine_with, imported):
    llm = ScriptedLLM(WRONG_VALUE, WRONG_VALUE, WRONG_VALUE)  # a model that does not learn
    answer = final_answer(engine_with(llm).run(QUESTION))
    assert not answer.ok and answer.error_stage == "run"
    loop_id = answer.feedback["loop_id"]
    assert f"AutoFeedback loop {loop_id} hit its limit" in answer.error and "API debugger" in answer.error
    assert answer.feedback["status"] == "limit_hit" and answer.feedback["dynamic_rounds"] == 2
    log = FeedbackLog(where)
    rounds = log.rounds(loop_id)
    assert [row["kind"] for row in rounds] == ["dynamic"] * 3
    # the observation joins the response with the meaning of its error code, from the API docs
    assert (
        "E_BAD_ARGUMENT" in rounds[0]["observation"] and "Documentation: Error E_BAD_ARGUMENT" in rounds[0]["feedback"]
    )
    assert rounds[0]["feedback"].endswith("then rewrite the program.")
    # listed for a person, from the CLI too
    listed = json.loads(CliRunner().invoke(cli, ["logs", "--limit-hit", "--json"]).output)
    assert [item["id"] for item in listed] == [loop_id]
    # the person sends the corrected program: logged as the loop's human round, fixed by hand
    fixed = send_by_hand(where, load_settings(where), RIGHT, log=log, loop_id=loop_id)
    assert fixed.ok and fixed.response == ["Xuan-Truong Vu"] and fixed.loop_status == "fixed_by_hand"
    assert log.rounds(loop_id)[-1]["kind"] == "human"


def test_template_programs_pass_the_scanner_clean(where, engine_with):
    """Every intent's and every generated plan's program is what AutoFeedback expects: no finding,
    so no wasted round."""
    from scholar_tui.core.soay.plans import default_plans

    engine = engine_with(ScriptedLLM())
    for intent in INTENTS:
        source = intent.program_for("Marcus Michelen" if intent.entity == "person" else "Zeros of derivatives")
        assert engine.feedback.feedback.scan_program(source, intent.seen_phrasings[0], list(intent.solution)) == [], (
            intent.key
        )
    for plan in default_plans():
        source = plan.program_for(
            "Marcus Michelen" if plan.start != "paper" else "Zeros of derivatives",
            "Xuan-Truong Vu",
            "random polynomials",
            2022,
        )
        assert engine.feedback.feedback.scan_program(source, plan.description, list(plan.solution)) == [], plan.key


def test_a_failing_template_program_goes_to_the_model_with_the_feedback(where, engine_with, imported):
    from scholar_tui.core.soay.intents import INTENTS_BY_KEY

    intent = INTENTS_BY_KEY["coauthor_names"]
    llm = ScriptedLLM(RIGHT)
    engine = engine_with(llm, code_mode="template")
    # a template whose call fails (as one would on a backend that lost the record): the model gets it
    broken = intent.program_for("Marcus Michelen").replace("person['person_id']", "'person:999999'")
    original = engine._program
    engine._program = lambda q, i, e, previous: broken if previous is None else original(q, i, e, previous)
    answer = final_answer(engine.run(QUESTION))
    assert answer.ok and answer.value == ["Xuan-Truong Vu"]
    assert answer.feedback["dynamic_rounds"] == 1 and answer.feedback["status"] == "solved"
    assert "person:999999" in llm.history[0].prompt  # the model saw the failed template


async def test_the_debugger_lists_a_soay_loop_and_a_person_fixes_it(where, engine_with, make_app):
    answer = final_answer(engine_with(ScriptedLLM(WRONG_VALUE, WRONG_VALUE, WRONG_VALUE)).run(QUESTION))
    loop_id = answer.feedback["loop_id"]
    app = make_app()
    async with app.run_test(size=(150, 50)) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        loops = app.query_one("#debugger-loops", DataTable)
        await pilot.click("#debugger-limit-hit")
        await pilot.pause()
        assert loops.row_count == 1 and loops.get_row_at(0)[0] == str(loop_id) and str(loops.get_row_at(0)[2]) == "soay"
        loops.focus()
        loops.move_cursor(row=0)
        await pilot.press("enter")
        await pilot.pause()
        editor = app.query_one("#debugger-request", TextArea)
        assert editor.text == WRONG_VALUE
        editor.text = RIGHT
        await pilot.press("ctrl+s")
        await wait_for_workers(pilot)
        response = str(app.query_one("#debugger-response", Static).render())
        assert "fixed_by_hand" in response and "Xuan-Truong Vu" in response
        await pilot.press("ctrl+q")
    assert FeedbackLog(where).loop(loop_id)["status"] == "fixed_by_hand"
