"""Hybrid search over the library's papers: vectors + full text, fused by reciprocal rank.

Words are ranked by SQLite's FTS5 index over titles and abstracts (``papers_fts``, kept by
triggers: a paper is searchable by words the moment its import commits; a search of the own papers
reads ``papers_fts_own_first``, the same words with the cited works' rows set apart, migration m019). Vectors live in one
LanceDB table, ``library_papers`` (the record: a row per paper with the content hash of the text
it was embedded from), written out as a snapshot file (``library_snapshot``) that ``search`` scans
with numpy — so a cold ``library search`` never imports lancedb (2–3 s).

What is out of date is known from SQLite's change counter (migration m500: triggers note every
paper inserted, changed or deleted), never by re-reading the library: a search drops the rows of
the papers noted since the snapshot, ``sync`` re-reads only those and embeds the papers that have
no vector, in chunks, saving as it goes (a stopped ``library index`` resumes). ``search`` uses the
vectors there are and says how many papers lack one; it runs both rankings with the same date
filter and fuses them (RRF, k = 60: Cormack et al., 2009).
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import hashlib
import logging
import re
import shutil
import time
import zipfile
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from scholar_tui.config.files import StateError
from scholar_tui.config.locations import Locations, make_folder
from scholar_tui.indexes import search_changes as changes
from scholar_tui.indexes.bulk_writes import counted_cited_works
from scholar_tui.indexes.db import open_vectors
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.library_snapshot import LibrarySnapshot, forget, load_cached, remember, snapshot_file
from scholar_tui.indexes.vector_clusters import (
    MIN_ROWS,
    Clusters,
    cluster_order,
    clusters_file,
    digests,
    level_clusters,
    probed_spans,
)

TABLE = "library_papers"
RRF_K = 60
INLINE_EMBED = 32  # papers a search embeds before it runs; more are left to `library index`
WRITE_ROWS = 1024  # vectors per LanceDB write (each write is a fragment and a version)
NEAR_TIE = 1e-4  # similarities this close may be ordered otherwise by the L2 distance (float32 rounding)
OWN_REACH = 4  # how much wider an own-papers search casts its net of nearest vectors each time
SAVE_EVERY_S = 30.0  # a long sync writes the snapshot this often: a search meanwhile sees its progress
SAVE_BYTES = 64 << 20  # and whenever the vectors not yet in the file hold this much (a fast embedder
# makes 200 k rows, 200 MB at 256 wide, in 30 s: held until the save, they made most of the peak)
DATE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?$")


def is_cut_off_date(text: str) -> bool:
    """A year, a year and month, or a day that exists ("2023-13-99" has the shape, not a date)."""
    if not DATE.match(text):
        return False
    try:
        datetime.date.fromisoformat((text + "-01-01")[:10] if len(text) < 10 else text)
    except ValueError:
        return False
    return True


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
class IndexDeferred:
    """Too many papers lack a vector to embed before a search (more than ``INLINE_EMBED``): the
    search goes on with the vectors there are and words for the rest; ``library index`` (or the
    TUI's background index) embeds them, resumably."""

    missing: int

    def summary(self) -> str:
        return (
            f"{self.missing} papers have no vector yet: found by their words only until "
            "`scholar-tui library index` (or the TUI's background index) computes them"
        )


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
        parts = [f"{self.behind} papers without a vector yet"] if self.behind else []
        parts += [f"{self.extra} indexed papers no longer in the library"] if self.extra else []
        return (
            f"stale: {', '.join(parts)}; `scholar-tui library index` brings it level (words find every paper meanwhile)"
            if parts
            else ""
        )


class LibraryIndex:
    """The library's search index; ``embedder`` is a models.Embedder (loaded on first use), or None
    for a search by words alone.

    Words are ranked by SQLite (FTS5, kept by triggers: searchable the moment an import ends);
    vectors come from the snapshot file, derived from the LanceDB table. Which rows are out of date
    is known from SQLite's change counter, never by re-reading the papers: a search reads only the
    ids noted since the snapshot was written. LanceDB is opened only to write vectors or to rebuild
    a lost snapshot; a table it cannot read is logged, dropped and embedded again."""

    def __init__(self, where: Locations, embedder) -> None:
        self.where = where
        self.embedder = embedder
        self._db = None
        self._snapshot: LibrarySnapshot | None = None
        self.made: MadeVectors | None = None  # vectors a search embedded for papers it lacks (``keep_made``)

    @property
    def db(self):
        if self._db is None:
            self._db = open_vectors(self.where)
        return self._db

    @property
    def model(self) -> str:
        return getattr(self.embedder, "name", "") if self.embedder is not None else ""

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
        forget(snapshot_file(self.where))
        with contextlib.suppress(OSError):  # derived from the table's vectors: made again by the next sync
            clusters_file(self.where).unlink(missing_ok=True)
        with contextlib.suppress(Exception):
            self.db.drop_table(TABLE, ignore_missing=True)
        shutil.rmtree(self._table_folder, ignore_errors=True)
        self._db = None  # a fresh connection, with no cached view of the old table

    def _sync_lock(self):
        """One sync at a time across processes: two first imports into a fresh home would both
        create the table (and both embed the same papers); the second now finds it level."""
        from filelock import FileLock

        make_folder(self.where.lancedb_dir)
        return FileLock(self.where.lancedb_dir / f".{TABLE}.lock")

    # -- the snapshot ------------------------------------------------------------------------------
    def _stored_snapshot(self) -> LibrarySnapshot | None:
        """The snapshot file as written (None: missing or damaged); one load per process while
        the file is unchanged, so a warm search in the TUI does not read it again."""
        if self._snapshot is None:
            self._snapshot = load_cached(snapshot_file(self.where))
        return self._snapshot

    def _save(self, snapshot: LibrarySnapshot) -> None:
        path = snapshot_file(self.where)
        snapshot.save(path)
        remember(path, snapshot)
        self._snapshot = snapshot

    def _of_this_model(self, snapshot: LibrarySnapshot | None) -> LibrarySnapshot | None:
        """``snapshot`` when its vectors are the embedder's (any, without an embedder) and the
        LanceDB table it was written from is still there (a folder deleted: embedded again)."""
        if snapshot is None or (self.model and snapshot.model and snapshot.model != self.model):
            return None  # (an embedder without a name, a test's or a bench's stand-in, fills in any)
        if len(snapshot.paper_ids) and not self._table_folder.is_dir():
            return None
        return snapshot

    def current(self, library: Library) -> LibrarySnapshot:
        """The vectors a search may use now: the snapshot's rows less those of papers changed
        since it was written (read from the change log: only those ids). Nothing is embedded."""
        snapshot = self._of_this_model(self._stored_snapshot())
        if snapshot is None and self._stored_snapshot() is None and self._table_folder.is_dir():
            snapshot = self._restore(library)
        if snapshot is None or not self._trusted(snapshot, library):
            return LibrarySnapshot.empty(model=self.model)
        if snapshot.seq == changes.counter(library.conn):
            return snapshot
        return snapshot.without(changes.changed_since(library.conn, snapshot.seq))

    @staticmethod
    def _trusted(snapshot: LibrarySnapshot, library: Library) -> bool:
        """The snapshot's counter is this database's (not a replaced or emptied one's)."""
        return snapshot.seq >= 0 and snapshot.origin == changes.origin(library.conn)

    def _restore(self, library: Library) -> LibrarySnapshot:
        """The snapshot file is gone and the LanceDB table is there: the file written again from
        the table's rows that SQLite still holds as they were (nothing is embedded). Kept for this
        search only without an embedder (whose vectors they are is then unknown)."""
        with self._sync_lock():
            self._snapshot = None
            restored = self._stored_snapshot()
            if restored is not None:  # another process restored it meanwhile
                return restored
            try:
                level, _, _ = self._level_rows(library, changes.counter(library.conn))
            except _TableLost:
                return LibrarySnapshot.empty(model=self.model)
            if self.embedder is not None:
                self._save(level)
            return level

    def _rebuild_for_width(self, library: Library, width: int) -> LibrarySnapshot:
        """The snapshot's vectors are not as wide as the embedder's (a file edited by hand): the
        file rebuilt from LanceDB; when LanceDB's are not either, the table dropped and every
        paper left to embed again (``library index``)."""
        log.warning("search snapshot vectors are not %d wide, as the embedder's: it is rebuilt", width)
        self._snapshot = None
        forget(snapshot_file(self.where))
        with contextlib.suppress(OSError):
            snapshot_file(self.where).unlink(missing_ok=True)
        snapshot = self.current(library)
        if len(snapshot.paper_ids) and snapshot.width() != width:
            self.discard(ValueError(f"vectors {snapshot.width()} wide, the embedder's {width}"))
            snapshot = LibrarySnapshot.empty(model=self.model)
        if changes.paper_count(library.conn) - len(snapshot.paper_ids) <= INLINE_EMBED:
            for _ in self.sync(library):
                pass
            snapshot = self.current(library)
        return snapshot

    def coverage(self, library: Library) -> IndexCoverage:
        """How many papers have vectors as they are now (``library stats``), from the change log."""
        level = len(self.current(library).paper_ids)
        stored = self._stored_snapshot()
        extra = 0
        if stored is not None and not self._trusted(stored, library):  # another database's rows
            extra = len(np.setdiff1d(stored.paper_ids, changes.paper_ids(library.conn)))
        return IndexCoverage(level, max(changes.paper_count(library.conn) - level, 0), extra)

    def snapshot(self, library: Library | None = None) -> LibrarySnapshot:
        """The vectors to search (PaSa's Selector reads stored vectors from it): the level rows
        when the library is given, else the file's as written."""
        if library is not None:
            return self.current(library)
        stored = self._of_this_model(self._stored_snapshot())
        if stored is None and self._stored_snapshot() is None:
            stored = self._from_table(self._readable_table()[0])
        return stored or LibrarySnapshot.empty(model=self.model)

    # -- keeping level with SQLite -----------------------------------------------------------------
    def _level_clusters(self, library: Library, snapshot: LibrarySnapshot) -> None:
        """The own rows' clusters (``vector_clusters``) level with the snapshot a sync leaves: the new
        rows assigned, trained at first and as the library grows. A failure costs searches their speed
        only (they take the full pass): logged, never raised."""
        try:
            level_clusters(clusters_file(self.where), snapshot, own_rows(library, snapshot), snapshot.model)
        except (OSError, ValueError, MemoryError, zipfile.BadZipFile) as error:
            log.warning("search clusters not brought level (%s): searches read every vector meanwhile", error)

    def lacking(self, library: Library) -> int:
        """How many papers have no vector as they are now (from the change log: nothing is read)."""
        return max(changes.paper_count(library.conn) - len(self.current(library).paper_ids), 0)

    def sync_if_few(
        self, library: Library, *, up_to: int = INLINE_EMBED
    ) -> Iterator[IndexProgress | IndexFinished | IndexDeferred]:
        """``sync`` when no more than ``up_to`` papers lack a vector (a small import: embedded before
        the search, in seconds); else ``IndexDeferred``, embedding nothing: searches use the vectors
        there are and words for the rest. The one rule a search and PaSa's preparation share."""
        missing = self.lacking(library) if self.embedder is not None else 0
        if missing > up_to:
            yield IndexDeferred(missing)
            return
        if self.embedder is not None:
            yield from self.sync(library)

    def sync(self, library: Library, *, batch_size: int = 32) -> Iterator[IndexProgress | IndexFinished]:
        """Embed the papers that have no vector as they are now; drop rows of papers changed or gone.

        Resumable: vectors are written to LanceDB and the snapshot as they are made (every
        ``SAVE_EVERY_S``, and when the sync is stopped, Ctrl-C included), so the next sync starts
        where this one stopped. When the counter has not moved and no paper lacks a vector, nothing
        is embedded and nothing is locked: only the clusters file is read to see that it is level (and
        assigned or trained, seconds at most, where it is not: ``vector_clusters.level_clusters``)."""
        clock = time.monotonic()
        stored = self._of_this_model(self._stored_snapshot())
        if stored is not None and stored.seq == changes.counter(library.conn) and self._trusted(stored, library):
            if len(stored.paper_ids) == changes.paper_count(library.conn):
                yield IndexProgress(0, 0)
                self._level_clusters(library, stored)
                yield IndexFinished(0, 0, len(stored.paper_ids), time.monotonic() - clock)
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
        self._snapshot = None  # another process may have written it while we waited for the lock
        seq = changes.counter(library.conn)  # before reading: a change made meanwhile is caught next time
        snapshot, (table, rows), removed = self._level_rows(library, seq)
        todo = np.setdiff1d(changes.paper_ids(library.conn), snapshot.paper_ids, assume_unique=True)
        if len(todo) and table is not None and rows > len(snapshot.paper_ids):
            found = self._recovered(library, table, todo)  # written to LanceDB, not to the file
            snapshot = snapshot.joined([found])
            todo = np.setdiff1d(todo, found.paper_ids, assume_unique=True)
        yield IndexProgress(0, len(todo))
        writer = _Writer(self, snapshot, table)
        try:
            for papers in changes.papers_by_id(library.conn, todo):
                for start in range(0, len(papers), batch_size):
                    batch = papers[start : start + batch_size]
                    texts = [changes.paper_text(paper) for paper in batch]
                    writer.add(batch, texts, self.embedder.embed(texts))  # the embedder's errors are not the table's
                    yield IndexProgress(writer.embedded, len(todo))
                    writer.save_now_and_then()
        finally:  # stopped (Ctrl-C, a closed worker) or finished: what was made is kept
            snapshot = writer.close()
        self._level_clusters(library, snapshot)
        yield IndexFinished(writer.embedded, removed, len(snapshot.paper_ids), time.monotonic() - clock)

    def _level_rows(self, library: Library, seq: int) -> tuple[LibrarySnapshot, tuple[Any, int], int]:
        """The snapshot's rows that are level with SQLite (counter ``seq``), the LanceDB table
        (None when there is none yet) with its row count, and how many rows were dropped as
        changed or gone."""
        stored = self._of_this_model(self._stored_snapshot())
        table, rows = self._readable_table()
        if stored is None:
            other = self._stored_snapshot()
            if table is not None and other is not None:  # another embedder's vectors
                self.discard(ValueError(f"vectors of {other.model!r}"), quiet=True)
                table = None
            stored = self._from_table(table)
        trusted = self._trusted(stored, library)
        suspects = changes.changed_since(library.conn, stored.seq) if trusted else stored.paper_ids
        suspects = suspects[np.isin(suspects, stored.paper_ids)]
        level = stored.without(suspects)
        row_of = stored.row_of
        recheck = {int(paper_id): row_of[int(paper_id)] for paper_id in suspects}
        kept = []  # suspects whose title, abstract and date are as they were: their vectors stand
        for papers in changes.papers_by_id(library.conn, suspects):
            for paper in papers:
                row = recheck[paper["id"]]
                if stored.hashes[row].decode() == _hash(changes.paper_text(paper)) and stored.dates[row] == (
                    paper["date"] or ""
                ):
                    kept.append(row)
        if kept:
            rows = np.array(sorted(kept))
            level = level.joined(
                [LibrarySnapshot(stored.paper_ids[rows], stored.hashes[rows], stored.dates[rows], stored.vectors[rows])]
            )
        dropped = np.setdiff1d(stored.paper_ids, level.paper_ids)
        if len(dropped) and table is not None:
            # only the stale rows: a newer row of the same paper (a sync killed before it saved
            # the snapshot) is kept for ``_recovered``
            for start in range(0, len(dropped), changes.CHUNK):
                chunk = dropped[start : start + changes.CHUNK]
                ids = ", ".join(str(int(paper_id)) for paper_id in chunk)
                hashes = ", ".join(f"'{stored.hashes[stored.row_of[int(i)]].decode()}'" for i in chunk)
                predicate = f"paper_id IN ({ids}) AND content_hash IN ({hashes})"
                self._lance(functools.partial(table.delete, predicate))
        level.seq, level.model, level.origin = seq, self.model or stored.model, changes.origin(library.conn)
        return level, (table, rows), len(dropped)

    def _recovered(self, library: Library, table, todo: np.ndarray) -> LibrarySnapshot:
        """Rows of ``todo`` papers that LanceDB holds as SQLite has them now: a sync killed between
        its LanceDB write and its snapshot save is resumed without embedding them again."""
        rows = self._from_table(table)
        rows = rows.without(np.setdiff1d(rows.paper_ids, todo))
        row_of = rows.row_of
        level = [
            row_of[paper["id"]]
            for papers in changes.papers_by_id(library.conn, rows.paper_ids)
            for paper in papers
            if rows.hashes[row_of[paper["id"]]].decode() == _hash(changes.paper_text(paper))
            and rows.dates[row_of[paper["id"]]] == (paper["date"] or "")
        ]
        keep = np.array(sorted(level), dtype=np.int64)
        return LibrarySnapshot(rows.paper_ids[keep], rows.hashes[keep], rows.dates[keep], rows.vectors[keep])

    def _readable_table(self):
        """The LanceDB table and its row count; (None, 0) when there is none or it cannot be read
        (then it is discarded). Its ids and hashes are read through (two narrow columns): a table
        whose files are damaged fails here, not halfway through a sync."""
        if not self._table_folder.is_dir():
            return None, 0
        try:
            table = self._table()
            if table is None:
                return None, 0
            return table, table.search().select(["paper_id", "content_hash"]).limit(None).to_arrow().num_rows
        except Exception as error:
            self.discard(error)
            return None, 0

    def _from_table(self, table) -> LibrarySnapshot:
        """The snapshot rebuilt from the LanceDB table's columns (Arrow, no Python row per float);
        counter -1: every row is checked against SQLite before it is trusted."""
        if table is None:
            return LibrarySnapshot.empty(model=self.model)
        try:
            data = table.search().select(["paper_id", "content_hash", "date", "vector"]).limit(None).to_arrow()
        except Exception as error:
            self.discard(error)
            return LibrarySnapshot.empty(model=self.model)
        count = data.num_rows
        if not count:
            return LibrarySnapshot.empty(model=self.model)
        vectors = data.column("vector").combine_chunks()
        width = vectors.type.list_size
        part = LibrarySnapshot(
            np.asarray(data.column("paper_id").to_numpy(), dtype=np.int64),
            np.array(data.column("content_hash").to_pylist(), dtype="S40"),
            np.array([date or "" for date in data.column("date").to_pylist()], dtype=str),
            np.asarray(vectors.flatten().to_numpy(), dtype=np.float32).reshape(count, width),
        )
        return LibrarySnapshot.empty(model=self.model, width=width).joined([part])

    def _lance(self, call: Callable[[], Any]) -> Any:
        """``call()`` on LanceDB; a failure discards the table (``_TableLost``: sync starts again)."""
        try:
            return call()
        except Exception as error:
            self.discard(error)
            raise _TableLost(str(error).splitlines()[0] if str(error) else type(error).__name__) from error

    # -- vectors made elsewhere ----------------------------------------------------------------------
    def keep(self, library: Library, made: "MadeVectors") -> int:
        """Vectors embedded outside a sync (PaSa's pool papers, ranked before ``library index`` reached
        them) written into the index, so that the next search does not embed them again; how many.

        Only the embedder's own: ``made.model`` must be this index's model and the stored vectors'
        (another model's vectors are never mixed in), and of their width; a paper whose title,
        abstract or date changed since is left to the next sync. Incremental: the rows are appended to
        LanceDB and the snapshot is written with its vectors copied a chunk at a time. When a sync
        holds the lock (``library index`` running) nothing is written: that sync embeds them."""
        from filelock import Timeout

        if not made.rows or not self.model or made.model != self.model:
            return 0
        lock = self._sync_lock()
        try:
            lock.acquire(timeout=0)
        except Timeout:
            return 0
        try:
            return self._keep(library, made)
        except _TableLost:
            return 0
        finally:
            lock.release()

    def note_made(self, paper: dict, text: str, vector) -> None:
        """A vector embedded for a paper the index lacks (``keep_made`` writes them)."""
        if self.made is None or self.made.model != self.model:
            self.made = MadeVectors(self.model)
        self.made.note(paper, text, vector)

    def keep_made(self, library: Library) -> int:
        """``keep`` the vectors noted since the last call (``note_made``), then forget them."""
        made, self.made = self.made, None
        return self.keep(library, made) if made is not None else 0

    def _keep(self, library: Library, made: "MadeVectors") -> int:
        self._snapshot = None
        stored = self._stored_snapshot()
        if stored is None or (stored.model and stored.model != made.model):
            return 0  # no index of this model yet (``library index`` makes it), or another model's
        snapshot, (table, _), _ = self._level_rows(library, changes.counter(library.conn))
        width = len(next(iter(made.rows.values()))[2])
        if len(snapshot.paper_ids) and snapshot.width() != width:
            return 0
        have = snapshot.row_of
        todo = [paper_id for paper_id in made.rows if paper_id not in have]
        writer = _Writer(self, snapshot, table)
        for papers in changes.papers_by_id(library.conn, todo):
            level = [
                paper
                for paper in papers
                if made.rows[paper["id"]][:2] == (_hash(changes.paper_text(paper)), paper["date"] or "")
            ]
            if level:
                vectors = np.array([made.rows[paper["id"]][2] for paper in level], dtype=np.float32)
                writer.add(level, [changes.paper_text(paper) for paper in level], vectors)
        with contextlib.suppress(_TableLost):  # LanceDB failed: the rows it has are kept
            writer._write()
        if not writer.unsaved:
            return 0
        if self._saved_with(snapshot, writer.unsaved) is None:
            return 0  # the file could not be written: the rows in LanceDB are found by the next sync
        return sum(len(part.paper_ids) for part in writer.unsaved)

    def _saved_with(self, snapshot: LibrarySnapshot, parts: list[LibrarySnapshot]) -> LibrarySnapshot | None:
        """The snapshot file written with ``parts`` appended, its vectors copied a chunk at a time
        (``LibrarySnapshot.saved_with``: the vectors are never held twice, nor the parts stacked), and
        made the index's current one; None when the file could not be written."""
        path = snapshot_file(self.where)
        saved = snapshot.saved_with(parts, path)
        if saved is not None:
            remember(path, saved)
            self._snapshot = saved
        return saved

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

    def searchable(
        self, before: str | None = None, within: set[int] | None = None, library: Library | None = None
    ) -> int:
        """How many papers a search may return for this cut-off: a search that returned this many
        returned them all (one that returned fewer than its limit may just have reached its depth)."""
        if library is not None:
            return changes.searchable_count(library.conn, before, within)
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
        embed_missing_up_to: int = INLINE_EMBED,
        own_only: bool = False,
        count_cited: bool = True,
    ) -> list[SearchHit]:
        """Papers for ``query``, published strictly before ``before`` (ISO date) when given, and only
        among the papers ``within`` when given (a collection or a tag). ``own_only`` leaves out PaSa's
        cited works (a person's library search; PaSa's own searches keep them): a filter on FTS5's
        candidates and on the nearest vectors, and ``cited_left_out`` says how many also matched
        (``count_cited=False``: not counted here, for a caller that shows the hits first and then asks
        ``cited_matching``).

        Words rank every paper (FTS5); vectors rank the papers that have one as they are now. When
        no more than ``embed_missing_up_to`` papers lack a vector they are embedded first (a small
        import); more are left to ``library index`` (``missing`` says how many)."""
        if before is not None and not is_cut_off_date(before):
            raise SearchError(f"the date cut-off must be a date like 2022-12-01 (or 2022-12, 2022), not {before!r}")
        if not query.strip():
            return []
        snapshot = LibrarySnapshot.empty()
        scoring: Future[_Scored] | None = None
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="vector-pass") as pool:
            if self.embedder is not None:
                snapshot = self.current(library)
                if len(snapshot.paper_ids) < changes.paper_count(library.conn):  # a few are embedded first
                    for _ in self.sync_if_few(library, up_to=embed_missing_up_to):
                        pass
                    snapshot = self.current(library)
                if len(snapshot.paper_ids):
                    vector = np.asarray(self.embedder.embed([query])[0], dtype=np.float32)
                    if snapshot.width() != len(vector):
                        snapshot = self._rebuild_for_width(library, len(vector))
                    if len(snapshot.paper_ids) and snapshot.width() == len(vector):
                        own = OwnRows.of(library, snapshot, self.where) if own_only else None
                        # numpy leaves the GIL: the pass over the vectors runs while SQLite ranks the words
                        scoring = pool.submit(_scored, snapshot, vector, _allowed(snapshot, before, within), own)
            self.missing = max(changes.paper_count(library.conn) - len(snapshot.paper_ids), 0)
            text_ids = changes.text_ranking(
                library.conn, query, before=before, within=within, depth=depth, own_only=own_only
            )
            self.cited_left_out = (
                self.cited_matching(library, query, before=before, within=within) if own_only and count_cited else 0
            )
            scored = None if scoring is None else scoring.result()
            self.scored_rows = 0 if scored is None else len(scored.rows)
            vector_ids = [] if scored is None else _vector_ranking(library, scored, depth, own_only)
        unembedded = (
            set() if not vector_ids else {paper_id for paper_id in text_ids if not _has_row(snapshot, paper_id)}
        )
        return _fused(library, vector_ids, text_ids, limit, unembedded)

    @staticmethod
    def cited_matching(
        library: Library, query: str, *, before: str | None = None, within: set[int] | None = None
    ) -> int:
        """How many cited works hold a query word under these filters (at most ``CITED_COUNT_CAP``):
        what a search of the library's own papers leaves out."""
        return changes.cited_matches(library.conn, query, before=before, within=within)

    missing = 0  # papers without a vector at the last search (searched by words only)
    scored_rows = 0  # vectors the last search compared with the query's (own papers' only with ``own_only``)
    cited_left_out = 0  # cited works holding a query word that an ``own_only`` search left out


