"""The library's vectors as one .npz file beside the SQLite database.

LanceDB (table ``library_papers``) stays the record of the papers' embeddings; this file is
derived from it, so that a cold process — ``scholar-tui library search`` — searches with numpy
alone instead of importing lancedb (2–3 s on a 2-core machine). It holds, row for row, each
paper's id, content hash, date and vector, the embedder that made the vectors, and the value of
SQLite's change counter (``search_counter``, migration m500) the rows were checked against: a row
of a paper noted in ``search_changes`` since then is out of date, every other row is level. Words
are searched in SQLite (FTS5), not here.

The file is never trusted blindly: its arrays' types and agreement are checked on load; a file
that is missing, damaged, of another format or type is rebuilt from the LanceDB table (no text is
embedded again). A FIFO or a device in its place is never opened.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import time
import zipfile
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from scholar_tui.config.files import StateError, refuse_special_file
from scholar_tui.config.locations import Locations

FORMAT = 2  # bump when the arrays change: older files are rebuilt (2: vectors only, with counter and model)
FILE_NAME = "library_search.npz"
CHUNK_ROWS = 8192  # vectors copied at a time by ``saved_with`` (8 MB at 256 dimensions)
# What each array must be (numpy's dtype kind, or an exact dtype): a well-formed file of other
# types (float64 or integer vectors, object arrays) is damaged, not searched.
DTYPES = {
    "paper_ids": np.dtype(np.int64),
    "hashes": "S",
    "dates": "U",
    "seq": "i",
    "model": "U",
    "origin": "U",
}

log = logging.getLogger(__name__)


def snapshot_file(where: Locations) -> Path:
    return where.data_dir / FILE_NAME


@dataclass
class LibrarySnapshot:
    paper_ids: np.ndarray  # int64, one per row, ascending
    hashes: np.ndarray  # the content hash each row was embedded from ("S40")
    dates: np.ndarray  # ISO dates, "" where unknown
    vectors: np.ndarray  # float32, rows × dimension, unit length
    seq: int = -1  # SQLite's change counter the rows were checked against (-1: never)
    model: str = ""  # the embedder's name: another model's vectors are not comparable
    origin: str = ""  # the database's mark (search_changes.origin) the counter belongs to

    @classmethod
    def empty(cls, *, seq: int = -1, model: str = "", width: int = 0) -> "LibrarySnapshot":
        return cls(
            np.zeros(0, np.int64), np.zeros(0, "S40"), np.zeros(0, "U10"), np.zeros((0, width), np.float32), seq, model
        )

    @classmethod
    def build(cls, rows: list[dict], *, seq: int = -1, model: str = "") -> "LibrarySnapshot":
        """From rows with paper_id, content_hash, date and vector (the LanceDB table's columns)."""
        rows = sorted(rows, key=lambda row: row["paper_id"])
        dimension = len(rows[0]["vector"]) if rows else 0
        return cls(
            paper_ids=np.array([row["paper_id"] for row in rows], dtype=np.int64),
            hashes=np.array([row["content_hash"] for row in rows], dtype="S40"),
            dates=np.array([row["date"] or "" for row in rows], dtype=str) if rows else np.zeros(0, dtype="U1"),
            vectors=np.array([row["vector"] for row in rows], dtype=np.float32).reshape(len(rows), dimension),
            seq=seq,
            model=model,
        )

    def without(self, paper_ids: np.ndarray) -> "LibrarySnapshot":
        """These papers' rows dropped (changed or deleted since the rows were made)."""
        keep = ~np.isin(self.paper_ids, paper_ids)
        if keep.all():
            return self
        return LibrarySnapshot(
            self.paper_ids[keep],
            self.hashes[keep],
            self.dates[keep],
            self.vectors[keep],
            self.seq,
            self.model,
            self.origin,
        )

    def joined(self, parts: list["LibrarySnapshot"]) -> "LibrarySnapshot":
        """This snapshot with the rows of ``parts`` added (a paper in several: the last part's row)."""
        if not parts:
            return self
        every = [self, *parts]
        ids = np.concatenate([part.paper_ids for part in every])
        # the last occurrence of each id wins: unique on the reversed order
        _, last = np.unique(ids[::-1], return_index=True)
        rows = len(ids) - 1 - last  # in the order of the unique ids: ascending
        width = max(part.width() for part in every)
        return LibrarySnapshot(
            ids[rows],
            np.concatenate([part.hashes for part in every]).astype("S40")[rows],
            np.concatenate([part.dates.astype(str) for part in every])[rows],
            np.concatenate([part.vectors.reshape(len(part.paper_ids), width) for part in every])[rows],
            self.seq,
            self.model,
            self.origin,
        )

    @cached_property
    def row_of(self) -> dict[int, int]:
        """paper id -> its row (built once per snapshot, not on every lookup)."""
        return {int(paper_id): row for row, paper_id in enumerate(self.paper_ids)}

    def digests(self) -> dict[int, str]:
        """paper id -> the content hash its row was made from."""
        return {
            int(paper_id): digest.decode("ascii") for paper_id, digest in zip(self.paper_ids, self.hashes, strict=False)
        }

    def save(self, path: Path) -> None:
        """Write atomically: a reader sees the old snapshot or the new one, never half of one. The
        vectors go to a file of their own beside it (``vectors_file``, a new name each time, then
        the index file that names it replaces the old one), read by memory map: a zip member is
        copied and CRC-checked, 1.5 s for 100,000 rows. The file is a cache: one that cannot be
        written is logged, and the next process rebuilds it."""

        def write_vectors(partial_vectors: Path) -> None:
            with open(partial_vectors, "wb") as handle:
                np.save(handle, np.ascontiguousarray(self.vectors, dtype=np.float32), allow_pickle=False)

        self._save(path, write_vectors)

    def saved_with(self, parts: list["LibrarySnapshot"], path: Path) -> "LibrarySnapshot | None":
        """``joined(parts)`` saved to ``path`` without the joined vectors in memory: they are copied
        into the new vectors file ``CHUNK_ROWS`` rows at a time, from this snapshot's (memory-mapped,
        hundreds of MB at 100 k papers; a joined copy would hold them all) and from each part's where
        they lie (the parts are never stacked: a sync's unsaved rows, up to ``SAVE_BYTES``, held twice
        or thrice made ``library index``'s peak, 1.28 GB at 100 k papers), and the snapshot given back
        maps that file. None when it could not be written."""
        ids = np.concatenate([self.paper_ids, *(part.paper_ids for part in parts)])
        _, last = np.unique(ids[::-1], return_index=True)
        rows = len(ids) - 1 - last  # as ``joined``: ascending ids, the last part's row where several have one
        width = next((part.width() for part in parts if len(part.paper_ids)), self.width())
        mine = len(self.paper_ids)

        def write_vectors(partial_vectors: Path) -> None:
            # plain reads and writes, not maps: a mapped page counts in the process's resident memory
            # (the old and the new file, 385 MB each at 100 k papers), a page read or written does not
            header = {"descr": np.lib.format.dtype_to_descr(np.dtype(np.float32)), "fortran_order": False}
            with open(partial_vectors, "wb") as handle:
                np.lib.format.write_array_header_1_0(handle, {**header, "shape": (len(rows), width)})
                for start in range(0, len(rows), CHUNK_ROWS):
                    chunk = rows[start : start + CHUNK_ROWS]
                    theirs = chunk >= mine
                    block = np.empty((len(chunk), width), dtype=np.float32)
                    if not theirs.all():  # (an empty snapshot's vectors are 0 wide: nothing to take)
                        block[~theirs] = read_rows(self.vectors, chunk[~theirs])
                    if theirs.any():
                        block[theirs] = stacked_rows(parts, chunk[theirs] - mine, width)
                    handle.write(block.tobytes())

        joined = LibrarySnapshot(
            ids[rows],
            np.concatenate([self.hashes, *(part.hashes for part in parts)]).astype("S40")[rows],
            np.concatenate([self.dates.astype(str), *(part.dates.astype(str) for part in parts)])[rows],
            np.zeros((0, width), dtype=np.float32),  # unused: ``write_vectors`` writes the rows
            self.seq,
            self.model,
            self.origin,
        )
        if not joined._save(path, write_vectors):
            return None
        return LibrarySnapshot.load(path)

    def _save(self, path: Path, write_vectors) -> bool:
        """``save`` with the vectors written by ``write_vectors(partial path)``; False when not written."""
        token = f"{os.getpid()}-{time.time_ns()}"
        vectors_path = path.with_name(f"{path.stem}.{token}.npy")
        partial = path.with_name(f".{path.name}.{token}.partial")
        partial_vectors = path.with_name(f".{vectors_path.name}.partial")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_vectors(partial_vectors)
            os.replace(partial_vectors, vectors_path)
            with open(partial, "wb") as handle:
                np.savez(
                    handle,
                    format=np.array([FORMAT]),
                    paper_ids=self.paper_ids,
                    hashes=self.hashes,
                    dates=self.dates,
                    vectors_file=np.array([vectors_path.name]),
                    seq=np.array([self.seq], dtype=np.int64),
                    model=np.array([self.model]),
                    origin=np.array([self.origin]),
                )
            os.replace(partial, path)
        except OSError as error:
            log.warning("search snapshot %s not written (%s); searches rebuild it", path, error)
            for leftover in (partial, partial_vectors, vectors_path):
                with contextlib.suppress(OSError):
                    leftover.unlink(missing_ok=True)
            return False
        for old in path.parent.glob(f"{path.stem}.*.npy"):  # earlier vectors (a reader's map stays valid)
            if old.name != vectors_path.name:
                with contextlib.suppress(OSError):
                    old.unlink()
        return True

    @classmethod
    def load(cls, path: Path) -> "LibrarySnapshot | None":
        """The snapshot in ``path``, or None when it is missing, damaged or of another format.

        A FIFO or a device in its place is not opened (np.load would wait on it for ever)."""
        try:
            if not refuse_special_file(path, "the search snapshot"):
                return None
        except StateError as error:
            log.warning("%s; it is rebuilt", error)
            return None
        try:
            with np.load(path, allow_pickle=False) as arrays:
                if not _typed(arrays):
                    log.warning("search snapshot %s holds arrays of the wrong type; it is rebuilt", path)
                    return None
                if int(arrays["format"][0]) != FORMAT:
                    return None
                vectors = arrays["vectors"] if "vectors" in arrays else _mapped_vectors(path, arrays)
                if vectors is None or vectors.dtype != np.float32:
                    log.warning("search snapshot %s has no float32 vectors; it is rebuilt", path)
                    return None
                snapshot = cls(
                    paper_ids=arrays["paper_ids"],
                    hashes=arrays["hashes"],
                    dates=arrays["dates"],
                    vectors=vectors,
                    seq=int(arrays["seq"][0]),
                    model=str(arrays["model"][0]),
                    origin=str(arrays["origin"][0]),
                )
        except (OSError, ValueError, KeyError, IndexError, EOFError, zipfile.BadZipFile):
            return None
        return snapshot if snapshot.consistent() else None

    def width(self) -> int:
        """The vectors' dimension (a query's vector must have as many)."""
        return int(self.vectors.shape[1])

    def consistent(self) -> bool:
        """The arrays agree with each other (a file cut short or edited by hand does not)."""
        rows = len(self.paper_ids)
        return (
            len(self.hashes) == rows
            and len(self.dates) == rows
            and self.vectors.ndim == 2
            and len(self.vectors) == rows
            and bool(np.all(np.diff(self.paper_ids) > 0))  # ascending, one row a paper
        )


def read_rows(vectors: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``vectors[rows]`` (``rows`` ascending); from a memory-mapped file, read from the file instead of
    through the map, so the pages never count in the process's resident memory."""
    if not isinstance(vectors, np.memmap) or vectors.filename is None or not len(rows):
        return vectors[rows]
    first, last = int(rows[0]), int(rows[-1])
    width = vectors.shape[1]
    span = np.fromfile(
        vectors.filename, dtype=np.float32, count=(last - first + 1) * width, offset=vectors.offset + first * width * 4
    ).reshape(-1, width)
    return span[rows - first]


def stacked_rows(parts: list[LibrarySnapshot], rows: np.ndarray, width: int) -> np.ndarray:
    """The vectors at ``rows`` of the parts' rows stacked one after another, gathered from each part
    without stacking them (that would copy every part's vectors at once)."""
    starts = np.cumsum([0, *(len(part.paper_ids) for part in parts)])
    which = np.searchsorted(starts, rows, side="right") - 1
    block = np.empty((len(rows), width), dtype=np.float32)
    for number in np.unique(which):
        picked = which == number
        block[picked] = parts[number].vectors[rows[picked] - starts[number]]
    return block


def _typed(arrays) -> bool:
    """Every array is there with its type (``DTYPES``)."""
    for name, wanted in DTYPES.items():
        dtype = arrays[name].dtype
        if (dtype != wanted) if isinstance(wanted, np.dtype) else (dtype.kind != wanted):
            return False
    return True


def _mapped_vectors(path: Path, arrays) -> np.ndarray | None:
    """The vectors file the snapshot names, memory-mapped read-only; None when it is not a plain
    file beside the snapshot (a name with a folder in it, a FIFO, missing)."""
    name = str(arrays["vectors_file"][0])
    if not re.fullmatch(rf"{re.escape(path.stem)}\.[0-9]+-[0-9]+\.npy", name):
        return None
    vectors_path = path.with_name(name)
    try:
        if not refuse_special_file(vectors_path, "the search vectors"):
            return None
    except StateError:
        return None
    return np.load(vectors_path, mmap_mode="r", allow_pickle=False)


# One snapshot per file per process, while the file is unchanged: a warm search in the TUI does
# not read 150 MB again (the key is the file's size and time).
_SNAPSHOTS: dict[Path, tuple[tuple[int, int], LibrarySnapshot]] = {}


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns


def load_cached(path: Path) -> LibrarySnapshot | None:
    """``LibrarySnapshot.load``, once per process while the file's size and time are unchanged."""
    stamp = _stamp(path)
    cached = _SNAPSHOTS.get(path)
    if stamp is not None and cached is not None and cached[0] == stamp:
        return cached[1]
    snapshot = LibrarySnapshot.load(path)
    _SNAPSHOTS.pop(path, None)
    if snapshot is not None and stamp is not None:
        _SNAPSHOTS[path] = (stamp, snapshot)
    return snapshot


def remember(path: Path, snapshot: LibrarySnapshot) -> None:
    """``snapshot`` was just saved to ``path``: the next load_cached gives it without reading."""
    stamp = _stamp(path)
    _SNAPSHOTS.pop(path, None)
    if stamp is not None:
        _SNAPSHOTS[path] = (stamp, snapshot)


def forget(path: Path) -> None:
    _SNAPSHOTS.pop(path, None)
