"""SoAy end to end on the real sample: solution library, entity spans, engine, sandbox, bench."""

import json

import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.library.apis import SPECS, local_api
from scholar_tui.core.soay.bench import score_method
from scholar_tui.core.soay.engine import SoAyEngine, final_answer
from scholar_tui.core.soay.intents import INTENTS
from scholar_tui.core.soay.prompts import SoAyRecord
from scholar_tui.core.soay.solutions import FUZZY_APIS, solution_library
from scholar_tui.core.soay.titles import find_entity

from .conftest import ScriptedLLM


def test_solution_library_is_valid_and_simple():
    solutions = solution_library(SPECS)
    assert len(solutions) == 15
    assert all(solution.head in FUZZY_APIS and solution.hops <= 3 for solution in solutions)
    apis = {solution.apis for solution in solutions}
    assert ("searchPublication", "getPublication", "getPersonBasicInfo") in apis  # through the authors
    assert ("searchPerson", "getPersonBasicInfo", "getCoauthors") not in apis  # a detour
    assert all(len(set(solution.apis)) == solution.hops for solution in solutions)
    for intent in INTENTS:
        assert intent.solution in apis, intent.key
        assert len(intent.seen_phrasings) >= 3 and intent.held_out_phrasing not in intent.seen_phrasings


def test_entities_are_spans_of_the_question(imported):
    api = local_api(imported)
    mention = find_entity("What topics does Michelen study?", api)
    assert (mention.kind, mention.text, mention.matched) == ("person", "Michelen", "Marcus Michelen")
    question = "Who wrote 'Training Integer-Only Deep Recurrent Neural Networks'?"
    mention = find_entity(question, api)
    assert mention.kind == "paper" and mention.text in question
    assert mention.masked(question, "{title}") == "Who wrote '{title}'?"
    assert find_entity("What is the weather like today?", api) is None


def ask(engine, question: str):
    return final_answer(engine.run(question))


@pytest.fixture
def engine(imported, real_embedder):
    engine = SoAyEngine(local_api(imported), choice_mode="retrieval")
    yield engine
    engine.close()


@pytest.mark.embeddings
def test_a_typed_question_gets_solution_program_result_and_answer(engine):
    answer = ask(engine, "Who did Marcus Michelen work with?")
    assert answer.ok, answer.error
    assert answer.solution == ["searchPerson", "getCoauthors"]
    assert "getCoauthors(person_id=person['person_id'])" in answer.program
    assert answer.value == ["Xuan-Truong Vu"]
    assert "Xuan-Truong Vu" in answer.answer
    assert [call["name"] for call in answer.result["calls"]] == ["searchPerson", "getCoauthors"]


@pytest.mark.embeddings
def test_three_hop_question_through_a_papers_first_author(engine):
    answer = ask(
        engine,
        "Which collaborators does the first author of Zeros of a growing number of derivatives of "
        "random polynomials with independent roots have?",
    )
    assert answer.ok and answer.solution == ["searchPublication", "getPublication", "getCoauthors"]
    assert answer.value == ["Xuan-Truong Vu"]


@pytest.mark.embeddings
def test_events_stream_in_order(engine):
    events = list(engine.run("How many papers has Marcus Michelen published?"))
    names = [type(event).__name__ for event in events]
    assert names == ["EntityLinked", "SolutionChosen", "ProgramWritten", "ProgramRan", "AnswerPhrased", "Finished"]
    assert events[0].summary() == "entity: Marcus Michelen (person “Marcus Michelen”)"
    assert events[-1].to_json()["value"] == 1 and events[-1].to_json()["kind"] == "finished"


@pytest.mark.embeddings
def test_a_model_program_that_loops_forever_is_stopped_and_scored_ee(imported, real_embedder):
    forever = "n = 0\nwhile True:\n    n += 1"
    llm = ScriptedLLM(forever, forever)  # once asked directly, once through the bench's scoring
    engine = SoAyEngine(local_api(imported), llm_provider=lambda: llm, choice_mode="retrieval", code_mode="model")
    try:
        answer = ask(engine, "How many papers has Marcus Michelen published?")
        assert not answer.ok and answer.error_stage == "run"
        assert answer.result["error_kind"] == "steps"
        gold = SoAyRecord(
            "pubs-0-test",
            "How many papers has Marcus Michelen published?",
            ["searchPerson", "getPersonPubs"],
            "",
            1,
            1,
            "test",
        )
        run = score_method("model code", lambda question: ask(engine, question), [gold])
        assert run.rows[0]["outcome"] == "EE" and run.report.by_hops[1].rates["EE"] == 100.0
        # the engine (and its sandbox) goes on answering
        engine.code_mode = "template"
        assert ask(engine, "How many papers has Marcus Michelen published?").value == 1
    finally:
        engine.close()


@pytest.mark.embeddings
def test_gen_bench_writes_gold_answers_by_execution(imported, where):
    out = where.data_dir / "bench.jsonl"
    result = CliRunner().invoke(cli, ["soay", "gen-bench", "--out", str(out), "--per-intent", "2"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    tests = [r for r in records if r["split"] == "test"]
    assert {r["hops"] for r in tests} == {1, 2, 3}
    intents = {intent.key: intent for intent in INTENTS}
    for record in tests:
        intent = intents[record["id"].rsplit("-", 2)[0]]
        assert record["question"] != intent.held_out_phrasing and record["answer"] not in (None, [], "")
        assert record["solution"] == list(intent.solution)


def test_ask_without_a_library_entity_is_one_line(imported, real_embedder, monkeypatch):
    result = CliRunner().invoke(cli, ["ask", "What is the weather like today?", "--choice", "retrieval"])
    assert result.exit_code == 1
    assert "no scholar or paper of the library is named in the question" in result.output
