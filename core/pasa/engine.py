"""PaSa: the Crawler fills a paper queue, the Selector judges every queued paper.

One run (``PaSa.run``, an async generator of ``events``):

1. A search session from S_q: the Crawler's [Search] actions run the search tool; the papers
   found are queued at depth 1 and judged by the Selector as a batch.
2. Expand sessions, breadth first: the next queued paper below the depth limit that has sections
   citing something is read (S_q+p: title, abstract, outline); its [Expand] actions queue the
   papers those sections cite, one level deeper, and the Selector judges them.
3. With AutoFeedback on (``feedback``, a ``FeedbackLoop``), every [Search]/[Expand] is sent as an
   API request (``tool_requests``): statically scanned, executed, and when it fails or adds
   nothing new, explained from the tools' documentation and handed back to the Crawler, which
   picks one untried action in its place — at most the loop's limits, every round logged.
4. It stops when the queue has nothing left to read, or the action or paper budget is spent, or
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
from scholar_tui.core.pasa.prompts import CrawlerAction, CrawlerSession, SelectorRecord
from ..autofeedback.loop import FeedbackLoop, Generation, LoopResult
from .actions import CheckedActions
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
    ToolFeedback,
    Verdict,
)
from .phrases import search_candidates
from .queue import Budgets, PaperQueue
from .selector import Selector
from .tool_requests import EXPAND_API, SEARCH_API, ToolAttempt, ToolExecutor, expand_request, search_request
from .tools import LibraryTools, Outline, ToolResult


@dataclass
class PaSaOptions:
    budgets: Budgets = Budgets()
    query_mode: str = "auto"  # auto | candidates | free
    rationale: str = "auto"  # auto | template | model
    candidates: int = 6  # candidate search queries offered to a tiny model
    threshold: float = 0.5  # P(True) above which the Selector's decision is True
    expand_at_least_one: bool = True  # an expand session names at least one section (see Crawler)


class CrawlCancelled(Exception):
    """Raised inside a feedback loop's generation when the crawl is cancelled."""


@dataclass
class CheckedCall:
    """One [Search]/[Expand] action: where its papers go and, through AutoFeedback, what a retry may pick."""

    kind: str  # "Search" | "Expand"
    argument: str
    session_text: str  # the session's response, replayed before the feedback
    options: list[str] | None  # the arguments the grammar offers (None: a free query)
    tried: set[str]  # lower-cased arguments used already: a retry picks another
    depth: int
    paper_id: int | None = None
    parent_node: int = 0
    outline: Outline | None = None

    def request(self, argument: str) -> str:
        return search_request(argument) if self.kind == "Search" else expand_request(self.paper_id, argument)

    def found_by(self, argument: str) -> str:
        return f'search "{argument}"' if self.kind == "Search" else f"expand paper:{self.paper_id} “{argument}”"


def _with_outside(checked: CheckedActions, limit: int) -> list[CrawlerAction]:
    """The kept actions and, up to the session's limit, the ones outside the grammar, in text order."""
    room = max(limit - len(checked.kept), 0)
    return sorted(checked.kept + checked.outside[:room], key=lambda action: action.start)


def _round_summary(round_) -> dict:
    wanting = round_.sub_type is not None
    reason = ""
    if round_.finding is not None:
        reason = round_.finding.detail or round_.finding.sub_type
    elif round_.observation is not None and not round_.observation.satisfied:
        reason = round_.observation.reason
    return {"kind": round_.kind, "request": round_.request, "ok": not wanting, "sub_type": round_.sub_type,
            "reason": reason}


