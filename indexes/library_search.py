"""Hybrid search over the library's papers: LanceDB vectors + full text, fused by reciprocal rank.

One LanceDB table, ``library_papers``: a row per paper with its title and abstract embedded by the
default embedder, a native full-text index on the same text, and the paper's date for the cut-off.
``sync`` brings it level with SQLite after an import: only papers that are new (or whose title or
abstract changed, by content hash) are embedded. ``search`` runs the vector and the full-text
query with the same date filter and fuses the two rankings (RRF, k = 60: Cormack et al., 2009).
"""

from __future__ import annotations

import hashlib
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass

from scholar_tui.config.locations import Locations
from scholar_tui.indexes.db import open_vectors
from scholar_tui.indexes.library import Library

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


def _fts_query(text: str) -> str:
    """Plain words only: the full-text parser gives meaning to quotes, colons and brackets."""
    return " ".join(re.findall(r"\w+", text))


class LibraryIndex:
    """The LanceDB side of the library; ``embedder`` is a models.Embedder (loaded on first use)."""

    def __init__(self, where: Locations, embedder) -> None:
        self.db = open_vectors(where)
        self.embedder = embedder

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

    def sync(self, library: Library, *, batch_size: int = 32) -> Iterator[IndexProgress | IndexFinished]:
        """Embed what SQLite has and the index lacks; drop rows for papers gone or changed."""
        import time

        clock = time.monotonic()
        papers = {paper["id"]: paper for paper in library.all_papers()}
        wanted = {paper_id: _hash(_text(paper)) for paper_id, paper in papers.items()}
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
        if todo and table is not None:
            with warnings.catch_warnings():  # create_fts_index is the documented call in lancedb 0.40
                warnings.simplefilter("ignore")
                table.create_fts_index("text", replace=True)
        yield IndexFinished(len(todo), len(stale), table.count_rows() if table is not None else 0,
                            time.monotonic() - clock)

    def vectors(self, paper_ids: list[int]) -> dict[int, list[float]]:
        """The stored embeddings of these papers (PaSa's Selector compares them with the query's)."""
        table = self._table()
        if table is None or not paper_ids:
            return {}
        wanted = ", ".join(str(int(paper_id)) for paper_id in paper_ids)
        rows = table.search().where(f"paper_id IN ({wanted})").select(["paper_id", "vector"]).limit(None).to_list()
        return {row["paper_id"]: row["vector"] for row in rows}

    def search(self, library: Library, query: str, *, before: str | None = None, limit: int = 10,
               depth: int = 50) -> list[SearchHit]:
        """Papers for ``query``, published strictly before ``before`` (ISO date) when given."""
        if before is not None and not DATE.match(before):
            raise SearchError(f"the date cut-off must look like 2022-12-01, not {before!r}")
        table = self._table()
        if table is None or not query.strip():
            return []
        # Papers without a known date cannot be shown to be older than the cut-off: left out.
        condition = f"date IS NOT NULL AND date < '{before}'" if before else None
        vector = self.embedder.embed([query])[0]
        vector_query = table.search(vector, vector_column_name="vector").limit(depth).select(["paper_id", "_distance"])
        if condition:
            vector_query = vector_query.where(condition, prefilter=True)
        vector_ids = [row["paper_id"] for row in vector_query.to_list()]
        text_ids: list[int] = []
        words = _fts_query(query)
        if words:
            text_query = table.search(words, query_type="fts", fts_columns="text").limit(depth).select(["paper_id", "_score"])
            if condition:
                text_query = text_query.where(condition, prefilter=True)
            text_ids = [row["paper_id"] for row in text_query.to_list()]
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


def sync_index(where: Locations, library: Library, embedder) -> IndexFinished:
    """sync without the progress: the finished event."""
    finished = None
    for event in LibraryIndex(where, embedder).sync(library):
        if isinstance(event, IndexFinished):
            finished = event
    return finished
