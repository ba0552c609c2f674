"""Selector SFT data from the user's own library: (query, paper) -> True/False, PaSa §4.3 at our scale.

PaSa labels its Selector data with GPT-4o; here the labels come from the citations that built the
queries (``pasa build-queries``): a query's answers (the works its source paper cites for it) are
``True``, and the plain search's top hits that are not answers are ``False`` — hard negatives, the
papers a search box returns for the words of the query. Only the ``train`` split (by source paper,
``queries.split_of``) is read, so ``bench pasa`` and ``selector_auc`` score the Selector on source
papers it never saw. A held-out slice of the training sources (again by source paper) is written
apart for the loss curve (``train selector-sft --eval-file``).

The prompt is the engine's own (``Selector._messages``: PaSa's Table 15 with the abstract cut to
``MAX_ABSTRACT_WORDS``), and the rationale is a short templated line: what counts is the decision
token, the Selector's score.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from scholar_tui.core.pasa.prompts import SelectorRecord
from scholar_tui.core.pasa.queries import ScholarQuery, source_bucket, split_queries
from scholar_tui.core.pasa.selector import short_abstract
from scholar_tui.core.pasa.tools import LibraryTools

NEGATIVE_DEPTH = 20  # hard negatives come from the plain search's top 20


@dataclass
class SelectorPairs:
    train: list[SelectorRecord]
    held_out: list[SelectorRecord]
    queries: int
    held_out_queries: int


def is_held_out(query: ScholarQuery, share: int) -> bool:
    """A stable ``share`` percent of the training source papers (another hash than the test split's)."""
    return source_bucket(query, salt="held-out:") < share


def _record(query: ScholarQuery, paper: dict, decision: bool) -> SelectorRecord:
    rationale = (
        "the source paper cites it for this topic"
        if decision
        else "a search hit for the query's words that the source paper does not cite for it"
    )
    return SelectorRecord(
        query.query, paper["title"] or "", short_abstract(paper["abstract"] or ""), decision, rationale
    )


def query_records(
    tools: LibraryTools, query: ScholarQuery, negatives_per_positive: int, rng: random.Random
) -> list[SelectorRecord]:
    """One query's positives (its answers in the library) and up to ``negatives_per_positive`` hard
    negatives each, drawn from the plain search's top ``NEGATIVE_DEPTH`` (query date as cut-off)."""
    answers = query.answer_ids
    hits = [hit.paper_id for hit in tools.plain_search(query.query, query.query_date or None)][:NEGATIVE_DEPTH]
    negatives = [paper_id for paper_id in hits if paper_id not in answers]
    papers = tools.library.papers(sorted(answers) + negatives)
    positives = [paper_id for paper_id in sorted(answers) if paper_id in papers]
    negatives = [paper_id for paper_id in negatives if paper_id in papers]
    negatives = rng.sample(negatives, min(len(negatives), negatives_per_positive * len(positives)))
    return [_record(query, papers[paper_id], True) for paper_id in positives] + [
        _record(query, papers[paper_id], False) for paper_id in negatives
    ]


def selector_pairs(
    tools: LibraryTools,
    queries: list[ScholarQuery],
    *,
    negatives_per_positive: int = 3,
    held_out_share: int = 15,
    seed: int = 0,
) -> SelectorPairs:
    """Training and held-out records from the ``train`` split of ``queries`` (see the module doc)."""
    rng = random.Random(seed)
    train: list[SelectorRecord] = []
    held_out: list[SelectorRecord] = []
    train_queries = [query for query in split_queries(queries, "train") if query.answers]
    held = 0
    for query in train_queries:
        records = query_records(tools, query, negatives_per_positive, rng)
        if is_held_out(query, held_out_share):
            held += 1
            held_out.extend(records)
        else:
            train.extend(records)
    rng.shuffle(train)
    return SelectorPairs(train, held_out, len(train_queries) - held, held)
