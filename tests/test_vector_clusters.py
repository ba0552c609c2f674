"""The own papers' coarse quantizer (indexes/vector_clusters.py, issue #28): a search of a library past
``MIN_ROWS`` own vectors compares the query with the nearest clusters' rows, not with every row, and
finds what the full pass finds; the clusters are kept level by ``sync``, the new rows only."""

import random

import numpy as np
import pytest

from scholar_tui.indexes import library_search, vector_clusters
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.library_search import LibraryIndex, OwnRows
from scholar_tui.indexes.library_snapshot import LibrarySnapshot
from scholar_tui.indexes.records import PaperRecord
from scholar_tui.indexes.vector_clusters import Clusters, clusters_file, level_clusters

from .library_support import HashingEmbedder

TOPICS = 30
PAPERS = 1500


def _topic_words(rng: random.Random) -> list[list[str]]:
    """Each topic's own 40 made-up words (a field's vocabulary), so that papers of a topic are near."""
    letters = "bcdfghklmnprstvz"
    return [
        ["".join(rng.choice(letters) + "a" for _ in range(4)) + str(topic) for _ in range(40)]
        for topic in range(TOPICS)
    ]


def _topical_library(where, papers: int = PAPERS, seed: int = 3) -> tuple[Library, list[list[str]]]:
    rng = random.Random(seed)
    topics = _topic_words(rng)
    library = Library.open(where)
    with library.transaction():
        for number in range(papers):
            words = topics[rng.randrange(TOPICS)]
            library.store_paper(
                PaperRecord(
                    title=" ".join(rng.sample(words, 6)),
                    source="unarxive",
                    arxiv_id=f"2301.{number:05d}",
                    abstract=" ".join(rng.choice(words) for _ in range(25)),
                    date="2023-01-15",
                )
            )
    return library, topics


@pytest.fixture
def few_rows_clustered(monkeypatch):
    """Clusters from 1,000 own rows on (20,000 in use: too many papers to import in a test)."""
    monkeypatch.setattr(vector_clusters, "MIN_ROWS", 1000)
    monkeypatch.setattr(library_search, "MIN_ROWS", 1000)
    monkeypatch.setattr(vector_clusters, "ROWS_PER_CLUSTER", 50)
    OwnRows._last = None
    yield
    OwnRows._last = None


def _full_pass_hits(index, library, query):
    """The search as it ran before the clusters: the spans dropped, every own row compared."""
    own = OwnRows.of(library, index.current(library), index.where)
    OwnRows._last = (OwnRows._last[0], OwnRows(own.key, own.rows, own.paper_ids, own.vectors, None))
    try:
        hits = index.search(library, query, limit=10, own_only=True)
        return [hit.paper_id for hit in hits], index.scored_rows
    finally:
        OwnRows._last = None


def test_a_search_of_a_large_library_compares_the_query_with_a_fraction_of_its_vectors(where, few_rows_clustered):
    library, topics = _topical_library(where)
    index = LibraryIndex(where, HashingEmbedder())
    for _ in index.sync(library, batch_size=256):
        pass
    assert clusters_file(where).is_file()  # the sync left the clusters level
    rng = random.Random(11)
    recalls, compared = [], []
    for _ in range(100):
        query = " ".join(rng.sample(topics[rng.randrange(TOPICS)], 3))
        hits = [hit.paper_id for hit in index.search(library, query, limit=10, own_only=True)]
        compared.append(index.scored_rows)
        exact, every_row = _full_pass_hits(index, library, query)
        assert every_row == PAPERS
        recalls.append(len(set(hits) & set(exact)) / len(exact))
    # the old search compared every own row (1,500) with every query
    assert max(compared) <= 0.4 * PAPERS, compared
    assert np.mean(recalls) >= 0.95, f"recall@10 {np.mean(recalls):.3f}"
    library.close()


def test_a_date_filter_takes_the_full_pass(where, few_rows_clustered):
    library, topics = _topical_library(where)
    index = LibraryIndex(where, HashingEmbedder())
    for _ in index.sync(library, batch_size=256):
        pass
    assert index.search(library, " ".join(topics[0][:3]), before="2030", own_only=True)
    assert index.scored_rows == PAPERS  # a filtered search may need rows of any cluster
    library.close()


