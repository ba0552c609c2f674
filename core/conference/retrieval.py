"""Finding the evidence: hybrid retrieval over a conference's paths, re-scored with the tree.

Stage 1 ranks every root-to-leaf path twice and fuses the two rankings:

* dense: cosine between the question's vector and each path's STAR description vector (or the
  raw path's vector, for the path baseline);
* lexical: BM25 over the path's words (headings and value), with the question's words expanded
  by general synonyms and question-word hints (``lexical.expanded_query``).

The rankings are fused by reciprocal rank fusion (Cormack et al. 2009: score = Σ 1/(60 + rank)),
which needs no score calibration between a cosine and a BM25 score; 60 is the paper's constant.

Stage 2 re-ranks the top candidates with the tree. The default ("sections") keeps at most
``PER_SECTION`` leaves of one parent in the top k: a parent's leaves are largely one piece of
evidence (a record's fields, a list's entries), and the slots they would take go to the next best
sections, so the evidence covers the tree. The alternative ("siblings") lets a leaf gain its
siblings' stage-1 evidence, so a section that matches as a whole rises together; measured, it
crowds the top k with one section and loses hit@5 on both conferences (the ablation shows it).

Every part can be switched off (``RetrievalParts``) for the ablation that ``conf eval --ablation``
prints.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from scholar_tui.core.conference.lexical import BM25, expanded_query, words
from scholar_tui.core.conference.tree import Tree
from scholar_tui.indexes.conference_vectors import PathTable

RRF_K = 60
"""Reciprocal rank fusion's constant, from its paper (not tuned here)."""
CANDIDATES = 50
"""How many stage-1 paths stage 2 re-scores: ten times k, enough that a section's leaves are in."""
SIBLING_SHARE = 0.5
"""Weight of a leaf's section evidence (its best siblings' fused score) in the "siblings" stage 2.
On ICML 0.25 / 0.5 / 1.0 gave hit@5 82.1 / 76.8 / 70.5, all below no stage 2 (84.2)."""
SIBLINGS_COUNTED = 2
PER_SECTION = 2
"""Leaves of one parent allowed in the top k. ICML alone preferred 1 (hit@5 88.4 vs 87.4, one
question apart), ISWC 2 (71.4 vs 67.9): 2 was chosen having seen both (see the note)."""


@dataclass(frozen=True)
class RetrievalParts:
    """Which parts of retrieval run; the ablation switches them off one at a time."""

    vectors: str = "star"
    """"star" (description vectors), "path" (raw path vectors) or "star+path" (both, fused)."""
    dense: bool = True
    lexical: bool = True
    query_expansion: bool = True
    tree: str = "sections"
    """The second stage: "sections" (at most ``PER_SECTION`` leaves of one parent in the top k),
    "siblings" (a leaf gains its siblings' evidence) or "" (none)."""

    @property
    def name(self) -> str:
        if not self.lexical and not self.tree:
            return f"{self.vectors} dense"
        parts = [f"{self.vectors} dense" if self.dense else "", "BM25" if self.lexical else "",
                 "query expansion" if self.lexical and self.query_expansion else "", f"tree ({self.tree})" if self.tree else ""]
        return " + ".join(part for part in parts if part)


STAR = RetrievalParts()
PATH_BASELINE = RetrievalParts(vectors="path", lexical=False, query_expansion=False, tree="")
METHODS = {"star": STAR, "path": PATH_BASELINE}
ABLATION = (
    replace(STAR, lexical=False, query_expansion=False, tree=""),
    replace(STAR, query_expansion=False, tree=""),
    replace(STAR, tree=""),
    STAR,
    replace(STAR, tree="siblings"),
)


def _ranks(scores: np.ndarray) -> np.ndarray:
    """1 for the best score, 2 for the next…"""
    order = np.argsort(-scores, kind="stable")
    ranks = np.empty(len(scores), dtype=np.float32)
    ranks[order] = np.arange(1, len(scores) + 1, dtype=np.float32)
    return ranks


