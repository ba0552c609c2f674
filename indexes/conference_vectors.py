"""LanceDB tables for Conference QA: one table per conference, one row per root-to-leaf path.

Each row holds two embeddings of the same path: ``star_vector`` (its STAR description) and
``path_vector`` (the raw '»'-joined path, the paper's baseline). Both are L2-normalised and
searched by cosine distance; k is small (5), and a conference has thousands of paths, so an exact
scan is fast and no ANN index is built.

``text_hash`` columns let a rebuild keep the vector of every text that did not change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from scholar_tui.config.locations import Locations
from .db import open_vectors, replace_table

VECTOR_COLUMNS = {"star": "star_vector", "path": "path_vector"}


def table_name(conference: str) -> str:
    """A LanceDB-safe table name for a conference name ("ICML 2023" → "conference_ICML_2023")."""
    return "conference_" + re.sub(r"[^A-Za-z0-9_.-]", "_", conference)


@dataclass
class PathRow:
    node_id: int
    path: str
    value: str
    description: str
    star_hash: str
    path_hash: str


def _schema(dimension: int) -> pa.Schema:
    return pa.schema([
        pa.field("node_id", pa.int64()),
        pa.field("path", pa.string()),
        pa.field("value", pa.string()),
        pa.field("description", pa.string()),
        pa.field("star_hash", pa.string()),
        pa.field("path_hash", pa.string()),
        pa.field("star_vector", pa.list_(pa.float32(), dimension)),
        pa.field("path_vector", pa.list_(pa.float32(), dimension)),
    ])


def _vectors(matrix: np.ndarray, dimension: int) -> pa.FixedSizeListArray:
    flat = pa.array(np.ascontiguousarray(matrix, dtype=np.float32).ravel(), type=pa.float32())
    return pa.FixedSizeListArray.from_arrays(flat, dimension)


def open_table(where: Locations, conference: str):
    """The conference's table, or None (open_table raises ValueError for a missing table)."""
    try:
        return open_vectors(where).open_table(table_name(conference))
    except ValueError:
        return None


def existing_vectors(where: Locations, conference: str) -> dict[str, dict[str, np.ndarray]]:
    """{"star": {text hash: vector}, "path": {...}} from the conference's current table, if any."""
    opened = open_table(where, conference)
    if opened is None:
        return {"star": {}, "path": {}}
    table = opened.to_arrow()
    found: dict[str, dict[str, np.ndarray]] = {}
    for method, column in VECTOR_COLUMNS.items():
        hashes = table.column(f"{method}_hash").to_pylist()
        vectors = np.asarray(table.column(column).combine_chunks().values.to_numpy(zero_copy_only=False),
                             dtype=np.float32).reshape(len(hashes), -1) if hashes else np.zeros((0, 0), np.float32)
        found[method] = dict(zip(hashes, vectors))
    return found


def write_table(where: Locations, conference: str, rows: list[PathRow], star: np.ndarray, path: np.ndarray) -> None:
    """Replace the conference's table with these rows and vectors."""
    dimension = int(star.shape[1])
    data = pa.Table.from_arrays(
        [
            pa.array([row.node_id for row in rows], pa.int64()),
            pa.array([row.path for row in rows], pa.string()),
            pa.array([row.value for row in rows], pa.string()),
            pa.array([row.description for row in rows], pa.string()),
            pa.array([row.star_hash for row in rows], pa.string()),
            pa.array([row.path_hash for row in rows], pa.string()),
            _vectors(star, dimension),
            _vectors(path, dimension),
        ],
        schema=_schema(dimension),
    )
    replace_table(open_vectors(where), table_name(conference), data)


@dataclass
class VectorHit:
    node_id: int
    path: str
    value: str
    description: str
    score: float
    """Cosine similarity (1 − cosine distance)."""


def search_table(table, query: np.ndarray, method: str, k: int = 5) -> list[VectorHit]:
    """The ``k`` paths nearest to ``query`` by cosine, on the STAR or the path vectors."""
    rows = (
        table
        .search(np.asarray(query, dtype=np.float32), vector_column_name=VECTOR_COLUMNS[method])
        .distance_type("cosine")
        .select(["node_id", "path", "value", "description", "_distance"])
        .limit(k)
        .to_list()
    )
    return [VectorHit(int(row["node_id"]), row["path"], row["value"], row["description"], 1.0 - float(row["_distance"]))
            for row in rows]


def drop_table(where: Locations, conference: str) -> None:
    if open_table(where, conference) is not None:
        open_vectors(where).drop_table(table_name(conference))
