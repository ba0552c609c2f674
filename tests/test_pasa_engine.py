"""The crawl loop with a routed scripted model: sessions, queue, depth, budgets, events, cancellation."""

from __future__ import annotations

import asyncio

from scholar_tui.core.pasa.engine import PaSa, PaSaOptions
from scholar_tui.core.pasa.events import CrawlFinished
from scholar_tui.core.pasa.queue import Budgets, PaperQueue
from scholar_tui.core.pasa.tools import LibraryTools
from scholar_tui.models.base import CancelToken
from scholar_tui.core.pasa.prompts import CrawlerSession, SelectorRecord

from .library_support import HashingEmbedder
from .pasa_support import GNN, SURVEY, RoutedLLM, mini_library, paper_id  # noqa: F401

SEARCH_GNN = "[Search] graph neural networks [Stop]"


def run(agent: PaSa, query: str, **kwargs) -> list:
    async def collect():
        return [event async for event in agent.run(query, **kwargs)]

    return asyncio.run(collect())


def make_agent(where, library, llm, search_limit: int = 4, **budgets) -> PaSa:
    tools = LibraryTools(where, library, HashingEmbedder(), search_limit=search_limit)
    return PaSa(llm, tools, PaSaOptions(budgets=Budgets(**budgets), query_mode="candidates", rationale="template"))


def test_queue_deduplicates_and_keeps_budgets():
    queue = PaperQueue(Budgets(max_actions=2, max_papers=3, max_depth=2))
    assert queue.add(1, 1, 1, "s") == "added"
    assert queue.add(1, 2, 1, "s") == "duplicate"
    assert queue.add(2, 3, 3, "e") == "too deep"
    assert queue.add(3, 4, 2, "e") == "added"
    assert queue.add(4, 5, 1, "s") == "added"
    assert queue.add(5, 6, 1, "s") == "full"
    assert [queue.spend_action(), queue.spend_action(), queue.spend_action()] == [True, True, False]
    # breadth first, and a paper at the depth limit is never read
    assert queue.next_to_expand().paper_id == 1
    assert queue.next_to_expand().paper_id == 4
    assert queue.next_to_expand() is None


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
    # every found paper gets its verdict right after its batch, before the next action
    first_batch = [paper.paper_id for paper in found.papers]
    assert [event.paper_id for event in events[4:4 + len(first_batch)]] == first_batch
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
    assert [paper.decision for paper in finished.results] == sorted([p.decision for p in finished.results], reverse=True)
    assert {paper.title for paper in finished.selected} == {
        title for title in (e.title for ev in events if ev.kind == "found" for e in ev.papers) if "graph" in title.lower()}


def test_expand_sessions_only_name_real_sections(where, mini_library):
    llm = RoutedLLM(search=[SEARCH_GNN], expand=["[Expand] 9 Appendix [Expand] 3 Method [Expand] 1 Introduction [Stop]"])
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
    llm = RoutedLLM(search=["[Search] molecule property prediction [Stop]"],
                    expand=["[Expand] 2 Related Work [Stop]", "[Expand] 2 Message passing [Stop]"])
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

    async def collect():
        seen = []
        async for event in agent.run("graph neural networks", cancel=cancel):
            seen.append(event)
            if event.kind == "found":
                cancel.cancel()
        return seen

    events = asyncio.run(collect())
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
