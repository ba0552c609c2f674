"""Conferences in SQLite: the tree's nodes, the description cache, what was built and when."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import sqlite_utils

from scholar_tui.config.locations import Locations
from ...indexes.db import open_database
from .paths import node_path_text
from .tree import ConferenceError, Node, Tree


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


class ConferenceStore:
    """One SQLite connection (per thread: open one in each worker)."""

    def __init__(self, where: Locations, db: sqlite_utils.Database | None = None) -> None:
        self.where = where
        self.db = db or open_database(where)

    # -- the description cache -----------------------------------------------------------------
    def cached_descriptions(self, hashes: list[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        for start in range(0, len(hashes), 500):  # SQLite's bound-parameter limit
            chunk = hashes[start:start + 500]
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
    def save_tree(self, tree: Tree, source: str, describer: str, descriptions: dict[int, tuple[str, str]]) -> None:
        """Replace the conference's nodes with ``tree``'s (one transaction)."""
        rows = []
        for node in tree.nodes:
            position = 0 if node.parent is None else tree.nodes[node.parent].children.index(node.id)
            rows.append((tree.name, node.id, node.parent, position, node.kind, node.key, node.label, node.text,
                         node.depth, node_path_text(tree, node), descriptions.get(node.id, (None, ""))[0]))
        leaves = sum(1 for node in tree.leaves() if node.text)
        with self.db.conn:
            self.db.conn.execute("delete from conference_nodes where conference = ?", [tree.name])
            self.db.conn.execute(
                """insert into conferences (name, source, root, nodes, leaves, describer, imported_at)
                   values (?, ?, ?, ?, ?, ?, ?)
                   on conflict(name) do update set source = excluded.source, root = excluded.root,
                   nodes = excluded.nodes, leaves = excluded.leaves, describer = excluded.describer,
                   imported_at = excluded.imported_at""",
                [tree.name, source, tree.root.label, len(tree.nodes), leaves, describer, _now()],
            )
            self.db.conn.executemany(
                "insert into conference_nodes (conference, id, parent_id, position, kind, key, label, text, depth,"
                " path, description_hash) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
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

    def conference(self, name: str) -> ConferenceRecord:
        for record in self.conferences():
            if record.name == name:
                return record
        known = ", ".join(record.name for record in self.conferences()) or "none imported yet"
        raise ConferenceError(f"no conference named {name!r} (known: {known}; import one with `scholar-tui conf import`)")

    def load_tree(self, name: str) -> Tree:
        """The stored tree, as imported (node ids and order preserved)."""
        self.conference(name)
        rows = self.db.execute(
            "select id, parent_id, kind, key, label, text, depth from conference_nodes where conference = ?"
            " order by id", [name]
        ).fetchall()
        nodes = [Node(id=row[0], parent=row[1], kind=row[2], key=row[3], label=row[4], text=row[5], depth=row[6])
                 for row in rows]
        for node in nodes:
            if node.parent is not None:
                nodes[node.parent].children.append(node.id)
        return Tree(name=name, nodes=nodes)

    def descriptions(self, name: str, node_ids: list[int] | None = None) -> dict[int, str]:
        query = ("select n.id, d.description from conference_nodes n join conference_descriptions d"
                 " on d.content_hash = n.description_hash where n.conference = ?")
        params: list[Any] = [name]
        if node_ids is not None:
            if not node_ids:
                return {}
            query += f" and n.id in ({','.join('?' * len(node_ids))})"
            params += list(node_ids)
        return {row[0]: row[1] for row in self.db.execute(query, params).fetchall()}

    def delete(self, name: str) -> None:
        self.conference(name)
        with self.db.conn:
            self.db.conn.execute("delete from conference_nodes where conference = ?", [name])
            self.db.conn.execute("delete from conferences where name = ?", [name])

    def close(self) -> None:
        self.db.close()
