"""`scholar-tui logs prompts` (issue #23): the prompt log read by a person, each call linked to the
crawl, question or loop that made it (models/origin.py, migration m009_llm_call_origins)."""

from __future__ import annotations

import json
import threading

import pytest
from click.testing import CliRunner

from scholar_tui.app import cli_logs
from scholar_tui.app.cli import cli
from scholar_tui.core.autofeedback import FeedbackLimits, FeedbackLoop
from scholar_tui.core.sandbox import APICall
from scholar_tui.indexes.autofeedback_log import FeedbackLog
from scholar_tui.indexes.db import open_database
from scholar_tui.indexes.prompt_log import PromptLog
from scholar_tui.models.origin import ORIGIN_KINDS, logs_prompts_as, prompt_origin

from .autofeedback_support import INSTRUCTION
from .conftest import ScriptedLLM
from .pasa_support import RoutedLLM
from .test_pasa_engine import SEARCH_GNN, make_agent

HOSTILE = "\x1b]0;PWNED\x07\x1b[2Jwipe\x9b31m"


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def logged(where) -> list[dict]:
    return list(open_database(where).query("select * from llm_calls order by id"))


def logging_llm(where, llm: ScriptedLLM) -> ScriptedLLM:
    llm.add_sink(PromptLog(where).record)
    return llm


@pytest.fixture
def three_calls(where):
    """A question's call, its AutoFeedback loop's call (a chat), and a call made outside any run."""
    llm = logging_llm(where, ScriptedLLM("the reply", "a chat reply", "plain"))
    with prompt_origin("soay", text="Who worked with Michelen?") as question:
        llm.complete("Write a program.\nSecond line of the prompt", max_tokens=64)
        with prompt_origin("autofeedback", 12, "fix the program"):
            llm.chat([{"role": "system", "content": "You fix programs."}, {"role": "user", "content": "fix it"}])
    llm.complete("outside any run")
    return question.run


def test_the_list_shows_time_model_origin_usage_and_the_prompts_first_line(three_calls):
    result = run("logs", "prompts")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 6  # two lines a call, newest first
    assert lines[0].split()[0] == "3" and "scripted  -" in lines[0] and lines[1].strip() == "outside any run"
    assert f"autofeedback 12 in soay {three_calls}" in lines[2] and '"fix the program"' in lines[2]
    assert lines[3].strip() == "fix it"  # a chat is listed by its user's message
    assert f"soay {three_calls}" in lines[4] and "tokens ·" in lines[4] and lines[4].endswith(" s")
    assert lines[5].strip() == "Write a program."


def test_the_list_keeps_one_kind_or_one_run_with_the_runs_inside_it(three_calls):
    by_kind = json.loads(run("logs", "prompts", "--origin", "soay", "--json").output)
    assert [row["id"] for row in by_kind] == [2, 1]  # the loop inside the question counts as the question's
    by_loop = json.loads(run("logs", "prompts", "--run", "12", "--json").output)
    assert [(row["origin"], row["origin_run"], row["parent_run"]) for row in by_loop] == [
        ("autofeedback", "12", three_calls)
    ]
    assert [row["id"] for row in json.loads(run("logs", "prompts", "-n", "1", "--json").output)] == [3]
    assert len(json.loads(run("logs", "prompts", "-n", "0", "--json").output)) == 3
    nothing = run("logs", "prompts", "--origin", "pasa")
    assert nothing.exit_code == 0 and nothing.output == "No logged model call matches --origin pasa.\n"


def test_show_prints_one_call_whole_and_as_json(three_calls):
    shown = run("logs", "prompts", "show", "1").output
    assert shown.startswith("call 1 · ") and "scripted (scripted) · completion · stop" in shown
    assert f'origin: soay {three_calls} · "Who worked with Michelen?"' in shown
    assert '"max_tokens": 64' in shown and "usage: " in shown
    assert "prompt:\nWrite a program.\nSecond line of the prompt\n\nreply:\nthe reply" in shown
    row = json.loads(run("logs", "prompts", "show", "2", "--json").output)
    assert row["messages"][1] == {"role": "user", "content": "fix it"}  # JSON columns read, not strings
    assert row["options"]["max_tokens"] == 256 and row["schema"] is None and row["response"] == "a chat reply"
    assert (row["origin"], row["origin_run"], row["parent_origin"]) == ("autofeedback", "12", "soay")
    missing = run("logs", "prompts", "show", "99")
    assert missing.exit_code == 1 and "no logged model call 99" in missing.output
    beyond = run("logs", "prompts", "show", str(2**70))  # past SQLite's integers: one line, no OverflowError
    assert beyond.exit_code == 1 and f"no logged model call {2**70}" in beyond.output
    assert len(json.loads(run("logs", "prompts", "-n", str(2**70), "--json").output)) == 3


def test_hostile_model_text_is_shown_escaped(where):
    llm = logging_llm(where, ScriptedLLM(f"reply {HOSTILE}"))
    with prompt_origin("conference", text=f"question {HOSTILE}"):
        llm.complete(f"prompt {HOSTILE}")
    for output in (run("logs", "prompts").output, run("logs", "prompts", "show", "1").output):
        assert "\x1b" not in output and "\x07" not in output and "\x9b" not in output
        assert "\\x1b]0;PWNED\\x07" in output
    shown = run("logs", "prompts", "show", "1").output
    assert "reply \\x1b]0;PWNED" in shown and "question \\x1b]0;PWNED" in shown
    as_json = run("logs", "prompts", "show", "1", "--json").output
    assert "\x1b" not in as_json and "\x9b" not in as_json
    assert json.loads(as_json)["response"] == f"reply {HOSTILE}"  # escaped on screen, whole in the JSON


