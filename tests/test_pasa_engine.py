"""The crawl loop with a routed scripted model: sessions, queue, depth, budgets, events, cancellation."""

from __future__ import annotations

import pytest

from scholar_tui.core.pasa.engine import PaSaEngine, PaSaOptions
from scholar_tui.core.pasa.events import CrawlFinished
from scholar_tui.core.pasa.evidence import Pool
from scholar_tui.core.pasa.prompts import CrawlerSession, SelectorRecord
from scholar_tui.core.pasa.queue import Budgets
from scholar_tui.core.pasa.tools import LibraryTools
from scholar_tui.models.base import CancelToken

from .library_support import HashingEmbedder
from .pasa_support import GNN, SURVEY, RoutedLLM, paper_id

SEARCH_GNN = "[Search] graph neural networks [Stop]"


def run(agent: PaSaEngine, query: str, **kwargs) -> list:
    """The crawl's events after the plain search (these tests turn it off: the Crawler's own tree)."""
    events = list(agent.run(query, **kwargs))
    assert events[1].kind == "search" and events[1].plain and events[2].kind == "found" and not events[2].papers
    return [events[0], *(event for event in events[4:] if event.kind != "ranking")]


def make_agent(where, library, llm, search_limit: int = 4, plain_limit: int = 0, **budgets) -> PaSaEngine:
    """PaSa's own Selector (P(True) alone, every paper judged), no plain search unless asked."""
    tools = LibraryTools(where, library, HashingEmbedder(), search_limit=search_limit, plain_limit=plain_limit)
    return PaSaEngine(
        llm,
        tools,
        PaSaOptions(
            budgets=Budgets(**budgets), query_mode="candidates", rationale="template", use_head=False, judge_limit=100
        ),
    )


def test_pool_deduplicates_and_keeps_budgets():
    pool = Pool(max_crawled=3, max_depth=2)
    assert pool.add(1, 1, 1, "s") == "added"
    assert pool.add(1, 2, 1, "t", ["cited here [1]."]) == "duplicate"
    assert pool.entries[1].found_by == ["s", "t"] and pool.entries[1].contexts == ["cited here [1]."]
    assert pool.add(2, 3, 3, "e") == "too deep"
    assert pool.add(3, 4, 2, "e") == "added"
    assert pool.add(4, 5, 1, "s") == "added"
    assert pool.add(5, 6, 1, "s") == "full"


def test_whole_loop_event_order_and_tree(where, mini_library):
    llm = RoutedLLM(search=[SEARCH_GNN], expand=["[Expand] 2 Related Work [Stop]"])
    agent = make_agent(where, mini_library, llm, max_actions=5, max_papers=20)
    events = run(agent, "Which papers study graph neural networks?")
    kinds = [event.kind for event in events]
    assert kinds[0] == "started" and kinds[1] == "decided" and kinds[-1] == "finished"
    assert kinds[2:4] == ["search", "found"]
    search = events[2]
    assert search.query == "graph neural networks" and search.parent == 0
    found = events[3]
    assert found.parent == search.node and found.papers
    assert {paper.depth for paper in found.papers} == {1}
    # the Selector judges after the crawl, back to back (one shared prompt prefix)
    kinds_after = kinds[kinds.index("verdict") :]
    assert set(kinds_after) == {"verdict", "finished"}
    expand = next(event for event in events if event.kind == "expand")
    gnn = paper_id(mini_library, GNN)
    assert expand.paper_id == gnn and expand.section == "2 Related Work"
    assert expand.parent == next(p.node for e in events if e.kind == "found" for p in e.papers if p.paper_id == gnn)
    cited = next(event for event in events if event.kind == "found" and event.parent == expand.node)
    titles = {paper.title for paper in cited.papers}
    # Related Work cites [2] Kipf, [3] Xu, [4] Vaswani: the ones the search had not queued are new
    assert "Attention is all you need" in titles  # no search for graphs finds it
    assert len(cited.papers) + cited.duplicates == 4  # and [5], the survey
    assert {paper.depth for paper in cited.papers} == {2}
    finished: CrawlFinished = events[-1]
    assert finished.stop_reason == "queue exhausted" and not finished.cancelled
    judged = [event.paper_id for event in events if event.kind == "verdict"]
    assert sorted(judged) == sorted(finished.queue)  # the Selector read every queued paper once
    # results: P(True) ranks; the routed Selector says True exactly to titles about graphs
    assert [paper.selected for paper in finished.results] == sorted(
        [p.selected for p in finished.results], reverse=True
    )
    assert {paper.title for paper in finished.selected} == {
        title
        for title in (e.title for ev in events if ev.kind == "found" for e in ev.papers)
        if "graph" in title.lower()
    }


