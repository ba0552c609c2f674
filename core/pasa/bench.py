"""PaSa against plain search on an AutoScholarQuery-style set (PaSa Tables 2 and 3), in one run.

For each query: the plain search is the library's hybrid search for the query text with the
query date as cut-off, its top 100 scored by recall@20/50/100 (the Google baselines' metric);
PaSa runs the whole loop with the same cut-off and is scored by crawler recall (the pool),
precision / recall / F1 of the selected set, recall@k of its results ranked by score, and the
AUC of the scoring head and of P(True) alone over the papers the model judged (within each
query, averaged). Seconds per query and the time to the first ranking are kept per query.

``include_source`` moves the cut-off one day later, so the paper a query was made from becomes
findable (for plain search and PaSa alike). That is leakage — the source cites every answer —
and is only there to show what [Expand] does when a citing paper can be found; the default
follows the paper's protocol. Person-written queries (``person_queries``) have no cut-off.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

from scholar_tui.core.pasa.engine import PaSaEngine
from scholar_tui.core.pasa.events import CallFeedback, CrawlFinished, PapersFound, SearchIssued, SectionExpanded
from scholar_tui.core.pasa.metrics import QueryScores, score_query, summarize
from scholar_tui.core.pasa.queries import AnswerPaper, QuerySetError, ScholarQuery
from scholar_tui.core.pasa.selector_head import auc, f1
from scholar_tui.indexes.library import Library


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


def cutoff(query: ScholarQuery, include_source: bool) -> str | None:
    if not query.query_date:
        return None  # a person's query: no cut-off
    if not include_source:
        return query.query_date
    return (date.fromisoformat(query.query_date[:10]) + timedelta(days=1)).isoformat()


def _crawl(agent: PaSaEngine, query: ScholarQuery, before: str | None, cancel, on_event):
    """Run one query; what the scores need from its events."""
    finished: CrawlFinished | None = None
    via_expand: set[int] = set()
    via_retry: set[int] = set()
    expand_nodes: set[int] = set()
    retry_nodes: set[int] = set()
    feedback: list[CallFeedback] = []
    for event in agent.run(query.query, date=before, cancel=cancel):
        if on_event is not None:
            on_event(event)
        if isinstance(event, (SearchIssued, SectionExpanded)) and event.retry_of is not None:
            retry_nodes.add(event.node)
        if isinstance(event, SectionExpanded):
            expand_nodes.add(event.node)
        elif isinstance(event, CallFeedback):
            feedback.append(event)
        elif isinstance(event, PapersFound):
            if event.parent in expand_nodes:
                via_expand.update(paper.paper_id for paper in event.papers)
            if event.parent in retry_nodes:
                via_retry.update(paper.paper_id for paper in event.papers)
        elif isinstance(event, CrawlFinished):
            finished = event
    assert finished is not None
    return finished, via_expand, via_retry, retry_nodes, feedback


def bench_pasa(
    agent: PaSaEngine,
    queries: list[ScholarQuery],
    *,
    include_source: bool = False,
    cancel: threading.Event | None = None,
    on_event=None,
) -> Iterator[QueryDone | BenchFinished]:
    """Run every query; yields each query's scores, then the summary. ``on_event`` sees PaSa's events."""
    clock = time.monotonic()
    scores: list[QueryScores] = []
    for index, query in enumerate(queries, start=1):
        if cancel is not None and cancel.is_set():
            break
        before = cutoff(query, include_source)
        answers = query.answer_ids
        # The crawl first, so that its first ranking pays for embedding the query (as a person's query does);
        # the plain search after it is the same call, its ranking the baseline.
        finished, via_expand, via_retry, retry_nodes, feedback = _crawl(agent, query, before, cancel, on_event)
        started = time.monotonic()
        ranking = [hit.paper_id for hit in agent.tools.plain_search(query.query, before)]
        search_seconds = time.monotonic() - started
        judged = [paper for paper in finished.results if paper.parts.p_true is not None]
        moved = top_moves(ranking, [paper.paper_id for paper in finished.results], answers)
        labels = [paper.paper_id in answers for paper in judged]
        selected = [paper.paper_id for paper in finished.selected]
        query_scores = score_query(
            query.query,
            answers,
            ranking,
            finished.queue,
            selected,
            [paper.paper_id for paper in finished.results],
            actions=finished.actions,
            seconds=finished.seconds,
            search_seconds=search_seconds,
            stop_reason=finished.stop_reason,
            found_by_expand=len(via_expand & answers),
            retried_calls=sum(event.retried for event in feedback),
            retries=len(retry_nodes),
            limit_hit=sum(event.status == "limit_hit" for event in feedback),
            found_by_retry=len(via_retry & answers),
            extra={
                "f1": f1(len(selected), len(set(selected) & answers), len(answers)),
                "first_results_seconds": finished.first_results_seconds,
                "auc_head": auc([paper.score for paper in judged], labels),
                "auc_p_true": auc([paper.parts.p_true for paper in judged], labels),
                "auc_head_pool": auc(
                    [paper.score for paper in finished.results],
                    [paper.paper_id in answers for paper in finished.results],
                ),
                **moved,
            },
        )
        scores.append(query_scores)
        yield QueryDone(index, len(queries), query_scores)
    yield BenchFinished(summary_with_head(scores), scores, time.monotonic() - clock)


def top_moves(plain: list[int], pasa: list[int], answers: set[int], k: int = 20) -> dict[str, int]:
    """Answers PaSa's top k holds that plain search's top k misses (gained), and the reverse (lost)."""
    plain_top, pasa_top = set(plain[:k]) & answers, set(pasa[:k]) & answers
    return {"top20_gained": len(pasa_top - plain_top), "top20_lost": len(plain_top - pasa_top)}


def _mean(values) -> float | None:
    values = [value for value in values if value is not None]
    return sum(values) / len(values) if values else None


def summary_with_head(scores: list[QueryScores]) -> dict:
    """PaSa's macro averages, plus F1, the AUCs and the time figures (medians)."""
    summary = summarize(scores)
    seconds = [score.seconds for score in scores]
    first = [
        score.extra["first_results_seconds"] for score in scores if score.extra.get("first_results_seconds") is not None
    ]
    summary["pasa"].update(
        {
            "f1": _mean(score.extra.get("f1") for score in scores) or 0.0,
            "auc_head": _mean(score.extra.get("auc_head") for score in scores),
            "auc_p_true": _mean(score.extra.get("auc_p_true") for score in scores),
            "auc_head_pool": _mean(score.extra.get("auc_head_pool") for score in scores),
            "median_seconds": statistics.median(seconds) if seconds else 0.0,
            "median_first_results_seconds": statistics.median(first) if first else None,
            "max_first_results_seconds": max(first) if first else None,
            "top20_gained": sum(score.extra.get("top20_gained", 0) for score in scores),
            "top20_lost": sum(score.extra.get("top20_lost", 0) for score in scores),
        }
    )
    return summary


