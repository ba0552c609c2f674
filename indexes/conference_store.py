"""Conferences in SQLite: the tree's nodes, the description cache, what was built and when.

Plain rows in, plain rows out: the conference engine (``core.conference``) turns its tree into
``NodeRow``s and back, so nothing here knows what a tree is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import sqlite_utils

from scholar_tui.config.locations import Locations
from scholar_tui.indexes.db import open_database

SQLITE_PARAMETERS = 500
"""Bound parameters per statement, safely under SQLite's limit."""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class ConferenceRecord:
    name: str
    source: str
    root: str
    nodes: int
    leaves: int
    describer: str
    embedder: str | None
    imported_at: str
    describe_s: float | None
    embed_s: float | None
    build_s: float | None
    generated: int | None
    embedded: int | None


@dataclass(frozen=True)
class NodeRow:
    """One tree node as stored; ``position`` is its place among its parent's children."""

    id: int
    parent_id: int | None
    position: int
    kind: str
    key: str
    label: str
    text: str | None
    depth: int
    path: str
    description_hash: str | None


class ConferenceStore:
    """One SQLite connection (per thread: open one in each worker)."""

    def __init__(self, where: Locations, db: sqlite_utils.Database | None = None) -> None:
        self.where = where
        self.db = db or open_database(where)

    # -- the description cache -----------------------------------------------------------------
    def cached_descriptions(self, hashes: list[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        for start in range(0, len(hashes), SQLITE_PARAMETERS):
            chunk = hashes[start : start + SQLITE_PARAMETERS]
            marks = ",".join("?" * len(chunk))
            for row in self.db.execute(
                f"select content_hash, description from conference_descriptions where content_hash in ({marks})", chunk
            ).fetchall():
                found[row[0]] = row[1]
        return found

    def store_descriptions(self, rows: list[tuple[str, str]], describer: str) -> None:
        with self.db.conn:
            self.db.conn.executemany(
                "insert or replace into conference_descriptions (content_hash, describer, description, created_at)"
                " values (?, ?, ?, ?)",
                [(key, describer, text, _now()) for key, text in rows],
            )

    # -- conferences ---------------------------------------------------------------------------
    def save_nodes(
        self, name: str, source: str, root: str, leaves: int, describer: str, nodes: Sequence[NodeRow]
    ) -> None:
        """Replace the conference's nodes with ``nodes`` (one transaction)."""
        with self.db.conn:
            self.db.conn.execute("delete from conference_nodes where conference = ?", [name])
            self.db.conn.execute(
                """insert into conferences (name, source, root, nodes, leaves, describer, imported_at)
                   values (?, ?, ?, ?, ?, ?, ?)
                   on conflict(name) do update set source = excluded.source, root = excluded.root,
                   nodes = excluded.nodes, leaves = excluded.leaves, describer = excluded.describer,
                   imported_at = excluded.imported_at""",
                [name, source, root, len(nodes), leaves, describer, _now()],
            )
            self.db.conn.executemany(
                "insert into conference_nodes (conference, id, parent_id, position, kind, key, label, text, depth,"
                " path, description_hash) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        name,
                        row.id,
                        row.parent_id,
                        row.position,
                        row.kind,
                        row.key,
                        row.label,
                        row.text,
                        row.depth,
                        row.path,
                        row.description_hash,
                    )
                    for row in nodes
                ],
            )

    def record_build(self, name: str, **figures: Any) -> None:
        columns = ", ".join(f"{key} = ?" for key in figures)
        with self.db.conn:
            self.db.conn.execute(f"update conferences set {columns} where name = ?", [*figures.values(), name])

    def conferences(self) -> list[ConferenceRecord]:
        rows = self.db.execute(
            "select name, source, root, nodes, leaves, describer, embedder, imported_at, describe_s, embed_s,"
            " build_s, generated, embedded from conferences order by name"
        ).fetchall()
        return [ConferenceRecord(*row) for row in rows]

    def conference(self, name: str) -> ConferenceRecord | None:
        return next((record for record in self.conferences() if record.name == name), None)

    def node_rows(self, name: str) -> list[NodeRow]:
        """The stored nodes in id order (ids are positions in document order)."""
        rows = self.db.execute(
            "select id, parent_id, position, kind, key, label, text, depth, path, description_hash"
            " from conference_nodes where conference = ? order by id",
            [name],
        ).fetchall()
        return [NodeRow(*row) for row in rows]

    def descriptions(self, name: str, node_ids: list[int] | None = None) -> dict[int, str]:
        query = (
            "select n.id, d.description from conference_nodes n join conference_descriptions d"
            " on d.content_hash = n.description_hash where n.conference = ?"
        )
        params: list[Any] = [name]
        if node_ids is not None:
            if not node_ids:
                return {}
            query += f" and n.id in ({','.join('?' * len(node_ids))})"
            params += list(node_ids)
        return {row[0]: row[1] for row in self.db.execute(query, params).fetchall()}

    def delete(self, name: str) -> None:
        with self.db.conn:
            self.db.conn.execute("delete from conference_nodes where conference = ?", [name])
            self.db.conn.execute("delete from conferences where name = ?", [name])

    def close(self) -> None:
        self.db.close()