def _vector_ranking(library: Library, scored: _Scored, depth: int, own_only: bool) -> list[int]:
    """The ``depth`` nearest papers' ids, from the search's one pass over the vectors (``scored``).
    ``own_only``: the pass scored the own papers' rows (``OwnRows``); cited works are still dropped
    from the nearest ones, looked up by id (a paper made a cited work since the rows were picked),
    the net cast wider (×4 each time) until ``depth`` own papers are in it or every allowed row was
    looked at."""
    reach = depth
    rows = len(scored.rows)
    while True:
        nearest = [int(scored.paper_ids[row]) for row in scored.nearest(reach)]
        if not own_only:
            return nearest
        cited = changes.cited_among(library.conn, nearest)
        own = [paper_id for paper_id in nearest if paper_id not in cited]
        if len(own) >= depth or reach >= rows:
            return own[:depth]
        reach *= OWN_REACH


def _has_row(snapshot: LibrarySnapshot, paper_id: int) -> bool:
    row = int(np.searchsorted(snapshot.paper_ids, paper_id))
    return row < len(snapshot.paper_ids) and int(snapshot.paper_ids[row]) == paper_id


def _fused(
    library: Library, vector_ids: list[int], text_ids: list[int], limit: int, unembedded: set[int] | None = None
) -> list[SearchHit]:
    """The two rankings fused by reciprocal rank, as hits with SQLite's titles and dates.

    A paper without a vector yet (``unembedded``) cannot be in the vector ranking: its words' rank
    stands in for it there too, or every paper with a vector would outrank it while the index is
    being built."""
    scores: dict[int, float] = {}
    for ranking in (vector_ids, text_ids):
        for rank, paper_id in enumerate(ranking, start=1):
            scores[paper_id] = scores.get(paper_id, 0.0) + 1.0 / (RRF_K + rank)
    for rank, paper_id in enumerate(text_ids, start=1):
        if unembedded and paper_id in unembedded:
            scores[paper_id] += 1.0 / (RRF_K + rank)
    best = sorted(scores, key=lambda paper_id: -scores[paper_id])[:limit]
    rows = library.papers(best)
    vector_rank = {paper_id: rank for rank, paper_id in enumerate(vector_ids, start=1)}
    text_rank = {paper_id: rank for rank, paper_id in enumerate(text_ids, start=1)}
    return [
        SearchHit(
            paper_id=paper_id,
            score=round(scores[paper_id], 5),
            vector_rank=vector_rank.get(paper_id),
            text_rank=text_rank.get(paper_id),
            title=rows[paper_id]["title"],
            date=rows[paper_id]["date"],
            arxiv_id=rows[paper_id]["arxiv_id"],
        )
        for paper_id in best
        if paper_id in rows  # deleted from SQLite since the snapshot
    ]


