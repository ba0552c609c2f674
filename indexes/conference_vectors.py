"""LanceDB tables for Conference QA: one table per conference, one row per root-to-leaf path.

Each row holds two embeddings of the same path: ``star_vector`` (its STAR description) and
``path_vector`` (the raw '»'-joined path, the paper's baseline). Both are L2-normalised and
searched by cosine in numpy (``load_paths``): a conference has thousands of paths, so an exact
scan is a millisecond and no ANN index is built.

``text_hash`` columns let a rebuild keep the vector of every text that did not change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from scholar_tui.config.locations import Locations
from scholar_tui.indexes.db import open_vectors, replace_table

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
    return pa.schema(
        [
            pa.field("node_id", pa.int64()),
            pa.field("path", pa.string()),
            pa.field("value", pa.string()),
            pa.field("description", pa.string()),
            pa.field("star_hash", pa.string()),
            pa.field("path_hash", pa.string()),
            pa.field("star_vector", pa.list_(pa.float32(), dimension)),
            pa.field("path_vector", pa.list_(pa.float32(), dimension)),
        ]
    )


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
    return {
        method: dict(zip(table.column(f"{method}_hash").to_pylist(), _matrix(table, column), strict=False))
        for method, column in VECTOR_COLUMNS.items()
    }


def holds_rows(where: Locations, conference: str, rows: list[PathRow]) -> bool:
    """True when the conference's table already holds exactly ``rows`` (same order, texts and hashes)."""
    opened = open_table(where, conference)
    if opened is None:
        return False
    table = opened.to_arrow().select(["node_id", "path", "value", "description", "star_hash", "path_hash"])
    stored = zip(*(table.column(name).to_pylist() for name in table.column_names), strict=False)
    return table.num_rows == len(rows) and all(
        stored_row == (row.node_id, row.path, row.value, row.description, row.star_hash, row.path_hash)
        for stored_row, row in zip(stored, rows, strict=False)
    )


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
class PathTable:
    """A conference's whole table in memory: searching thousands of paths is one matrix product.

    Rows are in document order; ``vectors[method]`` is an (n, d) L2-normalised float32 matrix.
    """

    node_ids: list[int]
    paths: list[str]
    values: list[str]
    descriptions: list[str]
    vectors: dict[str, np.ndarray]

    def __len__(self) -> int:
        return len(self.node_ids)


def _matrix(table: pa.Table, column: str) -> np.ndarray:
    rows = table.num_rows
    if not rows:
        return np.zeros((0, 0), np.float32)
    flat = table.column(column).combine_chunks().values.to_numpy(zero_copy_only=False)
    return np.asarray(flat, dtype=np.float32).reshape(rows, -1)


def load_paths(where: Locations, conference: str) -> PathTable | None:
    """Every path of the conference with both of its vectors, or None when it has no table."""
    opened = open_table(where, conference)
    if opened is None:
        return None
    table = opened.to_arrow()
    return PathTable(
        node_ids=table.column("node_id").to_pylist(),
        paths=table.column("path").to_pylist(),
        values=table.column("value").to_pylist(),
        descriptions=table.column("description").to_pylist(),
        vectors={method: _matrix(table, column) for method, column in VECTOR_COLUMNS.items()},
    )


def drop_unreadable_tables(where: Locations) -> list[tuple[str, str]]:
    """(table name, problem) for each conference table LanceDB cannot read, dropped (its folder
    removed when lance cannot drop it): the vectors are derived, a re-import makes them again."""
    import shutil

    db = open_vectors(where)
    dropped = []
    for name in db.list_tables().tables:
        if not name.startswith("conference_"):
            continue
        try:
            db.open_table(name).to_arrow()
        except Exception as error:
            dropped.append((name.removeprefix("conference_"), (str(error).splitlines() or ["unreadable"])[0][:120]))
            try:
                db.drop_table(name)
            except Exception:
                shutil.rmtree(where.lancedb_dir / f"{name}.lance", ignore_errors=True)
    return dropped


def drop_table(where: Locations, conference: str) -> None:
    if open_table(where, conference) is not None:
        open_vectors(where).drop_table(table_name(conference))
