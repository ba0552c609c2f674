"""PaSa's metrics (§5.2): crawler recall, precision, recall, and recall@k of a ranking.

For one query with answer set P:

- crawler recall = |queue ∩ P| / |P|: what the Crawler found at all;
- precision = |selected ∩ P| / |selected| and recall = |selected ∩ P| / |P|, where ``selected``
  are the papers the Selector said True to (precision of an empty selection is 0);
- recall@k = |top-k ∩ P| / |P| of a ranking: the plain search's result list, or PaSa's results
  ordered by P(True).

Tables report the mean over queries (macro average), as the paper's do.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

KS = (20, 50, 100)


def recall(found: Iterable[int], answers: set[int]) -> float:
    if not answers:
        raise ValueError("a query needs at least one answer paper")
    return len(set(found) & answers) / len(answers)


def precision(selected: Iterable[int], answers: set[int]) -> float:
    chosen = set(selected)
    return len(chosen & answers) / len(chosen) if chosen else 0.0


def recall_at(ranking: Sequence[int], answers: set[int], k: int) -> float:
    return recall(ranking[:k], answers)


@dataclass
class QueryScores:
    query: str
    answers: int
    search_recall_at: dict[int, float]  # plain search
    crawler_recall: float
    precision: float
    recall: float
    pasa_recall_at: dict[int, float]  # PaSa's results ranked by P(True)
    crawled: int
    selected: int
    actions: int
    seconds: float
    search_seconds: float
    stop_reason: str = ""
    found_by_expand: int = 0  # answers found only through [Expand]
    retried_calls: int = 0  # [Search]/[Expand] calls AutoFeedback sent back to the Crawler
    retries: int = 0  # requests sent in their place
    limit_hit: int = 0  # calls whose loop ran out of rounds (waiting in the API debugger)
    found_by_retry: int = 0  # answers first queued by a retry
    extra: dict = field(default_factory=dict)


def score_query(
    query: str,
    answers: set[int],
    search_ranking: Sequence[int],
    queue: Sequence[int],
    selected: Iterable[int],
    pasa_ranking: Sequence[int],
    **details,
) -> QueryScores:
    return QueryScores(
        query=query,
        answers=len(answers),
        search_recall_at={k: recall_at(search_ranking, answers, k) for k in KS},
        crawler_recall=recall(queue, answers),
        precision=precision(selected, answers),
        recall=recall(selected, answers),
        pasa_recall_at={k: recall_at(pasa_ranking, answers, k) for k in KS},
        crawled=len(queue),
        selected=len(set(selected)),
        **details,
    )


def mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def summarize(scores: list[QueryScores]) -> dict:
    """The macro averages a table reports."""
    return {
        "queries": len(scores),
        "search": {f"recall@{k}": mean(s.search_recall_at[k] for s in scores) for k in KS},
        "pasa": {
            "crawler_recall": mean(s.crawler_recall for s in scores),
            "precision": mean(s.precision for s in scores),
            "recall": mean(s.recall for s in scores),
            **{f"recall@{k}": mean(s.pasa_recall_at[k] for s in scores) for k in KS},
            "mean_crawled": mean(s.crawled for s in scores),
            "mean_selected": mean(s.selected for s in scores),
            "mean_actions": mean(s.actions for s in scores),
            "mean_seconds": mean(s.seconds for s in scores),
            "answers_found_only_by_expand": sum(s.found_by_expand for s in scores),
            "retried_calls": sum(s.retried_calls for s in scores),
            "retries": sum(s.retries for s in scores),
            "limit_hit": sum(s.limit_hit for s in scores),
            "answers_found_by_retry": sum(s.found_by_retry for s in scores),
        },
        "mean_search_seconds": mean(s.search_seconds for s in scores),
    }