@dataclass
class MadeVectors:
    """Vectors a search embedded for papers the index lacked (PaSa's pool), kept for ``LibraryIndex.keep``:
    paper id -> (content hash of the text embedded, its date or "", the vector), and the model."""

    model: str
    rows: dict[int, tuple[str, str, list[float]]] = field(default_factory=dict)

    def note(self, paper: dict, text: str, vector) -> None:
        self.rows[int(paper["id"])] = (_hash(text), paper["date"] or "", np.asarray(vector, dtype=float).tolist())


class _Writer:
    """Vectors made by a sync, written to LanceDB every ``WRITE_ROWS`` rows (one Arrow batch: few
    fragments) and to the snapshot every ``SAVE_EVERY_S``, every ``SAVE_BYTES`` of vectors and at the
    end, so that a stopped sync loses at most the rows of the last batch."""

    def __init__(self, index: LibraryIndex, snapshot: LibrarySnapshot, table) -> None:
        self.index = index
        self.snapshot = snapshot
        self.table = table
        self.pending: list[LibrarySnapshot] = []  # rows not in LanceDB yet
        self.pending_texts: list[str] = []
        self.unsaved: list[LibrarySnapshot] = []  # rows in LanceDB, not in the snapshot file yet
        self.embedded = 0
        self.saved_at = time.monotonic()

    def add(self, papers: list[dict], texts: list[str], vectors: np.ndarray) -> None:
        self.pending.append(
            LibrarySnapshot(
                np.array([paper["id"] for paper in papers], dtype=np.int64),
                np.array([_hash(text) for text in texts], dtype="S40"),
                np.array([paper["date"] or "" for paper in papers], dtype=str),
                np.asarray(vectors, dtype=np.float32),
            )
        )
        self.pending_texts.extend(texts)
        self.embedded += len(papers)
        if len(self.pending_texts) >= WRITE_ROWS:
            self._write()

    def _write(self) -> None:
        if not self.pending:
            return
        import pyarrow as pa

        part = LibrarySnapshot.empty(width=self.pending[0].width()).joined(self.pending)
        texts = dict(zip([int(i) for p in self.pending for i in p.paper_ids], self.pending_texts, strict=True))
        if self.table is None:
            self.table = self.index._lance(lambda: self.index._create(part.width()))
        width = part.width()
        batch = pa.table(
            {
                "paper_id": pa.array(part.paper_ids, pa.int64()),
                "content_hash": pa.array([digest.decode() for digest in part.hashes], pa.string()),
                "text": pa.array([texts[int(paper_id)] for paper_id in part.paper_ids], pa.string()),
                "date": pa.array([date or None for date in part.dates.tolist()], pa.string()),
                "vector": pa.FixedSizeListArray.from_arrays(pa.array(part.vectors.reshape(-1), pa.float32()), width),
            }
        )
        self.index._lance(lambda: self.table.add(batch))
        self.unsaved.append(part)
        self.pending, self.pending_texts = [], []

    def save_now_and_then(self) -> None:
        if time.monotonic() - self.saved_at >= SAVE_EVERY_S or self._unsaved_bytes() >= SAVE_BYTES:
            self._write()
            self._save()

    def _unsaved_bytes(self) -> int:
        return sum(part.vectors.nbytes for part in (*self.unsaved, *self.pending))

    def _save(self) -> None:
        """The snapshot file with the rows written since: copied into the new file a chunk at a time
        (``saved_with``), so a sync holds the vectors once, mapped, however many it has made (a joined
        copy held them twice, twice a minute, at 100 k papers 385 MB each)."""
        if self.unsaved:
            unsaved, self.unsaved = self.unsaved, []
            saved = self.index._saved_with(self.snapshot, unsaved)
            if saved is not None:
                self.snapshot = saved
                self.saved_at = time.monotonic()
                return
            self.snapshot = self.snapshot.joined(unsaved)  # not written: kept in memory for the next save
        self.index._save(self.snapshot)
        self.saved_at = time.monotonic()

    def close(self) -> LibrarySnapshot:
        with contextlib.suppress(_TableLost):  # LanceDB failed: the rows it has are kept
            self._write()
        self._save()
        return self.snapshot


