"""Training the Selector's scoring head on the user's own library (``scholar-tui pasa train-selector``).

The data are citation-derived queries (``pasa build-queries``: a related-work clause becomes a
question, the works it cites its answers, the source paper's date its cut-off), split by source
paper (``queries.split_of``): only the ``train`` side is read here; ``bench pasa`` scores the
``test`` side, whose source papers the head never saw.

For each training query the candidate pool is built as a crawl builds it, without the Crawler's
model calls: the plain search of the query (top 100), the searches a tiny Crawler picks from
(the query's first three key phrases), and the expansions a crawl makes (breadth first, up to
three sections citing something per paper, within the action budget), each cited paper with the
sentences that cite it. Every pool paper gets its evidence (``core.pasa.evidence``) and a label
(is it an answer). Then:

1. the prior head (no P(True)) is fitted to rank the papers of each query (``fit_ranking``: pairwise
   inside a query, then calibrated);
2. the Selector's model judges each query's ``judge_limit`` best papers by the prior, back to back
   (``judge_queries``: only the first N training queries, where the model is slow);
3. the full head is fitted the same way with P(True) (its mean stands in where the model did not judge);
4. the head selects by the expected-F1 cut (``selector_head.expected_f1_selection``), which needs no
   parameter; the threshold and the cap with the best mean per-query F1 on these training queries are
   still fitted and stored (the rule of older head files, and the F1 it would reach is reported beside).

Reproducing the shipped default (``core/pasa/default_head.json``), a few minutes on 2 CPU cores (the
model's P(True) calls are most of it; the library's settings: the bundled smollm2-135m, the default
embedder):

    export SCHOLAR_TUI_HOME=/tmp/home-head
    scholar-tui import unarxive ../shared/data/unarxive/arXiv_src_2212_086.jsonl
    scholar-tui pasa build-queries /tmp/queries.jsonl
    scholar-tui pasa train-selector --queries /tmp/queries.jsonl --judge-queries 15 --output core/pasa/default_head.json

The evidence and the fits are deterministic; P(True) may differ in the last digits between machines.

What each input adds (the prior head, no P(True); crawls simulated as here; train: 5-fold
cross-validation over the 51 training queries grouped by their 14 source papers, threshold and cap
chosen inside each fold; test: fitted on all of train, read once on the 29 test queries; R@20 with
the crawl's additions held back unless confident, F1 of the selected set):

    inputs                                          train CV R@20  F1     test R@20  F1
    plain search's order                                    0.551  0.247      0.707  0.318
    round one: dense, words, plain rank, found by           0.594  0.229      0.739  0.357
    + pool coherence, top 5, 1/sqrt(rank) (kept)            0.635  0.234      0.781  0.355
    + pool coherence, top 5, equal weights                  0.621  0.233      0.781  0.340
    + pool coherence, top 10 / top 20                 0.615 / 0.573  ...  0.781 / 0.724  ...
    + Rocchio (query + centroid of top 10)                  0.615  0.215      0.781  0.319
    + centroid of the head's own top 5 (second pass)        0.607  0.214      0.781  0.349
    + mean of the 3 best similarities to the top 20         0.567  0.187      0.747  0.316
    + RM3: top 10's 20 heaviest words, matched              0.600  0.239      0.761  0.368
    kept + RM3 (weight flips negative against words)        0.646  0.213      0.774  0.331
    + co-cited with the top 10 (citing papers dated
      before the cut-off, so never the source)              0.589  0.220      0.739  0.352
    + dense rank / full-text rank / both lists        0.594 / 0.590 / 0.592  0.739 / 0.739 / 0.750
    + the Crawler's own searches' best rank                 0.587  0.237      0.739  0.342

Co-citation cannot be learnt here: under the cut-off an answer is cited only by the hidden source
paper (1 of 129 training answers is co-cited, 0 of 78 test answers), while 19 of 21 answers of the
person-written queries (no cut-off) are; a weight fitted on built queries would be noise or
negative, so it stays a readable part ("cited by N pool papers") and not an input.

Selection rules over the same ranking (mean per-query F1; train: the same 5-fold CV, the threshold
and cap chosen inside each fold; test: read once):

    rule                                                      train CV   test
    one global threshold                                         0.236   0.339
    threshold + cap (the rule before)                            0.234   0.359
    expected-F1 cut, plug-in 2*sum(top k p) / (k + sum(all p))   0.240   0.336
    expected-F1 cut, exact under independent Bernoullis (kept)   0.247   0.340
    the best cut per query, knowing its answers (a bound)        0.393   0.528

The expected-F1 cut needs the probabilities calibrated per query. Pooled over the CV folds they
are (0.10-0.20: mean 0.14, observed 0.15; 0.30-0.50: 0.38 vs 0.30), and a query's summed probability
matches its answers in the pool on average (2.55 vs 2.53) but follows them loosely (correlation
0.37). Recalibrating with the query's own pool (Platt on the score plus the rank in the query, the
query's best score, its margin over the second, or the pool's summed probability; fitted on
out-of-fold scores) gave 0.231-0.243: no better. Neither did more training queries
(``build-queries --per-section 10 --min-answers 1``: 132 training queries, CV R@20 0.615, F1 0.244),
the L2 penalty (0.1-1000: R@20 0.635-0.641, F1 0.235-0.248), or pairs weighted towards the top
(per query, plain top 30, 1/log2 of the first pass's rank: R@20 0.620-0.633). F1 stays bounded by
the ranking: rank 1 is an answer for a third of the training queries (CV).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from scholar_tui.core.pasa.evidence import Pool, evidence
from scholar_tui.core.pasa.phrases import search_candidates
from scholar_tui.core.pasa.queries import ScholarQuery, split_queries
from scholar_tui.core.pasa.queue import Budgets
from scholar_tui.core.pasa.selector import Selector
from scholar_tui.core.pasa.selector_head import (
    FEATURES,
    PRIOR_FEATURES,
    SelectorHead,
    best_selection,
    expected_f1_selection,
    fit_ranking,
    mean_within_query_auc,
    selection_f1,
)
from scholar_tui.core.pasa.tools import LibraryTools
from scholar_tui.training.errors import TrainingError

SEARCHES = 3  # [Search] actions a crawl spends (a session's limit)


@dataclass
class QueryRows:
    query: ScholarQuery
    ids: list[int]
    rows: list[dict]  # selector_head.FEATURES per paper
    labels: list[bool]


def simulated_pool(tools: LibraryTools, query: str, before: str | None, budgets: Budgets) -> Pool:
    """The pool a crawl of ``query`` builds, with the Crawler's choices made by rule (see the module doc)."""
    pool = Pool(budgets.max_papers, budgets.max_depth)
    node = itertools.count(1)
    pool.add_plain(tools.plain_search(query, before), 0, lambda: next(node))
    actions = 0
    for phrase in search_candidates(query, 6)[:SEARCHES]:
        actions += 1
        for paper_id in tools.search(phrase, before).paper_ids:
            pool.add(paper_id, next(node), 1, f'search "{phrase}"')
    for entry in list(pool.entries.values()):
        if actions >= budgets.max_actions or pool.full:
            break
        if entry.depth >= budgets.max_depth:
            continue
        outline = tools.outline(entry.paper_id)
        for name in outline.expandable[: budgets.actions_per_session]:
            if actions >= budgets.max_actions:
                break
            actions += 1
            result = tools.expand(entry.paper_id, outline, name)
            for paper_id in result.paper_ids:
                pool.add(
                    paper_id,
                    next(node),
                    entry.depth + 1,
                    f"expand paper:{entry.paper_id} “{name}”",
                    result.contexts.get(paper_id),
                )
    return pool


