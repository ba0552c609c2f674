"""Issue 29, defects 4 and 11: the library's search index (the LanceDB table and
``data/library_search.npz``) is a cache of SQLite. Whatever is wrong with it — garbage in the
table's data files, its versions deleted, a snapshot of the wrong vector width or type, a FIFO in
the snapshot's place, two first imports at once — is logged and rebuilt from SQLite, and every
later import, search and stats works."""

from __future__ import annotations

import json
import os
import shutil
import threading

import numpy as np
import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.library.importer import run_import
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.library_search import TABLE, IndexFinished, LibraryIndex
from scholar_tui.indexes.library_snapshot import LibrarySnapshot, snapshot_file

from .library_support import HashingEmbedder, fixture_path
from .pasa_support import UNRELATED, build_mini_library

QUERY = "laser cooling of ions in a trap"


@pytest.fixture
def library(where):
    library = build_mini_library(where)  # three papers, indexed once
    yield library
    library.close()


@pytest.fixture
def hashing_embedder(monkeypatch):
    embedder = HashingEmbedder()
    monkeypatch.setattr("scholar_tui.models.load_embedder", lambda *args, **kwargs: embedder)
    return embedder


def table_folder(where):
    return where.lancedb_dir / f"{TABLE}.lance"


def spoil_table(where, how: str) -> None:
    folder = table_folder(where)
    if how == "garbage data":
        for data_file in (folder / "data").iterdir():
            data_file.write_bytes(b"garbage, not a lance file")
    else:
        shutil.rmtree(folder / "_versions")