def _allowed(snapshot: LibrarySnapshot, before: str | None, within: set[int] | None = None) -> np.ndarray | None:
    """The rows a search with this cut-off may return (None: all). Papers without a known date
    cannot be shown to be older than the cut-off: left out. ``within`` keeps only those papers."""
    allowed = (snapshot.dates != "") & (snapshot.dates < before) if before else None
    if within is not None:
        chosen = np.isin(snapshot.paper_ids, np.fromiter(within, dtype=np.int64, count=len(within)))
        allowed = chosen if allowed is None else allowed & chosen
    return allowed


@dataclass
class OwnRows:
    """The rows of a snapshot that hold the library's own papers (not PaSa's cited works), with
    their vectors copied together: an own-papers search (the Library tab, ``library search``)
    scores only these. Cited works are most of an unArXive library's rows (276 k of 376 k at 100 k
    papers), so the one pass over the vectors reads 100 MB instead of 385 MB.

    From ``MIN_ROWS`` own vectors on, with the clusters file level with them (``vector_clusters``,
    kept by ``sync``), the rows are laid out cluster by cluster (``spans``): a search without a
    filter compares the query with the nearest clusters' rows only (``PROBE_SHARE``: 30 %), not every row.

    Built once per snapshot, library state and clusters file (``key``: the database's mark, its change
    counter, the cited works' count, which m017's triggers keep when a paper's source changes, and the
    clusters file's size and time); the ids come from migration m018's partial index, not from a pass
    over the papers."""

    key: tuple
    rows: np.ndarray  # the snapshot's row numbers (ascending, or cluster by cluster with ``spans``)
    paper_ids: np.ndarray  # their papers' ids
    vectors: np.ndarray  # their vectors, one contiguous float32 block
    spans: ClusterSpans | None = None

    _last: ClassVar[tuple[LibrarySnapshot, OwnRows] | None] = None  # the last snapshot's (one: the TUI's warm searches)

    @classmethod
    def of(cls, library: Library, snapshot: LibrarySnapshot, where: Locations | None = None) -> OwnRows:
        conn = library.conn
        path = None if where is None else clusters_file(where)
        key = (changes.origin(conn), changes.counter(conn), counted_cited_works(conn), _stamp(path))
        last = cls._last
        if last is not None and last[0] is snapshot and last[1].key == key:
            return last[1]
        rows = own_rows(library, snapshot)
        spans = None
        if path is not None and len(rows) >= MIN_ROWS:
            spans = ClusterSpans.of(path, snapshot, rows, snapshot.model)
            if spans is not None:
                rows = rows[spans.order]
        made = cls(key, rows, snapshot.paper_ids[rows], np.ascontiguousarray(snapshot.vectors[rows]), spans)
        cls._last = (snapshot, made)
        return made


