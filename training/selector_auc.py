"""P(True) of several Selector models on the same held-out (query, paper) pairs, in one run.

The pairs are the ones PaSa's model judges: for each query of the ``test`` split (source papers the
head and the Selector SFT never saw), the pool a crawl builds (``selector_head.simulated_pool``, the
Crawler's choices made by rule), ranked by the scoring head's prior, its top ``limit`` papers
(``judge_limit``, 5 by default: what ``bench pasa`` judges; more gives more pairs per query).
Each model gives P(True) for every pair, and the AUC is ``bench pasa``'s: within each query, then
averaged over the queries that hold both an answer and a non-answer. The head's AUC is given beside,
with each model's P(True) as the head's P(True) input (the head's weights as they are).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from scholar_tui.core.pasa.queries import ScholarQuery, split_queries
from scholar_tui.core.pasa.queue import Budgets
from scholar_tui.core.pasa.selector import Selector
from scholar_tui.core.pasa.selector_head import SelectorHead, mean_within_query_auc
from scholar_tui.core.pasa.tools import LibraryTools
from scholar_tui.training.selector_head import query_rows


@dataclass(frozen=True)
class JudgedQuery:
    query: str
    paper_ids: list[int]
    labels: list[bool]
    rows: list[dict]  # the head's features (selector_head.FEATURES) per paper, P(True) unset


@dataclass(frozen=True)
class ModelScore:
    model: str
    auc: float | None
    head_auc: float | None  # the scoring head with this model's P(True) as its P(True) input
    mean_p_true: float
    seconds: float


def judged_pairs(
    tools: LibraryTools,
    queries: list[ScholarQuery],
    head: SelectorHead,
    *,
    split: str = "test",
    limit: int | None = None,
    budgets: Budgets = Budgets(),
) -> list[JudgedQuery]:
    """The papers the model would judge for each query of ``split``: the prior's top ``limit``."""
    judged = []
    for query in split_queries(queries, split):
        if not query.answers:
            continue
        rows = query_rows(tools, query, budgets)
        order = np.argsort(-head.prior_scores(rows.rows), kind="stable")[: limit or head.judge_limit]
        judged.append(
            JudgedQuery(
                query.query,
                [rows.ids[i] for i in order],
                [rows.labels[i] for i in order],
                [rows.rows[i] for i in order],
            )
        )
    return judged


def score_model(
    name: str,
    selector: Selector,
    tools: LibraryTools,
    judged: list[JudgedQuery],
    head: SelectorHead,
    progress: Callable[[str], None] = lambda line: None,
) -> ModelScore:
    """P(True) for every judged pair, back to back per query (the engine's order: one shared prefix)."""
    clock = time.monotonic()
    groups, head_groups = [], []
    for number, item in enumerate(judged, start=1):
        papers = tools.library.papers(item.paper_ids)
        scores = [
            selector.probability(item.query, papers[paper_id]["title"] or "", papers[paper_id]["abstract"] or "")
            for paper_id in item.paper_ids
        ]
        groups.append((scores, item.labels))
        rows = [{**row, "p_true": score} for row, score in zip(item.rows, scores, strict=False)]
        head_groups.append((list(map(float, head.full_scores(rows))), item.labels))
        if number % 10 == 0:
            progress(f"{name}: {number}/{len(judged)} queries")
    values = [score for scores, _ in groups for score in scores]
    return ModelScore(
        name,
        mean_within_query_auc(groups),
        mean_within_query_auc(head_groups),
        float(np.mean(values)) if values else 0.0,
        time.monotonic() - clock,
    )
