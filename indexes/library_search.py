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

import hashlib
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from scholar_tui.config.locations import Locations
from scholar_tui.indexes.db import open_vectors
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.library_snapshot import LibrarySnapshot, snapshot_file

TABLE = "library_papers"
RRF_K = 60
DATE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?$")


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


class LibraryIndex:
    """The library's search index; ``embedder`` is a models.Embedder (loaded on first use).

    LanceDB is opened only when the snapshot must be written or rebuilt."""

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

        schema = pa.schema([
            pa.field("paper_id", pa.int64()),
            pa.field("content_hash", pa.string()),
            pa.field("text", pa.string()),
            pa.field("date", pa.string()),
            pa.field("vector", pa.list_(pa.float32(), dimension)),
        ])
        return self.db.create_table(TABLE, schema=schema)

    def indexed_count(self) -> int:
        table = self._table()
        return table.count_rows() if table is not None else 0

    # -- the snapshot ------------------------------------------------------------------------------
    def _write_snapshot(self, table) -> LibrarySnapshot:
        """The LanceDB table written out as the snapshot file (no text is embedded)."""
        columns = ["paper_id", "content_hash", "text", "date", "vector"]
        rows = table.search().select(columns).limit(None).to_list() if table is not None else []
        snapshot = LibrarySnapshot.build(rows)
        snapshot.save(snapshot_file(self.where))
        self._snapshot = snapshot
        return snapshot

    def snapshot(self) -> LibrarySnapshot:
        """The snapshot to search: this index's, else the file's, else rebuilt from LanceDB.

        Whether it is level with SQLite is ``sync``'s business (it compares content hashes)."""
        if self._snapshot is None:
            self._snapshot = LibrarySnapshot.load(snapshot_file(self.where)) or self._write_snapshot(self._table())
        return self._snapshot

    def _level_snapshot(self, wanted: dict[int, str]) -> LibrarySnapshot | None:
        """The snapshot file when it holds exactly ``wanted`` (paper id -> content hash) and the
        LanceDB table it was written from is still there, else None."""
        if not (self.where.lancedb_dir / f"{TABLE}.lance").is_dir():  # deleted: rebuilt and re-embedded
            return None
        snapshot = self._snapshot or LibrarySnapshot.load(snapshot_file(self.where))
        if snapshot is None or snapshot.digests() != wanted:
            return None
        self._snapshot = snapshot
        return snapshot

    # -- keeping level with SQLite -----------------------------------------------------------------
    def sync(self, library: Library, *, batch_size: int = 32) -> Iterator[IndexProgress | IndexFinished]:
        """Embed what SQLite has and the index lacks; drop rows for papers gone or changed.

        When the snapshot already matches SQLite paper for paper, nothing is opened but SQLite."""
        clock = time.monotonic()
        papers = {paper["id"]: paper for paper in library.all_papers()}
        wanted = {paper_id: _hash(_text(paper)) for paper_id, paper in papers.items()}
        level = self._level_snapshot(wanted)
        if level is not None:
            yield IndexProgress(0, 0)
            yield IndexFinished(0, 0, len(level.paper_ids), time.monotonic() - clock)
            return
        self._snapshot = None
        table = self._table()
        have: dict[int, str] = {}
        if table is not None:
            rows = table.search().select(["paper_id", "content_hash"]).limit(None).to_list()
            have = {row["paper_id"]: row["content_hash"] for row in rows}
        stale = [paper_id for paper_id, digest in have.items() if wanted.get(paper_id) != digest]
        todo = [paper_id for paper_id, digest in wanted.items() if have.get(paper_id) != digest]
        if stale and table is not None:
            table.delete(f"paper_id IN ({', '.join(str(paper_id) for paper_id in stale)})")
        yield IndexProgress(0, len(todo))
        for start in range(0, len(todo), batch_size):
            batch = [papers[paper_id] for paper_id in todo[start:start + batch_size]]
            texts = [_text(paper) for paper in batch]
            vectors = self.embedder.embed(texts)
            if table is None:
                table = self._create(vectors.shape[1])
            table.add([
                {"paper_id": paper["id"], "content_hash": _hash(text), "text": text, "date": paper["date"],
                 "vector": vector.tolist()}
                for paper, text, vector in zip(batch, texts, vectors)
            ])
            yield IndexProgress(min(start + batch_size, len(todo)), len(todo))
        snapshot = self._write_snapshot(table)
        yield IndexFinished(len(todo), len(stale), len(snapshot.paper_ids), time.monotonic() - clock)

    # -- reading -----------------------------------------------------------------------------------
    def vectors(self, paper_ids: list[int]) -> dict[int, list[float]]:
        """The stored embeddings of these papers (PaSa's Selector compares them with the query's)."""
        snapshot = self.snapshot()
        rows = snapshot.row_of
        return {int(paper_id): snapshot.vectors[rows[int(paper_id)]].tolist()
                for paper_id in paper_ids if int(paper_id) in rows}

    def searchable(self, before: str | None = None, within: set[int] | None = None) -> int:
        """How many papers a search may return for this cut-off: a search that returned this many
        returned them all (one that returned fewer than its limit may just have reached its depth)."""
        snapshot = self.snapshot()
        allowed = _allowed(snapshot, before, within)
        return len(snapshot.paper_ids) if allowed is None else int(allowed.sum())

    def search(self, library: Library, query: str, *, before: str | None = None, limit: int = 10,
               depth: int = 50, within: set[int] | None = None) -> list[SearchHit]:
        """Papers for ``query``, published strictly before ``before`` (ISO date) when given, and only
        among the papers ``within`` when given (a collection or a tag)."""
        if before is not None and not DATE.match(before):
            raise SearchError(f"the date cut-off must look like 2022-12-01, not {before!r}")
        if not query.strip():
            return []
        snapshot = self.snapshot()
        if not len(snapshot.paper_ids):
            return []
        allowed = _allowed(snapshot, before, within)
        vector = np.asarray(self.embedder.embed([query])[0], dtype=np.float32)
        vector_ids = [int(snapshot.paper_ids[row]) for row in _nearest(snapshot.vectors, vector, allowed, depth)]
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
            hits.append(SearchHit(
                paper_id=paper_id, score=round(scores[paper_id], 5),
                vector_rank=vector_ids.index(paper_id) + 1 if paper_id in vector_ids else None,
                text_rank=text_ids.index(paper_id) + 1 if paper_id in text_ids else None,
                title=paper["title"], date=paper["date"], arxiv_id=paper["arxiv_id"],
            ))
        return hits


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


def sync_index(where: Locations, library: Library, embedder) -> IndexFinished:
    """sync without the progress: the finished event."""
    finished = None
    for event in LibraryIndex(where, embedder).sync(library):
        if isinstance(event, IndexFinished):
            finished = event
    return finished