@dataclass
class ClusterSpans:
    """Where each cluster's rows lie in ``OwnRows``' cluster-ordered rows (``vector_clusters``)."""

    centroids: np.ndarray
    order: np.ndarray  # the own rows (ascending) in cluster order: unclustered first
    unclustered: int
    starts: np.ndarray  # cluster c's rows: positions starts[c] to starts[c + 1]

    @classmethod
    def of(cls, path: Path, snapshot: LibrarySnapshot, rows: np.ndarray, model: str) -> ClusterSpans | None:
        clusters = Clusters.load(path)
        if clusters is None or clusters.centroids.shape[1] != snapshot.width() or (model and clusters.model != model):
            return None
        laid = cluster_order(clusters, snapshot.paper_ids[rows], digests(snapshot.hashes[rows]))
        return None if laid is None else cls(clusters.centroids, *laid)

    def probe(self, vectors: np.ndarray, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(positions, similarities) of the rows in the clusters nearest the query, positions ascending."""
        spans = probed_spans(self.centroids, self.starts, self.unclustered, query)
        positions = np.concatenate([np.arange(start, end) for start, end in spans])
        similarity = np.concatenate([vectors[start:end] @ query for start, end in spans])
        return positions, similarity


def own_rows(library: Library, snapshot: LibrarySnapshot) -> np.ndarray:
    """The snapshot's rows (ascending) that hold the library's own papers, not cited works."""
    own = changes.own_paper_ids(library.conn)
    at = np.minimum(np.searchsorted(own, snapshot.paper_ids), max(len(own) - 1, 0))
    return np.flatnonzero(own[at] == snapshot.paper_ids) if len(own) else np.zeros(0, np.int64)


def _stamp(path: Path | None) -> tuple[int, int] | None:
    try:
        stat = path.stat() if path is not None else None
    except OSError:
        return None
    return None if stat is None else (stat.st_size, stat.st_mtime_ns)


@dataclass
class _Scored:
    """The rows a search may return and each one's dot product with the query: the one pass over
    the vectors (memory-bound: 385 MB at 376 k rows of 256) that every ``nearest`` of one search
    reads, however often an own-papers search widens its net. ``paper_ids``: each of ``vectors``'
    rows' paper."""

    vectors: np.ndarray
    query: np.ndarray
    rows: np.ndarray
    similarity: np.ndarray
    paper_ids: np.ndarray

    @classmethod
    def of(
        cls, vectors: np.ndarray, query: np.ndarray, allowed: np.ndarray | None, paper_ids: np.ndarray | None = None
    ) -> _Scored:
        rows = np.flatnonzero(allowed) if allowed is not None else np.arange(len(vectors))
        similarity = vectors @ query if allowed is None else vectors[rows] @ query
        return cls(vectors, query, rows, similarity, np.arange(len(vectors)) if paper_ids is None else paper_ids)

    def nearest(self, depth: int) -> list[int]:
        """Rows by squared L2 distance to the query (LanceDB's default metric), nearest first;
        equal distances in row order.

        On unit vectors the distance is 2 − 2·dot, so the dot products pick the candidates (no
        rows × width temporary): every row within ``NEAR_TIE`` of the ``depth``-th similarity.
        The candidates are then ordered by the distance itself, computed as a full scan computes
        it: the two differ by float32 rounding, and ordering ties and near-ties by the dot product
        gave another order than the scan's (PaSa's crawls and its trained head changed with it)."""
        rows = self.rows
        if not len(rows):
            return []
        if len(rows) > depth:
            cut = -np.partition(-self.similarity, depth - 1)[depth - 1]  # the depth-th highest similarity
            candidates = rows[self.similarity >= cut - NEAR_TIE]  # ascending, as ``rows``
        else:
            candidates = rows
        distances = ((self.vectors[candidates] - self.query) ** 2).sum(axis=1)
        return candidates[np.argsort(distances, kind="stable")[:depth]].tolist()


def _scored(snapshot: LibrarySnapshot, query: np.ndarray, allowed: np.ndarray | None, own: OwnRows | None) -> _Scored:
    """The search's one pass: over every row of the snapshot, or over the own papers' (``own``), on one
    BLAS thread. It is one matrix-vector product, bound by memory: a second thread made it slower, not
    faster (100 k × 256: 16.0 → 9.7 ms alone on 2 cores), and took the core the words ranking runs on
    meanwhile (an own-papers search at 100 k: 78.7 → 66.0 ms, A/B in one process). The nearest rows
    are ordered by their distances, computed apart from BLAS (``_Scored.nearest``)."""
    with _one_blas_thread():
        if own is None:
            return _Scored.of(snapshot.vectors, query, allowed, snapshot.paper_ids)
        if own.spans is not None and allowed is None:  # the nearest clusters' rows (a filter: every row)
            positions, similarity = own.spans.probe(own.vectors, query)
            return _Scored(own.vectors, query, positions, similarity, own.paper_ids)
        return _Scored.of(own.vectors, query, None if allowed is None else allowed[own.rows], own.paper_ids)


@functools.lru_cache(maxsize=1)
def _blas_threads():
    from threadpoolctl import ThreadpoolController  # finds the BLAS numpy loaded (once: a few ms)

    return ThreadpoolController()


def _one_blas_thread():
    """numpy's BLAS on one thread for the block (for the whole process meanwhile: a search's pass)."""
    return _blas_threads().limit(limits=1, user_api="blas")


def _nearest(vectors: np.ndarray, query: np.ndarray, allowed: np.ndarray | None, depth: int) -> list[int]:
    """The ``depth`` rows nearest ``query``, only ``allowed`` ones when given (``_Scored.nearest``)."""
    return _Scored.of(vectors, query, allowed).nearest(depth)


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
