"""`scholar-tui conf …` as a person runs it: import, list, ask, eval; one-line errors."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli

from .conference_fakes import HashingEmbedder

TINY_DIR = Path(__file__).parent / "fixtures" / "conference" / "tinyqa"


@pytest.fixture
def fast_embedder(monkeypatch):
    """The real embedder costs a minute here on 2 cores; retrieval quality is tested apart."""
    embedder = HashingEmbedder()
    monkeypatch.setattr("scholar_tui.models.load_embedder", lambda settings: embedder)
    return embedder


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_import_list_and_ask_without_a_model(fast_embedder):
    result = run("conf", "import", str(TINY_DIR / "TINY2024.json"))
    assert result.exit_code == 0, result.output
    assert "imported TINY2024" in result.output and "descriptions 49 generated / 0 cached (structural)" in result.output
    again = run("conf", "import", str(TINY_DIR / "TINY2024.json"), "--json")
    assert json.loads(again.output)["generated"] == 0
    listed = json.loads(run("conf", "list", "--json").output)
    assert [(row["name"], row["leaves"], row["describer"]) for row in listed] == [("TINY2024", 27, "structural")]
    asked = json.loads(run("conf", "ask", "TINY2024", "When does the author rebuttal period end?", "--json").output)
    assert asked["answer"] == "March 19, 2024" and asked["cited"] == [1] and asked["answer_mode"] == "computed"
    assert asked["evidence"][0]["path"].endswith("Author rebuttal period ends»March 19, 2024")
    assert len(asked["evidence"]) == 5 and asked["kind"] == "answered"
    shown = run("conf", "ask", "TINY2024", "How much is virtual registration for ACM members?")
    assert "answer (span): $300" in shown.output
    assert " *1. " in shown.output and "ACM Members»Virtual»$300" in shown.output  # the cited path is marked
    # a path kept in the top 5 whatever its fused score says is marked so, with the reason
    kept = [item for item in asked["evidence"] if item["kept"]]
    assert kept and all(item["score"] < 1 for item in asked["evidence"])
    assert "(kept: the dense search's and BM25's best match)" in shown.output  # both rankers put it first


def test_ask_with_the_model_choosing_among_the_top_paths(fast_embedder, monkeypatch):
    from .conftest import ScriptedLLM

    llm = ScriptedLLM("2")
    monkeypatch.setattr("scholar_tui.models.load_llm", lambda settings, where=None: llm)
    run("conf", "import", str(TINY_DIR / "TINY2024.json"))
    result = run(
        "conf",
        "ask",
        "TINY2024",
        "How much is virtual registration for ACM members?",
        "--method",
        "path",
        "--answerer",
        "choose",
    )
    assert result.exit_code == 0, result.output
    evidence = [line for line in result.output.splitlines() if line[2:5] == "2. "]
    assert "scripted chose path 2" in result.output
    assert evidence[0].startswith(" *2. ")  # the answer cites the path the model chose
    # path 2 names the record ("type: ACM Members"): the answer is its field the question asks for
    assert evidence[0].endswith("ACM Members»type»ACM Members") and "answer (span): $300" in result.output
    assert "Number:" in llm.history[0].messages[0]["content"]


def test_errors_are_one_line(fast_embedder, tmp_path):
    result = CliRunner().invoke(cli, ["conf", "ask", "NOPE", "when?"])
    assert result.exit_code == 1 and "no conference named 'NOPE'" in result.output and "Traceback" not in result.output
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    result = CliRunner().invoke(cli, ["conf", "import", str(bad)])
    assert result.exit_code == 1 and "not valid JSON" in result.output
    result = CliRunner().invoke(cli, ["conf", "eval", str(tmp_path)])
    assert result.exit_code == 1 and "none of extraction_atomic.json" in result.output


def test_eval_on_the_tiny_directory_counts_types_and_unresolved_evidence(fast_embedder):
    report = json.loads(run("conf", "eval", str(TINY_DIR), "--json").output)
    assert [method["method"] for method in report["methods"]] == ["star", "path"]  # side by side, one run
    path = report["methods"][1]
    by_type = {row["question_type"]: row for row in path["by_type"]}
    assert {kind: row["questions"] for kind, row in by_type.items()} == {
        "extraction_atomic": 2,
        "extraction_complex": 1,
        "reasoning_atomic": 1,
        "reasoning_complex": 2,
    }
    assert by_type["reasoning_complex"]["resolved"] == 1  # "Dress Code" is not in the tree
    rebuttal = next(row for row in path["rows"] if "rebuttal" in row["question"])
    assert rebuttal["answer"] == "March 19, 2024" and rebuttal["f1"] == 1.0 and rebuttal["hit_at_1"]
    # STAR's gold for a yes/no question is a bare "Yes": the verdict is scored, its deciding sentence kept beside
    # (before: the whole "Yes, free on-site child care is offered …" scored F1 0.2 and EM 0)
    child_care = next(row for row in path["rows"] if row["question"] == "Is child care free?")
    assert child_care["answer"].startswith("Yes, free on-site child care is offered")
    assert child_care["value"] == child_care["scored"] == "Yes" and child_care["f1"] == 1.0 and child_care["em"] == 1.0


def test_ask_shows_a_verdict_with_the_sentence_that_decides_it(fast_embedder):
    assert run("conf", "import", str(TINY_DIR / "TINY2024.json")).exit_code == 0
    shown = run("conf", "ask", "TINY2024", "Is child care free?")
    lines = shown.output.splitlines()
    assert lines[0] == "answer (yes_no): Yes"
    assert lines[1] == "  because: free on-site child care is offered for registered attendees."
    asked = json.loads(run("conf", "ask", "TINY2024", "Is child care free?", "--json").output)
    assert (
        asked["value"] == "Yes" and asked["support"] == "free on-site child care is offered for registered attendees."
    )
    assert asked["answer"] == "Yes, free on-site child care is offered for registered attendees."
    assert asked["evidence"][asked["cited"][0] - 1]["value"].startswith("Free on-site child care")  # and its path


def test_eval_prints_both_methods_the_ablation_and_writes_the_misses(fast_embedder, tmp_path):
    errors = tmp_path / "misses.txt"
    result = run("conf", "eval", str(TINY_DIR), "--ablation", "--errors", str(errors))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "star F1" in lines[2] and "path F1" in lines[2] and "hit@5" in lines[2]
    assert any(line.startswith("STAR / path hit@5: ") for line in lines)
    # the full STAR row, the row without the record-field step, and the alternative stage 2
    rows = [line.split("  ")[0] for line in lines]
    assert "star dense + BM25 + rankers' heads kept + query expansion + tree (sections) + record fields" in rows
    assert "star dense + BM25 + rankers' heads kept + query expansion + tree (sections)" in rows
    assert "star dense + BM25 + query expansion + tree (siblings)" in result.output
    assert "built in" in lines[1]  # the index build time
    written = errors.read_text(encoding="utf-8")
    assert written.startswith("# TINY2024 · star · ")
    # the dress-code question has no evidence in the tree and a gold answer no path holds: a miss
    block = next(part for part in written.split("\n\n") if "dress code" in part)
    assert "gold answer: none given" in block and "gold path: (not found in the tree)" in block
    assert "missed: answer" in block and "answer (" in block
    assert len([line for line in block.splitlines() if line[:4] in ("  1.", "  2.", "  3.", "  4.", "  5.")]) == 5
    # a question answered right with its evidence found is not listed
    assert "When does the author rebuttal period end?" not in written


def test_eval_on_real_icml(fast_embedder, shared_data):
    directory = shared_data / "conferenceqa" / "ICML"
    result = run("conf", "eval", str(directory))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()  # progress, on a slow machine, goes to stderr
    assert "describer structural" in lines[0]
    assert "index: 4715 paths" in result.output  # ConferenceQA's Table 1 gives ICML2023 4715 paths
    rows = {
        line.split()[0]: line.split()
        for line in lines
        if line.split()
        and line.split()[0]
        in ("extraction_atomic", "extraction_complex", "reasoning_atomic", "reasoning_complex", "all")
    }
    assert {kind: int(row[1]) for kind, row in rows.items()} == {
        "extraction_atomic": 31,
        "extraction_complex": 27,
        "reasoning_atomic": 18,
        "reasoning_complex": 19,
        "all": 95,
    }
    assert rows["all"][-1] == "95/95"  # every `from` of ICML resolves to a tree node
    assert 0.0 < float(rows["all"][6]) <= 100.0  # STAR's hit@5 is measured and reported
    report = json.loads(run("conf", "eval", str(directory), "--json").output)
    assert report["index"]["generated"] == 0 and report["index"]["embedded"] == 0  # the second run reuses all
    assert [method["overall"]["resolved"] for method in report["methods"]] == [95, 95]


def test_eval_runs_a_person_set_beside_the_usual_figures(fast_embedder, tmp_path):
    """Right / wrong / abstained of a person's questions, in the same run as F1 and hit@k (text and --json);
    only the part asked for is run (the held-out quarter stays aside)."""
    person = tmp_path / "person.jsonl"
    person.write_text(
        "\n".join(
            json.dumps(row)
            for row in [
                {"question": "Where is TINY 2024 taking place?", "expect": ["Lisbon"], "held_out": False},
                {"question": "When is the paper submission deadline?", "expect": ["January 31"], "held_out": False},
                {"question": "How much is the gala dinner?", "expect": ["$999"], "held_out": False},
                {"question": "Who are the program chairs?", "expect": ["Grace Hopper"], "held_out": True},
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    result = run("conf", "eval", str(TINY_DIR), "--person-set", str(person))
    assert result.exit_code == 0, result.output
    assert "person-written (dev, 3 questions): right 2 (67 %) · wrong 0 (0 %) · abstained 1 (33 %)" in result.output
    # the site never names a gala nor a dinner: the sentence says which words it lacks
    assert (
        "abstained: How much is the gala dinner? → TINY2024's site data has no mention of “gala dinner”"
        in result.output
    )
    report = json.loads(
        run("conf", "eval", str(TINY_DIR), "--person-set", str(person), "--person-part", "held-out", "--json").output
    )
    assert (
        report["person"]["total"] == 1 and report["person"]["verdicts"][0]["question"] == "Who are the program chairs?"
    )
    assert report["methods"][0]["overall"]["questions"] > 0  # the usual figures, same run