def query_rows(tools: LibraryTools, query: ScholarQuery, budgets: Budgets) -> QueryRows:
    pool = simulated_pool(tools, query.query, query.query_date or None, budgets)
    found = evidence(query.query, pool, tools.library, tools.index)
    ids = list(found)
    return QueryRows(
        query, ids, [found[paper_id].row for paper_id in ids], [paper_id in query.answer_ids for paper_id in ids]
    )


def _groups(items: list[QueryRows], features) -> list[tuple[np.ndarray, np.ndarray]]:
    """(rows, labels) per query, for the within-query fit."""
    return [
        (
            np.array([[row[name] for name in features] for row in item.rows], dtype=float).reshape(-1, len(features)),
            np.array(item.labels, dtype=bool),
        )
        for item in items
    ]


def train_head(
    tools: LibraryTools,
    queries: list[ScholarQuery],
    selector: Selector | None,
    *,
    judge_limit: int = 5,
    judge_queries: int | None = None,
    budgets: Budgets = Budgets(),
    progress: Callable[[str], None] = lambda line: None,
) -> SelectorHead:
    """The head fitted on the ``train`` split of ``queries`` (see the module doc)."""
    clock = time.monotonic()
    train = [query for query in split_queries(queries, "train") if query.answers]
    if not train:
        raise TrainingError("no training queries: build them first (scholar-tui pasa build-queries FILE)")
    items = []
    for number, query in enumerate(train, start=1):
        items.append(query_rows(tools, query, budgets))
        if number % 10 == 0:
            progress(f"evidence: {number}/{len(train)} queries")
    labels = [label for item in items for label in item.labels]
    if all(labels) or not any(labels):
        raise TrainingError("the training pools hold no answer paper (or nothing else): too few queries")
    prior = fit_ranking(PRIOR_FEATURES, _groups(items, PRIOR_FEATURES))
    judged: list[tuple[list[float], list[bool]]] = []
    for number, item in enumerate(items, start=1):
        scores = prior.score(np.array([[row[name] for name in PRIOR_FEATURES] for row in item.rows]))
        order = np.argsort(-scores, kind="stable")[:judge_limit]
        group: tuple[list[float], list[bool]] = ([], [])
        for index in order:
            row = item.rows[index]
            if selector is not None and (judge_queries is None or number <= judge_queries):
                paper = tools.library.paper(item.ids[index])
                row["p_true"] = selector.probability(item.query.query, paper["title"], paper["abstract"] or "")
                group[0].append(row["p_true"])
                group[1].append(item.labels[index])
        judged.append(group)
        if number % 5 == 0:
            progress(f"P(True): {number}/{len(items)} queries")
    values = [p for group in judged for p in group[0]]
    p_true_mean = float(np.mean(values)) if values else 0.5
    for item in items:
        for row in item.rows:
            if row["p_true"] is None:
                row["p_true"] = p_true_mean
    full = fit_ranking(FEATURES, _groups(items, FEATURES))
    groups = []
    for item in items:
        scores = full.score(np.array([[row[name] for name in FEATURES] for row in item.rows]))
        groups.append((list(map(float, scores)), item.labels, len(item.query.answers)))
    threshold, max_selected, train_f1 = best_selection(groups)
    cut_f1 = float(
        np.mean(
            [selection_f1(expected_f1_selection(scores).chosen, labels, answers) for scores, labels, answers in groups]
        )
    )
    head_judged = []
    for item, _group in zip(items, judged, strict=False):
        order = np.argsort(
            -prior.score(np.array([[row[name] for name in PRIOR_FEATURES] for row in item.rows])), kind="stable"
        )[:judge_limit]
        full_scores = full.score(np.array([[item.rows[i][name] for name in FEATURES] for i in order]))
        head_judged.append((list(map(float, full_scores)), [item.labels[i] for i in order]))
    provenance = {
        "queries": len(queries),
        "train_queries": len(train),
        "train_sources": len({query.source_arxiv_id or query.source_paper_id for query in train}),
        "pairs": len(labels),
        "relevant": int(sum(labels)),
        "judge_limit": judge_limit,
        "fit": "pairwise within query, Platt-calibrated",
        "judged_queries": sum(1 for group in judged if group[0]),
        "model": selector.llm.model_name if selector is not None else None,
        "train_auc_head_judged": mean_within_query_auc(head_judged),
        "train_auc_p_true_judged": mean_within_query_auc(judged) if values else None,
        "train_f1_at_threshold": round(train_f1, 4),
        "train_f1_expected_f1_cut": round(cut_f1, 4),
        "seconds": round(time.monotonic() - clock, 1),
        "trained": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    return SelectorHead(
        prior,
        full,
        round(p_true_mean, 4),
        float(threshold),
        judge_limit,
        max_selected,
        selection="expected_f1",
        provenance=provenance,
    )
