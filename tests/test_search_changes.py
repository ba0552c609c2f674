"""A library search that does not scan the library (issue #28): staleness from SQLite's change
counter (migration m500), words searchable the moment an import ends (FTS5), vectors computed by a
resumable sync that a search does not wait for, and a search over the vectors there are."""

import json
import re
import sqlite3

import numpy as np
import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.indexes import search_changes
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.library_search import IndexFinished, IndexProgress, LibraryIndex
from scholar_tui.indexes.library_snapshot import LibrarySnapshot, snapshot_file

from .library_support import HashingEmbedder, generated_unarxive, imported_library

PAPERS = 240


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return generated_unarxive(tmp_path_factory, PAPERS, "scale")


@pytest.fixture
def library(where, generated):
    yield from imported_library(where, generated)


@pytest.fixture
def hashing_embedder(monkeypatch):
    embedder = HashingEmbedder()
    monkeypatch.setattr("scholar_tui.models.load_embedder", lambda *args, **kwargs: embedder)
    return embedder


def full_sync(where, library, embedder=None) -> IndexFinished:
    events = list(LibraryIndex(where, embedder or HashingEmbedder()).sync(library))
    return [event for event in events if isinstance(event, IndexFinished)][0]


def words_of(library: Library, paper_id: int) -> str:
    title = library.conn.execute("select title from papers where id = ?", (paper_id,)).fetchone()[0]
    return " ".join(re.findall(r"[A-Za-z]{3,}", title))


def unique_titled(library: Library, among) -> int:
    """The first of ``among`` whose title no other paper has (the generator recombines sentences)."""
    for paper_id in among:
        title = library.conn.execute("select title from papers where id = ?", (int(paper_id),)).fetchone()[0]
        if library.conn.execute("select count(*) from papers where title = ?", (title,)).fetchone()[0] == 1:
            return int(paper_id)
    raise AssertionError("no paper with a title of its own")


class ScanWatch:
    """Every statement run on a connection, and those whose plan reads the papers table through
    (``SCAN papers`` not on a covering index: every row with its title and abstract)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.statements: list[str] = []
        conn.set_trace_callback(self.statements.append)

    def full_scans(self) -> list[str]:
        self.conn.set_trace_callback(None)
        scans = []
        for sql in self.statements:
            if not sql.lstrip().lower().startswith("select"):
                continue
            try:
                plan = self.conn.execute("explain query plan " + sql).fetchall()
            except sqlite3.Error:  # bound parameters are shown as given: a statement of ours, not re-planned
                continue
            if any(re.search(r"\bSCAN papers\b(?! USING COVERING INDEX)", row[-1]) for row in plan):
                scans.append(sql)
        return scans


def test_library_search_does_not_read_every_paper_to_check_staleness(where, library, hashing_embedder, monkeypatch):
    """The CLI's `library search` on a level index: no statement reads the papers table through
    (the old code re-read and hashed every paper before each query)."""
    full_sync(where, library, hashing_embedder)
    hashing_embedder.texts = 0
    traced = Library.open(where)
    watch = ScanWatch(traced.conn)
    monkeypatch.setattr("scholar_tui.app.cli_library._library", lambda obj: traced)
    monkeypatch.setattr(Library, "all_papers", lambda self: pytest.fail("the whole library was read"))
    chosen = unique_titled(library, range(7, PAPERS))
    result = CliRunner().invoke(cli, ["library", "search", words_of(library, chosen), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["paper_id"] == chosen
    assert watch.full_scans() == []
    assert hashing_embedder.texts == 1  # the query: nothing was embedded again


def test_a_change_is_noted_by_the_triggers_and_only_it_is_read_again(where, library):
    full_sync(where, library)
    before = search_changes.counter(library.conn)
    with library.transaction():
        library.conn.execute("update papers set abstract = 'Zeolite catalysis kinetics.' where id = 5")
        library.conn.execute("update papers set venue = 'Elsewhere' where id = 6")  # not searched: not noted
    assert search_changes.counter(library.conn) == before + 1
    assert search_changes.changed_since(library.conn, before).tolist() == [5]
    read: list[int] = []
    original = search_changes.papers_by_id

    def counting(conn, ids):
        for chunk in original(conn, ids):
            read.extend(paper["id"] for paper in chunk)
            yield chunk

    embedder = HashingEmbedder()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_changes, "papers_by_id", counting)
        finished = full_sync(where, library, embedder)
    assert (finished.embedded, finished.removed, finished.indexed) == (1, 1, PAPERS)
    assert read == [5, 5] and embedder.texts == 1  # checked, then embedded: no other paper read
    assert LibraryIndex(where, None).search(library, "zeolite catalysis")[0].paper_id == 5  # FTS5 kept level


def test_words_find_papers_the_moment_an_import_ends(where, library):
    """No sync at all: the FTS5 index was filled by the import's own inserts."""
    index = LibraryIndex(where, HashingEmbedder())
    chosen = unique_titled(library, range(11, PAPERS))
    hits = index.search(library, words_of(library, chosen), embed_missing_up_to=0)
    assert hits[0].paper_id == chosen and hits[0].text_rank == 1 and hits[0].vector_rank is None
    assert index.missing == PAPERS
    assert not snapshot_file(where).exists()  # nothing was embedded


