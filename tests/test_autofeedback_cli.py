"""`scholar-tui logs`, `feedback check|send` and `bench feedback` as a person runs them."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.autofeedback.bench import SEEDED_TYPES, make_cases, make_tasks, seed_error
from scholar_tui.core.library.apis import local_api
from scholar_tui.indexes.autofeedback_log import FeedbackLog

from .autofeedback_support import limit_hit_loop


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_logs_lists_loops_filters_and_shows_rounds(where):
    loop_id = limit_hit_loop(where)
    listed = json.loads(run("logs", "--json").stdout)
    assert [loop["status"] for loop in listed] == ["solved", "limit_hit"]
    only = json.loads(run("logs", "--limit-hit", "--json").stdout)
    assert [loop["id"] for loop in only] == [loop_id] and only[0]["rounds"] == 4
    text = run("logs", "--loop", str(loop_id)).output
    assert "limit_hit" in text and "#4 dynamic E2.2" in text and "E_UNKNOWN_API" in text
    missing = CliRunner().invoke(cli, ["logs", "--loop", "999"])
    assert missing.exit_code == 1 and "no AutoFeedback loop 999" in missing.output


def test_send_by_hand_logs_a_human_round_and_fixes_the_loop(where, imported):
    loop_id = limit_hit_loop(where)
    bad = json.loads(
        run(
            "feedback",
            "send",
            '<<API>>getCoauthors(person_id="person:99999")<</API>>',
            "--loop",
            str(loop_id),
            "--json",
        ).stdout
    )
    assert not bad["ok"] and bad["response"]["code"] == "E_NOT_FOUND" and bad["loop_status"] == "limit_hit"
    good = json.loads(
        run("feedback", "send", 'getCoauthors(person_id="person:1")', "--loop", str(loop_id), "--json").stdout
    )
    assert good["ok"] and good["round"] == 6 and good["loop_status"] == "fixed_by_hand"
    assert good["response"][0]["name"] == "Xuan-Truong Vu"
    rows = FeedbackLog(where).rounds(loop_id)
    assert [row["kind"] for row in rows[-2:]] == ["human", "human"] and rows[-1]["ok"] == 1


def test_a_program_can_be_sent_by_hand(where, imported):
    program = "people = searchPerson(name='Michelen')\nanswer = getCoauthors(person_id=people[0]['person_id'])\nanswer"
    result = json.loads(run("feedback", "send", program, "--json").stdout)
    assert result["sent"] == "program" and result["kind"] == "sent_by_hand"
    assert result["ok"], result


@pytest.mark.embeddings
def test_feedback_check_prints_the_sub_type_and_its_feedback(where):
    result = run(
        "feedback",
        "check",
        '<<API>>getCoauthors(personId="person:1")<</API>>',
        "-i",
        "Who are the coauthors of person:1?",
    )
    assert "E3.2  at the parameter personId of getCoauthors  returns ['personId', 'person_id']" in result.output
    assert "Write person_id= instead of personId=" in result.output
    findings = json.loads(
        run(
            "feedback",
            "check",
            "<<API>>getCoauthors(person_id=1)<</API>>",
            "-i",
            "Who are the coauthors of person:1?",
            "--json",
        ).stdout
    )["findings"]
    assert [(f["sub_type"], f["returns"][0]) for f in findings] == [("E4.1", "person_id")]
    assert 'Write it as person_id="1"' in findings[0]["feedback"]


def test_seeded_errors_are_made_from_the_specs_for_every_sub_type(imported):
    tasks = make_tasks(local_api(imported), imported, per_api=1)
    assert sorted({task.api for task in tasks}) == sorted(
        [
            "searchPerson",
            "searchPublication",
            "getCoauthors",
            "getPersonInterest",
            "getPublication",
            "getPersonBasicInfo",
            "getPersonPubs",
        ]
    )
    cases = make_cases(tasks, per_type=2, per_api_model=1)
    assert [c.seeded_type for c in cases if c.origin == "seeded"] == [t for t in SEEDED_TYPES for _ in range(2)]
    assert sum(c.origin == "model" for c in cases) == 7
    task = next(t for t in tasks if t.api == "getCoauthors")
    assert seed_error("E2.2", task, 0).startswith("<<API>>get_coauthors(")
    assert seed_error("E3.2", task, 0) == f'<<API>>getCoauthors(personId="{task.value}")<</API>>'
    assert seed_error("E4.1", task, 0) == f"<<API>>getCoauthors(person_id={task.value.split(':')[1]})<</API>>"


@pytest.mark.llm
@pytest.mark.embeddings
def test_bench_feedback_runs_offline_on_a_small_slice(where, imported, monkeypatch):
    monkeypatch.setenv("SCHOLAR_TUI_LLM__N_THREADS", "1")  # fastest on a shared 2-core machine
    result = run("bench", "feedback", "--per-type", "1", "--per-api", "0", "--only", "E2.2", "--json")
    report = json.loads(result.stdout)
    assert report["cases"] == 1 and report["seeded"] == 1 and report["from_model"] == 0
    methods = {row["method"]: row for row in report["methods"]}
    assert set(methods) == {"no feedback", "static", "dynamic", "static+dynamic"}
    assert methods["no feedback"]["accuracy"] == 0.0 and methods["no feedback"]["E2"] == 100.0  # wrong as written
    # E2.2 is found before the relevant set matters, so its detection does not hang on the retriever
    assert {row["seeded"]: row["detected"] for row in report["detection"]} == {"E2.2": 1}
    static = next(o for o in report["outcomes"] if o["method"] == "static")
    assert static["first"].startswith("<<API>>search_person(") and static["generations"] >= 1
    assert len(report["outcomes"]) == 4
    text = run("bench", "feedback", "--only", "E9")
    assert "unknown sub-type E9" in text.output
