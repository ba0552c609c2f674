"""The whole loop on the real unarXive library with the real default model (offline, small budgets),
and the Selector's P(True) from the real model."""

from __future__ import annotations

import pytest

from scholar_tui.core.pasa.engine import PaSaEngine, PaSaOptions
from scholar_tui.core.pasa.queue import Budgets
from scholar_tui.core.pasa.selector import Selector
from scholar_tui.core.pasa.tools import LibraryTools

from .library_support import HashingEmbedder

pytestmark = pytest.mark.llm


def test_offline_search_end_to_end(where, real_crawl_library, real_llm):
    tools = LibraryTools(where, real_crawl_library, HashingEmbedder(), search_limit=3, plain_limit=0)
    agent = PaSaEngine(real_llm, tools, PaSaOptions(budgets=Budgets(max_actions=3, max_papers=6), use_head=False))
    query = "Which papers study zeros of random polynomials under repeated differentiation?"
    every = list(agent.run(query, date="2022-12-22"))
    assert every[1].plain and not every[2].papers  # the plain search, left out here (plain_limit=0)
    events = [every[0]] + [event for event in every[3:] if event.kind != "ranking"]
    kinds = [event.kind for event in events]
    assert kinds[0] == "started" and events[0].query_mode == "candidates" and events[0].rationale_mode == "template"
    assert events[0].online is False and kinds[-1] == "finished"
    decided = events[1]
    assert decided.session == "search" and decided.actions and decided.refused == []
    assert all(action[len("[Search] ") :] in decided.candidates for action in decided.actions)
    found = [paper for event in events if event.kind == "found" for paper in event.papers]
    assert found and all(paper.date < "2022-12-22" for paper in found)  # the query date cut-off
    finished = events[-1]
    assert 1 <= len(finished.queue) <= 6 and finished.actions <= 3
    verdicts = {event.paper_id: event for event in events if event.kind == "verdict"}
    assert set(verdicts) == set(finished.queue)  # every queued paper judged by the real Selector
    assert all(0.0 <= verdict.probability <= 1.0 for verdict in verdicts.values())
    # P(True) orders the papers, except that a title naming the query's subject by its most specific phrase
    # ("repeated differentiation") is lifted above the others (fit.lift_title_matches, session 11)
    lifted = [paper for paper in finished.results if "repeated differentiation" in paper.title.lower()]
    rest = [paper.probability for paper in finished.results if paper not in lifted]
    assert finished.results[: len(lifted)] == lifted and rest == sorted(rest, reverse=True)
    for session in agent.sessions:  # the run's sessions are valid training records
        assert session.actions[-1] == "[Stop]"


def test_selector_ranks_by_the_real_models_p_true(real_llm):
    selector = Selector(real_llm, rationale="template")
    query = "Which papers study zeros of random polynomials under repeated differentiation?"
    papers = [
        {"id": 1, "title": "Dynamics of zeroes under repeated differentiation", "abstract": ""},
        {
            "id": 2,
            "title": "Laser cooling of trapped ions in strongly inhomogeneous magnetic fields",
            "abstract": "We study laser cooling of ions in a Paul trap.",
        },
    ]
    judged = [selector.probability(query, paper["title"], paper["abstract"]) for paper in papers]
    for probability in judged:
        assert 0.0 < probability < 1.0  # both tokens carry mass: a real distribution
    # the same pair twice gives the same probability (greedy, cached prefix or not)
    again = selector.probability(query, papers[0]["title"], "")
    assert again == pytest.approx(judged[0], abs=1e-6)
