"""The library's search snapshot (indexes/library_snapshot): searched without LanceDB, and a file
that is missing, damaged, of another format or out of date is rebuilt, never trusted."""

import pytest

from scholar_tui.indexes import library_snapshot
from scholar_tui.indexes.library_search import IndexFinished, LibraryIndex
from scholar_tui.indexes.library_snapshot import LibrarySnapshot, snapshot_file

from .library_support import HashingEmbedder
from .pasa_support import UNRELATED, build_mini_library, paper_id

QUERIES = ["graph neural networks message passing", "laser cooling of ions", "survey", "quantum chemistry"]


@pytest.fixture
def library(where):
    library = build_mini_library(where)  # stores three papers and syncs the index once
    yield library
    library.close()


def finished(index: LibraryIndex, library) -> IndexFinished:
    return [event for event in index.sync(library) if isinstance(event, IndexFinished)][0]


def rankings(index: LibraryIndex, library) -> list[list[int]]:
    return [
        [hit.paper_id for hit in index.search(library, query, before=before)]
        for query in QUERIES
        for before in (None, "2022-01-01")
    ]


def test_a_level_snapshot_is_searched_without_lancedb_or_embedding(where, library):
    embedder = HashingEmbedder()
    index = LibraryIndex(where, embedder)
    papers = len(library.all_papers())
    assert (finished(index, library).embedded, finished(index, library).indexed) == (0, papers)
    hits = index.search(library, "laser cooling of ions in a trap")
    assert hits[0].title == UNRELATED and hits[0].vector_rank == hits[0].text_rank == 1
    assert index._db is None, "sync and search opened LanceDB although the snapshot was level"
    assert embedder.texts == 1  # the query only


def test_the_snapshot_measures_distance_as_lancedb_does(where, library):
    index = LibraryIndex(where, HashingEmbedder())
    table = index.db.open_table("library_papers")
    snapshot = index.snapshot()
    for query in QUERIES:
        vector = HashingEmbedder().embed([query])[0]
        lance = table.search(vector, vector_column_name="vector").limit(50).select(["paper_id", "_distance"]).to_list()
        ours = dict(zip(snapshot.paper_ids.tolist(), ((snapshot.vectors - vector) ** 2).sum(axis=1), strict=False))
        assert len(lance) == len(ours)
        for row in lance:  # same distance per paper, so the same order up to exact ties
            assert ours[row["paper_id"]] == pytest.approx(row["_distance"], abs=1e-5)


@pytest.mark.parametrize("spoil", ["missing", "garbage", "truncated", "old format"])
def test_a_spoilt_snapshot_is_rebuilt_from_lancedb_without_embedding(where, library, spoil):
    before = rankings(LibraryIndex(where, HashingEmbedder()), library)
    path = snapshot_file(where)
    if spoil == "missing":
        path.unlink()
    elif spoil == "garbage":
        path.write_bytes(b"not a numpy archive")
    elif spoil == "truncated":
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    else:
        snapshot = LibrarySnapshot.load(path)
        original = library_snapshot.FORMAT
        library_snapshot.FORMAT = original - 1
        try:
            snapshot.save(path)
        finally:
            library_snapshot.FORMAT = original
    assert LibrarySnapshot.load(path) is None
    embedder = HashingEmbedder()
    index = LibraryIndex(where, embedder)
    assert finished(index, library).embedded == 0 and embedder.texts == 0
    assert LibrarySnapshot.load(path) is not None
    assert rankings(LibraryIndex(where, HashingEmbedder()), library) == before


def test_a_snapshot_whose_arrays_disagree_is_not_used(where, library):
    path = snapshot_file(where)
    snapshot = LibrarySnapshot.load(path)
    snapshot.vectors = snapshot.vectors[:1]  # rows cut short
    snapshot.save(path)
    assert LibrarySnapshot.load(path) is None


def test_search_without_a_snapshot_file_rebuilds_it(where, library):
    before = rankings(LibraryIndex(where, HashingEmbedder()), library)
    snapshot_file(where).unlink()
    assert rankings(LibraryIndex(where, HashingEmbedder()), library) == before
    assert snapshot_file(where).is_file()


