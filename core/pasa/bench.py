"""PaSa against plain search on an AutoScholarQuery-style set (PaSa Tables 2 and 3).

For each query: the plain search is the library's hybrid search for the query text with the
query date as cut-off, its top 100 scored by recall@20/50/100 (the Google baselines' metric);
PaSa runs the whole loop with the same cut-off and is scored by crawler recall, precision and
recall of the Selector's picks, and recall@k of its results ranked by P(True).

``include_source`` moves the cut-off one day later, so the paper a query was made from becomes
findable (for plain search and PaSa alike). That is leakage — the source cites every answer —
and is only there to show what [Expand] does when a citing paper can be found; the default
follows the paper's protocol.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import date, timedelta

from ...models.base import CancelToken
from .engine import PaSa
from .events import CrawlFinished, PapersFound, ToolFeedback
from .metrics import QueryScores, score_query, summarize
from .queries import ScholarQuery


@dataclass
class QueryDone:
    index: int
    total: int
    scores: QueryScores


@dataclass
class BenchFinished:
    summary: dict
    scores: list[QueryScores]
    seconds: float


def cutoff(query: ScholarQuery, include_source: bool) -> str:
    if not include_source:
        return query.query_date
    return (date.fromisoformat(query.query_date[:10]) + timedelta(days=1)).isoformat()


async def bench_pasa(agent: PaSa, queries: list[ScholarQuery], *, include_source: bool = False,
                     cancel: CancelToken | None = None,
                     on_event=None) -> AsyncIterator[QueryDone | BenchFinished]:
    """Run every query; yields each query's scores, then the summary. ``on_event`` sees PaSa's events."""
    clock = time.monotonic()
    scores: list[QueryScores] = []
    tools = agent.tools
    for index, query in enumerate(queries, start=1):
        if cancel is not None and cancel.cancelled:
            break
        before = cutoff(query, include_source)
        answers = query.answer_ids
        started = time.monotonic()
        saved_limit = tools.search_limit
        tools.search_limit = 100
        try:
            ranking = await asyncio.to_thread(tools.search_library, query.query, before)
        finally:
            tools.search_limit = saved_limit
        search_seconds = time.monotonic() - started
        finished: CrawlFinished | None = None
        via_expand: set[int] = set()
        via_retry: set[int] = set()
        expand_nodes: set[int] = set()
        retry_nodes: set[int] = set()
        feedback: list[ToolFeedback] = []
        async for event in agent.run(query.query, date=before, cancel=cancel):
            if on_event is not None:
                on_event(event)
            if event.kind in ("search", "expand") and event.retry_of is not None:
                retry_nodes.add(event.node)
            if event.kind == "expand":
                expand_nodes.add(event.node)
            elif isinstance(event, ToolFeedback):
                feedback.append(event)
            elif isinstance(event, PapersFound):
                if event.parent in expand_nodes:
                    via_expand.update(paper.paper_id for paper in event.papers)
                if event.parent in retry_nodes:
                    via_retry.update(paper.paper_id for paper in event.papers)
            elif isinstance(event, CrawlFinished):
                finished = event
        assert finished is not None
        pasa_ranking = [paper.paper_id for paper in finished.results]
        query_scores = score_query(
            query.query, answers, ranking, finished.queue, [paper.paper_id for paper in finished.selected],
            pasa_ranking, actions=finished.actions, seconds=finished.seconds, search_seconds=search_seconds,
            stop_reason=finished.stop_reason,
            found_by_expand=len(via_expand & answers),
            retried_calls=sum(event.retried for event in feedback),
            retries=len(retry_nodes),
            limit_hit=sum(event.status == "limit_hit" for event in feedback),
            found_by_retry=len(via_retry & answers),
        )
        scores.append(query_scores)
        yield QueryDone(index, len(queries), query_scores)
    yield BenchFinished(summarize(scores), scores, time.monotonic() - clock)


def table(summary: dict, model: str) -> str:
    """The result table in the paper's layout (Table 2)."""
    search, pasa = summary["search"], summary["pasa"]
    rows = [
        ("Method", "Crawler recall", "Precision", "Recall", "Recall@100", "Recall@50", "Recall@20"),
        ("Plain search (library hybrid)", "-", "-", "-", f"{search['recall@100']:.4f}", f"{search['recall@50']:.4f}",
         f"{search['recall@20']:.4f}"),
        (f"PaSa ({model})", f"{pasa['crawler_recall']:.4f}", f"{pasa['precision']:.4f}", f"{pasa['recall']:.4f}",
         f"{pasa['recall@100']:.4f}", f"{pasa['recall@50']:.4f}", f"{pasa['recall@20']:.4f}"),
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)