def test_logs_alone_still_lists_autofeedback_loops():
    result = run("logs", "--limit-hit")
    assert result.exit_code == 0 and "nothing waits for a person" in result.output


def test_the_cli_offers_every_origin_kind():
    assert cli_logs.ORIGIN_KINDS == ORIGIN_KINDS  # written out there to keep `--help` lean


def test_an_engine_request_driven_from_another_thread_is_traced_only_while_it_runs(where):
    """The origin is set inside the generator, step by step: a worker thread that drives it logs
    its calls under it, and a call the consumer makes between two events is not the engine's."""
    llm = logging_llm(where, ScriptedLLM())

    class Engine:
        @logs_prompts_as("pasa", text="query")
        def run(self, query: str):
            llm.complete("engine step 1")
            yield "first"
            llm.complete("engine step 2")
            yield "second"

    def consume() -> None:
        for _ in Engine().run("graph neural networks"):
            llm.complete("the consumer's own call")

    worker = threading.Thread(target=consume)
    worker.start()
    worker.join()
    rows = {row["prompt"]: row for row in logged(where)}
    assert rows["engine step 1"]["origin"] == rows["engine step 2"]["origin"] == "pasa"
    assert rows["engine step 1"]["origin_run"] == rows["engine step 2"]["origin_run"]
    assert rows["engine step 1"]["origin_text"] == "graph neural networks"
    assert rows["the consumer's own call"]["origin"] is None


# -- each engine, with a scripted model, logs its calls with its origin ------------------------------
def test_a_pasa_crawl_logs_its_calls_as_one_run(where, mini_library):
    llm = logging_llm(where, RoutedLLM(search=[SEARCH_GNN]))
    events = list(make_agent(where, mini_library, llm).run("graph neural networks"))
    rows = logged(where)
    assert len(rows) == events[-1].llm_calls > 1
    assert {(row["origin"], row["origin_text"]) for row in rows} == {("pasa", "graph neural networks")}
    assert len({row["origin_run"] for row in rows}) == 1
    again = list(make_agent(where, mini_library, llm).run("graph neural networks"))
    assert again[-1].kind == "finished"
    assert len({row["origin_run"] for row in logged(where)}) == 2  # each crawl a run of its own


def test_an_autofeedback_loop_logs_its_calls_under_its_loop_id(where, hashed_feedback):
    llm = logging_llm(where, ScriptedLLM())

    def generate(history) -> str:
        return llm.complete(f"write the request, round {len(history) + 1}").text

    def server(request: str) -> APICall:
        return APICall("nothing", {}, False, error="E_UNKNOWN_API: no API", error_code="E_UNKNOWN_API")

    loop = FeedbackLoop(hashed_feedback, FeedbackLimits(1, 1), log=FeedbackLog(where), source="test")
    result = loop.run(INSTRUCTION, generate, server)
    rows = logged(where)
    assert len(rows) == len(result.rounds) >= 2
    assert {(row["origin"], row["origin_run"], row["origin_text"]) for row in rows} == {
        ("autofeedback", str(result.loop_id), INSTRUCTION)
    }
    listed = json.loads(run("logs", "prompts", "--run", str(result.loop_id), "--json").output)
    assert [row["id"] for row in listed] == [row["id"] for row in reversed(rows)]


def test_a_conference_question_logs_its_calls_with_the_question(where, monkeypatch):
    from .conference_fakes import HashingEmbedder
    from .test_conference_cli import TINY_DIR

    monkeypatch.setattr("scholar_tui.models.load_embedder", lambda settings: HashingEmbedder())
    llm = ScriptedLLM("2")
    monkeypatch.setattr("scholar_tui.models.load_llm", lambda settings, where=None: llm)
    run("conf", "import", str(TINY_DIR / "TINY2024.json"))
    question = "How much is virtual registration for ACM members?"
    asked = run("conf", "ask", "TINY2024", question, "--method", "path", "--answerer", "choose")
    assert asked.exit_code == 0, asked.output
    listed = json.loads(run("logs", "prompts", "--origin", "conference", "--json").output)
    assert listed and {(row["origin"], row["origin_text"]) for row in listed} == {("conference", question)}
    assert listed[0]["response"] == "2"


@pytest.mark.shared_data
def test_a_soay_question_logs_its_loops_calls_under_the_question(where, imported, hashed_feedback):
    from scholar_tui.core.library.apis import local_api
    from scholar_tui.core.soay.engine import SoAyEngine

    from .test_soay_feedback import QUESTION, RIGHT, WRONG_PARAMETER

    llm = logging_llm(where, ScriptedLLM(WRONG_PARAMETER, RIGHT))
    loop = FeedbackLoop(hashed_feedback, log=FeedbackLog(where), source="soay")
    engine = SoAyEngine(
        local_api(imported), llm_provider=lambda: llm, choice_mode="retrieval", code_mode="model", feedback=loop
    )
    events = list(engine.run(QUESTION))
    assert events[-1].answer.ok
    loop_id = next(event.loop_id for event in events if event.kind == "feedback_finished")
    rows = logged(where)
    assert len(rows) == 2  # the program, then the program fixed from the feedback
    assert {(row["origin"], row["origin_run"], row["parent_origin"]) for row in rows} == {
        ("autofeedback", str(loop_id), "soay")
    }
    question_run = rows[0]["parent_run"]
    listed = json.loads(run("logs", "prompts", "--run", question_run, "--json").output)
    assert [row["id"] for row in listed] == [2, 1]
