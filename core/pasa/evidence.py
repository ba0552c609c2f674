"""The candidate pool of one run and the evidence the Selector's scoring head reads for each paper.

The pool only grows: the plain search of the query as written comes first (its top 100, not
counted against the paper budget), the Crawler's searches and expansions add to it. Every paper
remembers how it got there — its plain-search ranks, which actions found it, its depth, and the
sentences that cite it in the sections [Expand] read.

``evidence`` turns the pool into one row of ``selector_head.FEATURES`` per paper plus the
readable ``ScoreParts`` shown beside its score.

Pool coherence (``centroid_dense``) is pseudo-relevance feedback in the embedding space (Rocchio):
the centroid of the plain search's top ``COHERENCE_TOP`` papers (the better hits weigh more)
stands for the topic the query landed in; a paper close to it is close to what the best hits are
about, even when its title shares few words with the query (papers cited together are
topically coherent). It reads only the plain search's hits, so it keeps the query's date
cut-off. ``COHERENCE_TOP`` and the weights were chosen by cross-validation on the training split
(5 beat 10 and 20, 1/sqrt(rank) beat equal weights; the table in ``training/selector_head.py``).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from scholar_tui.core.pasa.citation_context import best_context, lexical_match
from scholar_tui.core.pasa.events import PLAIN_DEPTH, ScoreParts
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.library_search import LibraryIndex, SearchHit
from scholar_tui.indexes.pasa_works import citing_papers
from scholar_tui.indexes.search_changes import paper_text
from scholar_tui.models.embeddings import normalized

COHERENCE_TOP = 5  # plain-search hits whose centroid stands for the query's topic
# Pool papers without a stored vector (a large import whose index is still filling) embedded per
# ranking, plain hits first (the pool holds ~100-140 papers), in batches between which a cancel and
# the time spent are checked: MiniLM on llama.cpp took 11 s for 64 abstracts on this loaded 2-core
# machine (~2 s on a quiet one), so a ranking spends at most POOL_EMBED_SECONDS on it.
POOL_EMBED = 64
POOL_EMBED_SECONDS = 3.0
EMBED_BATCH = 8


class MemoEmbedder:
    """The embedder with a memory: the query is embedded once per run, for the plain search and the evidence."""

    def __init__(self, embedder, size: int = 256) -> None:
        self.embedder = embedder
        self.size = size
        self._memo: dict[str, object] = {}

    def __getattr__(self, name):
        return getattr(self.embedder, name)

    def embed(self, texts):
        missing = [text for text in dict.fromkeys(texts) if text not in self._memo]
        if missing:
            if len(self._memo) + len(missing) > self.size:
                self._memo.clear()
            self._memo.update(zip(missing, self.embedder.embed(missing), strict=False))
        return np.array([self._memo[text] for text in texts])


@dataclass
class PoolEntry:
    paper_id: int
    node: int
    depth: int
    found_by: list[str] = field(default_factory=list)  # every action that found it, first one first
    plain: SearchHit | None = None
    plain_rank: int | None = None
    contexts: list[str] = field(default_factory=list)  # sentences citing it in expanded sections


class Pool:
    """Papers in the order they were found; ``crawled`` counts those the Crawler added (the paper budget)."""

    def __init__(self, max_crawled: int, max_depth: int) -> None:
        self.entries: dict[int, PoolEntry] = {}
        self.max_crawled = max_crawled
        self.max_depth = max_depth
        self.crawled = 0

    def __contains__(self, paper_id: int) -> bool:
        return paper_id in self.entries

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def ids(self) -> list[int]:
        return list(self.entries)

    @property
    def full(self) -> bool:
        return self.crawled >= self.max_crawled

    def add_plain(self, hits: list[SearchHit], node: int, next_node) -> list[PoolEntry]:
        added = []
        for rank, hit in enumerate(hits, start=1):
            entry = PoolEntry(hit.paper_id, next_node(), 1, ["plain search"], hit, rank)
            self.entries[hit.paper_id] = entry
            added.append(entry)
        return added

    def add(self, paper_id: int, node: int, depth: int, found_by: str, contexts: list[str] | None = None) -> str:
        """'added', 'duplicate' (its evidence grows), 'full' or 'too deep'."""
        entry = self.entries.get(paper_id)
        if entry is not None:
            entry.found_by.append(found_by)
            entry.contexts.extend(contexts or [])
            return "duplicate"
        if depth > self.max_depth:
            return "too deep"
        if self.full:
            return "full"
        self.entries[paper_id] = PoolEntry(paper_id, node, depth, [found_by], contexts=list(contexts or []))
        self.crawled += 1
        return "added"


def _cosine(a, b) -> float:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    norm = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(a @ b) / norm if norm else 0.0


def plain_centroid(pool: Pool, stored: Mapping[int, Sequence[float]], top: int = COHERENCE_TOP) -> np.ndarray | None:
    """The direction of the plain search's ``top`` best hits, hit r weighted 1/sqrt(r) (None without vectors)."""
    ranked = sorted(
        ((rank, entry) for entry in pool.entries.values() if (rank := entry.plain_rank) is not None),
        key=lambda pair: pair[0],
    )[:top]
    best = [(rank, entry) for rank, entry in ranked if entry.paper_id in stored]
    if not best:
        return None
    directions = normalized(np.array([stored[entry.paper_id] for _, entry in best], dtype=float))
    weights = 1 / np.sqrt([rank for rank, _ in best])
    return normalized((weights @ directions)[None, :])[0]


