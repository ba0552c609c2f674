"""`scholar-tui search`, `pasa prepare|build-queries` and `bench pasa` with a routed scripted model."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import scholar_tui.models as models
from scholar_tui.app.cli import cli
from scholar_tui.core.jsonl import read_jsonl
from scholar_tui.core.pasa.prompts import CrawlerSession, SelectorRecord
from scholar_tui.core.pasa.queries import read_queries

from .library_support import HashingEmbedder
from .pasa_support import RoutedLLM, write_p_true_head


@pytest.fixture
def fake_models(monkeypatch, where):
    write_p_true_head(where)  # selected = P(True) high: the routed Selector says which
    llm = RoutedLLM(search=["[Search] graph neural networks [Stop]"], expand=["[Expand] 2 Related Work [Stop]"])
    monkeypatch.setattr(models, "load_llm", lambda settings, where=None: llm)
    monkeypatch.setattr(models, "load_embedder", lambda settings: HashingEmbedder())
    return llm


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_search_streams_progress_and_ranks(mini_library, fake_models, tmp_path):
    bib, sessions, selections = tmp_path / "r.bib", tmp_path / "s.jsonl", tmp_path / "sel.jsonl"
    result = invoke(
        "search",
        "Which papers study graph neural networks?",
        "--offline",
        "--plain-depth",
        "3",
        "--max-actions",
        "3",
        "--export",
        "bib",
        str(bib),
        "--save-sessions",
        str(sessions),
        "--save-selections",
        str(selections),
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    err = result.stderr
    assert "Crawler (search session, 0.0 s): [Search] graph neural networks [Stop]" in err
    assert "plain search (the query as written, top 100)" in err  # the pool starts from the plain search
    assert "[Expand] paper:1 “2 Related Work”" in err and "done:" in err
    # the Selector's ranking of the plain search's first hits, before the Crawler's first call (#28)
    first = err.index("ranked 3 papers so far (1 of 3 judged by the Selector; the crawl goes on)")
    interim = err.index("ranked 3 papers so far (3 of 3 judged by the Selector; the crawl goes on)")
    assert first < interim < err.index("Crawler (search session") and "\n    1. " in err[interim:]
    assert "    1. " not in err[first:interim]  # the papers are listed once, with the last early ranking
    lines = [line for line in out.splitlines() if line[:4].strip().rstrip(".").isdigit()]
    assert lines and all("✓ score 0.99 (P(True) 1.00, query" in line for line in lines)  # only the selected, best first
    assert "Graph neural networks for molecule property prediction" in out
    assert bib.read_text().count("@") == len(lines)
    assert read_jsonl(sessions, CrawlerSession)[0].actions == ["[Search] graph neural networks", "[Stop]"]
    assert {record.decision for record in read_jsonl(selections, SelectorRecord)} == {True, False}


def test_search_json_is_one_document(mini_library, fake_models):
    result = invoke(
        "search", "graph neural networks", "--offline", "--plain-depth", "3", "--all", "--json", "--max-actions", "1"
    )
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["model"] == "scripted" and data["stop_reason"] == "action budget"
    assert len(data["results"]) == len(data["queue"])  # --all: every paper of the pool
    assert data["events"][0]["kind"] == "started" and data["events"][1]["kind"] == "search"
    best = data["results"][0]  # each paper with its score and the score's parts
    assert set(best["parts"]) >= {"p_true", "query_dense", "query_lexical", "citation_context", "citing_sentence"}
    assert best["score"] >= data["results"][-1]["score"] and best["rationale"].startswith(("selected", "not selected"))
    assert result.stderr == ""


def test_bad_input_is_one_line(mini_library, fake_models, where, tmp_path):
    for date in ("22-12-2022", "2023-13-99"):  # the shape, and a day that does not exist
        result = CliRunner().invoke(cli, ["search", "x", "--date", date])
        assert result.exit_code == 2 and "expected YYYY-MM-DD" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(cli, ["search", "x", "--max-papers", "0"])
    assert result.exit_code == 2 and "at least 1" in result.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{}\n")
    result = CliRunner().invoke(cli, ["bench", "pasa", "--queries", str(bad), "--offline"])
    assert result.exit_code == 1 and "bad.jsonl:1: not an AutoScholarQuery line" in result.output


def test_an_empty_library_says_so(where, fake_models):
    result = CliRunner().invoke(cli, ["search", "x"])
    assert result.exit_code == 1 and "The library is empty: import a file" in result.output


def test_build_queries_then_bench(mini_library, fake_models, tmp_path):
    path = tmp_path / "queries.jsonl"
    result = invoke("pasa", "build-queries", str(path))
    assert result.exit_code == 0 and "wrote 1 queries from 1 papers" in result.stdout
    query = read_queries(path)[0]
    assert query.query == (
        "Could you provide me some works about message passing networks learn molecular "
        "representations from bond graphs?"
    )
    assert query.query_date == "2022-06-01" and len(query.answers) == 3
    result = invoke("bench", "pasa", "--queries", str(path), "--split", "all", "--offline", "--max-actions", "3")
    assert result.exit_code == 0, result.output
    table = result.stdout.splitlines()
    assert table[1].startswith("all split: 1 queries")
    assert table[2].startswith("Method") and table[4].startswith("Plain search (library hybrid)")
    assert table[5].startswith("PaSa (scripted, head)") and table[6].strip().startswith("P(True) alone")
    assert "[all split 1/1] search R@20" in result.stderr
    result = invoke("bench", "pasa", "--queries", str(path), "--split", "all", "--offline", "--json", "--no-head")
    data = json.loads(result.stdout)["runs"]["all split"]
    assert data["queries"] == 1 and set(data["pasa"]) >= {
        "crawler_recall",
        "precision",
        "recall",
        "recall@20",
        "f1",
        "auc_head",
        "auc_p_true",
        "median_seconds",
    }
    assert data["per_query"][0]["answers"] == 3


def test_prepare_reports_cited_works(mini_library, fake_models):
    result = invoke("pasa", "prepare", "--json")
    data = json.loads(result.stdout)
    assert data["cited_works"]["linked"] == 0  # the fixture was prepared already
    assert data["papers_by_source"]["reference"] >= 10 and data["papers_by_source"]["unarxive"] == 3


def test_search_through_autofeedback_retries_and_logs(mini_library, fake_models, where):
    from scholar_tui.indexes.autofeedback_log import FeedbackLog

    fake_models.expand_replies = ["[Expand] 1 Introduction [Stop]"]  # cites only what the search queued
    fake_models.retry_replies = ["[Expand] 2 Related Work [Stop]"]
    result = invoke(
        "search", "Which papers study graph neural networks?", "--offline", "--plain-depth", "3", "--max-actions", "3"
    )
    assert result.exit_code == 0, result.output
    err = result.stderr
    assert "AutoFeedback (loop" in err and "E_NOTHING_NEW" in err
    assert "↻ [Expand] paper:1 “2 Related Work”" in err
    loops = json.loads(invoke("logs", "--json").stdout)
    assert loops and {loop["source"] for loop in loops} == {"pasa"}
    # the check and the hand-send know PaSa's tools
    checked = invoke(
        "feedback",
        "check",
        '<<API>>search_papers(query="graph neural networks")<</API>>',
        "-i",
        "graph papers",
        "--apis",
        "pasa",
    )
    assert "E2.2" in checked.output and "searchPapers" in checked.output
    sent = json.loads(invoke("feedback", "send", 'searchPapers(query="attention")', "--json").stdout)
    assert sent["ok"] and any("Attention" in paper["title"] for paper in sent["response"])
    # --no-feedback sends the actions as they are: no loop is logged, no retry made
    before = len(FeedbackLog(where).loops())
    plain = invoke(
        "search",
        "Which papers study graph neural networks?",
        "--offline",
        "--plain-depth",
        "3",
        "--max-actions",
        "3",
        "--no-feedback",
    )
    assert "↻" not in plain.stderr and len(FeedbackLog(where).loops()) == before


def test_a_loop_that_runs_out_says_how_to_fix_it_by_hand(mini_library, fake_models):
    fake_models.expand_replies = ["[Expand] 1 Introduction [Stop]"]  # adds nothing; no other section is offered
    result = invoke(
        "search", "Which papers study graph neural networks?", "--offline", "--plain-depth", "3", "--max-actions", "3"
    )
    assert result.exit_code == 0, result.output
    waiting = json.loads(invoke("logs", "--limit-hit", "--json").stdout)
    assert len(waiting) == 1
    loop_id = waiting[0]["id"]
    assert f"AutoFeedback (loop {loop_id}, limit_hit)" in result.stderr
    assert f"scholar-tui feedback send '<request>' --loop {loop_id}" in result.stderr
