"""Hybrid search over the library's papers: vectors + full text, fused by reciprocal rank.

One LanceDB table, ``library_papers``, is the record: a row per paper with its title and abstract
embedded by the default embedder and the paper's date for the cut-off. ``sync`` brings it level
with SQLite after an import: only papers that are new (or whose title or abstract changed, by
content hash) are embedded. After each change ``sync`` also writes the table out as a snapshot
file (``library_snapshot``: the vectors and a BM25 full-text index) and ``search`` runs on that
snapshot with numpy — so a cold ``library search`` never imports lancedb (2–3 s). ``search`` runs
the vector and the full-text query with the same date filter and fuses the two rankings (RRF,
k = 60: Cormack et al., 2009).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import re
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from scholar_tui.config.files import StateError
from scholar_tui.config.locations import Locations, make_folder
from scholar_tui.indexes.db import open_vectors
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.library_snapshot import LibrarySnapshot, snapshot_file

TABLE = "library_papers"
RRF_K = 60
DATE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?$")

log = logging.getLogger(__name__)


class SearchError(ValueError):
    """A bad search request (a malformed date); one line for the user."""


@dataclass
class IndexProgress:
    done: int
    total: int  # papers to embed this time


@dataclass
class IndexFinished:
    embedded: int
    removed: int
    indexed: int  # rows in the table now
    seconds: float


@dataclass
class SearchHit:
    paper_id: int
    score: float
    vector_rank: int | None
    text_rank: int | None
    title: str
    date: str | None
    arxiv_id: str | None

    def as_dict(self) -> dict:
        return {"pub_id": f"paper:{self.paper_id}", **self.__dict__}


def _text(paper: dict) -> str:
    return f"{paper['title']}. {paper['abstract'] or ''}".strip()


def _hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


class SearchIndexError(StateError):
    """The search index could not be rebuilt from SQLite; one line for the user."""


class _TableLost(Exception):
    """LanceDB failed on the table during a sync: it was discarded, and the sync starts again."""


@dataclass
class IndexCoverage:
    """How the search index stands against SQLite, found without embedding anything."""

    level: int  # papers indexed as SQLite holds them now
    behind: int  # papers of SQLite not indexed yet, or changed since
    extra: int  # rows for papers SQLite no longer has (a replaced or emptied database)

    def note(self) -> str:
        """'' when level; else what is off and that the next sync mends it."""
        parts = [f"{self.behind} papers not indexed yet"] if self.behind else []
        parts += [f"{self.extra} indexed papers no longer in the library"] if self.extra else []
        return f"stale: {', '.join(parts)}; the next search or import brings it level" if parts else ""


class LibraryIndex:
    """The library's search index; ``embedder`` is a models.Embedder (loaded on first use).

    LanceDB is opened only when the snapshot must be written or rebuilt. Both are caches of
    SQLite: a LanceDB table that cannot be read is logged, dropped and embedded again from the
    papers in SQLite (which keeps no vectors); a snapshot that is damaged, of the wrong types or of
    another vector width than the embedder's is rebuilt."""

    def __init__(self, where: Locations, embedder) -> None:
        self.where = where
        self.embedder = embedder
        self._db = None
        self._snapshot: LibrarySnapshot | None = None

    @property
    def db(self):
        if self._db is None:
            self._db = open_vectors(self.where)
        return self._db

    def _table(self):
        return self.db.open_table(TABLE) if TABLE in self.db.list_tables().tables else None

    def _create(self, dimension: int):
        import pyarrow as pa

        schema = pa.schema(
            [
                pa.field("paper_id", pa.int64()),
                pa.field("content_hash", pa.string()),
                pa.field("text", pa.string()),
                pa.field("date", pa.string()),
                pa.field("vector", pa.list_(pa.float32(), dimension)),
            ]
        )
        return self.db.create_table(TABLE, schema=schema, exist_ok=True)

    @property
    def _table_folder(self) -> Path:
        return self.where.lancedb_dir / f"{TABLE}.lance"

    def discard(self, error: Exception, *, quiet: bool = False) -> None:
        """Drop a table LanceDB cannot read (its folder removed when lance cannot drop it either)."""
        reason = (str(error).splitlines() or [type(error).__name__])[0][:200]
        if not quiet:
            log.warning(
                "search index %s cannot be read (%s): it is rebuilt from the library", self._table_folder, reason
            )
        self._snapshot = None
        with contextlib.suppress(Exception):
            self.db.drop_table(TABLE, ignore_missing=True)
        shutil.rmtree(self._table_folder, ignore_errors=True)
        self._db = None  # a fresh connection, with no cached view of the old table

    def _readable_table(self) -> tuple[Any, dict[int, str]]:
        """The table and its (paper id -> content hash) rows; (None, {}) when there is none or it
        cannot be read (then it is discarded)."""
        try:
            table = self._table()
            if table is None:
                return None, {}
            rows = table.search().select(["paper_id", "content_hash"]).limit(None).to_list()
            return table, {row["paper_id"]: row["content_hash"] for row in rows}
        except Exception as error:
            self.discard(error)
            return None, {}

    def _sync_lock(self):
        """One sync at a time across processes: two first imports into a fresh home would both
        create the table (and both embed the same papers); the second now finds it level."""
        from filelock import FileLock

        make_folder(self.where.lancedb_dir)
        return FileLock(self.where.lancedb_dir / f".{TABLE}.lock")

    def coverage(self, library: Library) -> IndexCoverage:
        """How many papers of SQLite the index holds as they are now (``library stats``)."""
        wanted = _wanted(library)
        have = self._readable_snapshot().digests()
        level = sum(1 for paper_id, digest in wanted.items() if have.get(paper_id) == digest)
        return IndexCoverage(level, len(wanted) - level, sum(1 for paper_id in have if paper_id not in wanted))

    # -- the snapshot ------------------------------------------------------------------------------
    def _write_snapshot(self, table) -> LibrarySnapshot:
        """The LanceDB table written out as the snapshot file (no text is embedded)."""
        columns = ["paper_id", "content_hash", "text", "date", "vector"]
        rows = table.search().select(columns).limit(None).to_list() if table is not None else []
        snapshot = LibrarySnapshot.build(_one_row_per_paper(rows))
        snapshot.save(snapshot_file(self.where))
        self._snapshot = snapshot
        return snapshot

    def _readable_snapshot(self) -> LibrarySnapshot:
        """The snapshot, else one rebuilt from LanceDB; an empty one when LanceDB cannot be read
        (the table is discarded: the next sync embeds the library again)."""
        if self._snapshot is None:
            self._snapshot = LibrarySnapshot.load(snapshot_file(self.where))
        if self._snapshot is None:
            try:
                return self._write_snapshot(self._table())
            except Exception as error:
                self.discard(error)
                return LibrarySnapshot.build([])
        return self._snapshot

    def snapshot(self, library: Library | None = None) -> LibrarySnapshot:
        """The snapshot to search: this index's, else the file's, else rebuilt from LanceDB, else
        (given the library, when LanceDB cannot be read) from SQLite, embedding again.

        Whether it is level with SQLite is ``sync``'s business (it compares content hashes)."""
        snapshot = self._readable_snapshot()
        if library is not None and not len(snapshot.paper_ids) and not self._table_folder.is_dir():
            for _ in self.sync(library):
                pass
            snapshot = self._readable_snapshot()
        return snapshot

    def _level_snapshot(self, wanted: dict[int, str]) -> LibrarySnapshot | None:
        """The snapshot file when it holds exactly ``wanted`` (paper id -> content hash) and the
        LanceDB table it was written from is still there, else None."""
        if not self._table_folder.is_dir():  # deleted: rebuilt and re-embedded
            return None
        snapshot = self._snapshot or LibrarySnapshot.load(snapshot_file(self.where))
        if snapshot is None or snapshot.digests() != wanted:
            return None
        self._snapshot = snapshot
        return snapshot

    def _words_snapshot(self, library: Library) -> LibrarySnapshot:
        """For a search without an embedder (words only): the snapshot when it is level with
        SQLite, else a full-text index built from SQLite's titles and abstracts now (not saved:
        it has no vectors)."""
        papers = library.all_papers()
        wanted = {paper["id"]: _hash(_text(paper)) for paper in papers}
        snapshot = self._readable_snapshot()
        if snapshot.digests() == wanted:
            return snapshot
        return LibrarySnapshot.build(
            [
                {
                    "paper_id": paper["id"],
                    "content_hash": wanted[paper["id"]],
                    "text": _text(paper),
                    "date": paper["date"],
                    "vector": [],
                }
                for paper in papers
            ]
        )

    def _rebuild_for_width(self, library: Library, width: int) -> LibrarySnapshot:
        """The snapshot's vectors are not as wide as the embedder's (a file edited, or another
        embedding model chosen): rebuilt from LanceDB, else every paper embedded again."""
        log.warning(
            "search snapshot vectors are %d wide, the embedder's %d: it is rebuilt",
            self._snapshot.width() if self._snapshot is not None else 0,
            width,
        )
        self._snapshot = None
        with contextlib.suppress(OSError):
            snapshot_file(self.where).unlink(missing_ok=True)
        snapshot = self._readable_snapshot()
        if len(snapshot.paper_ids) and snapshot.width() != width:
            self.discard(ValueError(f"vectors {snapshot.width()} wide, the embedder's {width}"))
            for _ in self.sync(library):
                pass
            snapshot = self._readable_snapshot()
        return snapshot

    # -- keeping level with SQLite -----------------------------------------------------------------
    def sync(self, library: Library, *, batch_size: int = 32) -> Iterator[IndexProgress | IndexFinished]:
        """Embed what SQLite has and the index lacks; drop rows for papers gone or changed.

        When the snapshot already matches SQLite paper for paper, nothing is opened but SQLite (and
        nothing is locked). A table LanceDB cannot read or write is discarded and the library
        embedded again, once."""
        clock = time.monotonic()
        level = self._level_snapshot(_wanted(library))
        if level is not None:
            yield IndexProgress(0, 0)
            yield IndexFinished(0, 0, len(level.paper_ids), time.monotonic() - clock)
            return
        with self._sync_lock():  # then looked at again: another process may have done the work
            try:
                yield from self._sync(library, batch_size)
            except _TableLost:
                try:
                    yield from self._sync(library, batch_size)
                except _TableLost as error:
                    raise SearchIndexError(
                        f"the search index in {self.where.lancedb_dir} cannot be written "
                        f"({error}); run `scholar-tui doctor --repair`"
                    ) from None

    def _sync(self, library: Library, batch_size: int) -> Iterator[IndexProgress | IndexFinished]:
        clock = time.monotonic()
        papers = {paper["id"]: paper for paper in library.all_papers()}
        wanted = {paper_id: _hash(_text(paper)) for paper_id, paper in papers.items()}
        level = self._level_snapshot(wanted)
        if level is not None:
            yield IndexProgress(0, 0)
            yield IndexFinished(0, 0, len(level.paper_ids), time.monotonic() - clock)
            return
        self._snapshot = None
        table, have = self._readable_table()
        stale = [paper_id for paper_id, digest in have.items() if wanted.get(paper_id) != digest]
        todo = [paper_id for paper_id, digest in wanted.items() if have.get(paper_id) != digest]
        if stale and table is not None:
            self._lance(lambda: table.delete(f"paper_id IN ({', '.join(str(paper_id) for paper_id in stale)})"))
        yield IndexProgress(0, len(todo))
        for start in range(0, len(todo), batch_size):
            batch = [papers[paper_id] for paper_id in todo[start : start + batch_size]]
            texts = [_text(paper) for paper in batch]
            vectors = self.embedder.embed(texts)  # the embedder's own errors are not the table's
            table = table if table is not None else self._lance(lambda: self._create(vectors.shape[1]))
            rows = [
                {
                    "paper_id": paper["id"],
                    "content_hash": _hash(text),
                    "text": text,
                    "date": paper["date"],
                    "vector": vector.tolist(),
                }
                for paper, text, vector in zip(batch, texts, vectors, strict=False)
            ]
            self._lance(lambda: table.add(rows))
            yield IndexProgress(min(start + batch_size, len(todo)), len(todo))
        snapshot = self._lance(lambda: self._write_snapshot(table))
        yield IndexFinished(len(todo), len(stale), len(snapshot.paper_ids), time.monotonic() - clock)

    def _lance(self, call: Callable[[], Any]) -> Any:
        """``call()`` on LanceDB; a failure discards the table (``_TableLost``: sync starts again)."""
        try:
            return call()
        except Exception as error:
            self.discard(error)
            raise _TableLost(str(error).splitlines()[0] if str(error) else type(error).__name__) from error

    # -- reading -----------------------------------------------------------------------------------
    def vectors(self, paper_ids: list[int]) -> dict[int, list[float]]:
        """The stored embeddings of these papers (PaSa's Selector compares them with the query's)."""
        snapshot = self.snapshot()
        rows = snapshot.row_of
        return {
            int(paper_id): snapshot.vectors[rows[int(paper_id)]].tolist()
            for paper_id in paper_ids
            if int(paper_id) in rows
        }

    def searchable(self, before: str | None = None, within: set[int] | None = None) -> int:
        """How many papers a search may return for this cut-off: a search that returned this many
        returned them all (one that returned fewer than its limit may just have reached its depth)."""
        snapshot = self.snapshot()
        allowed = _allowed(snapshot, before, within)
        return len(snapshot.paper_ids) if allowed is None else int(allowed.sum())

    def search(
        self,
        library: Library,
        query: str,
        *,
        before: str | None = None,
        limit: int = 10,
        depth: int = 50,
        within: set[int] | None = None,
    ) -> list[SearchHit]:
        """Papers for ``query``, published strictly before ``before`` (ISO date) when given, and only
        among the papers ``within`` when given (a collection or a tag)."""
        if before is not None and not DATE.match(before):
            raise SearchError(f"the date cut-off must look like 2022-12-01, not {before!r}")
        if not query.strip():
            return []
        snapshot = self.snapshot(library) if self.embedder is not None else self._words_snapshot(library)
        if not len(snapshot.paper_ids):
            return []
        vector = None  # words only without an embedder
        if self.embedder is not None:
            vector = np.asarray(self.embedder.embed([query])[0], dtype=np.float32)
            if snapshot.width() != len(vector):
                snapshot = self._rebuild_for_width(library, len(vector))
        allowed = _allowed(snapshot, before, within)
        vector_ids = (
            []
            if vector is None
            else [int(snapshot.paper_ids[row]) for row in _nearest(snapshot.vectors, vector, allowed, depth)]
        )
        text_ids = [int(snapshot.paper_ids[row]) for row in snapshot.text.rank(query, allowed=allowed, depth=depth)]
        scores: dict[int, float] = {}
        for ranking in (vector_ids, text_ids):
            for rank, paper_id in enumerate(ranking, start=1):
                scores[paper_id] = scores.get(paper_id, 0.0) + 1.0 / (RRF_K + rank)
        best = sorted(scores, key=lambda paper_id: -scores[paper_id])[:limit]
        rows = library.papers(best)
        hits = []
        for paper_id in best:
            paper = rows.get(paper_id)
            if paper is None:  # deleted from SQLite since the last sync
                continue
            hits.append(
                SearchHit(
                    paper_id=paper_id,
                    score=round(scores[paper_id], 5),
                    vector_rank=vector_ids.index(paper_id) + 1 if paper_id in vector_ids else None,
                    text_rank=text_ids.index(paper_id) + 1 if paper_id in text_ids else None,
                    title=paper["title"],
                    date=paper["date"],
                    arxiv_id=paper["arxiv_id"],
                )
            )
        return hits