def pool_vectors(
    index: LibraryIndex, ids: list[int], rows: Mapping[int, dict], cancel: threading.Event | None = None
) -> dict[int, list[float]]:
    """The vectors of the pool's papers: the index's, and for the first ``POOL_EMBED`` papers that
    have none yet, embedded now from the text the index embeds (same model, same text: the cosine
    the paper will have once the index holds it). Without this, a paper still waiting for
    ``library index`` had a query similarity of 0 and ranked low however relevant it was. Only the
    pool is embedded, never the library; a set ``cancel`` or ``POOL_EMBED_SECONDS`` spent stops
    between batches (the rest keep 0), and the index's embedder remembers the texts, so the run's
    second ranking (after the judging) embeds only what the first left. The index notes each vector
    made (``note_made``): the engine writes them into it once the run has ranked (``keep_made``), so
    the next search finds them stored."""
    stored = index.vectors(ids)
    missing = [paper_id for paper_id in ids if paper_id not in stored and paper_id in rows][:POOL_EMBED]
    if index.embedder is None:
        return stored
    deadline = time.monotonic() + POOL_EMBED_SECONDS
    for start in range(0, len(missing), EMBED_BATCH):
        if (cancel is not None and cancel.is_set()) or time.monotonic() > deadline:
            break
        batch = missing[start : start + EMBED_BATCH]
        texts = [paper_text(rows[paper_id]) for paper_id in batch]
        vectors = index.embedder.embed(texts)
        for paper_id, text, vector in zip(batch, texts, vectors, strict=True):
            stored[paper_id] = np.asarray(vector, dtype=float).tolist()
            index.note_made(rows[paper_id], text, vector)  # the run writes them back at its end (keep_made)
    return stored


@dataclass
class Evidence:
    row: dict[str, float | None]  # selector_head.FEATURES; p_true None until the model judged it
    parts: ScoreParts


def evidence(
    query: str,
    pool: Pool,
    library: Library,
    index: LibraryIndex,
    *,
    query_vector=None,
    p_true: dict[int, float] | None = None,
    rows: dict[int, dict] | None = None,
    cancel: threading.Event | None = None,
) -> dict[int, Evidence]:
    """One row of features per pool paper (see ``selector_head.FEATURES``)."""
    ids = pool.ids
    rows = rows if rows is not None else library.papers(ids)
    vector = query_vector if query_vector is not None else index.embedder.embed([query])[0]
    stored = pool_vectors(index, ids, rows, cancel)
    centroid = plain_centroid(pool, stored)
    citing = citing_papers(library, ids)
    members = set(ids)
    p_true = p_true or {}
    out: dict[int, Evidence] = {}
    for paper_id, entry in pool.entries.items():
        row = rows.get(paper_id)
        if row is None:
            continue
        text = f"{row['title']} {row['abstract'] or ''}"
        dense = _cosine(vector, stored[paper_id]) if paper_id in stored else 0.0
        coherence = _cosine(centroid, stored[paper_id]) if paper_id in stored and centroid is not None else 0.0
        lexical = lexical_match(query, text)
        context_lexical, sentence = best_context(query, entry.contexts)
        hit = entry.plain
        cited_by = len((citing.get(paper_id) or set()) & members - {paper_id})
        features = {
            "p_true": p_true.get(paper_id),
            "query_dense": dense,
            "query_lexical": lexical,
            "vector_rank": 1.0 / hit.vector_rank if hit and hit.vector_rank else 0.0,
            "text_rank": 1.0 / hit.text_rank if hit and hit.text_rank else 0.0,
            "plain_score": hit.score * 100 if hit else 0.0,
            "plain_hit": 1.0 if hit else 0.0,
            "context_lexical": context_lexical,
            # the citing sentence is one more description of the paper (selector_head's module doc says why)
            "description_lexical": max(lexical, context_lexical),
            # a paper the crawl added counts as ranked just below the plain search's last hit
            "plain_log_rank": math.log(entry.plain_rank if entry.plain_rank else PLAIN_DEPTH + 1),
            "found_by": math.log1p(len(entry.found_by)),
            "depth": float(entry.depth),
            "has_abstract": 1.0 if row["abstract"] else 0.0,
            "centroid_dense": coherence,
        }
        parts = ScoreParts(
            p_true.get(paper_id),
            round(dense, 3),
            round(lexical, 3),
            round(context_lexical, 3),
            sentence,
            entry.plain_rank,
            len(entry.found_by),
            cited_by,
            entry.depth,
            round(coherence, 3),
        )
        out[paper_id] = Evidence(features, parts)
    return out
