"""The feedback loops: limits (3 static, 2 dynamic), ReAct records, durable logs, the model's prompts."""

from __future__ import annotations

from scholar_tui.core.autofeedback import FeedbackLimits, FeedbackLoop, Generation
from scholar_tui.core.autofeedback.request_generator import ModelRequestGenerator, request_grammar
from scholar_tui.core.sandbox import APICall
from scholar_tui.indexes.autofeedback_log import FeedbackLog

from .autofeedback_support import INSTRUCTION
from .conftest import ScriptedLLM

GOOD = '<<API>>getCoauthors(person_id="person:1")<</API>>'
LITERAL = '<<API>>get_coauthors(person_id="person:1")<</API>>'  # E2.2: found without embeddings


class Script:
    """A generator that answers from a list (the last answer repeats) and keeps what it was shown."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.seen: list[list] = []

    def __call__(self, history):
        self.seen.append(list(history))
        return self.answers[min(len(self.seen) - 1, len(self.answers) - 1)]


def server(request: str) -> APICall:
    """A stand-in API server: only the good request answers."""
    if "getCoauthors(person_id=" in request:
        return APICall(
            "getCoauthors", {"person_id": "person:1"}, True, result=[{"person_id": "person:2", "name": "Vu"}]
        )
    name = request.split("<<API>>")[-1].split("(")[0]
    return APICall(name, {}, False, error=f"E_UNKNOWN_API: no API named {name!r}", error_code="E_UNKNOWN_API")


def test_static_then_dynamic_limits_then_the_loop_waits_for_a_person(where, hashed_feedback):
    script = Script(LITERAL)
    log = FeedbackLog(where)
    result = FeedbackLoop(hashed_feedback, FeedbackLimits(3, 2), log=log, source="test").run(
        INSTRUCTION, script, server, relevant=["getCoauthors"]
    )
    assert result.status == "limit_hit"
    assert [r.kind for r in result.rounds] == ["static"] * 3 + ["dynamic"] * 3
    assert len(script.seen) == 1 + 3 + 2  # the first request, 3 static and 2 dynamic regenerations
    assert [r.sub_type for r in result.rounds] == ["E2.2"] * 6  # still E2.2 when sent after the static limit
    assert result.static_rounds == 3 and result.dynamic_rounds == 2
    # dynamic feedback is the ReAct trace: the action is the request, the observation the response
    # joined with the error's meaning retrieved from the documentation
    last_feedback = script.seen[-1][-1].feedback
    assert last_feedback.count("Action: <<API>>get_coauthors") == 2
    assert "E_UNKNOWN_API" in last_feedback and "Documentation:" in last_feedback
    assert script.seen[-1][-1].observation.meaning is not None
    loop = log.loop(result.loop_id)
    assert (loop["status"], loop["static_rounds"], loop["dynamic_rounds"]) == ("limit_hit", 3, 2)


def test_limits_come_from_the_settings(where, settings, hashed_feedback):
    settings.autofeedback.static_rounds = 1
    settings.autofeedback.dynamic_rounds = 0
    script = Script(LITERAL)
    result = FeedbackLoop(hashed_feedback, FeedbackLimits.from_settings(settings)).run(
        INSTRUCTION, script, server, relevant=["getCoauthors"]
    )
    assert [r.kind for r in result.rounds] == ["static", "dynamic"] and result.status == "limit_hit"
    assert FeedbackLimits.from_settings(type(settings)()) == FeedbackLimits(3, 2)


def test_an_unreadable_request_is_never_sent(hashed_feedback):
    sent = []
    result = FeedbackLoop(hashed_feedback, FeedbackLimits(3, 2)).run(
        INSTRUCTION, Script("I would ask for the coauthors."), lambda text: sent.append(text)
    )
    assert sent == [] and result.status == "limit_hit"
    assert [(r.kind, r.sub_type, r.feedback is not None) for r in result.rounds] == [("static", "E1", True)] * 3 + [
        ("static", "E1", False)
    ]


def test_static_feedback_reaches_the_generator_and_a_fix_solves_the_loop(hashed_feedback):
    script = Script(LITERAL, GOOD)
    result = FeedbackLoop(hashed_feedback).run(INSTRUCTION, script, server, relevant=["getCoauthors"])
    assert result.status == "solved" and result.final_request == GOOD
    record = script.seen[1][0]
    assert record.kind == "static" and record.finding.sub_type == "E2.2"
    assert "Write getCoauthors instead of get_coauthors" in record.feedback
    assert result.final_observation.satisfied


def test_an_empty_response_is_unsatisfying_and_gets_dynamic_feedback(hashed_feedback):
    def empty_then_good(request):
        found = request.endswith('"person:2")<</API>>')
        return APICall("getCoauthors", {"person_id": "person:9"}, True, result=[{"name": "x"}] if found else [])

    script = Script(
        '<<API>>getCoauthors(person_id="person:9")<</API>>', '<<API>>getCoauthors(person_id="person:2")<</API>>'
    )
    result = FeedbackLoop(hashed_feedback).run(INSTRUCTION, script, empty_then_good, relevant=["getCoauthors"])
    assert [(r.kind, r.sub_type) for r in result.rounds] == [("dynamic", "E4.other"), ("dynamic", None)]
    assert "returned an empty result" in result.rounds[0].observation.reason
    assert result.rounds[0].observation.meaning  # what the docs say (its relevance: test_autofeedback_dynamic)
    assert result.status == "solved"


def test_every_round_is_committed_before_the_next_one_starts(where, hashed_feedback):
    seen_by_another_connection: list[int] = []

    def generate(history):
        reader = FeedbackLog(where)  # a fresh connection, as another process would open one
        loop = reader.loops(limit=1)
        seen_by_another_connection.append(len(reader.rounds(loop[0]["id"])) if loop else -1)
        reader.close()
        return LITERAL if len(history) < 2 else GOOD

    result = FeedbackLoop(hashed_feedback, log=FeedbackLog(where)).run(
        INSTRUCTION, generate, server, relevant=["getCoauthors"]
    )
    assert seen_by_another_connection == [0, 1, 2]
    rows = FeedbackLog(where).rounds(result.loop_id)
    assert [(row["round"], row["kind"], row["sub_type"], row["ok"]) for row in rows] == [
        (1, "static", "E2.2", 0),
        (2, "static", "E2.2", 0),
        (3, "dynamic", None, 1),
    ]
    assert rows[0]["returns"] == ["get_coauthors", "getCoauthors"] and "E2.2" in rows[0]["feedback"]
    assert rows[2]["response"] == [{"person_id": "person:2", "name": "Vu"}]
    assert FeedbackLog(where).loop(result.loop_id)["status"] == "solved"


def test_tokens_and_thoughts_from_the_generator_are_logged(where, hashed_feedback):
    answers = iter(
        [
            Generation(GOOD.replace("person:1", "person:7"), prompt_tokens=300, completion_tokens=20),
            Generation(GOOD, thought="person:7 was not found; try person:1", prompt_tokens=350, completion_tokens=40),
        ]
    )

    def server7(request):
        if "person:7" in request:
            return APICall(
                "getCoauthors",
                {"person_id": "person:7"},
                False,
                error="E_NOT_FOUND: no person person:7",
                error_code="E_NOT_FOUND",
            )
        return server(request)

    result = FeedbackLoop(hashed_feedback, log=FeedbackLog(where)).run(
        INSTRUCTION, lambda h: next(answers), server7, relevant=["getCoauthors"]
    )
    rows = FeedbackLog(where).rounds(result.loop_id)
    assert [(r["prompt_tokens"], r["completion_tokens"]) for r in rows] == [(300, 20), (350, 40)]
    assert rows[1]["thought"] == "person:7 was not found; try person:1" and rows[0]["sub_type"] == "E4.other"
    assert "E_NOT_FOUND" in rows[0]["observation"] and result.tokens == 710


def test_the_model_writes_under_the_grammar_and_sees_the_feedback():
    llm = ScriptedLLM(LITERAL, "Thought: use the documented name\n" + GOOD)
    generator = ModelRequestGenerator(llm)
    first = generator.generate(INSTRUCTION, [])
    assert first.text == LITERAL and first.thought is None
    assert llm.history[0].grammar == generator.grammar and '"getCoauthors"' in generator.grammar
    from scholar_tui.core.autofeedback.loop import FeedbackRecord

    record = FeedbackRecord("dynamic", LITERAL, "Action: x\nObservation: E_UNKNOWN_API")
    second = generator.generate(INSTRUCTION, [record])
    assert second.text == GOOD and second.thought == "use the documented name"
    prompt = llm.history[1].messages[1]["content"]
    assert "Observation: E_UNKNOWN_API" in prompt and LITERAL in prompt
    assert llm.history[1].grammar == generator.react_grammar
    assert llm.history[0].messages[0] == llm.history[1].messages[0]  # a fixed prefix, for the KV cache
    assert "[a-zA-Z_]" in request_grammar(constrain_names=False)


def test_a_soay_style_program_is_fixed_by_static_feedback_and_runs_in_the_sandbox(where, hashed_feedback, imported):
    """How SoAy calls the loop: programs in, a sandbox to run them, the solution's APIs as R."""
    from scholar_tui.core.library.apis import SPECS
    from scholar_tui.core.library.sandbox_apis import FACTORY, academic_functions, sandbox_kwargs
    from scholar_tui.core.sandbox import Sandbox

    wrong = "people = searchPerson(name='Michelen')\nanswer = get_coauthors(person_id=people[0]['person_id'])\n"
    right = "people = searchPerson(name='Michelen')\nanswer = getCoauthors(person_id=people[0]['person_id'])\n"
    script = Script(wrong, right + "answer\n")
    kwargs = sandbox_kwargs(where)
    assert callable(academic_functions(**kwargs)["getCoauthors"])
    with Sandbox(FACTORY, kwargs, api_names=set(SPECS)) as box:
        result = FeedbackLoop(hashed_feedback, log=FeedbackLog(where), source="soay").run(
            "Who are the coauthors of Marcus Michelen?",
            script,
            box.run,
            mode="program",
            relevant=["searchPerson", "getCoauthors"],
        )
    assert [(r.kind, r.sub_type) for r in result.rounds] == [("static", "E2.2"), ("dynamic", None)]
    assert "at line 2 of the program" in script.seen[1][0].feedback
    assert result.status == "solved" and result.final_response.ok
    assert [call.name for call in result.final_response.calls] == ["searchPerson", "getCoauthors"]
    assert FeedbackLog(where).loop(result.loop_id)["mode"] == "program"
