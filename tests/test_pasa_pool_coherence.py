"""Pool coherence: a paper close to the centroid of the plain search's top hits (pseudo-relevance
feedback in the embedding space) passes one that only matches the query as well, in a small library
whose vectors are set here."""

from __future__ import annotations

import json

import numpy as np

from scholar_tui.core.pasa.engine import PaSaEngine, PaSaOptions
from scholar_tui.core.pasa.evidence import COHERENCE_TOP
from scholar_tui.core.pasa.queue import Budgets
from scholar_tui.core.pasa.selector_head import PRIOR_FEATURES, LogisticHead, SelectorHead, load_head
from scholar_tui.core.pasa.tools import LibraryTools
from scholar_tui.indexes.library_search import SearchHit

from .library_support import HashingEmbedder
from .pasa_support import RoutedLLM

QUERY = "zzzq qqqz"  # no word of any title: every paper's word match is 0, only the vectors differ
QUERY_VECTOR = np.array([1.0, 0.0, 0.0])
TOPIC = np.array([1.0, 1.0, 0.0])  # where the plain search's best hits lie


class VectorIndex:
    """The library index with the vectors set by the test: ranks come from ``order``."""

    def __init__(self, library, vectors: dict[int, np.ndarray], order: list[int]) -> None:
        self.library, self.stored, self.order = library, vectors, order
        self.embedder = self

    def embed(self, texts):
        return np.array([QUERY_VECTOR for _ in texts])

    def keep_made(self, library) -> int:  # the vectors a crawl embedded: this index keeps none
        return 0

    def vectors(self, paper_ids):
        return {paper_id: list(self.stored[paper_id]) for paper_id in paper_ids if paper_id in self.stored}

    def searchable(self, before=None, within=None, library=None):
        return len(self.order)

    def search(self, library, query, *, before=None, limit=10, depth=50, within=None):
        rows = library.papers(self.order[:limit])
        return [
            SearchHit(
                paper_id,
                1.0 / (60 + rank),
                rank,
                None,
                rows[paper_id]["title"],
                rows[paper_id]["date"],
                rows[paper_id]["arxiv_id"],
            )
            for rank, paper_id in enumerate(self.order[:limit], start=1)
        ]


def _pool_library(where, library):
    """Top hits on the topic; then ``astray`` (rank 6) and ``coherent`` (rank 7), equally close to the query:
    ``coherent`` lies toward the topic, ``astray`` away from it."""
    ids = [paper["id"] for paper in library.all_papers()][: COHERENCE_TOP + 2]
    rng = np.random.default_rng(0)
    vectors = {paper_id: TOPIC + 0.05 * rng.normal(size=3) for paper_id in ids[:COHERENCE_TOP]}
    astray, coherent = ids[COHERENCE_TOP], ids[COHERENCE_TOP + 1]
    vectors[astray] = np.array([0.7, -0.7, 0.0])
    vectors[coherent] = np.array([0.7, 0.7, 0.0])
    tools = LibraryTools(where, library, HashingEmbedder(), search_limit=3, plain_limit=len(ids))
    tools.index = VectorIndex(library, vectors, ids)
    return tools, astray, coherent


def _ranked(tools, head):
    agent = PaSaEngine(
        RoutedLLM(relevant=lambda title: False),
        tools,
        PaSaOptions(budgets=Budgets(max_actions=0), query_mode="candidates", rationale="template"),
        head=head,
    )
    finished = list(agent.run(QUERY))[-1]
    return finished, [paper.paper_id for paper in finished.results]


def _head(coherence_weight: float) -> SelectorHead:
    """Plain rank and query match as the shipped head weighs them; coherence with the weight given."""

    def model(features):
        weights = {"plain_log_rank": -1.0, "query_dense": 2.0, "centroid_dense": coherence_weight}
        return LogisticHead(
            features, [weights.get(name, 0.0) for name in features], 0.0, [0.0] * len(features), [1.0] * len(features)
        )

    full_features = ("p_true",) + PRIOR_FEATURES
    return SelectorHead(model(PRIOR_FEATURES), model(full_features), 0.5, 0.99, judge_limit=2, origin="test")


def test_pool_coherence_moves_a_paper_toward_the_top_hits_topic_up(where, mini_library):
    tools, astray, coherent = _pool_library(where, mini_library)
    _, without = _ranked(tools, _head(0.0))
    assert without.index(astray) < without.index(coherent)  # plain search's order: nothing else differs
    finished, with_coherence = _ranked(tools, _head(4.0))
    assert with_coherence.index(coherent) < with_coherence.index(astray)
    parts = {paper.paper_id: paper.parts for paper in finished.results}
    assert parts[coherent].query_dense == parts[astray].query_dense
    assert parts[coherent].pool_coherence > 0.9 > 0.1 > parts[astray].pool_coherence
    shown = next(paper for paper in finished.results if paper.paper_id == coherent)
    assert json.loads(json.dumps(finished.to_json()))  # the part travels in --json
    assert "pool_coherence" in json.dumps(finished.to_json()) and "pool coherence" in shown.rationale


def test_the_shipped_head_reads_pool_coherence(where, mini_library):
    head = load_head(None)
    assert "centroid_dense" in head.full.features and "centroid_dense" in head.prior.features
    tools, astray, coherent = _pool_library(where, mini_library)
    _, order = _ranked(tools, head)
    assert order.index(coherent) < order.index(astray)


def test_a_head_trained_before_pool_coherence_still_loads_and_ranks(where, mini_library, tmp_path):
    old = _head(0.0)
    for model in (old.prior, old.full):  # the inputs of a head file written before the feature existed
        keep = [i for i, name in enumerate(model.features) if name != "centroid_dense"]
        model.features = tuple(model.features[i] for i in keep)
        for name in ("weights", "mean", "scale"):
            setattr(model, name, [getattr(model, name)[i] for i in keep])
    loaded = SelectorHead.load(old.save(tmp_path / "old-head.json"))
    assert "centroid_dense" not in loaded.full.features
    tools, astray, coherent = _pool_library(where, mini_library)
    _, order = _ranked(tools, loaded)
    assert order.index(astray) < order.index(coherent)