class StopAfter(HashingEmbedder):
    """Raises KeyboardInterrupt (Ctrl-C) on its ``batches``+1-th call."""

    def __init__(self, batches: int) -> None:
        super().__init__()
        self.batches = batches

    def embed(self, texts):
        if self.calls == self.batches:
            raise KeyboardInterrupt
        return super().embed(texts)


def test_an_interrupted_index_keeps_its_vectors_and_resumes_where_it_stopped(where, library):
    stopping = StopAfter(batches=3)
    with pytest.raises(KeyboardInterrupt):
        for _ in LibraryIndex(where, stopping).sync(library, batch_size=16):
            pass
    kept = LibrarySnapshot.load(snapshot_file(where))
    assert kept is not None and len(kept.paper_ids) == 48  # the three batches made before Ctrl-C
    assert LibraryIndex(where, None).coverage(library).level == 48
    embedder = HashingEmbedder()
    finished = full_sync(where, library, embedder)
    assert (finished.embedded, finished.indexed) == (PAPERS - 48, PAPERS) and embedder.texts == PAPERS - 48


def test_a_closed_sync_saves_what_it_made(where, library):
    """The TUI's worker stops the generator (events.close()) when the app quits."""
    events = LibraryIndex(where, HashingEmbedder()).sync(library, batch_size=10)
    for event in events:
        if isinstance(event, IndexProgress) and event.done >= 30:
            break
    events.close()
    assert LibraryIndex(where, None).coverage(library).level == 30


def test_a_sync_saves_its_vectors_before_they_pile_up_and_never_stacks_them(where, library, monkeypatch):
    """``library index`` at 100 k papers peaked at 1.28 GB: a fast embedder's rows made since the last
    timed save (30 s of them, 200 MB) were held until it, then stacked into one part and indexed again
    for the file, three copies at once. Now the file is written whenever the unsaved vectors reach
    ``SAVE_BYTES``, copied from the parts as they lie; the rows it holds are the embedder's."""
    from scholar_tui.indexes import library_search

    embedder = HashingEmbedder()
    cap_rows, batch = 64, 8
    monkeypatch.setattr(library_search, "WRITE_ROWS", 16)
    monkeypatch.setattr(library_search, "SAVE_BYTES", cap_rows * embedder.dimension * 4)
    monkeypatch.setattr(library_search, "SAVE_EVERY_S", 1e9)  # only the size makes a save before the end
    held, stacked = [], []
    saved_with, joined = LibrarySnapshot.saved_with, LibrarySnapshot.joined

    def rows_of(parts):
        return sum(len(part.paper_ids) for part in (parts if isinstance(parts, list) else [parts]))

    def noting_saved_with(self, parts, path):
        held.append(rows_of(parts))
        return saved_with(self, parts, path)

    def noting_joined(self, parts):
        stacked.append(rows_of(parts))
        return joined(self, parts)

    monkeypatch.setattr(LibrarySnapshot, "saved_with", noting_saved_with)
    monkeypatch.setattr(LibrarySnapshot, "joined", noting_joined)
    events = LibraryIndex(where, embedder).sync(library, batch_size=batch)
    finished = [event for event in events if isinstance(event, IndexFinished)][0]
    assert finished.embedded == PAPERS and len(held) >= PAPERS // (cap_rows + batch)
    assert max(held) < cap_rows + batch  # the rows not yet in the file, at each save
    assert max(stacked) <= 16 + batch  # only a LanceDB write's rows are ever stacked
    snapshot = LibrarySnapshot.load(snapshot_file(where))
    assert snapshot is not None and len(snapshot.paper_ids) == PAPERS
    papers = [paper for chunk in search_changes.papers_by_id(library.conn, snapshot.paper_ids) for paper in chunk]
    made = HashingEmbedder().embed([search_changes.paper_text(paper) for paper in papers])
    assert np.array_equal(np.asarray(snapshot.vectors), made)  # each row where it belongs, across the parts


