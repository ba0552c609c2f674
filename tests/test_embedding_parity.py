"""Parity on real data: llama.cpp's embeddings of the converted MiniLM against sentence-transformers.

1,000 real texts (unarXive titles + abstracts and paragraphs, ICML conference paths) must keep a
cosine of at least 0.999, and library search over the unarXive sample must rank the same top 10.
"""

import shutil

import pytest

from scholar_tui.config.settings import Settings
from scholar_tui.core.startup_bench import bench_texts
from scholar_tui.indexes.library_search import LibraryIndex
from scholar_tui.models import load_embedder

pytestmark = [pytest.mark.embeddings, pytest.mark.shared_data]

QUERIES = [
    "roots of derivatives of random polynomials",
    "software fault localization with spectrum-based techniques",
    "neural network quantization for efficient inference",
    "graph neural networks",
    "black hole thermodynamics",
    "privacy in federated learning",
    "quantum error correction codes",
    "large language models for code generation",
]


@pytest.fixture(scope="module")
def both_backends(tmp_path_factory):
    pytest.importorskip("sentence_transformers")
    from scholar_tui.config.locations import Locations

    root = tmp_path_factory.mktemp("parity-models")
    where = Locations(config_dir=root, data_dir=root / "data", cache_dir=root / "cache", log_dir=root / "logs").ensure()
    settings = Settings()
    ours = load_embedder(settings, where)
    settings.embeddings.backend = "sentence-transformers"
    return ours, load_embedder(settings, where)


def test_cosine_on_a_thousand_real_texts(both_backends, shared_data):
    texts = bench_texts(shared_data, 1000)
    assert len(texts) == 1000
    ours, reference = (embedder.embed(texts) for embedder in both_backends)
    cosines = (ours * reference).sum(axis=1)
    print(f"cosine over {len(texts)} texts: min {cosines.min():.6f}, mean {cosines.mean():.6f}")
    assert cosines.min() >= 0.999


def test_library_search_ranks_the_same_top_ten(both_backends, imported, where, tmp_path):
    rankings = []
    for embedder in both_backends:
        shutil.rmtree(where.lancedb_dir, ignore_errors=True)
        index = LibraryIndex(where, embedder)
        list(index.sync(imported))
        rankings.append([[hit.paper_id for hit in index.search(imported, query, limit=10)] for query in QUERIES])
    assert rankings[0] == rankings[1]
    assert all(len(ranking) == 10 for ranking in rankings[0])
