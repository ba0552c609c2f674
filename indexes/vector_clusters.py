"""A coarse quantizer (IVF) over the library's own papers' vectors: a search of the own papers at
100 k compares the query with the rows of the clusters nearest to it, not with every row.

The centroids are a spherical k-means (Lloyd's, on unit vectors: the dot product is the cosine)
of a sample of the own rows, one per ``ROWS_PER_CLUSTER`` rows; every own row belongs to its nearest
centroid. A search ranks the centroids by their dot product with the query and takes the rows of the
nearest clusters until it holds ``PROBE_SHARE`` of the rows (at least ``MIN_PROBES`` clusters); those
rows are then ranked exactly, as the full pass ranks them. Libraries below ``MIN_ROWS`` own vectors
keep the full pass: it reads a few MB, a few ms.

Measured on the 100 k scale library with real vectors (model2vec; the bench's stand-in hash vectors
have no neighbourhoods), 200 queries against the full pass: the vector ranking's recall@10 0.968
(@50 0.955), the Library tab's hits' recall@10 0.956, 30 k of 100 k vectors compared. The synthetic
abstracts recombine sentences of unrelated papers, so its clusters are looser than a field's library.

Derived and incremental: the file ``library_search.clusters.npz`` beside the snapshot holds the
centroids, the embedder's name, the row count they were trained on, and each clustered paper's id,
a digest of the text its vector was made from and its cluster. ``sync`` (``library index``, an
import's index, the TUI's background index) brings it level at its end: rows of new or changed
papers are assigned to their nearest centroid (the cost of the new rows only); the centroids are
trained again only when the rows have grown ``RETRAIN_GROWTH`` times since, or when the model or
the width changed. A search writes it only through the sync it runs for a few new papers
(``INLINE_EMBED``); an own row the file lacks (a vector made since, PaSa's pool) is scored with the
probed rows whatever its cluster, so a stale file costs speed, not a hit.
Too many such rows (``MAX_UNCLUSTERED``) and the search takes the full pass.

Why not LanceDB's own IVF index: importing lancedb costs a cold process 2–3 s (its table stays the
record, not the searched copy), and its index is rebuilt, not extended, as rows are added.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scholar_tui.config.locations import Locations
from scholar_tui.indexes.library_snapshot import read_rows

FILE_NAME = "library_search.clusters.npz"
FORMAT = 1
MIN_ROWS = 20_000  # own vectors below which the full pass is kept (20 k × 256 floats: ~2 ms)
PROBE_SHARE = 0.3  # of the own rows a search compares with the query (0.2: hits recall@10 0.926, 0.3: 0.956)
MIN_PROBES = 8  # clusters probed at least, however large the nearest ones are
RETRAIN_GROWTH = 4.0  # rows grown this many times since the centroids were trained: trained again
MAX_UNCLUSTERED = 0.1  # share of own rows the file may lack before a search takes the full pass
ROWS_PER_CLUSTER = 100  # rows per centroid (``cluster_count``)
SAMPLE_PER_CLUSTER = 32  # k-means sample: rows per centroid (a 100 k library: 32 k rows)
ITERATIONS = 10  # Lloyd's iterations (the assignments barely move after ten on our libraries)
ASSIGN_CHUNK = 2048  # rows read and compared with every centroid at a time (a span of ~8 MB of the file)
SEED = 0  # the sample and the first centroids: the same library gives the same clusters

log = logging.getLogger(__name__)


def clusters_file(where: Locations) -> Path:
    return where.data_dir / FILE_NAME


def cluster_count(rows: int) -> int:
    """A centroid per ``ROWS_PER_CLUSTER`` rows (1,000 at 100 k). Finer than the usual √rows (316): on
    the 100 k scale library, probing a fifth of the rows found 95 % of the exact top 10 with 1,000
    clusters, 91 % with 316, 86 % with 64."""
    return max(16, min(4096, rows // ROWS_PER_CLUSTER))


def digests(hashes: np.ndarray) -> np.ndarray:
    """The first 16 hex digits of each row's content hash (sha1, "S40") as an int64: a changed text is
    another digest, in 8 bytes a row instead of 40 (vectorised: each digit's value, weighted)."""
    if not len(hashes):
        return np.zeros(0, np.int64)
    raw = np.frombuffer(np.ascontiguousarray(hashes, dtype="S40").tobytes(), dtype=np.uint8).reshape(-1, 40)[:, :16]
    values = np.where(raw >= ord("a"), raw - ord("a") + 10, raw - ord("0")).astype(np.uint64)
    weights = np.uint64(16) ** np.arange(15, -1, -1, dtype=np.uint64)
    return (values * weights).sum(axis=1, dtype=np.uint64).view(np.int64)


# -- training and assigning ----------------------------------------------------------------------------
def _read(vectors: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """These rows (ascending) of the vectors, read from the file when they are memory-mapped: mapped
    pages would count in the process's resident memory (the whole 385 MB file at 100 k papers)."""
    return np.asarray(read_rows(vectors, rows), dtype=np.float32)


def assign(vectors: np.ndarray, rows: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """Each of these rows' nearest centroid (largest dot product), ``ASSIGN_CHUNK`` rows at a time."""
    labels = np.empty(len(rows), dtype=np.int32)
    for start in range(0, len(rows), ASSIGN_CHUNK):
        block = _read(vectors, rows[start : start + ASSIGN_CHUNK])
        labels[start : start + len(block)] = np.argmax(block @ centroids.T, axis=1)
    return labels


def _nearest_centroids(sample: np.ndarray, centroids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each sample row's nearest centroid and its similarity to it, ``ASSIGN_CHUNK`` rows at a time:
    the whole sample against every centroid at once would hold 128 MB (32 k × 1,000 floats) at the
    end of a 100 k library's ``library index``."""
    labels = np.empty(len(sample), dtype=np.int64)
    fit = np.empty(len(sample), dtype=np.float32)
    for start in range(0, len(sample), ASSIGN_CHUNK):
        similarity = sample[start : start + ASSIGN_CHUNK] @ centroids.T
        best = np.argmax(similarity, axis=1)
        labels[start : start + len(best)] = best
        fit[start : start + len(best)] = similarity[np.arange(len(best)), best]
    return labels, fit


def train(vectors: np.ndarray, rows: np.ndarray, clusters: int) -> np.ndarray:
    """Spherical k-means centroids (unit rows) of a sample of these rows of ``vectors``; deterministic
    (``SEED``). An emptied cluster takes the sample row farthest from its own centroid."""
    rng = np.random.default_rng(SEED)
    size = min(len(rows), clusters * SAMPLE_PER_CLUSTER)
    picked = np.sort(rng.choice(len(rows), size=size, replace=False))
    sample = np.concatenate(
        [_read(vectors, rows[picked[start : start + ASSIGN_CHUNK]]) for start in range(0, size, ASSIGN_CHUNK)]
    )
    clusters = min(clusters, size)
    centroids = sample[rng.choice(size, size=clusters, replace=False)].copy()
    for _ in range(ITERATIONS):
        labels, fit = _nearest_centroids(sample, centroids)
        order = np.argsort(labels, kind="stable")
        held = np.bincount(labels, minlength=clusters)
        starts = np.concatenate([[0], np.cumsum(held)[:-1]])
        filled = held > 0
        sums = np.add.reduceat(sample[order], starts[filled], axis=0)
        centroids[filled] = sums
        empty = np.flatnonzero(~filled)
        if len(empty):  # the rows least like their centroid seed the empty clusters
            centroids[empty] = sample[np.argsort(fit, kind="stable")[: len(empty)]]
        centroids /= np.maximum(np.linalg.norm(centroids, axis=1, keepdims=True), 1e-12)
    return centroids.astype(np.float32)


# -- the file ----------------------------------------------------------------------------------------
@dataclass
class Clusters:
    """The centroids and the clustered rows, by paper id (ascending) and the digest of their text."""

    centroids: np.ndarray  # float32, clusters × width, unit rows
    paper_ids: np.ndarray  # int64, ascending
    digests: np.ndarray  # int64, ``digests`` of each row's content hash
    labels: np.ndarray  # int32, each row's cluster
    model: str
    trained_rows: int  # the rows the centroids were trained for

    def save(self, path: Path) -> None:
        """Atomically (a reader sees the old file or the new one); a file that cannot be written is logged:
        searches then score the rows it lacks as well, or take the full pass."""
        try:
            # a name of its own per writer: two threads of one process (the TUI's background index and PaSa's
            # preparation) may save at once, and a shared pid-named file would be replaced half written
            descriptor, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
        except OSError as error:
            log.warning("search clusters %s not written (%s)", path, error)
            return
        partial = Path(name)
        try:
            with os.fdopen(descriptor, "wb") as handle:
                np.savez(
                    handle,
                    format=np.array([FORMAT]),
                    centroids=self.centroids,
                    paper_ids=self.paper_ids,
                    digests=self.digests,
                    labels=self.labels,
                    model=np.array([self.model]),
                    trained_rows=np.array([self.trained_rows], dtype=np.int64),
                )
            os.replace(partial, path)
        except OSError as error:
            log.warning("search clusters %s not written (%s)", path, error)
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)

    @classmethod
    def load(cls, path: Path) -> Clusters | None:
        """The file, or None when it is missing, damaged or of another format (then it is made again)."""
        if not path.is_file():
            return None
        try:
            with np.load(path, allow_pickle=False) as arrays:
                if int(arrays["format"][0]) != FORMAT:
                    return None
                clusters = cls(
                    np.asarray(arrays["centroids"], dtype=np.float32),
                    np.asarray(arrays["paper_ids"], dtype=np.int64),
                    np.asarray(arrays["digests"], dtype=np.int64),
                    np.asarray(arrays["labels"], dtype=np.int32),
                    str(arrays["model"][0]),
                    int(arrays["trained_rows"][0]),
                )
        # a torn or damaged .npz raises BadZipFile, which is no OSError: it is a missing file all the same
        except (OSError, ValueError, KeyError, IndexError, EOFError, TypeError, zipfile.BadZipFile):
            return None
        return clusters if clusters.consistent() else None

    def consistent(self) -> bool:
        rows = len(self.paper_ids)
        return (
            self.centroids.ndim == 2
            and len(self.centroids) > 0
            and len(self.digests) == rows
            and len(self.labels) == rows
            and bool(np.all(np.diff(self.paper_ids) > 0))
            and (not rows or (int(self.labels.min()) >= 0 and int(self.labels.max()) < len(self.centroids)))
        )

    def labels_of(self, paper_ids: np.ndarray, row_digests: np.ndarray) -> np.ndarray:
        """Each row's cluster, -1 for a row the file lacks or holds for another text."""
        if not len(self.paper_ids):
            return np.full(len(paper_ids), -1, dtype=np.int32)
        at = np.minimum(np.searchsorted(self.paper_ids, paper_ids), len(self.paper_ids) - 1)
        known = (self.paper_ids[at] == paper_ids) & (self.digests[at] == row_digests)
        return np.where(known, self.labels[at], -1).astype(np.int32)


def level_clusters(path: Path, snapshot, own_rows: np.ndarray, model: str) -> Clusters | None:
    """The clusters file brought level with the snapshot's own rows (``own_rows``: its row numbers,
    ascending; ``sync``'s end): rows it lacks or holds for another text are assigned to their nearest
    centroid, rows of papers gone dropped; trained (again) when there is none, of another model or
    width, or the rows grew ``RETRAIN_GROWTH`` times. None (and no file) below ``MIN_ROWS`` rows.
    Written only when something changed; the vectors are read a chunk at a time (memory-mapped)."""
    if len(own_rows) < MIN_ROWS:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)
        return None
    paper_ids = np.asarray(snapshot.paper_ids[own_rows], dtype=np.int64)
    row_digests = digests(snapshot.hashes[own_rows])
    old = Clusters.load(path)
    if (
        old is None
        or old.model != model
        or old.centroids.shape[1] != snapshot.width()
        or len(own_rows) >= RETRAIN_GROWTH * old.trained_rows
    ):
        centroids = train(snapshot.vectors, own_rows, cluster_count(len(own_rows)))
        labels = assign(snapshot.vectors, own_rows, centroids)
        made = Clusters(centroids, paper_ids, row_digests, labels, model, len(own_rows))
        made.save(path)
        return made
    labels = old.labels_of(paper_ids, row_digests)
    new = np.flatnonzero(labels < 0)
    if not len(new) and len(old.paper_ids) == len(paper_ids):
        return old
    if len(new):
        labels[new] = assign(snapshot.vectors, own_rows[new], old.centroids)
    made = Clusters(old.centroids, paper_ids, row_digests, labels, model, old.trained_rows)
    made.save(path)
    return made


# -- searching ---------------------------------------------------------------------------------------
def cluster_order(clusters: Clusters, paper_ids: np.ndarray, row_digests: np.ndarray):
    """How to lay out these own rows for probing: (the order of the rows: the unclustered ones first,
    then cluster by cluster, each in the rows' own order; how many are unclustered; each cluster's
    first position in that order, and one past the last). None when the file lacks more than
    ``MAX_UNCLUSTERED`` of them (the full pass then)."""
    labels = clusters.labels_of(paper_ids, row_digests)
    unclustered = int((labels < 0).sum())
    if unclustered > MAX_UNCLUSTERED * max(len(paper_ids), 1):
        return None
    order = np.argsort(labels, kind="stable")  # -1 first; identical vectors stay in id order
    held = np.bincount(labels[order[unclustered:]], minlength=len(clusters.centroids))
    starts = unclustered + np.concatenate([[0], np.cumsum(held)]).astype(np.int64)
    return order, unclustered, starts


def probed_spans(
    centroids: np.ndarray, starts: np.ndarray, unclustered: int, query: np.ndarray, share: float = PROBE_SHARE
) -> list[tuple[int, int]]:
    """The spans of the cluster-ordered rows to compare with ``query``: the unclustered rows, then the
    nearest clusters' until ``share`` of all rows (``MIN_PROBES`` clusters at least), in position order."""
    sizes = np.diff(starts)
    nearest = np.argsort(-(centroids @ query), kind="stable")
    enough = share * int(starts[-1])
    taken = max(int(np.searchsorted(np.cumsum(sizes[nearest]), enough)) + 1, MIN_PROBES)
    chosen = np.sort(nearest[:taken])
    spans = [(0, unclustered)] if unclustered else []
    spans += [(int(starts[c]), int(starts[c + 1])) for c in chosen.tolist() if starts[c + 1] > starts[c]]
    return spans