def test_search_uses_the_vectors_there_are_and_says_how_many_papers_lack_one(where, library, hashing_embedder):
    with pytest.raises(KeyboardInterrupt):
        for _ in LibraryIndex(where, StopAfter(batches=2)).sync(library, batch_size=32):
            pass
    have = LibrarySnapshot.load(snapshot_file(where)).paper_ids
    lacking = unique_titled(library, np.setdiff1d(np.arange(1, PAPERS + 1), have))
    having = unique_titled(library, have)
    index = LibraryIndex(where, hashing_embedder)
    found = {hit.paper_id: hit for hit in index.search(library, words_of(library, having), embed_missing_up_to=0)}
    assert found[having].vector_rank is not None and found[having].text_rank is not None
    found = {hit.paper_id: hit for hit in index.search(library, words_of(library, lacking), embed_missing_up_to=0)}
    assert found[lacking].vector_rank is None and found[lacking].text_rank is not None  # by its words only
    assert index.missing == PAPERS - 64
    result = CliRunner().invoke(cli, ["library", "search", words_of(library, lacking)])
    assert result.exit_code == 0 and f"paper:{lacking}" in result.stdout
    assert f"{PAPERS - 64} papers have no vector yet" in result.stderr


def test_library_index_command_embeds_what_is_missing(where, library, hashing_embedder):
    result = CliRunner().invoke(cli, ["library", "index"])
    assert result.exit_code == 0, result.output
    assert f"embedded {PAPERS} papers" in result.stdout and f"({PAPERS} papers have vectors)" in result.stdout
    again = CliRunner().invoke(cli, ["library", "index"])
    assert "embedded 0 papers" in again.stdout and hashing_embedder.texts == PAPERS


def test_vectors_of_another_model_are_not_searched(where, library):
    full_sync(where, library)

    class Other(HashingEmbedder):
        name = "another-model"

    index = LibraryIndex(where, Other())
    assert len(index.current(library).paper_ids) == 0  # the hashing model's vectors: not comparable
    assert full_sync(where, library, Other()).embedded == PAPERS


def test_the_vector_ranking_is_the_full_scans_order_ties_included(where, library):
    """The fast path (a dot product picks the candidates) orders them as a full scan of squared L2
    distances does: the bag-of-words test embedder gives many near-equal distances, and ordering
    them by the dot product changed PaSa's crawls (fails on the dot-product order)."""
    from scholar_tui.indexes.library_search import _nearest

    papers = [
        paper
        for chunk in search_changes.papers_by_id(library.conn, search_changes.paper_ids(library.conn))
        for paper in chunk
    ]
    vectors = HashingEmbedder().embed([f"{paper['title']}. {paper['abstract'] or ''}" for paper in papers])
    allowed = np.arange(len(vectors)) % 3 != 0
    for text in ("graph neural networks", words_of(library, papers[7]["id"]), "zzz nothing matches"):
        query = HashingEmbedder().embed([text])[0]
        for mask in (None, allowed):
            rows = np.flatnonzero(mask) if mask is not None else np.arange(len(vectors))
            scan = rows[np.argsort(((vectors - query) ** 2).sum(axis=1)[rows], kind="stable")]
            for depth in (5, 50, len(vectors) + 1):
                assert _nearest(vectors, query, mask, depth) == scan[:depth].tolist()


def test_stored_vectors_are_read_from_the_table_when_the_snapshot_file_is_gone(where, library):
    """PaSa's Selector reads stored vectors without the library; with the snapshot file deleted they
    come from LanceDB, which is kept (it was dropped as unreadable, every paper to embed again)."""
    full_sync(where, library)
    snapshot_file(where).unlink()
    index = LibraryIndex(where, HashingEmbedder())
    ids = [int(paper_id) for paper_id in search_changes.paper_ids(library.conn)[:3]]
    assert sorted(index.vectors(ids)) == ids
    assert index._table_folder.is_dir() and index._table() is not None
