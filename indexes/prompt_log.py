"""The prompt log: every completion, written to SQLite the moment it finishes."""

from __future__ import annotations

import threading
from datetime import datetime, timezone
from typing import Any

import sqlite_utils

from scholar_tui.config.locations import Locations
from scholar_tui.indexes.db import fits_sqlite, open_database


class PromptLog:
    """A completion sink (``LLM.add_sink``); thread-safe, one committed row per call."""

    def __init__(self, where: Locations) -> None:
        self._where = where
        self._db: sqlite_utils.Database | None = None
        self._lock = threading.Lock()

    def record(self, completion: Any) -> None:
        row = completion.as_log_record()
        row["datetime_utc"] = datetime.now(timezone.utc).isoformat()
        with self._lock:
            db = self._database()
            with db.conn:  # committed at once: a crash later loses nothing logged
                db.table("llm_calls").insert(row)

    def _database(self) -> sqlite_utils.Database:
        if self._db is None:
            self._db = open_database(self._where)
        return self._db

    def recent(self, limit: int = 20, *, origin: str | None = None, run: str | None = None) -> list[dict[str, Any]]:
        """The latest calls, newest first; ``origin`` and ``run`` keep the calls of that kind or run,
        those of a run nested in it included (a question's AutoFeedback loop is the question's too)."""
        conditions: list[str] = []
        values: list[str] = []
        if origin is not None:
            conditions.append("(origin = ? or parent_origin = ?)")
            values += [origin, origin]
        if run is not None:
            conditions.append("(origin_run = ? or parent_run = ?)")
            values += [run, run]
        condition = f"where {' and '.join(conditions)}" if conditions else ""
        if not fits_sqlite(limit):  # more than SQLite can count is all of them (-1: no limit)
            limit = -1
        with self._lock:
            query = f"select * from llm_calls {condition} order by id desc limit ?"
            return list(self._database().query(query, [*values, limit]))

    def call(self, call_id: int) -> dict[str, Any] | None:
        if not fits_sqlite(call_id):  # no row has an id SQLite cannot hold
            return None
        with self._lock:
            rows = list(self._database().query("select * from llm_calls where id = ?", [call_id]))
        return rows[0] if rows else None

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.conn.close()
                self._db = None