def _wanted(library: Library) -> dict[int, str]:
    """paper id -> the content hash of its title and abstract, for every paper in SQLite."""
    return {paper["id"]: _hash(_text(paper)) for paper in library.all_papers()}


def _one_row_per_paper(rows: list[dict]) -> list[dict]:
    """The table's rows, the last one of each paper kept (two processes that both embedded a paper
    before the sync lock existed left two rows)."""
    return list({row["paper_id"]: row for row in rows}.values())


def _allowed(snapshot: LibrarySnapshot, before: str | None, within: set[int] | None = None) -> np.ndarray | None:
    """The rows a search with this cut-off may return (None: all). Papers without a known date
    cannot be shown to be older than the cut-off: left out. ``within`` keeps only those papers."""
    allowed = (snapshot.dates != "") & (snapshot.dates < before) if before else None
    if within is not None:
        chosen = np.isin(snapshot.paper_ids, np.fromiter(within, dtype=np.int64, count=len(within)))
        allowed = chosen if allowed is None else allowed & chosen
    return allowed


def _nearest(vectors: np.ndarray, query: np.ndarray, allowed: np.ndarray | None, depth: int) -> list[int]:
    """Rows by squared L2 distance to ``query`` (LanceDB's default metric; on unit vectors the
    cosine order), nearest first, only ``allowed`` ones when given."""
    distances = ((vectors - query) ** 2).sum(axis=1)
    rows = np.flatnonzero(allowed) if allowed is not None else np.arange(len(vectors))
    order = np.argsort(distances[rows], kind="stable")
    return rows[order[:depth]].tolist()


def rebuild_index(index: LibraryIndex, library: Library) -> IndexFinished:
    """``doctor --repair``: the table and the snapshot dropped, every paper of SQLite embedded again."""
    index.discard(ValueError("rebuild asked for"), quiet=True)
    with contextlib.suppress(OSError):
        snapshot_file(index.where).unlink(missing_ok=True)
    finished = None
    for event in index.sync(library):
        if isinstance(event, IndexFinished):
            finished = event
    assert finished is not None, "a sync always ends with IndexFinished"
    return finished


def sync_index(where: Locations, library: Library, embedder) -> IndexFinished:
    """sync without the progress: the finished event."""
    finished = None
    for event in LibraryIndex(where, embedder).sync(library):
        if isinstance(event, IndexFinished):
            finished = event
    assert finished is not None, "a sync always ends with IndexFinished"
    return finished