def test_a_small_library_keeps_the_full_pass_and_no_clusters_file(where):
    library, topics = _topical_library(where, papers=300)
    index = LibraryIndex(where, HashingEmbedder())
    for _ in index.sync(library, batch_size=256):
        pass
    assert not clusters_file(where).exists()
    assert index.search(library, " ".join(topics[1][:3]), own_only=True) and index.scored_rows == 300
    library.close()


# -- the file kept level -------------------------------------------------------------------------------
def _snapshot(rows: int, seed: int = 0, width: int = 16) -> LibrarySnapshot:
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((rows, width)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    hashes = np.array([f"{row:040x}".encode() for row in range(rows)], dtype="S40")
    return LibrarySnapshot(np.arange(1, rows + 1, dtype=np.int64), hashes, np.full(rows, "2023"), vectors)


def test_level_clusters_assigns_only_the_new_and_changed_rows(tmp_path, monkeypatch):
    monkeypatch.setattr(vector_clusters, "MIN_ROWS", 100)
    path = tmp_path / "clusters.npz"
    first = _snapshot(400)
    made = level_clusters(path, first, np.arange(400), "m")
    assert made is not None and made.trained_rows == 400 and len(made.paper_ids) == 400

    assigned: list[int] = []
    real_assign = vector_clusters.assign

    def counted(vectors, rows, centroids):
        assigned.append(len(rows))
        return real_assign(vectors, rows, centroids)

    monkeypatch.setattr(vector_clusters, "assign", counted)
    monkeypatch.setattr(vector_clusters, "train", lambda *args: pytest.fail("trained again for 10 new rows"))
    grown = _snapshot(410)  # ten papers imported
    grown.hashes[5] = b"f" * 40  # and one paper's text changed
    level = level_clusters(path, grown, np.arange(410), "m")
    assert assigned == [11] and level is not None and len(level.paper_ids) == 410
    assert np.array_equal(level.centroids, made.centroids)
    assert level_clusters(path, grown, np.arange(410), "m") is not None and assigned == [11]  # level: nothing to do
    kept = level_clusters(path, grown, np.arange(0, 410, 2), "m")  # papers gone
    assert kept is not None and len(kept.paper_ids) == 205 and assigned == [11]


def test_the_clusters_are_trained_again_as_the_library_grows_or_the_model_changes(tmp_path, monkeypatch):
    monkeypatch.setattr(vector_clusters, "MIN_ROWS", 100)
    path = tmp_path / "clusters.npz"
    assert level_clusters(path, _snapshot(150), np.arange(150), "m").trained_rows == 150
    assert level_clusters(path, _snapshot(150), np.arange(150), "other").model == "other"
    assert level_clusters(path, _snapshot(600), np.arange(600), "other").trained_rows == 600
    assert level_clusters(path, _snapshot(600), np.arange(99), "other") is None and not path.exists()


def test_a_damaged_clusters_file_is_made_again(tmp_path, monkeypatch):
    monkeypatch.setattr(vector_clusters, "MIN_ROWS", 100)
    path = tmp_path / "clusters.npz"
    path.write_bytes(b"not a zip")
    assert Clusters.load(path) is None
    assert level_clusters(path, _snapshot(200), np.arange(200), "m") is not None
    assert Clusters.load(path) is not None


def test_a_torn_clusters_file_is_made_again(tmp_path, monkeypatch):
    """A file cut short (a full disk, a crash mid-copy) is still a zip's start: numpy raises BadZipFile, no OSError."""
    monkeypatch.setattr(vector_clusters, "MIN_ROWS", 100)
    path = tmp_path / "clusters.npz"
    level_clusters(path, _snapshot(200), np.arange(200), "m")
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    assert Clusters.load(path) is None
    assert level_clusters(path, _snapshot(200), np.arange(200), "m") is not None
    assert Clusters.load(path) is not None


def test_saving_leaves_no_partial_file_beside_it(tmp_path, monkeypatch):
    monkeypatch.setattr(vector_clusters, "MIN_ROWS", 100)
    path = tmp_path / "clusters.npz"
    level_clusters(path, _snapshot(200), np.arange(200), "m")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clusters.npz"]