def test_expand_sessions_only_name_real_sections(where, mini_library):
    llm = RoutedLLM(
        search=[SEARCH_GNN], expand=["[Expand] 9 Appendix [Expand] 3 Method [Expand] 1 Introduction [Stop]"]
    )
    agent = make_agent(where, mini_library, llm, max_actions=6, max_papers=20)
    events = run(agent, "graph neural networks")
    decided = [event for event in events if event.kind == "decided" and event.session == "expand"]
    assert decided, "the GNN paper was read"
    first = decided[0]
    # '3 Method' cites nothing: it is not even offered; '9 Appendix' does not exist
    assert "3 Method" not in first.candidates and "1 Introduction" in first.candidates
    assert first.actions == ["[Expand] 1 Introduction"]
    assert first.refused == ["[Expand] 9 Appendix", "[Expand] 3 Method"]
    sections = {event.section for event in events if event.kind == "expand"}
    assert sections <= {"1 Introduction", "2 Related Work", "1 Graphs everywhere", "2 Message passing"}


def test_depth_limit_one_never_expands(where, mini_library):
    llm = RoutedLLM(search=[SEARCH_GNN], expand=["[Expand] 2 Related Work [Stop]"])
    agent = make_agent(where, mini_library, llm, max_actions=5, max_papers=20, max_depth=1)
    events = run(agent, "graph neural networks")
    assert not [event for event in events if event.kind in ("expand",) or getattr(event, "session", "") == "expand"]
    assert all(paper.depth == 1 for event in events if event.kind == "found" for paper in event.papers)


def _depth_run(where, library, max_depth: int) -> list:
    # One search hit (the GNN paper); its Related Work cites the survey, which has full text.
    llm = RoutedLLM(
        search=["[Search] molecule property prediction [Stop]"],
        expand=["[Expand] 2 Related Work [Stop]", "[Expand] 2 Message passing [Stop]"],
    )
    agent = make_agent(where, library, llm, search_limit=1, max_actions=8, max_papers=30, max_depth=max_depth)
    return run(agent, "molecule property prediction")


def test_depth_limit_two_does_not_read_depth_two_papers(where, mini_library):
    events = _depth_run(where, mini_library, 2)
    survey = paper_id(mini_library, SURVEY)
    found = {paper.paper_id: paper.depth for event in events if event.kind == "found" for paper in event.papers}
    assert found[survey] == 2
    assert {event.paper_id for event in events if event.kind == "expand"} == {paper_id(mini_library, GNN)}
    assert max(found.values()) == 2


def test_depth_limit_three_reads_them(where, mini_library):
    events = _depth_run(where, mini_library, 3)
    survey = paper_id(mini_library, SURVEY)
    assert survey in {event.paper_id for event in events if event.kind == "expand"}
    depths = {paper.title: paper.depth for event in events if event.kind == "found" for paper in event.papers}
    assert depths["Hierarchical graph representation learning with differentiable pooling"] == 3


def test_action_budget_stops_the_crawl(where, mini_library):
    llm = RoutedLLM(search=["[Search] graph neural networks [Search] message passing [Stop]"])
    agent = make_agent(where, mini_library, llm, max_actions=1, max_papers=20)
    events = run(agent, "graph neural networks and message passing")
    assert [event.kind for event in events].count("search") == 1
    assert events[-1].stop_reason == "action budget" and events[-1].actions == 1


def test_paper_budget_drops_and_counts(where, mini_library):
    llm = RoutedLLM(search=[SEARCH_GNN])
    agent = make_agent(where, mini_library, llm, max_actions=5, max_papers=2)
    events = run(agent, "graph neural networks")
    found = next(event for event in events if event.kind == "found")
    assert len(found.papers) == 2 and found.over_budget >= 1
    assert events[-1].stop_reason == "paper budget" and len(events[-1].queue) == 2


def test_duplicates_are_queued_once(where, mini_library):
    llm = RoutedLLM(search=["[Search] graph neural networks [Search] message passing [Stop]"])
    agent = make_agent(where, mini_library, llm, max_actions=2, max_papers=30)
    events = run(agent, "graph neural networks and message passing")
    found = [event for event in events if event.kind == "found"]
    assert found[1].duplicates >= 1
    ids = [paper.paper_id for event in found for paper in event.papers]
    assert len(ids) == len(set(ids)) == len(events[-1].queue)


def test_search_session_refuses_queries_outside_the_candidates(where, mini_library):
    llm = RoutedLLM(search=["[Search] quantum gravity [Search] graph neural networks [Stop]"])
    agent = make_agent(where, mini_library, llm, max_actions=3, max_papers=10)
    events = run(agent, "graph neural networks")
    decided = events[1]
    assert decided.candidates[0] == "graph neural networks"
    assert decided.refused == ["[Search] quantum gravity"] and decided.actions == ["[Search] graph neural networks"]


