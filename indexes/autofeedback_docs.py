"""LanceDB table of the API documentation's chunks, for AutoFeedback's Document Retrieval (§3.3.1).

One table per documentation (``autofeedback_docs`` for the academic APIs, another for PaSa's
tools): a row per semantic chunk with its API name, section, text and
embedding, and the fingerprint of the documentation and embedder it was built from (a changed
spec or another embedder rebuilds it). Retrieval first narrows to the chunks of the API named in
the request (and the shared ``*`` chunks), then takes the nearest by cosine: the paper matches
"corresponding chunk vectors" by API name, then finds the most similar one to the query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from scholar_tui.config.locations import Locations
from scholar_tui.indexes.db import open_vectors, replace_table

TABLE = "autofeedback_docs"
SAFE_NAME = re.compile(r"^[A-Za-z_*][A-Za-z0-9_]*$")


@dataclass
class DocHit:
    api: str
    section: str
    text: str
    score: float
    """Cosine similarity to the query."""


def _schema(dimension: int) -> pa.Schema:
    return pa.schema(
        [
            pa.field("api", pa.string()),
            pa.field("section", pa.string()),
            pa.field("text", pa.string()),
            pa.field("fingerprint", pa.string()),
            pa.field("vector", pa.list_(pa.float32(), dimension)),
        ]
    )


class DocIndex:
    def __init__(self, where: Locations, table: str = TABLE) -> None:
        self.db = open_vectors(where)
        self.table = table

    def _table(self):
        return self.db.open_table(self.table) if self.table in self.db.list_tables().tables else None

    def fingerprint(self) -> str | None:
        table = self._table()
        if table is None or table.count_rows() == 0:
            return None
        return table.search().select(["fingerprint"]).limit(1).to_list()[0]["fingerprint"]

    def write(self, chunks, vectors: np.ndarray, fingerprint: str) -> None:
        """Replace the table with these chunks (``.api``, ``.section``, ``.text``) and their vectors."""
        dimension = int(vectors.shape[1])
        flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).ravel(), type=pa.float32())
        data = pa.Table.from_arrays(
            [
                pa.array([chunk.api for chunk in chunks], pa.string()),
                pa.array([chunk.section for chunk in chunks], pa.string()),
                pa.array([chunk.text for chunk in chunks], pa.string()),
                pa.array([fingerprint] * len(chunks), pa.string()),
                pa.FixedSizeListArray.from_arrays(flat, dimension),
            ],
            schema=_schema(dimension),
        )
        replace_table(self.db, self.table, data)

    def search(self, apis: list[str], query: np.ndarray, k: int = 1) -> list[DocHit]:
        """The ``k`` chunks of ``apis`` nearest to ``query``."""
        table = self._table()
        names = [name for name in apis if SAFE_NAME.match(name)]
        if table is None or not names:
            return []
        where = "api IN (" + ", ".join(f"'{name}'" for name in names) + ")"
        rows = (
            table.search(np.asarray(query, dtype=np.float32), vector_column_name="vector")
            .distance_type("cosine")
            .where(where, prefilter=True)
            .select(["api", "section", "text", "_distance"])
            .limit(k)
            .to_list()
        )
        return [DocHit(row["api"], row["section"], row["text"], 1.0 - float(row["_distance"])) for row in rows]

    def rows(self) -> list[dict]:
        table = self._table()
        return [] if table is None else table.to_arrow().select(["api", "section", "text"]).to_pylist()