def _cell(value, digits: int = 4) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def table(summary: dict, model: str, head: str) -> str:
    """The result table in the paper's layout (Table 2), with F1, the AUCs and seconds beside."""
    search, pasa = summary["search"], summary["pasa"]
    rows = [
        ("Method", "Crawler recall", "Precision", "Recall", "F1", "R@100", "R@50", "R@20", "AUC", "s/query"),
        (
            "Plain search (library hybrid)",
            "-",
            "-",
            "-",
            "-",
            _cell(search["recall@100"]),
            _cell(search["recall@50"]),
            _cell(search["recall@20"]),
            "-",
            _cell(summary["mean_search_seconds"], 2),
        ),
        (
            f"PaSa ({model}, {head})",
            _cell(pasa["crawler_recall"]),
            _cell(pasa["precision"]),
            _cell(pasa["recall"]),
            _cell(pasa["f1"]),
            _cell(pasa["recall@100"]),
            _cell(pasa["recall@50"]),
            _cell(pasa["recall@20"]),
            _cell(pasa["auc_head"], 3),
            _cell(pasa["median_seconds"], 1),
        ),
        ("  P(True) alone, same judged papers", "", "", "", "", "", "", "", _cell(pasa["auc_p_true"], 3), ""),
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


# -- person-written queries ------------------------------------------------------------------------------
def read_person_queries(path: str | Path, library: Library) -> list[ScholarQuery]:
    """``query<TAB>title substring|…`` lines (# comments): each substring names the library papers whose
    title contains it (lower-cased); no date, so no cut-off. A substring no title contains is dropped."""
    path = Path(path)
    if not path.is_file():
        raise QuerySetError(f"{path}: no such file")
    titles = [(paper["id"], (paper["title"] or "").lower(), paper["arxiv_id"]) for paper in library.all_papers()]
    queries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        if "\t" not in line:
            raise QuerySetError(f"{path.name} line {number}: expected query<TAB>title substrings")
        text, wanted = line.split("\t", 1)
        answers = {}
        for piece in (piece.strip().lower() for piece in wanted.split("|")):
            for paper_id, title, arxiv_id in titles:
                if piece and piece in title:
                    answers[paper_id] = AnswerPaper(paper_id, title, arxiv_id)
        if answers:
            queries.append(ScholarQuery(text.strip(), list(answers.values()), "", section="person-written"))
    return queries


# -- a person's question set: right / wrong / abstained ----------------------------------------------------
TOP_SHOWN = 5  # what a person reads first: the top five of the ranking


@dataclass
class PersonQuery:
    """A person-written query with the papers a person expects (none: nothing in the library fits)."""

    query: str
    expected: dict[int, str]  # paper id -> title; empty: the right answer is "nothing fits"
    held_out: bool
    wanted: list[str]  # the title substrings as written


@dataclass
class PersonVerdict:
    query: PersonQuery
    verdict: str  # "right" | "wrong" | "abstained"
    found_in_top: int  # expected papers in the top five
    top: list[str]  # the top five titles
    nothing_fits: str | None
    seconds: float

    def line(self) -> str:
        wanted = len(self.query.expected)
        where = (
            f"{self.found_in_top}/{wanted} expected in the top {TOP_SHOWN}" if wanted else "nothing in the library fits"
        )
        said = "said nothing fits" if self.nothing_fits else f"top: {self.top[0][:60] if self.top else '-'}"
        return (
            f"{'held-out' if self.query.held_out else 'dev':8} {self.verdict:9} {where} · {said} · "
            f"{self.seconds:.0f} s · {self.query.query}"
        )


def read_person_set(path: str | Path, library: Library, part: str = "dev") -> list[PersonQuery]:
    """``query<TAB>title substrings|… (or -)<TAB>dev|held-out`` lines; ``part``: dev, held-out or all."""
    path = Path(path)
    if not path.is_file():
        raise QuerySetError(f"{path}: no such file")
    titles = [(paper["id"], paper["title"] or "") for paper in library.all_papers()]
    queries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 3 or fields[2].strip() not in ("dev", "held-out"):
            raise QuerySetError(f"{path.name} line {number}: expected query<TAB>title substrings or -<TAB>dev|held-out")
        text, wanted, which = (field.strip() for field in fields)
        pieces = [] if wanted == "-" else [piece.strip().lower() for piece in wanted.split("|") if piece.strip()]
        expected = {paper_id: title for paper_id, title in titles for piece in pieces if piece in title.lower()}
        if pieces and not expected:
            raise QuerySetError(f"{path.name} line {number}: no library title holds any of {pieces}")
        if part == "all" or (which == "held-out") == (part == "held-out"):
            queries.append(PersonQuery(text, expected, which == "held-out", pieces))
    return queries


def person_verdict(agent: PaSaEngine, query: PersonQuery, cancel: threading.Event | None = None) -> PersonVerdict:
    """One query as a person sees it: right (an expected paper in the top five, or "nothing fits" when
    nothing should), abstained (said nothing fits although a paper should), wrong (anything else)."""
    finished = None
    for event in agent.run(query.query, cancel=cancel):
        if isinstance(event, CrawlFinished):
            finished = event
    assert finished is not None
    top = finished.results[:TOP_SHOWN]
    found = sum(paper.paper_id in query.expected for paper in top)
    if finished.nothing_fits:
        verdict = "right" if not query.expected else "abstained"
    elif query.expected and found:
        verdict = "right"
    else:
        verdict = "wrong"
    return PersonVerdict(query, verdict, found, [paper.title for paper in top], finished.nothing_fits, finished.seconds)


def verdict_counts(verdicts: list[PersonVerdict]) -> dict[str, int]:
    counts = {"right": 0, "wrong": 0, "abstained": 0}
    for item in verdicts:
        counts[item.verdict] += 1
    return counts
