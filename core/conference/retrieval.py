"""Finding the evidence: hybrid retrieval over a conference's paths, re-scored with the tree.

Stage 1 ranks every root-to-leaf path twice and fuses the two rankings:

* dense: cosine between the question's vector and each path's STAR description vector (or the
  raw path's vector, for the path baseline);
* lexical: BM25 over the path's words (headings and value), with the question's words expanded
  by general synonyms and question-word hints (``lexical.expanded_query``).

The rankings are fused by reciprocal rank fusion (Cormack et al. 2009: score = Σ 1/(60 + rank)),
which needs no score calibration between a cosine and a BM25 score; 60 is the paper's constant.
Up to three paths are then kept in the top k whatever the fusion says: each ranker's first ("heads": a
name only BM25 can match is often ranked 1,000th by dense, and RRF's flat curve then lets paths
both rank middling push it out), and, when the question names the conference itself, the site's
top-level fact its words name ("conference facts": the conference's own date or place).

Stage 2 re-ranks the top candidates with the tree. The default ("sections") keeps at most
``PER_SECTION`` leaves of one parent in the top k: a parent's leaves are largely one piece of
evidence (a record's fields, a list's entries), and the slots they would take go to the next best
sections, so the evidence covers the tree. The alternative ("siblings") lets a leaf gain its
siblings' stage-1 evidence, so a section that matches as a whole rises together; measured, it
crowds the top k with one section and loses hit@5 on both conferences (the ablation shows it).

Finally a path that is a record's field the question names ("…»Jane Doe»name»Jane Doe") brings
the same record's field the question asks for ("Home page") next to it ("record fields",
``records.asked_field``).

Every part can be switched off (``RetrievalParts``) for the ablation that ``conf eval --ablation``
prints.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from scholar_tui.core.conference.evidence import squash
from scholar_tui.core.conference.lexical import BM25, expanded_query, words
from scholar_tui.core.conference.records import asked_field, label_fit
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


class Retrieved(NamedTuple):
    """One path the retriever found: its table row, its score (the fused one, or the cosine or
    BM25 score of a single ranker) and, for a path kept in the top k whatever its score says, why."""

    row: int
    score: float
    kept: str = ""


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
    heads: bool = True
    """Each ranker's best path is kept in the top k (fused order among them)."""
    conference_facts: bool = True
    """A question that names the conference itself keeps the site's top-level fact its words
    name ("What is the date of ICML2023?" → "ICML2023»Year(2023)»date") in the top k."""
    records: bool = True
    """A record's field that the question names brings the field it asks for next to it
    ("What is Jane Doe's homepage?" finds "name: Jane Doe", then "Home page: …")."""

    @property
    def name(self) -> str:
        if not self.lexical and not self.tree:
            return f"{self.vectors} dense"
        parts = [
            f"{self.vectors} dense" if self.dense else "",
            "BM25" if self.lexical else "",
            "rankers' heads kept" if self.lexical and self.dense and self.heads else "",
            "conference facts" if self.lexical and self.conference_facts else "",
            "query expansion" if self.lexical and self.query_expansion else "",
            f"tree ({self.tree})" if self.tree else "",
            "record fields" if self.records and self.tree else "",
        ]
        return " + ".join(part for part in parts if part)


STAR = RetrievalParts()
PATH_BASELINE = RetrievalParts(
    vectors="path", lexical=False, query_expansion=False, heads=False, conference_facts=False, tree="", records=False
)
METHODS = {"star": STAR, "path": PATH_BASELINE}
_PLAIN = replace(STAR, conference_facts=False)
ABLATION = (
    replace(_PLAIN, lexical=False, query_expansion=False, heads=False, tree="", records=False),
    replace(_PLAIN, query_expansion=False, heads=False, tree="", records=False),
    replace(_PLAIN, heads=False, tree="", records=False),
    replace(_PLAIN, tree="", records=False),
    replace(_PLAIN, records=False),
    _PLAIN,
    STAR,
    replace(_PLAIN, heads=False, tree="siblings", records=False),
)