def test_cancel_stops_between_steps_and_reports(where, mini_library):
    llm = RoutedLLM(search=[SEARCH_GNN], expand=["[Expand] 2 Related Work [Stop]"])
    agent = make_agent(where, mini_library, llm, max_actions=5, max_papers=20)
    cancel = CancelToken()
    events = []
    for event in agent.run("graph neural networks", cancel=cancel):
        events.append(event)
        if event.kind == "found" and event.papers:
            cancel.cancel()
    finished = events[-1]
    assert finished.cancelled and finished.stop_reason == "cancelled"
    assert not [event for event in events if event.kind == "expand"]
    assert len([event for event in events if event.kind == "verdict"]) == 0


def test_date_cut_off_reaches_the_search(where, mini_library):
    llm = RoutedLLM(search=["[Search] message passing neural networks [Stop]"])
    agent = make_agent(where, mini_library, llm, max_actions=1, max_papers=20)
    events = run(agent, "message passing neural networks", date="2018-01-01")
    dates = [paper.date for event in events if event.kind == "found" for paper in event.papers]
    assert dates and all(date < "2018-01-01" for date in dates)
    assert SURVEY not in {paper.title for event in events if event.kind == "found" for paper in event.papers}


def test_sessions_and_selections_are_training_records(where, mini_library):
    llm = RoutedLLM(search=[SEARCH_GNN], expand=["[Expand] 2 Related Work [Stop]"])
    agent = make_agent(where, mini_library, llm, max_actions=4, max_papers=20)
    run(agent, "graph neural networks")
    kinds = [session.kind for session in agent.sessions]
    assert kinds[0] == "search" and "expand" in kinds
    for session in agent.sessions:  # valid Table 8 sessions: they round-trip through the validator
        assert CrawlerSession.from_dict(session.to_dict()) == session
    expand = next(session for session in agent.sessions if session.kind == "expand")
    assert expand.paper.title == GNN and "2 Related Work" in expand.paper.sections
    assert expand.actions == ["[Expand] 2 Related Work", "[Stop]"]
    assert agent.selections and all(isinstance(record, SelectorRecord) for record in agent.selections)
    assert {record.decision for record in agent.selections} == {True, False}


def test_the_crawl_only_adds_to_the_plain_search(where, mini_library):
    """Every plain-search hit (the same call as `library search --limit 100`) is in the pool."""
    from scholar_tui.indexes.library_search import LibraryIndex

    llm = RoutedLLM(search=["[Search] laser cooling [Stop]"], expand=["[Expand] 2 Related Work [Stop]"])
    agent = make_agent(where, mini_library, llm, plain_limit=3, max_actions=4, max_papers=5)
    query = "Which papers study message passing on molecule graphs?"
    events = list(agent.run(query))
    plain = [hit.paper_id for hit in LibraryIndex(where, HashingEmbedder()).search(mini_library, query, limit=3)]
    finished = events[-1]
    assert plain and set(plain) <= set(finished.queue)
    assert finished.queue[: len(plain)] == plain  # first, in the plain search's order
    assert {paper.paper_id for paper in finished.results} == set(finished.queue)
    # the plain search's papers are ranked before any model call: the first papers on screen
    first = next(event for event in events if event.kind == "ranking")
    assert first.stage == "plain" and {paper.paper_id for paper in first.results} == set(plain)
    assert events.index(first) < next(i for i, event in enumerate(events) if event.kind == "decided")


def test_offline_a_crawl_stops_once_the_plain_search_returned_the_whole_library(where, mini_library):
    """Nothing is left to find: no [Search] whose every hit is queued, no loop left waiting for a person."""
    llm = RoutedLLM(search=["[Search] laser cooling [Stop]"], expand=["[Expand] 2 Related Work [Stop]"])
    agent = make_agent(where, mini_library, llm, plain_limit=100, max_actions=4)
    events = list(agent.run("Which papers study message passing on molecule graphs?"))
    finished = events[-1]
    assert finished.stop_reason == "every library paper is in the pool"
    assert len(finished.queue) == mini_library.counts()["papers"] and finished.actions == 0
    assert not [event for event in events if event.kind in ("decided", "feedback")]


def test_offline_a_plain_search_short_of_its_limit_but_not_of_the_library_still_crawls(where, mini_library):
    """The plain search merges two lists of bounded depth, so it often returns fewer hits than its
    limit over a large library: that alone must not stop the crawl (it once stopped every crawl of
    `bench pasa`, whose plain search returns 60-95 of the 900 papers before a cut-off)."""
    llm = RoutedLLM(search=["[Search] laser cooling [Stop]"], expand=["[Expand] 2 Related Work [Stop]"])
    agent = make_agent(where, mini_library, llm, plain_limit=100, max_actions=4)
    search = agent.tools.plain_search
    agent.tools.plain_search = lambda query, before: search(query, before)[:2]  # a depth-bound search
    events = list(agent.run("Which papers study message passing on molecule graphs?"))
    finished = events[-1]
    assert finished.stop_reason != "every library paper is in the pool" and finished.actions > 0
    assert [event for event in events if event.kind == "decided"]


