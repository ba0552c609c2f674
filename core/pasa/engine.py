"""PaSa: the Crawler fills a paper queue, the Selector judges every queued paper.

One run (``PaSa.run``, an async generator of ``events``):

1. A search session from S_q: the Crawler's [Search] actions run the search tool; the papers
   found are queued at depth 1 and judged by the Selector as a batch.
2. Expand sessions, breadth first: the next queued paper below the depth limit that has sections
   citing something is read (S_q+p: title, abstract, outline); its [Expand] actions queue the
   papers those sections cite, one level deeper, and the Selector judges them.
3. It stops when the queue has nothing left to read, or the action or paper budget is spent, or
   it is cancelled. The results are every judged paper ranked by P(True); the selected ones are
   those whose decision token is True.

Blocking work (the model, SQLite, LanceDB) runs in a worker thread (``asyncio.to_thread``), so the
consumer's loop stays free; online sources are awaited directly. Cancellation is a
``CancelToken`` checked between steps and passed into every generation.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

from ...indexes.library import Library
from ...models.base import LLM, CancelToken
from ...training.formats import CrawlerSession, SelectorRecord
from .crawler import Crawler, session_record
from .events import (
    CrawlerDecided,
    CrawlFinished,
    CrawlNotice,
    CrawlStarted,
    Event,
    FoundPaper,
    PapersFound,
    RankedPaper,
    SearchIssued,
    SectionExpanded,
    Verdict,
)
from .phrases import search_candidates
from .queue import Budgets, PaperQueue
from .selector import Selector
from .tools import LibraryTools, ToolResult


@dataclass
class PaSaOptions:
    budgets: Budgets = Budgets()
    query_mode: str = "auto"  # auto | candidates | free
    rationale: str = "auto"  # auto | template | model
    candidates: int = 6  # candidate search queries offered to a tiny model
    threshold: float = 0.5  # P(True) above which the Selector's decision is True
    expand_at_least_one: bool = True  # an expand session names at least one section (see Crawler)


class PaSa:
    """One agent over one library; ``run`` may be called for several queries in turn."""

    def __init__(self, llm: LLM, tools: LibraryTools, options: PaSaOptions | None = None) -> None:
        self.llm = llm
        self.tools = tools
        self.library: Library = tools.library
        self.options = options or PaSaOptions()
        budgets = self.options.budgets
        self.crawler = Crawler(llm, query_mode=self.options.query_mode, actions_per_session=budgets.actions_per_session,
                               expand_at_least_one=self.options.expand_at_least_one)
        self.selector = Selector(llm, rationale=self.options.rationale, threshold=self.options.threshold)
        self.sessions: list[CrawlerSession] = []  # every session run, in Table 8 form

    @property
    def selections(self) -> list[SelectorRecord]:
        return self.selector.records

    async def run(self, query: str, *, date: str | None = None,
                  cancel: CancelToken | None = None) -> AsyncIterator[Event]:
        if not query.strip():
            raise ValueError("the query is empty")
        cancel = cancel or CancelToken()
        clock = time.monotonic()
        calls_before = self.crawler.calls + self.selector.calls
        budgets = self.options.budgets
        queue = PaperQueue(budgets)
        verdicts: dict[int, Verdict] = {}
        nodes = iter(range(1, 1_000_000))
        stop_reason = "queue exhausted"
        yield CrawlStarted(query, date, self.llm.model_name, self.crawler.query_mode, self.selector.rationale_mode,
                           self.tools.online is not None, budgets.as_dict())

        async def queue_papers(result: ToolResult, parent: int, depth: int, found_by: str) -> AsyncIterator[Event]:
            for notice in result.notices:
                yield CrawlNotice(notice)
            rows = await asyncio.to_thread(self.library.papers, result.paper_ids)
            added: list[FoundPaper] = []
            duplicates = over = 0
            for paper_id in result.paper_ids:
                row = rows.get(paper_id)
                if row is None:
                    continue
                node = next(nodes)
                outcome = queue.add(paper_id, node, depth, found_by)
                if outcome == "added":
                    added.append(FoundPaper(node, paper_id, row["title"], row["date"], depth, row["arxiv_id"], row["source"]))
                elif outcome == "duplicate":
                    duplicates += 1
                else:
                    over += 1
            yield PapersFound(parent, added, duplicates, over, result.origin)
            # The Selector judges the new papers back to back (shared prompt prefix, warm cache).
            for found in added:
                if cancel.cancelled:
                    return
                judgement = await asyncio.to_thread(self.selector.judge, query, rows[found.paper_id], cancel)
                verdict = Verdict(found.paper_id, found.node, round(judgement.probability, 4), judgement.decision,
                                  judgement.rationale, judgement.rationale_kind)
                verdicts[found.paper_id] = verdict
                yield verdict

        def affordable(actions):
            """The session's kept actions, each with its tree node, while the action budget lasts."""
            nonlocal stop_reason
            for action in actions:
                if cancel.cancelled:
                    return
                if not queue.spend_action():
                    stop_reason = "action budget"
                    return
                yield action, next(nodes)

        # 1. The search session (S_q).
        # A query of stop words only has no key phrase: its own first words are the one candidate.
        candidates = search_candidates(query, self.options.candidates) or [" ".join(query.split()[:12])]
        result = await asyncio.to_thread(self.crawler.search_session, query, candidates, cancel)
        self.sessions.append(session_record(query, "search", None, result))
        yield CrawlerDecided("search", None, result.text, [a.render() for a in result.checked.kept],
                             result.checked.refused, round(result.seconds, 3),
                             candidates if self.crawler.query_mode == "candidates" else [])
        for action, node in affordable(result.checked.kept):
            yield SearchIssued(node, 0, action.argument)
            found = await self.tools.search(action.argument, date)
            async for event in queue_papers(found, node, 1, f'search "{action.argument}"'):
                yield event

        # 2. Expand sessions (S_q+p), breadth first.
        while not cancel.cancelled and stop_reason == "queue exhausted":
            if queue.actions_left == 0:
                stop_reason = "action budget"
                break
            if queue.full:
                stop_reason = "paper budget"
                break
            paper = queue.next_to_expand()
            if paper is None:
                break
            outline = await asyncio.to_thread(self.tools.outline, paper.paper_id)
            if not outline.expandable:
                continue  # a cited work without full text: nothing to read, no model call
            result = await asyncio.to_thread(self.crawler.expand_session, query, outline.paper, outline.expandable, cancel)
            self.sessions.append(session_record(query, "expand", outline.paper, result))
            yield CrawlerDecided("expand", paper.node, result.text, [a.render() for a in result.checked.kept],
                                 result.checked.refused, round(result.seconds, 3), outline.expandable)
            for action, node in affordable(result.checked.kept):
                yield SectionExpanded(node, paper.node, paper.paper_id, action.argument)
                cited = await self.tools.expand(paper.paper_id, outline, action.argument)
                async for event in queue_papers(cited, node, paper.depth + 1,
                                                f"expand paper:{paper.paper_id} “{action.argument}”"):
                    yield event
        if cancel.cancelled:
            stop_reason = "cancelled"

        yield CrawlFinished(
            results=self._ranked(queue, verdicts),
            queue=[paper.paper_id for paper in queue.papers],
            stop_reason=stop_reason,
            actions=queue.actions,
            llm_calls=self.crawler.calls + self.selector.calls - calls_before,
            seconds=round(time.monotonic() - clock, 3),
            cancelled=cancel.cancelled,
        )

    def _ranked(self, queue: PaperQueue, verdicts: dict[int, Verdict]) -> list[RankedPaper]:
        rows = self.library.papers(list(verdicts))
        ranked = []
        for paper_id, verdict in verdicts.items():
            row, queued = rows.get(paper_id), queue.get(paper_id)
            if row is None or queued is None:
                continue
            url = row["url"] or (f"https://arxiv.org/abs/{row['arxiv_id']}" if row["arxiv_id"] else None)
            ranked.append(RankedPaper(paper_id, row["title"], verdict.probability, verdict.decision, verdict.rationale,
                                      queued.depth, row["date"], row["arxiv_id"], url, queued.found_by))
        order = {paper.paper_id: index for index, paper in enumerate(queue.papers)}
        # P(True) ranks; ties (frequent with a tiny model) keep the order the Crawler found them in.
        ranked.sort(key=lambda paper: (-paper.probability, order[paper.paper_id]))
        return ranked