def test_a_changed_paper_is_embedded_again_and_searchable(where, library):
    embedder = HashingEmbedder()
    index = LibraryIndex(where, embedder)
    laser = paper_id(library, UNRELATED)
    with library.transaction():
        library.conn.execute("update papers set abstract = 'Zeolite catalysis kinetics.' where id = ?", (laser,))
    result = finished(LibraryIndex(where, embedder), library)
    assert (result.embedded, result.removed, result.indexed) == (1, 1, len(library.all_papers()))
    assert index.search(library, "zeolite catalysis")[0].paper_id == laser
    assert LibraryIndex(where, HashingEmbedder()).search(library, "zeolite catalysis")[0].text_rank == 1


def test_a_snapshot_left_behind_by_a_crash_is_caught_up(where, library):
    """LanceDB written, the snapshot not (the process died in between): the next sync notices."""
    old = snapshot_file(where).read_bytes()
    with library.transaction():
        library.conn.execute(
            "update papers set abstract = 'Zeolite catalysis kinetics.' where id = (select min(id) from papers)"
        )
    finished(LibraryIndex(where, HashingEmbedder()), library)
    snapshot_file(where).write_bytes(old)  # as if the new snapshot had never been written
    embedder = HashingEmbedder()
    assert finished(LibraryIndex(where, embedder), library).embedded == 0 and embedder.texts == 0
    assert LibraryIndex(where, HashingEmbedder()).search(library, "zeolite catalysis")[0].text_rank == 1


def test_a_snapshot_outliving_its_lancedb_table_is_not_used(where, library):
    """The LanceDB folder deleted (to re-embed with another model): the texts are embedded again."""
    import shutil

    shutil.rmtree(where.lancedb_dir)
    embedder = HashingEmbedder()
    result = finished(LibraryIndex(where, embedder), library)
    assert result.embedded == len(library.all_papers()) and embedder.texts == result.embedded


def test_vectors_are_mapped_from_a_file_of_their_own_and_old_ones_removed(where, library):
    """A zip member is copied and CRC-checked on every load (1.5 s at 100,000 papers); the vectors
    file is memory-mapped, and each save leaves only the file its snapshot names."""
    import numpy as np

    path = snapshot_file(where)
    snapshot = LibrarySnapshot.load(path)
    assert isinstance(snapshot.vectors, np.memmap) and not snapshot.vectors.flags.writeable
    snapshot.save(path)
    snapshot.save(path)
    assert len(list(path.parent.glob("library_search.*.npy"))) == 1
    with np.load(path) as arrays:
        data = dict(arrays)
    data["vectors_file"] = np.array(["../elsewhere.npy"])  # only a file beside the snapshot is read
    with open(path, "wb") as handle:
        np.savez(handle, **data)
    assert LibrarySnapshot.load(path) is None


def test_rows_added_chunk_by_chunk_are_those_joined_in_memory(tmp_path, monkeypatch):
    """``saved_with`` (a sync's unsaved parts, PaSa's pool vectors written back) writes what ``joined``
    makes, a chunk at a time, without stacking the parts: ids in order, a paper in several with the
    last part's row, every vector where it belongs."""
    import numpy as np

    monkeypatch.setattr(library_snapshot, "CHUNK_ROWS", 3)  # several chunks, one cut between rows
    rng = np.random.default_rng(0)

    def part(ids):
        vectors = rng.standard_normal((len(ids), 4)).astype(np.float32)
        hashes = np.array([f"h{i}-{len(ids)}" for i in ids], dtype="S40")
        return LibrarySnapshot(np.array(ids, dtype=np.int64), hashes, np.array(["2020"] * len(ids)), vectors)

    base, added, later = part([1, 3, 4, 8, 9, 12, 15]), part([2, 8, 20]), part([5, 8, 21, 22])
    base.seq, base.model, base.origin = 7, "m", "o"
    base.save(tmp_path / "before" / "library_search.npz")
    mapped = LibrarySnapshot.load(tmp_path / "before" / "library_search.npz")  # its rows read from the file
    assert mapped is not None and isinstance(mapped.vectors, np.memmap)
    saved = mapped.saved_with([added, later], tmp_path / "library_search.npz")  # paper 8: the last part's row
    joined = base.joined([added, later])
    assert saved is not None and (saved.seq, saved.model, saved.origin) == (7, "m", "o")
    assert saved.paper_ids.tolist() == joined.paper_ids.tolist() == [1, 2, 3, 4, 5, 8, 9, 12, 15, 20, 21, 22]
    assert saved.hashes.tolist() == joined.hashes.tolist() and saved.dates.tolist() == joined.dates.tolist()
    assert np.array_equal(np.asarray(saved.vectors), joined.vectors)