def invoke(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output and not (
        result.exception and not isinstance(result.exception, SystemExit)
    ), repr(result.exception)
    return result


@pytest.mark.parametrize("how", ["garbage data", "deleted versions"])
def test_an_unreadable_lancedb_table_is_rebuilt_from_sqlite_by_the_next_import(
    where, library, hashing_embedder, how, caplog
):
    spoil_table(where, how)
    result = invoke("import", "bibtex", str(fixture_path("bibtex", "sample.bib")))
    assert result.exit_code == 0, result.output
    papers = len(library.all_papers())
    assert f"({papers} indexed)" in result.output
    assert any(
        "cannot be read" in record.getMessage() and "rebuilt" in record.getMessage() for record in caplog.records
    )
    stats = json.loads(invoke("library", "stats", "--json").output)
    assert stats["indexed_for_search"] == papers and stats["search_index_behind"] == 0
    hits = json.loads(invoke("library", "search", QUERY, "--json").output)
    assert hits[0]["title"] == UNRELATED
    assert invoke("import", "bibtex", str(fixture_path("bibtex", "sample.bib"))).exit_code == 0


@pytest.mark.parametrize("how", ["garbage data", "deleted versions"])
def test_search_and_stats_work_on_an_unreadable_table_without_a_snapshot(where, library, hashing_embedder, how):
    spoil_table(where, how)
    snapshot_file(where).unlink()
    stats = invoke("library", "stats", "--json")
    assert stats.exit_code == 0
    hits = json.loads(invoke("library", "search", QUERY, "--json").output)
    assert hits[0]["title"] == UNRELATED
    assert json.loads(invoke("library", "stats", "--json").output)["indexed_for_search"] == len(library.all_papers())


def rewrite_snapshot(where, **changes) -> None:
    path = snapshot_file(where)
    with np.load(path) as arrays:
        data = dict(arrays)
    data.update(changes)
    with open(path, "wb") as handle:
        np.savez(handle, **data)


@pytest.mark.parametrize("spoil", ["narrow", "float64", "integers"])
def test_a_snapshot_of_the_wrong_width_or_type_is_rebuilt(where, library, spoil):
    before = [hit.paper_id for hit in LibraryIndex(where, HashingEmbedder()).search(library, QUERY)]
    vectors = np.array(LibrarySnapshot.load(snapshot_file(where)).vectors)  # in a file of their own
    rewrite_snapshot(
        where,
        vectors={
            "narrow": vectors[:, :3].copy(),
            "float64": vectors.astype(np.float64),
            "integers": (vectors * 100).astype(np.int32),
        }[spoil],
    )
    index = LibraryIndex(where, HashingEmbedder())
    assert [event for event in index.sync(library) if isinstance(event, IndexFinished)]
    assert [hit.paper_id for hit in index.search(library, QUERY)] == before
    reloaded = LibrarySnapshot.load(snapshot_file(where))
    assert reloaded.vectors.dtype == np.float32 and reloaded.width() == HashingEmbedder.dimension


def test_a_fifo_in_place_of_the_snapshot_is_not_opened(where, library):
    before = [hit.paper_id for hit in LibraryIndex(where, HashingEmbedder()).search(library, QUERY)]
    path = snapshot_file(where)
    path.unlink()
    os.mkfifo(path)
    found: list[list[int]] = []
    worker = threading.Thread(
        target=lambda: found.append(
            [hit.paper_id for hit in LibraryIndex(where, HashingEmbedder()).search(library, QUERY)]
        ),
        daemon=True,
    )
    worker.start()
    worker.join(30)
    if worker.is_alive():  # it opened the FIFO: unblock it so the test process can end
        with open(path, "wb"):
            pass
        worker.join(5)
        pytest.fail("search opened the FIFO and waited on it")
    assert found == [before]
    assert path.is_file() and LibrarySnapshot.load(path) is not None  # replaced by a real snapshot


def test_two_first_imports_at_once_build_one_table(where):
    """Both processes find no table; before the sync lock, both created it and one failed with
    "Table 'library_papers' already exists". Each sync here waits for the other inside embed()
    (for at most 3 s): without the lock both pass it together."""
    run_import("bibtex", fixture_path("bibtex", "sample.bib"), Library.open(where))
    barrier = threading.Barrier(2)

    class MeetingEmbedder(HashingEmbedder):
        def embed(self, texts):
            try:
                barrier.wait(timeout=3)
            except threading.BrokenBarrierError:
                pass  # the other sync is waiting for the lock: nobody to meet
            return super().embed(texts)

    errors: list[BaseException] = []
    finished: list[IndexFinished] = []

    def first_sync() -> None:
        library = Library.open(where)
        try:
            finished.extend(
                event
                for event in LibraryIndex(where, MeetingEmbedder()).sync(library)
                if isinstance(event, IndexFinished)
            )
        except BaseException as error:
            errors.append(error)
        finally:
            library.close()

    threads = [threading.Thread(target=first_sync) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    papers = len(Library.open(where).all_papers())
    assert sorted(event.embedded for event in finished) == [0, papers]
    index = LibraryIndex(where, HashingEmbedder())
    assert index.db.open_table(TABLE).count_rows() == papers  # each paper once


def test_without_an_embedder_a_damaged_index_falls_back_to_words_only_search(where, library, monkeypatch):
    """SQLite keeps no vectors: with no embedder to embed them again, the words still find papers."""
    from scholar_tui.models import LLMError

    def no_embedder(*args, **kwargs):
        raise LLMError("embedding model 'gone' not found")

    monkeypatch.setattr("scholar_tui.models.load_embedder", no_embedder)
    spoil_table(where, "garbage data")
    snapshot_file(where).unlink()
    result = invoke("library", "search", "laser cooling ions", "--json")
    assert result.exit_code == 0, result.output
    assert "words-only search (the embedder cannot be used: embedding model 'gone' not found)" in result.output
    hits = json.loads(result.output[result.output.index("[") :])
    assert hits[0]["title"] == UNRELATED and hits[0]["vector_rank"] is None and hits[0]["text_rank"] == 1


@pytest.mark.parametrize("how", ["garbage data", "deleted versions"])
def test_doctor_repair_rebuilds_the_search_index_from_sqlite(where, library, hashing_embedder, how):
    spoil_table(where, how)
    result = invoke("doctor", "--repair")
    papers = len(library.all_papers())
    assert result.exit_code == 0, result.output
    assert f"rebuilt from SQLite: {papers} papers ({papers} embedded" in result.output
    assert "passes SQLite's check" in result.output
    assert LibraryIndex(where, HashingEmbedder()).db.open_table(TABLE).count_rows() == papers
    assert json.loads(invoke("library", "search", QUERY, "--json").output)[0]["title"] == UNRELATED