def _head(scores: np.ndarray) -> int | None:
    """The row a ranker puts first (the site's first among ties), or None when it scores every
    path alike (it prefers nothing: no word of the question is on the site, say)."""
    if not len(scores) or float(scores.max()) <= float(scores.min()):
        return None
    return int(np.argmax(scores))


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
        depths = [tree.nodes[node_id].depth for node_id in table.node_ids if node_id < len(tree.nodes)]
        shallowest = min(depths, default=0)
        self.top_level_rows = [
            row
            for row, node_id in enumerate(table.node_ids)
            if node_id < len(tree.nodes) and tree.nodes[node_id].depth <= shallowest + 1 and tree.nodes[node_id].label
        ]

    def stage_one(
        self, question: str, query_vector: np.ndarray | None, parts: RetrievalParts
    ) -> tuple[np.ndarray, np.ndarray, dict[int, str]]:
        """Every path's score (cosine or BM25 alone, else fused), its order (the score lifted for
        the paths kept in the top k whatever it says; higher first), and why each kept path is."""
        rankings: list[tuple[str, np.ndarray]] = []
        if parts.dense and query_vector is not None:
            kinds = parts.vectors.split("+")
            for kind in kinds:
                cosine = self.table.vectors[kind] @ np.asarray(query_vector, dtype=np.float32)
                if not parts.lexical and len(kinds) == 1:
                    return cosine, cosine, {}
                rankings.append((f"the {kind} vectors'" if len(kinds) > 1 else "the dense search's", cosine))
        if parts.lexical:
            query = (
                expanded_query(question, self.bm25.postings)
                if parts.query_expansion
                else {word: 1.0 for word in words(question)}
            )
            lexical = self.bm25.scores(query)
            if not parts.dense:
                return lexical, lexical, {}
            rankings.append(("BM25's", lexical))
        fused = np.zeros(len(self.table), dtype=np.float32)
        for _, scores in rankings:
            fused += 1.0 / (RRF_K + _ranks(scores))
        order, heads = fused.copy(), dict[int, list[str]]()
        if parts.heads:
            # Each ranker's best path stays in the top k: an exact lexical match (a name, a title)
            # that the dense side ranks 1,000th, or the reverse, would otherwise fall below paths
            # both rank middling. 1.0 is above any fused score (at most 2 / (RRF_K + 1)).
            for ranker, scores in rankings:
                head = _head(scores)
                if head is not None:
                    order[head] += 1.0
                    heads.setdefault(head, []).append(ranker)
        kept = {row: " and ".join(rankers) + " best match" for row, rankers in heads.items()}
        if parts.lexical and parts.conference_facts:
            fact = self.conference_fact(question)
            if fact is not None:
                order[fact] += 0.5  # in the top k, after the rankers' heads (first: ICML EA F1 +3.5, EC -0.9)
                kept.setdefault(fact, "the conference's own fact the question names")
        return fused, order, kept

    def conference_fact(self, question: str) -> int | None:
        """The row of the site's top-level fact the question asks for, when it asks about the
        conference itself (names the root, "ICML2023" or "ICML 2023").

        Conference sites state the conference's own date, place and description at the top (a
        home page, a "Year" section); deeper down the same words name a workshop's date or a
        hotel's location. So: the leaves of the two shallowest levels whose label the question's
        words (and their synonyms, not the question-word hints) fit; the best, the site's first
        among equals.
        """
        root = squash(self.tree.root.label)
        if not root or root not in squash(question):
            return None
        asked = expanded_query(question, self.bm25.postings, hints=False)
        best, best_fit = None, 0.0
        for row in self.top_level_rows:
            fit = label_fit(asked, self.tree.nodes[self.table.node_ids[row]].label)
            if fit > best_fit:
                best, best_fit = row, fit
        return best

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
            siblings = sorted(
                (
                    relevance[other]
                    for other in self.rows_under[self.parent_rows[row]]
                    if other != row and other in relevance
                ),
                reverse=True,
            )[:SIBLINGS_COUNTED]
            rescored[row] = relevance[row] + SIBLING_SHARE * sum(siblings) / SIBLINGS_COUNTED
        rest = np.setdiff1d(np.arange(len(scores)), top)
        rescored[rest] = -1.0 - (high - scores[rest])  # below every candidate, in stage 1's order
        return rescored

    def search(
        self, question: str, query_vector: np.ndarray | None, parts: RetrievalParts = STAR, k: int = 5
    ) -> list[Retrieved]:
        """The best ``k`` paths, best first."""
        scores, lifted, kept = self.stage_one(question, query_vector, parts)
        if parts.tree == "siblings":
            scores = lifted = self.stage_two(lifted)
        order = np.argsort(-lifted, kind="stable")
        if parts.tree != "sections":
            rows = order[:k].tolist()
        else:
            rows = order[:CANDIDATES].tolist()
            if parts.records:
                rows, brought = self.with_asked_fields(question, rows, k)
                for row in brought:
                    kept.setdefault(row, "the field the question asks of a record it names")
            rows = self.one_section_each(rows, k)
        return [Retrieved(int(row), float(scores[row]), kept.get(int(row), "")) for row in rows]

    def with_asked_fields(self, question: str, order: list[int], k: int) -> tuple[list[int], set[int]]:
        """``order`` with, right after each of the first ``k`` paths that is a record's field the
        question names, that record's field the question asks for; and the fields so brought.

        "What is the homepage of the chair, Jane Doe?" matches "…»Jane Doe»name»Jane Doe" best;
        the evidence is the same record's "Home page", which shares no word with the question
        but its label. Only a named field brings one in (it identifies the record); the field
        brought is the one the question asks for, else the record's title field.
        """
        asked = expanded_query(question, self.bm25.postings)
        result: list[int] = []
        brought: set[int] = set()
        for position, row in enumerate(order):
            if row in result:
                continue
            result.append(row)
            if position >= k:
                continue
            field = self._asked_field(question, asked, row)
            if field is not None and field not in result:
                result.append(field)
                brought.add(field)
        return result, brought

    def _asked_field(self, question: str, asked: dict[str, float], row: int) -> int | None:
        node_id = self.table.node_ids[row]
        if node_id >= len(self.tree.nodes):
            return None
        field = asked_field(question, asked, self.tree.nodes[node_id], self.tree, fallback="title")
        return None if field is None else self._row_of.get(field.id)

    def one_section_each(self, order: list[int], k: int) -> list[int]:
        """The top ``k`` with at most ``PER_SECTION`` leaves of one parent, so that the evidence
        covers several parts of the tree; skipped siblings fill what is left, in order."""
        chosen: list[int] = []
        skipped: list[int] = []
        per_parent: dict[int, int] = {}
        for row in order:
            parent = self.parent_rows[row]
            if per_parent.get(parent, 0) < PER_SECTION:
                chosen.append(row)
                per_parent[parent] = per_parent.get(parent, 0) + 1
            else:
                skipped.append(row)
            if len(chosen) == k:
                return chosen
        return (chosen + skipped)[:k]