class PathRetriever:
    """Ranks one conference's paths for a question (everything in memory: a conference is small)."""

    def __init__(self, table: PathTable, tree: Tree) -> None:
        self.table = table
        self.tree = tree
        self.bm25 = BM25([words(path) for path in table.paths])
        row_of = {node_id: row for row, node_id in enumerate(table.node_ids)}
        self.parent_rows: list[int] = []
        self.rows_under: dict[int, list[int]] = {}
        for row, node_id in enumerate(table.node_ids):
            parent = tree.nodes[node_id].parent if node_id < len(tree.nodes) else None
            key = -1 - row if parent is None else parent
            self.parent_rows.append(key)
            self.rows_under.setdefault(key, []).append(row)
        self._row_of = row_of

    def stage_one(self, question: str, query_vector: np.ndarray | None, parts: RetrievalParts) -> np.ndarray:
        """Fused scores of every path (higher is better)."""
        fused = np.zeros(len(self.table), dtype=np.float32)
        if parts.dense and query_vector is not None:
            kinds = parts.vectors.split("+")
            for kind in kinds:
                cosine = self.table.vectors[kind] @ np.asarray(query_vector, dtype=np.float32)
                if not parts.lexical and len(kinds) == 1:
                    return cosine
                fused += 1.0 / (RRF_K + _ranks(cosine))
        if parts.lexical:
            query = expanded_query(question) if parts.query_expansion else {word: 1.0 for word in words(question)}
            lexical = self.bm25.scores(query)
            if not parts.dense:
                return lexical
            fused += 1.0 / (RRF_K + _ranks(lexical))
        return fused

    def stage_two(self, scores: np.ndarray) -> np.ndarray:
        """The top candidates re-scored with their siblings' evidence; the rest keep stage 1's order below them.

        Stage-1 scores are first scaled to [0, 1] over the candidates (the weakest candidate is 0),
        so a sibling adds evidence only as far as it matched better than the field did.
        """
        top = np.argsort(-scores, kind="stable")[:CANDIDATES]
        if len(top) < 2:
            return scores
        high, low = float(scores[top[0]]), float(scores[top[-1]])
        relevance = {int(row): (float(scores[row]) - low) / (high - low) if high > low else 0.0 for row in top}
        rescored = np.full(len(scores), -np.inf, dtype=np.float64)
        for row in relevance:
            siblings = sorted((relevance[other] for other in self.rows_under[self.parent_rows[row]]
                               if other != row and other in relevance), reverse=True)[:SIBLINGS_COUNTED]
            rescored[row] = relevance[row] + SIBLING_SHARE * sum(siblings) / SIBLINGS_COUNTED
        rest = np.setdiff1d(np.arange(len(scores)), top)
        rescored[rest] = -1.0 - (high - scores[rest])  # below every candidate, in stage 1's order
        return rescored

    def search(self, question: str, query_vector: np.ndarray | None, parts: RetrievalParts = STAR,
               k: int = 5) -> list[tuple[int, float]]:
        """The best ``k`` paths as (table row, score)."""
        scores = self.stage_one(question, query_vector, parts)
        if parts.tree == "siblings":
            scores = self.stage_two(scores)
        order = np.argsort(-scores, kind="stable")
        if parts.tree != "sections":
            return [(int(row), float(scores[row])) for row in order[:k]]
        return [(int(row), float(scores[row])) for row in self.one_section_each(order[:CANDIDATES], k)]

    def one_section_each(self, order: np.ndarray, k: int) -> list[int]:
        """The top ``k`` with at most ``PER_SECTION`` leaves of one parent, so that the evidence
        covers several parts of the tree; skipped siblings fill what is left, in order."""
        chosen: list[int] = []
        skipped: list[int] = []
        per_parent: dict[int, int] = {}
        for row in order.tolist():
            parent = self.parent_rows[row]
            if per_parent.get(parent, 0) < PER_SECTION:
                chosen.append(row)
                per_parent[parent] = per_parent.get(parent, 0) + 1
            else:
                skipped.append(row)
            if len(chosen) == k:
                return chosen
        return (chosen + skipped)[:k]