def test_a_collection_keeps_the_plain_search_and_the_crawlers_searches_inside_it(where, mini_library):
    """`search --collection NAME`: the library searches look only among the collection's papers."""
    from scholar_tui.core.library.labels import labelled_papers

    chosen = {paper_id(mini_library, GNN)}
    with mini_library.transaction():
        mini_library.store_collection("zotero:test/user", "K1", "Reading/Graphs")
        for one in chosen:
            mini_library.set_labels(one, "zotero:test/user", ["Reading/Graphs"], ["gnn"])
    within = labelled_papers(mini_library, collection="graphs")
    assert within == chosen == labelled_papers(mini_library, tag="GNN")
    llm = RoutedLLM(search=[SEARCH_GNN])
    tools = LibraryTools(where, mini_library, HashingEmbedder(), search_limit=4, plain_limit=100, within=within)
    agent = PaSaEngine(
        llm,
        tools,
        PaSaOptions(
            budgets=Budgets(max_actions=1, max_papers=20),
            query_mode="candidates",
            rationale="template",
            use_head=False,
            judge_limit=100,
        ),
    )
    events = list(agent.run("graph neural networks"))
    searched = {
        paper.paper_id
        for event in events
        if event.kind == "found" and event.origin == "library"
        for paper in event.papers
    }
    assert searched and searched <= chosen
    assert events[-1].stop_reason == "every library paper is in the pool"  # the whole collection: one paper


def _ranked(finished: CrawlFinished) -> list[tuple]:
    return [(p.paper_id, p.score, p.selected, p.parts.p_true, p.rationale) for p in finished.results]


def _head_agent(where, library, llm, early: int, use_head: bool) -> PaSaEngine:
    from scholar_tui.core.pasa.selector_head import load_head

    tools = LibraryTools(where, library, HashingEmbedder(), search_limit=4, plain_limit=6)
    options = PaSaOptions(
        budgets=Budgets(max_actions=3, max_papers=10),
        query_mode="candidates",
        rationale="template",
        use_head=use_head,
        judge_limit=None if use_head else 100,
        early_judge=early,
    )
    return PaSaEngine(llm, tools, options, head=load_head(where.data_dir))


@pytest.mark.parametrize("use_head", [True, False])
def test_the_selector_ranks_the_first_hits_before_the_crawl_and_the_final_ranking_is_unchanged(
    where, mini_library, use_head
):
    """#28: a ranking by the model comes before the Crawler's first call; the final ranking is the one
    a run without it gives, and no paper is judged twice (the early verdicts are reused)."""

    def crawl(early: int):
        llm = RoutedLLM(search=[SEARCH_GNN], expand=["[Expand] 2 Related Work [Stop]"])
        agent = _head_agent(where, mini_library, llm, early, use_head)
        return agent, list(agent.run("Which papers study graph neural networks?"))

    agent, events = crawl(early=2)
    kinds = [event.kind for event in events]
    interim = [event for event in events if event.kind == "ranking" and event.stage == "early"]
    assert [(event.judged, event.judging) for event in interim] == [(1, 2), (2, 2)]  # as each verdict comes
    early = interim[-1]
    position = events.index(early)
    assert position < kinds.index("decided")  # before the Crawler's first model call
    early_verdicts = [event for event in events[:position] if event.kind == "verdict"]
    assert early.last_interim and early.judged == len(early_verdicts) == 2
    judged_early = {event.paper_id: event.probability for event in early_verdicts}
    assert {p.paper_id: p.parts.p_true for p in early.results if p.parts.p_true is not None} == judged_early
    plain = next(event for event in events if event.kind == "ranking" and event.stage == "plain")
    assert set(judged_early) == {paper.paper_id for paper in plain.results[:2]}  # the prior's top hits
    all_verdicts = [event.paper_id for event in events if event.kind == "verdict"]
    assert len(all_verdicts) == len(set(all_verdicts))  # each paper judged once

    without, events_without = crawl(early=0)
    assert not [event for event in events_without if event.kind == "ranking" and event.stage == "early"]
    assert _ranked(events[-1]) == _ranked(events_without[-1])
    assert events[-1].queue == events_without[-1].queue
    wasted = len(set(judged_early) - {p.paper_id for p in events[-1].results if p.parts.p_true is not None})
    assert agent.selector.calls == without.selector.calls + wasted