class PaSa:
    """One agent over one library; ``run`` may be called for several queries in turn."""

    def __init__(self, llm: LLM, tools: LibraryTools, options: PaSaOptions | None = None,
                 feedback: FeedbackLoop | None = None) -> None:
        self.llm = llm
        self.tools = tools
        self.feedback = feedback
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
        executor = ToolExecutor(self.tools, date) if self.feedback is not None else None

        async def checked_call(node: int, call: CheckedCall) -> AsyncIterator[Event]:
            """One action through AutoFeedback: its verdict, then every request sent, each with its papers."""
            assert executor is not None
            attempts, loop = await self._through_feedback(query, executor, call, cancel)
            if loop is not None:  # None: cancelled half-way; what was sent is still shown
                yield ToolFeedback(node, loop.loop_id, loop.status, [_round_summary(r) for r in loop.rounds])
            sent: set[str] = set()
            for attempt in attempts:
                if attempt.request in sent:  # the Crawler had nothing else to try: no new node
                    continue
                at = node
                if sent:
                    at = next(nodes)
                    yield (SearchIssued(at, 0, attempt.argument, retry_of=node) if call.kind == "Search"
                           else SectionExpanded(at, call.parent_node, call.paper_id, attempt.argument, retry_of=node))
                sent.add(attempt.request)
                if attempt.result is not None:
                    async for event in queue_papers(attempt.result, at, call.depth, call.found_by(attempt.argument)):
                        yield event

        search_options = candidates if self.crawler.query_mode == "candidates" else None
        searched = {action.argument.lower() for action in result.checked.kept}
        for action, node in affordable(result.checked.kept):
            yield SearchIssued(node, 0, action.argument)
            call = CheckedCall("Search", action.argument, result.text, search_options, searched, depth=1)
            if executor is not None:
                async for event in checked_call(node, call):
                    yield event
                continue
            found = await self.tools.search(action.argument, date)
            async for event in queue_papers(found, node, call.depth, call.found_by(action.argument)):
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
            to_run, refused = result.checked.kept, result.checked.refused
            if executor is not None:  # a section the grammar did not offer is sent: its error says why
                to_run = _with_outside(result.checked, self.crawler.actions_per_session)
                refused = [text for text in refused if text not in {a.render() for a in to_run}]
            yield CrawlerDecided("expand", paper.node, result.text, [a.render() for a in to_run],
                                 refused, round(result.seconds, 3), outline.expandable)
            expanded = {action.argument.lower() for action in to_run}
            for action, node in affordable(to_run):
                yield SectionExpanded(node, paper.node, paper.paper_id, action.argument)
                call = CheckedCall("Expand", action.argument, result.text, outline.expandable, expanded,
                                   depth=paper.depth + 1, paper_id=paper.paper_id, parent_node=paper.node,
                                   outline=outline)
                if executor is not None:
                    async for event in checked_call(node, call):
                        yield event
                    continue
                cited = await self.tools.expand(paper.paper_id, outline, action.argument)
                async for event in queue_papers(cited, node, call.depth, call.found_by(action.argument)):
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

    async def _through_feedback(self, query: str, executor: ToolExecutor, call: CheckedCall,
                                cancel: CancelToken) -> tuple[list[ToolAttempt], LoopResult | None]:
        """Run one action as a feedback loop (in a worker thread; the tools run on this loop)."""
        assert self.feedback is not None
        event_loop = asyncio.get_running_loop()
        first = len(executor.attempts)

        def generate(history) -> Generation:
            if not history:  # the action the session chose
                return Generation(call.request(call.argument), thought=call.session_text)
            if cancel.cancelled:  # no more retries; the log marks the loop failed, with this reason
                raise CrawlCancelled("the crawl was cancelled")
            left = None if call.options is None else [o for o in call.options if o.lower() not in call.tried]
            retry = self.crawler.retry(query, call.outline.paper if call.outline else None, call.kind, left,
                                       call.session_text, history[-1].feedback, cancel)
            offered = retry.checked.kept + (retry.checked.outside if call.kind == "Expand" else [])
            picks = [action for action in offered if action.argument.lower() not in call.tried]  # free text may repeat
            if not picks:  # nothing untried: the same request again, and the loop runs out
                return Generation(history[-1].request, thought=retry.text)
            chosen = picks[0].argument
            call.tried.add(chosen.lower())
            return Generation(call.request(chosen), thought=retry.text, prompt_tokens=retry.prompt_tokens)

        def execute(text: str):
            return asyncio.run_coroutine_threadsafe(executor.send(text), event_loop).result().call

        api = SEARCH_API if call.kind == "Search" else EXPAND_API
        try:
            loop = await asyncio.to_thread(self.feedback.run, query, generate, execute, relevant=[api])
        except CrawlCancelled:
            loop = None
        return executor.attempts[first:], loop

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
