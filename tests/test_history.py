"""core/history.py and indexes/history.py: runs kept across sessions, shown again as they were; the CLI."""

from __future__ import annotations

import json

from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core import history
from scholar_tui.core.conference.events import Answered, EvidencePath
from scholar_tui.core.pasa.events import CrawlFinished, CrawlStarted, RankedPaper, ScoreParts


def crawl_events():
    parts = ScoreParts(
        p_true=0.8,
        query_dense=0.68,
        query_lexical=0.5,
        citation_context=0.0,
        citing_sentence="",
        plain_rank=1,
        found_by=1,
        cited_by_pool=0,
        depth=0,
    )
    paper = RankedPaper(
        paper_id=3,
        title="Zeros of random polynomials",
        score=0.9,
        selected=True,
        parts=parts,
        rationale="selected: rank 1",
        depth=0,
        date="2022-12-05",
        found_by="plain search",
    )
    yield CrawlStarted("random polynomials", None, "scripted", "candidates", "template", False, {"actions": 3})
    yield CrawlFinished(results=[paper], queue=[3], stop_reason="queue exhausted", actions=1, llm_calls=2, seconds=1.5)


def test_a_run_is_kept_before_its_last_event_and_replays_as_it_was(where):
    seen = []
    for event in history.remembered(
        where, "paper-search", "random polynomials", crawl_events(), {"date": "2023-01-01"}
    ):
        seen.append(event)
        if event.kind == "finished":  # the pane reloads its list on this event: the run is there already
            assert history.entries(where, "paper-search")[0]["text"] == "random polynomials"
    kept = history.entry(where, history.entries(where)[0]["id"])
    assert kept["context"] == {"date": "2023-01-01"} and kept["ok"]
    assert kept["summary"] == seen[-1].summary()
    assert history.paper_search_replay(kept["result"]) == seen[-1]  # every ranked paper and score part


def test_inputs_are_distinct_newest_first(where):
    for text in ("first", "second", "first"):
        history.record(where, "scholar-qa", text, "ok", {"answer": {"question": text}})
    assert history.inputs(where, "scholar-qa") == ["first", "second"]
    assert history.inputs(where, "paper-search") == []


def test_scholar_tui_history_lists_runs_as_text_and_json(where):
    evidence = [EvidencePath(1, 7, "ICML2023 > Dates > Rebuttal", "May 1", "the rebuttal ends May 1", 0.8)]
    answered = Answered("When does the rebuttal end?", "ICML2023", "star", evidence, "May 1", cited=[1])
    list(
        history.remembered(
            where, "conference-qa", answered.question, iter([answered]), {"conference": "ICML2023", "method": "star"}
        )
    )
    runner = CliRunner()
    result = runner.invoke(cli, ["history"])
    assert result.exit_code == 0 and "conference-qa" in result.output and "When does the rebuttal end?" in result.output
    assert "May 1 (from [1])" in result.output and "conference ICML2023" in result.output
    rows = json.loads(runner.invoke(cli, ["history", "--json"]).output)
    assert rows[0]["tab"] == "conference-qa" and rows[0]["context"]["method"] == "star"
    shown = json.loads(runner.invoke(cli, ["history", "--id", str(rows[0]["id"]), "--json"]).output)
    assert history.conference_replay(shown["result"]) == answered
    missing = runner.invoke(cli, ["history", "--id", "999"])
    assert missing.exit_code == 1 and "no history entry 999" in missing.output


def test_an_empty_history_says_what_it_will_hold(where):
    result = CliRunner().invoke(cli, ["history"])
    assert result.exit_code == 0 and "No history yet" in result.output
